"""The reference reader: what one line of a log file becomes, line by line, in plain Python.

This module is the *specification* of ingestion. :func:`read_bytes` returns exactly what the
vectorised :func:`jobs.ingest.parse.parse_bytes` returns (``tests/ingest/
test_reference_equivalence.py`` checks it on every fixture, sample and simulated corpus, and on
files Hypothesis builds), but it reads one line at a time with Python's ``re`` and the same tables:
:mod:`~jobs.ingest.layouts` (``LAYOUTS``, ``CONTINUATION``, ``JUL_MESSAGE``, ``TS_PREFIX``, the
docker/kubectl prefixes, ``JSON_KEYS``), :mod:`~jobs.ingest.dialects` (``DIALECTS``,
``BODY_PREFIX``, ``GROUP_PREFILTER``, ``ERROR_MESSAGES``), :mod:`~jobs.ingest.timestamps`,
:mod:`~jobs.ingest.general` and :mod:`~jobs.ingest.redaction`. The table regexes are RE2; they run
here through :func:`rx` with RE2's meaning (ASCII ``\\d \\w \\b``, ``\\s`` without ``\\v``, ``$``
only at the end). Read it top to bottom; the steps of one file, in order:

1. **Bytes** (:func:`read_bytes`). Gunzip when the file starts with the gzip magic (a ``.gz`` name
   without it, or a broken stream: ``corrupt_gzip``, an error unless ``on_corrupt: quarantine``);
   sha256 of the content; an empty file is an audit row with 0 lines; a file whose first 8 KiB are
   ≥ 5 % control bytes is ``binary``: one quarantine row for the file.
2. **Lines** (:func:`_decode`). Split at ``\\n`` (line numbers from 1). A line longer than
   ``max_line_bytes`` is ``line_too_long``; one with a NUL byte ``binary``; one that is not UTF-8
   ``binary`` (≥ 2 control bytes or > 30 % non-text bytes) or ``invalid_utf8``. Trailing ``\\r``
   and ANSI colours are removed.
3. **Paste** (:func:`unwrap_paste`): terminal box borders (when the first 64 KiB hold one), an
   e-mail quote ``>`` (when most of the first 400 non-blank lines have it) and an indentation every
   non-blank line shares are removed.
4. **Wrapping prefixes**: when one of the first 400 lines starts with ``svc  | `` (docker compose)
   or ``[pod/name/container] `` (kubectl), every line loses it; the layouts are named
   ``docker+…`` / ``kubectl+…`` (``kubectl+`` when any line had a pod).
5. **Layouts** (:func:`_read_heads`). A blank line is unrelated. The JSON lines
   ``envelopes.json_offered`` offers are set aside for 5b. Each other line is a *head* of the
   first layout whose regex matches it: the declared layouts (``settings.layouts``), then
   :data:`~jobs.ingest.layouts.LAYOUTS` in table order with the layouts that match none of the
   file's first 400 non-blank lines moved to the end; ``json`` (``JSON_LINE``) is tried first when
   more than half of those lines are JSON, else last. A line none matches but that starts with a
   viewer's timestamp (``TS_PREFIX``) is tried again without it (layout ``ts+…``; the timestamp is
   kept as ``pts``). JSON fields come from the key families of ``JSON_NAMES`` (first key present).
5b. **Envelopes** (:func:`_peel`, ``docs/envelopes.md``): the set-aside JSON lines and the lines no
   layout read that ``envelopes.text_offered`` offers are peeled by :func:`jobs.ingest.envelopes.peel_lines`
   (split CRI / docker pieces joined into their first line, the others continuations of it; an
   envelope holding nothing readable ``unreadable_envelope``); the inner lines are read by the
   layouts (ordered by their own sample) and, when still unread, by the steps below (an
   enveloped line is a head unless continuation-shaped). A head of a peeled line gets the
   envelope's time as ``pts`` when it has none and the envelopes' names before its layout.
6. **General reader** (:func:`_general_head`): a line still unread (except the line after a
   ``jul`` head) is a head of layout ``general`` when it has a timestamp (``timestamps.LOCATE``;
   within its first 48 characters, two leading timestamps: the second is the application's), or a
   level word, or passes the group prefilter; a continuation-shaped line only when a timestamp
   leads it. The level, a ``(logger)`` tail or logger word and the message are found around it.
7. **JUL** (:func:`_messages_and_continuations`): the ``LEVEL: message`` line after a ``jul`` head gives the head its message and level,
   and is that head's continuation. **Multi-line JSON messages**: the first line of a JSON
   ``message`` holding newlines is the message, the rest the event's continuation text.
8. **Continuations**: a line left that matches ``CONTINUATION`` (stack traces, indented blocks),
   also behind a ``TS_PREFIX`` timestamp, continues the entry above it; any other line is
   ``unparsable_layout``.
9. **Timestamps** (:func:`_timestamps`): the head's ``ts`` (else ``pts``; ``pts`` alone is the
   event's ``envelope_ts``, :func:`jobs.ingest.envelopes.envelope_times`) through
   ``epoch_ms.parse_timestamps``; the forms it does not read through ``timestamps.to_iso`` (log4j
   ``DATE``, zone words, syslog with the year of the file's first dated line or
   ``default_year``, a time of day with its date by :func:`jobs.ingest.day_dates.time_only_dates`:
   a dated head of the file, else ``default_date``'s, the file name's or the modification time's,
   counted in the audit's ``dated_from``).
10. **Group prefilter**: a head whose message does not match ``GROUP_PREFILTER`` is unrelated.
11. **Dialects and events**: :mod:`jobs.ingest.reference_events` (context prefix, dialect
    precedence, message-first candidates, hard-wrapped lines, event fields, librdkafka group
    carry, deleted-groups explosion, JSON keys, context attribution, inferred timestamps,
    redaction).
12. **Accounting** (:func:`_account`): every line is exactly one of event, continuation (of an
    event), unrelated, quarantined; a continuation takes the class of the head above it (a
    quarantined head's continuations are quarantined, detail ``continuation of line N``); one with
    no head above it is ``unparsable_layout``; a joined piece takes the class of the line it
    joins. Quarantine rows keep the text as written (the first ``raw_keep_bytes`` bytes of a bad
    line). The audit row counts them all.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from jobs.ingest import day_dates as DD
from jobs.ingest import dialects as D
from jobs.ingest import envelopes as E
from jobs.ingest import epoch_ms as EM
from jobs.ingest import general as G
from jobs.ingest import layouts as L
from jobs.ingest import line_prefixes as LP
from jobs.ingest import reference_events as RE
from jobs.ingest import timestamps as TS
from jobs.ingest.files import open_file
from jobs.ingest.model import QUARANTINE_ARROW, IngestSettings
from jobs.ingest.reference_model import File, Head, rx  # noqa: F401 - the reader's model, re-exported

SAMPLE = 400  # lines of a file looked at to order the layouts / spot prefixes and pastes
_BOX = "\u2502\u2503\u2551"  # │ ┃ ║


# ------------------------------------------------------------------------------ 1. bytes
def _audit(source_file: str, cluster: str, run_id: str | None, data: bytes) -> dict[str, Any]:
    return {
        "cluster": cluster, "run_id": run_id, "source_file": source_file, "content_sha256": None,
        "bytes": len(data), "compressed": False, "total_lines": 0, "events": 0, "continuations": 0,
        "unrelated": 0, "quarantined": 0, "duplicate_of": None, "error": None, "first_ts": None,
        "last_ts": None, "out_of_order_lines": 0, "layouts": [], "quarantine_reasons": {},
        "unreadable_example": None,
    }  # fmt: skip


def _file_row(
    source_file: str, cluster: str, run_id: str | None, reason: str, detail: str | None
) -> pa.Table:
    row = {"cluster": cluster, "source_file": source_file, "line_no": None, "reason": reason,
           "detail": detail, "layout": None, "group_id": None, "raw": None, "run_id": run_id}  # fmt: skip
    return pa.Table.from_pylist([row], schema=QUARANTINE_ARROW)


def read_bytes(
    data: bytes,
    source_file: str,
    cluster: str = "default",
    settings: IngestSettings | None = None,
    run_id: str | None = None,
    mtime_ms: int | None = None,
) -> tuple[pa.Table, pa.Table, dict[str, Any]]:
    """``(events, quarantine, audit)`` of one file's content, as :func:`jobs.ingest.parse.parse_bytes`."""
    settings = settings or IngestSettings()
    audit = _audit(source_file, cluster, run_id, data)
    no_events = RE.events_table([])
    opened = open_file(data, source_file, settings.on_corrupt)  # (gunzip, sha256, binary: one rule)
    audit["compressed"], audit["content_sha256"] = opened.compressed, opened.sha256
    if opened.reason is not None:
        audit["error"], audit["quarantine_reasons"] = opened.error, {opened.reason: 1}
        return no_events, _file_row(source_file, cluster, run_id, opened.reason, opened.detail), audit
    data = opened.data
    if not data:
        return no_events, QUARANTINE_ARROW.empty_table(), audit
    f = _decode(data, settings)
    audit["total_lines"] = len(f.raw)
    label = _unwrap(f, data)
    line_pts: list[str | None] = []
    if (lp := LP.line_prefix(f.text[:SAMPLE])) is not None:  # (a supervisor's prefix on every line)
        f.text, line_pts = (list(x) for x in zip(*(LP.peel(t, rx(lp)) for t in f.text)))
    _read_heads(f, settings, label)
    for r, h in f.heads.items() if line_pts else ():  # (its time: the envelope time of a head without one)
        h.pts = h.pts or line_pts[r]
    _messages_and_continuations(f)
    _timestamps(f, settings, audit, DD.file_dates(source_file, settings.default_date, mtime_ms, settings.default_timezone))
    events = RE.read_events(f, settings, source_file, cluster, run_id, audit["content_sha256"])
    _account(f)
    heads = [f.heads[r] for r in sorted(f.heads)]
    if dated := DD.dated_from([h.dated_by for h in heads], [f.cls[h.row] == "event" for h in heads]):
        audit["dated_from"] = dated
    return RE.events_table(events), _quarantine_rows(f, settings, source_file, cluster, run_id, audit), audit


