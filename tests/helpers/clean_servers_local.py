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
    "context7": {
        "tools": [
            tool(
                "resolve-library-id",
                "Resolves a package name to a Context7-compatible library ID. You MUST call this function "
                "before 'get-library-docs' to obtain a valid ID UNLESS the user explicitly provides one in the "
                "format '/org/project' or '/org/project/version'.",
                {"libraryName": "Library name to search for"},
                annotations=READ_ONLY,
            ),
            tool(
                "get-library-docs",
                "Fetches up-to-date documentation for a library. You must call 'resolve-library-id' first to "
                "obtain the exact ID. Use `topic` to focus the docs (e.g. 'hooks', 'routing').",
                {
                    "context7CompatibleLibraryID": "Exact ID, e.g. '/mongodb/docs'",
                    "topic": "Topic to focus on",
                    "tokens": {
                        "type": "number",
                        "default": 10000,
                        "description": "Maximum number of tokens of "
                        "documentation to retrieve. Higher values give more context but cost more.",
                    },
                },
                annotations=READ_ONLY,
            ),
        ],
    },
    "commander": {
        "instructions": "IMPORTANT: Always use absolute paths for reliability. NEVER use relative paths. "
        "CRITICAL: write files in chunks of at most 30 lines; the first call uses mode 'rewrite', the next "
        "ones 'append'. Never run interactive commands (vim, less) with start_process.",
        "tools": [
            tool(
                "start_process",
                "Start a terminal process with intelligent state detection. Use it for "
                "Python, Node and shell sessions. Always check the output with read_process_output before "
                "sending more input.",
                {"command": "The command to run", "timeout_ms": {"type": "number"}},
            ),
            tool(
                "read_process_output",
                "Read output from a running process. Returns what was written since the last read.",
                {"pid": {"type": "number"}},
                annotations=READ_ONLY,
            ),
            tool(
                "interact_with_process",
                "Send input to a running process and read its response. Do not use "
                "this for processes that were not started with start_process.",
                {"pid": {"type": "number"}, "input": "Code or text to send"},
            ),
            tool(
                "force_terminate",
                "Force terminate a running terminal session.",
                {"pid": {"type": "number"}},
                annotations=DELETES,
            ),
            tool(
                "edit_block",
                "Apply surgical text replacements to files. BEST PRACTICE: make several small, "
                "focused edits rather than one large one. By default replaces only ONE occurrence; set "
                "expected_replacements to replace more.",
                {
                    "old_string": "Text to replace",
                    "new_string": "Replacement text",
                    "expected_replacements": {"type": "number", "default": 1},
                },
                annotations=WRITES,
            ),
        ],
    },
    "linear": {
        "tools": [
            tool(
                "list_issues",
                "List issues in the user's Linear workspace. Filter by team, state or "
                "assignee; use 'me' for the current user.",
                {
                    "assignee": "User ID, name, email or 'me'",
                    "state": {"type": "string", "enum": ["Backlog", "Todo", "In Progress", "Done", "Canceled"]},
                },
                annotations=READ_ONLY,
            ),
            tool(
                "create_issue",
                "Create a new Linear issue. Ask the user for the team when it is unclear; never guess it.",
                {"title": "Issue title", "description": "Markdown body", "teamId": "The team"},
                annotations=WRITES,
            ),
            tool(
                "create_comment",
                "Add a comment to an issue. Mention people with @name.",
                {"issueId": "The issue", "body": "Comment in Markdown"},
                annotations=WRITES,
            ),
        ],
    },
    "k8s": {
        "instructions": "Kubernetes cluster access through the current kubeconfig context. Prefer "
        "resources_list over kubectl output parsing. Never delete resources in kube-system.",
        "tools": [
            tool(
                "pods_list",
                "List all the Kubernetes pods in the current cluster from all namespaces.",
                annotations=READ_ONLY,
            ),
            tool(
                "pods_log",
                "Get the logs of a pod. Use `previous: true` for the logs of the last terminated container.",
                {"name": "Pod name", "namespace": "Namespace", "previous": {"type": "boolean"}},
                annotations=READ_ONLY,
            ),
            tool(
                "pods_delete",
                "Delete a Kubernetes pod in the given namespace. Its controller recreates it when it has one.",
                {"name": "Pod name", "namespace": "Namespace"},
                annotations=DELETES,
            ),
            tool(
                "resources_create_or_update",
                "Create or update a resource from a YAML or JSON manifest. "
                "The manifest must include apiVersion and kind.",
                {"resource": "The manifest"},
                annotations=WRITES,
            ),
            tool(
                "configuration_view",
                "Get the current kubeconfig (secrets, tokens and certificates are redacted).",
                {"minified": {"type": "boolean", "default": True}},
                annotations=READ_ONLY,
            ),
        ],
    },
}
"""Servers that run beside the user, by the name a person gives them."""
