from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConfiguratorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "configurator"
    verbose_name = _("Configurator")

    def ready(self) -> None:
        from configurator.revisions import connect_signals

        connect_signals()
