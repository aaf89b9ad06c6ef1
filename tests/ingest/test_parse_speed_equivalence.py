"""The shortcuts of the parser's fast paths give the same result as the plain way.

* :data:`jobs.ingest.layouts.FIRST_CHARS` is a necessary condition of every layout regex (a line
  starting with another character never matches), checked with RE2 itself;
* dialect matching on the distinct (message, logger, layout) triples of a file, spread back to the
  lines, equals matching every line;
* the vectorised librdkafka group carry equals the line-by-line definition.
"""

from __future__ import annotations

import string

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.ingest import arrowops as AO
from jobs.ingest import dialects as D
from jobs.ingest import epoch_ms as EM
from jobs.ingest import fields as FL
from jobs.ingest import general as G
from jobs.ingest import heads as HD
from jobs.ingest import layouts as L
from jobs.ingest import lines as LN
from jobs.ingest import messages as MS
from tests.ingest.helpers import parse_text

_CHARS = string.printable + "\x00\x7f\u00e9\u4e2d"


def _never_matches(regex: str, lines: list[str]) -> None:
    hits = pc.match_substring_regex(pa.array(lines, pa.string()), regex).to_pylist()
    assert not any(hits), [x for x, h in zip(lines, hits) if h]


def test_first_chars_cover_every_layout_and_its_example() -> None:
    assert set(L.FIRST_CHARS) == {lay.id for lay in L.LAYOUTS} | {"json", "ts"}
    for lay in L.LAYOUTS:
        assert lay.example[0] in L.FIRST_CHARS[lay.id], lay.id


def test_first_chars_are_necessary() -> None:
    """A line whose first character is outside the layout's set matches neither with the rest of
    the example nor with the whole example behind it (RE2, as the parser runs it)."""
    cases = [(lay.id, lay.regex, lay.example) for lay in L.LAYOUTS]
    cases += [
        ("json", L.JSON_LINE, '{"message": "x"}'),
        ("ts", L.TS_PREFIX, "2024-05-01T10:00:00.123Z [2024-05-01 10:00:00,123] INFO x (a.B)"),
    ]
    for lid, regex, example in cases:
        bad = [c for c in _CHARS if c not in L.FIRST_CHARS[lid]]
        lines = [c + example[1:] for c in bad] + [c + example for c in bad] + bad
        _never_matches(regex, lines)


def test_first_bytes_lookup() -> None:
    fb = HD.FirstBytes(pa.array(["[a", "1b", "", None, "\u00e9", "{", " {"], pa.large_string()))
    assert fb.possible("[").tolist() == [True, False, False, False, False, False, False]
    assert fb.possible(L.FIRST_CHARS["json"]).tolist() == [False] * 5 + [True, True]
    assert fb.take(np.array([1, 0])).possible("0123456789").tolist() == [True, False]


def _reference_candidate_events(cpos, message, head_t, layout_col):
    """The plain way: every candidate line through the dialects (no deduplication)."""
    logger = AO.take(head_t["logger"].combine_chunks(), cpos)
    mt, unmatched = MS._match_dialects(AO.take(message, cpos), pc.fill_null(logger, ""))
    if not len(mt):
        return None, unmatched
    r = AO.numpy_of(mt["_row"])
    ev = FL.typed_event_fields(mt, AO.take(logger, r), AO.take(AO.take(layout_col, cpos), r))
    ev = ev.set_column(ev.column_names.index("_row"), "_row", pa.array(cpos[r], pa.int64()))
    ev = FL.event_rows(ev, AO.take(head_t["thread"].combine_chunks(), cpos[r]))
    return ev.filter(pc.not_equal(ev["kind"], "")), unmatched


