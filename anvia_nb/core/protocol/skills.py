"""The Skills extension (SEP-2640, ``io.modelcontextprotocol/skills``) as plain rules.

A server that declares the extension among its capabilities' ``extensions`` answers
``skills/list`` (each skill's entry: the ``uri`` of its ``SKILL.md``, its ``frontmatter`` as JSON,
and its ``resources``, every file with a ``sha256:`` ``digest`` and a ``size`` in bytes) and
``skills/get``. A skill's files are ordinary resources. A client reads a file only when a person
loads the skill, and uses it only once it checks out against the entry: the same size, the same
digest and, for ``SKILL.md``, the same frontmatter, field by field (:func:`file_problem`,
:func:`frontmatter_problem`). Skills are text a server wrote for a model: shown, never trusted.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from anvia_nb.core.protocol.types import JsonObject

__all__ = [
    "SKILLS_EXTENSION",
    "file_problem",
    "frontmatter",
    "frontmatter_problem",
    "offers_skills",
    "skill_file",
    "skill_name",
]

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"


def offers_skills(capabilities: JsonObject) -> bool:
    """Whether a server's capabilities (wire keys) declare the Skills extension."""
    extensions = capabilities.get("extensions")
    return isinstance(extensions, dict) and SKILLS_EXTENSION in extensions


def skill_name(entry: JsonObject) -> str:
    """A skill's name: its frontmatter's ``name``, else the last path segment before ``SKILL.md``."""
    matter = entry.get("frontmatter")
    if isinstance(matter, dict) and isinstance(matter.get("name"), str):
        return str(matter["name"])
    uri = str(entry.get("uri", ""))
    return uri.removesuffix("/SKILL.md").rstrip("/").rpartition("/")[2] or uri


def skill_file(entry: JsonObject, path: str) -> JsonObject | None:
    """The entry's record of one file (``uri``, ``digest``, ``size``) by its path within the
    skill (``SKILL.md``, ``references/STYLE.md``), else ``None``."""
    root = str(entry.get("uri", "")).removesuffix("SKILL.md")
    files = entry.get("resources")
    for found in files if isinstance(files, list) else []:
        if isinstance(found, dict) and found.get("uri") == root + path.lstrip("/"):
            return found
    return None


def file_problem(record: JsonObject, text: str) -> str | None:
    """Why ``text``, read from ``record["uri"]``, is not the file the entry lists (else ``None``)."""
    data = text.encode()
    size = record.get("size")
    if isinstance(size, int) and size != len(data):
        return f"{len(data)} bytes where the listing says {size}"
    digest = record.get("digest")
    if not isinstance(digest, str) or not digest.startswith("sha256:"):
        return f"the listing gives no sha256 digest to check it against (got {str(digest)[:40]!r})"
    if hashlib.sha256(data).hexdigest() != digest.removeprefix("sha256:").lower():
        return "its sha256 digest is not the one the listing gives"
    return None


def frontmatter(text: str) -> JsonObject | None:
    """The YAML frontmatter at the top of a ``SKILL.md`` as JSON, or ``None`` when it has none.

    Reads the plain YAML skills use: ``key: value`` lines (quoted or not), a mapping one level
    down (``metadata:`` with indented ``key: value`` lines), and ``[a, b]`` or ``- item`` lists.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        return None
    found: JsonObject = {}
    current: str | None = None
    for line in lines[1:end]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[:1].isspace() and current is not None:
            item = line.strip()
            if item.startswith("- "):
                found[current] = [*(found[current] if isinstance(found[current], list) else []), _scalar(item[2:])]
            else:
                key, _, value = item.partition(":")
                inner = found[current] if isinstance(found[current], dict) else {}
                found[current] = {**inner, key.strip(): _scalar(value)}
            continue
        key, _, value = line.partition(":")
        current = key.strip()
        found[current] = _scalar(value) if value.strip() else {}
    return found


def _scalar(text: str) -> Any:  # any: a JSON value
    value = text.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        try:
            return value[1:-1] if value[0] == "'" else json.loads(value)
        except ValueError:
            return value[1:-1]
    if value.startswith("[") and value.endswith("]"):
        return [_scalar(part) for part in value[1:-1].split(",") if part.strip()]
    return {"true": True, "false": False, "null": None, "~": None}.get(value, value)


def frontmatter_problem(entry: JsonObject, text: str) -> str | None:
    """Why a ``SKILL.md``'s frontmatter is not the entry's, field by field (else ``None``)."""
    read = frontmatter(text)
    if read is None:
        return "it has no frontmatter between --- lines"
    listed = entry.get("frontmatter")
    listed = listed if isinstance(listed, dict) else {}
    differ = sorted(key for key in {*read, *listed} if read.get(key) != listed.get(key))
    if differ:
        return f"its frontmatter differs from the listing's in {', '.join(differ)}"
    return None
