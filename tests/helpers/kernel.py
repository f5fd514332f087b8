"""A real ipykernel driven over ZMQ as a notebook drives it, for the attacks that need one.

The kernel runs this checkout's code (the repository root is put first on its ``PYTHONPATH``),
so ``tests.helpers.attack_servers`` is importable in its cells. :meth:`Kernel.run` returns what a
notebook would show of one cell: its stdout, its stderr and its text outputs, each as sent.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_SECONDS = 120.0


@dataclass
class Cell:
    """What one cell showed."""

    stdout: str = ""
    stderr: str = ""
    outputs: list[dict[str, Any]] = field(default_factory=list)
    """The data of each display_data / execute_result message, in order."""
    error: str = ""

    @property
    def shown_chars(self) -> int:
        """Characters a notebook received for this cell: streams, and every output's text forms."""
        texts = [self.stdout, self.stderr, self.error]
        texts += [str(value) for data in self.outputs for value in data.values()]
        return sum(len(text) for text in texts)


class Kernel:
    """A python3 kernel of this interpreter; stop it with :meth:`stop`."""

    def __init__(self, environment: dict[str, str] | None = None) -> None:
        """Start the kernel; ``environment`` adds to (or replaces) variables of this process's."""
        from jupyter_client.manager import KernelManager

        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
        env.update(environment or {})
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(env=env, cwd=str(REPO))
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=TIMEOUT_SECONDS)

    @property
    def pid(self) -> int:
        provisioner = self.manager.provisioner
        assert provisioner is not None
        return int(provisioner.process.pid)  # type: ignore[attr-defined]

    def peak_kb(self) -> int:
        """The kernel process's peak resident memory so far (VmHWM), in KiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return 0

    def run(self, code: str, timeout_seconds: float = TIMEOUT_SECONDS) -> Cell:
        """Run one cell and collect what it showed until the kernel is idle again."""
        msg_id = self.client.execute(code)
        cell = Cell()
        while True:
            try:
                msg = self.client.get_iopub_msg(timeout=timeout_seconds)
            except Empty:
                raise TimeoutError(f"no answer from the kernel within {timeout_seconds:g} s") from None
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                if content["name"] == "stderr":
                    cell.stderr += content["text"]
                else:
                    cell.stdout += content["text"]
            elif kind in ("execute_result", "display_data"):
                cell.outputs.append(dict(content["data"]))
            elif kind == "error":
                cell.error = f"{content['ename']}: {content['evalue']}"
            elif kind == "status" and content["execution_state"] == "idle":
                return cell

    def value(self, expression: str) -> str:
        """The printed value of ``expression`` in the kernel (raises on a cell error)."""
        cell = self.run(f"print({expression})")
        if cell.error:
            raise RuntimeError(cell.error)
        return cell.stdout.strip()

    def complete(self, code: str, cursor_pos: int | None = None) -> dict[str, Any]:
        """The kernel's ``complete_reply`` content for ``code`` with the cursor at ``cursor_pos`` (its end)."""
        position = len(code) if cursor_pos is None else cursor_pos
        reply = self.client.complete(code, position, reply=True, timeout=TIMEOUT_SECONDS)
        return dict(reply["content"])

    def stop(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=False)
