"""The envelope step of the vectorised reader (:mod:`jobs.ingest.parse`): which lines are offered
to the peeler, the peeled text put back into the file's columns, the inner lines read by the
layouts, and the heads of peeled lines given their envelope's time and names. What a line becomes
is :mod:`jobs.ingest.envelopes` (shared with the reference reader); see ``docs/envelopes.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import arrowops as ao
from jobs.ingest import envelopes as E
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.heads import FirstBytes, Heads, layout_order, match_layouts
from jobs.ingest.model import IngestSettings
from jobs.ingest.rawbytes import Raw


def sniff_json(sub: pa.Array, fb: FirstBytes) -> np.ndarray | None:
    """Mask of the lines offered before the layouts, None when there is none: the JSON lines an
    envelope or a record the json layout does not read holds (:data:`E.SNIFF_JSON`), and the lines
    of records printed over several lines (:func:`sniff_records`)."""
    keys, recs = _sniff_json_keys(sub, fb), sniff_records(sub, fb)
    return keys if recs is None else recs if keys is None else keys | recs


#: an indented line that may open a record (``  {`` in a pretty JSON array) is at most this long
_INDENTED_OPENER = 10


def sniff_records(sub: pa.Array, fb: FirstBytes) -> np.ndarray | None:
    """Mask of the lines of records printed over several lines (:func:`E.record_spans`): only
    lines that start with ``{``, and short indented lines, are tested as openers (:data:`E.OPENER`),
    so a file of a known layout pays a first-byte lookup."""
    cand, ws = fb.possible("{"), fb.possible(" \t")
    if not cand.any() and not ws.any():
        return None
    raw = Raw(sub)
    # (a line that ends with "}" opens nothing: most JSON lines are whole records)
    cand = cand & (raw.data[np.maximum(raw.ends - 1, 0)] != ord("}"))
    if ws.any():
        cand |= ws & (raw.lengths <= _INDENTED_OPENER)
    pos = np.nonzero(cand)[0]
    if not len(pos):
        return None
    pos = pos[ao.mask(PR.match(ao.take(sub, pos), E.OPENER))]
    if not len(pos):
        return None
    spans = E.record_spans(len(sub), lambda k, n: sub.slice(k, n).to_pylist(), pos.tolist())
    if not spans:
        return None
    out = np.zeros(len(sub), dtype=bool)
    for k, e in spans.items():
        out[k : e + 1] = True
    return out


def _sniff_json_keys(sub: pa.Array, fb: FirstBytes) -> np.ndarray | None:
    poss = np.nonzero(fb.possible(L.FIRST_CHARS["json"]))[0]
    if not len(poss):
        return None
    js = sub if len(poss) == len(sub) else ao.take(sub, poss)
    py = PR.translated(E.SNIFF_JSON) if len(poss) <= _PY_SNIFF_JSON else None
    hit = ao.mask(PR.python_match(js, py[0]) if py is not None else PR.match(js, E.SNIFF_JSON))
    hit |= _literal_start(js)
    if not hit.any():
        return None
    # (the key search first: it is the cheaper test over every JSON line)
    hit[hit] = ao.mask(PR.match(ao.take(sub, poss[hit]), E.JSON_START))
    out = np.zeros(len(sub), dtype=bool)
    out[poss[hit]] = True
    return out


def _literal_start(js: pa.Array) -> np.ndarray:
    """Mask of the lines that start an object dump that is not JSON (:data:`E.LITERAL_START`):
    tested only on lines starting with ``{`` whose second byte is not ``"`` (JSON lines are not)."""
    raw = Raw(js)
    cand = (raw.lengths > 1) & (raw.data[np.minimum(raw.starts + 1, len(raw.data) - 1)] != ord('"'))
    cand &= raw.data[np.minimum(raw.starts, len(raw.data) - 1)] == ord("{")
    out = np.zeros(len(js), dtype=bool)
    pos = np.nonzero(cand)[0]
    if len(pos):
        out[pos] = ao.mask(PR.match(ao.take(js, pos), E.LITERAL_START))
    return out


#: at most this many candidate lines are tested with Python's ``re`` (RE2 compiles the large
#: pattern on every call, ~0.7 ms)
_PY_SNIFF = 2000
#: the same for JSON lines (longer: Python's search costs more per line)
_PY_SNIFF_JSON = 100


def sniff_text(text: pa.Array, left: np.ndarray) -> np.ndarray:
    """Mask over ``left`` (lines no layout read) of the lines :func:`E.text_offered` offers: not
    starting with whitespace (most such lines are stack frames) and :data:`E.SNIFF_TEXT`."""
    fb = FirstBytes(ao.take(text, left))
    cand = np.nonzero(~fb.possible(" \t"))[0]
    out = np.zeros(len(left), dtype=bool)
    if not len(cand):
        return out
    sub = ao.take(text, left[cand])
    if len(cand) <= _PY_SNIFF and (py := PR.translated(E.SNIFF_TEXT)) is not None:
        out[cand] = ao.mask(PR.python_match(sub, py[0]))
    else:
        out[cand] = ao.mask(PR.match(sub, E.SNIFF_TEXT))
    return out


@dataclass
class Enveloped:
    """The peeled lines of a file: ``rows``, their envelope time ``pts`` and ``label`` (per line of
    the file, null / "" elsewhere), the text before peeling (``orig``) and, per line, the line a
    joined piece joins (``joined``, -1 for the others)."""

    rows: np.ndarray
    pts: pa.Array
    label: pa.Array
    orig: pa.Array
    joined: np.ndarray


def peel(f: Any, offered: np.ndarray, settings: IngestSettings, heads: Heads, wrap_label: str) -> np.ndarray:
    """Step 3b: the offered lines peeled (:func:`E.peel_lines`, per line in Python: only enveloped
    lines come here), split pieces joined (the later pieces: continuations), unreadable envelopes
    quarantined, and the inner lines read by the layouts; returns the lines no layout read."""
    pf = E.peel_lines(offered.tolist(), ao.take(f.text, offered).to_pylist())
    absorbed = np.array(sorted(pf.absorbed), dtype=np.int64)
    peeled = np.array(sorted(pf.lines), dtype=np.int64)
    changed = np.union1d(absorbed, peeled)
    pts, label = np.full(f.n, None, dtype=object), np.full(f.n, "", dtype=object)
    new_text = {int(r): "" for r in absorbed}
    bad = []
    for r, p in pf.lines.items():
        new_text[r], pts[r], label[r] = p.text, p.pts, p.label
        if p.bad is not None:
            bad.append(r)
            f.quarantine(np.array([r]), "unreadable_envelope", p.bad)
    joined = np.full(f.n, -1, dtype=np.int64)
    joined[absorbed] = [pf.absorbed[int(r)] for r in absorbed]
    f.is_cont[absorbed] = True
    f.env = Enveloped(peeled, pa.array(pts.tolist(), pa.string()), pa.array(label.tolist(), pa.string()), f.text,
                      joined)  # fmt: skip
    if len(changed):
        mask = np.zeros(f.n, dtype=bool)
        mask[changed] = True
        vals = pa.array([new_text[int(r)] for r in changed], f.text.type)
        f.text = pc.replace_with_mask(f.text, pa.array(mask), vals)
    second = offered[(ao.numpy_of(pc.binary_length(ao.take(f.text, offered))) > 0) & ~np.isin(offered, absorbed)
                     & ~np.isin(offered, np.array(bad, dtype=np.int64))]  # fmt: skip
    if not len(second):
        return second
    sub = ao.take(f.text, second)
    fb = FirstBytes(sub)
    order = list(settings.layouts) + layout_order(sub, fb)
    return match_layouts(sub, second, order, heads, wrap_label, None, fb)


def enveloped_heads(t: pa.Table, env: Enveloped) -> pa.Table:
    """The head table with a peeled line's envelope time as ``pts`` (where the layouts found none)
    and the envelopes' names before its layout."""
    idx = t["_row"].combine_chunks()
    pts = pc.coalesce(t["pts"].combine_chunks(), env.pts.take(idx))
    layout = pc.binary_join_element_wise(env.label.take(idx), t["layout"].combine_chunks(), "")
    t = t.set_column(t.column_names.index("pts"), "pts", pts)
    return t.set_column(t.column_names.index("layout"), "layout", layout)
