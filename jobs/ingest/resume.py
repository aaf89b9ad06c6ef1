"""Files that grow between runs: read a file from where an earlier run stopped (docs/nightly-runs.md).

An earlier read of a file is known from its ``ingest_audit`` row: the decompressed text's length
(``text_bytes``), the end of its last complete line (``complete_bytes``), the sha256 of the text up
to there (``prefix_sha256``), the sha256 of the whole text (``content_sha256``) and the lines it
covered. A file of this run *continues* an earlier read when its text starts with exactly the
earlier complete lines (same prefix hash): the same path that grew, or the renamed file of a
rotation that grew before it was renamed (``server.log`` -> ``server.log.1``), plain or ``.gz``
(the decompressed text is compared). Then only the lines after the earlier read are kept:

* the line numbers continue the file's numbering, so ``(source_file, line_no)`` stays an event's
  identity and the replay's per-file order accepts the new lines;
* the lines of up to :data:`CONTEXT_BYTES` before the cut are read again as *context* (an entry cut
  in the middle gets its continuation lines classed like in one read; a line naming no group finds
  its group in the lines before it) but none of their rows is written again;
* an earlier last line without its newline was read as it was: when the file grew, it is kept as
  read if it is now complete and unchanged; if it was still being written (it grew), it is read
  again whole and ``replaced_lines`` names it, so that the job removes the earlier rows of that
  line (:meth:`jobs.sink.Sink.delete_lines`).

A file whose path was read before but whose text no longer starts with that read is
``truncated`` (shorter) or ``rewritten`` and is read whole (``read_mode``). Everything here is pure
Python + pyarrow (it runs inside the ingestion's ``mapInArrow``).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest.attribution import input_group
from jobs.ingest.files import open_file
from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import FileText, ParseResult, begin_opened, parse_begun, parse_bytes

#: how much text before the cut is read again as context (snapped to a line start)
CONTEXT_BYTES = 64 * 1024
#: the audit columns of a read (``None`` in rows of lakehouses written before they existed)
READ_COLUMNS = ("first_line_no", "resumed_from", "text_bytes", "complete_bytes", "prefix_sha256", "read_mode")
_CONT_OF = re.compile(r"^continuation of line (\d+)$")


@dataclass(frozen=True)
class EarlierRead:
    """What an earlier run read of a file (from its ``ingest_audit`` row)."""

    source_file: str
    run_id: str
    content_sha256: str
    text_bytes: int
    complete_bytes: int
    prefix_sha256: str
    #: lines of the file up to the end of the read (its last, possibly incomplete, line included)
    lines: int

    @property
    def complete_lines(self) -> int:
        return self.lines - (1 if self.text_bytes > self.complete_bytes else 0)


def earlier_reads(audit_rows: Iterable[Mapping[str, Any]]) -> dict[str, list[EarlierRead]]:
    """The committed reads that can be continued, by directory of their file (a rotation renames
    a file inside its directory). Rows without the read columns (older lakehouses), with an
    ``error`` or ``duplicate_of``, are not continued."""
    out: dict[str, dict[tuple[str, str], EarlierRead]] = {}
    for a in audit_rows:
        if a.get("error") or a.get("duplicate_of") or not a.get("prefix_sha256") or a.get("text_bytes") is None:
            continue
        first = a.get("first_line_no") or 1
        read = EarlierRead(
            a["source_file"], a["run_id"], a["content_sha256"], int(a["text_bytes"]), int(a["complete_bytes"]),
            a["prefix_sha256"], first - 1 + int(a["total_lines"] or 0),
        )  # fmt: skip
        out.setdefault(os.path.dirname(read.source_file), {})[(read.source_file, read.prefix_sha256)] = read
    return {d: sorted(v.values(), key=lambda r: (r.complete_bytes, r.source_file)) for d, v in out.items()}


def candidates_for(earlier: Mapping[str, list[EarlierRead]] | None, path: str) -> list[EarlierRead] | None:
    """The earlier reads a file may continue: those of its directory."""
    return earlier.get(os.path.dirname(path)) if earlier else None


def settle_modes(audits: list[dict[str, Any]], earlier: Mapping[str, list[EarlierRead]] | None) -> None:
    """A path whose earlier content is found again in this run (continued by another file, or the
    same content under another name: a rotation by rename) was rotated, not rewritten: its new
    file is read ``whole`` without a note."""
    if not earlier:
        return
    continued = {a.get("resumed_from") for a in audits}
    contents = {a.get("content_sha256") for a in audits}
    for a in audits:
        if a.get("read_mode") not in ("truncated", "rewritten"):
            continue
        same = [c for c in candidates_for(earlier, a["source_file"]) or () if c.source_file == a["source_file"]]
        if a["source_file"] in continued or any(c.content_sha256 in contents for c in same):
            a["read_mode"] = "whole"


def complete_end(text: bytes) -> int:
    """The end of the last complete line (just after its ``\\n``); 0 when there is none."""
    return text.rfind(b"\n") + 1


def continued_read(text: bytes, source_file: str, candidates: list[EarlierRead]) -> EarlierRead | None:
    """The longest earlier read whose complete lines ``text`` starts with (the same path first on a
    tie). One sha256 pass over the text, whatever the number of candidates."""
    h = hashlib.sha256()
    pos = 0
    best: EarlierRead | None = None
    for c in candidates:  # (sorted by complete_bytes)
        if c.complete_bytes > len(text) or (c.complete_bytes == 0 and c.source_file != source_file):
            continue  # (an earlier read without a complete line continues only its own path)
        if c.complete_bytes > pos:
            h.update(text[pos : c.complete_bytes])
            pos = c.complete_bytes
        if h.copy().hexdigest() == c.prefix_sha256 and (
            best is None or c.complete_bytes > best.complete_bytes or c.source_file == source_file
        ):
            best = c
    return best


def _read_columns(text: bytes, first_line_no: int, mode: str, resumed_from: str | None,
                  sha: str | None = None) -> dict[str, Any]:  # fmt: skip
    end = complete_end(text)
    prefix = sha if sha and end == len(text) else hashlib.sha256(text[:end]).hexdigest()
    return {
        "first_line_no": first_line_no, "resumed_from": resumed_from, "text_bytes": len(text),
        "complete_bytes": end, "prefix_sha256": prefix, "read_mode": mode, "replaced_lines": None,
    }  # fmt: skip


def parse_file(
    data: bytes,
    source_file: str,
    cluster: str,
    settings: IngestSettings,
    run_id: str | None,
    candidates: list[EarlierRead] | None = None,
    mtime_ms: int | None = None,
) -> ParseResult:
    """:func:`~jobs.ingest.parse.parse_bytes` of a file, continuing an earlier read of it when one of
    ``candidates`` (the earlier reads of its directory) is a prefix of its text. The audit gets the
    read columns (:data:`READ_COLUMNS`) and ``replaced_lines``. ``mtime_ms``: the file's
    modification time (dates its times of day when nothing else does: :mod:`jobs.ingest.day_dates`).
    Events that name no group take the group of the file's input when it names one
    (:func:`~jobs.ingest.attribution.input_group`). The phases of :func:`begin_file` and
    :meth:`FileRead.end` in a row (:mod:`jobs.ingest.batch_parse` runs them for several files)."""
    read = begin_file(data, source_file, cluster, settings, run_id, candidates, mtime_ms)
    return read.end(parse_begun(read.begun))


@dataclass(slots=True)
class FileRead:
    """A file between :func:`begin_file` and :meth:`end`: ``begun`` is its parse's first phase (or
    its whole result: an error, no text, a continued read)."""

    begun: FileText | ParseResult
    text: bytes
    source_file: str
    settings: IngestSettings
    candidates: list[EarlierRead] | None
    #: False: ``begun`` continues an earlier read (its read columns are set)
    whole: bool = True

    def end(self, result: ParseResult) -> ParseResult:
        """The file's result with its read columns (a whole read) and its input's group."""
        ev, q, audit = result
        if self.whole and audit.get("error") is None:
            same = [c for c in self.candidates or () if c.source_file == self.source_file]
            short = same and len(self.text) < same[-1].complete_bytes
            mode = "whole" if not same else ("truncated" if short else "rewritten")
            audit.update(_read_columns(self.text, 1, mode, None, audit.get("content_sha256")))
        return input_group(ev, self.source_file, self.settings.input_groups), q, audit


def begin_file(
    data: bytes, source_file: str, cluster: str, settings: IngestSettings, run_id: str | None,
    candidates: list[EarlierRead] | None = None, mtime_ms: int | None = None,
) -> FileRead:  # fmt: skip
    """The first phase of :func:`parse_file`: the file opened once (the parse gets it opened), a
    continued read parsed whole here, else :func:`~jobs.ingest.parse.begin_opened`."""
    plain = data[:2] != b"\x1f\x8b" and not source_file.endswith(".gz")
    opened = open_file(data, source_file, settings.on_corrupt)
    text = data if plain else opened.data
    prior = continued_read(text, source_file, candidates) if candidates and text else None
    if prior is not None:
        done = _parse_after(data, text, not plain, prior, source_file, cluster, settings, run_id, mtime_ms)
        return FileRead(done, text, source_file, settings, candidates, whole=False)
    begun = begin_opened(opened, len(data), source_file, cluster, settings, run_id, mtime_ms)
    return FileRead(begun, text, source_file, settings, candidates)


def _cut(text: bytes, prior: EarlierRead) -> tuple[int, int, list[int] | None]:
    """(byte offset, lines before it) where the new lines start, and the earlier line to replace:
    an earlier incomplete last line stays as read when it is unchanged and now ends with its
    newline; when it was still being written it is read again (and replaced)."""
    cut, lines = prior.complete_bytes, prior.complete_lines
    if prior.text_bytes > prior.complete_bytes:  # the earlier read ended in an incomplete line
        unchanged = hashlib.sha256(text[: prior.text_bytes]).hexdigest() == prior.content_sha256
        if unchanged and text[prior.text_bytes : prior.text_bytes + 1] == b"\n":
            return prior.text_bytes + 1, prior.lines, None
        return cut, lines, [prior.lines]
    return cut, lines, None


def _replaced(prior: EarlierRead, lines: list[int] | None) -> dict[str, Any] | None:
    """Which earlier rows the job deletes (the line read again whole)."""
    return None if not lines else {"source_file": prior.source_file, "run_id": prior.run_id, "lines": lines}


def _parse_after(data, text, compressed, prior, source_file, cluster, settings, run_id, mtime_ms=None):
    """Parse the text from the context start, keep the rows of the lines after the cut."""
    cut, before, replaced = _cut(text, prior)
    start = 0 if cut <= CONTEXT_BYTES else text.rfind(b"\n", 0, cut - CONTEXT_BYTES) + 1
    skipped = text.count(b"\n", 0, start)  # lines before the context
    # (the window is plain text: parse it under a name without .gz)
    name = source_file[:-3] if source_file.endswith(".gz") else source_file
    ev, q, win = parse_bytes(text[start:], name, cluster, settings, run_id, mtime_ms)
    ctx = parse_bytes(text[start:cut], name, cluster, settings, run_id, mtime_ms)[2] if cut > start else None
    keep_from = before - skipped  # window line numbers > keep_from are new
    ev = _renumbered(ev.filter(pc.greater(ev["line_no"], keep_from)), skipped, source_file)
    q = _renumbered(q.filter(pc.greater(q["line_no"], keep_from)), skipped, source_file)
    audit = _counts(win, ctx, ev, q, keep_from)
    sha = hashlib.sha256(text).hexdigest()
    audit.update(source_file=source_file, bytes=len(data), compressed=compressed, content_sha256=sha)
    audit.update(_read_columns(text, before + 1, "resumed", prior.source_file, sha))
    audit["replaced_lines"] = _replaced(prior, replaced)
    return ev, q, audit


def _renumbered(t: pa.Table, skipped: int, source_file: str) -> pa.Table:
    """Window line numbers -> the file's (and ``continuation of line N`` details with them)."""
    if not t.num_rows:
        return t
    t = t.set_column(t.schema.get_field_index("line_no"), "line_no", pc.add(t["line_no"], skipped))
    t = t.set_column(t.schema.get_field_index("source_file"), "source_file",
                     pa.array([source_file] * t.num_rows, t.schema.field("source_file").type))  # fmt: skip
    if "detail" in t.column_names and skipped:
        details = [_shift_detail(d, skipped) for d in t["detail"].to_pylist()]
        t = t.set_column(t.schema.get_field_index("detail"), "detail", pa.array(details, pa.string()))
    return t


