"""The fields that choose from an enum: :class:`ChoiceField` (one value) and :class:`MultiChoiceField`
(an array of them). Each choice's label is masked and bounded, and the index beside it finds the real
value; an enum longer than ``Limits.choices`` is typed instead, and checked against every choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from anvia_nb.display.chrome import DESCRIPTION_CHARS, policy_of
from anvia_nb.widgets._chrome import plain
from anvia_nb.widgets.fields.leaf import LABEL_CHARS, UNSET_LABEL, FieldWidget, default_note, unset_label
from anvia_nb.widgets.spec import Entry, FieldSpec

__all__ = ["ChoiceField", "MultiChoiceField"]


def _choice_options(spec: FieldSpec, secrets: Sequence[str]) -> list[tuple[str, int]]:
    """(shown label, index) pairs: the label is masked and bounded, the index finds the real value.

    Two labels that look the same once masked or cut get a number, so a person can tell them apart.
    """
    options: list[tuple[str, int]] = []
    seen: set[str] = set()
    for index, choice in enumerate(spec.choices):
        label = plain(choice.label, secrets, LABEL_CHARS - 10)
        if label in seen or label == UNSET_LABEL:
            label = f"{label} ({index + 1})"
        seen.add(label)
        options.append((label, index))
    return options


def _choice_limit(secrets: Sequence[str]) -> int:
    return policy_of(secrets).limits.choices


def _typing_hint(spec: FieldSpec, shown: int, secrets: Sequence[str]) -> str:
    """What a typed choice's placeholder says: how many values, and the server's default."""
    hint = f"type one of {len(spec.choices):,} values (the first {shown} are suggested)"
    note = default_note(spec)
    return plain(f"{note}  ({hint})" if note else hint, secrets, DESCRIPTION_CHARS)


class ChoiceField(FieldWidget):
    """A dropdown of the choices' labels; optional ones start with "(not set)".

    An enum longer than ``Limits.choices`` is typed instead: a combobox suggests the first
    choices, and what is typed is checked against every choice (any of them can be sent).
    """

    def __init__(self, spec: FieldSpec, *, secrets: Sequence[str] = (), **kwargs: Any) -> None:  # any: to ipywidgets
        options = _choice_options(spec, secrets)
        limit = _choice_limit(secrets)
        self._typed: dict[str, int] | None = None
        control: Any
        if len(options) > limit:
            self._typed = {label: index for label, index in options}
            control = widgets.Combobox(
                value="",
                options=[label for label, _index in options[:limit]],
                ensure_option=False,
                placeholder=_typing_hint(spec, limit, secrets),
                continuous_update=True,
            )
        else:
            if not spec.required:
                options.insert(0, (unset_label(spec, secrets), -1))
            control = widgets.Dropdown(options=options, value=None if spec.required else -1)
        super().__init__(spec, control, secrets=secrets, **kwargs)

    def _entry_parts(self) -> dict[str, Any]:
        if self._typed is not None:
            text = self.input.value
            if not text:
                return {"chosen": ()}
            # not a choice: an index past the end, which the one validator reports
            return {"chosen": (self._typed.get(text, len(self.spec.choices)),)}
        index = self.input.value
        return {"chosen": () if index is None or index < 0 else (index,)}

    def _load_parts(self, entry: Entry) -> None:
        if self._typed is not None:
            labels = {index: label for label, index in self._typed.items()}
            self.input.value = labels.get(entry.chosen[0], "") if entry.chosen else ""
            return
        self.input.value = entry.chosen[0] if entry.chosen else (None if self.spec.required else -1)


class MultiChoiceField(FieldWidget):
    """A multiple selection over the choices of an array of enums.

    An enum longer than ``Limits.choices`` is typed instead, one choice per line, each checked
    against every choice.
    """

    def __init__(self, spec: FieldSpec, *, secrets: Sequence[str] = (), **kwargs: Any) -> None:  # any: to ipywidgets
        options = _choice_options(spec, secrets)
        self._typed: dict[str, int] | None = None
        control: Any
        if len(options) > _choice_limit(secrets):
            self._typed = {label: index for label, index in options}
            control = widgets.Textarea(
                value="", rows=4, placeholder=f"one per line, each one of {len(spec.choices):,} values"
            )
        else:
            rows = max(2, min(len(options), 6))
            control = widgets.SelectMultiple(options=options, value=(), rows=rows)
        super().__init__(spec, control, secrets=secrets, **kwargs)

    def _entry_parts(self) -> dict[str, Any]:
        if self._typed is not None:
            lines = [line.strip() for line in self.input.value.splitlines() if line.strip()]
            return {"chosen": tuple(self._typed.get(line, len(self.spec.choices)) for line in lines)}
        return {"chosen": tuple(self.input.value)}

    def _load_parts(self, entry: Entry) -> None:
        if self._typed is not None:
            labels = {index: label for label, index in self._typed.items()}
            self.input.value = "\n".join(labels[i] for i in entry.chosen if i in labels)
            return
        self.input.value = tuple(entry.chosen)
