"""What an app view (MCP Apps) said, shown beside its frame: links, messages, model context.

A view's words are server text: escaped, masked, made visible and bounded by the
:class:`~anvia_nb.policy.ShowPolicy`, like every other server string. The links it offered are
``<a>`` elements (http or https only, opened in a new tab without opener or referrer) that a person
may follow; nothing is followed by itself. The static line (:func:`app_static_text`) is what a
notebook shows where no kernel runs (nbconvert, GitHub): that the tool has a view that needs one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from anvia_nb.display._html import Html, element, is_link_url, link
from anvia_nb.display.chrome import policy_of
from anvia_nb.policy import NOT_MATH_CLASSES, ShowPolicy

__all__ = ["app_links_html", "app_messages_html", "app_note_html", "app_static_text", "app_words"]


def app_static_text(server: str, tool: str, uri: str, policy: ShowPolicy) -> str:
    """The line a static view of the notebook shows instead of the frame."""
    name = policy.limits.name_chars
    return (
        f"{policy.line(server, name)}.{policy.line(tool, name)} has an interactive view "
        f"({policy.line(uri, name)}) that needs a live kernel: run the cell in Jupyter to see it."
    )


def app_words(blocks: object) -> str:
    """A message's or context's content blocks as one text: their text, other blocks as JSON."""
    if not isinstance(blocks, list):
        return ""
    parts: list[str] = []
    for block in blocks:
        if isinstance(block, Mapping) and block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        else:
            parts.append(json.dumps(block, ensure_ascii=False, default=str))
    return "\n".join(parts)


def app_links_html(links: Sequence[str], secrets: Iterable[str] = ()) -> str:
    """The links a view offered, newest last, for the person to follow or not; ``""`` when none."""
    if not links:
        return ""
    policy = policy_of(tuple(secrets))
    items: list[Html] = []
    for url in links:
        shown = policy.line(url, policy.limits.text_chars)
        masked = policy.mask(url)
        items.append(element("li", link(masked, shown) if is_link_url(masked) else shown))
    return element(
        "div",
        element(
            "div", "The view offers these links (follow one only if you trust it; nothing was opened):", style="label"
        ),
        element("ul", *items, style="list"),
        cls=f"anvia-app-links {NOT_MATH_CLASSES}",
        style="server-box",
    ).markup


def _said(label: str, text: str, policy: ShowPolicy) -> Html:
    return element(
        "div",
        element("div", label, style="label"),
        element("pre", policy.line(text, policy.limits.text_chars), style="pre"),
    )


def app_messages_html(
    messages: Sequence[Mapping[str, Any]], model_context: Mapping[str, Any] | None, secrets: Iterable[str] = ()
) -> str:
    """The view's messages (``ui/message``) and the context it set for a model; ``""`` when neither."""
    policy = policy_of(tuple(secrets))
    blocks: list[Html] = []
    for message in messages:
        role = policy.name(message.get("role", "user"))
        blocks.append(_said(f"message from the view (role {role})", app_words(message.get("content")), policy))
    if model_context:
        text = app_words(model_context.get("content"))
        structured = model_context.get("structuredContent")
        if structured is not None:
            text += ("\n" if text else "") + json.dumps(structured, ensure_ascii=False, default=str)
        blocks.append(_said("context the view set for a model", text, policy))
    if not blocks:
        return ""
    return element("div", *blocks, cls=f"anvia-app-messages {NOT_MATH_CLASSES}", style="server-box").markup


def app_note_html(server: str, tool: str, has_view: bool, secrets: Iterable[str] = ()) -> str:
    """The line a form shows for a tool that has an interactive view; ``""`` for any other tool."""
    if not has_view:
        return ""
    policy = policy_of(tuple(secrets))
    target = f"{policy.name(server)}.{policy.name(tool)}"
    return element(
        "div",
        element("b", "Interactive view."),
        element(
            "span",
            f"This tool comes with a view (MCP Apps): it opens with the result of each call; "
            f"in a cell, %mcp app {target} key=value ...",
        ),
        cls=f"anvia-app-note {NOT_MATH_CLASSES}",
        style="note",
    ).markup
