"""A "server" that fails to start as a misconfigured one does, for the Voilà test.

Before exiting it writes to stderr what must never reach a viewer's page: a machine path, a
secret and a Python traceback. It never answers the MCP handshake. The test imports the
constants to look for them on the page.
"""

from __future__ import annotations

import sys
import traceback

MACHINE_PATH = "/srv/internal/deploy/weather-config.yaml"
SECRET = "sk-live-7d1e9c0b4a8f2e6d5c3b"
TRACEBACK_WORDS = ("Traceback (most recent call last)", "RuntimeError", "failing_server.py")


def main() -> None:
    sys.stderr.write(f"weather: reading {MACHINE_PATH}\n")
    sys.stderr.write(f"weather: upstream key {SECRET} rejected\n")
    try:
        raise RuntimeError(f"cannot open {MACHINE_PATH}")
    except RuntimeError:
        traceback.print_exc()
    sys.stderr.flush()
    sys.exit(1)


if __name__ == "__main__":
    main()
