"""The engine is plain Python: nothing under configurator/engine/ imports Django."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "configurator" / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))


def imported_modules(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_the_engine_has_modules() -> None:
    assert {"checks.py", "balance.py", "evaluate.py"} <= {path.name for path in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ENGINE)))
def test_module_does_not_import_django(path: Path) -> None:
    django = {name for name in imported_modules(path.read_text()) if name.split(".")[0] == "django"}
    assert not django
