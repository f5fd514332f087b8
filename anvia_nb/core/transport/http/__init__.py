"""Streamable HTTP: the launch that opens a session over it (``launch``), the SDK's transport
reading an answer's bytes once (``streamable``), server-sent events kept as bytes
(``sse_bytes``), the httpx client with large reads (``client``) and the bound on a JSON body
(``body_limits``)."""

__all__: list[str] = []
