"""Structured records of any syntax (:mod:`jobs.ingest.literals`, :mod:`jobs.ingest.records`,
:mod:`jobs.ingest.envelopes`): kafkajs' own statements with their own key sets, as its default
``logCreator`` writes them (JSON) and as ``util.inspect`` / ``console.log`` print the same object,
read with the facts its keys carry; object dumps of other languages; records printed over several
lines joined into one (the audit reconciling line for line); JSON nested in JSON."""

from __future__ import annotations

import json
import pprint
from datetime import timedelta
from typing import Any

import pytest

from jobs.ingest import catalogue as C
from jobs.ingest import literals as LIT
from jobs.ingest.parse import parse_bytes
from tests.ingest import envelope_shapes as S
from tests.ingest.helpers import check_invariant
from tests.ingest.test_reference_equivalence import assert_same

#: values kafkajs logs under its keys, where the catalogue's context holds a placeholder
_REAL_VALUES: dict[str, Any] = {
    "topics": ["orders"], "groupProtocol": "RoundRobinAssigner", "assignment": {"m-1": {"orders": [0, 1]}},
    "error": "The group is rebalancing, so a rejoin is needed", "stack": "KafkaJSProtocolError: x\n    at f (a.js:1:2)",
    "offset": "42", "topicPartitions": [{"topic": "orders", "partitions": [0]}], "assignedTopics": ["orders"],
    "topicsSubscribed": ["orders"], "topicsNotSubscribed": [], "offsets": {"topics": []}, "eventName": "consumer.crash",
}  # fmt: skip


def _kafkajs_records() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """kafkajs' statements (the catalogue, mined from its source) as its logger builds the record:
    ``{level, timestamp, logger: 'kafkajs', message: '[Namespace] text', ...extra}`` (src/loggers),
    with the extra keys of each log call; and what each must read as."""
    src = next(s for s in C.load() if s.repo == "tulios/kafkajs")
    out = []
    for k, (_, st, _) in enumerate(C.golden_lines((src,))):
        ctx = st.context if st.context is not None else src.context
        tail = ctx.split("{body}", 1)[1].format(**{**C.SAMPLE_VALUES, **src.context_values, **st.filled()})
        message = C.render_message(src, st)
        message = message[: len(message) - len(tail)]
        try:  # (the context ends inside a string value, or after a number or an object)
            extra = json.loads('{"_":"' + tail + '"}')
        except ValueError:
            extra = json.loads('{"_":"' + tail + "}")
        extra = {"message": message} | {key: _REAL_VALUES.get(key, v) if v == "x" else v
                                        for key, v in extra.items() if key != "_"}  # fmt: skip
        ts = S._iso(S.T0 + timedelta(seconds=k))
        out.append(({"level": st.level, "timestamp": ts, "logger": "kafkajs"} | extra, C.expected_of(src, st)))
    return out


#: how a kafkajs record reaches a file: its default logCreator (JSON.stringify), a logCreator that
#: console.logs the object (util.inspect: one line when short, else one key per line), in docker
_KAFKAJS_RENDERINGS = {
    "logcreator-json": lambda rec: [json.dumps(rec, separators=(",", ":"), ensure_ascii=False)],
    "inspect": lambda rec: [S.inspect(rec)],
    "inspect-multiline": lambda rec: S.inspect(rec, 2).split("\n"),
    "docker+inspect": lambda rec: [json.dumps({"log": S.inspect(rec) + "\n", "stream": "stdout",
                                               "time": "2024-05-01T11:00:00.000000001Z"})],
}  # fmt: skip


@pytest.mark.parametrize("rendering", list(_KAFKAJS_RENDERINGS))
def test_kafkajs_statements_with_their_keys_in_every_rendering(rendering: str) -> None:
    records = _kafkajs_records()
    lines: list[str] = []
    where = []
    for rec, _ in records:
        got = _KAFKAJS_RENDERINGS[rendering](rec)
        at = next((j for j, x in enumerate(got) if x.lstrip().startswith("message:")), 0)
        where.append(len(lines) + 1 + at)
        lines += got
    data = ("\n".join(lines) + "\n").encode()
    ev, _, audit = parse_bytes(data, "kafkajs.log", "c", S.SETTINGS, "r")
    check_invariant(audit)
    assert_same(data, "kafkajs.log", S.SETTINGS)
    by_line = {r["line_no"]: r for r in ev.to_pylist()}
    mapped = 0
    for (rec, exp), line in zip(records, where):
        r = by_line.get(line)
        if exp["kind"] == "unrelated":
            assert r is None, (rec["message"], r and r["kind"])
            continue
        mapped += 1
        assert r is not None, rec["message"]
        assert {k: r[k] for k in exp} == exp, rec["message"]
        assert r["ts_ms"] == int(S.datetime.fromisoformat(rec["timestamp"]).timestamp() * 1000)
    assert mapped >= 10 and ev.num_rows == mapped


