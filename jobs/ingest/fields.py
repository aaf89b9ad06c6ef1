"""Event fields: the typed ``events`` columns of the dialect matches (partitions, members, the leader's
assignment map, the coordinator broker from a client-side node id, error names, fixed fields, the
side rules of Connect / kafka-python / librdkafka / Go clients), the steps that look at other lines
(librdkafka group carry, one event per deleted group), JSON keys, and the final event rows
(timestamps, continuation text, redaction).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import arrowops as ao
from jobs.ingest import context as C
from jobs.ingest import dialects as D
from jobs.ingest import partition_reprs as PREPR
from jobs.ingest import pyregex as PR
from jobs.ingest import records as R
from jobs.ingest import redaction as RD
from jobs.ingest.model import (
    EVENTS_ARROW,
)
from jobs.ingest.needles import may_match
from jobs.ingest.rawbytes import may_contain, single_digit

MAX_INT = 2147483647
_RDKAFKA_LEVELS = {
    "0": "EMERG",
    "1": "ALERT",
    "2": "CRITICAL",
    "3": "ERROR",
    "4": "WARN",
    "5": "NOTICE",
    "6": "INFO",
    "7": "DEBUG",
}
_FIELDS_STR = [
    "group_id",
    "member_id",
    "group_instance_id",
    "client_id",
    "host",
    "reason",
    "state",
    "protocol",
    "error",
    "old_member_id",
    "operation",
    "protocol_type",
    "from_state",
]
#: kind / side of each dialect as codes into small vocabularies (columns are built with a take)
_KIND_VOCAB = sorted({d.kind or "" for d in D.DIALECTS})
_KIND_NAMES = pa.array(_KIND_VOCAB, pa.string())
_KIND_CODES = np.array([_KIND_VOCAB.index(d.kind or "") for d in D.DIALECTS], dtype=np.int32)
_SIDE_VOCAB = ["broker", "client", "connect", "other"]
_SIDE_NAMES = pa.array(_SIDE_VOCAB, pa.string())
_SIDE_CODES = np.array([_SIDE_VOCAB.index(d.side) for d in D.DIALECTS], dtype=np.int32)
_CLIENT, _CONNECT, _OTHER = (_SIDE_VOCAB.index(x) for x in ("client", "connect", "other"))
_IDS = pa.array([d.id for d in D.DIALECTS], pa.string())
_FAIL_KINDS = ("join_failed", "sync_failed", "heartbeat_failed", "offset_commit_failed")
_FAILING = np.array([d.kind in _FAIL_KINDS for d in D.DIALECTS], dtype=bool)


_MEMBER_STRIP = r"^\s*(?:Set|List|HashSet|frozenset|set)?[\[({]+|[\])}]+\s*\.?$"


def _partitions(raw: pa.Array) -> pa.Array:
    """A captured partition list in any client's printed form: :func:`partition_reprs.parse` of
    each distinct text (few: the lists of assignment lines), spread back to the rows."""
    raw = raw.cast(pa.string())
    uniq = pc.unique(raw.drop_null())
    read = pa.array([parsed_partitions(v) for v in uniq.to_pylist()], pa.list_(pa.string()))
    return read.take(pc.index_in(raw, uniq))


#: :func:`partition_reprs.parse` of the texts seen in this process (a pure function of the text; the
#: members of a group print the same lists, file after file); emptied when it holds :data:`_PARSED_MAX`
_PARSED: dict[str, tuple[str, ...] | None] = {}
_PARSED_MAX = 1 << 16


def parsed_partitions(text: str) -> tuple[str, ...] | None:
    """:func:`partition_reprs.parse` of ``text`` (as a tuple), remembered per process."""
    if text in _PARSED:
        return _PARSED[text]
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    found = PREPR.parse(text)
    got = _PARSED[text] = tuple(found) if found is not None else None
    return got


_ASSIGN_RX = re.compile(r"([^\s{},=]+)=Assignment\(partitions=\[([^\]]*)\]")


_MAP_TYPE = pa.map_(pa.string(), pa.list_(pa.string()))
_NOT_PRINTABLE_ASCII = r"[^\x20-\x7e]"


def _assignment_reference(raw: pa.Array) -> pa.Array:
    """The leader's ``{m=Assignment(partitions=[t-0, t-1]), ...}`` → map member → partitions
    (the plain definition, row by row)."""
    out: list[Any] = []
    for s in raw.to_pylist():
        if s is None:
            out.append(None)
            continue
        out.append(
            [(m, [p.strip() for p in parts.split(",") if p.strip()]) for m, parts in _ASSIGN_RX.findall(s)]
        )
    return pa.array(out, _MAP_TYPE)


def _assignment(raw: pa.Array) -> pa.Array:
    """:func:`_assignment_reference` with the partition lists split and trimmed by Arrow kernels
    over all members at once (the regex still runs per row, with Python's whitespace class). Only printable
    ASCII partition lists take this way (there ``str.strip`` and the ASCII trim agree)."""
    strs = raw.to_pylist()
    found = [_ASSIGN_RX.findall(s) if s is not None else () for s in strs]
    counts = np.fromiter((len(f) for f in found), np.int64, len(found))
    members = [m for f in found for m, _ in f]
    lists = pa.array([p for f in found for _, p in f], pa.string())
    if len(lists) and pc.any(PR.match(lists, _NOT_PRINTABLE_ASCII)).as_py():
        return _assignment_reference(raw)
    parts = pc.split_pattern(lists, ",")
    flat = pc.ascii_trim_whitespace(pc.list_flatten(parts))
    parents = ao.numpy_of(pc.list_parent_indices(parts)) if len(flat) else np.zeros(0, np.int64)
    keep = ao.mask(pc.not_equal(flat, "")) if len(flat) else np.zeros(0, dtype=bool)
    poffs = np.searchsorted(parents[keep], np.arange(len(lists) + 1)).astype(np.int32)
    items = pa.ListArray.from_arrays(pa.array(poffs, pa.int32()), flat.filter(pa.array(keep)))
    moffs = np.zeros(len(strs) + 1, np.int32)
    np.cumsum(counts, out=moffs[1:])
    null = np.fromiter((s is None for s in strs), bool, len(strs))
    offsets = pa.array(moffs, pa.int32(), mask=np.append(null, False) if null.any() else None)
    return pa.MapArray.from_arrays(offsets, pa.array(members, pa.string()), items, type=_MAP_TYPE)


def _instance_id(a: pa.Array) -> pa.Array:
    """Scala ``Some(i)``/``None``, Java ``null``/``Optional[i]``/``Optional.empty`` → i or null."""
    text = pa.types.is_string(a.type) or pa.types.is_large_string(a.type)
    if not text or may_contain(a, b"Some(") or may_contain(a, b"Optional["):  # (else it changes nothing)
        a = PR.replace(a, r"^(?:Some\((.*)\)|Optional\[(.*)\])$", r"\1\2")
    bad = pc.is_in(a, pa.array(["None", "null", "Optional.empty", ""]))
    return pc.if_else(pc.fill_null(bad, False), pa.scalar(None, pa.string()), a)


def typed_event_fields(t: pa.Table, logger: pa.Array, layout: pa.Array) -> pa.Table:
    """Typed event columns (EVENTS fields) from the dialect matches ``t`` (``logger``/``layout``:
    the head columns of its rows). A pure function of each row (it runs on distinct messages, see
    :func:`candidate_events`); the two steps that look at other rows are in :func:`event_rows`,
    which get the hidden columns ``_other`` (side ``other``) and ``_groups_raw``."""
    n = len(t)
    dia = ao.numpy_of(t["_dialect"]) if n else np.zeros(0, np.int32)
    hrow = pa.array(ao.numpy_of(t["_row"]) if n else np.zeros(0, np.int64))
    out = _id_fields(t, n)
    out["coordinator"] = _coordinator(t, n)
    out["offsets_partition"] = ao.coalesce(
        ao.int_of(ao.column(t, "offsets_partition")) if "offsets_partition" in t.column_names else None,
        ao.int_of(ao.column(t, "pfx_opart")),
    )
    for f in ("generation", "member_count", "static_count", "member_epoch"):
        c = ao.column(t, f)
        out[f] = ao.int_of(c) if c is not None else pa.nulls(n, pa.int32())
    out.update(_list_fields(t, n))
    sides = _sides(t, dia, logger, layout)
    sw = ao.column(t, "static_word")
    flags = {
        "static": pc.equal(sw, "Static") if sw is not None else pa.nulls(n, pa.bool_()),
        "pending": pa.nulls(n, pa.bool_()),
        "unexpected": pa.nulls(n, pa.bool_()),
    }
    _apply_fixed_fields(dia, out, flags)
    out.update(flags)
    _failure_errors(t, dia, out)
    other = sides == _OTHER
    if other.any():
        _ids_anywhere_in_message(t, other, out)
    out["kind"] = _KIND_NAMES.take(pa.array(_KIND_CODES[dia], pa.int32()))
    out["side"] = _SIDE_NAMES.take(pa.array(sides, pa.int32()))
    out["dialect"] = _IDS.take(pa.array(dia, pa.int32()))
    out["_row"] = hrow
    out["_other"] = pa.array(other)
    gr = ao.column(t, "groups_raw")
    out["_groups_raw"] = gr if gr is not None else pa.nulls(n, pa.string())
    return pa.table(out)


def _id_fields(t: pa.Table, n: int) -> dict[str, pa.Array]:
    """The string fields of :data:`_FIELDS_STR` (null when no dialect captures one), with
    ``group_id``, ``client_id`` and ``group_instance_id`` completed from the context prefix
    (``pfx_gid`` "null" is no group; ``Some(i)``/``Optional[i]`` instance ids unwrapped)."""
    out: dict[str, pa.Array] = {}
    for f in _FIELDS_STR:
        c = ao.column(t, f)
        out[f] = c if c is not None else pa.nulls(n, pa.string())
    gid_pfx = ao.column(t, "pfx_gid")
    gid_pfx = pc.if_else(pc.equal(gid_pfx, "null"), pa.scalar(None, pa.string()), gid_pfx)
    out["group_id"] = ao.coalesce(out["group_id"], gid_pfx)
    out["client_id"] = ao.coalesce(out["client_id"], ao.column(t, "pfx_cid"))
    out["group_instance_id"] = ao.coalesce(
        _instance_id(out["group_instance_id"]), ao.nullify_empty(ao.column(t, "pfx_iid"))
    )
    return out


def _coordinator(t: pa.Table, n: int) -> pa.Array:
    """The coordinator broker: the dialect's own field, else the broker of the context prefix, else
    the client-side node id (``MAX_INT - node`` for the coordinator connection's node ids)."""
    node = ao.int_of(ao.column(t, "node_id"), pa.int64()) if "node_id" in t.column_names else pa.nulls(n, pa.int64())
    node_broker = pc.if_else(pc.greater(node, 1 << 30), pc.subtract(MAX_INT, node), node)
    return pc.cast(
        ao.coalesce(
            ao.int_of(ao.column(t, "coordinator"), pa.int64()) if "coordinator" in t.column_names else None,
            ao.int_of(ao.column(t, "pfx_broker"), pa.int64()),
            ao.int_of(ao.column(t, "pfx_broker2"), pa.int64()),
            node_broker,
        ),
        pa.int32(),
    )


def _list_fields(t: pa.Table, n: int) -> dict[str, pa.Array]:
    """``partitions``, ``revoked``, ``members`` (lists) and the leader's ``assignment`` map."""
    pr = ao.column(t, "partitions_raw")
    rr = ao.column(t, "revoked_raw")
    mr = ao.column(t, "members_raw")
    ar = ao.column(t, "assignment_raw")
    return {
        "partitions": _partitions(pr) if pr is not None else pa.nulls(n, pa.list_(pa.string())),
        "revoked": _partitions(rr) if rr is not None else pa.nulls(n, pa.list_(pa.string())),
        "members": ao.split_list(mr, _MEMBER_STRIP) if mr is not None else pa.nulls(n, pa.list_(pa.string())),
        "assignment": _assignment(ar) if ar is not None else pa.nulls(n, _MAP_TYPE),
    }


#: the layouts of librdkafka, Go and Python clients (their client lines are side ``other``)
_FOREIGN_LAYOUT = r"(?:^|\+)(?:librdkafka|golog|python|python-basic)$"


def _sides(t: pa.Table, dia: np.ndarray, logger: pa.Array, layout: pa.Array) -> np.ndarray:
    """Side code of each row: the dialect's, with client lines of a Connect worker prefix made
    ``connect`` and those of kafka-python loggers or librdkafka / Go / Python layouts ``other``."""
    sides = _SIDE_CODES[dia]
    worker = ao.mask(pc.equal(ao.column(t, "pfx_ctype"), "Worker"))
    # (per distinct logger and layout: a file has a few of each)
    py = ao.mask(ao.dict_apply(logger, lambda d: PR.match(d, D.PYTHON_LOGGER)))
    foreign = ao.mask(ao.dict_apply(layout, lambda d: PR.match(d, _FOREIGN_LAYOUT)))
    sides = np.where(worker & (sides == _CLIENT), _CONNECT, sides)
    return np.where((py | foreign) & (sides == _CLIENT), _OTHER, sides)


def _apply_fixed_fields(dia: np.ndarray, out: dict[str, pa.Array], flags: dict[str, pa.Array]) -> None:
    """The constant fields of the dialects (``Dialect.fixed``) on their rows, in place: the boolean
    ``flags`` (static, pending, unexpected) and the other columns of ``out``."""
    for di in np.unique(dia):
        d = D.DIALECTS[di]
        if not d.fixed:
            continue
        sel = pa.array(dia == di)
        for k, v in d.fixed.items():
            if k in flags:
                flags[k] = pc.if_else(sel, pa.scalar(v, pa.bool_()), flags[k])
            else:
                out[k] = pc.if_else(sel, pa.scalar(v, out[k].type), out[k])


def _failure_errors(t: pa.Table, dia: np.ndarray, out: dict[str, pa.Array]) -> None:
    """``error`` of the failure dialects (join / sync / heartbeat / offset commit failed), in place:
    the captured value, else the error name in the body, else the name of a known error message."""
    failing = _FAILING[dia]
    if not failing.any():
        return
    # only the failing rows are searched (the needles would otherwise scan every event body)
    frows = np.nonzero(failing)[0]
    body = ao.take(ao.column(t, "_body"), frows)
    err = ao.nullify_empty(ao.extract(body, D.ERROR_NAME).field("error"))
    for needle, name in D.ERROR_MESSAGES:
        if not pc.any(pc.is_null(err)).as_py():
            break
        hit = pc.match_substring(body, needle)
        err = pc.if_else(pc.and_(pc.is_null(err), hit), pa.scalar(name, pa.string()), err)
    err = pc.coalesce(ao.take(out["error"], frows), err)
    out["error"] = pc.replace_with_mask(out["error"], pa.array(failing), err.cast(out["error"].type))


def _ids_anywhere_in_message(t: pa.Table, other: np.ndarray, out: dict[str, pa.Array]) -> None:
    """Non-Java clients (rows ``other``), in place: a ``generation`` / ``member_id`` the dialect did
    not capture is taken from anywhere in the message."""
    body = ao.column(t, "_body")
    g = ao.nullify_empty(ao.extract(body, r"[Gg]eneration(?:Id| id|_id)?:? ?=?(?P<g>-?\d+)").field("g"))
    m = ao.nullify_empty(ao.extract(body, r"(?:MemberId|[Mm]ember[ _]id):? ?=?'?(?P<m>[\w.-]+)").field("m"))
    sel = pa.array(other)
    out["generation"] = pc.if_else(
        sel, pc.coalesce(out["generation"], pc.cast(g, pa.int32(), safe=False)), out["generation"]
    )
    out["member_id"] = pc.if_else(sel, pc.coalesce(out["member_id"], m), out["member_id"])


def event_rows(res: pa.Table, thread: pa.Array) -> pa.Table:
    """The steps of event building that look at other lines: librdkafka lines without a group name
    take the group of the same client instance's (``thread``) last line; one event per group of
    "The following groups were deleted: g1, g2". Drops the hidden columns of :func:`typed_event_fields`."""
    other = ao.numpy_of(res["_other"]).astype(bool)
    res = with_context_groups(res, thread, C.THREAD_GROUP)
    # librdkafka lines without a group name: the group of the same client instance's last line
    if other.any() and pc.any(pc.and_(pc.is_null(res["group_id"]), pa.array(other))).as_py():
        res = res.set_column(
            res.column_names.index("group_id"), "group_id", carry_groups(res["group_id"], other, thread)
        )
    # one event per group of "The following groups were deleted: g1, g2"
    gr = res["_groups_raw"].combine_chunks()
    res = res.drop_columns(["_other", "_groups_raw"])
    if pc.any(pc.is_valid(gr)).as_py():
        lst = ao.split_list(gr, _MEMBER_STRIP)
        has = ao.mask(pc.is_valid(lst))
        plain = res.filter(pa.array(~has))
        ex = res.filter(pa.array(has))
        lst = lst.filter(pa.array(has))
        parents = ao.numpy_of(pc.list_parent_indices(lst))
        ex = ex.take(pa.array(parents))
        ex = ex.set_column(
            ex.column_names.index("group_id"), "group_id", pc.list_flatten(lst).cast(pa.string())
        )
        res = pa.concat_tables([plain, ex]).combine_chunks()
        res = res.take(pc.sort_indices(res["_row"]))
    return res


def with_context_groups(t: pa.Table, text: pa.Array, pattern: str) -> pa.Table:
    """``t`` with its missing ``group_id`` filled from the group that ``pattern`` of
    :mod:`jobs.ingest.context` finds in ``text`` (each row's message, or its thread)."""
    gid = t["group_id"].combine_chunks()
    if not gid.null_count or not len(text) or text.null_count == len(text):
        return t
    missing = pc.is_null(gid)
    sub = text.filter(missing)  # only the rows that lack a group are searched
    if sub.type != pa.string():
        sub = sub.cast(pa.string())
    g = ao.extract(sub, pattern).field("g")
    g = pc.if_else(pc.is_in(g, pa.array(C.NO_GROUP, pa.string())), pa.scalar(None, pa.string()), g)
    filled = pc.replace_with_mask(gid, missing, g.cast(gid.type))
    return t.set_column(t.column_names.index("group_id"), "group_id", filled)


def carry_groups(gid: pa.Array | pa.ChunkedArray, other: np.ndarray, thread: pa.Array) -> pa.Array:
    """``gid`` with the null group ids of the ``other`` rows filled from the last ``other`` row of
    the same ``thread`` (null threads are one key) that has one (a forward fill per thread)."""
    if isinstance(gid, pa.ChunkedArray):
        gid = gid.combine_chunks()
    o = np.nonzero(other)[0]
    key = ao.numpy_of(pc.dictionary_encode(ao.take(thread, o), null_encoding="encode").indices).astype(np.int64)
    order = np.lexsort((o, key))  # by thread, then line
    so = o[order]
    valid = ao.mask(pc.is_valid(ao.take(gid, so)))
    last = np.maximum.accumulate(np.where(valid, np.arange(len(so)), -1))
    sk = key[order]
    fill = ~valid & (last >= 0)
    fill[fill] = sk[last[fill]] == sk[fill]
    if not fill.any():
        return gid
    mask = np.zeros(len(gid), dtype=bool)
    mask[so[fill]] = True
    # replace_with_mask takes the replacements in row order
    src = np.zeros(len(gid), dtype=np.int64)
    src[so[fill]] = so[last[fill]]
    return pc.replace_with_mask(gid, pa.array(mask), ao.take(gid, src[mask]))


def json_event_fields(ev: pa.Table, head_t: pa.Table, evh: np.ndarray) -> pa.Table:
    """Event fields that a structured (JSON) line carries as keys of its own (kafkajs logs
    ``groupId``, ``memberId``, ``generationId``, ``clientId`` beside its message, a record its
    ``error``): they fill the fields the message does not state (:data:`records.RECORD_FACTS`)."""
    idx = pa.array(evh, pa.int64())
    for key, col in R.RECORD_FACTS.items():
        typ = pa.int32() if col == "generation" else pa.string()
        extra = ao.nullify_empty(head_t[key].combine_chunks().take(idx))
        if extra.null_count == len(extra):
            continue
        i = ev.column_names.index(col)
        if pa.types.is_integer(typ):
            # (a key of the family that holds no whole number gives nothing)
            extra = pc.if_else(PR.match(extra, r"^-?\d{1,9}$"), extra, pa.scalar(None, extra.type))
        extra = pc.cast(extra, typ, safe=False)
        ev = ev.set_column(i, col, pc.coalesce(ev[col].combine_chunks(), extra.cast(ev.schema.field(col).type)))
    return ev


def finish_events(
    ev: pa.Table,
    evh: np.ndarray,
    head_t: pa.Table,
    head_rows: np.ndarray,
    message: pa.Array,
    level: pa.Array,
    ts_ms: pa.Array,
    text: pa.Array,
    is_cont: np.ndarray,
    cls: np.ndarray,
    source_file: str,
    cluster: str,
    run_id: str | None,
    inline_cont: pa.Array | None = None,
    ev_ts: pa.Array | None = None,
    ts_inferred: np.ndarray | None = None,
    file_key: str | None = None,
    env_ms: pa.Array | None = None,
    joined: np.ndarray | None = None,
) -> pa.Table:
    """The final EVENTS rows of the event lines ``ev`` (``evh``: their head index, ``head_rows[evh]``
    their line): timestamps, level names, the continuation text, the fields of continuation blocks,
    redaction placeholders and the file's columns, in the order and types of ``EVENTS_ARROW``."""
    n = len(ev)
    hidx = pa.array(evh, pa.int64())
    line_rows = head_rows[evh]
    ts = ts_ms.take(hidx) if ev_ts is None else ev_ts
    ts_us = pc.cast(pc.multiply(ts, 1000), pa.int64()).cast(pa.timestamp("us", tz="UTC"))
    cont = continuation_text(text, is_cont, line_rows, joined)
    if inline_cont is not None:
        cont = ao.coalesce(cont, inline_cont.take(hidx).cast(pa.string()))
    block = _block_fields(ev, cont)
    ids = {"group_id": block["group_id"], "member_id": block["member_id"]}
    redacted = np.zeros(n, bool)
    red = RD.placeholders(ids, file_key) if file_key is not None else None
    if red is not None:
        ids, redacted = red
    cols = {
        "cluster": ao.repeat(cluster, n),
        "event_date": pc.cast(ts_us, pa.date32()),
        "ts": ts_us,
        "ts_ms": ts,
        **_kafka_fields(ev, ids, block),
        "ts_inferred": pa.array(ts_inferred if ts_inferred is not None else np.zeros(n, bool), pa.bool_()),
        "envelope_ts": (pa.nulls(n, pa.int64()) if env_ms is None else env_ms.take(hidx)).cast(pa.timestamp("ms", tz="UTC")),
        "redacted": pa.array(redacted, pa.bool_()),
        "level": _level_names(pc.utf8_upper(level.take(hidx))),
        "logger": head_t["logger"].combine_chunks().take(hidx),
        "dialect": ev["dialect"].combine_chunks(),
        "layout": head_t["layout"].combine_chunks().take(hidx),
        "message": message.take(hidx).cast(pa.string()),
        "continuation": cont,
        "source_file": ao.repeat(source_file, n),
        "line_no": pa.array(line_rows + 1, pa.int64()),
        "run_id": ao.repeat(run_id, n),
    }
    return _events_table(cols)


def _level_names(lvl: pa.Array) -> pa.Array:
    """Upper-cased levels with librdkafka's syslog numbers as names (mapped on the few distinct
    levels)."""
    if not single_digit(lvl).any():  # (the byte test of ``^\d$``)
        return lvl
    enc = pc.dictionary_encode(lvl)
    names = pa.array([_RDKAFKA_LEVELS.get(x, x) for x in enc.dictionary.to_pylist()], pa.string())
    return names.take(enc.indices)


def continuation_text(
    text: pa.Array, is_cont: np.ndarray, line_rows: np.ndarray, joined: np.ndarray | None = None
) -> pa.Array:
    """Continuation text of each event line ``line_rows``: its continuation lines joined with
    ``"\\n"`` (null when it has none; ``joined`` lines, pieces of a split line whose text is in the
    head's, left out). One list array over all continuation lines of event heads."""
    cont = pa.nulls(len(line_rows), pa.string())
    if not is_cont.any():
        return cont
    cont_rows = np.nonzero(is_cont)[0]
    last_non = np.maximum.accumulate(np.where(~is_cont, np.arange(len(is_cont)), -1))
    head_of = last_non[cont_rows]
    sel = np.isin(head_of, line_rows)
    if joined is not None:
        sel &= ~joined[cont_rows]
    if not sel.any():
        return cont
    cr, ho = cont_rows[sel], head_of[sel]
    uh, starts = np.unique(ho, return_index=True)
    offsets = np.append(starts, len(ho)).astype(np.int32)
    lst = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), ao.take(text, cr).cast(pa.string()))
    joined = pc.binary_join(lst, "\n")
    pos = np.searchsorted(uh, line_rows)
    pos_ok = (pos < len(uh)) & (uh[np.minimum(pos, len(uh) - 1)] == line_rows)
    return pc.if_else(pa.array(pos_ok), joined.take(pa.array(np.minimum(pos, len(uh) - 1))), cont)


