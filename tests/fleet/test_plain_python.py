"""The probe parsers, the node facts and the binding script are plain Python, as the engine is."""

from pathlib import Path

import pytest

from tests.engine.test_engine_purity import imported_modules

FLEET = Path(__file__).resolve().parents[2] / "configurator" / "fleet"
PLAIN = [
    "binding.py",
    "probe/__init__.py",
    "probe/parsers.py",
    "probe/lscpu_names.py",
    "probe/facts.py",
    "probe/files.py",
]


def path_of(module: str) -> str:
    path = module.removeprefix("configurator.fleet.").replace(".", "/")
    return path + "/__init__.py" if (FLEET / path).is_dir() else path + ".py"


@pytest.mark.parametrize("name", PLAIN)
def test_module_does_not_import_django(name):
    modules = imported_modules((FLEET / name).read_text())
    assert not {module for module in modules if module.split(".")[0] == "django"}
    inner = {m for m in modules if m.startswith("configurator.")}
    assert all(path_of(module) in PLAIN for module in inner)
