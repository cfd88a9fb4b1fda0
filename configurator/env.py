"""Read settings from the environment."""

import os

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, *, default: bool) -> bool:
    """Return a boolean environment variable, refusing values that are neither true nor false."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no).")


def env_list(name: str, *, default: list[str]) -> list[str]:
    """Return a comma-separated environment variable as a list of its non-empty items."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, *, default: int) -> int:
    """Return an integer environment variable, refusing anything that is not a whole number."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not a whole number.") from None
