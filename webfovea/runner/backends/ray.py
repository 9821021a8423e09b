"""`--backend ray`: workers on the nodes of a Ray cluster, with no shared filesystem.

Each worker slot gets a small Ray actor (a *node agent*, one CPU) that starts the same
worker process the local backend starts, on its own node, and waits for it. The worker
reaches the driver over the channel (the driver serves it on its node's IP), writes its
task folders under a temp dir of its node (or `RunOptions.work_dir`) and uploads each one
when it ends. When the worker process dies, the agent packs what it left in its work dir
and returns it with the exit code, so a lost task keeps its partial evidence (steps,
passive capture) unless the whole node is gone.

Restarts are the supervisor's: a new agent per start (the old one is killed after its
result is read, freeing its CPU). Ray is an optional extra: `pip install 'webfovea[ray]'`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from webfovea.runner.backends import Exit
from webfovea.runner.backends.local import kill_group, spawn_worker
from webfovea.runner.errors import RunError
from webfovea.runner.transfer import pack_leftovers
from webfovea.runner.worker import EXIT_INTERRUPTED, WorkerSpec

INSTALL_HINT = "the Ray backend needs Ray: pip install 'webfovea[ray]' (or use --backend local)"


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RunError(INSTALL_HINT) from None
    return ray


class NodeAgent:
    """Body of the Ray actor (wrapped by ray.remote at run time, so importing needs no Ray).

    Threaded (max_concurrency=2): `stop` must run while `run` waits on the process.
    """

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.stopped = False
        self.lock = threading.Lock()

    def run(self, spec: WorkerSpec) -> tuple[int, bytes | None, str]:
        """Start the worker, wait for it; return (exit code, leftovers tar.gz, Ray node id)."""
        import ray

        node = ray.get_runtime_context().get_node_id()
        tmp = None
        with self.lock:
            if self.stopped:
                return EXIT_INTERRUPTED, None, node
            if not spec.work_dir:
                tmp = tempfile.mkdtemp(prefix="webfovea-worker-")
                spec = replace(spec, work_dir=os.path.join(tmp, spec.worker_id))
            self.proc = spawn_worker(spec)
        try:
            code = self.proc.wait()
            kill_group(self.proc.pid)  # a browser the worker left behind
            return code, pack_leftovers(Path(spec.work_dir)), node
        finally:
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)

    def stop(self, kill: bool) -> None:
        with self.lock:
            self.stopped = True
            proc = self.proc
        if proc is None:
            return
        if kill:
            kill_group(proc.pid)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
        elif proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGINT)


@dataclass
class RayHandle:
    actor: Any
    ref: Any
    exit: Exit | None = None


class RayBackend:
    name = "ray"
    shares_filesystem = False

    def __init__(self, address: str | None = None, cpus_per_worker: float = 1.0) -> None:
        self.ray = ray = import_ray()
        self.started_here = not ray.is_initialized()
        if self.started_here:
            try:
                ray.init(
                    address=address, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False
                )
            except Exception as e:
                raise RunError(f"cannot start or reach Ray (address {address or 'local'}): {e}") from None
        # Workers on other nodes must reach the driver: serve on this node's cluster address.
        self.channel_host = ray.util.get_node_ip_address()
        self.actor_cls = ray.remote(
            num_cpus=cpus_per_worker, max_restarts=0, max_task_retries=0, max_concurrency=2
        )(NodeAgent)
        self.handles: list[RayHandle] = []

    def start(self, spec: WorkerSpec) -> RayHandle:
        actor = self.actor_cls.remote()
        h = RayHandle(actor, actor.run.remote(spec))
        self.handles.append(h)
        return h

    def exit_status(self, handle: RayHandle) -> Exit | None:
        if handle.exit is not None:
            return handle.exit
        ready, _ = self.ray.wait([handle.ref], timeout=0)
        if not ready:
            return None
        try:
            code, leftovers, node = self.ray.get(handle.ref)
            handle.exit = Exit(code, f"exited with code {code}", leftovers, where=node)
        except Exception as e:  # the actor (or its node) died: nothing of its work dir comes back
            handle.exit = Exit(None, f"died ({type(e).__name__})")
        with contextlib.suppress(Exception):
            self.ray.kill(handle.actor, no_restart=True)  # frees its CPU for the restart
        return handle.exit

    def stop(self, handle: RayHandle, *, kill: bool) -> None:
        if handle.exit is not None:
            return
        if not kill:
            handle.actor.stop.remote(False)
            return
        try:
            self.ray.get(handle.actor.stop.remote(True), timeout=15)
            self.ray.wait([handle.ref], timeout=10)  # the agent packs the leftovers
        except Exception:
            with contextlib.suppress(Exception):
                self.ray.kill(handle.actor, no_restart=True)

    def close(self) -> None:
        handles, self.handles = self.handles, []  # idempotent
        for h in handles:
            if h.exit is None:
                with contextlib.suppress(Exception):
                    self.ray.get(h.actor.stop.remote(True), timeout=10)
            with contextlib.suppress(Exception):
                self.ray.kill(h.actor, no_restart=True)
        if self.started_here and self.ray.is_initialized():
            self.ray.shutdown()
