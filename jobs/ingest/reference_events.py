"""Step 11 of the reference reader (:mod:`jobs.ingest.reference`): what a group line becomes.

For each head whose message passes ``GROUP_PREFILTER``, in file order:

a. **Context prefix** (:func:`split_prefix`): ``BODY_PREFIX`` (``[GroupCoordinator 1]: ``,
   ``[GroupMetadataManager brokerId=1] ``, ``[Consumer clientId=c, groupId=g] `` also behind an MDC
   block, ``[thrd:main]: ``) gives prefix fields; the dialects run on the *body* after it.
b. **Dialects** (:func:`match_dialect`): first the dialects keyed by the body's first word
   (``Dialect.key``), then the keyless ones, each group in table order; a dialect with a ``logger``
   condition needs the head's logger to match it or the message's context prefix to name the same
   source (``SOURCE_PREFIX``), unless it is ``distinctive`` or the logger is unknown (empty, or
   met by no dialect's condition: ``unknown_logger``) and the body is of an open wording of the
   dialect (``D.open_wording``, decided from the catalogue); one with ``needs_prefix`` a client
   prefix. The first whose pattern matches the whole body wins.
c. **Message-first** (:func:`message_first`): when none matches, every candidate start × tail of
   :func:`jobs.ingest.general.message_candidates` is tried; the lowest rank wins, a catch-all
   dialect (``(?P<reason>.*`` …) only when no specific one matches. That candidate becomes the
   event's message.
d. **Hard-wrapped lines** (:func:`_join_wrapped`): a group line still not understood is joined
   with up to 3 following lines that are no entry of their own (``unparsable_layout``, or a
   ``general`` head with neither timestamp nor level): 1, 2, 3 lines, with a space then without;
   the first join a dialect matches makes the event, and the joined lines are its continuation.
   What is left is ``group_line_not_understood``.
e. **Fields** (:func:`event_fields`): named groups; the prefix fills group, client and instance id
   (``groupId=null`` is no group), the coordinator (also from a client's node id,
   2147483647 − id) and the offsets partition; partition / member / assignment lists; ``fixed``
   values; error names of failures (``ERROR_NAME``, else the first ``ERROR_MESSAGES`` text in the
   body); the side (``Worker`` prefix → connect; kafka-python logger or a librdkafka / Go / Python
   layout → other); for side ``other`` the generation and member id anywhere in the body.
f. **Other lines** (:func:`read_events`): a librdkafka line without a group takes the group of the
   last line of the same client instance (``thread``) that names one; "groups were deleted: g1,
   g2" is one event per group; recognised lines with no kind are unrelated; JSON keys (``groupId``
   …) fill what the message does not state; context attribution (:func:`_attribute`); an event
   still without a group is ``group_unknown``; a head without a timestamp takes the previous
   head's (``ts_inferred``); continuation text; redacted ids become per-file placeholders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pyarrow as pa

from jobs.ingest import context as C
from jobs.ingest import dialect_model as DM
from jobs.ingest import dialects as D
from jobs.ingest import general as G
from jobs.ingest import layouts as L
from jobs.ingest import partition_reprs as PR
from jobs.ingest import records as REC
from jobs.ingest import redaction as RD
from jobs.ingest.model import EVENTS_ARROW
from jobs.ingest.reference_model import File, Head, rx

_KEYED: dict[str, list[int]] = {}
for _i, _d in enumerate(D.DIALECTS):
    if _d.key is not None:
        _KEYED.setdefault(_d.key, []).append(_i)
_KEYLESS = [i for i, d in enumerate(D.DIALECTS) if d.key is None]
_CATCHALL = [DM.is_catchall(d) for d in D.DIALECTS]
_FAIL_KINDS = ("join_failed", "sync_failed", "heartbeat_failed", "offset_commit_failed")
_STR_FIELDS = ("group_id", "member_id", "group_instance_id", "client_id", "host", "reason", "state", "protocol",
               "error", "old_member_id", "operation", "protocol_type", "from_state")  # fmt: skip
_FOREIGN_LAYOUT = r"(?:^|\+)(?:librdkafka|golog|python|python-basic)$"
_RDKAFKA_LEVELS = dict(
    zip("01234567", ("EMERG", "ALERT", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG"))
)
MAX_INT = 2147483647
ATTRIBUTION_WINDOW_MS = 1000
WRAP_MAX = 3


@dataclass
class Match:
    dialect: int
    groups: dict[str, str | None]
    prefix: dict[str, str | None]
    body: str
    msg: str | None = None  # message-first: the text the dialect matched


# ------------------------------------------------------------------------------ a-c. dialects
def split_prefix(message: str) -> tuple[bool, dict[str, str | None], str]:
    m = rx(D.BODY_PREFIX).search(message)
    if not m:
        return False, dict.fromkeys(D.PREFIX_FIELDS), message
    return True, {k: m.group(k) or None for k in D.PREFIX_FIELDS}, message[m.end() :]


def match_dialect(message: str, logger: str) -> Match | None:
    has_prefix, prefix, body = split_prefix(message)
    lead = rx(r"^(?P<w>\S*)").search(body)  # (always matches)
    word = lead.group("w") if lead else ""
    for di in _KEYED.get(word, []) + _KEYLESS:
        d = D.DIALECTS[di]
        if d.needs_prefix and not has_prefix:
            continue
        if (lg := DM.logger_condition(d)) is not None and not rx(lg).search(logger):
            pre = DM.SOURCE_PREFIX.get(lg)
            if (pre is None or not message.startswith(pre)) and not _open(d, logger, body):
                continue
        m = rx(d.pattern).search(body)
        if m:
            # an empty sub-match is no value, except an empty partition list (a fact)
            groups = {k: v or ("" if k == "partitions_raw" else None) for k, v in m.groupdict().items()}
            return Match(di, groups, prefix, body)
    return None


def unknown_logger(logger: str) -> bool:
    """No logger condition of the table (:data:`D.LOGGER_CONDITIONS`) names ``logger`` (or it is empty)."""
    return not any(rx(c).search(logger) for c in D.LOGGER_CONDITIONS)


def _open(d: D.Dialect, logger: str, body: str) -> bool:
    """A message whose logger is unknown, of an open wording of the gated dialect ``d``
    (:func:`D.open_wording`)."""
    ow = D.open_wording(d)
    return ow is not None and unknown_logger(logger) and (ow == "" or rx(ow).search(body) is not None)


def message_first(message: str, logger: str) -> Match | None:
    cands, _, ranks = G.message_candidates([message])
    best: tuple[int, Match, str] | None = None
    for text, rank in zip(cands, ranks):
        m = match_dialect(text, logger)
        if m is not None:
            key = rank + (_CATCHALL[m.dialect] << 20)
            if best is None or key < best[0]:
                best = (key, m, text)
    if best is None:
        return None
    best[1].msg = best[2]
    return best[1]


def understand(message: str, logger: str | None) -> Match | None:
    """The dialect of a message where the layout found it; else (or when that is a catch-all) the
    message-first match, a catch-all only when no specific dialect matches any candidate. Blanks at
    the message's end are not part of it (``DM.TRAILING_BLANKS``)."""
    message = message.rstrip(DM.TRAILING_BLANKS)
    m = match_dialect(message, logger or "")
    if m is not None and not _CATCHALL[m.dialect]:
        return m
    alt = message_first(message, logger or "")
    if m is None:
        return alt
    return alt if alt is not None and not _CATCHALL[alt.dialect] else m


