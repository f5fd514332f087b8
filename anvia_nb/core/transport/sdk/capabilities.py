"""The SDK callbacks for what a server may ask of the client: roots and sampling; and the MCP Apps
extension the client declares (:func:`apps_extension`).

Part of the border with the MCP SDK (with :mod:`anvia_nb.core.transport.sdk.connect`): plain data and our
handlers in, SDK models out. Both work on every protocol version: before 2026-07-28 the server
sends ``roots/list`` or ``sampling/createMessage`` as a request; from 2026-07-28 on it embeds them
in an ``input_required`` result, which the SDK routes to the same callbacks.
"""

from __future__ import annotations

import os
from typing import Any

import mcp_types
from mcp.client.extension import ClientExtension, advertise
from mcp.client.session import ClientRequestContext

from anvia_nb.core.protocol.apps import APP_MIME_TYPE, EXTENSION_ID
from anvia_nb.core.protocol.roots import root_uri
from anvia_nb.core.protocol.sampling import DECLINED_MESSAGE, global_sampling_handler
from anvia_nb.core.transport.handlers import LogHandler, SamplingState

__all__ = ["USER_REJECTED", "apps_extension", "roots_callback", "sampling_callback"]

USER_REJECTED = -1
"""The error code the protocol's examples use for a sampling request the user rejected."""


def apps_extension() -> ClientExtension:
    """MCP Apps (``io.modelcontextprotocol/ui``) in the client's capabilities: the client hosts a
    tool's interactive view of type ``text/html;profile=mcp-app``. Only declared: the views
    themselves are fetched and hosted above the transport (core/api/apps.py, the widgets)."""
    return advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})


def roots_callback(roots: tuple[str, ...]) -> Any:  # any: the SDK's callback type, built in its module
    """Answers ``roots/list`` with one ``file://`` root per path, named after its last part."""

    async def callback(context: ClientRequestContext) -> mcp_types.ListRootsResult:
        return mcp_types.ListRootsResult(
            roots=[
                mcp_types.Root.model_validate({"uri": root_uri(path), "name": os.path.basename(path) or path})
                for path in roots
            ]
        )

    return callback


def sampling_callback(
    state: SamplingState, server: str, log: LogHandler | None
) -> Any:  # any: the SDK's callback type, built in its module
    """Declines unless a handler is installed (the session's own, else the global one)."""

    def note(text: str, level: str = "warning") -> None:
        if log is not None:
            log(level, "anvia_nb", text)

    async def callback(
        context: ClientRequestContext, params: mcp_types.CreateMessageRequestParams
    ) -> mcp_types.CreateMessageResult | mcp_types.ErrorData:
        handler = state.handler or global_sampling_handler()
        if handler is None:
            state.declined += 1
            note("the server asked for sampling (a model's completion): declined, no handler is installed")
            return mcp_types.ErrorData(code=USER_REJECTED, message=DECLINED_MESSAGE)
        request = params.model_dump(by_alias=True, mode="json", exclude_none=True)
        request["server"] = server
        try:
            reply = await handler(request)
            result = mcp_types.CreateMessageResult.model_validate(reply)
        except Exception as exc:  # the handler's failure answers the server, it never kills the session
            state.declined += 1
            note(f"the sampling handler failed, so the request was declined: {type(exc).__name__}: {exc}")
            return mcp_types.ErrorData(
                code=mcp_types.INTERNAL_ERROR, message=f"the client's sampling handler failed: {type(exc).__name__}"
            )
        note("the server asked for sampling: answered by the installed handler", "info")
        return result

    return callback
