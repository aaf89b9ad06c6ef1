"""Messages without their logger name: an application's own log format, a JSON record or a syslog
tag that names no logger (or another one) still reads a client's distinctive wordings, decided from
the catalogue (``Dialect.distinctive``), and a message never becomes a wrong event without it."""

from __future__ import annotations

import json
import re
from functools import cache

import pytest

from jobs.ingest import dialect_model as DM
from jobs.ingest import dialects as D
from jobs.ingest import open_wordings as OW
from jobs.ingest import reference_events as RE
from jobs.ingest.catalogue import (
    UNMAPPED,
    UNRELATED,
    Source,
    Statement,
    expected_of,
    golden_lines,
    load,
    render_message,
)
from jobs.ingest.open_wordings_table import OPEN
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from jobs.ingest.reference_model import rx
from tests.ingest.test_reference_equivalence import assert_same

SOURCES = load()
#: kafkajs's statements carry their group in the JSON keys of its own record (its ``context``): a
#: message alone is no kafkajs line
_KEYED_SOURCES = {"kafkajs"}


@cache
def _loggers() -> dict[str, frozenset[str]]:
    """Per source: the logger names its golden lines' events carry (as the reader finds them)."""
    return OW.source_loggers(tuple(SOURCES))


def _own(d: DM.Dialect, source: str) -> bool:
    return any(rx(d.logger).search(lg) for lg in _loggers()[source])


@pytest.mark.parametrize("di", [i for i, d in enumerate(D.DIALECTS) if d.distinctive])
def test_a_distinctive_wording_is_no_statement_of_another_source(di: int) -> None:
    """Without its logger condition, the dialect reads no catalogue statement of a source whose lines
    do not meet the condition, and it reads at least one of its own."""
    d = D.DIALECTS[di]
    assert d.logger is not None, f"{d.id}: distinctive needs a logger condition to drop"
    # (and enough literal text that an unrelated line cannot have it: three words at least)
    literal = re.sub(r"\(\?P<\w+>|\{[A-Z]+\}|\\.|[()?:|*+.\[\]^$]", " ", re.sub(r"\[[^\]]*\]", " ", d.regex))
    assert len(re.findall(r"[A-Za-z]{2,}", literal)) >= 3, (d.id, literal)
    own, foreign = 0, []
    for src in SOURCES:
        for st in src.statements:
            m = RE.match_dialect(render_message(src, st), "")
            if m is not None and m.dialect == di:
                if _own(d, src.name):
                    own += 1
                else:
                    foreign.append(f"{src.name}:{st.id}")
    assert foreign == []
    assert own > 0 or d.id in _NOT_CATALOGUED, d.id


#: distinctive dialects whose wording comes from the dialect fixtures, not from a catalogued statement
_NOT_CATALOGUED = {"python.heartbeat_session_expired_group"}


def _loggerless(src, sts) -> bytes:
    """``sts`` as JSON records with a time, a level and the message (pino's shape: no logger name)."""
    return "".join(
        json.dumps({"level": 30, "time": f"2024-05-01T10:00:{k % 60:02d}.123Z", "msg": render_message(src, st)}) + "\n"
        for k, st in enumerate(sts)
    ).encode()


def test_catalogue_without_logger_names() -> None:
    """Every mapped statement of every source, as a message with no logger name: none becomes a wrong
    kind, an unrelated one stays no event, and the statements read right are counted (a message read
    only by a source's catch-all dialect needs its logger and is no event)."""
    right, missed, wrong = 0, [], []
    for src in SOURCES:
        if src.name in _KEYED_SOURCES:
            continue
        sts = [st for st in src.statements if st.kind != UNMAPPED]
        ev, _, audit = parse_bytes(_loggerless(src, sts), f"{src.name}.log")
        assert audit["total_lines"] == len(sts)
        by_line = {}
        for e in ev.to_pylist():
            by_line.setdefault(e["line_no"], e)
        for i, st in enumerate(sts, start=1):
            want, got = expected_of(src, st)["kind"], by_line.get(i)
            if want == UNRELATED:
                if got is not None:
                    wrong.append(f"{src.name}:{st.id} unrelated -> {got['kind']}")
            elif got is None:
                missed.append(f"{src.name}:{st.id}")
            elif got["kind"] != want:
                wrong.append(f"{src.name}:{st.id} {want} -> {got['kind']}")
            else:
                right += 1
    assert wrong == []
    assert right >= 1100, (right, missed)
    # (what is missed needs its logger: a wording of kafka-python's and aiokafka's catch-all that another source
    # reads differently (the Java 0.10 client's unrelated "Group g fetching committed offsets ...") or a short
    # one ("Heartbeat: g[3] m", kafka-node's "SyncGroup Response", sarama's "Closing Client"): no open wording)
    assert {m.split(":")[0] for m in missed} <= {"aiokafka", "kafka-python", "kafka-broker-scala", "librdkafka", "kafka-node",
                                                 "sarama"}, missed  # fmt: skip


