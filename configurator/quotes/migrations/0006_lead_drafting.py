"""A lead follows its quotes: drafting while one is written or reviewed, quoted once issued.

Before, a lead became quoted as soon as a draft was written from it. Leads whose quotes are
all still drafts or under review are set to drafting, and those whose quotes were all
cancelled back to in progress, by the rule of `services.lead_follow_quotes` as it stood when
this migration was written.
"""

from django.db import migrations, models

HELD_BY_CUSTOMER = {"issued", "accepted"}
BEING_WRITTEN = {"draft", "submitted", "returned", "approved"}


def follow_quotes(apps, schema_editor) -> None:
    Lead = apps.get_model("quotes", "Lead")
    for lead in Lead.objects.filter(quotes__isnull=False).distinct():
        statuses = set(lead.quotes.values_list("status", flat=True))
        if statuses & HELD_BY_CUSTOMER or (
            "expired" in statuses and not statuses & BEING_WRITTEN
        ):
            status = "quoted"
        elif statuses & BEING_WRITTEN:
            status = "drafting"
        else:
            status = "in_progress"
        if lead.status != status:
            Lead.objects.filter(pk=lead.pk).update(status=status)


def back_to_quoted(apps, schema_editor) -> None:
    apps.get_model("quotes", "Lead").objects.filter(status="drafting").update(status="quoted")


class Migration(migrations.Migration):
    dependencies = [
        ("quotes", "0005_leads"),
    ]

    operations = [
        migrations.AlterField(
            model_name="lead",
            name="status",
            field=models.CharField(
                choices=[
                    ("new", "new"),
                    ("in_progress", "in progress"),
                    ("drafting", "drafting a quote"),
                    ("quoted", "quoted"),
                ],
                default="new",
                max_length=20,
                verbose_name="status",
            ),
        ),
        migrations.RunPython(follow_quotes, back_to_quoted),
    ]
