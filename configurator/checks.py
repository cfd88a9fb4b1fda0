"""The project's own system checks (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

PROXY_COUNT_ZERO = "configurator.W001"
PDF_LANGUAGE_UNKNOWN = "configurator.E001"


@register(Tags.security, deploy=True)
def trusted_proxies_check(app_configs, **kwargs) -> list[Warning]:
    """Warn when production counts every client by the address that connects to gunicorn."""
    if settings.DEBUG or settings.TRUSTED_PROXY_COUNT:
        return []
    return [
        Warning(
            "TRUSTED_PROXY_COUNT is 0: every client is known by the address that connects to "
            "gunicorn.",
            hint=(
                "Behind a proxy every client then shares the proxy's address: five wrong "
                "passwords for an account lock it for everyone, a burst of failed sign-ins "
                "stops all staff signing in, and a few quote requests throttle every customer. "
                "Set TRUSTED_PROXY_COUNT to the number of proxies in front of gunicorn (1 for "
                "the README's recipe) and TRUSTED_PROXY_ADDRESSES to the addresses they connect "
                f"from. If clients reach gunicorn directly, silence {PROXY_COUNT_ZERO} "
                "(SILENCED_SYSTEM_CHECKS)."
            ),
            id=PROXY_COUNT_ZERO,
        )
    ]


@register()
def pdf_languages_check(app_configs, **kwargs) -> list[Error]:
    """Refuse a PDF language that is not one of the page languages (it would have no catalogue
    the pages keep complete)."""
    codes = {code for code, _name in settings.LANGUAGES}
    return [
        Error(
            f"PDF_LANGUAGES names {language!r}, which is not in LANGUAGES.",
            hint="Add the language to LANGUAGES (with its catalogue) or remove it here.",
            id=PDF_LANGUAGE_UNKNOWN,
        )
        for language in settings.PDF_LANGUAGES
        if language not in codes
    ]