# ------------------------------------------------------------------------------ 2. lines
def _bad_line(raw: bytes, settings: IngestSettings) -> tuple[str, str] | None:
    if len(raw) > settings.max_line_bytes:
        return "line_too_long", f"{len(raw)} bytes > {settings.max_line_bytes}"
    if b"\x00" in raw:
        return "binary", "NUL bytes"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        ctrl = sum(1 for ch in raw if ch < 9 or 13 < ch < 32 or ch == 127)
        if ctrl >= 2 or ctrl + sum(1 for ch in raw if ch >= 128) > 0.3 * max(1, len(raw)):
            return "binary", "non-text bytes"
        return "invalid_utf8", "invalid UTF-8 byte sequence"
    return None


def _decode(data: bytes, settings: IngestSettings) -> File:
    raw = data.split(b"\n")
    if data.endswith(b"\n"):
        raw.pop()
    n = len(raw)
    f = File(raw, [""] * n, [False] * n, ["unrelated"] * n, [None] * n, [None] * n, is_cont=[False] * n)
    for i, b in enumerate(raw):
        bad = _bad_line(b, settings)
        if bad:
            f.bad[i] = True
            f.quarantine(i, *bad)
        else:
            f.text[i] = rx(L.ESCAPED_END).sub("", rx(L.ANSI).sub("", b.decode("utf-8").rstrip("\r")))
    return f


