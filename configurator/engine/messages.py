"""Texts the engine reports, as message ids with parameters: translatable where they are shown.

A check's detail and fix, the recommender's why and reasons and the assumptions of sizing and
of the performance model are `Message`s: the English text is the message id, written with
named `%(…)s` placeholders, and the numbers are its parameters. A `Message` is a `str` — its
value is the English rendering — so everything that reads a finding as text keeps working and
the API's English answers stay as they were; the page and the API render it again in the
request's language (`configurator.translation.localize`) from a translation catalogue, so a
third language is a catalogue file, not a code change. No Django here: `_` and `ngettext` below
only build messages (xgettext knows both names, so `makemessages` collects the ids).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import reduce

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


class Message(str):
    """A text with its message id and parameters; its `str` value is the English rendering."""

    def __new__(
        cls,
        msgid: str,
        params: Mapping[str, object] | None = None,
        plural: str | None = None,
        count: int | None = None,
    ) -> Message:
        params = params if params is not None else {}
        # English needs no lookup: nested messages already are their English text. The
        # engine builds many messages per evaluation, so this stays one format and one tuple.
        template = msgid if plural is None or count == 1 else plural
        self = super().__new__(cls, template % params if params or "%%" in template else template)
        self._parts = (msgid, params, plural, count)
        return self

    @property
    def msgid(self) -> str:
        return self._parts[0]

    @property
    def params(self) -> Mapping[str, object]:
        return self._parts[1]

    @property
    def plural(self) -> str | None:
        return self._parts[2]

    @property
    def count(self) -> int | None:
        return self._parts[3]

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        """Return the text in the language `gettext` and `ngettext` translate into."""
        msgid, params, plural, count = self._parts
        return _render(msgid, plural, count, params, gettext, ngettext)

    def as_dict(self) -> dict[str, object]:
        """Return the message id and its parameters as JSON-ready data."""
        msgid, params, _plural, _count = self._parts
        if not params:  # a title, most fixes' "keep it": nothing to walk
            return {"message_id": msgid, "params": {}}
        return {
            "message_id": msgid,
            "params": {
                key: value.as_dict() if isinstance(value, Message) else value
                for key, value in params.items()
            },
        }


def _render(
    msgid: str,
    plural: str | None,
    count: int | None,
    params: Mapping[str, object],
    gettext: Gettext,
    ngettext: Ngettext,
) -> str:
    values = {
        key: value.render(gettext, ngettext) if isinstance(value, Message | Written) else value
        for key, value in params.items()
    }
    template = gettext(msgid) if plural is None else ngettext(msgid, plural, count or 0)
    return template % values if values or "%%" in template else template


class Written(str):
    """Text people wrote, kept as data (a recipe's name, its measured result), not a message
    the code composes: rendered, its entry in the translation catalogue where the catalogue has
    one (the guide's recipes, `catalogue.GUIDE_RECIPES`), else the text exactly as written."""

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        # gettext("") is the catalogue's header, not a translation of nothing.
        return gettext(str(self)) if self else ""


def _(msgid: str, **params: object) -> Message:
    """Build a message; its id is the English text with `%(name)s` placeholders."""
    return Message(msgid, params)  # `params` is this call's own dict: no copy needed


def ngettext(singular: str, plural: str, count: int, **params: object) -> Message:
    """Build a message whose wording follows `count` (1 GPU, 2 GPUs)."""
    params["n"] = count
    return Message(singular, params, plural, count)


def join(parts: Iterable[str], separator: str = "; ") -> Message:
    """Join messages into one; the separators "; " and ", " are written as each language
    writes them (Chinese: "；" and "、"), any other (" + ") as it is."""
    parts = list(parts)
    template = separator.join(f"%(part{index})s" for index in range(len(parts)))
    return Joined(template, {f"part{index}": part for index, part in enumerate(parts)}, separator)


class Joined(Message):
    """Messages one after another: its English text is theirs joined by the separator; each
    language renders every part and joins them with its own separator."""

    def __new__(cls, template: str, params: Mapping[str, object], separator: str) -> Joined:
        self = super().__new__(cls, template, params)
        self._separator = separator
        return self

    def __reduce__(self):
        return Joined, (self.msgid, dict(self.params), self._separator)

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        rendered = [
            value.render(gettext, ngettext) if isinstance(value, Message | Written) else value
            for value in self.params.values()
        ]
        separator = gettext(self._separator) if self._separator in SEPARATORS else self._separator
        return separator.join(str(part) for part in rendered)


# Translators: the separators `join` writes between clauses ("; ") and between items of a
# list (", "); Chinese writes "；" and "、".
SEPARATORS = frozenset({_("; "), _(", ")})


def sentences(parts: Iterable[str]) -> str:
    """Join whole sentences into one text: a space between them in English, none in Chinese."""
    return reduce(
        # Translators: one sentence after another; Chinese puts no space between them.
        lambda text, sentence: _("%(text)s %(sentence)s", text=text, sentence=sentence),
        parts,
    )


def alternatives(parts: Iterable[str]) -> str:
    """Join alternatives: `Ampere or Hopper`, `A or B or C`."""
    return reduce(lambda first, last: _("%(first)s or %(last)s", first=first, last=last), parts)


# Counted nouns the engine's texts share: one catalogue entry each.


def counted_gpus(count: int) -> Message:
    """Return `1 GPU`, `8 GPUs`."""
    return ngettext("%(n)s GPU", "%(n)s GPUs", count)


def counted_replicas(count: int) -> Message:
    """Return `1 replica`, `2 replicas`."""
    return ngettext("%(n)s replica", "%(n)s replicas", count)


def counted_sequences(count: int) -> Message:
    """Return `1 sequence`, `8 sequences`."""
    return ngettext("%(n)s sequence", "%(n)s sequences", count)


def counted_days(shown: str) -> Message:
    """Return days as a number already written ("23", "0.5"); a fraction takes the plural."""
    value = float(shown)
    count = int(value) if value.is_integer() else 2
    return ngettext("%(days)s day", "%(days)s days", count, days=shown)