def test_object_dumps_of_other_languages() -> None:
    js = ("{ level: 'INFO', n: 12n, x: [Object], y: [Array], f: [Function: f], c: [Circular *1], "
          "e: KafkaJSError { retriable: true }, a: [ 1, 2, ... 98 more items ], u: undefined, 'group.id': 'g' }")  # fmt: skip
    assert LIT.parse(js) == {"level": "INFO", "n": 12, "x": None, "y": None, "f": None, "c": None,
                             "e": {"retriable": True}, "a": [1, 2], "u": None, "group.id": "g"}  # fmt: skip
    py = {"msg": "it's \"q\" \\ é", "n": None, "t": True, "x": 1.5, "l": [1, (2)]}
    assert LIT.parse(repr(py)) == py
    assert LIT.parse(pprint.pformat(py | {"long": "w " * 60}, width=40)) == py | {"long": "w " * 60}
    assert LIT.parse("{'d': datetime.datetime(2024, 5, 1, 10, 0)}") == {"d": "datetime.datetime(2024, 5, 1, 10, 0)"}
    assert LIT.parse('{:level=>"info", "k"=>nil, :s=>:sym, :a=>[1, {:b=>2}]}') == {
        "level": "info", "k": None, "s": "sym", "a": [1, {"b": 2}]}
    assert LIT.parse('{level: "info", group_id: "g"}') == {"level": "info", "group_id": "g"}
    for cut in ("{ level: 'INFO', message: 'x", "{'a': 1", "{:a=>", "{a: 1 b: 2}", "{}}", "[1]", "x"):
        assert LIT.parse(cut) is None, cut


def test_record_end_respects_strings_and_brackets() -> None:
    lines = ["{", "  message: 'a } ] { b',", "  \"k\": [1, {\"x\": \"}\"}],", "}", "next"]
    assert LIT.record_end(lines, 0) == 3
    assert LIT.record_end(["{", "  a: 'cut", "}"], 0) is None  # (a string does not run on)
    assert LIT.record_end(["{", "  a: 1", "  b: 2"], 0) is None  # (never closes)
    assert LIT.record_end(["{", "]"], 0) is None
    assert LIT.record_end(["  {", "  },"], 0) == 1


_CC = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"
_JOINED = "[Consumer clientId=c, groupId=g] Successfully joined group with generation Generation{generationId=4, memberId='m-1', protocol='range'}"


def _read(text: str) -> tuple[list[dict], list[dict], dict]:
    return S.read_checked(text, "r.log")


def test_a_record_over_several_lines_is_one_line_among_log4j_lines() -> None:
    rec = json.dumps({"@timestamp": "2024-05-01T10:00:01.250Z", "level": "INFO", "logger_name": _CC,
                      "message": _JOINED}, indent=2)  # fmt: skip
    log4j = f"[2024-05-01 10:00:00,123] INFO [Consumer clientId=c, groupId=g] (Re-)joining group ({_CC})"
    ev, q, audit = _read(f"{log4j}\n{rec}\n{log4j}\n")
    assert [(e["line_no"], e["kind"], e["generation"], e["member_id"], e["ts_ms"], e["layout"]) for e in ev] == [
        (1, "join_sent", None, None, 1714557600123, "log4j"),
        (6, "joined", 4, "m-1", 1714557601250, "json"),  # (the line of its message key)
        (8, "join_sent", None, None, 1714557600123, "log4j"),
    ]
    assert (audit["events"], audit["continuations"], audit["unrelated"], audit["quarantined"]) == (3, 5, 0, 0)
    assert ev[1]["continuation"] is None


def test_an_unterminated_record_is_read_line_by_line() -> None:
    lines = ["{", '  "@timestamp": "2024-05-01T10:00:01.250Z",', f'  "message": {json.dumps(_JOINED)},']
    ev, q, audit = _read("\n".join(lines) + "\n")
    # (the file ends inside the record: its message key's line is still read, as before)
    assert [(e["line_no"], e["kind"], e["generation"]) for e in ev] == [(3, "joined", 4)]
    assert audit["total_lines"] == 3


def test_json_nested_in_json_takes_the_innermost_time_and_keeps_the_envelopes() -> None:
    app = {"level": "INFO", "timestamp": "2024-05-01T10:00:00.123Z", "logger": "kafkajs",
           "message": "[ConsumerGroup] Consumer has joined the group", "groupId": "g", "memberId": "m"}  # fmt: skip
    docker = json.dumps({"log": json.dumps(app) + "\n", "stream": "stdout", "time": "2024-05-01T10:00:05.5Z"})
    lines = [
        json.dumps({"date": 1714557609.0, "log": docker}),  # (a shipper's record around docker's: escaped twice)
        json.dumps({"time": "2024-05-01T10:00:07Z", "message": app}),  # (the record parsed and nested)
        json.dumps({"time": "2024-05-01T10:00:08Z", "log": S.inspect(app)}),  # (a JSON string holding a JS dump)
    ]
    ev, _, _ = _read("\n".join(lines) + "\n")
    assert [(e["kind"], e["group_id"], e["member_id"], e["ts_ms"], e["envelope_ts"].timestamp(), e["layout"]) for e in ev] == [
        ("synced", "g", "m", 1714557600123, 1714557605.5, "fluentd+docker+json"),
        ("synced", "g", "m", 1714557600123, 1714557607.0, "json+json"),
        ("synced", "g", "m", 1714557600123, 1714557608.0, "docker+inspect+json"),
    ]