# ------------------------------------------------------------------------------ e. fields
def split_list(raw: str | None, strip: str) -> list[str] | None:
    """``"[a, b]"``/``"Set(a, b)"``/``"a, b"`` → ``["a", "b"]`` (None stays None)."""
    if raw is None:
        return None
    parts = rx(r",\s*").split(rx(strip).sub("", raw))
    return [p.strip() for p in parts if p.strip()]


def partitions(raw: str | None) -> list[str] | None:
    """A captured partition list in any client's printed form (:func:`partition_reprs.parse`)."""
    return PR.parse(raw)


_MEMBER_STRIP = r"^\s*(?:Set|List|HashSet|frozenset|set)?[\[({]+|[\])}]+\s*\.?$"


def assignment(raw: str | None) -> list[tuple[str, list[str]]] | None:
    if raw is None:
        return None
    found = rx(r"([^\s{},=]+)=Assignment\(partitions=\[([^\]]*)\]").findall(raw)
    return [(m, [p.strip() for p in parts.split(",") if p.strip()]) for m, parts in found]


def instance_id(v: str | None) -> str | None:
    """Scala ``Some(i)``/``None``, Java ``null``/``Optional[i]``/``Optional.empty`` → i or None."""
    if v is None:
        return None
    v = rx(r"^(?:Some\((.*)\)|Optional\[(.*)\])$").sub(r"\1\2", v)
    return None if v in ("None", "null", "Optional.empty", "") else v


