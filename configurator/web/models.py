"""Short links: a configuration shared by its id (/c/<id>/) rather than its long permalink.

A shared configuration is the permalink's query string, kept as it was shared: the link opens
exactly the build and workload the permalink opens, and never changes. Its id is ten
characters drawn by `secrets` from an alphabet without look-alikes (57 characters: about 58
bits), so links cannot be listed by guessing; the same configuration shared twice gets the
same link. Creating links is throttled per address (`views.share`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

# Made and found by `services.configuration_share`.
ALPHABET = "23456789abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
ID_LENGTH = 10
ID_PATTERN = f"[{ALPHABET}]{{{ID_LENGTH}}}"


class SharedConfigurationLocked(ValidationError):
    """An attempt to change a configuration already shared: its link must keep its meaning."""


class SharedConfiguration(models.Model):
    """A configuration shared by a short link: the permalink's query string, as shared."""

    id = models.CharField(primary_key=True, max_length=ID_LENGTH, editable=False)
    query = models.TextField(_("permalink query"), editable=False)
    # The query's SHA-256: the same configuration shared again finds its link.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("shared at"), auto_now_add=True)

    class Meta:
        verbose_name = _("shared configuration")
        verbose_name_plural = _("shared configurations")

    def __str__(self) -> str:
        return self.id

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise SharedConfigurationLocked(_("A shared configuration never changes."))
        super().save(*args, **kwargs)
