"""A server's resources, resource templates, prompts and argument completion (``McpServer``'s
methods of the same names delegate here).

Everything a person can get wrong is checked before anything is sent: a prompt that is not listed,
a required prompt argument left out, an argument the prompt does not take, a template variable
missing, and (:func:`check_uri`) a URI that no listing or offered link knows. A ``resource_link``
in a result is never fetched by itself: :func:`read_link` reads one when the person asks, over
the same connection, and the read says so ("read on request from server demo").
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.content import resource_links
from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.core.protocol.types import CallOutcome, JsonObject
from anvia_nb.core.protocol.uri_template import expand, matches
from anvia_nb.errors import (
    ArgumentError,
    ArgumentValidationError,
    InvalidTypeError,
    InvalidValueError,
    UnknownPromptError,
    UnknownResourceError,
)

if TYPE_CHECKING:
    from anvia_nb.core.api.server import McpServer

__all__ = [
    "COMPLETION_TIMEOUT_SECONDS",
    "check_uri",
    "complete",
    "get_prompt",
    "list_prompts",
    "list_resource_templates",
    "list_resources",
    "note_links",
    "prompt_info",
    "read_link",
    "read_resource",
    "read_template",
    "template_info",
]

COMPLETION_TIMEOUT_SECONDS = 10.0
"""How long one completion/complete may take when no timeout is given (Tab waits for it)."""
_LINKS_KEPT = 1000


Timeout = float | limits.Default | None


async def _listing(server: McpServer, key: str, timeout_seconds: Timeout) -> list[JsonObject]:
    """One listing read now (within ``timeout_seconds``, by default the call timeout) and kept."""
    timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
    found = await server.client.list_items(key, timeout)
    server.listings[key] = found
    return found


async def list_resources(server: McpServer, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
    return await _listing(server, "resources", timeout_seconds)


async def list_resource_templates(server: McpServer, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
    return await _listing(server, "resourceTemplates", timeout_seconds)


async def list_prompts(server: McpServer, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
    return await _listing(server, "prompts", timeout_seconds)


async def _listed(server: McpServer, key: str) -> list[JsonObject]:
    """A listing as last read, read now when it never was."""
    if key not in server.listings:
        await _listing(server, key, limits.DEFAULT)
    return server.listings[key]


def note_links(server: McpServer, raw: JsonObject | None) -> None:
    """Remember the URIs of a result's resource links: reading one later is not an unknown URI."""
    content = raw.get("content") if isinstance(raw, dict) else None
    for link in resource_links(content if isinstance(content, list) else []):
        if len(server.offered_links) < _LINKS_KEPT:
            server.offered_links.add(link["uri"])


def _uri(uri: object) -> str:
    if not isinstance(uri, str):
        raise InvalidTypeError(f"A resource URI is a string, not {type(uri).__name__}.")
    if not uri.strip():
        raise InvalidValueError("The resource URI is empty: give one of the URIs %mcp resources lists.")
    return uri


async def check_uri(server: McpServer, uri: str) -> None:
    """Raise :class:`UnknownResourceError` unless a listed resource, a listed template or an
    offered link knows ``uri``; the listings are read again first (they may have changed)."""
    if uri in server.offered_links:
        return
    resources = await list_resources(server)
    templates = await list_resource_templates(server)
    if any(r.get("uri") == uri for r in resources):
        return
    if any(isinstance(t.get("uriTemplate"), str) and matches(t["uriTemplate"], uri) for t in templates):
        return
    known = [str(r.get("uri")) for r in resources] + [str(t.get("uriTemplate")) for t in templates]
    close = difflib.get_close_matches(uri, known, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(close)}?" if close else " %mcp resources and %mcp templates list what it has."
    raise UnknownResourceError(f"{server.name!r} lists no resource or template for {uri!r}.{hint}", close)


async def read_resource(
    server: McpServer,
    uri: str,
    *,
    timeout_seconds: float | limits.Default | None = limits.DEFAULT,
    on_request: bool = False,
    template: str | None = None,
) -> ResourceRead:
    """One resources/read (no check against the listings: a server may serve unlisted URIs)."""
    uri = _uri(uri)
    timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
    start = time.perf_counter()
    raw = await server.client.in_session(lambda session: session.read_resource(uri, timeout))
    return ResourceRead(
        server=server.name,
        uri=uri,
        raw=raw,
        seconds=time.perf_counter() - start,
        on_request=on_request,
        template=template,
        secrets=server.secrets,
    )


async def template_info(server: McpServer, template: str) -> JsonObject:
    """The listed template whose ``uriTemplate`` or ``name`` is ``template``."""
    templates = await _listed(server, "resourceTemplates")
    for found in templates:
        if template in (found.get("uriTemplate"), found.get("name")):
            return found
    templates = await list_resource_templates(server)  # it may be new
    for found in templates:
        if template in (found.get("uriTemplate"), found.get("name")):
            return found
    known = [str(t.get("uriTemplate")) for t in templates] + [str(t.get("name")) for t in templates]
    close = difflib.get_close_matches(template, known, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(close)}?" if close else " %mcp templates lists its templates."
    raise UnknownResourceError(f"{server.name!r} lists no resource template {template!r}.{hint}", close)


