"""Reads for the presales workspace."""

from django.db.models import Count, QuerySet

from configurator.web.models import Lead


def leads_inbox(*, status: str | None = None) -> QuerySet[Lead]:
    """Return the leads, newest first, with how many builds were saved to each."""
    leads = Lead.objects.annotate(saved_builds=Count("builds")).order_by("-created_at")
    return leads.filter(status=status) if status else leads


def lead_counts() -> dict[str, int]:
    """Return how many leads each status holds."""
    counts = dict.fromkeys(Lead.Status.values, 0)
    for row in Lead.objects.values("status").annotate(n=Count("id")):
        counts[row["status"]] = row["n"]
    return counts
