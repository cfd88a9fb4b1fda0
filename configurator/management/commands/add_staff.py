"""Create or update a staff account for an architect or a presales engineer."""

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from configurator.roles import ROLE_GROUPS


class Command(BaseCommand):
    help = (
        "Create or update a staff account in the Architects or Presales group. The password is "
        "asked for, or read from the STAFF_PASSWORD environment variable."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--role", choices=sorted(ROLE_GROUPS), required=True)
        parser.add_argument("--email", default="")

    def handle(self, *args, username: str, role: str, email: str, **options) -> None:
        password = os.environ.get("STAFF_PASSWORD") or self.ask_password()
        user_model = get_user_model()
        user = user_model(username=username, email=email)
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        try:
            group = Group.objects.get(name=ROLE_GROUPS[role])
        except Group.DoesNotExist as error:
            message = "Run `manage.py migrate` first: the role groups are missing."
            raise CommandError(message) from error
        with transaction.atomic():
            user, created = user_model.objects.get_or_create(username=username)
            user.email = email or user.email
            user.is_staff = True
            user.set_password(password)
            user.save()
            user.groups.add(group)
        verb = "Created" if created else "Updated"
        self.stdout.write(self.style.SUCCESS(f"{verb} {role} account {username!r}."))

    def ask_password(self) -> str:
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("The passwords do not match.")
        return first
