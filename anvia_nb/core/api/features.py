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

from anvia_nb._docs import fill_docstring
from anvia_nb.core.api.listings import ANSWER_TIMEOUT, ListedServer
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.content import resource_links
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.readings import PromptResult, ResourceRead
from anvia_nb.core.protocol.types import CallOutcome, JsonObject
from anvia_nb.core.protocol.uri_template import expand, matches
from anvia_nb.core.transport.session import CompletionRequest, PromptRequest
from anvia_nb.errors import (
    ArgumentError,
    ArgumentValidationError,
    InvalidTypeError,
    InvalidValueError,
    UnknownPromptError,
    UnknownResourceError,
)

__all__ = ["ConnectedServer", "unknown_name_hint"]


def unknown_name_hint(
    name: str, names: list[str], has: str | None, none: str, most: int | None = None
) -> tuple[list[str], str]:
    """The names closest to ``name`` (at most three) and the sentence an unknown-name error ends
    with: "Did you mean ...?", else ``has`` and the names (the first ``most`` of them), else
    ``none`` (also when ``has`` is ``None``: the names are not listed)."""
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    if close:
        return close, f" Did you mean {', '.join(close)}?"
    return close, f" {has} {', '.join(names[:most])}." if names and has is not None else f" {none}"


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
    return (
        [a for a in found if isinstance(a, dict) and isinstance(a.get("name"), str)] if isinstance(found, list) else []
    )


