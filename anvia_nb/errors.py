"""The one exception tree of anvia_nb.

Every error the package raises on purpose is an :class:`AnviaError`. Errors from the MCP SDK,
from anyio and from the operating system are translated into this tree in exactly one place
(``anvia_nb.core._sdk``) and always chained (``raise ... from``), so the original stays reachable
as ``__cause__`` while user code only ever catches our names::

    AnviaError
    ├── ArgumentError (TypeError)          arguments that are not a JSON object: nothing was sent
    ├── ArgumentValidationError (ValueError) arguments that fail the tool's inputSchema: nothing was sent
    ├── ConnectError                       connecting, handshaking or listing tools failed
    ├── ConnectionClosedError              the connection was closed, or its server went away
    ├── ProtocolError                      the server answered with a JSON-RPC error (``.code``)
    ├── UnknownConnectionError (KeyError)  no open connection of that name
    ├── UnknownToolError (KeyError)        no tool of that name on the connection
    └── ToolCallError                      a tools/call that returned but cannot become output
        ├── ToolResultError                the result had ``isError: true``
        ├── UnsupportedContentError        audio or resource_link content (seed 000)
        ├── OutputSchemaError              structuredContent does not match outputSchema
        ├── InputRequiredError             the server still wants input nobody supplied
        └── ToolTimeoutError (TimeoutError) no answer within the timeout; the call was cancelled

``ToolCallError`` carries ``server``, ``tool`` and ``raw`` (the result as JSON, when one arrived)
so that a notebook can display what the server really sent beside the error. Messages are one
line and say what to do; text that came from a server is kept as data (``server_text``) so the
display layer can escape and mask it.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "AnviaError",
    "ArgumentError",
    "ArgumentValidationError",
    "ConnectError",
    "ConnectionClosedError",
    "InputRequiredError",
    "OutputSchemaError",
    "ProtocolError",
    "ToolCallError",
    "ToolResultError",
    "ToolTimeoutError",
    "UnknownConnectionError",
    "UnknownToolError",
    "UnsupportedContentError",
]

UNSUPPORTED_CONTENT_MESSAGE = "Unsupported MCP tool result content type"
TOOL_ERROR_DEFAULT_MESSAGE = "MCP tool returned an error"


class AnviaError(Exception):
    """Base of every error anvia_nb raises on purpose."""


class ArgumentError(AnviaError, TypeError):
    """Tool arguments were not a mapping (nor ``None``); raised before any remote call."""


class ArgumentValidationError(AnviaError, ValueError):
    """Tool arguments do not satisfy the tool's ``inputSchema``; raised before any remote call.

    ``problems`` lists one readable line per violation (``"a: 'x' is not of type 'number'"``).
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


class ConnectError(AnviaError):
    """Connecting to a server, its handshake or its tool listing failed."""

    def __init__(self, message: str, server: str = "") -> None:
        super().__init__(message)
        self.server = server


class ConnectionClosedError(AnviaError):
    """The connection is closed (by the user, or because the server went away)."""

    def __init__(self, message: str, server: str = "") -> None:
        super().__init__(message)
        self.server = server


class ProtocolError(AnviaError):
    """The server answered a request with a JSON-RPC error (unknown tool, invalid params...)."""

    def __init__(self, message: str, code: int = 0, server: str = "", server_text: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.server = server
        self.server_text = server_text


class UnknownConnectionError(AnviaError, KeyError):
    """No open connection has that name; ``suggestions`` holds close names."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnknownToolError(AnviaError, KeyError):
    """No tool of that name is listed on the connection; ``suggestions`` holds close names."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


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
    """The server returned ``isError: true``; the message is its text content (seed 000)."""


class UnsupportedContentError(ToolCallError):
    """The result holds audio or resource_link content, which the mapping does not support."""

    def __init__(self, content_type: str, **kwargs: Any) -> None:
        super().__init__(f"{UNSUPPORTED_CONTENT_MESSAGE}: {content_type}", **kwargs)
        self.content_type = content_type


class OutputSchemaError(ToolCallError):
    """``structuredContent`` does not validate against the tool's ``outputSchema``.

    ``problems`` has one line per violation; ``raw`` keeps the whole result, so nothing is lost.
    """

    def __init__(self, message: str, problems: list[str], **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.problems = problems


class InputRequiredError(ToolCallError):
    """The server answered ``resultType: "input_required"`` and no one could supply the input."""


class ToolTimeoutError(ToolCallError, TimeoutError):
    """The call took longer than its timeout; it was cancelled on the server."""