def _int(v: str | None) -> int | None:
    return int(v) if v else None


def _first(*vals: Any) -> Any:
    return next((v for v in vals if v is not None), None)


def _error(body: str) -> str | None:
    m = rx(D.ERROR_NAME).search(body)
    if m and m.group("error"):
        return m.group("error")
    return next((name for needle, name in D.ERROR_MESSAGES if needle in body), None)


def event_fields(mt: Match, logger: str | None, layout: str) -> dict[str, Any]:
    """The typed event fields of one dialect match (``logger``/``layout``: its head's)."""
    d, g, p = D.DIALECTS[mt.dialect], mt.groups, mt.prefix
    ev: dict[str, Any] = {f: g.get(f) for f in _STR_FIELDS}
    ev["group_id"] = _first(ev["group_id"], p["pfx_gid"] if p["pfx_gid"] != "null" else None)
    ev["client_id"] = _first(ev["client_id"], p["pfx_cid"])
    ev["group_instance_id"] = _first(instance_id(ev["group_instance_id"]), p["pfx_iid"])
    node = _int(g.get("node_id"))
    node = MAX_INT - node if node is not None and node > 1 << 30 else node
    ev["coordinator"] = _first(
        _int(g.get("coordinator")), _int(p["pfx_broker"]), _int(p["pfx_broker2"]), node
    )
    ev["offsets_partition"] = _first(_int(g.get("offsets_partition")), _int(p["pfx_opart"]))
    for f in ("generation", "member_count", "static_count", "member_epoch"):
        ev[f] = _int(g.get(f))
    ev["partitions"] = partitions(g.get("partitions_raw"))
    ev["revoked"] = partitions(g.get("revoked_raw"))
    ev["members"] = split_list(g.get("members_raw"), _MEMBER_STRIP)
    ev["assignment"] = assignment(g.get("assignment_raw"))
    ev["static"] = None if g.get("static_word") is None else g["static_word"] == "Static"
    ev["pending"] = ev["unexpected"] = None
    side = d.side
    if side == "client" and p["pfx_ctype"] == "Worker":
        side = "connect"
    if side == "client" and (rx(D.PYTHON_LOGGER).search(logger or "") or rx(_FOREIGN_LAYOUT).search(layout)):
        side = "other"
    ev.update(d.fixed)
    if d.kind in _FAIL_KINDS:
        ev["error"] = _first(ev["error"], _error(mt.body))
    if side == "other":  # non-Java clients: generation / member id anywhere in the message
        gen = rx(r"[Gg]eneration(?:Id| id|_id)?:? ?=?(?P<g>-?\d+)").search(mt.body)
        mem = rx(r"(?:MemberId|[Mm]ember[ _]id):? ?=?'?(?P<m>[\w.-]+)").search(mt.body)
        ev["generation"] = _first(ev["generation"], _int(gen.group("g")) if gen else None)
        ev["member_id"] = _first(ev["member_id"], mem.group("m") if mem else None)
    ev.update(kind=d.kind or "", side=side, dialect=d.id, groups_raw=g.get("groups_raw"))
    return ev


