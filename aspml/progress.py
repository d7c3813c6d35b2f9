"""A progress bar for long work: tqdm on a terminal, nothing otherwise.

The bar goes to stderr, and only when stderr is a terminal and the user did
not ask for quiet; lines written through :meth:`Progress.write` appear above
the bar (or plainly, without one), so piped output stays clean.
"""

from __future__ import annotations

import sys


class Progress:
    """A tqdm bar on a terminal (stderr); nothing when stderr is not one, or when quiet."""

    def __init__(self, total: int, quiet: bool, desc: str, unit: str = "fold") -> None:
        self.bar = None
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=total, desc=desc, unit=unit, leave=False, file=sys.stderr)

    def at(self, done: int, total: int, note: str = "") -> None:
        """A learner's ``progress(done, total, note)`` callback: move the bar there."""
        if self.bar is not None:
            self.bar.total = total
            self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(done - self.bar.n)

    def step(self, note: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(1)

    def write(self, line: str, err: bool = False) -> None:
        out = sys.stderr if err else sys.stdout
        if self.bar is not None:
            self.bar.clear()
        print(line, file=out, flush=True)
        if self.bar is not None:
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
