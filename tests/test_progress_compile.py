"""The progress bar of the first run (numba compiles the kernels) says "compiling (first run
only)" instead of estimating the whole run from that one slow step."""

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

import numba
import pytest
from numba.core import event

from aspml.progress import COMPILING, Progress
from conftest import ROOT


class _Spy(event.Listener):
    """Reads the bar while numba compiles (listeners run in the order they registered)."""

    def __init__(self, progress):
        self.progress, self.seen = progress, []

    def on_start(self, _event):
        self.seen.append(self.progress.bar.desc)

    def on_end(self, _event):
        pass


def test_the_bar_says_compiling_while_numba_compiles(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    bar = Progress(3, False, "learn x", unit="step")
    spy = _Spy(bar)
    event.register("numba:compile", spy)
    try:
        bar.at(0, 3)
        started = bar.bar.start_t
        numba.njit(lambda x: x * 3 + 1)(2)          # a new function: a real compilation
        assert spy.seen and spy.seen[0] == f"learn x {COMPILING}"
        assert bar.bar.desc == f"learn x {COMPILING}"   # until the next step
        assert bar.bar.start_t > started                # the compile is not in the rate
        bar.at(1, 3)
        assert bar.bar.desc == "learn x"
    finally:
        event.unregister("numba:compile", spy)
        bar.close()
    numba.njit(lambda x: x * 5 + 1)(2)              # closed: it listens no more
    assert len(spy.seen) == 1


def test_no_label_when_nothing_compiles(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    f = numba.njit(lambda x: x + 7)
    f(1)                                            # compiled before the bar
    bar = Progress(2, False, "bench")
    try:
        f(2)
        bar.step("a")
        assert bar.bar.desc == "bench"
    finally:
        bar.close()


def _read_all(fd) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:                             # the child closed the terminal
            return out
        if not chunk:
            return out
        out += chunk


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_aspml_learn_on_a_fresh_install_says_compiling(tmp_path):
    """A new numba cache folder is a fresh install: every kernel compiles."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))  # a width
    proc = subprocess.Popen([sys.executable, "-m", "aspml", "learn",
                             str(ROOT / "examples" / "birds" / "animals.csv"), "--target",
                             "flies", "--ignore", "name"], stdout=subprocess.PIPE, stderr=slave,
                            cwd=tmp_path, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    os.close(slave)
    err = _read_all(master).decode("utf-8", "replace")
    out = proc.communicate(timeout=600)[0].decode()
    assert proc.returncode == 0 and out.startswith("fold-se: ")
    assert f"learn fold-se {COMPILING}" in err
    assert "step/s" in err and "Traceback" not in err
