"""What the tests share, in one place: imported as ``tests.helpers.<module>`` (pyproject puts the
repository on pytest's path). Files the tests start as processes by path, and import nothing from,
are in ``tests/servers/``; a file here may also be started by path (``lite_server.py``,
``hostile_server.py``, ``server_forks.py``, ...) when a test needs its names too.

The benchmarks reuse some of it (the fork server, the hostile servers, the kernel driver); the
tests import nothing from ``benchmarks``. This package's ``__init__`` imports nothing: the
benchmarks' peers import ``server_forks`` in venvs without anvia_nb.
"""