def _kafka_fields(ev: pa.Table, ids: dict[str, pa.Array], block: dict[str, pa.Array]) -> dict[str, Any]:
    """The Kafka fields of the event rows: ``group_id`` / ``member_id`` as redaction left them,
    ``partitions`` / ``revoked`` with the continuation blocks read, the rest as the dialects gave."""
    return {
        "group_id": ids["group_id"], "kind": ev["kind"], "side": ev["side"], "member_id": ids["member_id"],
        "generation": block["generation"], "group_instance_id": ev["group_instance_id"], "client_id": ev["client_id"],
        "coordinator": ev["coordinator"], "host": ev["host"], "reason": ev["reason"], "state": ev["state"],
        "protocol": ev["protocol"], "member_count": ev["member_count"], "static_count": ev["static_count"],
        "error": ev["error"], "old_member_id": ev["old_member_id"], "members": ev["members"],
        "partitions": block["partitions"], "assignment": ev["assignment"], "static": ev["static"],
        "pending": ev["pending"], "unexpected": ev["unexpected"], "operation": ev["operation"],
        "offsets_partition": ev["offsets_partition"], "protocol_type": ev["protocol_type"],
        "member_epoch": ev["member_epoch"], "from_state": ev["from_state"], "revoked": block["revoked"],
    }  # fmt: skip


