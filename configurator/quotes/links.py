"""The customer's link to an issued quote: signed, so it cannot be forged, and expiring.

The signature's timestamp is the moment the quote was issued, so every copy of the link is the
same and all stop working `QUOTE_LINK_MAX_AGE_DAYS` after issue. The link of a quote that was
re-quoted after issue (superseded) still opens it, read-only and marked as replaced.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.core.signing import TimestampSigner, b62_encode

from configurator.quotes.models import Quote, Status

SALT = "configurator.quotes.customer-link"
OPEN_TO_CUSTOMER = (Status.ISSUED, Status.ACCEPTED, Status.SUPERSEDED)


class _IssuedAtSigner(TimestampSigner):
    def __init__(self, issued_at: datetime | None = None) -> None:
        super().__init__(salt=SALT)
        self.issued_at = issued_at

    def timestamp(self) -> str:
        return (
            b62_encode(int(self.issued_at.timestamp())) if self.issued_at else super().timestamp()
        )


def customer_token(quote: Quote) -> str:
    """Return the signed token of an issued quote's customer link."""
    if quote.issued_at is None:
        raise ValueError(f"{quote.number} has not been issued.")
    return _IssuedAtSigner(quote.issued_at).sign(quote.number)


def quote_for_token(token: str) -> Quote | None:
    """Return the issued quote a token names, or None when it names none open to customers.

    Raises BadSignature for a tampered token and SignatureExpired for an expired one.
    """
    number = _IssuedAtSigner().unsign(
        token, max_age=timedelta(days=settings.QUOTE_LINK_MAX_AGE_DAYS)
    )
    return Quote.objects.filter(number=number, status__in=OPEN_TO_CUSTOMER).first()


def customer_replacement(quote: Quote) -> tuple[str, str | None] | None:
    """Return what replaced a superseded quote, for its customer: the newer revision's number,
    and that revision's own token once it is open to the customer too (never a draft's or a
    quote's under review: the customer sees only what was issued to them)."""
    revision = quote.newer_revision if quote.status == Status.SUPERSEDED else None
    if revision is None:
        return None
    token = customer_token(revision) if revision.status in OPEN_TO_CUSTOMER else None
    return revision.number, token
