"""Render the engine's messages in the request's language (the active Django translation).

Every text the product shows is a message id: the engine's `Message`s and `Written` data
(rendered here), Django's gettext everywhere else. No language is special: the active one is
the request's (`LocaleMiddleware`), a PDF renders each text in each of `settings.PDF_LANGUAGES`
(`in_languages`), and a language is added with one `LANGUAGES` entry and its catalogue.
"""

from collections.abc import Callable, Iterable, Mapping

from django.conf import settings
from django.utils import translation
from django.utils.translation import get_language, gettext, ngettext

from configurator.engine import evaluate  # noqa: F401  (registers every check)
from configurator.engine.messages import Message, Written, join
from configurator.engine.registry import REGISTRY, CheckKind

# The language message ids are written in (the engine's `_()`, every gettext call): its texts
# need no catalogue lookup, and a quote freezes its evaluation in it, ids beside.
SOURCE_LANGUAGE = "en"


def localize(text: str) -> str:
    """Return a finding's text in the active language; plain text is returned as it is."""
    if isinstance(text, Message | Written):
        return text.render(gettext, ngettext)
    return text


def speaks_english() -> bool:
    """Return whether the active language is the one message ids are written in (so the
    engine's texts need no lookup)."""
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0] == SOURCE_LANGUAGE


def written(text: str) -> str:
    """Return text people wrote (a recipe's name or result, read from its row) in the active
    language: its catalogue entry where it has one, else as written."""
    return localize(Written(text))


def check_title(code: str, fallback: str = "", status: str = "") -> str:
    """Return a check's title in the active language, from the catalogue its code is
    registered with: for a `status` of pass, what passed ("ECC server memory"), otherwise the
    rule's name; `fallback` (a title frozen with a quote) for a code no longer registered."""
    return localize(REGISTRY.entry(code).title_for(status)) if code in REGISTRY else fallback


def check_code(code: str) -> str:
    """Return the code a page shows beside a check's title: a pitfall's P1–P8, the guide's
    numbers in every language; the other checks' codes are identifiers (`pcie_lanes`), kept
    for the API, and their title names them on a page."""
    registered = REGISTRY.get(code) if code in REGISTRY else None
    return code if registered is not None and registered.kind is CheckKind.PITFALL else ""


def check_label(code: str) -> str:
    """Return how a list of failing checks names one in the active language: a pitfall by
    its code (P1–P8, explained in a legend), any other check by its title."""
    return check_code(code) or check_title(code, code)


def check_labels(labels: Iterable[str]) -> str:
    """Return failing checks' labels (`check_label`, a count beside each maybe) as one list in
    the active language ("P1, P3" in English, "P1、P3" in Chinese)."""
    return localize(join(labels, ", "))


def localized_errors(errors: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Return input errors (messages by field path) in the active language."""
    return {
        path: [str(localize(message)) for message in messages] for path, messages in errors.items()
    }


def in_languages(
    render: Callable[[], object], languages: Iterable[str] | None = None
) -> tuple[str, ...]:
    """Return what `render` writes (a message, a lazy gettext string, a formatted text) in each
    language given, by default each of the PDFs' (`settings.PDF_LANGUAGES`), in that order."""
    rendered = []
    for language in settings.PDF_LANGUAGES if languages is None else languages:
        with translation.override(language):
            rendered.append(str(localize(render())))
    return tuple(rendered)
