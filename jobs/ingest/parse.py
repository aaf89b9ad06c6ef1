"""Parse one log file's bytes into canonical events, quarantine rows and one audit row.

Pure Python + pyarrow (no Spark): :func:`parse_bytes` runs inside ``mapInArrow`` and in the
single-process benchmark. Everything is vectorised over whole Arrow columns (RE2 kernels of
``pyarrow.compute``, numpy over the offsets of string columns); only the regex of the rare leader
assignment maps and invalid-UTF-8 files are looked at line by line.

Speed (every shortcut gives exactly the result of the plain way; ``tests/ingest/
test_parse_speed_equivalence.py``, ``test_fastheads.py``, ``test_pyregex.py``): pyarrow compiles a
regex on every call (~0.1-0.2 ms, the largest fixed cost of a small file), so the parser avoids
calls that cannot match and rows whose result is known, and answers anchored regexes on small
columns with Python's ``re`` (:mod:`jobs.ingest.pyregex`). Kafka's default log4j heads are split
from byte positions (:mod:`jobs.ingest.fastheads`, with the timestamp converted on the way). Work that is a pure function
of a line's message runs once per *distinct* value and is spread back with one ``take``: the group
prefilter (when a sample of the file repeats its messages), dialect matching and event field
conversion (per distinct message, logger and layout: a consumer logs the same heartbeat line for a
whole generation), the client context prefix (per distinct prefix) and logger checks. Layout
regexes run only on the lines whose first byte they can start with (:data:`L.FIRST_CHARS`),
dialect regexes only on the bodies starting with their literal text (``Dialect.literal``).

Pipeline of one file:

1. gunzip (by magic bytes; a ``.gz`` name without them is corrupt), sha256 of the content;
2. split lines (1-based ``line_no``); quarantine ``binary`` (NUL bytes), ``invalid_utf8`` and
   ``line_too_long`` lines; strip ``\\r`` and ANSI colours;
3. layouts (:mod:`jobs.ingest.layouts`): each line becomes a *head* (a log entry's first line), a
   *continuation* (stack trace lines, tab-indented blocks, the JUL message line), a blank line
   (unrelated) or ``unparsable_layout``; a head whose message itself holds newlines (a JSON
   ``"message"`` with a config dump or the cooperative ``Updating assignment with\n\tAssigned
   partitions: ...`` block) keeps its first line as the message and the rest as the event's
   ``continuation`` text, exactly like the same entry written over several lines (it is still one
   line of the file: counted once, as its head);
4. the cheap :data:`~jobs.ingest.dialects.GROUP_PREFILTER` splits heads into unrelated noise (only
   counted) and group candidates; candidates go through the dialect table
   (:mod:`jobs.ingest.dialects`) → events, recognised non-events (unrelated), ``no_timestamp`` or
   ``group_line_not_understood`` (no dialect matches);
4b. *context attribution* (:func:`_attribute_groups`): a recognised event whose line names no group
   (Kafka logs the static "will not trigger a rebalance" line, fenced-instance lines, leader
   re-election and the 2.3 static replacement while handling one group's request, next to a line
   that names it) takes the group of the nearest preceding event line of the file naming its
   member / instance id, else of the nearest preceding group line within 1000 ms (same coordinator
   partition when the Java prefix gives one); when nothing attributes it: ``group_unknown``;
5. accounting, per line exactly one of: event, continuation (of an event), unrelated, quarantined.
   A continuation takes the class of its head: continuations of an unrelated head count as
   *unrelated*, of a quarantined head as *quarantined* (one quarantine row each, same reason, detail
   ``continuation of line N``), of an event head as *continuations* (their text is the event's
   ``continuation``). A continuation with no head line before it is ``unparsable_layout``.
   ``total_lines = events + continuations + unrelated + quarantined`` always holds.

Quarantine reasons written here: ``corrupt_gzip``, ``binary``, ``invalid_utf8``,
``line_too_long``, ``unparsable_layout``, ``group_line_not_understood`` (passes the group
prefilter, matches no dialect), ``group_unknown`` (a recognised event whose group neither the line
nor its context gives) and ``no_timestamp``.
"""

from __future__ import annotations