LINES = [
    "[2024-05-01 10:00:00,{ms:03d}] DEBUG [Consumer clientId=c-{c}, groupId=g{g}] Sending Heartbeat request with "
    "generation {g} and member id m-{c} to coordinator k:9092 (id: 2147483646 rack: null) "
    "(org.apache.kafka.clients.consumer.internals.AbstractCoordinator)",
    "[2024-05-01 10:00:00,{ms:03d}] INFO [GroupCoordinator 1]: Stabilized group g{g} generation {g} "
    "(__consumer_offsets-{c}) with 2 members (kafka.coordinator.group.GroupCoordinator)",
    "[2024-05-01 10:00:00,{ms:03d}] INFO [Consumer clientId=c-{c}, groupId=g{g}] Heartbeat thread started "
    "(kafka.coordinator.base)",
    "[2024-05-01 10:00:00,{ms:03d}] INFO [GroupCoordinator 1]: The following groups were deleted: g{g}, h{c}. "
    "A total of {c} offsets were removed. (kafka.coordinator.group.GroupMetadataManager)",
    "[2024-05-01 10:00:00,{ms:03d}] INFO [Consumer clientId=c-{c}, groupId=g{g}] Something about the group "
    "nobody logs (x.Y)",
    "%7|1714557600.{ms:03d}|CGRP|rdkafka#consumer-{c}| [thrd:main]: Heartbeat for generation {g} member id r{c}",
    '%7|1714557600.{ms:03d}|CGRP|rdkafka#consumer-{c}| [thrd:main]: Group "g{g}" changed join state init -> '
    "wait-join (state up)",
]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(LINES) - 1), st.integers(0, 2), st.integers(0, 2)), min_size=1))
def test_dedup_dialects_equal_every_line(picks: list[tuple[int, int, int]]) -> None:
    text = "".join(LINES[i].format(ms=k % 1000, c=c, g=g) + "\n" for k, (i, c, g) in enumerate(picks))
    lines = LN.split_lines(text.encode())
    text_a = lines.cast(pa.large_string())
    heads = HD.Heads()
    rows = np.arange(len(text_a))
    order = HD.layout_order(text_a)
    HD.match_layouts(text_a, rows, order, heads, "", None)
    head_t = heads.table()
    message = pc.fill_null(head_t["message"].combine_chunks(), "")
    layout_col = head_t["layout"].combine_chunks()
    menc = pc.dictionary_encode(message)
    mcodes = AO.numpy_of(menc.indices).astype(np.int64)
    cand = AO.mask(pc.match_substring_regex(message, D.GROUP_PREFILTER))
    if not cand.any():
        return
    cpos = np.nonzero(cand)[0]
    got, got_un = MS.candidate_events(cpos, mcodes[cpos], message, head_t, layout_col)
    want, want_un = _reference_candidate_events(cpos, message, head_t, layout_col)
    assert got_un.tolist() == want_un.tolist()
    if want is None or not len(want):
        assert got is None or not len(got)
        return
    # (recognised non-events may stay in: the parser drops them next)
    assert got.filter(pc.not_equal(got["kind"], "")).to_pylist() == want.to_pylist()


def _carry_reference(gids: list, other: list[bool], thread: list) -> list:
    gids = list(gids)
    last: dict = {}
    for i in range(len(gids)):
        if not other[i]:
            continue
        if gids[i] is None:
            gids[i] = last.get(thread[i])
        else:
            last[thread[i]] = gids[i]
    return gids


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([None, "g1", "g2"]), st.booleans(), st.sampled_from([None, "t1", "t2"])),
        min_size=1,
    )
)
def test_carry_groups_equals_line_by_line(rows: list[tuple]) -> None:
    gids = [r[0] for r in rows]
    other = [r[1] for r in rows]
    thread = [r[2] for r in rows]
    got = FL.carry_groups(pa.array(gids, pa.string()), np.array(other), pa.array(thread, pa.string()))
    assert got.to_pylist() == _carry_reference(gids, other, thread)


