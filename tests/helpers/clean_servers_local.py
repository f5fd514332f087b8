"""The third part of the clean corpus of :mod:`tests.helpers.clean_servers`: time, memory,
sequential thinking, everything, git, units, defs and a server documented in several languages."""

from __future__ import annotations

from tests.helpers.clean_servers_more import DELETES, READ_ONLY, WRITES, Spec, tool

__all__ = ["LOCAL"]

LOCAL: dict[str, Spec] = {
    "time": {
        "tools": [
            tool(
                "get_current_time",
                "Get current time in a specific timezone. Use this before convert_time.",
                {
                    "timezone": "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). Use 'UTC' as local "
                    "timezone if no timezone provided by the user."
                },
                annotations=READ_ONLY,
            ),
            tool(
                "convert_time",
                "Convert time between timezones.",
                {
                    "source_timezone": "Source IANA timezone name",
                    "time": "Time to convert in 24-hour format (HH:MM)",
                    "target_timezone": "Target IANA timezone name (e.g., 'Asia/Tokyo')",
                },
                annotations=READ_ONLY,
            ),
        ],
    },
    "memory": {
        "instructions": "A knowledge graph that persists across chats. Always begin by retrieving relevant "
        'information with search_nodes, and refer to the graph as your "memory". Store new facts with '
        "add_observations. Data is saved in memory.json beside the server.",
        "tools": [
            tool(
                "create_entities",
                "Create multiple new entities in the knowledge graph",
                {
                    "entities": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "description": "The name of the entity"},
                                "entityType": {"type": "string", "description": "The type of the entity"},
                                "observations": {"type": "array", "items": {"type": "string"}},
                            },
                        },
                    }
                },
                annotations=WRITES,
            ),
            tool(
                "create_relations",
                "Create multiple new relations between entities in the knowledge graph. "
                "Relations should be in active voice.",
                {"relations": {"type": "array"}},
                annotations=WRITES,
            ),
            tool(
                "add_observations",
                "Add new observations to existing entities",
                {"observations": {"type": "array"}},
                annotations=WRITES,
            ),
            tool(
                "delete_entities",
                "Delete multiple entities and their associated relations",
                {"entityNames": {"type": "array", "items": {"type": "string"}}},
                annotations=DELETES,
            ),
            tool("read_graph", "Read the entire knowledge graph", annotations=READ_ONLY),
            tool(
                "search_nodes",
                "Search for nodes in the knowledge graph based on a query. The query is matched "
                "against entity names, types, and observation content.",
                {"query": "The search query"},
                annotations=READ_ONLY,
            ),
            tool(
                "open_nodes",
                "Open specific nodes in the knowledge graph by their names",
                {"names": {"type": "array", "items": {"type": "string"}}},
                annotations=READ_ONLY,
            ),
        ],
    },
    "thinking": {
        "tools": [
            tool(
                "sequentialthinking",
                "A detailed tool for dynamic and reflective problem-solving through "
                "thoughts.\n\nWhen to use this tool:\n- Breaking down complex problems into steps\n- Planning and "
                "design with room for revision\n\nYou should:\n1. Start with an initial estimate of needed "
                "thoughts, but be ready to adjust\n2. Feel free to question or revise previous thoughts\n3. Don't "
                'hesitate to add more thoughts if needed, even at the "end"\n4. Only set next_thought_needed to '
                "false when truly done and a satisfactory answer is reached",
                {
                    "thought": "Your current thinking step",
                    "nextThoughtNeeded": {"type": "boolean"},
                    "thoughtNumber": {"type": "integer", "minimum": 1},
                    "totalThoughts": {"type": "integer"},
                    "isRevision": {"type": "boolean", "description": "Whether this revises previous thinking"},
                },
                annotations=READ_ONLY,
            ),
        ],
    },
    "everything": {
        "instructions": "A test server that exercises every feature of MCP. Not for production use.",
        "tools": [
            tool("echo", "Echoes back the input", {"message": "Message to echo"}, annotations=READ_ONLY),
            tool("add", "Adds two numbers", {"a": {"type": "number"}, "b": {"type": "number"}}, annotations=READ_ONLY),
            tool(
                "longRunningOperation",
                "Demonstrates a long running operation with progress updates",
                {"duration": {"type": "number", "default": 10}, "steps": {"type": "number", "default": 5}},
            ),
            tool(
                "printEnv",
                "Prints all environment variables, helpful for debugging MCP server configuration",
                annotations=READ_ONLY,
            ),
            tool(
                "sampleLLM",
                "Samples from an LLM using MCP's sampling feature",
                {"prompt": "The prompt to send to the LLM", "maxTokens": {"type": "number", "default": 100}},
            ),
            tool("getTinyImage", "Returns the MCP_TINY_IMAGE", annotations=READ_ONLY),
            tool(
                "annotatedMessage",
                "Demonstrates how annotations can be used to provide metadata about content",
                {
                    "messageType": {"type": "string", "enum": ["error", "success", "debug"]},
                    "includeImage": {"type": "boolean", "default": False},
                },
            ),
            tool(
                "getResourceReference",
                "Returns a resource reference that can be used by MCP clients",
                {"resourceId": {"type": "number", "minimum": 1, "maximum": 100}},
                annotations=READ_ONLY,
            ),
        ],
        "prompts": [
            {"name": "simple_prompt", "description": "A prompt without arguments"},
            {
                "name": "complex_prompt",
                "description": "A prompt with arguments",
                "arguments": [
                    {"name": "temperature", "description": "Temperature setting", "required": True},
                    {"name": "style", "description": "Output style"},
                ],
            },
        ],
        "templates": [
            {
                "uriTemplate": "test://static/resource/{id}",
                "name": "Static Resource",
                "description": "A static resource with a numeric ID",
            },
        ],
    },
    "git": {
        "tools": [
            tool(
                "git_status",
                "Shows the working tree status",
                {"repo_path": "Path to the Git repository"},
                annotations=READ_ONLY,
            ),
            tool(
                "git_diff_unstaged",
                "Shows changes in the working directory that are not yet staged",
                {"context_lines": {"type": "integer", "default": 3}},
                annotations=READ_ONLY,
            ),
            tool("git_add", "Adds file contents to the staging area", {"files": {"type": "array"}}, annotations=WRITES),
            tool(
                "git_commit",
                "Records changes to the repository. You must call git_add first.",
                {"message": "Commit message"},
                annotations=WRITES,
            ),
            tool(
                "git_log",
                "Shows the commit logs",
                {"max_count": {"type": "integer", "default": 10}},
                annotations=READ_ONLY,
            ),
            tool(
                "git_checkout",
                "Switches branches. Commit or stash your changes before switching.",
                {"branch_name": "Name of the branch to checkout"},
                annotations=WRITES,
            ),
        ],
    },
    "units": {
        "tools": [
            tool(
                "convert",
                "Convert a quantity between units. The scale schema lives in $defs/Scale. Must "
                "search the table first when the unit is unusual (e.g. `furlong`).",
                {
                    "value": {"type": "number"},
                    "scale": {"$ref": "#/$defs/Scale"},
                    "from": "Unit to convert from",
                    "to": "Unit to convert to",
                },
                schema={"$defs": {"Scale": {"enum": ["metric", "imperial"], "default": "metric"}}},
                annotations=READ_ONLY,
                title="Convertir des unités",
            ),
        ],
    },
    "defs": {
        "instructions": "Dictionary definitions. Always check the time zone before scheduling a word of the day.",
        "tools": [
            tool(
                "lookup",
                "Look up a definition. Use this instead of guessing; never invent meanings.",
                {
                    "word": "The word",
                    "lang": {"type": "string", "enum": ["en", "fr", "de", "ja", "ar", "el"], "default": "en"},
                },
                annotations=READ_ONLY,
                title="辞書で調べる",
            ),
        ],
    },
    "wetter": {
        "instructions": "Wetterdaten für Orte weltweit. Verwenden Sie immer zuerst get_forecast. "
        "天気予報を返します。必ず都市名を指定してください。Επιστρέφει την πρόγνωση του καιρού. "
        "يعيد توقعات الطقس للمدينة المحددة. ☀️🌧️❄️",
        "tools": [
            tool(
                "get_forecast",
                "Gibt die Vorhersage für die nächsten Tage zurück. Wichtig: Nie mehr als 14 Tage anfragen.",
                {
                    "city": "Stadt, z. B. „München“ oder 東京",
                    "days": {"type": "integer", "default": 3, "description": "Anzahl der Tage (1–14)"},
                    "units": {"type": "string", "enum": ["°C", "°F"], "default": "°C"},
                },
                annotations=READ_ONLY,
                title="Prévisions météo — 天気予報",
            ),
            tool(
                "get_alerts",
                "Returns weather alerts 🌪️ for a US state. Use the two-letter code (e.g. CA, NY).",
                {"state": "Two-letter US state code"},
                annotations=READ_ONLY,
                title="Alertas meteorológicas",
            ),
        ],
    },
}
"""Servers that run beside the user, by the name a person gives them."""