import gzip
import hashlib
import zlib
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import dialects as D
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.arrowops import _decode_lossy, _extract, _mask, _np, _nullify_empty, _repeat, _take
from jobs.ingest.attribution import _attribute_groups
from jobs.ingest.fields import _finish_events, _json_event_fields
from jobs.ingest.heads import (
    _FirstBytes,
    _general_heads,
    _head_timestamps,
    _Heads,
    _layout_order,
    _located_timestamps,
    _match_layouts,
    _unwrap_paste,
)
from jobs.ingest.messages import _candidate_events, _repetitive, _wrapped_lines
from jobs.ingest.model import (
    AUDIT_ARROW,
    EVENTS_ARROW,
    QUARANTINE_ARROW,
    IngestError,
    IngestSettings,
)


# ------------------------------------------------------------------------------------ main
def _empty_audit(source_file: str, cluster: str, run_id: str | None) -> dict[str, Any]:
    return {
        "cluster": cluster, "run_id": run_id, "source_file": source_file, "content_sha256": None, "bytes": 0,
        "compressed": False, "total_lines": 0, "events": 0, "continuations": 0, "unrelated": 0, "quarantined": 0,
        "duplicate_of": None, "error": None, "first_ts": None, "last_ts": None, "out_of_order_lines": 0,
        "layouts": [], "quarantine_reasons": {}, "unreadable_example": None,
    }  # fmt: skip


#: a file whose first bytes hold a NUL or are mostly not text is binary: one quarantine row for
#: the file, not one per "line" of garbage
BINARY_SNIFF = 8192


def _is_binary(data: bytes) -> bool:
    """Control bytes (NUL included; not tab/newline/CR/FF/VT) are at least 5 % of the file's first
    8 KiB: a Kafka segment, an archive, an image. A text log with a few corrupt lines is not
    binary (its bad lines are quarantined one by one)."""
    head = data[:BINARY_SNIFF]
    ctrl = sum(head.count(bytes([c])) for c in (*range(0, 9), *range(14, 32), 127))
    return ctrl >= 0.05 * len(head)


def _file_quarantine(source_file, cluster, run_id, reason: str, detail: str) -> pa.Table:
    return quarantine_table([{
        "cluster": cluster, "source_file": source_file, "line_no": None, "reason": reason,
        "detail": detail, "layout": None, "group_id": None, "raw": None, "run_id": run_id,
    }])  # fmt: skip


def empty_events() -> pa.Table:
    return EVENTS_ARROW.empty_table()


def empty_quarantine() -> pa.Table:
    return QUARANTINE_ARROW.empty_table()


def quarantine_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=QUARANTINE_ARROW)


def audit_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=AUDIT_ARROW)


def parse_bytes(
    data: bytes,
    source_file: str,
    cluster: str = "default",
    settings: IngestSettings | None = None,
    run_id: str | None = None,
) -> tuple[pa.Table, pa.Table, dict[str, Any]]:
    """Parse one file's content. Returns ``(events, quarantine, audit)``: Arrow tables with the
    schemas of ``jobs.schemas.EVENTS`` / ``QUARANTINE`` and one ``INGEST_AUDIT`` row as a dict.

    A corrupt gzip raises :class:`IngestError` unless ``settings.on_corrupt == "quarantine"``.
    """
    settings = settings or IngestSettings()
    audit = _empty_audit(source_file, cluster, run_id)
    audit["bytes"] = len(data)
    gz_magic = data[:2] == b"\x1f\x8b"
    audit["compressed"] = gz_magic or source_file.endswith(".gz")
    if audit["compressed"]:
        try:
            if not gz_magic:
                raise OSError("not a gzip file (no gzip magic bytes)")
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            msg = f"corrupt_gzip: {source_file}: {e}"
            if settings.on_corrupt == "error":
                raise IngestError(msg) from e
            audit["error"] = msg
            audit["quarantine_reasons"] = {"corrupt_gzip": 1}
            return empty_events(), _file_quarantine(source_file, cluster, run_id, "corrupt_gzip", str(e)), audit
    audit["content_sha256"] = hashlib.sha256(data).hexdigest()
    if not data:
        return empty_events(), empty_quarantine(), audit
    if _is_binary(data):
        audit["error"] = f"binary: {source_file}: not a text log ({len(data):,} bytes)"
        audit["quarantine_reasons"] = {"binary": 1}
        return empty_events(), _file_quarantine(source_file, cluster, run_id, "binary", "binary file, not read"), audit
    return _parse_text(data, source_file, cluster, settings, run_id, audit)


