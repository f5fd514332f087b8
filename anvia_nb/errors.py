"""The one exception tree of anvia_nb.

Every error the package raises on purpose is an :class:`AnviaError`, subclassing the built-in it
resembles (``except KeyError:`` still works). Errors from the MCP SDK, from anyio, HTTP and the
operating system are translated into this tree in ``anvia_nb.core.transport.sdk.errors``
(``error_from_exception``, and ``connect_error`` on top of it) and always chained
(``raise ... from``), so the original stays reachable as ``__cause__`` while user code only ever
catches our names.

The tree is drawn once, in docs/architecture.md ("The error tree"), with a line on each class;
tests/package/test_docs_match_code.py compares that drawing with the classes below and their
bases, so a class added here must be drawn there.

``ToolCallError`` carries ``server``, ``tool`` and ``raw`` (the result as JSON, when one arrived)
so that a notebook can display what the server really sent beside the error. Messages are one
line and say what to do; text that came from a server is kept as data (``server_text``) so the
display layer can escape and mask it.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AnviaError",
    "AppRequestRefused",
    "ArgumentError",
    "ArgumentValidationError",
    "AuthorizationDeniedError",
    "AuthorizationError",
    "AuthorizationRequiredError",
    "AuthorizationStateError",
    "CommandLineError",
    "ConfigFileError",
    "ConnectError",
    "ConnectionClosedError",
    "DefinitionChangedError",
    "InputRequiredError",
    "InvalidTypeError",
    "InvalidValueError",
    "LockFileError",
    "LoopMisuseError",
    "NotOfferedError",
    "NotTabularError",
    "OutputSchemaError",
    "ProtocolError",
    "RecordingFileError",
    "SecretNotPortableError",
    "TaskCancelledError",
    "TokenExpiredError",
    "ToolCallError",
    "ToolResultError",
    "ToolTimeoutError",
    "UnknownConnectionError",
    "UnknownFieldError",
    "UnknownNameError",
    "UnknownPromptError",
    "UnknownResourceError",
    "UnknownToolError",
    "UnrecordedCallError",
    "UnsafeMarkupError",
    "UnsupportedContentError",
    "UrlElicitationRequiredError",
    "WaitTimeoutError",
]

UNSUPPORTED_CONTENT_MESSAGE = "Unsupported MCP tool result content type"
TOOL_ERROR_DEFAULT_MESSAGE = "MCP tool returned an error"


class AnviaError(Exception):
    """Base of every error anvia_nb raises on purpose."""


class AppRequestRefused(AnviaError):
    """A request from a tool's interactive view (MCP Apps) that the host will not carry out; the view
    receives it as a JSON-RPC error with :attr:`code`."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ArgumentError(AnviaError, TypeError):
    """Tool arguments were not a mapping (nor ``None``); raised before any remote call."""


class ArgumentValidationError(AnviaError, ValueError):
    """Tool arguments do not satisfy the tool's ``inputSchema``; raised before any remote call.

    ``problems`` lists one readable line per violation (``"a: 'x' is not of type 'number'"``).
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class InvalidValueError(AnviaError, ValueError):
    """A value given to anvia_nb cannot be used: a connection name, a URL, a setting, an answer."""


class InvalidTypeError(AnviaError, TypeError):
    """A value of the wrong kind: ``args`` as one string, a form target that is not a pair."""


class NotTabularError(AnviaError, ValueError):
    """A result whose structured content is not a table (a list of objects, or an object holding one)."""


class SecretNotPortableError(AnviaError, TypeError):
    """A connection description that would carry a secret value to another process (a Dask worker)."""


class ConfigFileError(AnviaError, ValueError):
    """A config file that cannot be read, or a server entry in it that cannot be used."""


class CommandLineError(AnviaError, ValueError):
    """A ``%mcp`` line that does not parse; the message says what to type instead."""


class UnsafeMarkupError(AnviaError, ValueError):
    """HTML that was not built by the display layer's safe builders (a programming error)."""