def _strings(values: Mapping[str, Any] | None, what: str) -> dict[str, str]:
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        raise ArgumentError(f"{what} are a mapping of names to strings, not {type(values).__name__}.")
    wrong = [k for k, v in values.items() if not isinstance(k, str) or not isinstance(v, str)]
    if wrong:
        raise ArgumentError(f"{what} are strings: {', '.join(map(str, wrong))} is not (quote it).")
    return dict(values)


async def read_template(
    server: McpServer,
    template: str,
    variables: Mapping[str, str] | None = None,
    *,
    timeout_seconds: float | limits.Default | None = limits.DEFAULT,
) -> ResourceRead:
    """Expand a listed template (by ``uriTemplate`` or name) with ``variables`` and read it."""
    info = await template_info(server, template)
    uri_template = str(info.get("uriTemplate", ""))
    uri = expand(uri_template, _strings(variables, "Template variables"))
    return await read_resource(server, uri, timeout_seconds=timeout_seconds, template=uri_template)


async def read_link(
    server: McpServer,
    outcome: CallOutcome | JsonObject,
    index: int = 0,
    *,
    timeout_seconds: float | limits.Default | None = limits.DEFAULT,
) -> ResourceRead:
    """Read the ``index``-th resource link of a result (a :class:`CallOutcome` or its raw JSON),
    because the person asked; over this connection, shown as read on request."""
    raw = outcome.raw if isinstance(outcome, CallOutcome) else outcome
    content = raw.get("content") if isinstance(raw, dict) else None
    links = resource_links(content if isinstance(content, list) else [])
    if not links:
        raise InvalidValueError("This result has no resource link to read.")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(links):
        last = len(links) - 1
        raise InvalidValueError(f"This result has {len(links)} resource link(s): give an index from 0 to {last}.")
    return await read_resource(server, links[index]["uri"], timeout_seconds=timeout_seconds, on_request=True)


async def prompt_info(server: McpServer, name: str) -> JsonObject:
    """The listed prompt called ``name`` (the listing is read again when it is not found)."""
    for listing in (await _listed(server, "prompts"), None):
        prompts = listing if listing is not None else await list_prompts(server)
        for found in prompts:
            if found.get("name") == name:
                return found
    names = [str(p.get("name")) for p in server.listings.get("prompts", [])]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    if close:
        hint = f" Did you mean {', '.join(close)}?"
    elif names:
        hint = f" It has: {', '.join(names[:20])}."
    else:
        hint = " It lists no prompts."
    raise UnknownPromptError(f"{server.name!r} has no prompt {name!r}.{hint}", close)


def _arguments_of(prompt: JsonObject) -> list[JsonObject]:
    found = prompt.get("arguments")
    return [a for a in found if isinstance(a, dict) and isinstance(a.get("name"), str)] if isinstance(
        found, list
    ) else []


async def get_prompt(
    server: McpServer,
    name: str,
    arguments: Mapping[str, str] | None = None,
    *,
    timeout_seconds: float | limits.Default | None = limits.DEFAULT,
) -> PromptResult:
    """prompts/get after checking the name and the arguments against the listing."""
    sent = _strings(arguments, "Prompt arguments")
    prompt = await prompt_info(server, name)
    declared = _arguments_of(prompt)
    names = [a["name"] for a in declared]
    unknown = [key for key in sent if key not in names]
    missing = [a["name"] for a in declared if a.get("required") is True and a["name"] not in sent]
    target = f"{server.name}.{name}"
    if unknown:
        takes = ", ".join(names) or "no arguments"
        raise ArgumentValidationError(
            f"{target} was not asked for: it takes no argument {', '.join(unknown)}. It takes: {takes}.", unknown
        )
    if missing:
        raise ArgumentValidationError(
            f"{target} was not asked for: it needs {', '.join(missing)}; "
            f"give {' '.join(f'{m}=VALUE' for m in missing)}.",
            [f"{m}: required" for m in missing],
        )
    timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
    start = time.perf_counter()
    raw = await server.client.in_session(lambda session: session.get_prompt(name, sent or None, timeout))
    return PromptResult(
        server=server.name,
        prompt=name,
        arguments=sent,
        raw=raw,
        seconds=time.perf_counter() - start,
        secrets=server.secrets,
    )


async def complete(
    server: McpServer,
    ref: tuple[str, str],
    argument: str,
    value: str = "",
    context: Mapping[str, str] | None = None,
    *,
    timeout_seconds: float | limits.Default | None = limits.DEFAULT,
) -> list[str]:
    """Suggestions for one prompt argument (``("prompt", NAME)``) or template variable
    (``("template", URI_TEMPLATE)``), given what is typed so far; ``[]`` when the server offers none."""
    kind, _name = ref
    if kind not in ("prompt", "template"):
        raise InvalidValueError(f'complete() takes ("prompt", NAME) or ("template", URI_TEMPLATE), not {ref!r}.')
    timeout = limits.timeout_or_default(timeout_seconds, COMPLETION_TIMEOUT_SECONDS)
    context_sent = _strings(context, "Completion context")
    return await server.client.in_session(
        lambda session: session.complete(ref, argument, value, context_sent, timeout)
    )