def test_deleted_groups_and_rdkafka_carry_end_to_end() -> None:
    text = (
        "[2024-05-01 10:00:00,000] INFO [GroupCoordinator 1]: The following groups were deleted: a, b. "
        "A total of 2 offsets were removed. (kafka.coordinator.group.GroupMetadataManager)\n"
        '%7|1714557600.100|CGRP|rdkafka#consumer-1| [thrd:main]: Group "g" changed join state init -> '
        "wait-join (state up)\n"
        "%7|1714557600.200|CGRP|rdkafka#consumer-1| [thrd:main]: Heartbeat for generation 3 member id r1\n"
        "%7|1714557600.300|CGRP|rdkafka#consumer-2| [thrd:main]: Heartbeat for generation 3 member id r2\n"
    )
    ev, q, audit = parse_text(text)
    got = [(r["line_no"], r["group_id"]) for r in ev.to_pylist()]
    assert got[:2] == [(1, "a"), (1, "b")]
    assert (3, "g") in got
    assert audit["total_lines"] == 4


def test_dialect_literals_are_prefixes_of_every_match() -> None:
    """Each dialect's ``literal`` (tested before its regex) starts its example, and matched bodies
    of the fixture lines start with it (checked against the regex, not the parser)."""
    import re

    for d in D.DIALECTS:
        assert d.example.startswith(d.literal), d.id
        assert re.match(d.pattern, d.example), d.id
    assert D.literal_prefix(r"^Requests? done$") == "Request"
    assert D.literal_prefix(r"^Group \"(?P<g>\S+)\"$") == 'Group "'
    assert D.literal_prefix(r"^a b|c d$") == ""
    assert D.literal_prefix(r"^x{2}y$") == ""
    assert D.literal_prefix(r"^ab+c$") == "ab"
    assert D.literal_prefix(r"^\(Re-\)joining group(?: for group (?P<g>\S+?))?$") == "(Re-)joining group"
    assert D.literal_prefix(r"^\d+ x$") == ""


_PIECES = [
    "[Consumer ",
    "[Worker ",
    "instanceId=",
    "i",
    ",",
    " clientId=",
    "c",
    ", groupId=",
    "g",
    "]",
    "] ",
    " ",
    "x",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join), min_size=1, max_size=20))
def test_client_prefix_by_distinct_key_equals_extraction(msgs: list[str]) -> None:
    fixed = ["[Consumer clientId=c, groupId=g] x", "[Worker instanceId=i, clientId=c, groupId=g]] x"]
    arr = pa.array(fixed + msgs, pa.string())
    want = pc.extract_regex(arr, MS._CLIENT_PREFIX_RX)
    assert want.is_valid().to_pylist()[:2] == [True, False]
    got = MS._extract_client_prefix(arr, MS._CLIENT_PREFIX_RX)
    assert got.to_pylist() == want.to_pylist()


def test_json_file_with_a_flat_and_a_nested_key_of_the_same_name() -> None:
    """``"log.level"`` as a flat key on one line and ``{"log": {"level": ...}}`` on another flatten to
    the same column name: both lines parse (no KeyError), each with its level."""
    from jobs.ingest.parse import parse_bytes

    msg = "[Consumer clientId=c-1, groupId=g] (Re-)joining group"
    data = (
        '{"@timestamp":"2024-05-01T10:00:00.000Z","log.level":"INFO","log.logger":"o.a.k.c.c.i.ConsumerCoordinator",'
        f'"message":"{msg}"}}\n'
        '{"@timestamp":"2024-05-01T10:00:01.000Z","log":{"level":"WARN","logger":"o.a.k.c.c.i.ConsumerCoordinator"},'
        f'"message":"{msg}"}}\n'
    ).encode()
    ev, q, audit = parse_bytes(data, "mixed.json")
    assert audit["total_lines"] == 2 and audit["events"] == 2 and audit["quarantined"] == 0
    assert ev.column("level").to_pylist() == ["INFO", "WARN"]
    assert ev.column("group_id").to_pylist() == ["g", "g"]