def _events_table(cols: dict[str, Any]) -> pa.Table:
    """``cols`` as one-chunk arrays in the order and types of :data:`EVENTS_ARROW`."""
    arrays = [
        pc.cast(cols[f.name], f.type) if cols[f.name].type != f.type else cols[f.name] for f in EVENTS_ARROW
    ]
    return pa.Table.from_arrays(
        [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays], schema=EVENTS_ARROW
    )


def _block_fields(ev: pa.Table, cont: pa.Array) -> dict[str, pa.Array]:
    """``partitions``, ``revoked`` and ``member_id`` with the fields of :data:`dialects.BLOCK_FIELDS`
    read from the continuation block of the dialects that have one (on those lines only: extraction
    and list split are per line); a value the head line gave wins for ``member_id``."""
    out = {k: ev[k].combine_chunks() for k in ("partitions", "revoked", "member_id")}
    dia = ev["dialect"].combine_chunks()
    for did, specs in D.BLOCK_FIELDS.items():
        hit = ao.mask(pc.equal(dia, did))
        if not hit.any():
            continue
        rows = np.nonzero(hit)[0]
        text = pc.fill_null(ao.take(cont, rows), "")
        pos = pa.array(np.maximum(np.cumsum(hit) - 1, 0), pa.int64(), mask=~hit)
        for field_name, rx in specs:
            v = ao.nullify_empty(ao.extract(text, rx).field("v"))
            if field_name == "member_id":
                spread = v.take(pos).cast(out[field_name].type)
                out[field_name] = pc.if_else(pa.array(hit), pc.coalesce(out[field_name], spread), out[field_name])
            else:
                spread = _partitions(v).take(pos)
                out[field_name] = pc.if_else(pa.array(hit), spread, out[field_name])
    return {**out, **_key_block(ev, cont, out["member_id"])}