# ------------------------------------------------------------------------------ 3-4. paste, prefixes
def unwrap_paste(text: list[str], data: bytes) -> list[str]:
    if any(c.encode() in data[:65536] for c in _BOX):
        text = [rx(f"^[{_BOX}]+ ?|\\s*[{_BOX}]+\\s*$").sub("", t) for t in text]
    nonblank = [t for t in text[:SAMPLE] if t.strip()]
    if not nonblank:
        return text
    if sum(t.startswith(">") for t in nonblank) * 2 > len(nonblank):
        text = [rx(r"^>+ ?").sub("", t, count=1) for t in text]
        nonblank = [rx(r"^>+ ?").sub("", t, count=1) for t in nonblank]
    if nonblank[0][:1] in (" ", "\t"):
        k = min(len(t) - len(t.lstrip()) for t in nonblank)
        if k > 0 and all(not t.strip() or len(t) - len(t.lstrip()) >= k for t in text):
            text = [t[k:] for t in text]
    return text


def _unwrap(f: File, data: bytes) -> str:
    """Steps 3-4; returns the wrapping prefix label ("", "docker+" or "kubectl+")."""
    f.text = unwrap_paste(f.text, data)
    docker, kubectl = rx(L.DOCKER_PREFIX), rx(L.KUBECTL_PREFIX)
    if not any(docker.search(t) or kubectl.search(t) for t in f.text[:SAMPLE]):
        return ""
    pods = False
    for i, t in enumerate(f.text):
        m = docker.search(t) or kubectl.search(t)
        if m:
            pods |= "pod" in m.groupdict()
            f.text[i] = m.group("rest")
    return "kubectl+" if pods else "docker+"


