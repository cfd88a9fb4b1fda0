"""The project's own system checks (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register

PROXY_COUNT_ZERO = "configurator.W001"


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
