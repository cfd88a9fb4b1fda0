"""How an input field of the engine's dataclasses is declared: bounds, label, help, unit, mode.

A field of `build.Workload` carries its declaration in its dataclass metadata
(`declared(...)`), beside its default, so the workload's fields are written once: the API's
schema (`configurator.schemas.WorkloadIn`), the page's form and permalink, the template's
inputs and the quote's frozen workload and its summary are all made from
`declarations(Workload)`. A new workload field is its line in `Workload`, the engine code that
reads it and a test.

The default is the dataclass field's own (`Field.default`); a field whose default the engine
derives from other fields (a batch of the concurrent users, a context of the prompt and output
lengths) has `None` there and names its fallback and the rule in `fallback` and
`default_text`, which `Workload.__post_init__` applies. No Django here: labels and help are
message ids (`engine.messages._`), rendered where they are shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum

INPUT = "input"  # the metadata key


@dataclass(frozen=True, slots=True)
class Input:
    """One input field as every surface reads it.

    `kind` is `int`, `float`, `str` (a free text of at most `max_length`) or `choice`
    (`choices`: value and message id). `ge`, `gt` and `le` are the bounds the API and the form
    apply. `description` is the API's description of the field (its OpenAPI text, English by
    contract); `help` the page's hint; `modes` the modes the field applies to (empty: all);
    `page` whether the configurator's form carries it, under `page_name` when the page calls
    it otherwise; `searchable` a choice the page draws as a text input with its choices
    listed (a datalist: typed or picked, no JavaScript needed) rather than a select;
    `example` a placeholder such as `3e11`. `fallback` is what applies when the field is not
    given and the engine derives nothing (`default_text` says the rule). `required_unless`
    names the field that, given, fills a required one (a named model its size): the API
    then takes the field as optional and refuses a request without either.

    How a customer's sentence names the field (`engine.sentence`, docs/sentence.md): `words`,
    the phrases beside a number that say it is this field ("users", "并发"), English and
    Chinese; `choice_words`, per choice value the phrases that pick it ("serve", "部署" for
    inference). The field's `unit` says which unit words its number may carry; `unit_alone`
    whether a number in that unit with none of the field's words beside it may fill the field
    (a bare "500 tokens" is no context, prompt or output length: it says none of them).
    """

    kind: str
    label: str
    ge: float | None = None
    gt: float | None = None
    le: float | None = None
    max_length: int | None = None
    choices: tuple[tuple[str, str], ...] = ()
    description: str | None = None
    help: str | None = None
    unit: str | None = None
    modes: tuple[str, ...] = ()
    page: bool = True
    page_name: str | None = None
    searchable: bool = False
    example: str | None = None
    fallback: object = None
    default_text: str | None = None
    required_unless: str | None = None
    words: tuple[str, ...] = ()
    choice_words: tuple[tuple[str, tuple[str, ...]], ...] = ()
    unit_alone: bool = True


@dataclass(frozen=True, slots=True)
class Declared:
    """A declared field: its name, its default (`MISSING` when required) and its `Input`."""

    name: str
    default: object
    spec: Input
    optional: bool  # the field may stay None (`int | None`); else it always has a value

    @property
    def required(self) -> bool:
        return self.default is MISSING

    @property
    def stated_default(self) -> object:
        """Return the default the API states (`None` for an optional field not given)."""
        value = self.default
        if value is None and not self.optional:
            value = self.spec.fallback
        if value is MISSING:
            return None
        return value.value if isinstance(value, Enum) else value

    @property
    def shown_default(self) -> object:
        """Return the default as the pages and the API state it (`None`: none)."""
        value = self.spec.fallback if self.default is None else self.default
        if value is MISSING:
            return None
        return value.value if isinstance(value, Enum) else value

    @property
    def query_name(self) -> str:
        return self.spec.page_name or self.name

    def applies_to(self, mode: str | None) -> bool:
        return not self.spec.modes or mode is None or mode in self.spec.modes


def declared(default: object = MISSING, **spec: object):
    """Return a dataclass field with its default and its declaration (`Input(**spec)`)."""
    return field(default=default, metadata={INPUT: Input(**spec)})


def declarations(cls: type) -> Iterator[Declared]:
    """Yield the declared fields of a dataclass in their order."""
    for each in fields(cls):
        if INPUT in each.metadata:
            optional = "None" in str(each.type)
            yield Declared(each.name, each.default, each.metadata[INPUT], optional)