_ASSIGN_PIECES = st.sampled_from(
    [
        "{",
        "}",
        "m1",
        "m-2",
        "=Assignment(partitions=[",
        "]",
        ")",
        ", ",
        ",",
        " ",
        "t-0",
        "t-1",
        "\u00e9",
        "\t",
        "x",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.lists(_ASSIGN_PIECES, max_size=14).map("".join),
            st.lists(
                st.tuples(
                    st.sampled_from(["m1", "c-1-uuid", "\u00e9"]), st.lists(_ASSIGN_PIECES, max_size=5)
                ),
                max_size=4,
            ).map(
                lambda ms: "{" + ", ".join(f"{m}=Assignment(partitions=[{''.join(p)}])" for m, p in ms) + "}"
            ),
        ),
        max_size=12,
    )
)
def test_assignment_maps_equal_row_by_row(raw: list) -> None:
    """The leader's assignment maps split by Arrow kernels equal the row-by-row definition."""
    a = pa.array(raw, pa.string())
    got = FL._assignment(a)
    want = FL._assignment_reference(a)
    assert got.type == want.type
    assert got.to_pylist() == want.to_pylist()
    assert got.equals(want)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["", "a", None, "\u00e9", " "]), max_size=20), st.booleans())
def test_nullify_empty_equals_if_else(values: list, large: bool) -> None:
    """Empty strings become null; a column without any keeps its values (no kernel runs)."""
    a = pa.array(values, pa.large_string() if large else pa.string())
    want = pc.if_else(pc.equal(a, ""), pa.scalar(None, a.type), a)
    got = AO.nullify_empty(a)
    assert got.type == want.type and got.to_pylist() == want.to_pylist()
    sliced = a.slice(1) if len(a) > 1 else a
    assert AO.nullify_empty(sliced).to_pylist() == [None if v == "" else v for v in sliced.to_pylist()]


def _reference_layout_order(text: pa.Array) -> list[str]:
    sample = text.slice(0, HD.ORDER_SAMPLE)
    hit = [bool(pc.any(pc.match_substring_regex(sample, lay.regex)).as_py()) for lay in L.LAYOUTS]
    return [lay.id for lay, h in zip(L.LAYOUTS, hit) if h] + [
        lay.id for lay, h in zip(L.LAYOUTS, hit) if not h
    ]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([lay.example for lay in L.LAYOUTS]),
            st.sampled_from([lay.example for lay in L.LAYOUTS]).map(lambda x: x[: len(x) // 2]),
            st.sampled_from(["\tat x.Y(Y.java:1)", "", "[x", "2024", "{"]),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_layout_order_equals_every_regex_on_the_sample(lines: list[str]) -> None:
    """The first-characters skip, the distinct wordings and the early answer from the first possible
    lines (Python's re) give the order of running every layout regex on the whole sample."""
    text = pa.array(lines, pa.large_string())
    assert [lay.id for lay in HD.layout_order(text)] == _reference_layout_order(text)
    assert [lay.id for lay in HD.layout_order_plain(text)] == _reference_layout_order(text)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([lay.example for lay in L.LAYOUTS] + ["", "\tat x.Y(Y.java:1)"]),
                  st.lists(st.sampled_from("0123456789x \u00e9"), min_size=1, max_size=3)),
        min_size=1,
        max_size=30,
    ),
    st.booleans(),
)
def test_layout_order_on_wordings_equals_every_line(lines: list[tuple[str, list[str]]], nulls: bool) -> None:
    """Lines that differ in their digits (or in a digit made another character) give the order of
    trying every layout on every line (:func:`HD.layout_order_plain`)."""
    vals: list[str | None] = []
    for k, (line, subs) in enumerate(lines):
        chars = list(line)
        digits = [i for i, c in enumerate(chars) if c.isdigit()]
        for j, c in enumerate(subs):
            if digits:
                chars[digits[(k + j * 7) % len(digits)]] = c
        vals.append("".join(chars) if not (nulls and k % 5 == 4) else None)
    text = pa.array(vals, pa.string())
    assert [lay.id for lay in HD.layout_order(text)] == [lay.id for lay in HD.layout_order_plain(text)]
    assert [lay.id for lay in HD.layout_order(text)] == _reference_layout_order(pc.fill_null(text, ""))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(
                ["2024-05-01 10:00:00,123", "2024-02-30 10:00:00,000", "", "2024-05-01T10:00:00Z"]
            ),
            st.booleans(),
        ),
        min_size=1,
        max_size=10,
    ),
    st.sampled_from(["UTC", "Europe/Berlin", "America/New_York"]),
)
def test_head_timestamps_with_converted_values_equal_the_parser(rows: list, tz: str) -> None:
    """Heads whose ts a fast path converted (``tsms``) get the same epoch ms as the parser's."""
    ts = [t for t, _ in rows]
    want_all = None
    try:
        want_all = EM.parse_timestamps(pa.array([t or None for t in ts], pa.string()), tz).to_pylist()
    except pa.ArrowInvalid:
        return  # (an invalid date fails the cast: never converted by a fast path either)
    tsms = [
        EM.parse_timestamps(pa.array([t]), "UTC")[0].as_py() if (conv and t and "T" not in t) else None
        for t, conv in rows
    ]
    head_t = pa.table(
        {
            "ts": pa.array(ts, pa.string()),
            "pts": pa.nulls(len(ts), pa.string()),
            "tsms": pa.array(tsms, pa.int64()),
        }
    )
    assert HD.head_timestamps(head_t, tz).to_pylist() == want_all


