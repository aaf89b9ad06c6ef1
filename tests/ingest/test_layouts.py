"""Layouts, prefixes, timestamps and multi-line entries (pure parse_bytes)."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pytest

from jobs.ingest import epoch_ms as EM
from jobs.ingest import layouts as L
from jobs.ingest.model import IngestSettings
from tests.ingest.helpers import FIXTURES, check_invariant, parse_text

with open(os.path.join(FIXTURES, "layouts", "layouts.jsonl"), encoding="utf-8") as _fh:
    LAYOUT_CASES = [json.loads(x) for x in _fh if x.strip()]


@pytest.mark.parametrize("case", LAYOUT_CASES, ids=[f"{c['layout']}-{i}" for i, c in enumerate(LAYOUT_CASES)])
def test_layout_fixture(case: dict) -> None:
    events, quarantine, audit = parse_text(case["text"] + "\n")
    check_invariant(audit)
    exp = case["expected"]
    if "quarantine" in exp:
        assert events.num_rows == 0
        assert quarantine.column("reason").to_pylist() == [exp["quarantine"]]
        assert quarantine.column("layout").to_pylist() == [case["layout"]]
        return
    assert events.num_rows == 1, quarantine.to_pylist()
    ev = events.to_pylist()[0]
    assert ev["layout"] == case["layout"]
    assert ev["group_id"] == "g"
    assert ev["line_no"] == 1
    for key, want in exp.items():
        assert ev[key] == want, key


def test_every_layout_has_a_fixture_and_its_example_matches() -> None:
    covered = {c["layout"].split("+")[-1] for c in LAYOUT_CASES}
    assert set(L.LAYOUT_IDS) <= covered
    for lay in L.LAYOUTS:
        import re

        assert re.match(lay.regex, lay.example), lay.id


@pytest.mark.parametrize(
    ("text", "tz", "want"),
    [
        ("2024-05-01 10:00:00,123", "UTC", 1714557600123),
        ("2024-05-01 10:00:00.123", "Europe/Berlin", 1714550400123),
        ("2024-05-01T10:00:00.123Z", "Europe/Berlin", 1714557600123),
        ("2024-05-01T12:00:00.123+02:00", "UTC", 1714557600123),
        ("2024-05-01T12:00:00.123+0200", "UTC", 1714557600123),
        ("2024-05-01T10:00:00.123456789Z", "UTC", 1714557600123),
        ("2024-05-01 10:00:00:123", "UTC", 1714557600123),
        ("2024/05/01 10:00:00", "UTC", 1714557600000),
        ("May 01, 2024 10:00:00 PM", "UTC", 1714600800000),
        ("May 1, 2024 12:00:00 AM", "UTC", 1714521600000),
        ("1714557600.123", "Europe/Berlin", 1714557600123),
        ("2024-03-31 02:30:00,000", "Europe/Berlin", 1711846799999),  # DST gap: last instant before it
        ("10:00:00.123", "UTC", None),
        ("yesterday", "UTC", None),
    ],
)
def test_parse_timestamps(text: str, tz: str, want: int | None) -> None:
    assert EM.parse_timestamps(pa.array([text]), tz).to_pylist() == [want]


def test_default_timezone_applies_to_zone_less_lines_only() -> None:
    text = (
        "[2024-05-01 10:00:00,123] INFO [GroupCoordinator 1]: Stabilized group g generation 4 (__consumer_offsets-1) with 1 members (x.Y)\n"
        '{"@timestamp":"2024-05-01T10:00:00.123Z","message":"[Consumer clientId=c, groupId=g] (Re-)joining group"}\n'
    )
    ev, _, _ = parse_text(text, settings=IngestSettings(default_timezone="America/New_York"))
    assert ev.column("ts_ms").to_pylist() == [1714557600123 + 4 * 3600_000, 1714557600123]


STACK = """[2024-05-01 10:00:00,123] ERROR [Consumer clientId=c1, groupId=g] JoinGroup failed due to fatal error: The group member's supported protocols are incompatible with those of existing members or first group member tried to join with empty protocol type or empty protocol list. (org.apache.kafka.clients.consumer.internals.ConsumerCoordinator)
org.apache.kafka.common.errors.InconsistentGroupProtocolException: The group member's supported protocols are incompatible
\tat org.apache.kafka.clients.consumer.internals.AbstractCoordinator$JoinGroupResponseHandler.handle(AbstractCoordinator.java:651)
\tat org.apache.kafka.clients.consumer.internals.AbstractCoordinator$JoinGroupResponseHandler.handle(AbstractCoordinator.java:590)
Caused by: java.lang.IllegalStateException: boom
\t... 12 more
[2024-05-01 10:00:01,000] INFO Rolled new log segment (kafka.log.LocalLog)
java.io.IOException: disk
\tat a.b.C(C.java:1)
[2024-05-01 10:00:02,000] INFO [Consumer clientId=c1, groupId=g] Updating assignment with
\tAssigned partitions:                       [t-0, t-1]
\tCurrent owned partitions:                  []
\tAdded partitions (assigned - owned):       [t-0, t-1]
\tRevoked partitions (owned - assigned):     []
 (org.apache.kafka.clients.consumer.internals.ConsumerCoordinator)
