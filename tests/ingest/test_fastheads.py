"""The byte-position split of log4j heads (:mod:`jobs.ingest.fastheads`) gives exactly the result of
the string-kernel split and of the layout regexes, and its timestamps those of the timestamp
parser."""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jobs.ingest import arrowops as AO
from jobs.ingest import epoch_ms as EM
from jobs.ingest import fastheads as FH
from jobs.ingest import fastpaths as FP
from jobs.ingest import heads as HD
from jobs.ingest import layouts as L
from jobs.ingest import parse as P
from jobs.ingest import springheads as SH
from jobs.ingest.rawbytes import Raw, pieces

_EXAMPLES = [lay.example for lay in L.LAYOUTS]


def _two(lo: int, hi: int) -> st.SearchStrategy[str]:
    return st.integers(lo, hi).map(lambda v: f"{v:02d}")


_TS = st.builds(
    lambda y, mo, d, h, mi, s, ms, sep: f"{y}-{mo}-{d}{sep}{h}:{mi}:{s},{ms}",
    st.sampled_from(["2024", "2023", "2000", "1900", "2100", "1899", "2201", "0000", "9999", "2025"]),
    _two(0, 13),
    _two(0, 32),
    _two(0, 25),
    _two(0, 61),
    _two(0, 61),
    st.integers(0, 999).map(lambda v: f"{v:03d}"),
    st.sampled_from([" ", " ", " ", "T", "  "]),
)
_LEVEL = st.sampled_from(L.LEVELS.split("|") + ["INF", "WARNINGS", "info", "CRITICA", "", "INFO\t"])
_SPACES = st.sampled_from([0, 1, 1, 1, 2, 4]).map(lambda k: " " * k)
_MSG = st.lists(
    st.sampled_from(list("ab (x):.$-_9") + [" (", ")", "\u00e9", "\u4e2d", "\t", "\x0b", "\x0c", "\r", "]"]),
    max_size=30,
).map("".join)
_LOGGER = st.sampled_from(
    [
        "kafka.server.KafkaApis",
        "o.a.k.Worker:123",
        "a$b-c",
        "k.G",
        "a b",
        "",
        "x(y",
        "\u00e9",
        "a:",
        "a:1:2",
        "a.b ",
    ]
)


@st.composite
def _line(draw: st.DrawFn) -> str:
    line = f"[{draw(_TS)}] {draw(_LEVEL)}{draw(_SPACES)}{draw(_MSG)}"
    if draw(st.booleans()):
        line += f" ({draw(st.sampled_from(['kafka.server.KafkaApis', 'o.a.k.W:12', 'k.G']))})"
    elif draw(st.integers(0, 3)):
        opening = draw(st.sampled_from([" (", " (", " (", "(", "  ("]))
        line += f"{opening}{draw(_LOGGER)}{draw(st.sampled_from([')', ')', ')', '', ') ']))}"
    cut = draw(st.sampled_from([0, 0, 0, 0, 1, 2]))
    if cut == 1:
        line = line[: draw(st.integers(0, len(line)))]
    elif cut == 2:
        i = draw(st.integers(0, max(len(line) - 1, 0)))
        line = line[:i] + draw(st.sampled_from(["x", "9", " ", "[", "]", "\u00e9", ""])) + line[i + 1 :]
    return line


#: a head whose spaces after the level run to the end of the matrix (split_log4j then returns None)
_LONG_SPACES = re.compile(rf"\[[^\n]{{23}}\] (?:{L.LEVELS}) +")


def _fields(ok: np.ndarray, st_: dict[str, pa.Array]) -> dict[str, list]:
    return {k: v.cast(pa.string()).to_pylist() for k, v in st_.items() if k != "tsms"} | {"ok": ok.tolist()}