def _shift_detail(detail: str | None, skipped: int) -> str | None:
    m = _CONT_OF.match(detail or "")
    return f"continuation of line {int(m.group(1)) + skipped}" if m else detail


def _counts(win: dict[str, Any], ctx: dict[str, Any] | None, ev: pa.Table, q: pa.Table, keep_from: int):
    """The audit of the new lines: the window's counts minus the context's, per line class;
    events and quarantined counted from the kept rows (``total_lines`` = the four classes)."""
    audit = dict(win)
    total = int(win["total_lines"]) - keep_from
    events = len(set(ev["line_no"].to_pylist()))
    quarantined = q.num_rows
    rest = max(0, total - events - quarantined)
    cont = int(win["continuations"]) - (int(ctx["continuations"]) if ctx else 0)
    cont = min(max(cont, 0), rest)
    audit.update(total_lines=total, events=events, quarantined=quarantined, continuations=cont,
                 unrelated=rest - cont)  # fmt: skip
    reasons: dict[str, int] = {}
    for r in q["reason"].to_pylist():
        reasons[r] = reasons.get(r, 0) + 1
    audit["quarantine_reasons"] = reasons
    un = [raw for r, raw in zip(q["reason"].to_pylist(), q["raw"].to_pylist()) if r == "unparsable_layout"]
    audit["unreadable_example"] = (un[0] or "")[:300] if un else None
    ts = ev["ts_ms"].drop_null() if ev.num_rows else pa.array([], pa.int64())
    audit["first_ts"] = _ts(pc.min(ts).as_py()) if len(ts) else None
    audit["last_ts"] = _ts(pc.max(ts).as_py()) if len(ts) else None
    oo = int(win.get("out_of_order_lines") or 0) - (int(ctx.get("out_of_order_lines") or 0) if ctx else 0)
    audit["out_of_order_lines"] = max(oo, 0)
    return audit


def _ts(ms: int | None):
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)
