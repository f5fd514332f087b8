"""Resources, templates, prompts and completion of a named connection, from synchronous code.

The sync doors the magic and the widgets use: each runs the connection's async method
(:class:`~anvia_nb.core.api.features.ConnectedServer`) on the runtime's background loop and blocks until it is done
(interruptible). Listings are read again on every call; :func:`listed` gives the last one read
(reading it once when it never was), which is what Tab completion and forms offer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from anvia_nb.core.api.features import ConnectedServer
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.core.protocol.types import CallOutcome, JsonObject
from anvia_nb.runtime.sessions import Runtime

__all__ = [
    "check_uri",
    "complete",
    "get_prompt",
    "link_reader",
    "listed",
    "prompts",
    "read",
    "read_link",
    "read_template",
    "resource_templates",
    "resources",
]

_LISTINGS = {
    "resources": ConnectedServer.resources,
    "resourceTemplates": ConnectedServer.resource_templates,
    "prompts": ConnectedServer.prompts,
}


def resources(runtime: Runtime, name: str) -> list[JsonObject]:
    return runtime.run(runtime.server(name).resources())


def resource_templates(runtime: Runtime, name: str) -> list[JsonObject]:
    return runtime.run(runtime.server(name).resource_templates())


def prompts(runtime: Runtime, name: str) -> list[JsonObject]:
    return runtime.run(runtime.server(name).prompts())


def listed(runtime: Runtime, name: str, key: str) -> list[JsonObject]:
    """The last ``resources`` / ``resourceTemplates`` / ``prompts`` listing read, read now if never
    (within :data:`~anvia_nb.core.protocol.limits.COMPLETION_TIMEOUT_SECONDS`: Tab completion waits for it)."""
    server = runtime.server(name)
    if key not in server.listings:
        runtime.run(_LISTINGS[key](server, timeout_seconds=limits.COMPLETION_TIMEOUT_SECONDS))
    return list(server.listings.get(key, []))


def check_uri(runtime: Runtime, name: str, uri: str) -> None:
    """Raise ``UnknownResourceError`` unless a listing or an offered link knows ``uri``."""
    server = runtime.server(name)
    runtime.run(server.check_uri(uri))


def read(runtime: Runtime, name: str, uri: str, *, timeout_seconds: Timeout = limits.DEFAULT) -> ResourceRead:
    return runtime.run(runtime.server(name).read_resource(uri, timeout_seconds=timeout_seconds))


def read_template(
    runtime: Runtime,
    name: str,
    template: str,
    variables: Mapping[str, str],
    *,
    timeout_seconds: Timeout = limits.DEFAULT,
) -> ResourceRead:
    return runtime.run(runtime.server(name).read_template(template, variables, timeout_seconds=timeout_seconds))


def read_link(
    runtime: Runtime, outcome: CallOutcome, index: int = 0, *, timeout_seconds: Timeout = limits.DEFAULT
) -> ResourceRead:
    """Read a result's ``index``-th resource link over the connection of the same name, on request."""
    server = runtime.server(outcome.server)
    return runtime.run(server.read_link(outcome, index, timeout_seconds=timeout_seconds))


@functools.lru_cache(maxsize=8)
def link_reader(
    runtime: Runtime, timeout_seconds: Timeout = limits.DEFAULT
) -> Callable[[CallOutcome, int], ResourceRead]:
    """A ``ResultView``'s reader: reads a link only when called (made once per runtime and
    timeout: every ``%mcp call`` result gets one, issue 41)."""

    def reader(outcome: CallOutcome, index: int) -> ResourceRead:
        return read_link(runtime, outcome, index, timeout_seconds=timeout_seconds)

    return reader


def get_prompt(
    runtime: Runtime,
    name: str,
    prompt: str,
    arguments: Mapping[str, str] | None = None,
    *,
    timeout_seconds: Timeout = limits.DEFAULT,
) -> PromptResult:
    return runtime.run(runtime.server(name).get_prompt(prompt, arguments, timeout_seconds=timeout_seconds))


def complete(
    runtime: Runtime,
    name: str,
    ref: tuple[str, str],
    argument: str,
    value: str = "",
    context: Mapping[str, str] | None = None,
) -> list[str]:
    return runtime.run(runtime.server(name).complete(ref, argument, value, context))
