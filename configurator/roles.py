"""The product's roles: customers (anyone, signed in or not), presales and architects.

Presales and architects are staff accounts in the groups a migration creates. Permissions
come from the groups, so a view checks a permission, never a group name.
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

ARCHITECTS = "Architects"
PRESALES = "Presales"
ROLE_GROUPS = {"architect": ARCHITECTS, "presales": PRESALES}


def in_group(user: AbstractBaseUser | AnonymousUser, group: str) -> bool:
    """Return whether the user is an active member of the group."""
    return bool(user.is_active and user.groups.filter(name=group).exists())
