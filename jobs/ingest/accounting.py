"""The per-line accounting of one file being read: each line's class (event, continuation, unrelated,
quarantined) with its quarantine reason and detail (:class:`FileLines`), the class a continuation takes
from its head (:func:`continuation_classes`) and the quarantine rows with the audit's counts per reason
(:func:`quarantine_rows`). ``total_lines = events + continuations + unrelated + quarantined``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa

from jobs.ingest import envelope_heads as EH
from jobs.ingest.arrowops import decode_lossy, repeat, take
from jobs.ingest.model import QUARANTINE_ARROW


def empty_quarantine() -> pa.Table:
    return QUARANTINE_ARROW.empty_table()


def quarantine_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=QUARANTINE_ARROW)


@dataclass
class FileLines:
    """The per-line state of one file being read: its lines, their text and each line's class
    (0 unrelated, 1 event, 2 continuation, 3 quarantined) with the quarantine reason and detail."""

    data: bytes
    lines: pa.Array
    text: pa.Array
    bad: np.ndarray
    cls: np.ndarray
    qreason: np.ndarray
    qdetail: np.ndarray
    qgroup: dict[int, str | None] = field(default_factory=dict)
    is_cont: np.ndarray | None = None
    env: EH.Enveloped | None = None  # the peeled lines (None: the file has none)

    @property
    def n(self) -> int:
        return len(self.lines)

    def quarantine(self, rows: np.ndarray, reason: str, detail: str | None = None) -> None:
        self.cls[rows] = 3
        self.qreason[rows] = reason
        if detail is not None:
            self.qdetail[rows] = detail


def continuation_classes(f: FileLines, joined: np.ndarray | None = None) -> None:
    """A continuation takes its head's class (events' continuations count as continuations; of an
    unrelated head as unrelated; of a quarantined head as quarantined with ``continuation of line
    N``); one with no head before it is ``unparsable_layout``. A joined piece's head is the line it
    joins (``joined``)."""
    is_cont = f.is_cont
    if is_cont is None or not is_cont.any():
        return
    cont_rows = np.nonzero(is_cont)[0]
    last_non = np.maximum.accumulate(np.where(~is_cont, np.arange(f.n), -1))
    head_of = last_non[cont_rows]
    if joined is not None:
        head_of = np.where(joined[cont_rows] >= 0, joined[cont_rows], head_of)
        named = head_of.copy()  # the line a quarantine detail names: the one the piece joins
        # a piece joined to a continuation line takes that line's head (chains of pieces: follow them)
        resolved = np.full(f.n, -1, dtype=np.int64)
        resolved[cont_rows] = head_of
        for _ in range(f.n):
            via = (head_of >= 0) & is_cont[np.maximum(head_of, 0)]
            if not via.any():
                break
            head_of = np.where(via, resolved[np.maximum(head_of, 0)], head_of)
    else:
        named = head_of
    orphan = head_of < 0
    if orphan.any():
        f.quarantine(cont_rows[orphan], "unparsable_layout", "continuation line without a head line")
        # a piece joined to a line without a head: a continuation of that (quarantined) line
        for r, hd in zip(cont_rows[orphan & (named >= 0)], named[orphan & (named >= 0)]):
            f.qdetail[r] = f"continuation of line {int(hd) + 1}"
    cr, ho, nm = cont_rows[~orphan], head_of[~orphan], named[~orphan]
    hc = f.cls[ho]
    f.cls[cr[hc == 1]] = 2
    f.cls[cr[hc == 0]] = 0
    qc = hc == 3
    if qc.any():
        q_rows = cr[qc]
        f.cls[q_rows] = 3
        f.qreason[q_rows] = f.qreason[ho[qc]]
        for r, hd in zip(q_rows, nm[qc]):
            f.qdetail[r] = f"continuation of line {int(hd) + 1}"
            if int(hd) in f.qgroup:
                f.qgroup[int(r)] = f.qgroup[int(hd)]


def quarantine_rows(f: FileLines, head_rows: np.ndarray, head_layout: pa.Array, settings, source_file, cluster, run_id,
                    audit) -> pa.Table:  # fmt: skip
    """One quarantine row per quarantined line (its raw text; the layout when it is a head: the heads'
    line indexes ``head_rows`` and layouts ``head_layout``) and the audit's count per reason and
    first unreadable line."""
    qrows = np.nonzero(f.cls == 3)[0]
    if not len(qrows):
        return empty_quarantine()
    reasons, counts = np.unique(f.qreason[qrows].astype(str), return_counts=True)
    audit["quarantine_reasons"] = {str(r): int(c) for r, c in zip(reasons, counts)}
    unread = qrows[f.qreason[qrows] == "unparsable_layout"]
    text = f.text if f.env is None else f.env.orig  # (a peeled line is kept as it was written)
    if len(unread):
        audit["unreadable_example"] = decode_lossy(text[int(unread[0])].as_py().encode("utf-8", "replace"), 300)
    hp = np.minimum(np.searchsorted(head_rows, qrows), max(len(head_rows) - 1, 0))
    is_h = (head_rows[hp] == qrows) if len(head_rows) else np.zeros(len(qrows), dtype=bool)
    q_layout = head_layout.take(pa.array(hp, pa.int64(), mask=~is_h)) if len(head_rows) else None
    raw_txt = take(text, qrows).to_pylist()
    badset = f.bad[qrows]
    if badset.any():
        bi = iter(take(f.lines, qrows[badset]).to_pylist())
        raw_txt = [decode_lossy(next(bi), settings.raw_keep_bytes) if b else t for t, b in zip(raw_txt, badset)]
    return pa.table({
        "cluster": repeat(cluster, len(qrows)),
        "source_file": repeat(source_file, len(qrows)),
        "line_no": pa.array(qrows + 1, pa.int64()),
        "reason": pa.array(f.qreason[qrows].tolist(), pa.string()),
        "detail": pa.array(f.qdetail[qrows].tolist(), pa.string()),
        "layout": q_layout if q_layout is not None else pa.nulls(len(qrows), pa.string()),
        "group_id": pa.array([f.qgroup.get(int(r)) for r in qrows], pa.string()),
        "raw": pa.array(raw_txt, pa.string()),
        "run_id": repeat(run_id, len(qrows)),
    }, schema=QUARANTINE_ARROW)  # fmt: skip