# ------------------------------------------------------------------------------ d. wrapped lines
def _join_wrapped(f: File, cands: list[Head], matches: dict[int, Match]) -> None:
    """Group lines not understood, joined with the following lines that are no entry of their own."""

    def joinable(k: int) -> bool:
        h = f.heads.get(k)
        bare = h is not None and h.layout == "general" and h.ts is None and h.level is None
        is_event = k in matches and D.DIALECTS[matches[k].dialect].kind is not None
        indented = f.is_cont[k] and rx(L.INDENTED_TEXT).search(f.text[k]) is not None
        return (f.reason[k] == "unparsable_layout" or bare or indented) and not is_event

    follow: dict[int, list[int]] = {}
    for h in cands:
        if h.row in matches:
            continue
        # (a two-line entry's message is its second line: what continues it comes after that)
        k = h.row + (2 if L.next_line(h.layout) else 1)
        rows: list[int] = []
        while k < len(f.text) and len(rows) < WRAP_MAX and joinable(k):
            rows.append(k)
            k += 1
        if rows:
            follow[h.row] = rows
    absorbed: set[int] = set()
    for lines in range(1, WRAP_MAX + 1):
        for sep in (" ", ""):
            for r, rows in follow.items():
                if r in matches or r in absorbed or len(rows) < lines:
                    continue
                h = f.heads[r]
                joined = G.cut_logger_tail(
                    (h.message or "").rstrip() + sep + sep.join(f.text[k].strip() for k in rows[:lines])
                )
                m = understand(joined, h.logger)
                if m is None:
                    continue
                matches[r], h.message = m, joined
                for k in rows[:lines]:
                    f.is_cont[k], f.cls[k], f.reason[k], f.detail[k] = True, "unrelated", None, None
                    absorbed.add(k)


# ------------------------------------------------------------------------------ f. events
def read_events(
    f: File, settings: Any, source_file: str, cluster: str, run_id: str | None, sha: str
) -> list[dict]:
    heads = [f.heads[r] for r in sorted(f.heads)]
    cands = [h for h in heads if rx(D.GROUP_PREFILTER).search(h.message or "")]
    matches = {h.row: m for h in cands if (m := understand(h.message or "", h.logger)) is not None}
    _join_wrapped(f, cands, matches)
    evs: list[dict[str, Any]] = []
    last_group: dict[str | None, str] = {}  # librdkafka: per client instance (thread)
    for h in cands:
        if h.row not in matches:
            if not f.is_cont[h.row]:
                f.quarantine(
                    h.row, "group_line_not_understood", "no dialect matches this group-related message"
                )
                g = rx(r"(?:groupId=|[Gg]roup[ =]\"?)(?P<g>[\w.\-]+)").search(h.message or "")
                f.qgroup[h.row] = g.group("g") if g else None
            continue
        ev = event_fields(matches[h.row], h.logger, h.layout)
        if ev["group_id"] is None:
            ev["group_id"] = context_group(h.message, h.thread)
        if ev["side"] == "other":
            if ev["group_id"] is None:
                ev["group_id"] = last_group.get(h.thread)
            else:
                last_group[h.thread] = ev["group_id"]
        ev["_head"] = h
        if ev["groups_raw"] is None:
            evs.append(ev)
        else:  # one event per deleted group
            evs += [{**ev, "group_id": g} for g in split_list(ev["groups_raw"], _MEMBER_STRIP) or []]
    evs = [e for e in evs if e["kind"]]  # recognised lines that carry no group fact: unrelated
    for e in evs:
        j = e["_head"].json
        for fam, col in REC.RECORD_FACTS.items() if j else ():
            v = j.get(fam) or None
            if col == "generation":  # (a whole number, as JSON_KEYS reads it)
                v = int(v) if v and rx(r"^-?\d{1,9}$").search(v) else None
            e[col] = _first(e[col], v)
    _attribute(evs)
    _file_group(evs, sha)
    for e in evs:
        if e["group_id"] is None:
            f.quarantine(e["_head"].row, "group_unknown",
                         f"recognised ({e['dialect']}) but neither the line nor its context names the group")  # fmt: skip
    evs = [e for e in evs if e["group_id"] is not None]
    for e in evs:
        f.cls[e["_head"].row] = "event"
        msg = matches[e["_head"].row].msg
        if msg is not None:
            e["_head"].message = msg
    return _finish(f, evs, heads, source_file, cluster, run_id, sha)


