"""The client the MCP conformance suite runs for its core (not ``auth/*``) client scenarios:
anvia_nb's public API, as a user's code would drive it. ``python conformance_client.py SERVER_URL``.

The suite names the scenario in ``MCP_CONFORMANCE_SCENARIO``, the protocol version it targets in
``MCP_CONFORMANCE_PROTOCOL_VERSION`` (the connection is pinned to it: each scenario passes on the
wire it targets) and, for some, the calls to make in ``MCP_CONFORMANCE_CONTEXT`` (``toolCalls``).
Without listed calls the client calls every tool it was given once, with arguments made from the
tool's inputSchema (a ``schema`` object argument gets the other tool's inputSchema, verbatim, as
``json-schema-2020-12-preservation`` asks), lists and reads resources and prompts when the server
has them, lists a server's skills (and loads one where the scenario has a person load one:
:func:`skills`), and answers an elicitation by accepting it with no content. Exit status 0 when every
step went through. A call whose arguments do not match the tool's inputSchema is refused before
sending (anvia_nb's rule); the client prints that refusal and sends the call again with
``validate_arguments=False``, the override a user has for a server that wants such arguments."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from anvia_nb import McpServer, connect_mcp, mcp
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.errors import AnviaError, ArgumentValidationError, InvalidValueError

REFUSED = "refused before sending, then sent with validate_arguments=False:"
SKILL_REFUSED = "skill refused:"
_SAMPLE = {"string": "x", "number": 1, "integer": 1, "boolean": True, "object": {}, "array": []}


def arguments_for(schema: JsonObject, others: list[JsonObject]) -> JsonObject:
    """Values for a schema's required properties (what a user would type for a plain form)."""
    properties = schema.get("properties") or {}
    made: JsonObject = {}
    for key in schema.get("required") or []:
        spec = properties.get(key) or {}
        kind = spec.get("type") if isinstance(spec, dict) else None
        if key == "schema" and kind == "object" and others:
            made[key] = others[0]
        elif isinstance(spec, dict) and "default" in spec:
            made[key] = spec["default"]
        elif isinstance(spec, dict) and spec.get("enum"):
            made[key] = spec["enum"][0]
        else:
            made[key] = _SAMPLE.get(kind if isinstance(kind, str) else "string", "x")
    return made


async def accept(request: JsonObject) -> JsonObject:
    """An elicitation callback that accepts and leaves every field to the request's defaults."""
    return {"action": "accept", "content": {}}


async def skills(server: McpServer, scenario: str) -> None:
    """The Skills extension (SEP-2640) as a person uses it: list the skills (no file is read);
    where the scenario has a person load one (``sep-2640-client-verify-*``), load the first and,
    when it checks out against its listing, read the files it lists. A skill that does not check
    out is refused in one line and nothing more of it is read."""
    entries = await server.skills()
    print(f"skills: {[entry.get('uri') for entry in entries]}", flush=True)
    if not entries or not scenario.startswith("sep-2640-client-verify"):
        return
    name = str(entries[0].get("uri"))
    try:
        await server.skill(name)
    except InvalidValueError as exc:
        print(f"{SKILL_REFUSED} {exc}", flush=True)
        return
    root = name.removesuffix("SKILL.md")
    for record in entries[0].get("resources") or []:
        path = str(record.get("uri", "")).removeprefix(root)
        if path != "SKILL.md":
            await server.skill_file(name, path)


async def main(url: str) -> int:
    context: dict[str, Any] = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    protocol = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION") or None
    server = await connect_mcp(mcp.http(name="conformance", url=url, protocol=protocol))
    try:
        server.client.set_elicitation_handler(accept)
        calls: list[dict[str, Any]] = context.get("toolCalls") or []
        if not calls:
            for tool in server.tools:
                others = [other.input_schema for other in server.tools if other is not tool]
                calls.append({"name": tool.name, "arguments": arguments_for(tool.input_schema, others)})
        for call in calls:
            tool = server.tool(call["name"])
            try:
                outcome = await tool.call_outcome(call.get("arguments"))
            except ArgumentValidationError as exc:  # our rule: said aloud, then overridden as a user may
                print(f"{REFUSED} {exc}", flush=True)
                outcome = await tool.call_outcome(call.get("arguments"), validate_arguments=False)
            print(f"{call['name']}: {outcome.error or outcome.output}", flush=True)
        capabilities = server.client.capabilities
        if "resources" in capabilities:
            for resource in await server.resources():
                await server.read_resource(resource["uri"])
        if "prompts" in capabilities:
            for prompt in await server.prompts():
                await server.get_prompt(prompt["name"], {})
        await skills(server, os.environ.get("MCP_CONFORMANCE_SCENARIO", ""))
    except AnviaError as exc:
        print(f"failed: {exc}", flush=True)
        return 1
    finally:
        await server.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
