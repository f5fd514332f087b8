"""The arguments form of one tool: fields from its ``inputSchema``, a JSON mode, and problems.

A caller (the Call button, the explorer panel) needs three things and no widget details:
whether the arguments can be sent (:attr:`ArgumentsForm.valid`, re-checked on every change),
why not (:attr:`ArgumentsForm.problems`, one readable line each), and the arguments themselves
(:attr:`ArgumentsForm.value`). :meth:`ArgumentsForm.on_change` tells it when to look again;
:meth:`ArgumentsForm.set_value` refills the form, for instance with the last arguments used.

The JSON mode is the way out for anything the fields cannot say (an explicit ``""`` for an
optional field, extra keys): it edits the whole arguments object as text. Switching back
parses it into the fields when they can express it exactly, and otherwise stays in JSON mode
and says why. Switching to JSON while a field holds text it cannot read (``"1e"`` in a number
field) is refused with the reason, so nothing a person typed is silently dropped.

Titles, descriptions, enum labels and the schema's patterns come from the server, so every line
the form shows (and :attr:`ArgumentsForm.problems`) has the connection's ``secrets`` masked,
hidden characters made visible, and a bounded length. The arguments sent are never changed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from anvia_nb.core.types import ToolInfo
from anvia_nb.errors import ArgumentValidationError
from anvia_nb.widgets._chrome import plain
from anvia_nb.widgets.fields import PROBLEM_CHARS, FieldWidget, ObjectField, build_field
from anvia_nb.widgets.spec import (
    OMITTED,
    entry_from_value,
    field_spec_from_schema,
    unreadable_entries,
    validate_arguments,
    value_from_entry,
)

__all__ = ["ArgumentsForm"]

FORM_MODE = "form"
JSON_MODE = "JSON"


class ArgumentsForm:
    """An ipywidgets form for a tool's arguments; display it, or put ``.widget`` in a layout.

    ``secrets`` are the connection's (``tool.server.secrets``): masked in everything shown.
    """

    def __init__(
        self,
        tool: ToolInfo | None = None,
        *,
        schema: dict[str, Any] | None = None,
        initial: dict[str, Any] | None = None,
        secrets: Sequence[str] = (),
    ) -> None:
        if schema is None:
            schema = tool.input_schema if tool is not None else {"type": "object"}
        self.tool = tool
        self.schema = schema
        self.secrets = tuple(secrets)
        self.spec = field_spec_from_schema(schema)
        self.root: FieldWidget = build_field(self.spec, root=True, secrets=self.secrets)
        self.root.on_change(self._refresh)
        self.mode = widgets.ToggleButtons(options=[FORM_MODE, JSON_MODE], value=FORM_MODE,
                                          tooltips=["edit field by field", "edit the arguments as JSON"],
                                          style={"button_width": "5em"})
        self.mode.observe(self._on_mode, names="value")
        self.json_text = widgets.Textarea(value="", rows=8, placeholder="{}",
                                          layout=widgets.Layout(width="100%", display="none"))
        self.json_text.observe(lambda _change: self._refresh(), names="value")
        self.mode_note = widgets.Label(value="")
        self.problems_box = widgets.VBox([])
        self.widget = widgets.VBox([self.mode, self.root.widget, self.json_text, self.mode_note,
                                    self.problems_box])
        self._callbacks: list[Callable[[ArgumentsForm], None]] = []
        self._switching = False
        self._value: dict[str, Any] = {}
        self._problems: list[str] = []
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
            raise KeyError(path)
        return self.root.field(path)

    def set_value(self, value: dict[str, Any]) -> None:
        """Fill the form with ``value``; in JSON mode when the fields cannot express it exactly."""
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

    def _read_fields(self) -> tuple[Any, list[str]]:
        entry = self.root.entry()
        if self.spec.kind == "json" and not entry.text.strip():
            return {}, []  # a root the fields cannot model, left empty: no arguments
        value, problems = value_from_entry(self.spec, entry)
        return ({} if value is OMITTED else value), problems

    def _read_json(self) -> tuple[Any, list[str]]:
        text = self.json_text.value
        if not text.strip():
            return {}, []
        try:
            return json.loads(text), []
        except (ValueError, RecursionError) as error:
            return None, [f"invalid JSON: {error}"]

    def _refresh(self) -> None:
        value, problems = self._read_json() if self.json_mode else self._read_fields()
        if not problems and not isinstance(value, dict):
            problems = ["the arguments must be a JSON object"]
        if not problems:
            problems = validate_arguments(self.schema, value)
        self._value = value if isinstance(value, dict) else {}
        self._problems = [self._shown(line) for line in problems]
        self.problems_box.children = [
            widgets.Label(value=line, style={"text_color": "#b00020"}) for line in self._problems[:20]
        ] + ([widgets.Label(value=f"… and {len(problems) - 20} more")] if len(problems) > 20 else [])
        for callback in list(self._callbacks):
            callback(self)

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
        return plain(line, self.secrets, PROBLEM_CHARS)

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
        value, problems = self._read_json()
        entry = entry_from_value(self.spec, value) if not problems and isinstance(value, dict) else None
        if entry is None:
            reason = problems[0] if problems else "the fields cannot express these arguments exactly"
            self._stay(JSON_MODE, f"still JSON: {reason}")
            return
        self.root.load(entry)
        self.mode_note.value = ""

    def _show_mode(self) -> None:
        in_json = self.json_mode
        self.json_text.layout.display = None if in_json else "none"
        self.root.widget.layout.display = "none" if in_json else None