@settings(max_examples=300, deadline=None)
@given(st.lists(_line(), min_size=1, max_size=30))
@example(["[2024-00-00 00:00:00,000] TRACE", "[2024-00-00 00:00:00,000] CRITICAL      (kafka.server.KafkaApis)"])
def test_split_equals_string_kernels_and_regex(lines: list[str]) -> None:
    arr = pa.array(lines, pa.large_string())
    want_ok = AO.mask(pc.match_substring_regex(arr, L.FAST_LOG4J))
    sp = FH.split_log4j(arr)
    if sp is None:  # the documented fallback: a run of spaces after the level reaches past WIDTH
        assert any((m := _LONG_SPACES.match(x)) and m.end() >= FH.WIDTH for x in lines)
    else:
        assert sp.ok.tolist() == want_ok.tolist()
    for with_logger in (True, False):
        got = FP.fast_log4j(arr, with_logger)
        want = FP._fast_log4j_kernels(arr, with_logger)
        if want is None:
            assert got is None
            continue
        assert _fields(*got) == _fields(*want)
        # the log4j layout regex on the accepted lines gives the same fields
        lay = L.LAYOUT_BY_ID["log4j" if with_logger else "log4j-nologger"]
        ok, fields = got
        rx = pc.extract_regex(arr.filter(pa.array(ok)), lay.regex)
        for name in fields:
            if name != "tsms":
                assert fields[name].cast(pa.string()).to_pylist() == rx.field(name).to_pylist()
        # converted timestamps equal the parser's (UTC: the naive value); the string-kernel fallback
        # (a line the byte split cannot hold) converts none and leaves them to the timestamp parser
        assert ("tsms" in fields) == (sp is not None)
        if sp is None:
            continue
        tsms = fields["tsms"]
        pre = AO.mask(pc.is_valid(tsms))
        if pre.any():
            ts = fields["ts"].filter(pa.array(pre))
            assert tsms.filter(pa.array(pre)).to_pylist() == EM.parse_timestamps(ts).to_pylist()


@settings(max_examples=100, deadline=None)
@given(st.lists(_TS, min_size=1, max_size=20))
def test_timestamp_validity_matches_arrow(ts: list[str]) -> None:
    """A timestamp the numeric path calls valid parses (to the same value); one it leaves to the
    parser is one Arrow's cast may reject (then the parser raises or returns null as before)."""
    lines = [f"[{t}] INFO x (a.B)" for t in ts]
    arr = pa.array(lines, pa.large_string())
    sp = FH.split_log4j(arr)
    assert sp is not None
    for i, t in enumerate(pc.utf8_slice_codeunits(arr, 1, 24).to_pylist()):
        if not sp.ok[i]:
            continue
        v = sp.columns(np.array([i]))["tsms"][0].as_py()
        if v is not None:
            assert EM.parse_timestamps(pa.array([t])).to_pylist() == [v]


def test_end_to_end_timestamps_with_a_default_zone() -> None:
    text = (
        "[2024-03-31 01:30:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 3 "
        "(__consumer_offsets-1) with 1 members (kafka.coordinator.group.GroupCoordinator)\n"
        "2024-03-31T01:30:00.000Z [2024-03-31 02:30:00,500] INFO [GroupCoordinator 1]: Stabilized group g "
        "generation 4 (__consumer_offsets-1) with 1 members (kafka.coordinator.group.GroupCoordinator)\n"
        "[2024-03-31 03:30:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 5 "
        "(__consumer_offsets-1) with 1 members\n"
    )
    ev, q, audit = P.parse_bytes(
        text.encode(), "z.log", settings=P.IngestSettings(default_timezone="Europe/Berlin")
    )
    want = EM.parse_timestamps(
        pa.array(["2024-03-31 01:30:00,000", "2024-03-31 02:30:00,500", "2024-03-31 03:30:00,000"]),
        "Europe/Berlin",
    ).to_pylist()
    assert ev["ts_ms"].to_pylist() == want
    assert ev["layout"].to_pylist() == ["log4j", "ts+log4j", "log4j-nologger"]