def _split_lines(data: bytes) -> pa.Array:
    buf = pa.py_buffer(data)
    whole = pa.LargeBinaryArray.from_buffers(
        pa.large_binary(), 1, [None, pa.array([0, len(data)], pa.int64()).buffers()[1], buf]
    )
    lines = pc.list_flatten(pc.split_pattern(whole, b"\n"))
    if data.endswith(b"\n"):
        lines = lines.slice(0, len(lines) - 1)
    return lines


def _parse_text(
    data: bytes,
    source_file: str,
    cluster: str,
    settings: IngestSettings,
    run_id: str | None,
    audit: dict[str, Any],
) -> tuple[pa.Table, pa.Table, dict[str, Any]]:
    lines = _split_lines(data)
    n = len(lines)
    audit["total_lines"] = n
    cls = np.zeros(n, dtype=np.int8)  # 0 unrelated, 1 event, 2 continuation, 3 quarantined
    qreason = np.full(n, None, dtype=object)
    qdetail = np.full(n, None, dtype=object)
    qgroup: dict[int, str | None] = {}
    # ---- malformed lines
    bad = np.zeros(n, dtype=bool)
    lengths = _np(pc.binary_length(lines))
    too_long = lengths > settings.max_line_bytes
    if too_long.any():
        bad |= too_long
        qreason[too_long] = "line_too_long"
        for i in np.nonzero(too_long)[0]:
            qdetail[i] = f"{int(lengths[i])} bytes > {settings.max_line_bytes}"
    if b"\x00" in data:
        nul = _mask(pc.match_substring(lines, b"\x00")) & ~bad
        bad |= nul
        qreason[nul] = "binary"
        qdetail[nul] = "NUL bytes"
    try:
        text = pc.cast(
            lines if not bad.any() else pc.if_else(pa.array(bad), pa.scalar(b"", pa.large_binary()), lines),
            pa.large_string(),
        )
    except pa.ArrowInvalid:
        vals = lines.to_pylist()
        for i, v in enumerate(vals):
            if bad[i]:
                continue
            try:
                v.decode("utf-8")
            except UnicodeDecodeError:
                bad[i] = True
                ctrl = sum(1 for ch in v if ch < 9 or 13 < ch < 32 or ch == 127)
                nontext = ctrl + sum(1 for ch in v if ch >= 128)
                if ctrl >= 2 or nontext > 0.3 * max(1, len(v)):
                    qreason[i], qdetail[i] = "binary", "non-text bytes"
                else:
                    qreason[i], qdetail[i] = "invalid_utf8", "invalid UTF-8 byte sequence"
        text = pc.cast(pc.if_else(pa.array(bad), pa.scalar(b"", pa.large_binary()), lines), pa.large_string())
    cls[bad] = 3
    if b"\r" in data:
        text = pc.utf8_rtrim(text, characters="\r")
    if b"\x1b" in data and b"\x1b[" in data:  # (memchr first: the 2-byte search is slow)
        text = pc.replace_substring_regex(text, L.ANSI, "")
    # ---- what a paste or a screen capture puts around every line
    text = _unwrap_paste(text, data)
    # ---- wrapping prefixes (docker-compose, kubectl --prefix)
    wrap_label = ""
    if pc.any(PR.match(text.slice(0, 400), r"^[\w.-]+\s+\| |^\[pod/[^\]\s]+\] ")).as_py():
        w = _extract(text, r"^(?:(?P<svc>[\w.-]+)\s+\| |\[(?P<pod>pod/[^\]\s]+)\] )?(?P<rest>.*)$")
        wrap_label = "kubectl+" if pc.any(pc.not_equal(w.field("pod"), "")).as_py() else "docker+"
        text = w.field("rest")
    blank = _np(pc.binary_length(text)) == 0
    # ---- layouts
    heads = _Heads()
    rows = np.nonzero(~bad & ~blank)[0]
    sub = text if len(rows) == n else _take(text, rows)
    fb = _FirstBytes(sub)
    order = _layout_order(sub, fb)
    if settings.layouts:
        order = list(settings.layouts) + order  # (the user's own layouts first)
    left = _match_layouts(sub, rows, order, heads, wrap_label, None, fb)
    if len(left) and fb.take(np.searchsorted(rows, left)).possible(L.FIRST_CHARS["ts"]).any():
        sub = _take(text, left)
        m = _extract(sub, L.TS_PREFIX)
        ok = _mask(m.is_valid())
        if ok.any():
            okp = pa.array(ok)
            inner = m.field("rest").filter(okp)
            pts = m.field("pts").filter(okp)
            prow = left[ok]
            still = _match_layouts(inner, prow, order, heads, wrap_label + "ts+", pts)
            # lines that are a timestamp + continuation text stay for the continuation check
            keep = np.ones(len(left), dtype=bool)
            keep[ok] = False
            left = np.union1d(left[keep], still)
    # ---- lines of unknown layouts: the general reader (timestamp locator, message-first)
    if len(left):
        left = _general_heads(text, left, heads, wrap_label)
    head_t = heads.table()
    head_rows = _np(head_t["_row"]) if len(head_t) else np.zeros(0, np.int64)
    is_head = np.zeros(n, dtype=bool)
    is_head[head_rows] = True
    # ---- JUL message lines (line after a `jul` head)
    is_cont = np.zeros(n, dtype=bool)
    message = head_t["message"].combine_chunks()
    level = head_t["level"].combine_chunks()
    layout_col = head_t["layout"].combine_chunks()
    jul = _mask(pc.ends_with(layout_col, "jul"))
    if jul.any():
        jpos = np.nonzero(jul)[0]
        nxt = head_rows[jpos] + 1
        okn = nxt < n
        jpos, nxt = jpos[okn], nxt[okn]
        cand = ~is_head[nxt] & ~bad[nxt]
        jpos, nxt = jpos[cand], nxt[cand]
        mm = _extract(_take(text, nxt), L.JUL_MESSAGE)
        ok = _mask(mm.is_valid())
        jpos, nxt = jpos[ok], nxt[ok]
        mm = mm.filter(pa.array(ok))
        if len(jpos):
            jm = np.zeros(len(message), dtype=bool)
            jm[jpos] = True
            jm = pa.array(jm)
            message = pc.replace_with_mask(message, jm, mm.field("message").cast(message.type))
            level = pc.replace_with_mask(level, jm, mm.field("level").cast(level.type))
        is_cont[nxt] = True
        left = np.setdiff1d(left, nxt)
    message = pc.fill_null(message, "")
    # ---- multi-line messages inside one line (JSON layouts: "message": "head\n\tmore\n"): the
    # first line is the head message, the rest its continuation text (like a multi-line entry)
    inline_cont = None
    if heads.json and len(message) and pc.any(pc.match_substring(message, "\n")).as_py():
        sp = _extract(message, r"(?s)^(?P<h>[^\n]*)\n(?P<c>.*)$")
        multi = sp.is_valid()
        inline_cont = _nullify_empty(
            pc.if_else(multi, pc.utf8_rtrim(sp.field("c"), characters="\r\n"), pa.scalar(None, message.type))
        )
        message = pc.if_else(multi, pc.utf8_rtrim(sp.field("h"), characters="\r"), message)
    # ---- continuations and unparsable lines
    if len(left):
        sub = _take(text, left)
        c = _mask(PR.match(sub, L.CONTINUATION))
        if (~c).any():
            # a continuation-looking line behind a k8s/viewer timestamp
            m = _extract(_take(sub, np.nonzero(~c)[0]), L.TS_PREFIX)
            inner_c = _mask(PR.match(pc.fill_null(m.field("rest"), ""), L.CONTINUATION)) & _mask(m.is_valid())
            c[np.nonzero(~c)[0][inner_c]] = True
        is_cont[left[c]] = True
        un = left[~c]
        cls[un] = 3
        qreason[un] = "unparsable_layout"
        qdetail[un] = "no known layout matches"
    # ---- timestamps of heads
    ts_ms = _head_timestamps(head_t, settings.default_timezone)
    if ts_ms.null_count and len(head_t):
        ts_ms = _located_timestamps(head_t, ts_ms, settings)
    ts_np = _np(pc.fill_null(ts_ms, -1)) if len(ts_ms) else np.zeros(0, np.int64)
    has_ts = ts_np >= 0
    if has_ts.any():
        tv = ts_np[has_ts]
        audit["first_ts"] = datetime.fromtimestamp(int(tv.min()) / 1000, tz=UTC)
        audit["last_ts"] = datetime.fromtimestamp(int(tv.max()) / 1000, tz=UTC)
        prev_max = np.maximum.accumulate(tv)
        audit["out_of_order_lines"] = int((tv[1:] < prev_max[:-1]).sum())
    audit["layouts"] = sorted(set(pc.unique(layout_col).to_pylist())) if len(head_t) else []
    # ---- group candidates → dialects
    # (once per distinct message when the file repeats its messages a lot, as clients do)
    if _repetitive(message):
        menc = pc.dictionary_encode(message)
        mcodes = _np(menc.indices)
        cand = _mask(PR.match(menc.dictionary, D.GROUP_PREFILTER))[mcodes]
        ccodes = mcodes[cand]
    else:
        cand = _mask(PR.match(message, D.GROUP_PREFILTER))
        ccodes = None
    events = None
    if cand.any():
        cpos = np.nonzero(cand)[0]
        if ccodes is None:
            ccodes = _np(pc.dictionary_encode(_take(message, cpos)).indices)
        ev, unmatched = _candidate_events(cpos, ccodes, message, head_t, layout_col)
        if unmatched.any():
            ev, message = _wrapped_lines(cpos, unmatched, ev, message, head_t, layout_col, text, cls, is_cont, qreason, qdetail)
        un_h = cpos[unmatched]
        line_un = head_rows[un_h]
        cls[line_un] = 3
        qreason[line_un] = "group_line_not_understood"
        qdetail[line_un] = "no dialect matches this group-related message"
        if len(un_h):
            gq = _extract(_take(message, un_h), r"(?:groupId=|[Gg]roup[ =]\"?)(?P<g>[\w.\-]+)").field("g")
            for r, g in zip(line_un, gq.to_pylist()):
                qgroup[int(r)] = g or None
        if ev is not None and len(ev):
            evh = _np(ev["_row"])
            kind = ev["kind"].combine_chunks()
            notevent = _mask(pc.equal(kind, ""))
            # recognised non-events count as unrelated (cls stays 0)
            if notevent.any():
                ev = ev.filter(pa.array(~notevent))
                evh = evh[~notevent]
            if heads.json:
                ev = _json_event_fields(ev, head_t, evh)
            # lines that name no group take it from their context (same file), see _attribute_groups
            if 0 < ev["group_id"].null_count < len(ev):
                gids, _ = _attribute_groups(ev, _take(message, evh), np.where(has_ts[evh], ts_np[evh], -1))
                ev = ev.set_column(ev.column_names.index("group_id"), "group_id", gids)
            nogroup = _mask(pc.is_null(ev["group_id"]))
            if nogroup.any():
                lr = head_rows[evh[nogroup]]
                cls[lr] = 3
                qreason[lr] = "group_unknown"
                for r, dname in zip(lr, ev["dialect"].filter(pa.array(nogroup)).to_pylist()):
                    qdetail[r] = f"recognised ({dname}) but neither the line nor its context names the group"
            okm = ~nogroup
            if not okm.all():
                ev = ev.filter(pa.array(okm))
                evh = evh[okm]
            # several events of one line (deleted groups) count once
            cls[head_rows[evh]] = 1
            if "_msg" in ev.column_names:
                # (message-first: the message a dialect matched, without what wrapped it)
                alt = ev["_msg"].combine_chunks()
                has_alt = _mask(pc.is_valid(alt))
                if has_alt.any():
                    mm = np.zeros(len(message), dtype=bool)
                    mm[evh[has_alt]] = True
                    message = pc.replace_with_mask(
                        message, pa.array(mm), alt.filter(pa.array(has_alt)).cast(message.type)
                    )
                ev = ev.drop_columns(["_msg"])
            # a line without a timestamp of its own keeps its place in the file: it takes the
            # time of the nearest earlier line that has one (null when none has), flagged
            ts_inferred = ~has_ts
            if ts_inferred[evh].any():
                last = np.maximum.accumulate(np.where(has_ts, np.arange(len(has_ts)), -1))
                src = last[evh]
                fill = np.where(src >= 0, ts_np[np.maximum(src, 0)], 0)
                ev_ts = pa.array(np.where(has_ts[evh], ts_np[evh], fill), pa.int64(), mask=src < 0)
            else:
                ev_ts = None
            events = _finish_events(
                ev,
                evh,
                head_t,
                head_rows,
                message,
                level,
                ts_ms,
                text,
                is_cont,
                cls,
                source_file,
                cluster,
                run_id,
                inline_cont,
                ev_ts,
                ts_inferred[evh],
                audit.get("content_sha256"),
            )
    # ---- continuation classes
    if is_cont.any():
        cont_rows = np.nonzero(is_cont)[0]
        last_non = np.maximum.accumulate(np.where(~is_cont, np.arange(n), -1))
        head_of = last_non[cont_rows]
        orphan = head_of < 0
        if orphan.any():
            o = cont_rows[orphan]
            cls[o] = 3
            qreason[o] = "unparsable_layout"
            qdetail[o] = "continuation line without a head line"
        cr, ho = cont_rows[~orphan], head_of[~orphan]
        hc = cls[ho]
        cls[cr[hc == 1]] = 2
        cls[cr[hc == 0]] = 0
        qc = hc == 3
        if qc.any():
            q_rows = cr[qc]
            cls[q_rows] = 3
            qreason[q_rows] = qreason[ho[qc]]
            for r, h in zip(q_rows, ho[qc]):
                qdetail[r] = f"continuation of line {int(h) + 1}"
                if int(h) in qgroup:
                    qgroup[int(r)] = qgroup[int(h)]
    audit["events"] = int((cls == 1).sum())
    audit["continuations"] = int((cls == 2).sum())
    audit["unrelated"] = int((cls == 0).sum())
    audit["quarantined"] = int((cls == 3).sum())
    # ---- quarantine rows
    qrows = np.nonzero(cls == 3)[0]
    if len(qrows):
        reasons, counts = np.unique(qreason[qrows].astype(str), return_counts=True)
        audit["quarantine_reasons"] = {str(r): int(c) for r, c in zip(reasons, counts)}
        unread = qrows[qreason[qrows] == "unparsable_layout"]
        if len(unread):
            audit["unreadable_example"] = _decode_lossy(
                text[int(unread[0])].as_py().encode("utf-8", "replace"), 300
            )
    quarantine = empty_quarantine()
    if len(qrows):
        # layout of the quarantined lines that are heads (null for the others)
        hp = np.minimum(np.searchsorted(head_rows, qrows), max(len(head_rows) - 1, 0))
        is_h = (head_rows[hp] == qrows) if len(head_rows) else np.zeros(len(qrows), dtype=bool)
        q_layout = layout_col.take(pa.array(hp, pa.int64(), mask=~is_h)) if len(head_rows) else None
        raw_txt = _take(text, qrows).to_pylist()
        badset = bad[qrows]
        if badset.any():
            braw = _take(lines, qrows[badset]).to_pylist()
            bi = iter(braw)
            raw_txt = [
                _decode_lossy(next(bi), settings.raw_keep_bytes) if b else t for t, b in zip(raw_txt, badset)
            ]
        quarantine = pa.table({
            "cluster": _repeat(cluster, len(qrows)),
            "source_file": _repeat(source_file, len(qrows)),
            "line_no": pa.array(qrows + 1, pa.int64()),
            "reason": pa.array(qreason[qrows].tolist(), pa.string()),
            "detail": pa.array(qdetail[qrows].tolist(), pa.string()),
            "layout": q_layout if q_layout is not None else pa.nulls(len(qrows), pa.string()),
            "group_id": pa.array([qgroup.get(int(r)) for r in qrows], pa.string()),
            "raw": pa.array(raw_txt, pa.string()),
            "run_id": _repeat(run_id, len(qrows)),
        }, schema=QUARANTINE_ARROW)  # fmt: skip
    return (events if events is not None else empty_events()), quarantine, audit
