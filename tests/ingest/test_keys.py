"""A statement's arguments logged as keys (records.KEY_FACTS, records.keys_tail, records.KEY_BLOCK): in
every record syntax the message and its keys read as one statement, in both readers."""

from __future__ import annotations

import json
import re

import pytest

from jobs.ingest import records as R
from jobs.ingest import reference
from jobs.ingest.catalogue import UNMAPPED, UNRELATED, argument_keys, load
from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import parse_bytes

SETTINGS = IngestSettings(default_year=2024)
#: the sources whose statements hand their arguments to a structured logger as keys
KEYED_SOURCES = ("franz-go", "kafkajs", "kafkaflow")
_FAMILY_OF = {field: fam for fam, field in R.KEY_FACTS.items()}


def test_the_catalogues_argument_keys_are_key_roles() -> None:
    """Every fact a keyed statement carries is under a key that records.FAMILIES gives that role."""
    checked = 0
    for src in (s for s in load() if s.name in KEYED_SOURCES):
        for st in src.statements:
            if st.kind in (UNMAPPED, UNRELATED):
                continue
            keys = argument_keys(src, st)
            for arg in {a for a in keys.values() if a in _FAMILY_OF and a != "reason"}:
                names = [k for k, a in keys.items() if a == arg]
                assert any(k in R.FAMILIES[_FAMILY_OF[arg]] for k in names), (src.name, st.id, names)
                checked += 1
    assert checked > 60


@pytest.mark.parametrize(("tail", "want"), [
    ("", {}),
    ("; group: g, memberID: m-1, instanceID: <nil>, generation: 7, leader: true",
     {"group_id": "g", "member_id": "m-1", "generation": "7"}),  # kgo BasicLogger
    (' group=g member_id=m-1 generation=7 err="a b"', {"group_id": "g", "member_id": "m-1", "generation": "7", "reason": "a b"}),
    ('\t{"group": "g", "memberID": "m-1", "generation": 7}', {"group_id": "g", "member_id": "m-1", "generation": "7"}),  # zap console
    (' {"groupId":"g","memberId":"m-1","memberAssignment":{"t":[0,1]},"isLeader":true}', {"group_id": "g", "member_id": "m-1"}),
    ("; ?: x", {}),  # (kgo's key for an odd argument count)
])  # fmt: skip
def test_keys_tail_reads_the_facts_in_every_syntax(tail: str, want: dict[str, str]) -> None:
    m = re.fullmatch("leaving group(?:" + R.keys_tail() + ")?", "leaving group" + tail)
    assert m is not None
    assert {k: v for k, v in m.groupdict().items() if v is not None} == want


def test_keys_tail_is_only_keys() -> None:
    assert re.fullmatch("leaving group(?:" + R.keys_tail() + ")?", "leaving group early today") is None


def _both(text: str) -> list[tuple]:
    data = text.encode()
    fast = parse_bytes(data, "app.log", "c", SETTINGS, "r")[0].to_pylist()
    ref = reference.read_bytes(data, "app.log", "c", SETTINGS, "r")[0].to_pylist()
    got = [[(e["line_no"], e["kind"], e["group_id"], e["member_id"], e["generation"], e["reason"]) for e in ev] for ev in (fast, ref)]
    assert got[0] == got[1]
    return got[0]


_M = "consumer-1-6c1f"


@pytest.mark.parametrize("line", [
    f"[INFO] joined, balancing group; group: g7, member_id: {_M}, instance_id: <nil>, generation: 7, balance_protocol: range, leader: true",
    f'time=2024-05-01T13:00:00.123Z level=INFO msg="joined, balancing group" group=g7 member_id={_M} generation=7',
    json.dumps({"level": "info", "ts": 1714568400.123, "msg": "joined, balancing group", "group": "g7", "memberID": _M, "generation": 7}),
    f'2024-05-01T13:00:00.123Z\tINFO\tkgo\tjoined, balancing group\t{{"group": "g7", "memberID": "{_M}", "generation": 7}}',
    f"1:00PM INF joined, balancing group group=g7 memberID={_M} generation=7",
])  # fmt: skip
def test_franz_go_join_in_every_syntax(line: str) -> None:
    assert [e[1:5] for e in _both(line + "\n")] == [("joined", "g7", _M, 7)]


def test_a_dialects_own_reason_wins_over_the_err_key() -> None:
    got = _both("[INFO] beginning heartbeat loop; group: g7, err: x\n[INFO] heartbeat errored; group: g7, err: boom, again\n")
    assert [(e[1], e[2], e[5]) for e in got] == [("other", "g7", "beginning heartbeat loop"), ("heartbeat_failed", "g7", "boom, again")]


def test_kafkajs_keys_after_the_text_and_on_indented_lines() -> None:
    keys = {"timestamp": "2024-05-01T13:00:00.123Z", "logger": "kafkajs", "groupId": "g7", "generationId": 7, "memberId": _M,
            "leaderId": _M, "isLeader": True, "memberAssignment": {"t": [0, 1]}, "groupProtocol": "RoundRobinAssigner"}  # fmt: skip
    nest = f"[Nest] 42  - 05/01/2024, 1:00:00 PM     LOG [ServerKafka] [ConsumerGroup] Received assignment {json.dumps(keys)}\n"
    assert [e[1:5] for e in _both(nest)] == [("synced", "g7", _M, 7)]
    pretty = "[13:00:00.123] INFO (42): [ConsumerGroup] Received assignment\n" + "".join(
        f"    {k}: {json.dumps(v)}\n" for k, v in keys.items() if k not in ("timestamp", "memberAssignment")
    )
    # (the member and generation from the block; the group too when the file's other lines leave it open)
    assert [(e[1], e[3], e[4]) for e in _both(pretty)] == [("synced", _M, 7)]


def test_kafkaflow_data_object_after_a_label() -> None:
    data = '{"GroupId":"g7","ConsumerName":"c","UpdatedTopics":[{"Topic":"orders","PartitionsCount":2,"Partitions":[0,1]}]}'
    text = "".join(f"2024-05-01 10:00:0{k},123 [INFO] KafkaFlow - Partitions {w} | Data: {data}\n" for k, w in enumerate(("revoked", "assigned")))
    assert [e[1:3] for e in _both(text)] == [("partitions_revoked", "g7"), ("partitions_assigned", "g7")]


def test_a_csv_row_is_still_one_when_no_json_comes_first() -> None:
    assert R.delimited('"2024-05-01 10:00:00.123","INFO","Consumer has joined the group"') is not None
    assert R.delimited('2024-05-01 10:00:00 x - Partitions revoked | Data: {"GroupId":"g","ConsumerName":"c"}') is None