def test_invalid_date_behaves_as_before() -> None:
    """A day that does not exist is not converted by the fast path: the parser decides as before."""
    text = "[2024-02-30 10:00:00,000] INFO [GroupCoordinator 1]: Stabilized group g generation 3 (a.B)\n"
    try:
        want = EM.parse_timestamps(pa.array(["2024-02-30 10:00:00,000"])).to_pylist()
    except pa.ArrowInvalid:
        with pytest.raises(pa.ArrowInvalid):
            P.parse_bytes(text.encode(), "bad.log")
        return
    ev, q, audit = P.parse_bytes(text.encode(), "bad.log")
    assert audit["total_lines"] == 1
    assert (ev["ts_ms"].to_pylist() or [None]) == want or audit["quarantined"] == 1


def test_long_space_run_uses_the_string_kernels() -> None:
    lines = [
        "[2024-05-01 10:00:00,123] INFO" + " " * 20 + "x (a.B)",
        "[2024-05-01 10:00:00,123] INFO y (a.B)",
    ]
    arr = pa.array(lines, pa.large_string())
    assert FH.split_log4j(arr) is None
    got = FP.fast_log4j(arr, True)
    assert got is not None
    assert _fields(*got) == _fields(*FP._fast_log4j_kernels(arr, True))
    assert got[1]["message"].to_pylist() == ["x", "y"]


def test_pieces_are_zero_copy_spans() -> None:
    arr = pa.array(["abc", "", "d\u00e9f"], pa.large_string())
    raw = Raw(arr)
    assert raw.first_bytes().tolist() == [ord("a"), 256, ord("d")]
    p = pieces(raw, np.array([0, 1, 3, 3, 4, 7], np.int64))
    assert p.to_pylist() == ["a", "bc", "", "d", "\u00e9f"]
    sl = pa.array(["zz", "ab", None, "c"], pa.string()).slice(1)
    r2 = Raw(sl)
    assert r2.valid.tolist() == [True, False, True]
    assert r2.first_bytes().tolist() == [ord("a"), 256, ord("c")]


def _heads(lines: list[str], order_ids: list[str] | None = None) -> pa.Table:
    text = pa.array(lines, pa.large_string())
    heads = HD.Heads()
    order = HD.layout_order(text) if order_ids is None else [L.LAYOUT_BY_ID[i] for i in order_ids]
    left = HD.match_layouts(text, np.arange(len(lines)), order, heads, "", None)
    t = heads.table()
    return t.append_column("_left", pa.array([left.tolist()] * len(t), pa.list_(pa.int64())))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            _line(), st.sampled_from(["\tat x.Y(Y.java:1)", "[main] INFO a.B - x", "junk"] + _EXAMPLES)
        ),
        min_size=1,
        max_size=25,
    ),
    st.booleans(),
)
def test_log4j_pass_taking_nologger_lines_equals_two_passes(lines: list[str], nologger_first: bool) -> None:
    """The log4j pass that also takes the tail-less FAST_LOG4J lines as ``log4j-nologger`` gives
    the head table (rows, fields, layouts, order) and leftovers of separate passes, in either
    layout order."""
    ids = [lay.id for lay in L.LAYOUTS]
    if nologger_first:
        ids.remove("log4j-nologger")
        ids.insert(0, "log4j-nologger")
    got = _heads(lines, ids)
    real = FP.fast_log4j_both
    FP.fast_log4j_both = lambda sub: FP.fast_log4j(sub, True)
    try:
        want = _heads(lines, ids)
    finally:
        FP.fast_log4j_both = real
    assert got.to_pylist() == want.to_pylist()


