"""Text fields with the server's suggestions: prompt arguments and template variables.

One :class:`CompletingFields` holds a ``Combobox`` per name. Typing in one asks the server
(``completion/complete``, with the other fields' values as context) on the runtime's loop,
without blocking the kernel, and offers what it answers as the field's options. A suggestion is
offered only when it reads the same after the show policy (no secret, no hidden character, not
too long); the server's names are labels in plain text that MathJax leaves alone.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from anvia_nb.core import McpServer
from anvia_nb.policy import ShowPolicy
from anvia_nb.runtime import Runtime
from anvia_nb.widgets._chrome import plain, text_label

__all__ = ["CompletingFields", "Field"]

Field = tuple[str, bool, str]
"""``(name, required, description)`` of one argument or variable, as the server listed it."""


def _left_out_line(count: int, most: int, ref: tuple[str, str], for_viewers: bool = False) -> str:
    what = "arguments" if ref[0] == "prompt" else "variables"
    if for_viewers:  # nothing to type for a viewer
        return f"{count:,} more {what} are not shown (a form holds at most {most:,})."
    where = (
        "%mcp prompt NAME.PROMPT key=value, or server.get_prompt(name, {...})"
        if ref[0] == "prompt"
        else "%mcp read NAME TEMPLATE var=value, or server.read_resource(uri)"
    )
    return f"{count:,} more {what} are not shown (a form holds at most {most:,}); give them with {where}."


class CompletingFields:
    """A form of text fields whose values the server may suggest."""

    def __init__(
        self,
        runtime: Runtime,
        server: McpServer,
        ref: tuple[str, str],
        fields: Sequence[Field],
        policy: ShowPolicy,
    ) -> None:
        self.runtime = runtime
        self.server = server
        self.ref = ref
        self.policy = policy
        self.inputs: dict[str, widgets.Combobox] = {}
        self.required = [name for name, required, _ in fields if required]
        self.completing: concurrent.futures.Future[list[str]] | None = None
        """The last suggestions asked for (tests and callers may wait on it)."""
        rows = []
        for name, required, description in fields[: policy.limits.form_fields]:
            box = widgets.Combobox(
                value="",
                options=[],
                ensure_option=False,
                continuous_update=True,
                placeholder=plain(description, policy, policy.limits.option_chars) or "text",
                layout=widgets.Layout(width="auto", flex="1 1 auto", min_width="0"),
            )
            box.observe(self._typed(name), names="value")
            self.inputs[name] = box
            label = text_label(
                value=f"{plain(name, policy)}{' *' if required else ''}", layout=widgets.Layout(min_width="8em")
            )
            rows.append(widgets.HBox([label, box], layout=widgets.Layout(width="100%")))
        self.left_out = len(fields) - len(self.inputs)
        """Fields the server listed past the most a form holds: not shown (a line says how to give them)."""
        if self.left_out:
            line = _left_out_line(self.left_out, policy.limits.form_fields, ref, policy.for_viewers)
            rows.append(text_label(value=line))
        self.widget = widgets.VBox(rows)

    def values(self) -> dict[str, str]:
        """What is typed, without the fields left empty."""
        return {name: box.value for name, box in self.inputs.items() if box.value != ""}

    def set_values(self, values: dict[str, str]) -> None:
        for name, value in values.items():
            if name in self.inputs:
                self.inputs[name].value = value

    def _typed(self, name: str) -> Callable[[object], None]:
        def on_change(_change: object) -> None:
            self.suggest(name)

        return on_change

    def suggest(self, name: str) -> concurrent.futures.Future[list[str]]:
        """Ask the server for suggestions for ``name`` given what is typed; they become its options."""
        box = self.inputs[name]
        context = {k: v for k, v in self.values().items() if k != name}
        asked = self.runtime.loop.submit(self.server.complete(self.ref, name, box.value, context))
        # What callers wait on ends once the options are shown, not when the answer arrives: a
        # future's waiters wake before its callbacks run, so the answer alone would race the options.
        shown: concurrent.futures.Future[list[str]] = concurrent.futures.Future()
        self.completing = shown

        def done(finished: concurrent.futures.Future[list[str]]) -> None:
            if finished.cancelled():
                shown.cancel()
                return
            error = finished.exception()
            if error is None:
                offered = [v for v in finished.result() if plain(v, self.policy, self.policy.limits.option_chars) == v]
                box.options = tuple(offered[: self.policy.limits.choices])
            # else no suggestions: the field still takes any text
            with contextlib.suppress(concurrent.futures.InvalidStateError):  # a caller cancelled its wait
                if error is None:
                    shown.set_result(finished.result())
                else:
                    shown.set_exception(error)

        asked.add_done_callback(done)
        return shown
