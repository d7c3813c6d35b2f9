"""A progress bar for long work: tqdm on a terminal, nothing otherwise.

The bar goes to stderr, and only when stderr is a terminal and the user did
not ask for quiet; lines written through :meth:`Progress.write` appear above
the bar (or plainly, without one), so piped output stays clean.

The first run of a fresh install compiles the numba kernels: a first step
that takes a minute, from which tqdm would estimate the whole run.  While
numba compiles (its ``numba:compile`` event: a real compilation, not a load
from the cache), and until the learner's next step, the bar says
``compiling (first run only)``; the time it took is left out of the rate and
the estimate.
"""

from __future__ import annotations

import sys
import threading
import time

from numba.core import event
from numba.core.event import Listener

COMPILING = "compiling (first run only)"


class Progress:
    """A tqdm bar on a terminal (stderr); nothing when stderr is not one, or when quiet."""

    def __init__(self, total: int | None, quiet: bool, desc: str, unit: str = "fold") -> None:
        self.bar = None
        self.desc = desc
        self._compile = None
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=total, desc=desc, unit=unit, leave=False, file=sys.stderr)
            self._compile = _CompileLabel(self)

    def at(self, done: int, total: int, note: str = "") -> None:
        """A learner's ``progress(done, total, note)`` callback: move the bar there."""
        if self.bar is not None:
            self._settle()
            self.bar.total = total
            self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(done - self.bar.n)

    def advance(self, n: int) -> None:
        """``n`` more units done (a total that is not known beforehand)."""
        if self.bar is not None:
            self._settle()
            self.bar.update(n)

    def step(self, note: str) -> None:
        if self.bar is not None:
            self._settle()
            self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(1)

    def write(self, line: str, err: bool = False) -> None:
        out = sys.stderr if err else sys.stdout
        if self.bar is not None:
            self.bar.clear()
        print(line, file=out, flush=True)
        if self.bar is not None:
            self.bar.refresh()

    def _settle(self) -> None:
        """A step is done: drop the compile label unless numba is still compiling."""
        if self._compile is not None and self._compile.depth == 0 \
                and self.bar.desc != self.desc:
            self.bar.set_description_str(self.desc, refresh=False)

    def close(self) -> None:
        if self._compile is not None:
            self._compile.close()
            self._compile = None
        if self.bar is not None:
            self.bar.close()


class _CompileLabel(Listener):
    """Listens to numba's compile events (from any thread: LIBRE's weak learners run in
    threads) and labels the bar while one is under way."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.depth = 0                  # compilations nest: a kernel compiles what it calls
        self.started = 0.0
        self.lock = threading.Lock()
        event.register("numba:compile", self)

    def on_start(self, _event) -> None:
        with self.lock:
            self.depth += 1
            if self.depth == 1:
                self.started = time.time()
                self.progress.bar.set_description_str(f"{self.progress.desc} {COMPILING}",
                                                      refresh=True)

    def on_end(self, _event) -> None:
        with self.lock:
            self.depth -= 1
            if self.depth == 0:
                bar = self.progress.bar
                bar.start_t += time.time() - self.started    # the rate leaves the compile out
                bar.last_print_t = time.time()

    def close(self) -> None:
        event.unregister("numba:compile", self)
