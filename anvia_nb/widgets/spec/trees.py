"""The plain data behind a tool's arguments form: what each field is, and what the user entered.

Two trees mirror each other. A :class:`FieldSpec` tree says what the schema asks for (built once
from the tool's ``inputSchema``); an :class:`Entry` tree says what the person typed, verbatim, and
whether they touched each field. Keeping them apart is what lets a half-typed number (``"1e"``) or
broken JSON stay on screen as typed while it is reported as a problem, and what lets an untouched
optional field be left out of the arguments instead of being sent as ``null``, ``0`` or ``""``.
Nothing here imports ipywidgets: the rules are tested without a browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from anvia_nb.errors import UnknownFieldError

__all__ = ["NO_DEFAULT", "OMITTED", "Choice", "Constraints", "Entry", "FieldKind", "FieldSpec"]

FieldKind = Literal[
    "string", "number", "integer", "boolean", "choice", "multi_choice", "list", "object", "union", "json"
]
"""What widget a field gets. ``union`` lets a person choose the type (``type: ["boolean", "string"]``);
``json`` is the fallback for anything the form cannot model."""

SIMPLE_KINDS: frozenset[str] = frozenset({"string", "number", "integer", "boolean"})


class _Marker:
    """A named singleton, so ``None`` (JSON null) stays a real value everywhere."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __bool__(self) -> bool:
        return False


NO_DEFAULT: Any = _Marker("NO_DEFAULT")
"""``FieldSpec.default`` when the schema gives none (a ``default: null`` is a real default)."""

OMITTED: Any = _Marker("OMITTED")
"""What reading an entry gives when the field must not appear in the arguments at all."""


@dataclass(frozen=True)
class Constraints:
    """The schema's checks on one value, kept for hints (placeholders); the one validator checks them."""

    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    format: str | None = None
    min_items: int | None = None
    max_items: int | None = None


@dataclass(frozen=True)
class Choice:
    """One allowed value of an enum (or of a titled ``oneOf``/``anyOf`` of ``const``)."""

    value: Any  # any: a JSON value from the schema
    label: str


@dataclass(frozen=True)
class FieldSpec:
    """One field of the form, as the schema describes it.

    ``name`` is the property name (``""`` for the root and for array items); ``title`` is the
    schema's title when it has one. ``children`` are an object's properties in schema order;
    ``item`` is the spec of an array's items (``list`` and ``multi_choice``); ``options`` are the
    types a ``union`` can take, one spec each. ``schema`` is the resolved sub-schema, kept for
    JSON fields and excluded from comparisons.
    """

    kind: FieldKind
    name: str = ""
    title: str | None = None
    description: str | None = None
    required: bool = False
    default: Any = NO_DEFAULT  # any: the schema's JSON default
    nullable: bool = False
    constraints: Constraints = field(default_factory=Constraints)
    choices: tuple[Choice, ...] = ()
    children: tuple[FieldSpec, ...] = ()
    item: FieldSpec | None = None
    options: tuple[FieldSpec, ...] = ()
    schema: Any = field(default=None, compare=False, repr=False)  # any: the JSON Schema as sent

    @property
    def has_default(self) -> bool:
        return self.default is not NO_DEFAULT

    @property
    def label(self) -> str:
        """What a person reads beside the field: the title, else the property name."""
        return self.title or self.name

    def child(self, name: str) -> FieldSpec:
        """The child spec called ``name`` (``KeyError`` when there is none)."""
        for spec in self.children:
            if spec.name == name:
                return spec
        raise UnknownFieldError(name)


@dataclass(frozen=True)
class Entry:
    """What the user entered into one field, verbatim, and whether they touched it.

    Which attribute matters depends on the field's kind: ``text`` for string, number, integer,
    json (and dates, as ISO text); ``flag`` for boolean (``None`` = not set); ``chosen`` for
    choice and multi_choice (indexes into ``FieldSpec.choices``); ``items`` for lists;
    ``children`` for objects. A union keeps the chosen option's index in ``chosen`` and one
    entry per option in ``items`` (so switching back and forth keeps what was typed). ``null``
    is the explicit "send null" choice of a nullable field.
    """

    touched: bool = False
    null: bool = False
    text: str = ""
    flag: bool | None = None
    chosen: tuple[int, ...] = ()
    items: tuple[Entry, ...] = ()
    children: dict[str, Entry] = field(default_factory=dict)

    @property
    def anything_touched(self) -> bool:
        """Whether this entry or anything inside it was touched."""
        return (
            self.touched
            or any(item.anything_touched for item in self.items)
            or any(child.anything_touched for child in self.children.values())
        )
