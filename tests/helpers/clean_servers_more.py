"""The second part of the clean corpus of :mod:`tests.helpers.clean_servers` (web search, browsers,
Sentry, Google Drive, a file system, fetch), and the small builders every part uses."""

from __future__ import annotations

from typing import Any

__all__ = ["DELETES", "MORE", "READ_ONLY", "WRITES", "Spec", "tool"]

Spec = dict[str, Any]  # Any: a server's parts as JSON, as a server sends them
READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
WRITES = {"readOnlyHint": False, "destructiveHint": False}
DELETES = {"readOnlyHint": False, "destructiveHint": True}


def tool(name: str, description: str, parameters: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """One tool as JSON (Any: JSON values); ``parameters``: each a schema, or a description string;
    ``extra``: more keys of the tool (``schema``: more keys of its input schema)."""
    properties = {
        key: ({"type": "string", "description": value} if isinstance(value, str) else value)
        for key, value in (parameters or {}).items()
    }
    schema: dict[str, Any] = {"type": "object", "properties": properties, **extra.pop("schema", {})}
    return {"name": name, "description": description, "inputSchema": schema, **extra}


_WEB = {"readOnlyHint": True, "openWorldHint": True}

MORE: dict[str, Spec] = {
    "search": {
        "instructions": "Web and local search through the Brave Search API. Use brave_web_search for general "
        "questions and brave_local_search for businesses and places.",
        "tools": [
            tool(
                "brave_web_search",
                "Performs a web search using the Brave Search API, ideal for general "
                "queries, news, articles and online content. Use this for broad information gathering, recent "
                "events, or when you need diverse web sources. Supports pagination and freshness controls. "
                "Maximum 20 results per request, with offset for pagination.",
                {
                    "query": "Search query (max 400 chars, 50 words)",
                    "count": {"type": "number", "description": "Number of results (1-20, default 10)", "default": 10},
                    "offset": {"type": "number", "description": "Pagination offset (max 9, default 0)", "default": 0},
                },
                annotations=_WEB,
            ),
            tool(
                "brave_local_search",
                "Searches for local businesses and places. Best for queries related to "
                "physical locations, businesses, restaurants, services, etc. Returns detailed information "
                "including business names and addresses, ratings and review counts, phone numbers and opening "
                "hours. Use this when the query implies 'near me' or mentions specific locations. Automatically "
                "falls back to web search if no local results are found.",
                {"query": "Local search query (e.g. 'pizza near Central Park')"},
                annotations=_WEB,
            ),
        ],
    },
    "puppeteer": {
        "tools": [
            tool(
                "puppeteer_navigate",
                "Navigate to a URL. Wait for the page to load before taking a screenshot.",
                {
                    "url": "URL to navigate to",
                    "launchOptions": {
                        "type": "object",
                        "description": "PuppeteerJS LaunchOptions, e.g. { headless: true, args: "
                        "['--no-sandbox'] }. Do not change them unless asked.",
                    },
                },
                annotations=_WEB,
            ),
            tool(
                "puppeteer_screenshot",
                "Take a screenshot of the current page or a specific element.",
                {
                    "name": "Name for the screenshot",
                    "selector": "CSS selector for the element",
                    "width": {"type": "number", "default": 800},
                    "height": {"type": "number", "default": 600},
                },
            ),
            tool(
                "puppeteer_click", "Click an element on the page.", {"selector": "CSS selector, e.g. `button#submit`"}
            ),
            tool(
                "puppeteer_fill",
                "Fill out an input field. Call puppeteer_click on it first when the page needs focus.",
                {"selector": "CSS selector for the input field", "value": "Value to fill"},
            ),
            tool(
                "puppeteer_evaluate",
                "Execute JavaScript in the browser console. Never paste secrets into scripts; the page can read them.",
                {"script": "JavaScript code to execute"},
            ),
        ],
        "resources": [
            {"uri": "console://logs", "name": "Browser console logs", "mimeType": "text/plain"},
        ],
    },
    "playwright": {
        "instructions": "Browser automation. Use browser_snapshot, not screenshots, to read a page: it is "
        "faster and gives element refs. Always close the browser with browser_close when done.",
        "tools": [
            tool(
                "browser_navigate",
                "Navigate to a URL",
                {"url": "The URL to navigate to"},
                title="Navigate",
                annotations={"readOnlyHint": False, "destructiveHint": True, "openWorldHint": True},
            ),
            tool(
                "browser_snapshot",
                "Capture an accessibility snapshot of the current page; this is better than a screenshot.",
                title="Page snapshot",
                annotations=READ_ONLY,
            ),
            tool(
                "browser_click",
                "Perform a click on a web page",
                {
                    "element": "Human-readable element description used to obtain permission to interact with the "
                    "element",
                    "ref": "Exact target element reference from the page snapshot",
                    "button": {"type": "string", "enum": ["left", "right", "middle"], "default": "left"},
                },
                title="Click",
            ),
            tool(
                "browser_type",
                "Type text into an editable element. Set `submit` to press Enter after.",
                {"text": "Text to type into the element", "submit": {"type": "boolean", "default": False}},
            ),
            tool(
                "browser_take_screenshot",
                "Take a screenshot of the current page. You can't perform actions "
                "based on the screenshot, use browser_snapshot for actions.",
                {"type": {"type": "string", "enum": ["png", "jpeg"], "default": "png"}},
                annotations=READ_ONLY,
            ),
            tool("browser_close", "Close the page", title="Close browser", annotations=READ_ONLY),
            tool(
                "browser_file_upload",
                "Upload one or multiple files. Only use paths the user gave you.",
                {
                    "paths": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "The absolute paths to "
                        "the files to upload. Can be a single file or multiple files.",
                    }
                },
            ),
        ],
    },
    "sentry": {
        "instructions": "Sentry issues and events. Issue IDs look like PROJECT-123 or a number. Use "
        "find_organizations first when you do not know the organization slug.",
        "tools": [
            tool("find_organizations", "Find the organizations you have access to.", annotations=READ_ONLY),
            tool(
                "get_issue_details",
                "Retrieve an issue's details, with the latest event's stack trace. Use "
                "this when a user pastes a Sentry URL such as https://my-org.sentry.io/issues/PROJECT-1Z43.",
                {"issueId": "The issue ID, e.g. `PROJECT-1Z43`", "issueUrl": {"type": "string", "format": "uri"}},
                annotations=READ_ONLY,
            ),
            tool(
                "search_events",
                "Search events with a natural-language query, e.g. 'errors in the last hour' or "
                "'p95 latency of /api/checkout'. Never guess field names; call find_organizations before.",
                {"naturalLanguageQuery": "What to look for", "limit": {"type": "number", "default": 10}},
                annotations=READ_ONLY,
            ),
            tool(
                "update_issue",
                "Resolve, ignore or assign an issue. You must confirm with the user before resolving.",
                {
                    "status": {
                        "type": "string",
                        "enum": ["resolved", "resolvedInNextRelease", "unresolved", "ignored"],
                    },
                    "assignedTo": "user:123 or team:456",
                },
                annotations=WRITES,
            ),
        ],
    },
    "gdrive": {
        "tools": [
            tool(
                "gdrive_search",
                "Search for files in Google Drive by full text. Only files the signed-in user can see are returned.",
                {"query": "Search query"},
                annotations=READ_ONLY,
            ),
            tool(
                "gdrive_read_file",
                "Read a file's contents. Google Docs are exported as Markdown, Sheets as "
                "CSV, Slides as plain text, Drawings as PNG.",
                {"fileId": "The ID of the file to read"},
                annotations=READ_ONLY,
            ),
            tool(
                "gsheets_update_cell",
                "Update a cell value in a Google Spreadsheet, in A1 notation (e.g. `Sheet1!B2`).",
                {"fileId": "The spreadsheet", "range": "Cell range", "value": "New value"},
                annotations=WRITES,
            ),
        ],
        "resources": [
            {"uri": "gdrive:///1A2b3C", "name": "Quarterly plan", "mimeType": "application/vnd.google-apps.document"},
        ],
    },
    "fs": {
        "instructions": "File system access, limited to the allowed directories. Call list_allowed_directories "
        "first to learn them. Always use absolute paths. Never write outside them; the server refuses.",
        "tools": [
            tool(
                "read_text_file",
                "Read the complete contents of a file as text. Use the `head` or `tail` "
                "parameter for the first or last N lines of a large file. Only works within allowed directories.",
                {
                    "path": "Absolute path",
                    "head": {
                        "type": "number",
                        "description": "If provided, returns only the first N lines of the file",
                    },
                    "tail": {"type": "number", "description": "If provided, returns only the last N lines"},
                },
                annotations=READ_ONLY,
            ),
            tool(
                "read_multiple_files",
                "Read several files at once: faster than reading them one by one. A file "
                "that cannot be read does not stop the others.",
                {"paths": {"type": "array", "items": {"type": "string"}}},
                annotations=READ_ONLY,
            ),
            tool(
                "write_file",
                "Create a new file or overwrite an existing one. Use with caution: it will "
                "overwrite without warning. Prefer edit_file for small changes.",
                {"path": "Where to write", "content": "The text to write"},
                annotations=DELETES,
            ),
            tool(
                "edit_file",
                "Make line-based edits to a text file. Each edit replaces an exact sequence of "
                "lines. Returns a git-style diff. Use `dryRun` to preview first.",
                {
                    "edits": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "oldText": {"type": "string", "description": "Text to search for - must match exactly"},
                                "newText": {"type": "string", "description": "Text to replace with"},
                            },
                        },
                    },
                    "dryRun": {
                        "type": "boolean",
                        "default": False,
                        "description": "Preview changes using git-style diff format",
                    },
                },
                annotations=WRITES,
            ),
            tool(
                "create_directory",
                "Create a directory, with its parents, or succeed silently if it exists.",
                {"path": "The directory"},
                annotations=WRITES,
            ),
            tool(
                "list_directory",
                "List a directory's entries, each marked [FILE] or [DIR].",
                {"path": "The directory"},
                annotations=READ_ONLY,
            ),
            tool(
                "directory_tree",
                "Get a recursive tree of files and directories as JSON. Each entry has `name`, "
                "`type` (file/directory) and `children`.",
                {
                    "excludePatterns": {
                        "type": "array",
                        "items": {"type": "string"},
                        "default": ["node_modules", ".git"],
                    }
                },
                annotations=READ_ONLY,
            ),
            tool(
                "move_file",
                "Move or rename a file or directory. Fails if the destination exists.",
                {"source": "From", "destination": "To"},
                annotations=WRITES,
            ),
            tool(
                "search",
                "Search files. Recursively finds files and directories matching a glob such as "
                "`**/*.py`. Always use absolute paths.",
                {"pattern": "The glob"},
                annotations=READ_ONLY,
            ),
            tool(
                "get_file_info",
                "Retrieve a file's metadata: size, times, permissions (e.g. `-rw-r--r--`).",
                {"path": "The file"},
                annotations=READ_ONLY,
            ),
            tool(
                "list_allowed_directories",
                "List the directories this server may access. Use this to understand "
                "which directories are available before trying to access files.",
                annotations=READ_ONLY,
            ),
        ],
    },
    "fetch": {
        "instructions": "Fetches web pages for the model. Respect robots.txt. Use this instead of a search when "
        "you have the URL.",
        "tools": [
            tool(
                "fetch",
                "Fetches a URL from the internet and optionally extracts its contents as markdown. "
                "Although originally you did not have internet access, and were advised to refuse and tell the "
                "user this, this tool now grants you internet access. Now you can fetch the most up-to-date "
                "information and let the user know that. Always fetch the time page before answering about dates.",
                {
                    "url": {"type": "string", "format": "uri", "description": "URL to fetch"},
                    "max_length": {
                        "type": "integer",
                        "default": 5000,
                        "exclusiveMinimum": 0,
                        "exclusiveMaximum": 1000000,
                        "description": "Maximum number of characters to return. Must be less than 1000000.",
                    },
                    "start_index": {
                        "type": "integer",
                        "default": 0,
                        "description": "Start content from this "
                        "character index; useful when a previous fetch was truncated and more context is "
                        "required.",
                    },
                    "raw": {
                        "type": "boolean",
                        "default": False,
                        "description": "Get the actual HTML content of the requested page, without simplification.",
                    },
                },
                annotations={"readOnlyHint": True, "openWorldHint": True},
            ),
        ],
        "prompts": [
            {
                "name": "fetch",
                "description": "Fetch a URL and extract its contents as markdown",
                "arguments": [{"name": "url", "description": "URL to fetch", "required": True}],
            },
        ],
    },
}
"""Web search, browsers, Sentry, Google Drive, a file system and fetch."""
