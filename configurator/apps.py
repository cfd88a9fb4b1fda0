from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConfiguratorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "configurator"
    verbose_name = _("Configurator")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from configurator.revisions import connect_signals, revisions_renew

        connect_signals()
        # Data migrations write through historical models, which send no signals.
        post_migrate.connect(revisions_renew, sender=self, dispatch_uid="revisions-after-migrate")