# ------------------------------------------------------------------------------ 5. layouts
def _json_value(v: Any) -> str | None:
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    raise TypeError("not a scalar")


def _flatten(obj: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in obj.items():
        if isinstance(v, dict):
            for k2, v2 in _flatten(v, f"{prefix}{k}.").items():
                if out.get(k2) is None:
                    out[k2] = v2
        elif out.get(prefix + k) is None:
            out[prefix + k] = v
    return out


def _json_fields(line: str) -> dict[str, str | None]:
    """The key families of a JSON line (first key of ``JSON_NAMES`` with a value); a line that
    does not parse as an object of scalars: the per-key regexes ``JSON_KEYS``."""
    try:
        flat = _flatten(json.loads(line))
        out: dict[str, str | None]
        out = {key: next((_json_value(flat[n]) for n in names if flat.get(n) is not None), None)
               for key, names in L.JSON_NAMES.items()}  # fmt: skip
        for key, suffixes in L.JSON_SUFFIXES.items():  # (nested MDC keys, in key order)
            if out[key] is None:
                out[key] = next((_json_value(v) for k, v in flat.items()
                                 if isinstance(v, (str, int, float)) and any(k.endswith("." + x) for x in suffixes)),
                                None)  # fmt: skip
        for sec, nano in L.JSON_EPOCH_PAIRS:  # (seconds and nanoseconds in two keys)
            if out["ts"] is None and flat.get(sec) is not None and flat.get(nano) is not None:
                out["ts"] = L.epoch_pair_text(flat[sec], flat[nano])
        return _response_error(out)
    except (ValueError, TypeError, AttributeError):
        pass
    out = {}
    for key, pattern in L.JSON_KEYS.items():
        m = rx(pattern).search(line)
        v = (m.group("v") or (m.groupdict().get("n") or "")) if m else ""
        if not v and key in L.JSON_NESTED:
            m2 = rx(L.JSON_NESTED[key]).search(line)
            v = m2.group("v") if m2 else ""
        out[key] = v or None
    msg = out["message"] or ""
    for a, b in (("\\n", "\n"), ("\\t", "\t"), ("\\r", ""), ('\\"', '"'), ("\\/", "/"), ("\\\\", "\\")):
        msg = msg.replace(a, b)
    out["message"] = msg
    return _response_error(out)


def _response_error(js: dict[str, str | None]) -> dict[str, str | None]:
    """An enveloped message unwrapped (``L.ENVELOPE``: the text is the message, the inner object's
    keys fill the missing fields); a kafkajs response line's ``error`` key appended to its message
    (``L.RESPONSE_MESSAGE``)."""
    env = rx(L.ENVELOPE).search(js.get("message") or "")
    if env:
        js["message"] = env.group("m")
        for key in L.ENVELOPE_KEYS:
            m = rx(L.JSON_KEYS[key]).search(env.group("j"))
            v = (m.group("v") or (m.groupdict().get("n") or "")) if m else ""
            if js.get(key) is None and v:
                js[key] = v
    err, msg = js.get("j_error"), js.get("message")
    if err and msg is not None and rx(L.RESPONSE_MESSAGE).search(msg):
        js["message"] = f"{msg} error: {err}"
    return js


def _group_text(groups: dict[str, str | Any], name: str) -> str | None:
    """A layout's field: "" when its group took no text, None when the layout has no such group."""
    return (groups[name] or "") if name in groups else None


def _match_layout(row: int, text: str, order: list[L.Layout], json_first: bool, label: str) -> Head | None:
    """The head of the first layout of ``order`` (JSON first or last) that matches ``text``."""
    is_json = bool(rx(L.JSON_LINE).search(text))
    if json_first and is_json:
        return _json_head(row, text, label)
    for lay in order:
        m = rx(lay.regex).search(text)
        if m:
            g = m.groupdict()
            ts, level, logger, thread, message = (
                _group_text(g, k) for k in ("ts", "level", "logger", "thread", "message")
            )
            return Head(row, label + lay.id, ts, level, logger, thread, message)
    return _json_head(row, text, label) if is_json else None


def _json_head(row: int, text: str, label: str) -> Head:
    js = _json_fields(text)
    return Head(row, label + "json", js["ts"], js["level"], js["logger"], js["thread"], js["message"] or "",
                json={k: js[k] for k in L.JSON_EXTRA})  # fmt: skip


def layout_order(sample: list[str], settings: IngestSettings) -> list[L.Layout]:
    hit = [any(rx(lay.regex).search(t) for t in sample) for lay in L.LAYOUTS]
    table = [lay for lay, h in zip(L.LAYOUTS, hit) if h] + [lay for lay, h in zip(L.LAYOUTS, hit) if not h]
    return list(settings.layouts) + table


def _mostly_json(sample: list[str]) -> bool:
    return sum(bool(rx(L.JSON_LINE).search(t)) for t in sample) * 2 > len(sample)


def _read_heads(f: File, settings: IngestSettings, label: str) -> None:
    """Steps 5-6: the head of every line a layout, an envelope's inner line, a layout behind a
    viewer's timestamp or the general reader reads."""
    rows = [i for i, t in enumerate(f.text) if not f.bad[i] and t]  # (blank lines: unrelated)
    offered = E.offered_rows(f.text, rows)
    first = [i for i in rows if i not in set(offered)]
    sample = [f.text[i] for i in first[:SAMPLE]]
    order = layout_order(sample, settings)
    json_first = _mostly_json(sample)
    for i in first:
        h = None if settings.layouts else _json_behind(i, f.text[i], label, L.JSON_RECORD_BEHIND)
        if h := h or _match_layout(i, f.text[i], order, json_first, label):
            f.heads[i] = h
    offered = sorted(offered + [i for i in first if i not in f.heads and E.text_offered(f.text[i])])
    if offered:
        _peel(f, offered, settings, label)
        rows = [i for i in rows if f.text[i] and not f.is_cont[i] and f.cls[i] != "quarantined"]
    behind_ts = {i: m for i in rows if i not in f.heads and (m := rx(L.TS_PREFIX).search(f.text[i]))}
    json_first = _mostly_json([m.group("rest") for m in behind_ts.values()][:SAMPLE])
    for i, m in behind_ts.items():
        if h := _match_layout(i, m.group("rest"), order, json_first, label + "ts+"):
            h.pts = m.group("pts")
            f.heads[i] = h
    # a JSON object behind a log viewer's columns: the object is the line (layout col+json)
    for i in [i for i in rows if i not in f.heads]:
        if h := _json_behind(i, f.text[i], label, L.JSON_BEHIND):
            f.heads[i] = h
    after_jul = {r + 1 for r, h in f.heads.items() if L.next_line(h.layout)}
    for i in [i for i in rows if i not in f.heads and i not in after_jul]:
        if h := _general_head(i, f.text[i], label, i in f.env):
            f.heads[i] = h
    for i, (pts, env_label) in f.env.items():  # (the envelope's time and names)
        if (h := f.heads.get(i)) is not None:
            h.pts, h.layout = h.pts or pts, env_label + h.layout
    if regex := G.layout_map_tail([f.heads[i].message for i in sorted(f.heads)[: G.MAP_SAMPLE]]):
        for h in f.heads.values():  # (a map the layout writes after every message)
            h.message = rx(regex).sub("", h.message, count=1) if h.message else h.message


def _json_behind(row: int, text: str, label: str, regex: str) -> Head | None:
    """A JSON object behind some text (``regex``'s ``rest``: :data:`L.JSON_BEHIND`, a viewer's
    columns, after the layouts; :data:`L.JSON_RECORD_BEHIND`, a record with a message key, before
    any layout takes the record for its message): the object is the line (``col+json``)."""
    m = rx(regex).search(text) if '{"' in text else None
    if m is None or not rx(L.JSON_LINE).search(m.group("rest")):
        return None
    return _json_head(row, m.group("rest"), label + "col+")


def _peel(f: File, offered: list[int], settings: IngestSettings, label: str) -> None:
    """Step 5b: the offered lines' envelopes peeled (:mod:`jobs.ingest.envelopes`), split pieces
    joined (the later pieces: continuations), and the inner lines read by the layouts (ordered by
    the inner lines' own sample)."""
    pf = E.peel_lines(offered, [f.text[i] for i in offered])
    for r, first in pf.absorbed.items():
        f.orig[r], f.text[r], f.is_cont[r] = f.text[r], "", True
        f.joined[r] = first
    for r, p in pf.lines.items():
        f.orig[r], f.text[r] = f.text[r], p.text
        f.env[r] = (p.pts, p.label)
        if p.bad is not None:
            f.quarantine(r, "unreadable_envelope", p.bad)
    second = [i for i in offered if f.text[i] and not f.is_cont[i] and f.cls[i] != "quarantined"]
    sample = [f.text[i] for i in second[:SAMPLE]]
    order, json_first = layout_order(sample, settings), _mostly_json(sample)
    for i in second:
        if h := _match_layout(i, f.text[i], order, json_first, label):
            f.heads[i] = h


def _messages_and_continuations(f: File) -> None:
    """Steps 7-8: the message lines of two-line entries, multi-line JSON messages, continuations,
    unparsable lines."""
    for r in sorted(f.heads):
        h, nxt = f.heads[r], r + 1
        pattern = L.next_line(h.layout)
        two = pattern and nxt < len(f.text) and nxt not in f.heads and not f.bad[nxt]
        if two and (m := rx(pattern).search(f.text[nxt])):
            h.message = m.group("message")
            h.level = m.groupdict().get("level") or h.level
            f.is_cont[nxt] = True
    for h in f.heads.values():
        h.message = h.message or ""
        if h.layout.endswith("json") and "\n" in h.message:
            first, rest = h.message.split("\n", 1)
            h.message, h.inline_cont = first.rstrip("\r"), rest.rstrip("\r\n") or None
    for i, t in enumerate(f.text):
        if f.bad[i] or not t or i in f.heads or f.is_cont[i]:
            continue
        m = rx(L.TS_PREFIX).search(t)
        if rx(L.CONTINUATION).search(t) or (m and rx(L.CONTINUATION).search(m.group("rest"))):
            f.is_cont[i] = True
        else:
            f.quarantine(i, "unparsable_layout", "no known layout matches")
    blocks = RE.continuation_blocks(f)
    for r, h in f.heads.items():  # (a response's error key on an indented line after it)
        if h.message and "[Connection] Response " in h.message:
            h.message = L.block_response_error(h.message, blocks.get(r, []))


# ------------------------------------------------------------------------------ 6. general reader


def _general_head(row: int, text: str, label: str, enveloped: bool = False) -> Head | None:
    """A line of unknown layout read message-first (:mod:`jobs.ingest.general`), or None when it
    is no entry of its own (a line an envelope held is one, unless it is continuation-shaped)."""
    loc = rx(TS.LOCATE).search(text)
    leading = loc is not None and len(loc.group("pre")) <= G.LEADING_MAX
    ts = loc.group("ts") if loc else None
    pts = None
    if loc is not None and leading:
        region = loc.group("rest")
        sec = rx(TS.LOCATE).search(region)
        if sec and len(sec.group("pre")) <= G.SECOND_MAX:  # a viewer's column, then the application's
            pts, ts, region = ts, sec.group("ts"), sec.group("rest")
    else:
        region = loc.group("pre") + " " + loc.group("rest") if loc else text
    lv = rx(G._LEVEL).search(region)
    lg = rx(G._LOGGER_TAIL).search(region)
    logger = (lg.group("lg") or lg.group("lg2")) if lg else None
    if lg:
        region = rx(r"\s*" + G._LOGGER_TAIL).sub("", region, count=1)
    else:
        w = rx(G._LOGGER_WORD).search(text[:160])
        logger = w.group("lg") if w else None
    message = G.cut_lead(region)
    cont = bool(rx(L.CONTINUATION).search(text))
    hint = bool(rx(D.GROUP_PREFILTER).search(text))
    if not ((loc and not cont) or (leading and cont) or ((lv or hint or enveloped) and not cont)):
        return None
    return Head(row, label + "general", ts, lv.group("level") if lv else None, logger, None, message, pts)


# ------------------------------------------------------------------------------ 9. timestamps
def _timestamps(f: File, settings: IngestSettings, audit: dict[str, Any], fd: DD.FileDates) -> None:
    heads = [f.heads[r] for r in sorted(f.heads)]
    raw = [h.ts or h.pts for h in heads]
    ms = EM.parse_timestamps(pa.array(raw, pa.string()), settings.default_timezone).to_pylist()
    year = settings.default_year
    dated = [TS.date_of(r) for r in raw]
    if year is None:
        year = next((int(d[:4]) for d in dated if d), None)
    days, rules = DD.time_only_dates(raw, fd, [h.pts for h in heads])
    for k, h in enumerate(heads):
        h.ts_ms = ms[k]
        if h.ts_ms is None and raw[k] is not None:
            iso = TS.to_iso(raw[k], year=year, date=days[k])
            if iso is not None:
                h.ts_ms = EM.parse_timestamps(pa.array([iso], pa.string()), settings.default_timezone)[
                    0
                ].as_py()
                h.dated_by = rules[k] if h.ts_ms is not None else None
    if any(h.pts is not None for h in heads):
        for h, ms_env in zip(heads, E.envelope_times([h.pts for h in heads], settings.default_timezone, lambda: year)):
            h.env_ms = ms_env
    times = [h.ts_ms for h in heads if h.ts_ms is not None]
    if times:
        audit["first_ts"] = datetime.fromtimestamp(min(times) / 1000, tz=UTC)
        audit["last_ts"] = datetime.fromtimestamp(max(times) / 1000, tz=UTC)
        top, late = times[0], 0
        for t in times[1:]:
            late += t < top
            top = max(top, t)
        audit["out_of_order_lines"] = late
    audit["layouts"] = sorted({h.layout for h in heads})


# ------------------------------------------------------------------------------ 12. accounting
def _account(f: File) -> None:
    """A continuation takes the class of the nearest line above it that is no continuation (a
    joined piece: of the line it joins)."""
    last = -1
    for i in range(len(f.raw)):
        if not f.is_cont[i]:
            last = i
            continue
        head = f.joined.get(i, last)
        if head < 0:
            f.quarantine(i, "unparsable_layout", "continuation line without a head line")
        elif f.cls[head] == "event":
            f.cls[i] = "continuation"
        elif f.cls[head] == "quarantined" and (reason := f.reason[head]) is not None:  # (it always has one)
            f.quarantine(i, reason, f"continuation of line {head + 1}")
            if head in f.qgroup:
                f.qgroup[i] = f.qgroup[head]
        else:
            f.cls[i] = "unrelated"


def _quarantine_rows(
    f: File, settings: IngestSettings, source_file: str, cluster: str, run_id: str | None, audit: dict
) -> pa.Table:
    for c, key in (("event", "events"), ("continuation", "continuations"), ("unrelated", "unrelated"),
                   ("quarantined", "quarantined")):  # fmt: skip
        audit[key] = f.cls.count(c)
    rows: list[dict[str, Any]] = []
    for i, c in enumerate(f.cls):
        if c != "quarantined":
            continue
        raw = (
            f.raw[i][: settings.raw_keep_bytes].decode("utf-8", "backslashreplace")
            if f.bad[i]
            else f.orig.get(i, f.text[i])
        )
        rows.append({
            "cluster": cluster, "source_file": source_file, "line_no": i + 1, "reason": f.reason[i],
            "detail": f.detail[i], "layout": f.heads[i].layout if i in f.heads else None,
            "group_id": f.qgroup.get(i), "raw": raw, "run_id": run_id,
        })  # fmt: skip
    reasons = sorted({r["reason"] for r in rows})
    if rows:
        audit["quarantine_reasons"] = {r: sum(q["reason"] == r for q in rows) for r in reasons}
    unread = [r for r in rows if r["reason"] == "unparsable_layout"]
    if unread:
        ex = unread[0]["raw"]
        audit["unreadable_example"] = ex.encode("utf-8", "replace")[:300].decode("utf-8", "backslashreplace")
    return pa.Table.from_pylist(rows, schema=QUARANTINE_ARROW)
