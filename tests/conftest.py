import os
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
GOLDEN = Path(__file__).resolve().parent / "golden"


def examples(n: int) -> int:
    """Hypothesis examples for the slowest property tests: ``n`` in the suite (CI's
    time budget), ``ASPML_EXAMPLES`` times ``n`` on demand (``ASPML_EXAMPLES=4 python -m
    pytest tests/test_kernels.py`` for a thorough run)."""
    return max(1, round(n * float(os.environ.get("ASPML_EXAMPLES", "1"))))


def have_swipl() -> bool:
    return shutil.which("swipl") is not None


@pytest.fixture(scope="session")
def swipl():
    """Skip when swipl is absent, unless ASPML_REQUIRE_SWIPL is set (CI sets it)."""
    if not have_swipl():
        if os.environ.get("ASPML_REQUIRE_SWIPL"):
            pytest.fail("swipl is required (ASPML_REQUIRE_SWIPL) but not installed")
        pytest.skip("SWI-Prolog (swipl) is not installed")


def run_swipl(goal: str, files=(), *, options=("-f", "none"), cwd=None, timeout=120,
              env=None) -> subprocess.CompletedProcess:
    """``swipl OPTIONS -q -g GOAL -t halt FILES`` as the tests ask it, through
    :func:`aspml.prolog.run_goal`: asked again when swipl 9.0 exits 0 having printed
    nothing, ``.stdout`` exactly as the goal printed it."""
    from aspml.prolog import run_goal
    return run_goal(goal, files, options=options, cwd=cwd, timeout=timeout,
                    env=os.environ.copy() if env is None else env)


@pytest.fixture(scope="session")
def data_dir():
    if not DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return DATA


# -- headless Chromium, for the pages aspml writes (report, descriptive models) -----------

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("ASPML_REQUIRE_CHROMIUM"):
        pytest.fail("chromium is required (ASPML_REQUIRE_CHROMIUM) but not installed")
    pytest.skip("chromium is not installed")


def png_pixels(path):
    """(width, height, distinct colours, share of non-white pixels) of an 8-bit RGB(A) PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6)
    ch = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * ch
    img = np.zeros((h, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(h):                                        # undo the PNG row filters
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        out = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            a = out[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 0:
                pred = 0
            elif f == 1:
                pred = a
            elif f == 2:
                pred = b
            elif f == 3:
                pred = (a + b) // 2
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out[x] = (line[x] + pred) & 0xFF
        img[y] = out
        prev = out
    px = img.reshape(h, w, ch)[:, :, :3]
    colours = len({tuple(p) for p in px[::4, ::4].reshape(-1, 3).tolist()})
    nonwhite = float((px.sum(axis=2) < 720).mean())
    return w, h, colours, nonwhite


def screenshot(page, png, size):
    """Open ``page`` (a path) in headless Chromium with a fresh profile and save a PNG of
    ``size`` (width, height); skip without Chromium unless ASPML_REQUIRE_CHROMIUM is set."""
    browser = chromium()
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                               "--no-first-run", "--disable-background-networking",
                               "--disable-component-update", "--disable-sync", "--disable-quic",
                               f"--user-data-dir={profile}", f"--screenshot={png}",
                               f"--window-size={size[0]},{size[1]}", Path(page).as_uri()],
                              capture_output=True, text=True, timeout=120)
    assert Path(png).is_file(), proc.stderr[-2000:]
    return png


def dump_dom(page, width=1000):
    """The DOM of ``page`` (a path) after headless Chromium has loaded it (``--dump-dom``)."""
    browser = chromium()
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                               "--no-first-run", "--disable-background-networking",
                               "--disable-component-update", "--disable-sync", "--disable-quic",
                               f"--user-data-dir={profile}", "--dump-dom",
                               f"--window-size={width},900", Path(page).as_uri()],
                              capture_output=True, text=True, timeout=120)
    assert "</html>" in proc.stdout, proc.stderr[-2000:]
    return proc.stdout


def dom_text(dom):
    """The text of a dumped DOM, style sheets dropped and white space collapsed."""
    text = re.sub(r"<style>.*?</style>", "", dom, flags=re.S)
    text = re.sub(r"</?(p|li|div|summary|details|tr|td|th|ol|ul|h\d|br|table|body)\b[^>]*>", " ",
                  text)                                 # blocks apart, inline tags joined
    text = re.sub(r"<[^>]+>", "", text)
    from html import unescape
    return re.sub(r"\s+", " ", unescape(text))


def scroll_width(page, width):
    """The width of ``page``'s content (``document.documentElement.scrollWidth``) in a
    headless Chromium window ``width`` pixels wide: wider than the window means the
    page scrolls sideways.  Measured on a copy of the page with a one-line script."""
    browser = chromium()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "page.html"
        text = Path(page).read_text(encoding="utf-8")
        copy.write_text(text.replace("</body>", "<script>document.title = 'W=' + "
                                     "document.documentElement.scrollWidth;</script></body>"),
                        encoding="utf-8")
        proc = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                               "--no-first-run", "--disable-background-networking",
                               "--disable-component-update", "--disable-sync", "--disable-quic",
                               f"--user-data-dir={Path(tmp) / 'profile'}", "--dump-dom",
                               f"--window-size={width},900", copy.as_uri()],
                              capture_output=True, text=True, timeout=120)
    found = re.search(r"<title>W=(\d+)</title>", proc.stdout)
    assert found, proc.stderr[-2000:]
    return int(found.group(1))


ENGINES = ("fast", "clingo", "prolog")


def one_line_error(done, *words):
    """A mistake told as a mistake: exit 2, one line on stderr naming ``words``, no
    traceback and no 'bug of aspml'."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "bug of aspml" not in done.stderr, done.stderr
    for w in words:
        assert w in lines[0], done.stderr


def predict_with_every_engine(model, data, *options) -> dict:
    """``aspml predict MODEL DATA OPTIONS --engine E`` for each engine:
    ``{engine: the output's lines after its header}``, each run having exited 0."""
    out = {}
    for engine in ENGINES:
        done = run_aspml("predict", model, data, *options, "--engine", engine)
        assert done.returncode == 0, (engine, done.stderr)
        out[engine] = done.stdout.splitlines()[1:]
    return out


def run_aspml(*args):
    """``aspml ARGS`` in this process (imports once, unlike a subprocess):
    ``.returncode``, ``.stdout``, ``.stderr``."""
    import contextlib
    import io
    from types import SimpleNamespace

    from aspml.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:
            code = e.code
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())
