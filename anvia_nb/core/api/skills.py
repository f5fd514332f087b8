"""A server's skills (the Skills extension, SEP-2640): ``SkilledServer`` lists them and loads
one, and :class:`~anvia_nb.core.api.server.McpServer` is one.

Nothing of a skill is read until a person loads it (:meth:`SkilledServer.skill`): listing reads
only the entries. A file read for a skill is used only when it is the file the entry lists (its
size, its ``sha256`` digest and, for ``SKILL.md``, its frontmatter field by field); otherwise the
read is refused in one line and nothing else of the skill is read
(:mod:`anvia_nb.core.protocol.skills`). What comes back is a
:class:`~anvia_nb.core.protocol.readings.ResourceRead`, shown through the safety policy like
any read: a skill is text a server wrote for a model.
"""

from __future__ import annotations

from anvia_nb._docs import fill_docstring
from anvia_nb.core.api.features import ConnectedServer, unknown_name_hint
from anvia_nb.core.api.listings import ANSWER_TIMEOUT
from anvia_nb.core.protocol import limits
from anvia_nb.core.protocol.limits import Timeout
from anvia_nb.core.protocol.readings import ResourceRead
from anvia_nb.core.protocol.skills import (
    SKILLS_EXTENSION,
    file_problem,
    frontmatter_problem,
    offers_skills,
    skill_file,
    skill_name,
)
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.errors import InvalidValueError, NotOfferedError, UnknownResourceError

__all__ = ["SkilledServer"]


class SkilledServer(ConnectedServer):
    """A connected server with its skills: :meth:`skills`, :meth:`get_skill`, :meth:`skill` and
    :meth:`skill_file`."""

    @fill_docstring(ANSWER_TIMEOUT)
    async def skills(self, *, timeout_seconds: Timeout = limits.DEFAULT) -> list[JsonObject]:
        """Every skill the server lists (``uri``, ``frontmatter``, ``resources``), read now and kept
        in ``listings``; ``[]`` when the server does not declare the Skills extension.

        Parameters
        ----------
        {timeout}

        Returns
        -------
        list of dict
            Each skill's entry as sent (wire keys); no file of a skill is read.
        """
        return await self._listing("skills", timeout_seconds)

    @fill_docstring(ANSWER_TIMEOUT)
    async def get_skill(self, uri: str, *, timeout_seconds: Timeout = limits.DEFAULT) -> JsonObject:
        """``skills/get``: the entry of the skill whose ``SKILL.md`` is at ``uri``, listed or not.

        Parameters
        ----------
        uri : str
            The URI of the skill's ``SKILL.md`` (``skill://summarize-notes/SKILL.md``).
        {timeout}

        Returns
        -------
        dict
            The skill's entry (``uri``, ``frontmatter``, ``resources``), wire keys.

        Raises
        ------
        NotOfferedError
            The server does not declare the Skills extension: nothing is sent.
        ProtocolError
            The server serves no skill there (``-32602``).
        """
        if not offers_skills(self.client.capabilities):
            raise NotOfferedError(f"{self.name!r} does not declare the Skills extension ({SKILLS_EXTENSION}).")
        timeout = limits.timeout_or_default(timeout_seconds, limits.DEFAULT_CALL_TIMEOUT_SECONDS)
        return await self.client.in_session(lambda session: session.get_skill(uri, timeout))

    async def skill_entry(self, name: str) -> JsonObject:
        """The listed skill called ``name``, or the skill whose ``SKILL.md`` is at the URI ``name``
        (asked with ``skills/get`` when no listed skill has it).

        Parameters
        ----------
        name : str
            The skill's name (its frontmatter's ``name``) or its ``SKILL.md`` URI.

        Returns
        -------
        dict
            The skill's entry (wire keys).

        Raises
        ------
        UnknownResourceError
            The server lists no such skill (``suggestions`` holds close names).
        """
        entries = await self._listed("skills")
        for entry in entries:
            if name in (skill_name(entry), entry.get("uri")):
                return entry
        if name.startswith("skill://") and name.endswith("/SKILL.md") and offers_skills(self.client.capabilities):
            return await self.get_skill(name)  # addressed by URI: a server may serve skills it does not list
        names = [skill_name(entry) for entry in entries]
        close, hint = unknown_name_hint(name, names, None, f"%mcp skills {self.name} lists what it has.")
        raise UnknownResourceError(f"{self.name!r} lists no skill {name!r}.{hint}", close)

    @fill_docstring(ANSWER_TIMEOUT)
    async def skill(self, name: str, *, timeout_seconds: Timeout = limits.DEFAULT) -> ResourceRead:
        """Load one skill: read its ``SKILL.md`` and check it against the listing.

        Parameters
        ----------
        name : str
            The skill's name (``%mcp skills`` lists them) or its ``SKILL.md`` URI.
        {timeout}

        Returns
        -------
        ResourceRead
            The ``SKILL.md`` as read (``.text``), shown escaped like any read.

        Raises
        ------
        UnknownResourceError
            The server lists no such skill.
        InvalidValueError
            What the server sent is not the file it lists (size, digest or frontmatter): not used.
        """
        return await self.skill_file(name, "SKILL.md", timeout_seconds=timeout_seconds)

    @fill_docstring(ANSWER_TIMEOUT)
    async def skill_file(self, name: str, path: str, *, timeout_seconds: Timeout = limits.DEFAULT) -> ResourceRead:
        """Read one file of a skill (``references/STYLE.md``), checked against the listing.

        Parameters
        ----------
        name : str
            The skill's name or its ``SKILL.md`` URI.
        path : str
            The file's path within the skill, as its entry lists it.
        {timeout}

        Returns
        -------
        ResourceRead
            The file as read.

        Raises
        ------
        UnknownResourceError
            No such skill, or the skill lists no such file.
        InvalidValueError
            What the server sent is not the file it lists: not used.
        """
        entry = await self.skill_entry(name)
        record = skill_file(entry, path)
        if record is None:
            raise UnknownResourceError(f"Skill {skill_name(entry)!r} of {self.name!r} lists no file {path!r}.")
        read = await self._read(str(record.get("uri")), timeout_seconds)
        text = read.text or ""
        problem = file_problem(record, text)
        if problem is None and path == "SKILL.md":
            problem = frontmatter_problem(entry, text)
        if problem is not None:
            raise InvalidValueError(
                f"Skill {skill_name(entry)!r} of {self.name!r} was not loaded: {path}: {problem}. "
                "The server sent another file than it lists; nothing of it was used."
            )
        return read