"""


def test_multi_line_entries_attach_to_their_head() -> None:
    ev, q, audit = parse_text(STACK)
    rows = ev.to_pylist()
    assert [r["kind"] for r in rows] == ["join_failed", "assignment_notified"]
    assert rows[0]["error"] == "INCONSISTENT_GROUP_PROTOCOL"
    assert (
        rows[0]["continuation"]
        .splitlines()[0]
        .startswith("org.apache.kafka.common.errors.InconsistentGroupProtocolException")
    )
    assert rows[0]["continuation"].count("\n") == 4
    assert rows[1]["partitions"] == ["t-0", "t-1"]
    assert rows[1]["line_no"] == 10
    assert "Revoked partitions" in rows[1]["continuation"]
    # 2 event lines, 5 + 5 continuation lines, the unrelated head and its 2 trace lines are unrelated
    assert (audit["events"], audit["continuations"], audit["unrelated"], audit["quarantined"]) == (
        2,
        10,
        3,
        0,
    )
    check_invariant(audit)


def test_continuations_of_a_quarantined_head_are_quarantined_with_it() -> None:
    text = "[2024-05-01 10:00:00,123] INFO [GroupCoordinator 1]: Frobnicated group g (k.c.g.GroupCoordinator)\n\tat x.Y(Y.java:1)\n"
    ev, q, audit = parse_text(text)
    assert ev.num_rows == 0
    assert q.column("reason").to_pylist() == ["group_line_not_understood"] * 2
    assert q.column("detail").to_pylist()[1] == "continuation of line 1"
    assert q.column("group_id").to_pylist() == ["g", "g"]
    check_invariant(audit)


def test_orphan_continuation_and_garbage_are_unparsable_layout() -> None:
    ev, q, audit = parse_text("\tat a.b.C(C.java:1)\nsomething without any layout\n\n")
    assert q.column("reason").to_pylist() == ["unparsable_layout", "unparsable_layout"]
    assert q.column("line_no").to_pylist() == [1, 2]
    assert audit["unrelated"] == 1  # the blank line
    check_invariant(audit)


def test_ansi_colours_and_crlf_are_stripped() -> None:
    text = "\x1b[32m2024-05-01 10:00:00.123  INFO 1 --- [main] o.a.k.c.c.internals.ConsumerCoordinator : \x1b[0m[Consumer clientId=c, groupId=g] (Re-)joining group\r\n"
    ev, _, _ = parse_text(text)
    assert ev.column("message").to_pylist() == ["[Consumer clientId=c, groupId=g] (Re-)joining group"]


def test_hard_wrapped_entries_are_joined_with_their_rest() -> None:
    """Pasted text is often hard-wrapped (mailing lists at a space, terminal boxes mid-word): a
    group line no dialect matches is read joined with the lines after it that are no entry of
    their own; those lines become its continuation."""
    text = (
        "[2022-01-25 13:12:55,041] INFO [GroupCoordinator 1]: Preparing to rebalance group app in state"
        " PreparingRebalance with old generation\n"
        "5 (__consumer_offsets-31) (reason: Adding new member x with group instance id None)"
        " (kafka.coordinator.group.GroupCoordinator)\n"
        "│ [2025-06-30 13:13:14,467] INFO [GroupCoordinator id=0 topic=__consumer_offsets partition=46] [Group g]"
        " Member m-1 has left group through explicit `LeaveGroup` request; cl  │\n"
        "│ ient reason: the consumer is being closed (org.apache.kafka.coordinator.group.GroupMetadataManager) │\n"
    )
    ev, q, audit = parse_text(text)
    check_invariant(audit)
    assert q.num_rows == 0 and audit["continuations"] == 2
    a, b = ev.to_pylist()
    assert (a["line_no"], a["kind"], a["generation"], a["reason"]) == (
        1, "rebalance_prepared", 5, "Adding new member x with group instance id None")
    assert (b["line_no"], b["kind"], b["member_id"], b["reason"]) == (3, "member_left", "m-1", "the consumer is being closed")
