"""Mark issued quotes whose validity has ended as expired (run daily, e.g. from cron)."""

from django.core.management.base import BaseCommand

from configurator.quotes.services import quotes_expire


class Command(BaseCommand):
    help = "Mark issued quotes whose validity has ended as expired."

    def handle(self, *args, **options) -> None:
        count = quotes_expire()
        self.stdout.write(f"{count} quote(s) expired.")
