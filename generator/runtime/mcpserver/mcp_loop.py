# burgee: joins tail 310
# burgee: section mcp
"""The MCP stdio server's reading: the main thread reads stdin and runs each tools/call
itself, as a plain loop would (no thread hand-off on the way, which is what makes lock-step
calls fast); a watchdog thread notices a call that runs longer than `_MCP_PATIENCE` and takes
over reading, so cancellations still arrive and further calls run at once, on worker threads.
The next line it reads after the long call ends goes back to the main thread, which reads
again. `mcp._McpServer` is the protocol on top: it answers each line (`dispatch`).

`_McpLoop`, how the stdio server reads: the main thread reads stdin and runs each call itself;
the watchdog takes over reading while a call runs longer than `_MCP_PATIENCE` (and parks when
the server is idle); the worker threads that run calls while the main thread is busy; `release`,
the watchdog and the idle workers ended once every call is answered after the end of input (an
`invoke()` caller lives on); `threading` imported on the main thread before the first thread
starts (Python 3.12 waits at exit for the thread that first imported it), and SIGTERM after the
end of input an immediate exit 143 (`ended`).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

from burgee.runtime.core.errors import _exit_code
from burgee.runtime.mcpserver.mcp_io import _read_line

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import BinaryIO

    from burgee.runtime.program import Program

#: Seconds a call may hold the main thread before the watchdog takes over reading stdin.
#: NOTE: not 5 ms, Python's GIL switch interval: a watchdog waking that often kept taking the
#: GIL from a busy main thread, and pipelined calls fell to a ninth (2,057/s against 18,197/s).
_MCP_PATIENCE = 0.02


class _McpLoop:
    """stdin read by the main thread, or by the watchdog while a call holds the main thread;
    the worker threads that run calls when the main thread is busy."""

    def __init__(self, program: Program) -> None:
        import _thread

        #: The program the server serves: what its calls and answers read of it.
        self.program = program
        #: Serializes writes to stdout and the state shared with the watchdog and the workers.
        self.lock = _thread.allocate_lock()
        #: The calls in flight by id (`mcp._Request`s): the server's; the loop waits for them.
        self.inflight: dict[str, Any] = {}
        self.idle: list[Any] = []
        self.thread = _thread.get_ident
        self.main = self.thread()
        #: Counts the calls the main thread has started; `running` is the current one, or 0.
        self.started = self.running = 0
        #: The watchdog is reading stdin; `handed` is the line it passes back to the main thread.
        self.relaying = self.waiting = self.parked = False
        self.handed: bytes | None = None
        self.wake = _thread.allocate_lock()
        self.wake.acquire()
        self.unpark = _thread.allocate_lock()
        self.unpark.acquire()
        self.watching = False
        #: Every call is answered after the end of input: the server's threads end (`release`).
        self.over = False
        #: Reads the next line of requests (`serve`).
        self.readline: Callable[[], bytes] = bytes

    def dispatch(self, line: bytes) -> None:
        """Answer one line of input (the protocol's: `mcp._McpServer`)."""
        raise NotImplementedError

    def closed(self) -> None:
        """The input has ended: nothing more will come (the protocol's: `mcp._McpServer`)."""

    def begin(self) -> None:
        """A call starts on the main thread (the caller holds `self.lock`): the watchdog, if
        parked, watches again."""
        self.started += 1
        self.running = self.started
        if self.parked:
            self.parked = False
            self.unpark.release()

    def watchdog(self) -> None:
        """Start the watchdog, the first time a call runs on the main thread."""
        if not self.watching:
            import _thread

            # NOTE: imported here, on the main thread, before any thread of the server starts:
            # the first import of `threading` takes its thread for the main one, and Python 3.12
            # then waits at exit for that thread (the watchdog or a worker, which never end).
            # A cancellation read by the watchdog imports it there (`Context.cancelled`).
            import threading  # noqa: F401

            self.watching = True
            try:
                _thread.start_new_thread(self.watch, ())
            except RuntimeError as error:
                sys.stderr.write(
                    f"{self.program.name}: mcp: no watchdog ({error}): a long call delays what"
                    " follows\n"
                )

    def serve(self, requests: BinaryIO) -> int:
        """Answer each line of `requests` (the stdio stream, kept apart from the handlers'
        standard input by `output._stdin_apart`) until it ends."""
        readline = self.readline = requests.readline
        while True:
            # NOTE: without the lock: `relaying` only turns true while the main thread runs a
            # call, and the watchdog sets `handed` before it clears `relaying`.
            line = (
                _read_line(readline, self.program.name)
                if not self.relaying and self.handed is None
                else self.take()
            )
            if not line:
                self.closed()
                break
            self.dispatch(line)
        while self.inflight:
            import time

            time.sleep(0.002)
        self.release()
        self.ended()
        return 0

    def release(self) -> None:
        """End the watchdog and the idle workers: a process would exit now, but `invoke()`'s
        caller lives on, and would keep them parked for good."""
        with self.lock:
            self.over = True
            if self.parked:
                self.parked = False
                self.unpark.release()
            idle, self.idle = self.idle, []
        for worker in idle:
            worker[1].release()  # NOTE: with no job: the worker ends

    def ended(self) -> None:
        """The input has ended and every call is answered; Python may still wait at exit (for a
        thread a handler left): SIGTERM now ends the process at once, with its exit code, as
        raising inside the interpreter's shutdown would only print a traceback and exit 0."""
        import _signal  # type: ignore[import-not-found, unused-ignore]

        code = _exit_code("terminated", self.program)

        def end(number: int, frame: object) -> None:
            sys.stderr.flush()
            os._exit(code)

        try:
            _signal.signal(_signal.SIGTERM, end)
        except (ValueError, OSError):
            pass  # not the main thread (an embedding program): leave its signals alone

    def take(self) -> bytes:
        """The next line, from the watchdog: it is reading stdin, or has just stopped."""
        with self.lock:
            wait = self.waiting = self.handed is None
        # NOTE: in slices, so Ctrl-C is seen where a lock wait cannot be interrupted (Windows).
        while wait and not self.wake.acquire(timeout=0.25):
            pass
        line, self.handed = self.handed, None
        return line or b""

    def watch(self) -> None:
        """The watchdog: take over reading stdin while a call on the main thread runs long."""
        import time

        quiet = 0
        while not self.over:
            running, started = self.running, self.started
            time.sleep(_MCP_PATIENCE)
            with self.lock:
                # NOTE: not after the end of input was handed back: nothing is left to read.
                relay = running != 0 and self.running == running and self.handed is None
                quiet = quiet + 1 if self.started == started else 0
                # NOTE: parked after a quiet second, so an idle server does not wake up 200
                # times a second; the next call unparks it.
                park = self.parked = (
                    self.running == 0 and quiet * _MCP_PATIENCE > 1 and not self.over
                )
                self.relaying = relay
            if relay:
                self.relay()
            elif park:
                self.unpark.acquire()
                quiet = 0

    def relay(self) -> None:
        """Read stdin while the main thread is busy; hand the first line it can take back to it."""
        readline = self.readline
        while True:
            line = _read_line(readline, self.program.name)
            if not line:
                self.closed()
            with self.lock:
                back = self.waiting or not line
                if back:
                    self.handed = line
                    self.relaying = False
                    if self.waiting:
                        self.waiting = False
                        self.wake.release()
            if back:
                return
            self.dispatch(line)

    def submit(self, job: Callable[[], None]) -> None:
        """Run `job` on an idle worker thread, or on a new one."""
        import _thread

        try:
            worker = self.idle.pop()
        except IndexError:
            worker = [job, _thread.allocate_lock()]
            worker[1].acquire()
            _thread.start_new_thread(self.work, (worker,))
            return
        worker[0] = job
        worker[1].release()

    def work(self, worker: list[Any]) -> None:
        job = worker[0]
        while job is not None:
            worker[0] = None
            try:
                job()
            except BaseException as error:  # noqa: BLE001 (a worker outlives any call)
                sys.stderr.write(f"{self.program.name}: mcp: internal error: {error!r}\n")
            with self.lock:
                if self.over:
                    return
                self.idle.append(worker)
            worker[1].acquire()
            job = worker[0]
