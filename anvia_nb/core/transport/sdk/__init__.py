"""The border with the MCP SDK: SDK models in, plain JSON and our errors out.

``connect`` opens the SDK ``Client`` over a transport a launch supplies and yields a ``session``
(:class:`~anvia_nb.core.transport.sdk.session.SdkSession`); ``errors`` translates every foreign
exception into :mod:`anvia_nb.errors`; ``capabilities`` (roots, sampling, MCP Apps), ``features``
(resources, prompts, completion), ``listen`` (2026-07-28 change events), ``tasks``, ``protocol``
(the protocol generation), ``log`` (the SDK's own log records), ``messages`` (a JSON-RPC line read
as an SDK message, and the answer for one that cannot be), ``model_json`` (SDK models as wire
JSON), ``records`` (a recording's lines checked with the SDK's models), ``trace_streams`` (a
transport's streams, recording what passes: the launches of ``http`` and ``stdio`` wrap theirs) and
``memory`` (``MemoryLaunch``: an SDK server object in this process, over the SDK's in-memory
transport)."""

__all__: list[str] = []
