"""No domain app imports the pages app: the pages (`configurator.web`) sit on top of the domain.

Leads and quotes, the fleet, background jobs, the catalog and the configurator package itself
are read by the pages, never the other way round; a domain module that needs something the
pages hold means that thing belongs in the domain. Every module below them is read with `ast`,
relative imports resolved, so no import of `configurator.web` hides in a function body either.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = "configurator.web"
DOMAIN = sorted(
    path
    for path in [*(ROOT / "configurator").rglob("*.py"), *(ROOT / "catalog").rglob("*.py")]
    if not path.relative_to(ROOT).as_posix().startswith("configurator/web/")
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, *, is_package: bool = False) -> set[str]:
    """Return every module that `source` (the module `module`) imports, relative ones resolved."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)  # from x import web
    return names


def pages_imports(path: Path) -> set[str]:
    names = imported(path.read_text(), module_name(path), is_package=path.name == "__init__.py")
    return {name for name in names if name == PAGES or name.startswith(PAGES + ".")}


def test_the_walk_covers_every_domain_app() -> None:
    walked = {module_name(path) for path in DOMAIN}
    assert {
        "configurator.quotes.services",
        "configurator.fleet.selectors",
        "configurator.jobs.worker",
        "catalog.views",
        "configurator.services",
    } <= walked
    assert not any(name.startswith(PAGES) for name in walked)


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("from configurator.web.models import Lead", "configurator.quotes.services"),
        ("import configurator.web.services", "configurator.fleet.selectors"),
        ("from configurator import web", "configurator.services"),
        ("from ..web import fields", "configurator.quotes.forms"),
        ("def f():\n    from configurator.web import presenters", "catalog.views"),
    ],
)
def test_every_way_of_importing_the_pages_is_seen(source: str, module: str) -> None:
    assert any(name.startswith(PAGES) for name in imported(source, module))


@pytest.mark.parametrize("path", DOMAIN, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_domain_module_does_not_import_the_pages(path: Path) -> None:
    assert not pages_imports(path)
