"""What the supervision loop needs from whatever runs the workers, and nothing more.

A backend starts a worker process somewhere, tells whether it has ended (and how), and
stops it. Queue, recovery, restarts, timeouts and Ctrl-C live in runner/supervisor.py,
once for all backends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from webfovea.runner.worker import WorkerSpec


@dataclass
class Exit:
    """How a worker ended."""

    code: int | None  # the process's exit code; None when its host went away with it
    reason: str  # for the record: "exited with code -9", "died (ActorDiedError)"
    # tar.gz of the task folders the worker left in its work dir (only when that dir is not
    # the output folder): packed on the worker's node, so its evidence survives the worker.
    leftovers: bytes | None = None
    where: str | None = None  # the node it ran on, when the backend knows


class Backend(Protocol):
    name: str
    shares_filesystem: bool  # workers write straight into the output folder
    channel_host: str  # the address workers can reach the driver's channel on

    def start(self, spec: WorkerSpec) -> Any:
        """Start one worker process; returns a handle for the two calls below."""
        ...

    def exit_status(self, handle: Any) -> Exit | None:
        """None while the worker runs. Cheap: called every poll."""
        ...

    def stop(self, handle: Any, *, kill: bool) -> None:
        """kill=False: ask it to stop in order (it records `interrupted`); True: now, with its browser."""
        ...

    def close(self) -> None:
        """Nothing of the run may be left running afterwards."""
        ...
