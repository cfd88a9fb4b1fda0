"""The product's roles: customers (anyone, signed in or not), presales and architects.

Presales and architects are staff accounts in the groups a migration creates. Permissions
come from the groups, so a view checks a permission, never a group name.
"""

ARCHITECTS = "Architects"
PRESALES = "Presales"
ROLE_GROUPS = {"architect": ARCHITECTS, "presales": PRESALES}
