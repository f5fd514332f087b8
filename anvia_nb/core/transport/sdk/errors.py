"""Where the SDK's exceptions (and httpx's, pydantic's, the OS's) become :mod:`anvia_nb.errors`:
every :class:`~anvia_nb.core.transport.sdk.session.SdkSession` method, listing and connect goes
through :func:`error_from_exception` (and :func:`connect_error`, built on it, for a handshake).
Two other functions look at an SDK exception without translating it (a refused
``server/discover`` and a refused ``logging/setLevel``); docs/architecture.md names them.

A server's own words stay marked as ``server_text``, so ``hide_server_errors`` can hide them.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import anyio
import httpx2
import mcp_types
import pydantic
from mcp.client._input_required import InputRequiredRoundsExceededError
from mcp.client.auth import OAuthFlowError
from mcp.shared.exceptions import MCPError

from anvia_nb.core.transport.sdk.messages import MARK
from anvia_nb.errors import (
    AnviaError,
    AuthorizationError,
    AuthorizationRequiredError,
    ConnectError,
    ConnectionClosedError,
    InputRequiredError,
    ProtocolError,
    ToolTimeoutError,
    UrlElicitationRequiredError,
)

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

__all__ = ["TOO_LARGE", "connect_error", "error_from_exception"]

TOO_LARGE = "larger than the limit of"
"""What a bounded body's error says (:mod:`~anvia_nb.core.transport.http.body_limits` raises it), read
back here to say which bound an answer passed."""

_SDK_PARSE_FAILURES = ("Failed to parse SSE message", "Failed to parse JSON response")


def _server_text(exc: MCPError) -> str:
    """The server's message, without the ``MCP error -32042:`` prefix some SDKs put in it."""
    text = exc.message or ""
    return re.sub(rf"^(?:MCP error {exc.code}:\s*)+", "", text)