def test_first_words_of_keyless_dialects() -> None:
    assert D.first_words(r"^(?P<reason>Setting offset for (?P<p>\S+))$") == frozenset(["Setting"])
    assert D.first_words(r"^(?:Starting up|Startup complete)\.?$") == frozenset(["Starting", "Startup"])
    assert D.first_words(r"^(?:Asynchronous|Synchronous) auto-commit .*$") == frozenset(
        ["Asynchronous", "Synchronous"]
    )
    assert D.first_words(r"^(?:A|B)\.? x$") is None  # (the word could be "A.")
    assert D.first_words(r"^(?:A b|C d)? x$") is None
    assert D.first_words(r"^(?P<g>\S+?): partitions$") is None
    assert D.first_words(r"^Requests? done$") is None
    assert D.first_words(r"^(?P<w>Static|Dynamic) Member$") is None
    assert D.first_words(r"^(?P<w>Leaving group|Left) now$") is None  # not {"Leaving"}: "Left now" matches
    for d in D.DIALECTS:
        if d.first_words is not None:
            assert d.example.split(" ")[0] in d.first_words, d.id


_BODY_WORDS = st.sampled_from(
    sorted({d.example.split(" ")[0] for d in D.DIALECTS} | {"x", "", "Setting\t", "Metrics."})
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from([d.example for d in D.DIALECTS]),
            st.tuples(_BODY_WORDS, st.sampled_from([d.example for d in D.DIALECTS])).map(
                lambda t: t[0] + t[1][t[1].find(" ") :] if " " in t[1] else t[0]
            ),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_keyless_first_word_filter_equals_every_row(bodies: list[str]) -> None:
    """A keyless dialect tried only on the bodies starting with one of its first words matches
    exactly the rows it matches when tried on every body (and every match starts so)."""
    import re

    for body in bodies:
        for d in D.DIALECTS:
            if d.first_words is not None and re.match(d.pattern, body):
                assert body.split(" ")[0] in d.first_words, (d.id, body)
    msgs = pa.array(bodies, pa.string())
    logger = pa.array(["kafka.coordinator"] * len(bodies), pa.string())
    got_t, got_u = MS._match_dialects(msgs, logger)
    real = D.Dialect.first_words
    D.Dialect.first_words = property(lambda self: None)  # type: ignore[assignment]
    try:
        want_t, want_u = MS.match_messages_by_column(msgs, logger)  # (the column form reads first_words)
    finally:
        D.Dialect.first_words = real  # type: ignore[assignment]
    assert got_u.tolist() == want_u.tolist()
    assert got_t.to_pylist() == want_t.to_pylist()


def test_general_reader_skips_continuations_without_a_leading_timestamp() -> None:
    """The general reader's early exit (only continuation-shaped lines, none led by a timestamp)
    gives the heads of the whole computation: none."""
    from jobs.ingest import general as G

    conts = ["\tauto.commit.interval.ms = 5000", "\tat a.b.C(C.java:12)", "    retries = 2147483647",
             "\t2024-05-01 10:00:00,123 indented entry"]  # fmt: skip
    early, st_ = G.read_heads(pa.array(conts[:3], pa.string()), np.zeros(3, dtype=bool), np.ones(3, dtype=bool))
    assert early.tolist() == [False] * 3 and set(st_) == {"ts", "level", "logger", "message", "pts"}
    # the same lines with a line that can be a head (no early exit): still no head among them
    full, _ = G.read_heads(pa.array(conts, pa.string()), np.zeros(4, dtype=bool), np.ones(4, dtype=bool))
    assert full.tolist() == [False, False, False, True]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 9000))
