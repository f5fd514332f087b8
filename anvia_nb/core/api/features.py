"""``ConnectedServer``: a connected server's name, connection and secrets, with its resources,
resource templates, prompts and argument completion as methods; :class:`~anvia_nb.core.api.server.McpServer`
is one, with its tools, list changes and subscriptions added.

Everything a person can get wrong is checked before anything is sent: a prompt that is not listed,
a required prompt argument left out, an argument the prompt does not take, a template variable
missing, and (:meth:`ConnectedServer.check_uri`) a URI that no listing or offered link knows. A
``resource_link`` in a result is never fetched by itself: :meth:`ConnectedServer.read_link` reads one
when the person asks, over the same connection, and the read says so ("read on request from server demo").
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Mapping
from typing import Any

from anvia_nb.core.api.connections import McpConnection
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.content import resource_links
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.core.protocol.types import CallOutcome, JsonObject
from anvia_nb.core.protocol.uri_template import expand, matches
from anvia_nb.core.transport.client import McpClient
from anvia_nb.core.transport.session import CompletionRequest, PromptRequest
from anvia_nb.errors import (
    ArgumentError,
    ArgumentValidationError,
    InvalidTypeError,
    InvalidValueError,
    UnknownPromptError,
    UnknownResourceError,
)

__all__ = ["ConnectedServer"]


def _uri(uri: object) -> str:
    if not isinstance(uri, str):
        raise InvalidTypeError(f"A resource URI is a string, not {type(uri).__name__}.")
    if not uri.strip():
        raise InvalidValueError("The resource URI is empty: give one of the URIs %mcp resources lists.")
    return uri


def _strings(values: Mapping[str, Any] | None, what: str) -> dict[str, str]:
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        raise ArgumentError(f"{what} are a mapping of names to strings, not {type(values).__name__}.")
    wrong = [k for k, v in values.items() if not isinstance(k, str) or not isinstance(v, str)]
    if wrong:
        raise ArgumentError(f"{what} are strings: {', '.join(map(str, wrong))} is not (quote it).")
    return dict(values)


def _arguments_of(prompt: JsonObject) -> list[JsonObject]:
    found = prompt.get("arguments")
    return [a for a in found if isinstance(a, dict) and isinstance(a.get("name"), str)] if isinstance(
        found, list
    ) else []


class ConnectedServer:
    """A connected server: its connection, client and secrets, and its resources, templates,
    prompts and completion (see the module docstring)."""

    def __init__(self, connection: McpConnection, client: McpClient) -> None:
        self.connection = connection
        self.client = client
        self._secrets: tuple[McpConnection, tuple[str, ...]] | None = None
        self.listings: dict[str, list[JsonObject]] = {}
        """The last ``resources``, ``resourceTemplates`` and ``prompts`` listings read."""
        self.offered_links: set[str] = set()
        """URIs of the resource links its results offered (reading one is on request)."""

    @property
    def name(self) -> str:
        return self.connection.name

    @property
    def secrets(self) -> tuple[str, ...]:
        """The connection's secret values (found once per connection: every call's outcome carries them),
        and those found while connected (an OAuth token a request carried, a refreshed one)."""
        found = self._secrets
        if found is None or found[0] is not self.connection:
            found = self._secrets = (self.connection, self.connection.secrets())
        live = getattr(getattr(self.client, "log", None), "policy", None)
        more = sorted(live.secrets.difference(found[1])) if live is not None else ()
        return (*found[1], *more) if more else found[1]

    # -- listings ------------------------------------------------------------------------------

    async def _listing(self, key: str, timeout_seconds: Timeout) -> list[JsonObject]:
        """One listing read now (within ``timeout_seconds``, by default the call timeout) and kept."""
        timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
        found = await self.client.list_items(key, timeout)
        self.listings[key] = found
        return found

    async def resources(self, *, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
        """Every listed resource (wire keys: ``uri``, ``name``, ``title``, ``mimeType``, ``size``...)."""
        return await self._listing("resources", timeout_seconds)

    async def resource_templates(self, *, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
        """Every listed resource template (``uriTemplate``, ``name``...)."""
        return await self._listing("resourceTemplates", timeout_seconds)

    async def prompts(self, *, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
        """Every listed prompt (``name``, ``title``, ``description``, ``arguments``)."""
        return await self._listing("prompts", timeout_seconds)

    async def _listed(self, key: str) -> list[JsonObject]:
        """A listing as last read, read now when it never was."""
        if key not in self.listings:
            await self._listing(key, limits.DEFAULT)
        return self.listings[key]

    # -- resources -----------------------------------------------------------------------------

    def note_links(self, raw: JsonObject | None) -> None:
        """Remember the URIs of a result's resource links: reading one later is not an unknown URI."""
        content = raw.get("content") if isinstance(raw, dict) else None
        for link in resource_links(content if isinstance(content, list) else []):
            if len(self.offered_links) < limits.LINKS_KEPT:
                self.offered_links.add(link["uri"])

    async def check_uri(self, uri: str) -> None:
        """Raise :class:`UnknownResourceError` unless a listed resource, a listed template or an
        offered link knows ``uri``; the listings are read again first (they may have changed)."""
        if uri in self.offered_links:
            return
        resources = await self.resources()
        templates = await self.resource_templates()
        if any(r.get("uri") == uri for r in resources):
            return
        if any(isinstance(t.get("uriTemplate"), str) and matches(t["uriTemplate"], uri) for t in templates):
            return
        known = [str(r.get("uri")) for r in resources] + [str(t.get("uriTemplate")) for t in templates]
        close = difflib.get_close_matches(uri, known, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else " %mcp resources and %mcp templates list what it has."
        raise UnknownResourceError(f"{self.name!r} lists no resource or template for {uri!r}.{hint}", close)

    async def read_resource(self, uri: str, *, timeout_seconds: Timeout = limits.DEFAULT) -> ResourceRead:
        """resources/read of ``uri``: ``.contents`` as sent, ``.text``, ``.data(i)``, ``.save(i, path)``
        (no check against the listings: a server may serve unlisted URIs)."""
        return await self._read(uri, timeout_seconds)

    async def _read(
        self, uri: str, timeout_seconds: Timeout, *, on_request: bool = False, template: str | None = None
    ) -> ResourceRead:
        uri = _uri(uri)
        timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
        start = time.perf_counter()
        raw = await self.client.in_session(lambda session: session.read_resource(uri, timeout))
        return ResourceRead(
            server=self.name,
            uri=uri,
            raw=raw,
            seconds=time.perf_counter() - start,
            on_request=on_request,
            template=template,
            secrets=self.secrets,
        )

    async def template_info(self, template: str) -> JsonObject:
        """The listed template whose ``uriTemplate`` or ``name`` is ``template``."""
        templates = await self._listed("resourceTemplates")
        for found in templates:
            if template in (found.get("uriTemplate"), found.get("name")):
                return found
        templates = await self.resource_templates()  # it may be new
        for found in templates:
            if template in (found.get("uriTemplate"), found.get("name")):
                return found
        known = [str(t.get("uriTemplate")) for t in templates] + [str(t.get("name")) for t in templates]
        close = difflib.get_close_matches(template, known, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(close)}?" if close else " %mcp templates lists its templates."
        raise UnknownResourceError(f"{self.name!r} lists no resource template {template!r}.{hint}", close)

    async def read_template(
        self, template: str, variables: Mapping[str, str] | None = None, *, timeout_seconds: Timeout = limits.DEFAULT
    ) -> ResourceRead:
        """Read a listed template (its ``uriTemplate`` or name) expanded with ``variables``."""
        info = await self.template_info(template)
        uri_template = str(info.get("uriTemplate", ""))
        uri = expand(uri_template, _strings(variables, "Template variables"))
        return await self._read(uri, timeout_seconds, template=uri_template)

    async def read_link(
        self, outcome: CallOutcome | JsonObject, index: int = 0, *, timeout_seconds: Timeout = limits.DEFAULT
    ) -> ResourceRead:
        """Read the ``index``-th ``resource_link`` of a result (a :class:`CallOutcome` or its raw
        JSON) because you ask (never by itself); over this connection, shown as read on request."""
        raw = outcome.raw if isinstance(outcome, CallOutcome) else outcome
        content = raw.get("content") if isinstance(raw, dict) else None
        links = resource_links(content if isinstance(content, list) else [])
        if not links:
            raise InvalidValueError("This result has no resource link to read.")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(links):
            last = len(links) - 1
            raise InvalidValueError(f"This result has {len(links)} resource link(s): give an index from 0 to {last}.")
        return await self._read(links[index]["uri"], timeout_seconds, on_request=True)

    # -- prompts and completion ----------------------------------------------------------------

    async def prompt_info(self, name: str) -> JsonObject:
        """The listed prompt called ``name`` (the listing is read again when it is not found)."""
        for listing in (await self._listed("prompts"), None):
            prompts = listing if listing is not None else await self.prompts()
            for found in prompts:
                if found.get("name") == name:
                    return found
        names = [str(p.get("name")) for p in self.listings.get("prompts", [])]
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
        if close:
            hint = f" Did you mean {', '.join(close)}?"
        elif names:
            hint = f" It has: {', '.join(names[:20])}."
        else:
            hint = " It lists no prompts."
        raise UnknownPromptError(f"{self.name!r} has no prompt {name!r}.{hint}", close)

    async def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None, *, timeout_seconds: Timeout = limits.DEFAULT
    ) -> PromptResult:
        """prompts/get, its name and arguments checked against the listing first: ``.messages`` as sent."""
        sent = _strings(arguments, "Prompt arguments")
        prompt = await self.prompt_info(name)
        declared = _arguments_of(prompt)
        names = [a["name"] for a in declared]
        unknown = [key for key in sent if key not in names]
        missing = [a["name"] for a in declared if a.get("required") is True and a["name"] not in sent]
        target = f"{self.name}.{name}"
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
        request = PromptRequest(name, sent or None, timeout)
        raw = await self.client.in_session(lambda session: session.get_prompt(request))
        return PromptResult(
            server=self.name,
            prompt=name,
            arguments=sent,
            raw=raw,
            seconds=time.perf_counter() - start,
            secrets=self.secrets,
        )

    async def complete(
        self,
        ref: tuple[str, str],
        argument: str,
        value: str = "",
        context: Mapping[str, str] | None = None,
        *,
        timeout_seconds: Timeout = limits.DEFAULT,
    ) -> list[str]:
        """completion/complete: suggestions for one prompt argument (``ref`` ``("prompt", NAME)``)
        or template variable (``("template", URI_TEMPLATE)``), given what is typed so far (by
        default within :data:`~anvia_nb.core.protocol.limits.COMPLETION_TIMEOUT_SECONDS`); ``[]``
        when the server offers none."""
        kind, _name = ref
        if kind not in ("prompt", "template"):
            raise InvalidValueError(f'complete() takes ("prompt", NAME) or ("template", URI_TEMPLATE), not {ref!r}.')
        timeout = limits.timeout_or_default(timeout_seconds, limits.COMPLETION_TIMEOUT_SECONDS)
        context_sent = _strings(context, "Completion context")
        return await self.client.in_session(
            lambda session: session.complete(CompletionRequest(ref, argument, value, context_sent, timeout))
        )