def _url_elicitations(data: Any) -> list[dict[str, Any]]:
    found = data.get("elicitations") if isinstance(data, dict) else None
    return [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []


def _unreadable(exc: MCPError) -> str:
    """What went wrong when the error was made on our side of the wire (an answer that could not
    be read, or was too large), else ``""``: the server sent no such error."""
    if isinstance(exc.data, dict) and exc.data.get(MARK):
        return exc.message or "sent an answer that could not be read"
    if exc.code == mcp_types.PARSE_ERROR and (exc.message or "").startswith(_SDK_PARSE_FAILURES):
        if TOO_LARGE in (exc.message or ""):
            return f"sent an answer {TOO_LARGE} {_limit_in(exc.message)} bytes; it was not read"
        return "sent an answer that could not be read (not valid JSON-RPC/MCP)"
    return ""


def _limit_in(message: str) -> str:
    found = re.search(rf"{TOO_LARGE} ([\d,]+) bytes", message)
    return found.group(1) if found else "the maximum"


def _protocol_error(exc: MCPError, target: str, where: str, server: str) -> ProtocolError:
    text = _server_text(exc)
    if exc.code == mcp_types.URL_ELICITATION_REQUIRED:
        elicitations = _url_elicitations(exc.data)
        error = UrlElicitationRequiredError(
            "", server=server, server_text=text, data=exc.data, elicitations=elicitations
        )
        said = f": {error.url_message}" if error.url_message and error.url_message != text else ""
        url = f" Open {error.url} yourself to continue{said}, then call again." if error.url else ""
        error.args = (f"{target} needs you to open a URL first (MCP error {exc.code}){where}: {text}.{url}",)
        return error
    return ProtocolError(
        f"{target} answered with MCP error {exc.code}{where}: {text}",
        code=exc.code,
        server=server,
        server_text=text,
        data=exc.data,
    )


def error_from_exception(
    exc: BaseException, *, server: str, tool: str = "", during: str = "", cwd: str | None = None
) -> AnviaError:
    """Translate an SDK, anyio, transport or OS error into our tree (the one translation; see the module docstring)."""
    if isinstance(exc, AnviaError):
        return exc
    where = f" while {during}" if during else ""
    target = f"{server}.{tool}" if tool else server
    if isinstance(exc, BaseExceptionGroup):
        inner = [e for e in exc.exceptions if not isinstance(e, anyio.get_cancelled_exc_class())]
        if len(inner) >= 1:
            return error_from_exception(inner[0], server=server, tool=tool, during=during)
    if isinstance(exc, OAuthFlowError):  # discovery, issuer, registration or token exchange (never a token)
        return AuthorizationError(f"Authorizing with {server!r} failed{where}: {exc}", server=server)
    if isinstance(exc, InputRequiredRoundsExceededError):
        return InputRequiredError(
            f"{target} kept asking for more input{where}; the call was given up.", server=server, tool=tool
        )
    if isinstance(exc, MCPError) and _unreadable(exc):
        return ProtocolError(
            f"{target} {_unreadable(exc)}{where}: nothing of that answer was used.", code=exc.code, server=server
        )
    if isinstance(exc, MCPError):
        # -32000 is also a server's generic error code: only the SDK's own "Connection closed" is a loss.
        if exc.code == mcp_types.CONNECTION_CLOSED and exc.message == "Connection closed":
            return ConnectionClosedError(
                f"The connection to {server!r} closed{where}: the server went away (its log may say why); "
                "connect again to use it.",
                server=server,
            )
        if exc.code == mcp_types.REQUEST_TIMEOUT:
            return ToolTimeoutError(f"{target} did not answer in time{where}.", server=server, tool=tool)
        return _protocol_error(exc, target, where, server)
    if isinstance(exc, TimeoutError):
        return ToolTimeoutError(
            f"{target} did not answer in time{where}; the request was cancelled.", server=server, tool=tool
        )
    if isinstance(exc, anyio.ClosedResourceError | anyio.BrokenResourceError | anyio.EndOfStream):
        return ConnectionClosedError(f"The connection to {server!r} is closed.", server=server)
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        missing = exc.filename or exc
        if cwd is not None and str(missing) == str(cwd):
            return ConnectError(f"Cannot start {server!r}: its working directory {missing} does not exist.", server)
        return ConnectError(
            f"Cannot start {server!r}: command not found ({missing}). Check the command and PATH.", server=server
        )
    if isinstance(exc, httpx2.HTTPStatusError):
        status = exc.response.status_code
        hint = " (check the headers or token)" if status in (401, 403) else ""
        return ConnectError(f"{server!r} answered HTTP {status}{where}{hint}.", server=server)
    if isinstance(exc, httpx2.HTTPError | OSError):
        # An answer that is not HTTP is quoted by the parser ("illegal status line: <its bytes>"):
        # server text. The operating system's words (refused, unreachable) are not.
        quoted = str(exc) if isinstance(exc, httpx2.ProtocolError | httpx2.DecodingError) else ""
        return ConnectError(
            f"Cannot reach {server!r}{where}: {type(exc).__name__}: {exc}", server=server, server_text=quoted
        )
    if isinstance(exc, pydantic.ValidationError):
        return ProtocolError(
            f"{target} sent a message that is not valid MCP{where}: {exc.error_count()} problem(s).",
            server=server,
            server_text=str(exc),
        )
    # Anything else may quote what the server sent (the SDK's "Unsupported protocol version from
    # the server: <its text>"): its text is kept as the server's, so hide_server_errors hides it.
    said = str(exc)
    return ProtocolError(
        f"{target} failed{where}: {type(exc).__name__}: {said}", server=server, server_text=said or type(exc).__name__
    )


def connect_error(
    exc: BaseException, server: str, failed_statuses: list[int], cwd: str | None, *, has_auth: bool = True
) -> AnviaError:
    translated = error_from_exception(exc, server=server, during="connecting", cwd=cwd)
    if isinstance(translated, AuthorizationError):  # its own words; the 401 before it is part of the flow
        return translated
    if failed_statuses and failed_statuses[-1] == 401 and not has_auth:
        return AuthorizationRequiredError(
            f"{server!r} needs authorization (HTTP 401): connect with %mcp connect {server} --oauth --http URL "
            "(from Python, mcp.http(..., auth=mcp.oauth(...))).",
            server,
        )
    if failed_statuses:
        status = failed_statuses[-1]
        hint = ": check the headers or token" if status in (401, 403) else ""
        return ConnectError(f"Connecting to {server!r} failed: the server answered HTTP {status}{hint}.", server)
    if isinstance(translated, ConnectError):
        return translated
    if isinstance(translated, ConnectionClosedError):
        return ConnectError(
            f"Connecting to {server!r} failed: the server closed the connection before the handshake ended "
            "(it exited, or wrote something other than MCP).",
            server=server,
        )
    # The server's own words (an error to initialize) stay marked as such: hide_server_errors hides them.
    server_text = getattr(translated, "server_text", "") or ""
    return ConnectError(f"Connecting to {server!r} failed: {translated}", server=server, server_text=server_text)
