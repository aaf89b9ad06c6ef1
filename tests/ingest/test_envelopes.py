"""Envelopes and application records (:mod:`jobs.ingest.envelopes`, :mod:`jobs.ingest.records`):
coordinator messages rendered in every shape read as they read in Kafka's own layout (kind, group,
generation, member id, the application's time to the millisecond); both readers agree on every
shape; split lines are rejoined; bad envelopes fall back or are quarantined, never dropped."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from jobs.ingest import dialects as D
from jobs.ingest import records as R
from jobs.ingest.dialect_model import logger_needed
from jobs.ingest.envelopes import peel_lines
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from jobs.ingest.reference_events import understand
from tests.ingest import envelope_shapes as S
from tests.ingest.helpers import check_invariant
from tests.ingest.test_reference_equivalence import assert_same

#: shapes that carry no logger name, or only its last segment: messages only a source's catch-all
#: dialect reads (any line naming a group, under kafka-python's or sarama's logger) are measured on
#: the other shapes; every distinctive wording reads in them too (tests/ingest/test_loggerless.py)
_NO_FULL_LOGGER = {"bunyan", "pino", "zap", "zerolog", "cloudlogging-json", "csv-kibana", "syslog3164-short",
                   "syslog5424-msg", "erlang-report", "otp", "elixir", "python-custom", "golog-micro", "logrus-text",
                   "zap-console", "ruby-logger", "winston-json"}  # fmt: skip
#: shapes that put the consumer's group in the MDC instead of its context prefix: a wording read only
#: behind that prefix (``Dialect.needs_prefix``) is measured on the other shapes (as what needs a
#: logger name: a pattern's short logger before the MDC block is not read as one)
_MDC = {shape for shape in S.SHAPES if shape.startswith("mdc-")}


@pytest.fixture(scope="module")
def catalogue() -> tuple[list[S.Item], list[S.Item], list[S.Item]]:
    """(every third message the control reads, those that need no logger name, those read without the
    consumer's context prefix; the control reads the sample again, as a line that names no group takes
    it from the lines that are left around it)."""
    its = S.controlled(S.controlled(S.items(S.dialect_fixture_catalogue()))[::3])
    neutral = {it.message for it in S.controlled([replace(it, logger="app.Main") for it in its])}
    # (what needs its logger is read by a dialect whose logger condition is not dropped: a source's
    # catch-all, or a wording too short to be told from other software's lines)
    needs_logger = [it for it in its if it.message not in neutral]
    assert all(logger_needed(D.DIALECTS[understand(it.message, it.logger).dialect])
               for it in needs_logger), needs_logger  # fmt: skip
    no_prefix = [it for it in its if not D.DIALECTS[understand(it.message, it.logger).dialect].needs_prefix]
    assert len(its) - len(no_prefix) <= 2
    return its, [it for it in its if it.message in neutral], [it for it in no_prefix if it.message in neutral]


@pytest.mark.parametrize("shape", list(S.SHAPES))
def test_every_message_reads_the_same_in_every_shape(shape: str, catalogue) -> None:
    its = catalogue[1] if shape in _NO_FULL_LOGGER else catalogue[2] if shape in _MDC else catalogue[0]
    assert len(its) > 50
    ok, bad = S.score(shape, its)
    assert ok == len(its), bad[:5]


@pytest.mark.parametrize("shape", list(S.SHAPES))
def test_both_readers_agree_on_every_shape(shape: str, catalogue) -> None:
    data, _ = S.render(shape, catalogue[0][:15])
    assert_same(data, f"{shape}.log", S.SETTINGS)


def _read(text: str) -> tuple[list[dict], list[dict], dict]:
    return S.read_checked(text, "e.log")


_JOIN = "[2024-05-01 10:00:00,123] INFO [Consumer clientId=c, groupId=g] (Re-)joining group ({})"
_CC = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"


def test_cri_pieces_join_per_stream() -> None:
    line = _JOIN.format(_CC)
    text = (f"2024-05-01T10:00:01.000000001Z stdout P {line[:30]}\n"
            f"2024-05-01T10:00:01.000000002Z stderr F an error line\n"
            f"2024-05-01T10:00:01.000000003Z stdout P {line[30:60]}\n"
            f"2024-05-01T10:00:01.000000004Z stdout F {line[60:]}\n")  # fmt: skip
    ev, q, audit = _read(text)
    assert [(e["line_no"], e["kind"], e["group_id"], e["ts_ms"], e["continuation"]) for e in ev] == [
        (1, "join_sent", "g", 1714557600123, None)
    ]
    assert ev[0]["envelope_ts"].isoformat() == "2024-05-01T10:00:01+00:00"
    assert ev[0]["layout"] == "cri+log4j"
    assert (audit["events"], audit["continuations"], audit["unrelated"], audit["quarantined"]) == (1, 2, 1, 0)


def test_docker_16k_pieces_join() -> None:
    line = _JOIN.format(_CC)
    recs = [{"log": line[:50], "stream": "stdout", "time": "2024-05-01T10:00:02.5Z"},
            {"log": "other\n", "stream": "stderr", "time": "2024-05-01T10:00:02.6Z"},
            {"log": line[50:] + "\n", "stream": "stdout", "time": "2024-05-01T10:00:02.7Z"}]  # fmt: skip
    ev, _, audit = _read("".join(json.dumps(r) + "\n" for r in recs))
    assert [(e["line_no"], e["kind"], e["ts_ms"], e["layout"]) for e in ev] == [
        (1, "join_sent", 1714557600123, "docker+log4j")
    ]
    assert (audit["events"], audit["continuations"], audit["unrelated"]) == (1, 1, 1)


def test_application_time_wins_and_the_envelope_time_is_kept() -> None:
    inner = json.dumps({"@timestamp": "2024-05-01T10:00:00.123Z", "message": "[Consumer clientId=c, groupId=g] (Re-)joining group"})
    text = (json.dumps({"log": inner + "\n", "stream": "stdout", "time": "2024-05-01T10:00:09.999Z"}) + "\n"
            + json.dumps({"log": "[Consumer clientId=c, groupId=g] (Re-)joining group\n", "stream": "stdout",
                          "time": "2024-05-01T10:00:10.5Z"}) + "\n")  # fmt: skip
    ev, _, _ = _read(text)
    assert [(e["ts_ms"], e["envelope_ts"].timestamp()) for e in ev] == [
        (1714557600123, 1714557609.999),
        (1714557610500, 1714557610.5),  # (the application wrote none: the envelope's)
    ]


def test_logfmt_message_names_its_own_group_among_other_groups() -> None:
    text = "\n".join(
        f'ts=2024-05-01T10:00:0{k}.123Z level=info caller=c.go:1 msg="[Consumer clientId=c{k}, groupId={g}] '
        f'(Re-)joining group" groupId={g}'
        for k, g in enumerate(["G1", "G2", "G1", "G3"])
    )
    ev, _, _ = _read(text + "\n")
    assert [e["group_id"] for e in ev] == ["G1", "G2", "G1", "G3"]
    text = 'ts=2024-05-01T10:00:00.123Z level=info msg="Successfully joined group with generation 3" group.id=G9\n'
    assert [(e["kind"], e["group_id"]) for e in _read(text)[0]] == [("joined", "G9")]


def test_text_after_the_message_does_not_stop_a_dialect() -> None:
    text = (f"2024-05-01 10:00:00.123 | INFO | [main] | [Consumer clientId=c, groupId=g] Successfully joined group "
            f"with generation Generation{{generationId=4, memberId='m-1', protocol='range'}} | {_CC} (ConsumerCoordinator.java:66)\n")  # fmt: skip
    ev, _, _ = _read(text)
    assert [(e["kind"], e["group_id"], e["generation"], e["member_id"], e["logger"]) for e in ev] == [
        ("joined", "g", 4, "m-1", _CC)
    ]


@pytest.mark.parametrize("line,reason", [
    ('{"log":"[2024-05-01 10:00:00,123] INFO [Consumer clientId=c, groupId=g] (Re-)joining group', None),
    ('[0] kube.var.log: [1714557600.123456789, {"log"=>"[Consumer clientId=c, groupId=g] (Re-)joining group', None),
    ("[0] kube.var.log: [1714557600.123456789, {\"stream\"=>\"std", "unreadable_envelope"),
    ('{"log": 42, "stream": "stdout"}', None),
    ("2024-05-01T10:00:00.1Z stdout F", None),
    ("2024-05-01T10:00:00.1Z stdout P", None),
    ('"@timestamp","message"', None),
])  # fmt: skip
def test_bad_envelopes_fall_back_or_are_quarantined(line: str, reason: str | None) -> None:
    ev, q, audit = _read(line + "\n" + _JOIN.format(_CC) + "\n")
    assert audit["total_lines"] == 2
    assert [r["reason"] for r in q] == ([reason] if reason else [])
    if "groupId=g" in line:  # (the cut record's text so far is still read)
        assert [e["line_no"] for e in ev] == [1, 2]
    if reason:
        assert q[0]["raw"] == line and "cut or malformed" in q[0]["detail"]


def test_record_key_families_and_value_shapes() -> None:
    rec = R.from_mapping({"jsonPayload": {"message": "m", "mdc": {"groupId": "G"}}, "severity": "INFO",
                          "timestamp": "2024-05-01T10:00:00.123456789Z"}, lambda s: False)  # fmt: skip
    assert (rec.shape, rec.fields["message"], rec.fields["j_group"], rec.fields["level"]) == ("cloudlogging", "m", "G", "INFO")
    assert [R.epoch_text(v) for v in (1714557600, 1714557600123, 1714557600123456, "1714557600123456789")] == [
        "1714557600", "1714557600.123", "1714557600.123456", "1714557600.123456789"]
    assert [R.level_text(v) for v in (30, 6, "warn", 99)] == ["INFO", "INFO", "warn", None]
    assert R.from_mapping({"log": "[2024-05-01 10:00:00,123] INFO x (a.B)\n", "time": "t"}, lambda s: True).line == (
        "[2024-05-01 10:00:00,123] INFO x (a.B)")


def test_peel_lines_accounts_for_every_offered_line() -> None:
    texts = ["2024-05-01T10:00:00.1Z stdout P a", "2024-05-01T10:00:00.2Z stdout P b", "not an envelope"]
    pf = peel_lines([0, 1, 2], texts)
    assert (sorted(pf.lines), pf.absorbed, pf.lines[0].text) == ([0], {1: 0}, "ab")  # (the file ends in a split line)


def test_the_reference_reads_what_the_fast_path_reads_on_a_mixed_file(catalogue) -> None:
    its = catalogue[0][:4]
    data = b"".join(S.render(shape, its)[0] for shape in S.SHAPES)
    ev1, q1, a1 = parse_bytes(data, "m.log", "c", S.SETTINGS, "r")
    ev2, q2, a2 = read_bytes(data, "m.log", "c", S.SETTINGS, "r")
    assert ev1.to_pylist() == ev2.to_pylist() and q1.to_pylist() == q2.to_pylist() and a1 == a2
    assert a1["events"] >= 4 * (len(S.SHAPES) - len(_NO_FULL_LOGGER))


@pytest.mark.parametrize("line,group", [
    ('{"@timestamp":"2024-05-01T10:00:00.123Z","message":"Successfully joined group with generation 3","kafka":{"group":"KG"}}', "KG"),
    ('{"@timestamp":"2024-05-01T10:00:00.123Z","message":"Successfully joined group with generation 3","mdc":{"group.id":"MG"}}', "MG"),
    ('2024-05-01T10:00:00.123Z stdout F {"@timestamp":"2024-05-01T10:00:00.123Z","message":"Successfully joined group with generation 3","mdc":{"groupId":"M2"}}', "M2"),
    ('ts=2024-05-01T10:00:00.123Z msg="Successfully joined group with generation 3" kafka.group=LG', "LG"),
])  # fmt: skip
def test_mdc_group_keys_name_the_group(line: str, group: str) -> None:
    assert [(e["kind"], e["group_id"]) for e in _read(line + "\n")[0]] == [("joined", group)]


_FRAGMENTS = [
    "2024-05-01T10:00:00.123456789Z stdout F ", "2024-05-01T10:00:00.1Z stderr P ", '{"log":"', '{"log":', '\\n","stream":"stdout"}',
    '"}', "[0] kube.var.log: [1714557600.5, {", '"log"=>"', '", "stream"=>"stdout"}]', "<134>1 2024-05-01T10:00:00Z h app - - - ",
    "May  1 10:00:00 host Tag: ", "ts=2024-05-01T10:00:00Z ", 'msg="', '" level=info', " | INFO | [main] | ", '"2024-05-01T10:00:00Z","',
    '","', "[Consumer clientId=c, groupId=g] (Re-)joining group", "[2024-05-01 10:00:00,123] INFO ", " (a.b.C)",
    '{"level": NaN, "msg": "x", "generationId": true}', '{"level": 1e999, "short_message": "y", "generation": 99999999999}',
    '{"MESSAGE": "m", "__REALTIME_TIMESTAMP": "99999999999999999999"}', "\\u00e9", "x=", '"', "{", "}", "]", " ",
    # object dumps and records over several lines (fragments: openers, keys, closers)
    "{ level: 'INFO', ", "  message: '[Consumer clientId=c, groupId=g] (Re-)joining group',", "{'msg': ", ":message=>",
    "[Object]", "'", "  ", "2024-05-01T10:00:00.1Z stdout F {",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=6).map("".join), min_size=1, max_size=8))
# a CRI piece joined to a piece that continues a quarantined line: quarantined like its head
@example(['{"log":', "2024-05-01T10:00:00.1Z stderr P ", "2024-05-01T10:00:00.1Z stderr P  (a.b.C)"])
# a CRI piece joined to a line with no head (an empty first piece, a continuation-shaped text): a
# continuation of that line, quarantined like it ("continuation of line 1")
@example(["2024-05-01T10:00:00.1Z stderr P ", "2024-05-01T10:00:00.1Z stderr P  | INFO | [main] | "])
def test_envelope_fragments_never_raise_and_both_readers_agree(lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode()
    assert_same(data, "fuzz.log", S.SETTINGS)
    check_invariant(parse_bytes(data, "fuzz.log", "c", S.SETTINGS, "r")[2])