class UnknownFieldError(AnviaError, KeyError):
    """No form field at that dotted path."""


class LoopMisuseError(AnviaError, RuntimeError):
    """Blocking on the background loop from its own thread, which would deadlock: await instead."""


class WaitTimeoutError(AnviaError, TimeoutError):
    """Waiting for local work (a form's running call) took longer than the caller allowed."""


class RecordingFileError(AnviaError, ValueError):
    """A recording file (JSON Lines written by ``--record``) is missing or cannot be read."""


class LockFileError(AnviaError, ValueError):
    """A lock file of pinned definitions (``mcp-lock.json``) that does not parse, or whose pin does
    not match its hash: one line naming the line or item; the file is left as it is."""


class DefinitionChangedError(AnviaError):
    """A tool whose definition changed since it was pinned: refused until pinned again (``%mcp pin``)."""

    def __init__(self, message: str, server: str = "", tool: str = "") -> None:
        super().__init__(message)
        self.server = server
        self.tool = tool


class ConnectError(AnviaError):
    """Connecting to a server, its handshake or its tool listing failed.

    ``stderr`` holds the last lines a stdio server wrote to stderr before it failed (masked,
    bounded; also at the end of the message), which is usually why. ``log`` is the connection's
    :class:`~anvia_nb.core.exchange.logs.ServerLog`, still readable after the failure. ``server_text``
    holds what the server answered when it refused (an error to ``initialize``): the server's
    words, so ``hide_server_errors`` hides a message that quotes them.
    """

    def __init__(
        self,
        message: str,
        server: str = "",
        *,
        stderr: str = "",
        log: Any = None,  # any: a ServerLog; errors import no room above
        server_text: str = "",
    ) -> None:
        super().__init__(message)
        self.server = server
        self.stderr = stderr
        self.log = log
        self.server_text = server_text


class AuthorizationError(ConnectError):
    """OAuth authorization for a server could not be completed (discovery, registration, token).

    Messages name the server and never contain a token, a code or a client secret.
    """


class AuthorizationRequiredError(AuthorizationError):
    """The server answered HTTP 401: it needs OAuth (``--oauth``, ``auth=mcp.oauth(...)``)."""


class AuthorizationDeniedError(AuthorizationError):
    """The authorization server redirected back with an error (``access_denied``...): nothing was granted."""


class AuthorizationStateError(AuthorizationError, ValueError):
    """The redirected URL given back does not belong to this authorization (its ``state`` differs)."""


class TokenExpiredError(AuthorizationError):
    """The cached token expired, refreshing it failed, and nobody is there to authorize again."""


class ConnectionClosedError(AnviaError):
    """The connection is closed (by the user, or because the server went away).

    ``stderr`` holds the last lines a stdio server wrote before it went away (masked, bounded).
    """

    def __init__(self, message: str, server: str = "", *, stderr: str = "") -> None:
        super().__init__(message)
        self.server = server
        self.stderr = stderr


class ProtocolError(AnviaError):
    """The server answered a request with a JSON-RPC error (unknown tool, invalid params...).

    ``code`` and ``data`` are the error's, as sent; ``server_text`` is its message.
    """

    def __init__(
        self,
        message: str,
        code: int = 0,
        server: str = "",
        server_text: str = "",
        *,
        data: Any = None,  # any: the error's data as the server sent it
    ) -> None:
        super().__init__(message)
        self.code = code
        self.server = server
        self.server_text = server_text
        self.data = data


class UrlElicitationRequiredError(ProtocolError):
    """MCP error -32042: the server needs the person to open a URL (sign in, consent) first.

    ``url`` and ``url_message`` are the first elicitation's; ``elicitations`` holds all of them as
    sent. The URL is only ever shown as text and as a link a person may follow: never opened.
    """

    def __init__(
        self,
        message: str,
        *,
        server: str = "",
        server_text: str = "",
        data: Any = None,  # any: the error's data as the server sent it
        elicitations: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message, -32042, server, server_text, data=data)
        self.elicitations = elicitations or []
        first = self.elicitations[0] if self.elicitations else {}
        self.url: str = str(first.get("url") or "")
        self.url_message: str = str(first.get("message") or "")