def test_distinctive_statements_read_the_same_with_and_without_their_logger() -> None:
    """A statement a distinctive dialect reads in its program's own line reads as the same event
    without the logger name, in both readers."""
    distinct = {i for i, d in enumerate(D.DIALECTS) if d.distinctive}
    for src in SOURCES:
        sts = [st for _, st, _ in golden_lines((src,))]
        picked = [st for st in sts if (m := RE.match_dialect(render_message(src, st), "")) and m.dialect in distinct]
        if not picked:
            continue
        data = _loggerless(src, picked)
        assert_same(data, f"{src.name}.log", None)
        ev, _, _ = parse_bytes(data, f"{src.name}.log")
        got = {e["line_no"]: e for e in ev.to_pylist()}
        for i, st in enumerate(picked, start=1):
            want = {k: v for k, v in expected_of(src, st).items() if k in ("kind", "group_id", "generation", "member_id")}
            assert {k: got[i][k] for k in want} == want, (src.name, st.id)


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes])
def test_librdkafka_thread_prefix_names_its_source(reader) -> None:
    """``[thrd:main]: `` is written by librdkafka alone: its facility-gated wordings read whatever the
    logger column holds (a .NET category, a Python logger, none)."""
    lines = [
        "2024-05-01 10:00:00.123 INFO app.Kafka: [thrd:main]: Group \"g\" changed join state init -> wait-join (state up)",
        "2024-05-01 10:00:00.200 DEBUG app.Kafka: [thrd:main]: Heartbeat for generation 3 member id rdkafka-l1",
        "2024-05-01 10:00:00.300 DEBUG app.Kafka: Heartbeat for generation 3 member id rdkafka-l1",
    ]
    ev, q, _ = reader(("\n".join(lines) + "\n").encode(), "r.log", "c", None, "r")
    got = [(e["line_no"], e["kind"], e["group_id"], e["generation"], e["member_id"]) for e in ev.to_pylist()]
    assert got == [(1, "other", "g", None, None), (2, "other", "g", 3, "rdkafka-l1")]
    assert [(r["line_no"], r["reason"]) for r in q.to_pylist()] == [(3, "group_line_not_understood")]


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes])
def test_blanks_after_a_message_are_not_part_of_it(reader) -> None:
    """faust 1.10's lines (``[ts] [pid] [LEVEL] message ``, no logger) end with a blank: the dialects
    match the message without it (``DM.TRAILING_BLANKS``), in both readers."""
    lines = [
        "[2020-10-29 16:15:07,492] [644661] [INFO] (Re-)joining group lockup-demo ",
        "[2020-10-29 16:15:07,496] [644661] [INFO] Joined group 'lockup-demo' (generation 25) with member_id faust-1 ",
        "[2020-10-29 16:15:07,502] [644661] [INFO] Successfully synced group lockup-demo with generation 25 \t",
    ]
    ev, q, _ = reader(("\n".join(lines) + "\n").encode(), "f.log", "c", None, "r")
    got = [(e["line_no"], e["kind"], e["group_id"], e["generation"], e["member_id"]) for e in ev.to_pylist()]
    assert got == [(1, "join_sent", "lockup-demo", None, None), (2, "joined", "lockup-demo", 25, "faust-1"),
                   (3, "synced", "lockup-demo", 25, None)]  # fmt: skip
    assert q.num_rows == 0


def test_a_catchall_stays_gated() -> None:
    """A source's catch-all (any line naming a group) is never distinctive: without its logger it
    would read other programs' lines."""
    for d in D.DIALECTS:
        if DM.is_catchall(d):
            assert not d.distinctive, d.id


# ------------------------------------------------------------------------------ open wordings (the catalogue's rule)
def test_the_open_wordings_table_is_the_catalogue_rule() -> None:
    """``open_wordings_table.OPEN`` is what the rule computes from the catalogue today (regenerate it
    with ``python -m jobs.ingest.open_wordings --write``), and only gated dialects are in it."""
    assert OW.compute() == OPEN
    for did in OPEN:
        assert DM.logger_condition(D.DIALECT_BY_ID[did]) is not None, did


def _opened() -> list[tuple[Source, Statement, int]]:
    """(source, statement, dialect) for every catalogue statement a gated dialect reads by an open
    wording (the dialect's pattern and, for a wording, its regex read the statement's body)."""
    out = []
    for src in SOURCES:
        for st in src.statements:
            body = RE.split_prefix(render_message(src, st).rstrip(DM.TRAILING_BLANKS))[2]
            for di, d in enumerate(D.DIALECTS):
                ow = D.open_wording(d)
                if ow is not None and rx(d.pattern).search(body) and (ow == "" or rx(ow).search(body)):
                    out.append((src, st, di))
    return out


