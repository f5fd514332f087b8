"""The grammar of ``%mcp skills [NAME ...]`` and ``%mcp skill NAME.SKILL [FILE]`` (the Skills
extension, SEP-2640)."""

from __future__ import annotations

from dataclasses import dataclass

from anvia_nb.magic.parse.words import CommandLineError, split

__all__ = ["SkillCommand", "SkillsCommand", "parse_skill", "parse_skills"]

_SKILL_USAGE = "Usage: %mcp skill NAME.SKILL [FILE]  (%mcp skills lists them; FILE: a file the skill lists)"


@dataclass(frozen=True)
class SkillsCommand:
    """``skills [NAME ...]``: the skills of the named connections (of all when none is named)."""

    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class SkillCommand:
    """``skill NAME.SKILL [FILE]``: one skill loaded (its ``SKILL.md``), or one of its files."""

    server: str
    skill: str
    file: str = "SKILL.md"


def parse_skills(rest: str, _cell: str | None = None) -> SkillsCommand:
    words = split(rest)
    options = [w for w in words if w.startswith("-")]
    if options:
        raise CommandLineError(f"Unknown option {options[0]!r}. Usage: %mcp skills [NAME ...]")
    return SkillsCommand(tuple(words))


def parse_skill(rest: str, _cell: str | None = None) -> SkillCommand:
    words = split(rest)
    if not words or len(words) > 2 or words[0].startswith("-"):
        raise CommandLineError(_SKILL_USAGE)
    server, dot, skill = words[0].partition(".")
    if not dot or not server or not skill:
        raise CommandLineError(f"skill takes NAME.SKILL (a connection and one of its skills), not {words[0]!r}.")
    return SkillCommand(server, skill, words[1] if len(words) == 2 else "SKILL.md")
