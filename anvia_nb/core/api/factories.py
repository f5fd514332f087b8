"""The ``mcp`` object that makes connections: ``mcp.stdio(...)``, ``mcp.http(...)``,
``mcp.replay(...)``, ``mcp.memory(...)``, and the OAuth settings an HTTP connection takes
(``mcp.oauth(...)`` and the grants with no person). Every argument is checked when the connection
is made, so a bad one is a one-line error before anything starts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlsplit

from anvia_nb._docs import fill_docstring, refuse_unknown, shared_keywords
from anvia_nb.core.api.connections import HttpConnection, StdioConnection
from anvia_nb.core.api.memory import MemoryConnection
from anvia_nb.core.protocol.roots import root_paths
from anvia_nb.core.protocol.versions import HANDSHAKE, MODERN, check_protocol
from anvia_nb.core.recording.replay import ReplayConnection
from anvia_nb.core.transport.http.launch import HttpAuth
from anvia_nb.core.transport.oauth.machine import client_credentials, identity_assertion, workload_identity
from anvia_nb.core.transport.oauth.settings import OAuth, forget_tokens, oauth
from anvia_nb.errors import InvalidTypeError, InvalidValueError

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing's own from Python 3.11; 3.10 is supported

__all__ = ["ConnectionSettings", "mcp"]

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


_MAX_CALLS = """max_calls_in_flight : int, optional
    The most calls sent at once, at least 1; ``None``: the default, 16."""

_CONNECTION = {
    "name": """
name : str
    The connection's name (letters, digits, ``_``, ``-``), as ``%mcp`` shows it.
""",
    "settings": f"""
roots : iterable of str or path, optional
    Directories offered to the server (``roots/list``); each must exist. ``None``: none.
record : str or path, optional
    Write what the connection exchanges to this JSON Lines file, secrets masked, which
    ``mcp.replay`` answers from. ``None``: no recording.
{_MAX_CALLS}
protocol : str, optional
    ``None``: ``server/discover``, then the ``initialize`` handshake if refused;
    ``"{HANDSHAKE}"``: the handshake only (the server may answer an older version);
    ``"{MODERN}"``: discover only (``anvia_nb.core.protocol.versions.PROTOCOLS``).
from_environ : mapping of str to str, optional
    The kernel's variables (name: value) the settings took values from: treated as secrets.
""",
    "max_calls_in_flight": _MAX_CALLS,
    "invalid": """
InvalidValueError
    ``name`` is not letters, digits, ``_`` or ``-`` starting with a letter, or
    ``max_calls_in_flight`` or ``protocol`` is not one of its values, or a root does not exist.
