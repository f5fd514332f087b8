"""Tab completion of each ``%mcp`` subcommand's words, named by the subcommand table
(:mod:`anvia_nb.magic.subcommands`): what may follow, from the connections, their tools and the
tools' input schemas (``read`` and ``prompt``: :mod:`anvia_nb.magic.complete.library`). The IPython
matcher that offers them is :mod:`anvia_nb.magic.matcher`."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from anvia_nb.core.protocol.versions import PROTOCOLS
from anvia_nb.magic.parse.call import CALL_FLAGS, CALL_OPTIONS, MAP_OPTIONS, MAP_VALUED
from anvia_nb.magic.parse.choices import schema_values
from anvia_nb.magic.parse.connect import CONNECT_OPTIONS
from anvia_nb.magic.parse.oauth_words import MACHINE_FLAGS, MACHINE_OPTIONS

if TYPE_CHECKING:
    from anvia_nb.runtime import Runtime

__all__ = ["complete_app", "complete_call", "complete_connect", "complete_form", "complete_map", "names", "nothing"]


def nothing(_words: list[str], _runtime: Runtime) -> list[str]:
    return []


def names(*extra: str) -> Callable[[list[str], Runtime], list[str]]:
    def complete(_words: list[str], runtime: Runtime) -> list[str]:
        return [*runtime.names(), *extra]

    return complete


def targets(runtime: Runtime) -> list[str]:
    targets: list[str] = []
    for name in runtime.names():
        try:
            server = runtime.server(name)
        except KeyError:
            continue
        targets.extend(f"{name}.{tool.name}" for tool in server.tools)
    return targets


def argument_names(runtime: Runtime, target: str, typed: str = "") -> list[str]:
    """``key=`` for each argument of the tool; after ``key=``, the values its schema allows."""
    server_name, _, tool_name = target.partition(".")
    try:
        tool = runtime.server(server_name).tool(tool_name)
    except KeyError:
        return []
    key, eq, _value = typed.partition("=")
    if eq:
        return [f"{key}={value}" for value in schema_values(tool.info.input_schema, key)]
    return [f"{name}=" for name in tool.info.argument_names]


def complete_call(words: list[str], runtime: Runtime) -> list[str]:
    if len(words) > 1 and words[-2] in CALL_OPTIONS:
        return []  # the option's value is being typed
    given: list[str] = []
    items = iter(words[:-1])
    for word in items:
        if word in CALL_OPTIONS:
            next(items, None)  # its value
        elif not word.startswith("-"):
            given.append(word)
    if not given:
        return [*targets(runtime), *CALL_OPTIONS, *CALL_FLAGS]
    if "=" in words[-1]:
        return argument_names(runtime, given[0], words[-1])
    return [*argument_names(runtime, given[0]), *CALL_OPTIONS, *CALL_FLAGS]


def complete_app(words: list[str], runtime: Runtime) -> list[str]:
    """As ``%mcp call``, but only the tools a cell may open a view of."""
    found = complete_call(words, runtime)
    if len([w for w in words[:-1] if not w.startswith("-")]) > 0:
        return found
    with_view = set()
    for name in runtime.names():
        with_view |= {f"{name}.{t.name}" for t in runtime.server(name).tools if t.info.app and t.info.for_cells}
    return [word for word in found if word.startswith("-") or word in with_view]


def complete_map(words: list[str], runtime: Runtime) -> list[str]:
    """Candidates for the last word of a ``map`` line."""
    if len(words) > 1 and words[-2] in MAP_VALUED:
        return []
    if not [w for w in words[:-1] if not w.startswith("-")]:
        return [*targets(runtime), *MAP_OPTIONS]
    return list(MAP_OPTIONS)


def complete_form(words: list[str], runtime: Runtime) -> list[str]:
    return targets(runtime) if len(words) == 1 else []


def complete_connect(words: list[str], _runtime: Runtime) -> list[str]:
    if "--stdio" in words[:-1]:
        return []  # the server's own command line
    if len(words) > 1 and words[-2] in ("--env", "--secret-env"):
        return sorted(os.environ)  # names only: the kernel's values are what keeps them out of the source
    if len(words) > 1 and words[-2] == "--protocol":
        return list(PROTOCOLS)
    return [
        *CONNECT_OPTIONS,
        "--oauth",
        "--client-id",
        "--scope",
        "--oauth-redirect",
        *MACHINE_FLAGS,
        *(o for o in MACHINE_OPTIONS if o not in (*CONNECT_OPTIONS, "--client-id", "--scope")),
    ]
