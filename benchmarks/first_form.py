"""The first big form in a fresh process: CPU of a 300-property form the first time a process shows one.

    python -m benchmarks.first_form form    # ArgumentsForm: imports, build, render
    python -m benchmarks.first_form magic   # %mcp form end to end in a fresh IPython shell

Each prints one JSON object of CPU seconds (this process's, every thread) and the wall total.
``form``: importing the form, building ``ArgumentsForm`` of ``benchmarks/forms.py``'s schema, and
rendering it (its ``_repr_mimebundle_`` and every widget's state, what a kernel sends the page).
``magic``: a shell that has loaded the extension and connected to the bench server started with
``--form-tool``, then ``%mcp form bench.wide_form``, IPython's formatting of what it returns, and
every widget's state: the form's CPU, and the CPU from the fresh shell on. Issue 41's goal: within
0.5 s of CPU, the first time.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

from benchmarks.measure import Stats, load_average

if TYPE_CHECKING:
    from benchmarks.run import Table

__all__ = ["GOAL_SECONDS", "first_form_section"]

GOAL_SECONDS = 0.5


def _widget_states() -> int:
    """Every live widget's state, as a kernel sends it to the page; how many widgets there were."""
    from ipywidgets.widgets import widget

    live = list(widget._instances.values())  # ipywidgets 8: the live widgets by model id
    for one in live:
        one.get_state()
    return len(live)


def _form() -> dict[str, float]:
    from benchmarks.forms import many_properties

    start = time.process_time(), time.perf_counter()
    from anvia_nb.widgets.fields.arguments_form import ArgumentsForm

    imported = time.process_time()
    form = ArgumentsForm(schema=many_properties())
    built = time.process_time()
    form._repr_mimebundle_()
    widgets = _widget_states()
    rendered = time.process_time(), time.perf_counter()
    return {
        "imports": imported - start[0],
        "build": built - imported,
        "render": rendered[0] - built,
        "total": rendered[0] - start[0],
        "wall": rendered[1] - start[1],
        "widgets": widgets,
    }


def _magic() -> dict[str, float]:
    from IPython.core.interactiveshell import InteractiveShell

    from benchmarks.forks import server_command

    shell = InteractiveShell.instance()
    began = time.process_time()
    shell.run_line_magic("load_ext", "anvia_nb")
    with contextlib.redirect_stdout(io.StringIO()):
        shell.run_line_magic("mcp", f"connect bench --stdio {' '.join(server_command(options=('--form-tool',)))}")
    formatter: Any = shell.display_formatter  # IPython's formatter is untyped
    try:
        start = time.process_time(), time.perf_counter()
        view = shell.run_line_magic("mcp", "form bench.wide_form")
        formatter.format(view)
        widgets = _widget_states()
        done = time.process_time(), time.perf_counter()
    finally:
        shell.run_line_magic("mcp", "close bench")
    if type(view).__name__ != "ToolForm":
        raise RuntimeError(f"%mcp form gave {type(view).__name__}, not a form")
    found = {"total": done[0] - start[0], "wall": done[1] - start[1], "widgets": widgets}
    return found | {"with_connect": done[0] - began}


def _fresh(who: str) -> dict[str, float]:
    # Bytecode caches on, as an installed package has them (see sections._fresh).
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.first_form", who],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=environment,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    if done.returncode != 0:
        raise RuntimeError(f"first_form {who} failed: {done.stderr.strip()[-300:]}")
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def first_form_section(rounds: int, table: Table, warm_caches: bool = True) -> None:
    """The form's CPU by step and ``%mcp form``'s end to end, fresh processes taken in turn
    (``warm_caches``: after one unmeasured process each, which writes the bytecode caches a fresh
    install would have)."""
    runs: dict[str, list[dict[str, float]]] = {"form": [], "magic": []}
    try:
        for who in runs if warm_caches else ():
            _fresh(who)
        for round_ in range(rounds):
            for who in list(runs)[round_ % 2 :] + list(runs)[: round_ % 2]:
                runs[who].append(_fresh(who))
    except Exception as exc:  # one row that says why, not a lost table
        table.section("the first form of a 300-property tool, fresh process")
        table.row("ArgumentsForm and %mcp form", note=f"failed: {type(exc).__name__}: {exc}"[:200])
        return
    table.section(
        f"the first form of a 300-property tool, fresh process, CPU (the goal's two figures: ratio to the "
        f"goal, {GOAL_SECONDS} s; load {load_average()})"
    )

    def stat(name: str, who: str, key: str, note: str) -> None:
        goal = Stats([GOAL_SECONDS]) if key == "total" else None  # the goal's figures alone have a ratio
        table.stat(name, Stats([run[key] for run in runs[who]]), goal, note, unit="s")

    widgets = f"{runs['form'][0]['widgets']:.0f} widgets"
    stat("ArgumentsForm: imports", "form", "imports", "the form's modules and ipywidgets")
    stat("ArgumentsForm: build", "form", "build", widgets)
    stat("ArgumentsForm: render", "form", "render", "_repr_mimebundle_ and every widget's state")
    stat("ArgumentsForm: imports, build and render", "form", "total", "the goal's figure")
    stat("ArgumentsForm: the same, wall", "form", "wall", "")
    shown = f"{runs['magic'][0]['widgets']:.0f} widgets in the process"
    stat("%mcp form, end to end", "magic", "total", f"after %mcp connect (not counted); {shown}")
    stat("%mcp form, end to end, wall", "magic", "wall", "")
    stat("%load_ext, %mcp connect and %mcp form", "magic", "with_connect", "CPU from the fresh shell on")


def main() -> None:
    found = _magic() if sys.argv[1] == "magic" else _form()
    print(json.dumps(found))


if __name__ == "__main__":
    main()