""",
}
"""The parameters the connection factories share, described once (see ``anvia_nb._docs``)."""


def _check_name(name: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise InvalidValueError(
            f"Connection name {name!r} is not usable: use letters, digits, '_' or '-', starting with a letter."
        )
    return name


def _in_flight(value: int | None) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidValueError(f"max_calls_in_flight must be a whole number of at least 1 (or None), not {value!r}.")
    return value


class ConnectionSettings(TypedDict, total=False):
    """The settings ``mcp.stdio`` and ``mcp.http`` share, taken as ``**settings`` (what each does is
    ``_CONNECTION["settings"]``, filled into both docstrings); each defaults to ``None``."""

    roots: Iterable[str | os.PathLike[str]] | None
    record: str | os.PathLike[str] | None
    max_calls_in_flight: int | None
    protocol: str | None
    from_environ: Mapping[str, str] | None


_SETTINGS_DEFAULTS = dict.fromkeys(ConnectionSettings.__annotations__)


class _Plain(TypedDict):
    """The shared settings checked and made plain, as :class:`ServerConnection` holds them."""

    roots: tuple[str, ...]
    record: str | None
    max_calls_in_flight: int | None
    protocol: str | None
    from_environ: dict[str, str]


def _settings(factory: str, given: ConnectionSettings) -> _Plain:
    """The shared settings ``factory`` was given, checked (a mistyped keyword is a TypeError) and
    made plain: the one place they are read, for every kind of connection that takes them."""
    refuse_unknown(factory, given, ConnectionSettings)
    record = given.get("record")
    return _Plain(
        protocol=check_protocol(given.get("protocol")),
        roots=root_paths(given.get("roots")),
        record=os.fspath(record) if record is not None else None,
        max_calls_in_flight=_in_flight(given.get("max_calls_in_flight")),
        from_environ=dict(given.get("from_environ") or {}),
    )


class _Factories:
    """The ``mcp`` object: ``mcp.stdio(...)``, ``mcp.http(...)``, ``mcp.replay(...)``,
    ``mcp.memory(...)`` make connections for ``connect_mcp``; ``mcp.oauth(...)``,
    ``mcp.client_credentials(...)``, ``mcp.workload_identity(...)`` and
    ``mcp.identity_assertion(...)`` make the ``auth=`` of ``mcp.http``. Nothing connects until
    ``connect_mcp``; every argument is checked here.
    """

    @staticmethod
    @fill_docstring(_CONNECTION)
    @shared_keywords(ConnectionSettings, _SETTINGS_DEFAULTS)
    def stdio(
        *,
        name: str,
        command: str,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        secret_env: Iterable[str] = (),
        keep_log: bool = False,
        **settings: Unpack[ConnectionSettings],
    ) -> StdioConnection:
        """A lazy stdio connection: the server is a process this kernel starts (nothing runs yet).

        ``env`` is added to a minimal inherited environment (PATH, HOME...), as the SDK does, so
        the kernel's own secrets do not leak into servers. Values of names containing TOKEN, KEY,
        SECRET, PASS, AUTH or CREDENTIAL, or listed in ``secret_env``, are masked wherever shown.

        Parameters
        ----------
        {name}
        command : str
            The program to run; ``"python"`` runs this kernel's own Python.
        args : sequence of str, optional
            Its arguments, a list (one string is refused: split it with ``shlex.split``).
        env : mapping of str to str, optional
            Variables added to the minimal environment.
        cwd : str or path, optional
            Its working directory; ``None``: the kernel's.
        secret_env : iterable of str, optional
            Names in ``env`` whose values are masked besides those the rule above finds.
        keep_log : bool, optional
            Keep the file its stderr goes to when the connection closes (default ``False``: removed
            at close and at exit); its path is ``server.client.log.stderr_path``.
        {settings}

        Returns
        -------
        StdioConnection
            Give it to ``connect_mcp`` (or ``%mcp connect``).

        Raises
        ------
        {invalid}
        InvalidTypeError
            ``args`` is one string, or ``roots`` one path, not a list.

        Examples
        --------
        >>> server = await connect_mcp(mcp.stdio(name="demo", command="python", args=["-m", "anvia_nb.demo_server"]))
        """
        shared = _settings("mcp.stdio", settings)
        if isinstance(args, str):
            raise InvalidTypeError("args must be a list of strings, not one string; split it with shlex.split().")
        return StdioConnection(
            name=_check_name(name),
            command=command,
            args=tuple(str(a) for a in args),
            env=dict(env or {}),
            cwd=os.fspath(cwd) if cwd is not None else None,
            secret_env=frozenset(secret_env),
            keep_log=bool(keep_log),
            **shared,
        )

    @staticmethod
    @fill_docstring(_CONNECTION)
    @shared_keywords(ConnectionSettings, _SETTINGS_DEFAULTS)
    def http(
        *,
        name: str,
        url: str,
        headers: Mapping[str, str] | None = None,
        timeout_seconds: float | None = 30.0,
        auth: OAuth | HttpAuth | None = None,
        **settings: Unpack[ConnectionSettings],
    ) -> HttpConnection:
        """A lazy streamable-HTTP connection; credential headers and URL secrets are masked wherever shown.

        Parameters
        ----------
        {name}
        url : str
            The server's MCP endpoint, ``http://`` or ``https://``.
        headers : mapping of str to str, optional
            Sent with every request (``Authorization`` and other credentials are masked when shown).
        timeout_seconds : float or None, optional
            Seconds connecting and each send may take (default 30.0); ``None``: no limit. How long an
            answer may take is each call's own ``timeout_seconds``.
        auth : OAuth or httpx2.Auth, optional
            ``mcp.oauth(...)`` or one of the grants with no person (``mcp.client_credentials``,
            ``mcp.workload_identity``, ``mcp.identity_assertion``), or an ``httpx2.Auth``; ``None``: none.
        {settings}

        Returns
        -------
        HttpConnection
            Give it to ``connect_mcp`` (or ``%mcp connect``).

        Raises
        ------
        {invalid}
            Or ``url`` does not start with ``http://`` or ``https://``.
        InvalidTypeError
            ``roots`` is one path, not a list.

        Examples
        --------
        >>> server = await connect_mcp(mcp.http(name="docs", url="https://example.com/mcp", auth=mcp.oauth()))
        """
        shared = _settings("mcp.http", settings)
        scheme = urlsplit(str(url)).scheme
        if scheme not in ("http", "https"):
            raise InvalidValueError(f"url must start with http:// or https://, got {str(url)[:80]!r}.")
        return HttpConnection(
            name=_check_name(name),
            url=str(url),
            headers=dict(headers or {}),
            timeout_seconds=timeout_seconds,
            auth=auth,
            **shared,
        )

    oauth = staticmethod(oauth)
    client_credentials = staticmethod(client_credentials)
    identity_assertion = staticmethod(identity_assertion)
    workload_identity = staticmethod(workload_identity)

    @staticmethod
    def oauth_logout(connection: HttpConnection) -> bool:
        """Forget the OAuth tokens cached for this connection's server and client.

        Parameters
        ----------
        connection : HttpConnection
            The connection whose tokens to forget (its ``auth``'s ``client_id`` and ``token_dir``).

        Returns
        -------
        bool
            Whether there were any.
        """
        settings = connection.auth if isinstance(connection.auth, OAuth) else OAuth()
        return forget_tokens(connection.url, settings.client_id, token_dir=settings.token_dir)

    @staticmethod
    @fill_docstring(_CONNECTION)
    def replay(*, name: str, path: str | os.PathLike[str]) -> ReplayConnection:
        """A connection answered from a recording made with ``record=``: no server is started, no
        socket opened.

        Parameters
        ----------
        {name}
        path : str or path
            The JSON Lines file ``record=`` wrote.

        Returns
        -------
        ReplayConnection
            Give it to ``connect_mcp``. A call the recording does not hold raises
            ``UnrecordedCallError`` then; a missing or unreadable file ``RecordingFileError``.

        Raises
        ------
        InvalidValueError
            ``name`` is not usable.
        """
        return ReplayConnection(name=_check_name(name), path=os.fspath(path))

    @staticmethod
    @fill_docstring(_CONNECTION)
    def memory(
        *,
        name: str,
        server: Any,  # any: the SDK's server object, passed on untouched
        max_calls_in_flight: int | None = None,
        protocol: str | None = None,
    ) -> MemoryConnection:
        """A connection to an SDK server object in this process (fast tests, teaching): no process, no socket.

        Parameters
        ----------
        {name}
        server : object
            The server object (``mcp.server.fastmcp.FastMCP`` or a low-level ``Server``).
        {max_calls_in_flight}
        protocol : str, optional
            As for ``stdio`` (show a class both generations of the handshake without a process).

        Returns
        -------
        MemoryConnection
            Give it to ``connect_mcp``.

        Raises
        ------
        InvalidValueError
            ``name``, ``max_calls_in_flight`` or ``protocol`` is not usable.
        """
        protocol = check_protocol(protocol)
        return MemoryConnection(
            name=_check_name(name),
            server=server,
            max_calls_in_flight=_in_flight(max_calls_in_flight),
            protocol=protocol,
        )


mcp = _Factories()
