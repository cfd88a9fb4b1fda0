"""Leads now live in the quotes app (`quotes/0005_leads`): the pages app keeps no model.

State only: the tables stay, under the quotes app's models.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("web", "0002_lead_permissions"), ("quotes", "0005_leads")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="LeadBuild"),
                migrations.DeleteModel(name="Lead"),
            ],
            database_operations=[],
        )
    ]
