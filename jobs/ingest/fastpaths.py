"""The fast paths of the two most common layouts, Kafka's log4j ``[%d] %p %m (%c)`` and Spring Boot's
console pattern: their heads are split from byte positions (:mod:`jobs.ingest.fastheads`) instead of
regex sub-match extraction, which is the largest cost of a big file. Lines a fast path does not take
still get the layout's regex (:func:`jobs.ingest.heads._match_one`), so the result is the regex's
(tests/ingest/test_fastheads.py, test_parse_speed_equivalence.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import fastheads as FH
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest import springheads as SH
from jobs.ingest.arrowops import dict_apply, elem, mask


def fast_log4j(sub: pa.Array, with_logger: bool) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """Kafka's ``[%d] %p %m (%c)`` with the default date format from byte positions
    (:func:`jobs.ingest.fastheads.split_log4j`; the string kernels of :func:`_fast_log4j_kernels`
    when a line does not fit it). Same result as the layout regex for the lines it accepts, plus
    ``tsms`` (the naive epoch ms of ``ts``, null when left to the timestamp parser)."""
    sp = FH.split_log4j(sub)
    if sp is None:
        return _fast_log4j_kernels(sub, with_logger)
    if not sp.ok.any():
        return None
    ok = sp.tail if with_logger else sp.ok & ~sp.tail
    st = sp.columns(np.nonzero(ok)[0])
    if not with_logger:
        del st["logger"]
    return ok, st


def _fast_log4j_kernels(sub: pa.Array, with_logger: bool) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """Kafka's ``[%d] %p %m (%c)`` with the default date format, by splitting (no sub-matches).
    Same result as the layout regex for the lines it accepts."""
    ok = mask(PR.match(sub, L.FAST_LOG4J))
    if not ok.any():
        return None
    s = sub if ok.all() else sub.filter(pa.array(ok))
    parts = pc.split_pattern(s, " ", max_splits=3)
    ts = pc.utf8_slice_codeunits(s, 1, 24)
    level = elem(parts, 2)
    rest_sp = elem(parts, 3)  # (with the level's padding: "INFO  (c)" is an empty message and a logger)
    rest = pc.utf8_ltrim(rest_sp, " ")
    tail = pc.split_pattern(rest_sp, " (", max_splits=1, reverse=True)
    has_tail = mask(pc.greater(pc.list_value_length(tail), 1))
    logger_raw = elem(tail, 1)
    lg_ok = mask(dict_apply(logger_raw, lambda u: PR.match(u, L.LOG4J_LOGGER_TAIL))) & has_tail
    if not with_logger:
        # log4j-nologger: the lines without a valid "(logger)" tail
        keep = ~lg_ok
        pos = np.nonzero(ok)[0]
        ok[pos[~keep]] = False
        kp = pa.array(keep)
        return ok, {"ts": ts.filter(kp), "level": level.filter(kp), "message": rest.filter(kp)}
    pos = np.nonzero(ok)[0]
    ok[pos[~lg_ok]] = False
    kp = pa.array(lg_ok)
    head = pc.utf8_ltrim(elem(tail, 0).filter(kp), " ")
    logger = pc.utf8_slice_codeunits(logger_raw.filter(kp), 0, -1)
    return ok, {"ts": ts.filter(kp), "level": level.filter(kp), "message": head, "logger": logger}


def fast_springboot(sub: pa.Array, iso_t: bool) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """Spring Boot 2/3 console lines from byte positions (:func:`jobs.ingest.springheads.split_springboot`;
    the string kernels of :func:`fast_springboot_kernels` when a head does not fit it). ``iso_t``
    False takes the ``springboot`` lines (``yyyy-MM-dd HH:mm:ss.SSS``), True the ``springboot3`` ones
    (ISO ``T`` timestamp)."""
    ok = mask(PR.match(sub, L.FAST_SPRINGBOOT))
    if not ok.any():
        return None
    split = SH.split_springboot(sub, ok, iso_t)
    return split if split is not None else fast_springboot_kernels(sub, iso_t)


def fast_springboot_kernels(sub: pa.Array, iso_t: bool) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """Spring Boot 2/3 console lines by splitting with string kernels (no sub-matches); same result
    as the regexes (``iso_t``: as :func:`fast_springboot`). The plain version of the byte split."""
    ok = mask(PR.match(sub, L.FAST_SPRINGBOOT))
    if not ok.any():
        return None
    s = sub if ok.all() else sub.filter(pa.array(ok))
    halves = pc.split_pattern(s, " --- ", max_splits=1)
    # (the part before " --- " is ASCII, as FAST_SPRINGBOOT checked: the cheaper ASCII split)
    left = pc.ascii_split_whitespace(elem(halves, 0), max_splits=3)
    right = elem(halves, 1)
    # Spring Boot 3.2+: "[app] [thread] logger : msg"
    app = mask(PR.match(right, r"^\[[^\]]*\] \["))
    if app.any():
        right = pc.if_else(
            pa.array(app), PR.replace(right, r"^\[[^\]]*\] ", "", max_replacements=1), right
        )
    th = pc.split_pattern(right, "] ", max_splits=1)
    thread = pc.utf8_trim_whitespace(pc.utf8_slice_codeunits(elem(th, 0), 1, 1 << 30))
    lm = pc.split_pattern(elem(th, 1), " : ", max_splits=1)
    good = mask(pc.equal(pc.list_value_length(lm), 2))
    logger = pc.utf8_rtrim_whitespace(elem(lm, 0))
    message = elem(lm, 1)
    pos = np.nonzero(ok)[0]
    ok[pos[~good]] = False
    g = pa.array(good)
    t0 = elem(left, 0)
    spaced = pc.equal(pc.utf8_length(t0), 10)  # "2024-05-01 10:00:00.123" (Spring Boot 2) vs ISO "...T..."
    # (each layout takes its own timestamp form: the other's lines are left to its own pass)
    want = mask(spaced) != iso_t
    ok[pos[good][~want[good]]] = False
    good = good & want
    g = pa.array(good)
    ts = pc.if_else(spaced, pc.binary_join_element_wise(t0, elem(left, 1), pa.scalar(" ", t0.type)), t0)
    level = pc.if_else(spaced, elem(left, 2), elem(left, 1))
    return ok, {
        "ts": ts.filter(g),
        "level": level.filter(g),
        "thread": thread.filter(g),
        "logger": logger.filter(g),
        "message": message.filter(g),
    }


def fast_log4j_both(sub: pa.Array) -> tuple[np.ndarray, dict[str, Any]] | None:
    """The ``log4j`` fast path that also takes the FAST_LOG4J lines without a valid ``(logger)``
    tail, as ``log4j-nologger`` lines (``_nologger`` mask): whatever the layout order, they end up
    there (the log4j regex cannot match them: its logger would have to be the text after the last
    ``" ("``, and no other layout can match a line starting ``[dddd-``), and taking them in the
    same pass keeps the heads in line order (no second split, no reordering of the head table)."""
    sp = FH.split_log4j(sub)
    if sp is None:
        return _fast_log4j_kernels(sub, True)
    if not sp.ok.any():
        return None
    st: dict[str, Any] = sp.columns(np.nonzero(sp.ok)[0])
    tail = sp.tail[sp.ok]
    if not tail.all():
        st["logger"] = pc.if_else(pa.array(tail), st["logger"], pa.scalar(None, st["logger"].type))
        st["_nologger"] = ~tail
    return sp.ok, st


def merge_partial(ok: np.ndarray, st: dict, rest: np.ndarray, ok2: np.ndarray, st2: dict) -> tuple[np.ndarray, dict]:
    """Combine two partial matches (positions of ``ok`` order)."""
    pos1 = np.nonzero(ok)[0]
    pos2 = rest[ok2]
    allpos = np.concatenate([pos1, pos2])
    order = np.argsort(allpos, kind="stable")
    out = {}
    for k in set(st) | set(st2):
        a = st.get(k)
        b = st2.get(k)
        typ = pa.int64() if k == "tsms" else pa.large_string()
        a = a.cast(typ) if a is not None else pa.nulls(len(pos1), typ)
        b = b.cast(typ) if b is not None else pa.nulls(len(pos2), typ)
        out[k] = pa.concat_arrays([a, b]).take(pa.array(order))
    ok = ok.copy()
    ok[pos2] = True
    return ok, out
