"""The arguments form of one tool: fields from its ``inputSchema``, a JSON mode, problems, and
a live "will send" line.

A caller (the Call button, the explorer panel) needs three things and no widget details:
whether the arguments can be sent (:attr:`ArgumentsForm.valid`, re-checked on every change),
why not (:attr:`ArgumentsForm.problems`, one plain-words line each; :attr:`ArgumentsForm.summary`
for a status line), and the arguments themselves (:attr:`ArgumentsForm.value`).
:meth:`ArgumentsForm.on_change` tells it when to look again; :meth:`ArgumentsForm.set_value`
refills the form, for instance with the last arguments used.

Every change is checked once, on the whole value, by the one validator shared with ``%mcp
call`` (:func:`anvia_nb.core.protocol.schema.schema_check`, compiled once per schema): the form accepts
exactly the arguments the magic accepts. Each problem is shown once: beside the field it
belongs to once that field was touched, else in the list under the form. A format the form can
recognise (email, uri, date, time) that does not look right gives a hint that never blocks,
since formats are annotations for the validator. Under every form, "will send: {…}" shows
exactly what Call sends, with the connection's secrets masked ("so far: {…}" while a problem
holds it back: the problem itself is said once, where it is).

The JSON mode is the way out for anything the fields cannot say (an explicit ``""`` for an
optional field, ``[]`` for a required list, extra keys): it edits the whole arguments object as
text. Switching back parses it into the fields when they can express it exactly, and otherwise
stays in JSON mode and says why. Switching to JSON while a field holds text it cannot read
(``"1e"`` in a number field) is refused with the reason, so nothing typed is silently dropped.

Titles, descriptions, enum labels and the schema's patterns come from the server, so every line
the form shows (and :attr:`ArgumentsForm.problems`) goes through the form's
:class:`~anvia_nb.policy.ShowPolicy`: the connection's secrets masked, hidden characters made
visible, a bounded length. The arguments sent are never changed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from anvia_nb.core.protocol.schema import dotted, schema_check
from anvia_nb.core.protocol.schema_words import FORMAT_NAMES, format_ok
from anvia_nb.core.protocol.types import ToolInfo
from anvia_nb.core.protocol.values import with_fixed
from anvia_nb.errors import ArgumentValidationError, UnknownFieldError
from anvia_nb.policy import ShowPolicy
from anvia_nb.widgets._chrome import text_label
from anvia_nb.widgets.fields import PROBLEM_CHARS, FieldWidget, ObjectField
from anvia_nb.widgets.fields.fixed import editable_schema, fixed_box
from anvia_nb.widgets.fields.leaf import wrapped_html
from anvia_nb.widgets.fields.paged import root_field
from anvia_nb.widgets.spec import (
    OMITTED,
    Found,
    Path,
    check_value,
    entry_from_value,
    field_spec_from_schema,
    json_problem,
    read_entry,
    unreadable_entries,
)

__all__ = ["ArgumentsForm"]

FORM_MODE = "form"
JSON_MODE = "JSON"
_RED, _GREY = "#b00020", "#333"


class ArgumentsForm:
    """An ipywidgets form for a tool's arguments; display it, or put ``.widget`` in a layout.

    ``secrets`` are the connection's (``tool.server.secrets``), added to ``policy`` (the
    :class:`~anvia_nb.policy.ShowPolicy` of the surface): masked in everything shown.
    """

    def __init__(
        self,
        tool: ToolInfo | None = None,
        *,
        schema: dict[str, Any] | None = None,
        initial: dict[str, Any] | None = None,
        secrets: Sequence[str] = (),
        policy: ShowPolicy | None = None,
        fixed: Mapping[str, Any] | None = None,
    ) -> None:
        if schema is None:
            schema = tool.input_schema if tool is not None else {"type": "object"}
        self.tool = tool
        self.schema = schema
        self.policy = (policy or ShowPolicy()).with_secrets(secrets)
        self.secrets = tuple(sorted(self.policy.secrets, key=len, reverse=True))
        self.fixed = dict(fixed or {})
        """Arguments always sent as given (see :mod:`anvia_nb.widgets.fields.fixed`): shown
        disabled, left out of the fields, and checked with the rest against the whole schema."""
        self.check = schema_check(schema)
        self.spec = field_spec_from_schema(editable_schema(schema, self.fixed), self.policy.limits)
        self._order: dict[str | int, int] = {child.name: index for index, child in enumerate(self.spec.children)}
        """Each top field's place in the form, read once: problems are sorted by it on every change."""
        # paged when it has many fields
        self.root: FieldWidget = root_field(self.spec, self.secrets, self.policy.limits)
        self.root.on_change(self._refresh)
        self.mode = widgets.ToggleButtons(
            options=[FORM_MODE, JSON_MODE],
            value=FORM_MODE,
            tooltips=["edit field by field", "edit the arguments as JSON"],
            style={"button_width": "5em"},
        )
        self.mode.observe(self._on_mode, names="value")
        self.json_text = widgets.Textarea(
            value="", rows=8, placeholder="{}", layout=widgets.Layout(width="100%", display="none")
        )
        self.json_text.observe(lambda _change: self._refresh(), names="value")
        self.mode_note = text_label(value="")
        self.problems_box = widgets.HTML(value="", layout=widgets.Layout(display="none"))
        self.will_send = widgets.HTML(value="")
        self.widget = widgets.VBox(
            [
                self.mode,
                fixed_box(self.fixed, self.policy),
                self.root.widget,
                self.json_text,
                self.mode_note,
                self.problems_box,
                self.will_send,
            ],
            layout=widgets.Layout(max_width="100%", overflow="hidden"),
        )
        self._callbacks: list[Callable[[ArgumentsForm], None]] = []
        self._switching = False
        self._value: dict[str, Any] = {}
        self._problems: list[str] = []
        self._unshown: list[str] = []
        self._first_where = ""
        self.will_send_text = ""
        if initial is not None:
            self.set_value(initial)
        self._refresh()

    # -- what a caller reads -------------------------------------------------------------------

    @property
    def problems(self) -> list[str]:
        """Why the arguments cannot be sent now: entry problems first, else schema violations.

        As shown to a person: secrets masked, hidden characters visible, each line bounded.
        """
        return list(self._problems)

    @property
    def summary(self) -> str:
        """One line for a status bar: the first problem shown nowhere in the form, else where the
        first problem is, without repeating it (``""`` when the arguments can be sent)."""
        if not self._problems:
            return ""
        more = f" (and {len(self._problems) - 1} more)" if len(self._problems) > 1 else ""
        if self._unshown:
            return self._unshown[0] + more
        return f"{self._first_where or 'the arguments'}: see above{more}"

    @property
    def valid(self) -> bool:
        return not self._problems

    @property
    def value(self) -> dict[str, Any]:
        """The arguments to send; raises :class:`ArgumentValidationError` while there are problems."""
        if self._problems:
            count = len(self._problems)
            raise ArgumentValidationError(
                f"{count} problem{'s' if count > 1 else ''} with the arguments: {self._problems[0]}",
                self.problems,
            )
        return copy.deepcopy(self._value)

    @property
    def json_mode(self) -> bool:
        return bool(self.mode.value == JSON_MODE)

    def on_change(self, callback: Callable[[ArgumentsForm], None]) -> None:
        """Call ``callback(form)`` after every change, once problems and value are up to date."""
        self._callbacks.append(callback)

    def field(self, path: str) -> FieldWidget:
        """The field widget at a dotted path (``"filter.since"``), for tests and callers."""
        if not isinstance(self.root, ObjectField):
            raise UnknownFieldError(path)
        return self.root.field(path)

    def set_value(self, value: dict[str, Any]) -> None:
        """Fill the form with ``value`` (fixed arguments stay fixed); in JSON mode when the fields
        cannot express it exactly."""
        value = {key: item for key, item in value.items() if key not in self.fixed}
        entry = entry_from_value(self.spec, value)
        self._switching = True
        try:
            if entry is not None:
                self.root.load(entry)
                self.mode.value = FORM_MODE
                self.mode_note.value = ""
            else:
                self.json_text.value = json.dumps(value, indent=2, ensure_ascii=False)
                self.mode.value = JSON_MODE
                self.mode_note.value = "shown as JSON: the fields cannot express these arguments exactly"
            self._show_mode()
        finally:
            self._switching = False
        self._refresh()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- internals -----------------------------------------------------------------------------

    def _read_fields(self) -> tuple[Any, Found]:
        entry = self.root.entry()
        if self.spec.kind == "json" and not entry.text.strip():
            return {}, []  # a root the fields cannot model, left empty: no arguments
        value, found = read_entry(self.spec, entry)
        return ({} if value is OMITTED else value), found

    def _read_json(self) -> tuple[Any, Found]:
        text = self.json_text.value
        if not text.strip():
            return {}, []
        try:
            return json.loads(text), []
        except (ValueError, RecursionError) as error:
            return None, [((), json_problem(error))]

    def _refresh(self) -> None:
        in_json = self.json_mode
        value, found = self._read_json() if in_json else self._read_fields()
        if self.fixed and isinstance(value, dict):
            value = with_fixed(value, self.fixed)  # whatever was typed, the fixed ones are sent (as a view's calls)
        found, notes = check_value(self.check, value, found)  # the one validation of this change
        found.sort(key=self._field_order)
        self._value = value if isinstance(value, dict) else {}
        self._problems = [self._shown(_line(path, message)) for path, message in found]
        self._first_where = self._shown(dotted(found[0][0])) if found else ""
        self._place(found, notes, in_json)
        self._show_will_send()
        for callback in list(self._callbacks):
            callback(self)

    def _field_order(self, problem: tuple[Path, str]) -> int:
        """Problems in the order of the form's fields (what could not be read first, per field)."""
        path = problem[0]
        return self._order.get(path[0], -1) if path else -1

    def _place(self, found: Found, notes: Found, in_json: bool) -> None:
        """Each problem shown once: beside the touched field it belongs to, else under the form."""
        at: dict[int, list[str]] = {}
        hints: dict[int, list[str]] = {}
        boxed: list[str] = []
        self._unshown = []
        for path, message in found:
            target = None if in_json else self._touched_field(path)
            if target is not None:
                field, rest = target
                at.setdefault(id(field), []).append(_line(rest, message))
            elif in_json or self.root.touched:
                boxed.append(self._shown(_line(path, message)))
            else:
                self._unshown.append(self._shown(_line(path, message)))
        for path, message in notes:
            target = self._touched_field(path)
            if target is not None:
                hints.setdefault(id(target[0]), []).append(_line(target[1], message))
        for _path, field in self.root.walk():
            hint = hints.get(id(field), [])
            fmt = field.spec.constraints.format
            if field.spec.kind == "string" and fmt in FORMAT_NAMES and field.touched:
                text = field.entry().text
                if text and not format_ok(fmt, text):
                    hint.append(f"does not look like {FORMAT_NAMES[fmt]}; it is sent as typed and the server decides")
            field.show_problems(at.get(id(field), []), "; ".join(hint))
        shown = boxed[:20] + ([f"… and {len(boxed) - 20} more"] if len(boxed) > 20 else [])
        self.problems_box.value = wrapped_html("\n".join(shown), _RED)
        self.problems_box.layout.display = None if shown else "none"

    def _touched_field(self, path: Path) -> tuple[FieldWidget, Path] | None:
        """The deepest touched field along ``path`` (not the root) and the rest of the path."""
        best: tuple[FieldWidget, Path] | None = None
        field: FieldWidget | None = self.root
        for depth, step in enumerate(path):
            field = field.inner(step) if field is not None else None
            if field is None:
                break
            if field.touched:
                best = (field, path[depth + 1 :])
        return best

    def _show_will_send(self) -> None:
        sent = json.dumps(self._value, ensure_ascii=False)
        # while a problem holds it back, the problem is said where it is (and by Call), not again here
        text = f"so far: {sent}" if self._problems else f"will send: {sent}"
        self.will_send_text = self.policy.line(text, self.policy.limits.preview_chars)
        self.will_send.value = wrapped_html(self.will_send_text, _GREY)

    def _on_mode(self, change: dict[str, Any]) -> None:
        if self._switching:
            return
        if change["new"] == JSON_MODE:
            if not self._to_json():
                return
        else:
            self._back_to_fields()
        self._show_mode()
        self._refresh()

    def _shown(self, line: str) -> str:
        return self.policy.line(line, PROBLEM_CHARS)

    def _stay(self, mode: str, note: str) -> None:
        self.mode_note.value = self._shown(note)
        self._switching = True
        try:
            self.mode.value = mode
        finally:
            self._switching = False

    def _to_json(self) -> bool:
        """Show the fields' value as JSON; refuse (and say why) while a field holds unreadable text,
        which the JSON would silently leave out."""
        lost = unreadable_entries(self.spec, self.root.entry())
        if lost:
            path, problem = lost[0]
            where = f"{path!r}" if path else "the arguments"
            more = f" (and {len(lost) - 1} more)" if len(lost) > 1 else ""
            self._stay(FORM_MODE, f"Fix or clear {where} first: {problem}{more}")
            return False
        value, _ = self._read_fields()
        self.json_text.value = json.dumps(value, indent=2, ensure_ascii=False)
        self.mode_note.value = ""
        return True

    def _back_to_fields(self) -> None:
        value, found = self._read_json()
        entry = entry_from_value(self.spec, value) if not found and isinstance(value, dict) else None
        if entry is None:
            reason = found[0][1] if found else "the fields cannot express these arguments exactly"
            self._stay(JSON_MODE, f"still JSON: {reason}")
            return
        self.root.load(entry)
        self.mode_note.value = ""

    def _show_mode(self) -> None:
        in_json = self.json_mode
        self.json_text.layout.display = None if in_json else "none"
        self.root.widget.layout.display = "none" if in_json else None


def _line(path: Path, message: str) -> str:
    where = dotted(path)
    return f"{where}: {message}" if where else message
