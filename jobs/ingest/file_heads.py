"""The heads of one file's lines by layout (step 3 of :mod:`jobs.ingest.parse`): a docker-compose or
kubectl prefix stripped, declared layouts, the layout table (JSON first when most lines are JSON), JSON
objects behind a viewer's columns, enveloped lines peeled and their inner lines read, lines behind a
viewer's timestamp, then the general reader."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import envelope_heads as EH
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.accounting import FileLines
from jobs.ingest.arrowops import extract, mask, numpy_of, take
from jobs.ingest.heads import FirstBytes, Heads, general_heads, match_json, match_layouts
from jobs.ingest.model import IngestSettings
from jobs.ingest.rawbytes import may_contain


def wrapping_prefix(text: pa.Array) -> tuple[pa.Array, str]:
    """Strip a docker-compose ``svc | `` or ``kubectl logs --prefix`` ``[pod/…] `` prefix (decided on
    the file's first lines); returns the text and the label for the layout column."""
    sample = text.slice(0, 400)
    lines = [v for v in sample.to_pylist() if v is not None]
    # (any hit settles it: Python stops at the first; the same answer as a match over the sample)
    if not PR.any_match(lines, rf"^(?:{L.DOCKER_HEAD}|{L.KUBECTL_HEAD})", lambda: sample):
        return text, ""
    w = extract(text, rf"^(?:{L.DOCKER_HEAD}|{L.KUBECTL_HEAD})?(?P<rest>.*)$")
    label = "kubectl+" if pc.any(pc.not_equal(w.field("pod"), "")).as_py() else "docker+"
    return w.field("rest"), label


@dataclass(slots=True)
class HeadLines:
    """The lines a file's layout table reads (:func:`head_lines`): ``rows`` (neither quarantined nor
    blank nor enveloped JSON), their text ``sub`` and first bytes ``fb``; ``offered``: the
    enveloped JSON lines (None: no line is one). The layout order is decided on ``sub``."""

    rows: np.ndarray
    sub: pa.Array
    fb: FirstBytes
    offered: np.ndarray | None


def head_lines(f: FileLines) -> HeadLines:
    """The lines of the file the layout table reads (enveloped JSON lines are peeled before it)."""
    blank = numpy_of(pc.binary_length(f.text)) == 0
    rows = np.nonzero(~f.bad & ~blank)[0]
    sub = f.text if len(rows) == f.n else take(f.text, rows)
    fb = FirstBytes(sub)
    offered = EH.sniff_json(sub, fb)
    if offered is not None:  # (enveloped JSON lines: peeled before the layouts)
        keep = np.nonzero(~offered)[0]
        offered, rows, sub, fb = rows[offered], rows[keep], take(sub, keep), fb.take(keep)
    return HeadLines(rows, sub, fb, offered)


def read_heads(
    f: FileLines, settings: IngestSettings, wrap_label: str, hl: HeadLines, order: list[L.Layout]
) -> tuple[Heads, np.ndarray]:
    """Heads by layout: declared layouts, then the table in ``order`` (the file's
    :func:`~jobs.ingest.heads.layout_order` of ``hl.sub``); enveloped lines peeled and their inner
    lines read (:func:`~jobs.ingest.envelope_heads.peel`); lines behind a viewer's timestamp (``ts+``); then the general reader.
    Returns the heads and the lines still left (continuations and lines with nothing to read)."""
    heads = Heads()
    rows, sub, fb, offered = hl.rows, hl.sub, hl.fb, hl.offered
    if settings.layouts:
        order = list(settings.layouts) + order  # (the user's own layouts first)
    if not settings.layouts and len(rows):
        taken = json_behind(sub, rows, heads, wrap_label, L.JSON_RECORD_BEHIND)
        if taken.any():
            keep = np.nonzero(~taken)[0]
            rows, sub, fb = rows[keep], take(sub, keep), fb.take(keep)
    left = match_layouts(sub, rows, order, heads, wrap_label, None, fb)
    if len(left):
        sniffed = EH.sniff_text(f.text, left)
        if sniffed.any():
            offered = left[sniffed] if offered is None else np.union1d(offered, left[sniffed])
            left = left[~sniffed]
    if offered is not None:
        left = np.union1d(left, EH.peel(f, offered, settings, heads, wrap_label))
        rows, fb = left, FirstBytes(take(f.text, left))
    if len(left) and fb.take(np.searchsorted(rows, left)).possible(L.FIRST_CHARS["ts"]).any():
        sub = take(f.text, left)
        m = extract(sub, L.TS_PREFIX)
        ok = mask(m.is_valid())
        if ok.any():
            okp = pa.array(ok)
            still = match_layouts(m.field("rest").filter(okp), left[ok], order, heads, wrap_label + "ts+",
                                   m.field("pts").filter(okp))  # fmt: skip
            # lines that are a timestamp + continuation text stay for the continuation check
            keep = np.ones(len(left), dtype=bool)
            keep[ok] = False
            left = np.union1d(left[keep], still)
    if len(left):
        left = _json_behind_columns(f.text, left, heads, wrap_label)
    if len(left):
        left = general_heads(f.text, left, heads, wrap_label, f.env.rows if f.env is not None else None)
    return heads, left


def _json_behind_columns(text: pa.Array, left: np.ndarray, heads: Heads, wrap_label: str) -> np.ndarray:
    """A JSON object behind a log viewer's columns (layout ``col+json``): the object is the line.
    Returns the lines still left."""
    return left[~json_behind(take(text, left), left, heads, wrap_label, L.JSON_BEHIND)]


def json_behind(sub: pa.Array, rows: np.ndarray, heads: Heads, wrap_label: str, regex: str) -> np.ndarray:
    """A JSON object behind some text (``regex``'s ``rest``: :data:`L.JSON_BEHIND` after the layouts,
    :data:`L.JSON_RECORD_BEHIND` before them; the reference: ``reference._json_behind``): the object
    is the line (``col+json``). Returns the mask of ``sub``'s lines it read."""
    taken = np.zeros(len(sub), dtype=bool)
    if not may_contain(sub, b'{"'):  # (one search of the column's bytes, not a kernel per line)
        return taken
    maybe = mask(pc.match_substring(sub, '{"'))
    if not maybe.any():
        return taken
    pos = np.nonzero(maybe)[0]
    m = extract(take(sub, pos), regex)
    ok = mask(m.is_valid())
    if not ok.any():
        return taken
    pos, inner = pos[ok], m.field("rest").filter(pa.array(ok))
    lm = match_json(inner, rows[pos], np.ones(len(pos), dtype=bool), heads, wrap_label + "col+", None, FirstBytes(inner))
    taken[pos[~lm]] = True
    return taken