class ConnectedServer(ListedServer):
    """A connected server: its connection, client and secrets, and its resources, templates,
    prompts and completion (see the module docstring).

    Every method that asks the server raises ``ConnectionClosedError`` (the connection is
    closed or its server went away), ``ProtocolError`` (a JSON-RPC error) or
    ``ToolTimeoutError`` (no answer in time); each method's ``Raises`` names what else it checks.
    """

    # -- resources -----------------------------------------------------------------------------

    def note_links(self, raw: JsonObject | None) -> None:
        """Remember the URIs of a result's resource links: reading one later is not an unknown URI.

        Parameters
        ----------
        raw : dict or None
            A ``tools/call`` result as JSON (``None``: nothing to note).
        """
        content = raw.get("content") if isinstance(raw, dict) else None
        for link in resource_links(content if isinstance(content, list) else []):
            if len(self.offered_links) < limits.LINKS_KEPT:
                self.offered_links.add(link["uri"])

    async def check_uri(self, uri: str) -> None:
        """Check that a listed resource, a listed template or an offered link knows ``uri``;
        the listings are read again first (they may have changed).

        Parameters
        ----------
        uri : str
            The resource URI.

        Raises
        ------
        UnknownResourceError
            Nothing knows ``uri``; ``.suggestions`` holds close ones.
        """
        if uri in self.offered_links:
            return
        resources = await self.resources()
        templates = await self.resource_templates()
        if any(r.get("uri") == uri for r in resources):
            return
        if any(isinstance(t.get("uriTemplate"), str) and matches(t["uriTemplate"], uri) for t in templates):
            return
        known = [str(r.get("uri")) for r in resources] + [str(t.get("uriTemplate")) for t in templates]
        close, hint = unknown_name_hint(uri, known, None, "%mcp resources and %mcp templates list what it has.")
        raise UnknownResourceError(f"{self.name!r} lists no resource or template for {uri!r}.{hint}", close)

    @fill_docstring(ANSWER_TIMEOUT)
    async def read_resource(self, uri: str, *, timeout_seconds: Timeout = limits.DEFAULT) -> ResourceRead:
        """``resources/read`` of ``uri``, not checked against the listings (a server may
        serve unlisted URIs).

        Parameters
        ----------
        uri : str
            The resource URI.
        {timeout}

        Returns
        -------
        ResourceRead
            ``.contents`` as sent, ``.text``, ``.data(i)``, ``.save(i, path)``.

        Raises
        ------
        InvalidTypeError, InvalidValueError
            ``uri`` is not a string, or is empty.
        """
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
        """The listed template whose ``uriTemplate`` or ``name`` is ``template`` (read again if not found).

        Parameters
        ----------
        template : str
            A template's ``uriTemplate`` or name.

        Returns
        -------
        dict

        Raises
        ------
        UnknownResourceError
            No listed template is called so; ``.suggestions`` holds close ones.
        """
        found = await self._find("resourceTemplates", lambda t: template in (t.get("uriTemplate"), t.get("name")))
        if found is not None:
            return found
        templates = self.listings.get("resourceTemplates", [])
        known = [str(t.get("uriTemplate")) for t in templates] + [str(t.get("name")) for t in templates]
        close, hint = unknown_name_hint(template, known, None, "%mcp templates lists its templates.")
        raise UnknownResourceError(f"{self.name!r} lists no resource template {template!r}.{hint}", close)

    @fill_docstring(ANSWER_TIMEOUT)
    async def read_template(
        self, template: str, variables: Mapping[str, str] | None = None, *, timeout_seconds: Timeout = limits.DEFAULT
    ) -> ResourceRead:
        """Read a listed template (its ``uriTemplate`` or name) expanded with ``variables``.

        Parameters
        ----------
        template : str
            A listed template's ``uriTemplate`` or name.
        variables : mapping of str to str, optional
            The template's variables (``None``: none).
        {timeout}

        Returns
        -------
        ResourceRead

        Raises
        ------
        UnknownResourceError, ArgumentError
            No such template; ``variables`` not a mapping of strings.
        """
        info = await self.template_info(template)
        uri_template = str(info.get("uriTemplate", ""))
        uri = expand(uri_template, _strings(variables, "Template variables"))
        return await self._read(uri, timeout_seconds, template=uri_template)

    @fill_docstring(ANSWER_TIMEOUT)
    async def read_link(
        self, outcome: CallOutcome | JsonObject, index: int = 0, *, timeout_seconds: Timeout = limits.DEFAULT
    ) -> ResourceRead:
        """Read the ``index``-th ``resource_link`` of a result because you ask (never by itself),
        over this connection, shown as read on request.

        Parameters
        ----------
        outcome : CallOutcome or dict
            A call's outcome, or its raw result JSON.
        index : int, optional
            Which of its links, from 0 (the default).
        {timeout}

        Returns
        -------
        ResourceRead

        Raises
        ------
        InvalidValueError
            The result has no link, or none at ``index``.
        """
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
        """The listed prompt called ``name`` (the listing is read again when it is not found).

        Parameters
        ----------
        name : str

        Returns
        -------
        dict
            The prompt as listed (``name``, ``title``, ``description``, ``arguments``).

        Raises
        ------
        UnknownPromptError
            No listed prompt has that name; ``.suggestions`` holds close names.
        """
        found = await self._find("prompts", lambda p: p.get("name") == name)
        if found is not None:
            return found
        names = [str(p.get("name")) for p in self.listings.get("prompts", [])]
        close, hint = unknown_name_hint(name, names, "It has:", "It lists no prompts.", most=20)
        raise UnknownPromptError(f"{self.name!r} has no prompt {name!r}.{hint}", close)

    @fill_docstring(ANSWER_TIMEOUT)
    async def get_prompt(
        self, name: str, arguments: Mapping[str, str] | None = None, *, timeout_seconds: Timeout = limits.DEFAULT
    ) -> PromptResult:
        """``prompts/get``, its name and arguments checked against the listing first.

        Parameters
        ----------
        name : str
            A listed prompt's name.
        arguments : mapping of str to str, optional
            Its arguments (strings, as the protocol says; ``None``: none).
        {timeout}

        Returns
        -------
        PromptResult
            ``.messages`` as sent.

        Raises
        ------
        UnknownPromptError, ArgumentError
            No such prompt; ``arguments`` not a mapping of strings.
        ArgumentValidationError
            An argument it does not take, or a required one missing; nothing is sent.
        """
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
        """``completion/complete``: suggestions for one prompt argument or template variable.

        Parameters
        ----------
        ref : tuple of (str, str)
            ``("prompt", NAME)`` or ``("template", URI_TEMPLATE)``.
        argument : str
            The argument's (or variable's) name.
        value : str, optional
            What is typed so far (default ``""``).
        context : mapping of str to str, optional
            Values already given to the other arguments (``None``: none).
        timeout_seconds : float or None, optional
            Seconds to wait (default 10 s); ``None``: no limit.

        Returns
        -------
        list of str
            The suggestions; ``[]`` when the server offers none.

        Raises
        ------
        InvalidValueError, ArgumentError
            ``ref`` is neither kind; ``context`` not a mapping of strings.
        """
        kind, _name = ref
        if kind not in ("prompt", "template"):
            raise InvalidValueError(f'complete() takes ("prompt", NAME) or ("template", URI_TEMPLATE), not {ref!r}.')
        timeout = limits.timeout_or_default(timeout_seconds, limits.COMPLETION_TIMEOUT_SECONDS)
        context_sent = _strings(context, "Completion context")
        return await self.client.in_session(
            lambda session: session.complete(CompletionRequest(ref, argument, value, context_sent, timeout))
        )
