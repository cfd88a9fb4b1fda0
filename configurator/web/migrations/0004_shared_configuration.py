"""Short links: SharedConfiguration (web/models.py), a permalink kept under a short id."""

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('web', '0003_leads_moved'),
    ]

    operations = [
        migrations.CreateModel(
            name='SharedConfiguration',
            fields=[
                ('id', models.CharField(editable=False, max_length=10, primary_key=True, serialize=False)),
                ('query', models.TextField(editable=False, verbose_name='permalink query')),
                ('digest', models.CharField(editable=False, max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='shared at')),
            ],
            options={
                'verbose_name': 'shared configuration',
                'verbose_name_plural': 'shared configurations',
            },
        ),
    ]