class UnknownNameError(AnviaError, KeyError):
    """A name, URI or template that nothing listed or open has; ``suggestions`` holds close ones
    (best first, possibly none). ``except UnknownNameError`` catches each kind below."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnknownConnectionError(UnknownNameError):
    """No open connection has that name (``server``); ``suggestions`` holds close names."""

    def __init__(self, message: str, suggestions: list[str] | None = None, *, server: str = "") -> None:
        super().__init__(message, suggestions)
        self.server = server


class UnknownToolError(UnknownNameError):
    """No tool of that name is listed on the connection; ``suggestions`` holds close names."""


class ToolCallError(AnviaError):
    """A tools/call whose result cannot become the mapped output.

    ``raw`` is the result as JSON (a dict) when the server sent one, so it can still be shown.
    """

    def __init__(
        self,
        message: str,
        *,
        server: str = "",
        tool: str = "",
        raw: dict[str, Any] | None = None,
        server_text: str = "",
    ) -> None:
        super().__init__(message)
        self.server = server
        self.tool = tool
        self.raw = raw
        self.server_text = server_text


class ToolResultError(ToolCallError):
    """The server returned ``isError: true``; the message is its text content (docs/mapping.md, rule 8)."""


class UnsupportedContentError(ToolCallError):
    """The result holds audio or resource_link content, which the mapping does not support."""

    def __init__(self, content_type: str, **kwargs: Any) -> None:  # any: ToolCallError's keywords, passed on
        super().__init__(f"{UNSUPPORTED_CONTENT_MESSAGE}: {content_type}", **kwargs)
        self.content_type = content_type


class OutputSchemaError(ToolCallError):
    """``structuredContent`` does not validate against the tool's ``outputSchema``.

    ``problems`` has one line per violation; ``raw`` keeps the whole result, so nothing is lost.
    """

    def __init__(
        self,
        message: str,
        problems: list[str],
        **kwargs: Any,  # any: ToolCallError's keywords, passed on
    ) -> None:
        super().__init__(message, **kwargs)
        self.problems = problems


class InputRequiredError(ToolCallError):
    """The server answered ``resultType: "input_required"`` and no one could supply the input."""


class ToolTimeoutError(ToolCallError, TimeoutError):
    """The call took longer than its timeout; it was cancelled on the server."""


class TaskCancelledError(ToolCallError):
    """The call ran as a task (the protocol's tasks) and was cancelled before it completed."""

    def __init__(
        self,
        message: str,
        *,
        task_id: str = "",
        **kwargs: Any,  # any: ToolCallError's keywords, passed on
    ) -> None:
        super().__init__(message, **kwargs)
        self.task_id = task_id


class UnknownResourceError(UnknownNameError):
    """No listed resource, template or offered link has that URI (or template); ``suggestions``
    holds close ones. Raised before anything is sent."""


class NotOfferedError(AnviaError, LookupError):
    """The server's capabilities do not offer what was asked (resource subscriptions...);
    raised before anything is sent."""


class UnknownPromptError(UnknownNameError):
    """No prompt of that name is listed on the connection; ``suggestions`` holds close names."""


class UnrecordedCallError(ToolCallError, LookupError):
    """A replayed connection was asked for a call its recording does not hold.

    ``closest`` names the recorded calls nearest to it (``tool {arguments}``), best first.
    """

    def __init__(
        self,
        message: str,
        closest: list[str] | None = None,
        **kwargs: Any,  # any: ToolCallError's keywords, passed on
    ) -> None:
        super().__init__(message, **kwargs)
        self.closest = closest or []