def context_group(message: str | None, thread: str | None) -> str | None:
    """The group a line's context names (:mod:`jobs.ingest.context`): an MDC / key=value group key
    in its text, else the consumer heartbeat thread's group."""
    for text, pattern in ((message, C.TEXT_GROUP), (thread, C.THREAD_GROUP)):
        m = rx(pattern).search(text or "")
        if m and m.group("g") not in C.NO_GROUP:
            return m.group("g")
    return None


def _file_group(evs: list[dict[str, Any]], sha: str | None) -> None:
    """A client line that names no group (a pre-2.3 client, a bare pasted message, a client of
    another language) after attribution: in a file whose lines name exactly one group, it is that
    group's; otherwise it belongs to the file's unnamed group ``unnamed-<sha8>`` (one client's view,
    kept and replayed, never merged across files). Broker lines stay ``group_unknown``."""
    missing = [e for e in evs if e["group_id"] is None and e["side"] != "broker"]
    if not missing:
        return
    named = {e["group_id"] for e in evs if e["group_id"] is not None}
    group = next(iter(named)) if len(named) == 1 else f"unnamed-{(sha or '')[:8]}"
    for e in missing:
        e["group_id"] = group


def _attribute(evs: list[dict[str, Any]]) -> None:
    """Context attribution of events whose line names no group (see ``parse.attribute_groups``):
    a consumer's default client id naming a group of the file; else the nearest earlier event naming one of its member ids (else its instance id) as an id field
    or a whole word of its message; else the nearest earlier event with a group at most 1000 ms
    before. Both only on the same coordinator partition when the prefix gives one."""
    named = [e["group_id"] is not None for e in evs]
    if all(named) or not any(named):
        return
    groups = {e["group_id"] for e in evs if e["group_id"] is not None}
    for e in evs:  # 0. a consumer's default client id "consumer-<g>-<n>" of a group the file names
        m = rx(C.CLIENT_ID_GROUP).search(e["client_id"] or "") if e["group_id"] is None else None
        if m and m.group("g") in groups:
            e["group_id"] = m.group("g")
    named = [e["group_id"] is not None for e in evs]
    if all(named):
        return
    resolved: set[int] = set()

    def mentions(q: int, i: str) -> bool:
        e = evs[q]
        if i in (e["member_id"], e["old_member_id"], e["group_instance_id"]):
            return True
        word = rf"(?<![\w.\-]){re.escape(i)}(?![\w.\-])"
        return named[q] and bool(re.search(word, e["_head"].message or ""))

    for p, e in enumerate(evs):
        if named[p]:
            continue
        part = e["offsets_partition"]
        same = [q for q in range(p) if part is None or evs[q]["offsets_partition"] == part]
        src = None
        for ids in ({e["member_id"], e["old_member_id"]} - {None, ""}, {e["group_instance_id"]} - {None, ""}):
            src = next(
                (
                    q
                    for q in reversed(same)
                    if (named[q] or q in resolved) and any(mentions(q, i) for i in ids)
                ),
                None,
            )
            if src is not None:
                break
        ts = e["_head"].ts_ms
        pool = [q for q in same if named[q]]
        if src is None and ts is not None and pool:
            t2 = evs[pool[-1]]["_head"].ts_ms
            if t2 is not None and abs(ts - t2) <= ATTRIBUTION_WINDOW_MS:
                src = pool[-1]
        if src is not None:
            e["group_id"] = evs[src]["group_id"]
            resolved.add(p)