def _key_block(ev: pa.Table, cont: pa.Array, member_id: pa.Array) -> dict[str, pa.Array]:
    """``group_id``, ``member_id`` and ``generation`` filled (where still empty) from a continuation
    block of indented ``key: value`` lines (:data:`records.KEY_BLOCK`), searched on the lines that
    have a continuation only (:func:`key_block_plain` searches every line; tested equal)."""
    out = {"group_id": ev["group_id"].combine_chunks(), "member_id": member_id,
           "generation": ev["generation"].combine_chunks()}  # fmt: skip
    if cont.null_count == len(cont):
        return out
    # (only the lines with a continuation: an empty text gives no value)
    has = ao.mask(pc.is_valid(cont))
    text = cont if has.all() else ao.take(cont, np.nonzero(has)[0])
    pos = None if has.all() else pa.array(np.maximum(np.cumsum(has) - 1, 0), pa.int64(), mask=~has)
    for name, rx in R.KEY_BLOCK:
        if not may_match(text, rx):
            continue  # (the text holds none of the key's words: the extraction gives nulls only)
        v = ao.nullify_empty(ao.extract(text, rx).field("v"))
        if v.null_count == len(v):
            continue  # (coalesce with nulls only: nothing changes)
        v = pc.cast(v, out[name].type, safe=False)
        out[name] = pc.coalesce(out[name], v if pos is None else v.take(pos))
    return out


def key_block_plain(ev: pa.Table, cont: pa.Array, member_id: pa.Array) -> dict[str, pa.Array]:
    """:func:`_key_block` with every regex over every line (a line without continuation as ``""``)."""
    out = {"group_id": ev["group_id"].combine_chunks(), "member_id": member_id,
           "generation": ev["generation"].combine_chunks()}  # fmt: skip
    text = pc.fill_null(cont, "")
    for name, rx in R.KEY_BLOCK:
        v = ao.nullify_empty(ao.extract(text, rx).field("v"))
        out[name] = pc.coalesce(out[name], pc.cast(v, out[name].type, safe=False))
    return out
