"""The product's roles: customers (anyone, signed in or not), presales and architects.

Presales and architects are staff accounts in the groups a migration creates. Permissions
come from the groups, so a view checks a permission, never a group name — and so does the
navigation: `TOOLS` lists each role's pages with the permission its view asks, and a user is
shown the ones they may open (presales: leads and quotes; architects: those, the review
queue, the rules, the catalog, the fleet audit, node probes and the monthly report).
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

ARCHITECTS = "Architects"
PRESALES = "Presales"
ROLE_GROUPS = {"architect": ARCHITECTS, "presales": PRESALES}


@dataclass(frozen=True)
class Tool:
    """A staff page in the navigation: its name, its URL's name and the permission it asks."""

    label: str
    url_name: str
    permission: str
    kwargs: dict[str, str] = field(default_factory=dict)


# In the order the header and the admin index list them. The rules and the catalog are shown
# to those who edit them (presales read them in the admin, but have no work to do there).
TOOLS = (
    Tool(_("Leads"), "web:presales", "quotes.change_lead"),
    Tool(_("Quotes"), "quotes:list", "quotes.view_quote"),
    Tool(_("Review queue"), "quotes:review", "quotes.review_quote"),
    Tool(
        _("Rules"), "admin:configurator_ruleprofile_changelist", "configurator.change_ruleprofile"
    ),
    Tool(_("Catalog admin"), "admin:app_list", "catalog.change_gpu", {"app_label": "catalog"}),
    Tool(_("Fleet audit"), "fleet:upload", "fleet.add_fleetaudit"),
    Tool(_("Node probes"), "fleet:probe-upload", "fleet.add_nodeprobe"),
    Tool(_("Monthly report"), "fleet:monthly", "fleet.view_fleetaudit"),
)


def tools_for(user) -> list[Tool]:
    """Return the staff pages this user may open, in `TOOLS`' order."""
    if not getattr(user, "is_authenticated", False) or not user.is_staff:
        return []
    return [tool for tool in TOOLS if user.has_perm(tool.permission)]
