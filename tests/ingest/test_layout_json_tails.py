"""A JSON record's message read wherever the record was cut: a line that ends a record (``…"}``) gives
its last string value, found by JSON's string grammar (``envelopes.string_tail``); a record under a
wrapper key of any name gives the keys beside its message. Catalogue statements are rendered in
python-json-logger's record, whole and cut (tests/ingest/framework_layouts.py), in both readers."""

from __future__ import annotations

import json

import pytest

from jobs.ingest import envelopes as E
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest import framework_layouts as F

READERS = (parse_bytes, read_bytes)
LOGGERLESS_MISSES = F.PYTHON_LOGGER_ONLY


@pytest.mark.parametrize(("line", "want"), [
    ('"REJOIN [c#consumer-2] [thrd:main]: Group \\"G\\" (re)joining"}', ("", 'REJOIN [c#consumer-2] [thrd:main]: Group "G" (re)joining')),
    ('ime":"2024-05-01T13:00:00.123Z","message":"a \\\\"}', ('ime":"2024-05-01T13:00:00.123Z","message":', "a \\")),
    ('el":"debug", "msg": "x \\"y\\" z"}}  ', ('el":"debug", "msg":', 'x "y" z')),
    ('oining group \\"G\\" now"}', ("", 'oining group "G" now')),  # (cut inside the string: no opening quote)
    ('Assignment{topic="orders"}', None),  # (a string that is no JSON value: after "=")
    ('"a\\q"}', None),  # (no JSON string: an unknown escape)
    ('no record here', None),
    ('[ConsumerGroup] Received assignment {"groupId":"g","memberAssignment":"x"}', None),  # (the record opens on the line)
    ('sk-0] {"mdc":{"a":"b"},"message":"m"}}', ('sk-0] {"mdc":{"a":"b"},"message":', "m")),
])  # fmt: skip
def test_the_last_string_of_a_record_is_found_by_json_string_grammar(line: str, want: tuple[str, str] | None) -> None:
    assert E.string_tail(line) == want


def test_a_cut_record_keeps_its_time_and_its_message_is_read_again() -> None:
    line = ('stamp":"2024-05-01T13:00:00.123Z","level":"debug","message":"JOIN [rdkafka#consumer-1] [thrd:main]: '
            'Group \\"orders\\": join with 1 subscribed topic(s)"}\n')  # fmt: skip
    for reader in READERS:
        ev = reader(line.encode(), "t.log", "c", F.SETTINGS, "r")[0].to_pylist()
        assert [(e["kind"], e["group_id"], e["ts_ms"], e["layout"]) for e in ev] == [
            ("join_sent", "orders", 1714568400123, "json-tail+general")]


@pytest.mark.parametrize("layout", ["json-logger", "json-cut-in-first-key", "json-message-tail"])
def test_python_json_records_whole_and_cut_read_every_statement(layout: str) -> None:
    sources, layouts = F.ECOSYSTEMS["python"]
    msgs = [m for s in sources for m in F.messages(s)]
    for reader in READERS:
        ok, bad = F.score(msgs, layouts[layout], reader, f"py-{layout}")
        assert ok >= len(msgs) - (0 if layout == "json-logger" else LOGGERLESS_MISSES), bad


def test_a_record_under_a_wrapper_key_gives_the_keys_beside_its_message() -> None:
    rec = {"applicationLog": {"file": "consumergroup.go:918", "message": "Joined group orders as member m-1 in generation 7",
                              "severity": "INFO", "timestamp": "2024-05-01T13:00:00.123Z"}}  # fmt: skip
    for reader in READERS:
        ev = reader((json.dumps(rec) + "\n").encode(), "w.log", "c", F.SETTINGS, "r")[0].to_pylist()
        assert [(e["kind"], e["group_id"], e["generation"], e["ts_ms"], e["level"]) for e in ev] == [
            ("joined", "orders", 7, 1714568400123, "INFO")]