def test_nologger_regex_takes_the_lines_the_fast_path_does_not() -> None:
    """A ``[ts] LEVEL `` line with an empty message is not FAST_LOG4J; the nologger layout's regex
    takes it whether or not other lines of the file went through the fast path (the reference
    reader's rule: each line gets the layout regexes in order)."""
    lone = ["[2024-05-01 10:00:00,000] TRACE "]
    with_fast = lone + ["[2024-05-01 10:00:00,000] TRACE (kafka.server.KafkaApis)"]
    t1 = _heads(lone, [lay.id for lay in L.LAYOUTS])
    assert t1["layout"].to_pylist() == ["log4j-nologger"] and t1["message"].to_pylist() == [""]
    t2 = _heads(with_fast, [lay.id for lay in L.LAYOUTS])
    assert t2["_row"].to_pylist() == [0, 1] and t2["layout"].to_pylist() == ["log4j-nologger"] * 2
    assert t2["message"].to_pylist() == ["", "(kafka.server.KafkaApis)"]


def test_a_space_run_past_the_matrix_falls_back_to_the_string_kernels() -> None:
    """Found by the property above: a message starting with spaces pushes the message start past
    WIDTH; the byte split gives up (None) and the fast path's fields are the string kernels'."""
    line = "[2024-05-14 10:00:00,000] WARN " + " " * 12 + "x (k.G)"
    arr = pa.array([line, "[2024-05-14 10:00:00,001] INFO ok (k.G)"], pa.large_string())
    assert FH.split_log4j(arr) is None
    ok, fields = FP.fast_log4j(arr, True)
    assert ok.tolist() == [True, True]
    assert fields["message"].cast(pa.string()).to_pylist() == ["x", "ok"]
    assert _fields(ok, fields) == _fields(*FP._fast_log4j_kernels(arr, True))


# ------------------------------------------------------------------------------------ Spring Boot
_SB_TS = st.sampled_from([
    "2024-05-01 10:00:00.123", "2024-05-01 10:00:00,1", "2024-05-01T10:00:00.123Z", "2024-05-01T10:00:00.123+02:00",
    "2024-05-01T10:00:00.123456789-0530", "2024-05-01T10:00:00,5", "2024-05-01X10:00:00.123", "2024-5-01 10:00:00.1",
])  # fmt: skip
_SB_PIECE = st.sampled_from(list("ab :]x[-9") + ["] ", " : ", "] [", "\u00e9", "\u4e2d", "\t", "\u2003", " ---", " --- "])
_SB_TEXT = st.lists(_SB_PIECE, max_size=12).map("".join)


@st.composite
def _sb_line(draw: st.DrawFn) -> str:
    """Spring Boot console lines and near misses: optional pid, ``[app]``, odd threads, loggers
    padded or missing, ``" : "`` or ``"] "`` missing or repeated, cut or with a byte replaced."""
    pid = draw(st.sampled_from(["", "12345 ", "7  ", "x1 "]))
    app = draw(st.sampled_from(["", "", "[orders] ", "[] ", "[a b] ", "[x]  "]))
    thread = draw(st.sampled_from(["main", " ntainer#0-0-C-1", "pool : 1", "a]b", "", " ", "\u00e9 "]))
    logger = draw(st.sampled_from(["o.a.k.c.c.internals.ConsumerCoordinator   ", "k.G", "", "a\u2003", "x "]))
    sep = draw(st.sampled_from([" : ", " : ", " :", ": ", " :  "]))
    line = (f"{draw(_SB_TS)}{draw(_SPACES) or ' '}{draw(_LEVEL)}{draw(_SPACES) or ' '}{pid}--- {app}[{thread}] "
            f"{logger}{sep}{draw(_SB_TEXT)}")  # fmt: skip
    cut = draw(st.sampled_from([0, 0, 0, 1, 2]))
    if cut == 1:
        line = line[: draw(st.integers(0, len(line)))]
    elif cut == 2:
        i = draw(st.integers(0, max(len(line) - 1, 0)))
        line = line[:i] + draw(st.sampled_from(["x", "9", " ", "[", "]", "\u00e9", ""])) + line[i + 1 :]
    return line


