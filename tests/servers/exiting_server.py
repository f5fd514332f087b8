"""A stdio "server" that exits before any handshake, as one without its configuration does: it
writes ``starting up`` and ``fatal: missing API key (token was $DEMO_TOKEN)`` to stderr and exits
with status 1. It imports nothing but the standard library, so starting it costs little."""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    sys.stderr.write("starting up\n")
    sys.stderr.write(f"fatal: missing API key (token was {os.environ.get('DEMO_TOKEN', '')})\n")
    sys.stderr.flush()
    sys.exit(1)
