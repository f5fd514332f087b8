"""``%mcp skills`` (a DataFrame of each connection's skills) and ``%mcp skill NAME.SKILL [FILE]``
(one skill loaded, checked against its listing, shown as a read: escaped by the safety policy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from anvia_nb.errors import UnknownConnectionError
from anvia_nb.magic.output.connect_text import NOTHING_CONNECTED
from anvia_nb.magic.parse.skills import SkillCommand, SkillsCommand

if TYPE_CHECKING:
    import pandas as pd

    from anvia_nb.display import ReadView
    from anvia_nb.magic.commands.host import MagicHost

__all__ = ["run_skill", "run_skills"]


def run_skills(magics: MagicHost, command: SkillsCommand) -> pd.DataFrame:
    from anvia_nb.magic.output.skills_table import skills_frame

    runtime = magics.runtime
    if not command.names and not runtime.names():
        raise UnknownConnectionError(NOTHING_CONNECTED)
    chosen = command.names or tuple(runtime.names())
    servers = [runtime.server(name) for name in chosen]  # every name checked before anything is asked
    timeout = magics.timeout_seconds
    listings = [
        (server.name, server.secrets, runtime.run(server.skills(timeout_seconds=timeout))) for server in servers
    ]
    return skills_frame(listings, magics.show_policy())


def run_skill(magics: MagicHost, command: SkillCommand) -> ReadView:
    from anvia_nb.display import ReadView

    runtime = magics.runtime
    server = runtime.server(command.server)
    read = runtime.run(server.skill_file(command.skill, command.file, timeout_seconds=magics.timeout_seconds))
    return ReadView(read, magics.render_settings())
