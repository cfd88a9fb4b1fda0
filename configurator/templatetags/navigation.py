"""The staff navigation: the pages of `configurator.roles.TOOLS` a user may open."""

from django import template
from django.urls import reverse

from configurator.roles import tools_for

register = template.Library()


@register.simple_tag(takes_context=True)
def role_tools(context, user) -> list[dict[str, object]]:
    """Return the user's tools as links: label, URL, and whether it is the page shown."""
    request = context.get("request")
    path = request.path if request is not None else ""
    links = [
        {"label": tool.label, "url": reverse(tool.url_name, kwargs=tool.kwargs), "current": False}
        for tool in tools_for(user)
    ]
    # The page shown is the tool whose address is the longest start of its path (/quotes/
    # is the list, /quotes/review/ the queue).
    shown = [link for link in links if path.startswith(link["url"])]
    if shown:
        max(shown, key=lambda link: len(link["url"]))["current"] = True
    return links