def test_an_open_wording_misreads_no_statement_of_any_source() -> None:
    """Every catalogue statement (of every source) an open wording reads becomes, by that dialect, the
    event the catalogue declares for it: the same kind and facts, or no event for an unrelated one;
    and each open wording reads one at least."""
    opened = _opened()
    wrong = [f"{src.name}:{st.id} by {D.DIALECTS[di].id}" for src, st, di in opened
             if not OW._agrees(di, src, st, render_message(src, st).rstrip(DM.TRAILING_BLANKS))]  # fmt: skip
    assert wrong == []
    assert {D.DIALECTS[di].id for _, _, di in opened} == set(OPEN)
    for did, ow in OPEN.items():
        for w in ow.split(")|(?:") if ow else ():
            assert len(re.findall(r"[A-Za-z]{2,}", re.sub(r"\.\*\?|\\.", " ", w))) >= OW.MIN_WORDS, (did, w)


def test_an_open_wording_reads_without_its_logger() -> None:
    """A statement of each open wording, as a line with no logger name, reads as the catalogue's event
    (kind and facts) in both readers, the same."""
    seen: dict[str, list[Statement]] = {}
    by_src = {src.name: src for src in SOURCES}
    for src, st, _di in _opened():
        if st.kind != UNRELATED and src.name not in _KEYED_SOURCES and st not in seen.get(src.name, []):
            seen.setdefault(src.name, []).append(st)
    assert sum(len(v) for v in seen.values()) >= 20
    for name, sts in seen.items():
        src = by_src[name]
        data = _loggerless(src, sts)
        assert_same(data, f"{name}.log", None)
        ev, _, _ = parse_bytes(data, f"{name}.log")
        got = {e["line_no"]: e for e in ev.to_pylist()}
        for i, st in enumerate(sts, start=1):
            want = {k: v for k, v in expected_of(src, st).items() if k in ("kind", *OW.FACTS)}
            assert i in got and {k: got[i][k] for k in want} == want, (name, st.id)


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes])
def test_a_known_logger_keeps_the_condition(reader) -> None:
    """A logger some dialect's condition names (a Connect worker's) is no unknown logger: a gated
    dialect's open wording does not read its line; with no logger, or one no condition names, it does."""
    msg = "Cannot auto-commit offsets for group g because the coordinator is unknown"
    assert "python.any_group" in OPEN and rx(OPEN["python.any_group"]).search(msg)
    lines = [f"[2024-05-01 10:00:0{k},123] INFO {msg} ({lg})" for k, lg in
             enumerate(["org.apache.kafka.connect.runtime.distributed.WorkerCoordinator", "app.worker", "kafka.coordinator.consumer"])]  # fmt: skip
    ev, _, _ = reader(("\n".join(lines) + "\n").encode(), "k.log", "c", None, "r")
    assert [(e["line_no"], e["kind"], e["group_id"]) for e in ev.to_pylist()] == [(2, "other", "g"), (3, "other", "g")]


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes])
def test_a_clients_own_statement_wins_over_a_callback(reader) -> None:
    """structlog's console renderer writes its keys after the message (``logger=`` among them): the logger
    is read, the keys are no part of the message, and a client's own statement with a printed partition
    list wins over the callback dialects (which read any verb before a list)."""
    lines = [
        "2024-05-01T13:01:27.210000Z [info     ] Group g lost membership; forcibly revoking "
        "{TopicPartition(topic='orders', partition=0)} logger=kafka.coordinator.consumer",
        "2024-05-01T13:01:28.210000Z [info     ] Group g lost membership; forcibly revoking "
        "{TopicPartition(topic='orders', partition=1)} count=1 pid=4",
        '2024-05-01T13:01:29.210000Z [debug    ] GRPSYNC [rdkafka#consumer-1] [thrd:main]: Group "g": '
        "synchronization failed: Broker: Group rebalance in progress: rejoining logger=confluent_kafka",
        "2024-05-01T13:01:30.210000Z [debug    ] SYNCGROUP [rdkafka#consumer-1] [thrd:main]: SyncGroup response: "
        "Success (38 bytes of MemberState data) logger=confluent_kafka",
    ]
    ev, q, _ = reader(("\n".join(lines) + "\n").encode(), "s.log", "c", None, "r")
    got = [(e["line_no"], e["kind"], e["group_id"], e["partitions"], e["logger"]) for e in ev.to_pylist()]
    assert got == [(1, "partitions_lost", "g", ["orders-0"], "kafka.coordinator.consumer"),
                   (2, "partitions_lost", "g", ["orders-1"], None),
                   (3, "rejoin_requested", "g", None, "confluent_kafka"),
                   (4, "synced", "g", None, "confluent_kafka")]  # fmt: skip
    assert q.num_rows == 0