def _upper(s: str | None) -> str | None:
    """Arrow's ``utf8_upper``: one code point for one (no ``ß`` → ``SS``)."""
    return None if s is None else "".join(c.upper() if len(c.upper()) == 1 else c for c in s)


def _block_fields(e: dict, block: str | None) -> None:
    """Fields of the indented block after the head line: a dialect's (``dialects.BLOCK_FIELDS``), and a
    message's keys on indented lines (``records.KEY_BLOCK``)."""
    for name, pattern in D.BLOCK_FIELDS.get(e["dialect"], ()):
        m = rx(pattern).search(block or "")
        v = (m.group("v") or None) if m else None
        e[name] = _first(e[name], v) if name == "member_id" else partitions(v)
    for name, pattern in REC.KEY_BLOCK:
        m = rx(pattern).search(block or "")
        v = (m.group("v") or None) if m else None
        e[name] = _first(e[name], int(v) if v is not None and name == "generation" else v)


def continuation_blocks(f: File) -> dict[int, list[str]]:
    """The continuation lines of each line that has some (by its row): the lines marked continuation
    after it, up to the next line that is not (a joined piece's text is in its head's)."""
    conts: dict[int, list[str]] = {}
    head = -1
    for i, c in enumerate(f.is_cont):
        if not c:
            head = i
        elif head >= 0 and i not in f.joined:
            conts.setdefault(head, []).append(f.text[i])
    return conts


def _finish(f: File, evs: list[dict], heads: list[Head], source_file: str, cluster: str, run_id: str | None,
            sha: str) -> list[dict]:  # fmt: skip
    last_ts, inferred = None, {}
    for h in heads:  # a head without a timestamp keeps its place: the previous head's time
        inferred[h.row] = last_ts if h.ts_ms is None else h.ts_ms
        last_ts = h.ts_ms if h.ts_ms is not None else last_ts
    conts = continuation_blocks(f)
    seen: dict[str, str] = {}

    def placeholder(v: str | None) -> tuple[str | None, bool]:
        if v is None or not rx(RD.REDACTED).search(v):
            return v, False
        seen.setdefault(v, f"redacted-{sha[:8]}-{len(seen) + 1}")
        return seen[v], True

    for e in evs:
        h = e["_head"]
        _block_fields(e, "\n".join(conts[h.row]) if h.row in conts else h.inline_cont)
    red = [False] * len(evs)
    for col in ("group_id", "member_id"):
        for k, e in enumerate(evs):
            e[col], hit = placeholder(e[col])
            red[k] |= hit
    out = []
    for k, e in enumerate(evs):
        h = e["_head"]
        ms = inferred[h.row]
        cont = "\n".join(conts[h.row]) if h.row in conts else h.inline_cont
        parts = e["partitions"]
        level = _upper(h.level)
        level = (
            _RDKAFKA_LEVELS.get(level, level) if level is not None and rx(r"^\d$").search(level) else level
        )
        row = {k2: v for k2, v in e.items() if not k2.startswith("_") and k2 != "groups_raw"}
        row.update(
            cluster=cluster, ts_ms=ms, ts=None if ms is None else ms * 1000,
            event_date=None if ms is None else (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)).date(),
            partitions=parts, ts_inferred=h.ts_ms is None, redacted=red[k], level=level, logger=h.logger,
            envelope_ts=None if h.env_ms is None else h.env_ms * 1000,
            layout=h.layout, message=h.message, continuation=cont, source_file=source_file, line_no=h.row + 1,
            run_id=run_id,
        )  # fmt: skip
        out.append(row)
    return out


def events_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=EVENTS_ARROW)
