from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConfiguratorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "configurator"
    verbose_name = _("Configurator")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed
        from django.db.models.signals import post_migrate

        from configurator import checks  # noqa: F401  (registers the project's checks)
        from configurator.revisions import connect_signals, revisions_renew
        from configurator.throttle import sign_in_failed

        connect_signals()
        # Failed sign-ins count against their address (the per-address sign-in throttle).
        user_login_failed.connect(sign_in_failed, dispatch_uid="sign-in-failures-per-address")
        # Data migrations write through historical models, which send no signals.
        post_migrate.connect(revisions_renew, sender=self, dispatch_uid="revisions-after-migrate")
