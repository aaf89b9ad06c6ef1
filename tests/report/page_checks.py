"""Checks of a written HTML report as a reader sees it: the figures are real pictures (not blank), the
counts agree, the advice's strength matches its baseline, and — in a headless Chromium when one is
installed — the page has no horizontal overflow at 1400 px and 390 px and its screenshot has the
window's size."""

from __future__ import annotations

import base64
import html
import io
import pathlib
import re
import shutil
import subprocess
import tempfile

import numpy as np
from matplotlib import image as mpimg

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "chrome")
WIDTHS = (1400, 390)
HEIGHT = 900


def browser() -> str | None:
    """A headless-capable Chromium on PATH, or None."""
    return next((b for b in map(shutil.which, BROWSERS) if b), None)


def figures(page: str) -> list[np.ndarray]:
    """The embedded PNG figures of a report, as pixel arrays."""
    out = []
    for data in re.findall(r'<img src="data:image/png;base64,([^"]+)"', page):
        out.append(mpimg.imread(io.BytesIO(base64.b64decode(data)), format="png"))
    return out


def is_blank(pixels: np.ndarray) -> bool:
    """A picture of one colour (or nearly: fewer than 1 % of its pixels differ from the corner's)."""
    rgb = pixels[..., :3]
    return float(np.mean(np.any(np.abs(rgb - rgb[0, 0]) > 0.02, axis=-1))) < 0.01


def _chromium(*args: str) -> str:
    exe = browser()
    assert exe is not None
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180).stdout


def layout(page: str, width: int) -> tuple[int, int, int]:
    """(scrollWidth, clientWidth, scrollHeight) of the report shown ``width`` px wide. The report is put
    in a ``srcdoc`` frame of that width (a headless window is never narrower than 500 px), and the
    probe script lives in the frame's parent only: the report itself stays script-free."""
    outer = (
        f'<!DOCTYPE html><html><body style="margin:0"><iframe id="f" style="border:0;display:block" '
        f'width="{width}" height="{HEIGHT}" srcdoc="{html.escape(page, quote=True)}"></iframe><script>'
        "document.getElementById('f').addEventListener('load',()=>{const e=document.getElementById('f')"
        ".contentDocument.scrollingElement;document.body.setAttribute('data-probe',"
        "e.scrollWidth+'x'+e.clientWidth+'x'+e.scrollHeight);});</script></body></html>"
    )
    with tempfile.TemporaryDirectory() as d:
        f = pathlib.Path(d) / "probe.html"
        f.write_text(outer, encoding="utf-8")
        dom = _chromium(f"--window-size={max(width, 500)},{HEIGHT}", "--virtual-time-budget=10000", "--dump-dom",
                        f.as_uri())  # fmt: skip
    m = re.search(r'data-probe="(\d+)x(\d+)x(\d+)"', dom)
    assert m, "the probe did not run"
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def screenshot(report: pathlib.Path, width: int, out: pathlib.Path) -> tuple[int, int, bool]:
    """(width, height, blank) of a screenshot of ``report`` in a ``width`` × 900 window."""
    _chromium(f"--window-size={width},{HEIGHT}", f"--screenshot={out}", report.resolve().as_uri())
    pixels = mpimg.imread(out)
    return pixels.shape[1], pixels.shape[0], is_blank(pixels)


def card(page: str, key: str) -> str:
    """The value of the summary card ``key``."""
    m = re.search(r'<div class="v">([^<]*)</div><div class="k">' + re.escape(key) + "</div>", page)
    assert m, key
    return html.unescape(m.group(1))


def check_page(page: str, report: pathlib.Path, tmp: pathlib.Path) -> None:
    """Every figure a picture; at both widths no horizontal overflow and a screenshot of the window's
    size that is not blank (the browser part only where a Chromium is installed)."""
    shots = figures(page)
    assert shots and not [i for i, p in enumerate(shots) if is_blank(p)]
    if browser() is None:
        return
    for width in WIDTHS:
        scroll_w, client_w, scroll_h = layout(page, width)
        assert scroll_w <= client_w <= width, (width, scroll_w, client_w)
        assert scroll_h > HEIGHT  # the whole report, not an error page
        w, h, blank = screenshot(report, width, tmp / f"shot-{width}.png")
        assert (w, h, blank) == (width, HEIGHT, False)


def check_counts(page: str, summary) -> None:
    """The cards say what the console said: groups, rebalances, storms."""
    assert card(page, "groups") == str(summary.groups_total)
    assert card(page, "rebalances") == str(summary.rebalances_total)
    assert card(page, "storms") == str(summary.storms_total)
    rebalanced = re.search(r"consumer groups with events in these tables; (\d+) of them rebalanced", page)
    assert rebalanced and f"the {rebalanced.group(1)} group" in page  # the charts' caption counts the same groups


def check_advice(page: str) -> None:
    """A change is unverified exactly when the re-simulated baseline misses the logged rebalances by
    more than one, and 'no effect' only when it does not."""
    for table in re.findall(r"<h4>.*?</h4>\s*<div class=\"scroll\"><table>(.*?)</table>", page, re.S):
        for row in re.findall(r"<tr>(.*?)</tr>", table)[1:]:
            cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
            logged, before, strength = int(cells[1]), int(cells[2]), cells[-2]
            assert (strength == "unverified") == (abs(before - logged) > 1), cells