@pytest.mark.parametrize("line", [
    # zap (kzap) and slog (kslog) JSON; a Ruby logger's hash; a Python dict: the same key roles
    '{"level":"info","ts":1714557600.123,"logger":"kgo","msg":"joined, balancing group","group":"g","member_id":"m",'
    '"instance_id":null,"generation":5,"balance_protocol":"cooperative-sticky"}',
    '{"time":"2024-05-01T10:00:00.123Z","level":"INFO","msg":"joined, balancing group","group":"g","member_id":"m",'
    '"generation":5}',
    '{:time=>"2024-05-01T10:00:00.123Z", :msg=>"joined, balancing group", :group_id=>"g", :member_id=>"m", :generation=>5}',
    "{'created': 1714557600.123, 'msg': 'joined, balancing group', 'group.id': 'g', 'memberId': 'm', 'generationId': '5'}",
])  # fmt: skip
def test_facts_from_key_roles_whatever_the_syntax(line: str) -> None:
    ev, _, _ = _read(line + "\n")
    assert [(e["kind"], e["group_id"], e["member_id"], e["generation"], e["ts_ms"]) for e in ev] == [
        ("joined", "g", "m", 5, 1714557600123)  # (franz-go's join: the catalogue's kind, facts from the keys)
    ]


_REJOIN = "[Consumer clientId=c, groupId=g] (Re-)joining group"


@pytest.mark.parametrize("line", [
    # pino's serialised Error, ECS's error object, a flat key, structlog's exception text, logfmt's err
    json.dumps({"time": 1714557600123, "level": 40, "msg": _REJOIN, "err": {"type": "Error", "message": "boom"}}),
    json.dumps({"@timestamp": "2024-05-01T10:00:00.123Z", "message": _REJOIN, "error": {"message": "boom", "type": "E"}}),
    json.dumps({"@timestamp": "2024-05-01T10:00:00.123Z", "message": _REJOIN, "error.message": "boom"}),
    json.dumps({"timestamp": "2024-05-01T10:00:00.123Z", "event": _REJOIN, "exception": "boom"}),
    f'ts=2024-05-01T10:00:00.123Z level=warn msg="{_REJOIN}" err=boom',
])  # fmt: skip
def test_a_records_error_key_is_the_events_reason(line: str) -> None:
    """The error a record carries beside a message that states none is the event's reason (the key
    facts, records.RECORD_FACTS); both readers."""
    ev, _, _ = _read(line + "\n")
    assert [(e["kind"], e["group_id"], e["reason"], e["ts_ms"]) for e in ev] == [("join_sent", "g", "boom", 1714557600123)]
    assert_same((line + "\n").encode())


_KAFKAJS_JOINED = (
    '{"level":"INFO","timestamp":"2024-05-01T12:00:01.123Z","logger":"kafkajs","message":"[ConsumerGroup] '
    'Consumer has joined the group","groupId":"g1","memberId":"m-1","leaderId":"m-1","isLeader":true}'
)


@pytest.mark.parametrize(
    "prefix",
    ["INFO ", "2024-05-01 12:00:05 INFO ", "2024-05-01T12:00:05.000Z info: ", "web_1  | 2024-05-01 12:00:05,000 INFO "],
)
def test_a_json_record_behind_a_text_head_is_the_line(prefix: str) -> None:
    """A record with a message key behind a timestamp / level / service column is read as the
    record (its own time, keys and message), not as the message of a text layout; both readers."""
    from tests.ingest.test_reference_equivalence import assert_same

    data = f"{prefix}{_KAFKAJS_JOINED}\n".encode()
    ev, q, _ = parse_bytes(data, "f.log")
    row = ev.select(["kind", "group_id", "member_id", "ts"]).to_pylist()
    assert [(r["kind"], r["group_id"], r["member_id"]) for r in row] == [("synced", "g1", "m-1")]
    assert row[0]["ts"].isoformat(timespec="milliseconds") == "2024-05-01T12:00:01.123+00:00"
    assert q.num_rows == 0
    assert_same(data)


def test_loguru_column_gives_the_logger_and_the_message() -> None:
    """loguru's default ``time | level | name:function:line - message``: the name is the logger (a
    kafka-python dialect that needs its logger reads it), the message follows the dash; both readers."""
    text = (b"2024-05-01 13:00:04.127 | DEBUG    | kafka.coordinator:_send_heartbeat_request:712 - Heartbeat: g7[7] c-1\n"
            b"2024-05-01 13:00:04.128 | INFO     | __main__:<module>:9 - consumer started\n")  # fmt: skip
    ev, _, audit = parse_bytes(text, "app.log")
    assert [(e["kind"], e["group_id"], e["generation"], e["member_id"], e["logger"]) for e in ev.to_pylist()] == [
        ("heartbeat_sent", "g7", 7, "c-1", "kafka.coordinator")]
    assert audit["unrelated"] == 1
    assert_same(text, "app.log")
