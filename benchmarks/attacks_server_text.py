"""Attacks through text a server chose: names, titles, descriptions and requests for input that
MathJax would typeset (``$\\href{...}{OK}$``), or too large to show (a tool name of a million
characters, 100,000 tools, a 10 MB request). Registered after ``attacks_shown``, whose helpers they
use, so the attacks keep their order in the table."""

from __future__ import annotations

import json
from typing import Any, cast

from anvia_nb import connect_mcp, mcp
from anvia_nb.policy import NOT_MATH_CLASSES
from benchmarks.attacks_common import BOUND_SECONDS, Result, attack, sync
from benchmarks.attacks_shown import leaked, new_widget_state, runtime, state_chars, widget_ids
from tests.helpers import attack_servers as servers

__all__ = ["would_typeset"]


def would_typeset(states: list[dict[str, Any]]) -> int:
    """How many widgets show server math (``\\href``) where MathJax would typeset it: neither
    escaped nor inside an element marked not-math. Tooltips and placeholders are attributes,
    never typeset."""
    classes = set(NOT_MATH_CLASSES.split())
    typeset = 0
    for state in states:
        for key in ("value", "description"):
            value = state.get(key)
            if not isinstance(value, str) or "\\href" not in value:
                continue
            escaped = "\\$" in value or "\\\\href" in value
            marked = classes & set(state.get("_dom_classes", ())) or "mathjax_ignore" in value
            typeset += not (escaped or marked)
    return typeset


# -- text MathJax would typeset ---------------------------------------------------------------


@attack("math-in-form", "math", "tool name, title, description and field as $\\href{...}{OK ✔ safe}$")
def math_form(full: bool) -> Result:
    from anvia_nb.widgets import form

    with runtime() as rt:
        rt.connect(mcp.memory(name="math", server=servers.math_names()))
        before = widget_ids()
        form(f"math.{servers.MATH}", runtime=rt)
        states = new_widget_state(before)
    typeset = would_typeset(states)
    return Result(typeset == 0, f"{typeset} of {len(states)} widgets would typeset server text", state_chars(states))


@attack("math-in-tools-table", "math", "%mcp tools of a tool named $\\href{...}{OK ✔ safe}$", overlaps=True)
def math_table(full: bool) -> Result:
    from anvia_nb.magic.output.tables import tools_frame

    async def run() -> Any:
        server = await connect_mcp(mcp.memory(name="math", server=servers.math_names()))
        try:
            return cast(Any, tools_frame([server]))._repr_html_() or ""  # what a notebook shows
        finally:
            await server.close()

    html = sync(run)
    return Result("tex2jax_ignore" in html or "mathjax_ignore" in html, "frame HTML marked not-math", len(html))


# -- probes the issue did not list ------------------------------------------------------------


def _tools_table(server: Any) -> Result:
    from anvia_nb.magic.output.tables import tools_frame

    async def run() -> tuple[str, str]:
        connected = await connect_mcp(mcp.memory(name="many", server=server), timeout_seconds=BOUND_SECONDS)
        try:
            frame = tools_frame([connected])
            return cast(Any, frame)._repr_html_() or "", repr(frame)
        finally:
            await connected.close()

    html, text = sync(run)
    shown = len(html) + len(text)
    return Result(shown < 2_000_000, f"%mcp tools shows {shown:,} chars", shown)


@attack("huge-tool-name", "probe", "a tool named with 1,000,000 characters, in %mcp tools and its form")
def huge_name(full: bool) -> Result:
    from anvia_nb.widgets import form

    result = _tools_table(servers.many_tools(1, name_chars=1_000_000))
    with runtime() as rt:
        rt.connect(mcp.memory(name="many", server=servers.many_tools(1, name_chars=1_000_000)))
        before = widget_ids()
        form("many", rt.server("many").tools[0].name, runtime=rt)
        chars = state_chars(new_widget_state(before))
    return Result(
        result.held and chars < 200_000, f"{result.detail}; form state {chars:,} chars", result.output_chars + chars
    )


@attack("many-tools", "probe", "tools listed at once (100,000 full, 10,000 quick), in %mcp tools", overlaps=True)
def many(full: bool) -> Result:
    return _tools_table(servers.many_tools(100_000 if full else 10_000))


@attack(
    "huge-elicitation-request",
    "probe",
    "request for input: 10 MB message, 200 fields of 5,000 options, secret defaults, math (smaller in quick)",
)
def huge_request(full: bool) -> Result:
    from anvia_nb.widgets.prompts.elicitation_prompt import ElicitationPrompt

    fields, options, message = (200, 5_000, 10_000_000) if full else (10, 200, 200_000)
    schema = {
        "type": "object",
        "properties": {
            f"f{i}{servers.MATH}": {
                "type": "string",
                "default": servers.SECRET,
                "description": servers.MATH * 100,
                "enum": [f"v{n}" for n in range(options)],
            }
            for i in range(fields)
        },
    }
    before = widget_ids()
    ElicitationPrompt(
        {
            "server": servers.MATH + "s" * 100_000,
            "mode": "form",
            "requestedSchema": schema,
            "message": servers.MATH + servers.SECRET + "m" * message,
        },
        secrets=(servers.SECRET,),
    )
    ElicitationPrompt(
        {
            "server": "s",
            "mode": "url",
            "message": servers.MATH,
            "url": f"https://{servers.SECRET}@evil.example/" + "u" * message,
        },
        secrets=(servers.SECRET,),
    )
    states = new_widget_state(before)
    text, typeset = json.dumps(states, default=str), would_typeset(states)
    copies = leaked(text)
    return Result(
        copies == 0 and typeset == 0 and len(text) < 5_000_000,
        f"widget state {len(text):,} chars, {copies} secrets, {typeset} typeset",
        len(text),
    )
