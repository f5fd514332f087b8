"""Tab completion of ``%mcp read``, ``prompt``, ``subscribe`` and ``unsubscribe``: listed URIs,
template and prompt names, their variables and arguments, and the server's own suggestions for a
value (``completion/complete``), bounded in time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from anvia_nb.core.protocol.uri_template import variables
from anvia_nb.errors import AnviaError
from anvia_nb.magic.parse.choices import value_word

if TYPE_CHECKING:
    from anvia_nb.runtime import Runtime

__all__ = ["complete_prompt", "complete_read", "complete_subscribe"]


def _typed(words: list[str]) -> dict[str, str]:
    return {w.partition("=")[0]: w.partition("=")[2] for w in words if "=" in w}


def _values(runtime: Runtime, server: str, ref: tuple[str, str], names: list[str], words: list[str]) -> list[str]:
    """``key=`` for names not typed yet; for ``key=partial`` the server's suggestions."""
    from anvia_nb.runtime import library

    current = words[-1]
    typed = _typed(words[:-1])
    if "=" not in current:
        return [f"{n}=" for n in names if n not in typed]
    key, _, value = current.partition("=")
    if key not in names:
        return []
    try:
        found = library.complete(runtime, server, ref, key, value, typed)
    except AnviaError:
        return []
    return [f"{key}={value_word(v)}" for v in found]  # quoted as the line reads it back


def complete_read(words: list[str], runtime: Runtime) -> list[str]:
    from anvia_nb.runtime import library

    if len(words) == 1:
        return runtime.names()
    server = words[0]
    try:
        if len(words) == 2:
            uris = [str(r.get("uri")) for r in library.listed(runtime, server, "resources")]
            templates = library.listed(runtime, server, "resourceTemplates")
            names = [str(t.get(key)) for t in templates for key in ("name", "uriTemplate")]
            words_offered = uris + names
            return [w for w in words_offered if not any(c.isspace() for c in w)]  # one word each: Tab types it
        for found in library.listed(runtime, server, "resourceTemplates"):
            if words[1] in (found.get("uriTemplate"), found.get("name")):
                template = str(found.get("uriTemplate"))
                return _values(runtime, server, ("template", template), variables(template), words[2:])
    except AnviaError:
        return []
    return []


def complete_prompt(words: list[str], runtime: Runtime) -> list[str]:
    from anvia_nb.runtime import library

    try:
        if len(words) == 1:
            return [
                f"{name}.{p.get('name')}" for name in runtime.names() for p in library.listed(runtime, name, "prompts")
            ]
        server, _, prompt = words[0].partition(".")
        for found in library.listed(runtime, server, "prompts"):
            if found.get("name") == prompt:
                declared = found.get("arguments")
                names = (
                    [str(a.get("name")) for a in declared if isinstance(a, dict)] if isinstance(declared, list) else []
                )
                return _values(runtime, server, ("prompt", prompt), names, words[1:])
    except AnviaError:
        return []
    return []


def complete_subscribe(words: list[str], runtime: Runtime) -> list[str]:
    return complete_read(words, runtime) if len(words) <= 2 else []
