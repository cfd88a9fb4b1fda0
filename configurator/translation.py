"""Render the engine's messages in the request's language (the active Django translation)."""

from django.utils.translation import get_language, gettext, ngettext

from configurator.engine.messages import Message, Written


def localize(text: str) -> str:
    """Return a finding's text in the active language; plain text is returned as it is."""
    if isinstance(text, Message | Written):
        return text.render(gettext, ngettext, get_language() or "en")
    return text


def speaks_english() -> bool:
    """Return whether the active language is English, the language the engine writes in."""
    return (get_language() or "en").split("-")[0] == "en"
