"""Connecting for a dashboard: a connect that fails visibly and lets the page go on.

A notebook served to viewers (Voilà runs every cell and stops at the first that raises) must not
end at a server that would not start. :func:`soft_connect` is ``%mcp connect … --soft`` from
Python: it opens the connection through the kernel's runtime (so forms and the panel follow it)
and, when connecting fails, returns a :class:`ServerNotice` that shows what happened instead of
raising. With ``hide_server_errors`` the notice is in a viewer's words (see
:meth:`~anvia_nb.policy.ShowPolicy.viewer_line`); the author's details stay on ``notice.error``
(its message, ``.stderr`` and ``.log``) and in ``%mcp log NAME``::

    from anvia_nb.dashboard import soft_connect
    demo = soft_connect(mcp.stdio(name="demo", command="python", args=["-m", "anvia_nb.demo_server"]))
    demo          # "demo: stdio · anvia-demo 0.1.0 · …", or the notice
    demo.ok       # False when it failed: demo.error is the ConnectError
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from anvia_nb.core.protocol.limits import DEFAULT, Default
from anvia_nb.errors import ConnectError, InvalidValueError
from anvia_nb.policy import ShowPolicy

if TYPE_CHECKING:
    from anvia_nb.core import McpServer
    from anvia_nb.core.api.connections import McpConnection
    from anvia_nb.display import RenderSettings
    from anvia_nb.runtime import Runtime

__all__ = ["ServerNotice", "refuse_a_persons_sign_in", "soft_connect"]


@dataclass(frozen=True)
class ServerNotice:
    """What a page shows about a server instead of raising: the outcome of a soft connect (the
    server, or the error), or why a server is not available.

    Attributes
    ----------
    name : str
        The connection's name.
    text : str
        What the page shows, already through the policy (masked, bounded, or in a viewer's words).
    server : McpServer or None
        The open server; ``None`` when it failed.
    error : BaseException or None
        Everything for the author (the ``ConnectError``, its ``.stderr`` and ``.log``); ``None`` when open.
    """

    name: str
    text: str
    server: McpServer | None = None
    error: BaseException | None = None

    @property
    def ok(self) -> bool:
        """Whether the server is open (the notice is then a plain note, else a warning)."""
        return self.server is not None

    def _repr_mimebundle_(self, **_kwargs: Any) -> dict[str, str]:
        from anvia_nb.display.chrome import notice_html

        return {"text/plain": self.text, "text/html": notice_html(self.text, warn=not self.ok)}

    def __repr__(self) -> str:
        return f"<ServerNotice {self.name!r} {'open' if self.ok else 'not available'}>"


def failed_notice(name: str, error: ConnectError, policy: ShowPolicy, author_text: str = "") -> ServerNotice:
    """The notice of a failed connect: the viewer's line when the policy hides server errors,
    else ``author_text`` (by default the error's own line, masked and bounded)."""
    if policy.hides(error):
        return ServerNotice(name, policy.viewer_line(error, name), error=error)
    return ServerNotice(name, author_text or policy.error_line(error, policy.limits.text_chars), error=error)


def refuse_a_persons_sign_in(connection: McpConnection) -> None:
    """Refuse a connection that would sign a person in with OAuth on a page for viewers
    (``hide_server_errors``): its tokens are cached for the next connect, so every viewer would act
    as whoever signed in last, and the link would ask a viewer to authorize for the author's
    server. A grant with no person (a service account) is the dashboard's way; nothing is sent
    before this check.

    Parameters
    ----------
    connection : StdioConnection or HttpConnection
        The connection a page is about to open.

    Raises
    ------
    InvalidValueError
        Its ``auth`` signs a person in (``mcp.oauth(...)``).
    """
    if getattr(getattr(connection, "auth", None), "signs_in_a_person", False):
        raise InvalidValueError(
            f"{connection.name!r} signs a person in with OAuth, and this page is for viewers (hide_server_errors): "
            "every viewer would act as whoever signed in. Use a grant with no person, "
            "mcp.client_credentials(client_id=..., client_secret_env=NAME) or %mcp connect NAME "
            "--oauth-client-credentials --client-id ID --secret-env NAME --http URL (docs/oauth.md)."
        )


def soft_connect(
    connection: McpConnection,
    *,
    runtime: Runtime | None = None,
    settings: RenderSettings | None = None,
    timeout_seconds: float | Default | None = DEFAULT,
    log_level: str | None = None,
) -> ServerNotice:
    """Open ``connection`` in the kernel's runtime; never raise for a failed connect.

    Parameters
    ----------
    connection : StdioConnection or HttpConnection
        What ``mcp.stdio(...)`` or ``mcp.http(...)`` made.
    runtime : Runtime, optional
        The runtime to open it in; ``None``: the kernel's, so forms and the panel follow it.
    settings : RenderSettings, optional
        How the notice shows; with ``hide_server_errors`` it is in a viewer's words, as it is whenever
        the kernel's switch is on (``%config McpMagics.hide_server_errors = True``). ``None``: the
        kernel's ``%mcp`` settings, else the defaults.
    timeout_seconds : float or None, optional
        As for ``connect_mcp`` (by default the connection's own, else 30 s); ``None``: no limit.
    log_level : str, optional
        Ask the server for its log messages from that level up (``None``: do not ask).

    Returns
    -------
    ServerNotice
        Display it: it says the connection is open, or what went wrong (``.ok``, ``.error``).

    Raises
    ------
    InvalidValueError
        With ``hide_server_errors``, a connection that signs a person in (see
        ``refuse_a_persons_sign_in``). Errors that are not about connecting still raise.

    Examples
    --------
    >>> demo = soft_connect(mcp.stdio(name="demo", command="python", args=["-m", "anvia_nb.demo_server"]))
    >>> demo.ok
    """
    from anvia_nb.runtime import get_runtime
    from anvia_nb.widgets.viewer_page import page_settings

    rt = runtime or get_runtime()
    settings = page_settings(settings)  # the kernel's viewer switch, however it was called
    if settings.hide_server_errors:
        refuse_a_persons_sign_in(connection)
    policy = settings.policy(connection.secrets())
    try:
        server = rt.connect(connection, timeout_seconds=timeout_seconds, log_level=log_level).server
    except ConnectError as error:
        return failed_notice(connection.name, error, policy)
    count = len(server.tools)
    line = f"{connection.name}: {connection.transport} · {count} tool{'s' if count != 1 else ''}"
    return ServerNotice(connection.name, policy.line(line), server=server)