@settings(max_examples=300, deadline=None)
@given(st.lists(_sb_line(), min_size=1, max_size=30), st.booleans())
def test_springboot_byte_split_equals_string_kernels(lines: list[str], iso_t: bool) -> None:
    arr = pa.array(lines, pa.large_string())
    got = FP.fast_springboot(arr, iso_t)
    want = FP.fast_springboot_kernels(arr, iso_t)
    if want is None:
        assert got is None
        return
    assert _fields(*got) == _fields(*want)
    # (the string-kernel split is the reference here: on adversarial lines it differs from the layout
    # regexes - it also takes an ``[app]`` after Spring Boot 2's spaced timestamp, an empty logger,
    # and trims a thread's trailing whitespace - and the byte split keeps exactly its behaviour)


@settings(max_examples=200, deadline=None)
@given(st.lists(_sb_line(), min_size=1, max_size=30))
def test_springboot_head_after_the_shortest_timestamp_equals_every_byte(lines: list[str]) -> None:
    """The level and timestamp ends read after the shortest timestamp's bytes equal the matrix of
    every byte before ``" --- "`` (the lines the gate regex accepts)."""
    arr = pa.array(lines + ["2024-05-01 10:00:00,1 WARN --- [m] k : x"], pa.large_string())
    raw = Raw(arr)
    rows = np.nonzero(AO.mask(pc.match_substring_regex(arr, L.FAST_SPRINGBOOT)))[0]
    # (the gate's " --- " is the first one, and only ASCII comes before it: characters are bytes)
    dash = np.array([arr[int(r)].as_py().find(" --- ") for r in rows], np.int64)
    got, want = SH._head(raw, rows, dash), SH._head_plain(raw, rows, dash)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    assert got[1][-1] == 21  # (the shortest timestamp ends at byte 21)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(_sb_line(), st.booleans(), st.integers(0, 60)), min_size=1, max_size=30),
    st.sampled_from([" --- ", "]", "] ", " : "]),
)
def test_find_from_without_gaps_equals_the_tails(rows: list[tuple[str, bool, int]], needle: str) -> None:
    """The first ``needle`` of each chosen line from a byte on, searched in strings that run on to
    the next chosen line, equals the search of each line's tail alone."""
    arr = pa.array([r[0] for r in rows], pa.large_string())
    raw = Raw(arr)
    chosen = np.array([i for i, r in enumerate(rows) if r[1]], np.int64)
    start = np.array([min(rows[i][2], int(raw.lengths[i])) for i in chosen], np.int64)
    # (a start inside a character is no start the parser uses: only ASCII lines get one past 0)
    start = np.where([arr[int(i)].as_py().isascii() for i in chosen], start, 0) if len(chosen) else start
    got = SH.find_from(raw, chosen, start, needle)
    assert got.tolist() == SH.find_from_plain(raw, chosen, start, needle).tolist()
    assert got.tolist() == [
        arr[int(i)].as_py().encode()[b:].find(needle.encode()) for i, b in zip(chosen.tolist(), start.tolist())
    ]


def test_springboot_long_head_falls_back_to_the_kernels() -> None:
    line = "2024-05-01T10:00:00.123Z  INFO " + "1" * 120 + " --- [main] k.G : m"
    arr = pa.array([line, "2024-05-01T10:00:00.123Z  INFO 1 --- [a] [main] k.G  : hello"], pa.large_string())
    ok = AO.mask(pc.match_substring_regex(arr, L.FAST_SPRINGBOOT))
    assert SH.split_springboot(arr, ok, True) is None
    got = FP.fast_springboot(arr, True)
    assert _fields(*got) == _fields(*FP.fast_springboot_kernels(arr, True))
    assert got[1]["message"].to_pylist() == ["m", "hello"]
    assert got[1]["thread"].to_pylist() == ["main", "main"]