def test_binary_sniff_equals_the_byte_count(data: bytes, pad: int) -> None:
    from jobs.ingest import files as FI

    for d in (data, b"a" * pad + data, data * 40):
        assert FI.is_binary(d) == FI.is_binary_plain(d)


_KEY_LINES = st.sampled_from(["  groupId: g1", "\tgroup_id: 'g-2',", "  memberId: m-1", "  member_id:", "  generation: 7",
                              '  "generationId": "-3"', "  generation: x", "at a.b.C(C.java:1)", "", "  other: 1"])  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.lists(_KEY_LINES, max_size=4).map("\n".join)),
                          st.sampled_from([None, "g0"]), st.sampled_from([None, "m0"]), st.sampled_from([None, 1])),
                min_size=1, max_size=12))  # fmt: skip
def test_key_block_on_continued_lines_equals_every_line(rows: list[tuple[str | None, str | None, str | None, int | None]]) -> None:
    """The continuation's key block searched on the lines that have one gives what searching every
    line gives (:func:`jobs.ingest.fields.key_block_plain`)."""
    from jobs.ingest import fields as FLD

    ev = pa.table({"group_id": pa.array([r[1] for r in rows], pa.string()),
                   "generation": pa.array([r[3] for r in rows], pa.int32())})  # fmt: skip
    cont = pa.array([r[0] for r in rows], pa.string())
    member = pa.array([r[2] for r in rows], pa.string())
    got, want = FLD._key_block(ev, cont, member), FLD.key_block_plain(ev, cont, member)
    assert {k: v.to_pylist() for k, v in got.items()} == {k: v.to_pylist() for k, v in want.items()}
    assert all(got[k].type == want[k].type for k in want)


_GENERAL_LINES = [
    "\tauto.commit.interval.ms = 5000",
    "\tMember:      j_TsKaU38yxWyfR_gYsjMg",
    "2024-05-01 10:00:00 WARN some.Logger: Member m1 left group g",
    "10:00:00.123 [main] INFO  k.Coordinator - (Re-)joining group g",
    "  2024-05-01T10:00:00Z indented entry",
    "java.io.IOException: Connection to 2 was disconnected",
    "ERROR something happened (a.b.C)",
    "",
]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_GENERAL_LINES), st.booleans(), st.booleans()), min_size=0, max_size=80)
)
def test_general_reader_per_distinct_line_equals_every_line(rows: list[tuple[str, bool, bool]]) -> None:
    """The general reader on the distinct (line, hint, continuation shape) triples, spread back, gives
    what it gives on every line (the heads and their fields)."""
    cand = pa.array([r[0] for r in rows], pa.string())
    hint = np.array([r[1] for r in rows], dtype=bool)
    cont = np.array([r[2] for r in rows], dtype=bool)
    got_h, got = G.head_fields(cand, hint, cont)
    want_h, want = G.head_fields_plain(cand, hint, cont)
    assert got_h.tolist() == want_h.tolist()
    assert {k: v.to_pylist() for k, v in got.items()} == {k: v.to_pylist() for k, v in want.items()}
