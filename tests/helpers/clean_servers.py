"""A clean corpus for the audit's false alarms (issue 38): the definitions of servers people connect
together, in the style of popular real ones (GitHub, Slack, Notion, Postgres, a file system, fetch,
web search, a browser, Sentry, Google Drive, time, memory, sequential thinking, everything, git),
their descriptions paraphrased, with the imperative documentation real servers write ("You must
...", "Always ...", "Never ...", "Important: ...", "Use X first" for the same server's tools),
parameter docs, enums, defaults, ``$defs`` and ``$ref`` pointers, URLs, emoji and titles in many
scripts. Nothing here is an attack: every finding at medium or above on it is a false alarm.

:func:`clean_definitions` builds them; the servers are in :data:`SERVERS` (this module),
:data:`tests.helpers.clean_servers_more.MORE` and :data:`tests.helpers.clean_servers_local.LOCAL`."""

from __future__ import annotations

from anvia_nb.core.audit.definitions import Definition, definitions_of
from anvia_nb.core.protocol.types import ToolInfo
from tests.helpers.clean_servers_local import LOCAL
from tests.helpers.clean_servers_more import DELETES, MORE, READ_ONLY, WRITES, Spec, tool

__all__ = ["SERVERS", "clean_definitions"]

SERVERS: dict[str, Spec] = {
    "github": {
        "instructions": "Tools for GitHub repositories, issues and pull requests. Always call get_me first to "
        "learn who you are signed in as. Prefer search_code over cloning. Never push to the default branch "
        "without asking; open a pull request with create_pull_request instead.",
        "tools": [
            tool(
                "get_me",
                "Get details of the authenticated GitHub user. Use this before any other tool.",
                annotations=READ_ONLY,
                title="Who am I",
            ),
            tool(
                "search_repositories",
                "Search for GitHub repositories. Use the `query` parameter with GitHub "
                "search syntax, e.g. `language:python stars:>100`.",
                {
                    "query": "Search query (see https://docs.github.com/search-github)",
                    "page": {"type": "number", "description": "Page number for pagination (min 1)", "default": 1},
                    "perPage": {"type": "number", "description": "Results per page (max 100)", "default": 30},
                },
                annotations=READ_ONLY,
            ),
            tool(
                "get_file_contents",
                "Get the contents of a file or directory from a repository. Important: "
                "for large files, use the raw URL instead. You must pass `ref` for a branch other than the default.",
                {
                    "owner": "Repository owner (user or organization)",
                    "repo": "Repository name",
                    "path": "Path to the file or directory",
                    "ref": "Git ref: a branch, tag or commit SHA",
                },
                annotations=READ_ONLY,
            ),
            tool(
                "create_or_update_file",
                "Create or update a single file in a repository. You must provide the "
                "blob SHA of the file being replaced when updating. Use push_files for several files at once.",
                {
                    "owner": "Repository owner",
                    "repo": "Repository name",
                    "path": "Path where to create the file",
                    "content": "Content of the file",
                    "message": "Commit message",
                    "branch": "Branch to write to",
                    "sha": "SHA of the file being replaced (required when updating)",
                },
                annotations=WRITES,
            ),
            tool(
                "push_files",
                "Push several files to a repository in a single commit. Do not use this for "
                "binary files larger than 100 MB.",
                {
                    "files": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
                        },
                    }
                },
                annotations=WRITES,
            ),
            tool(
                "create_issue",
                "Create a new issue in a GitHub repository. Search existing issues with "
                "search_issues first to avoid duplicates.",
                {
                    "title": "Issue title",
                    "body": "Issue body in Markdown",
                    "labels": {"type": "array", "items": {"type": "string"}, "description": "Labels to apply"},
                },
                annotations=WRITES,
            ),
            tool(
                "search_issues",
                "Search issues and pull requests across repositories. Only returns the first "
                "1000 results; narrow the query with `repo:` and `is:open`.",
                {
                    "q": "Search query",
                    "sort": {"type": "string", "enum": ["comments", "reactions", "created", "updated"]},
                    "order": {"type": "string", "enum": ["asc", "desc"], "default": "desc"},
                },
                annotations=READ_ONLY,
            ),
            tool(
                "create_pull_request",
                "Open a pull request. The head branch must exist; call create_branch "
                "before this if it does not. Always write a clear title.",
                {
                    "head": "The branch with your changes",
                    "base": "The branch to merge into",
                    "draft": {"type": "boolean", "default": False},
                },
                annotations=WRITES,
            ),
            tool(
                "create_branch",
                "Create a new branch from an existing one (the default branch when `from_branch` is omitted).",
                {"branch": "Name of the new branch", "from_branch": "Source branch"},
                annotations=WRITES,
            ),
            tool(
                "merge_pull_request",
                "Merge a pull request. Never merge without the user's approval; check "
                "get_pull_request_status first and make sure all checks passed.",
                {"merge_method": {"type": "string", "enum": ["merge", "squash", "rebase"], "default": "merge"}},
                annotations=WRITES,
            ),
            tool(
                "get_pull_request_status",
                "Get the combined status of all status checks for a pull request.",
                {"pull_number": {"type": "number"}},
                annotations=READ_ONLY,
            ),
            tool(
                "add_issue_comment",
                "Add a comment to an issue or pull request. Markdown is supported, including task lists and @mentions.",
                {"body": "Comment text"},
                annotations=WRITES,
            ),
            tool(
                "list_commits",
                "List the commits of a branch, newest first.",
                {"sha": "Branch name or SHA"},
                annotations=READ_ONLY,
            ),
        ],
        "prompts": [
            {
                "name": "review_pr",
                "title": "Review a pull request",
                "description": "Review a pull request: read the diff, run the checks, then leave comments.",
                "arguments": [
                    {"name": "pull_number", "description": "The number of the pull request", "required": True}
                ],
            },
        ],
        "templates": [
            {
                "uriTemplate": "repo://{owner}/{repo}/contents{/path*}",
                "name": "Repository content",
                "description": "The contents of a file or directory at the default branch.",
            },
        ],
    },
    "slack": {
        "instructions": "Slack workspace tools. Use slack_list_channels to find a channel's ID before posting; "
        "channel names are not accepted. Be polite: never post to #general unless asked.",
        "tools": [
            tool(
                "slack_list_channels",
                "List public channels in the workspace with pagination.",
                {
                    "limit": {
                        "type": "number",
                        "default": 100,
                        "description": "Maximum channels (default 100, max 200)",
                    },
                    "cursor": "Pagination cursor for the next page",
                },
                annotations=READ_ONLY,
            ),
            tool(
                "slack_post_message",
                "Post a new message to a Slack channel. Use search to find the channel "
                "first. Messages support mrkdwn: *bold*, _italic_, `code` and <https://example.com|links>.",
                {"channel_id": "The ID of the channel to post to", "text": "The message text to post"},
            ),
            tool(
                "slack_reply_to_thread",
                "Reply to a specific message thread. You must pass the parent message's "
                "timestamp as `thread_ts` (format `1234567890.123456`).",
                {
                    "channel_id": "The channel containing the thread",
                    "thread_ts": "The parent message's timestamp",
                    "text": "The reply text",
                },
            ),
            tool(
                "slack_add_reaction",
                "Add a reaction emoji to a message, e.g. 👍 or :tada: 🎉.",
                {"reaction": "The name of the emoji reaction (without colons)"},
            ),
            tool(
                "slack_get_channel_history",
                "Get recent messages from a channel. Important: this returns at most "
                "the last 1000 messages; older ones need a search.",
                {"limit": {"type": "number", "default": 10}},
                annotations=READ_ONLY,
            ),
            tool(
                "slack_get_users",
                "Get a list of all users in the workspace with their basic profile information.",
                annotations=READ_ONLY,
            ),
            tool(
                "slack_search_messages",
                "Search messages. Supports modifiers such as `in:#channel`, `from:@user` "
                "and `before:2024-01-01`. Use the time of the user's question to narrow it.",
                {"query": "What to search for"},
                annotations=READ_ONLY,
            ),
        ],
    },
    "notion": {
        "instructions": "Notion API tools. Pages and databases are identified by UUIDs. Always retrieve a "
        "database's schema with API-retrieve-a-database before querying or creating pages in it.",
        "tools": [
            tool(
                "API-post-search",
                "Search pages and databases by title. Returns only items shared with the "
                "integration. Tip: leave `query` empty to list everything shared.",
                {
                    "query": "The text to search for in titles",
                    "filter": {
                        "type": "object",
                        "properties": {
                            "value": {"type": "string", "enum": ["page", "database"]},
                            "property": {"type": "string", "enum": ["object"]},
                        },
                    },
                },
                annotations=READ_ONLY,
            ),
            tool(
                "API-retrieve-a-database",
                "Retrieve a database object: its title and its properties' schema.",
                {"database_id": "An identifier for the Notion database"},
                annotations=READ_ONLY,
            ),
            tool(
                "API-post-database-query",
                "Query a database. Filters and sorts follow the Notion API; see "
                "https://developers.notion.com/reference/post-database-query-filter.",
                {
                    "database_id": "Identifier for a Notion database",
                    "filter": {"$ref": "#/$defs/filter"},
                    "sorts": {"type": "array", "items": {"$ref": "#/$defs/sort"}},
                },
                schema={
                    "$defs": {
                        "filter": {"type": "object", "description": "See $defs/filter in the API reference."},
                        "sort": {"type": "object", "properties": {"direction": {"enum": ["ascending", "descending"]}}},
                    }
                },
                annotations=READ_ONLY,
            ),
            tool(
                "API-post-page",
                "Create a page in a page or database. When the parent is a database, the "
                "properties must match its schema.",
                {
                    "parent": {"type": "object"},
                    "properties": {"type": "object", "description": "Page properties as key–value pairs"},
                },
                annotations=WRITES,
            ),
            tool(
                "API-patch-block-children",
                "Append blocks to a page or block. At most 100 blocks per request; split longer content.",
                {"block_id": "The parent block", "children": {"type": "array"}},
                annotations=WRITES,
            ),
            tool(
                "API-delete-a-block",
                "Archive (move to trash) a block. This cannot be undone from the API.",
                {"block_id": "Identifier for the block"},
                annotations=DELETES,
            ),
        ],
    },
    "postgres": {
        "instructions": "Read-only access to a PostgreSQL database. Do not use for tables over 10 GB without a "
        "LIMIT. Every query runs in a READ ONLY transaction.",
        "tools": [
            tool(
                "query",
                "Run a read-only SQL query. Always add a LIMIT clause; never select * from large "
                "tables. Important: exports are slow.",
                {"sql": {"type": "string", "description": "The SQL to run", "examples": ["SELECT now()"]}},
                annotations=READ_ONLY,
                title="SQL query",
            ),
            tool(
                "list_schemas",
                "List the schemas of the database (pg_catalog and information_schema excluded).",
                annotations=READ_ONLY,
            ),
            tool(
                "explain_query",
                "Show the query plan (EXPLAIN ANALYZE is never used: it would run the query).",
                {
                    "sql": "The statement to explain",
                    "format": {"type": "string", "enum": ["text", "json", "yaml"], "default": "text"},
                },
                annotations=READ_ONLY,
            ),
        ],
        "resources": [
            {
                "uri": "postgres://localhost/users/schema",
                "name": "users table schema",
                "mimeType": "application/json",
                "description": "Column names and data types of the users table.",
            },
        ],
    },
}
"""Servers of work people share (code, chat, notes, a database), by the name a person gives them."""


def clean_definitions() -> list[Definition]:
    """Every server of the corpus, as one person connecting them all at once would have them."""
    found: list[Definition] = []
    for server, spec in {**SERVERS, **MORE, **LOCAL}.items():
        tools = [
            ToolInfo(
                server,
                t["name"],
                title=t.get("title"),
                description=t["description"],
                input_schema=t["inputSchema"],
                output_schema=t.get("outputSchema"),
                annotations=t.get("annotations"),
            )
            for t in spec.get("tools", [])
        ]
        found += definitions_of(
            server,
            instructions=spec.get("instructions"),
            tools=tools,
            prompts=spec.get("prompts", []),
            resources=spec.get("resources", []),
            templates=spec.get("templates", []),
        )
    return found
