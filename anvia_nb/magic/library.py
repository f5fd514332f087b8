"""Running and Tab-completing ``%mcp resources``, ``templates``, ``read``, ``prompts`` and
``prompt`` (their entries in the one table, :mod:`anvia_nb.magic.subcommands`, point here).

``%mcp read`` refuses a URI that no listing or offered link knows, and ``%mcp prompt`` a prompt
that is not listed or a required argument left out, before anything is sent. Completion offers
listed URIs, template and prompt names, their variables and arguments, and the server's own
suggestions for a value (``completion/complete``), bounded in time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from anvia_nb.core.protocol.uri_template import variables
from anvia_nb.errors import AnviaError
from anvia_nb.magic._parse_library import PromptCommand, ReadCommand

if TYPE_CHECKING:
    from anvia_nb.display import PromptView, ReadView
    from anvia_nb.magic._host import MagicHost
    from anvia_nb.runtime import Runtime

__all__ = [
    "complete_prompt",
    "complete_read",
    "run_prompt",
    "run_prompts",
    "run_read",
    "run_resources",
    "run_templates",
]


def _listings(magics: MagicHost, names: tuple[str, ...], key: str) -> list[tuple[str, tuple[str, ...], Any]]:
    from anvia_nb.runtime import library

    runtime = magics.runtime
    chosen = names or tuple(runtime.names())
    for name in chosen:
        runtime.server(name)  # every name is checked before anything is asked
    from anvia_nb.magic.tables import note_refused_listings

    read = {"resources": library.resources, "resourceTemplates": library.resource_templates,
            "prompts": library.prompts}[key]  # fmt: skip
    listings = [(name, runtime.server(name).secrets, read(runtime, name)) for name in chosen]
    note_refused_listings([runtime.server(name) for name in chosen], key, magics.show_policy())
    return listings


def run_resources(magics: MagicHost, command: Any) -> Any:
    from anvia_nb.magic.library_tables import resources_frame

    listings = _listings(magics, command.names, "resources")
    subscribed: dict[tuple[str, str], tuple[bool, int]] = {}
    for name, _secrets, _items in listings:
        subscriptions = magics.runtime.server(name).subscriptions
        for uri, updates in subscriptions.updates().items():
            subscribed[(name, uri)] = (False, updates.count)
        for uri in subscriptions.subscribed:
            subscribed[(name, uri)] = (True, subscribed.get((name, uri), (True, 0))[1])
    return resources_frame(listings, magics.show_policy(), subscribed)


def run_templates(magics: MagicHost, command: Any) -> Any:
    from anvia_nb.magic.library_tables import templates_frame

    return templates_frame(_listings(magics, command.names, "resourceTemplates"), magics.show_policy())


def run_prompts(magics: MagicHost, command: Any) -> Any:
    from anvia_nb.magic.library_tables import prompts_frame

    return prompts_frame(_listings(magics, command.names, "prompts"), magics.show_policy())


def _template(runtime: Runtime, server: str, target: str) -> dict[str, Any] | None:
    from anvia_nb.runtime import library

    for found in library.resource_templates(runtime, server):
        if target in (found.get("uriTemplate"), found.get("name")):
            return found
    return None


def run_read(magics: MagicHost, command: ReadCommand) -> ReadView:
    """A URI known to a listing or a link, or a template with its variables; nothing else is sent."""
    from anvia_nb.display import ReadView
    from anvia_nb.runtime import library

    runtime = magics.runtime
    runtime.server(command.server)
    timeout = magics.timeout_seconds
    if command.variables or _template(runtime, command.server, command.target) is not None:
        read = library.read_template(
            runtime, command.server, command.target, dict(command.variables), timeout_seconds=timeout
        )
    else:
        library.check_uri(runtime, command.server, command.target)
        read = library.read(runtime, command.server, command.target, timeout_seconds=timeout)
    return ReadView(read, magics.render_settings())


def run_prompt(magics: MagicHost, command: PromptCommand) -> PromptView:
    from anvia_nb.display import PromptView
    from anvia_nb.runtime import library

    runtime = magics.runtime
    result = library.get_prompt(
        runtime, command.server, command.prompt, dict(command.arguments), timeout_seconds=magics.timeout_seconds
    )
    return PromptView(result, magics.render_settings())


# -- completion ------------------------------------------------------------------------------


def _typed(words: list[str]) -> dict[str, str]:
    return {w.partition("=")[0]: w.partition("=")[2] for w in words if "=" in w}


def _values(runtime: Runtime, server: str, ref: tuple[str, str], names: list[str], words: list[str]) -> list[str]:
    """``key=`` for names not typed yet; for ``key=partial`` the server's suggestions."""
    from anvia_nb.runtime import library

    current = words[-1]
    typed = _typed(words[:-1])
    if "=" not in current:
        return [f"{n}=" for n in names if n not in typed]
    key, _, value = current.partition("=")
    if key not in names:
        return []
    try:
        found = library.complete(runtime, server, ref, key, value, typed)
    except AnviaError:
        return []
    return [f"{key}={v}" for v in found if " " not in v]


def complete_read(words: list[str], runtime: Runtime) -> list[str]:
    from anvia_nb.runtime import library

    if len(words) == 1:
        return runtime.names()
    server = words[0]
    try:
        if len(words) == 2:
            uris = [str(r.get("uri")) for r in library.listed(runtime, server, "resources")]
            templates = library.listed(runtime, server, "resourceTemplates")
            names = [str(t.get(key)) for t in templates for key in ("name", "uriTemplate")]
            words_offered = uris + names
            return [w for w in words_offered if not any(c.isspace() for c in w)]  # one word each: Tab types it
        for found in library.listed(runtime, server, "resourceTemplates"):
            if words[1] in (found.get("uriTemplate"), found.get("name")):
                template = str(found.get("uriTemplate"))
                return _values(runtime, server, ("template", template), variables(template), words[2:])
    except AnviaError:
        return []
    return []


def complete_prompt(words: list[str], runtime: Runtime) -> list[str]:
    from anvia_nb.runtime import library

    try:
        if len(words) == 1:
            return [
                f"{name}.{p.get('name')}" for name in runtime.names() for p in library.listed(runtime, name, "prompts")
            ]
        server, _, prompt = words[0].partition(".")
        for found in library.listed(runtime, server, "prompts"):
            if found.get("name") == prompt:
                declared = found.get("arguments")
                names = [str(a.get("name")) for a in declared if isinstance(a, dict)] if isinstance(
                    declared, list
                ) else []
                return _values(runtime, server, ("prompt", prompt), names, words[1:])
    except AnviaError:
        return []
    return []
