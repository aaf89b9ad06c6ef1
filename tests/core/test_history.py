"""One group's history across protocols (``coordinator_core.history.GroupHistory``): classic groups
replay exactly as ``GroupReplay`` alone; consumer-protocol lines go to the KIP-848 model; a converted
group (logged in 4.1+, implicit in 4.0, and back to classic) reads as ONE history whose members keep
their sessions; snapshots cut anywhere resume to the same result.

The fixtures are in ``tests/fixtures/kip848`` (Kafka's wordings, see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from coordinator_core.events import EVENT_FIELDS, order_key
from coordinator_core.history import GroupHistory
from coordinator_core.replay import GroupReplay, ReplayOutput

ROOT = Path(__file__).resolve().parents[2]
KIP848 = ROOT / "tests" / "fixtures" / "kip848"
parse = pytest.importorskip("jobs.ingest.parse")


def rows_of(path: Path) -> list[tuple]:
    ev, _, audit = parse.parse_bytes(path.read_bytes(), path.name, "c1", None, "r")
    assert audit["quarantined"] == 0
    out = [{**r, "ts": r["ts_ms"]} for r in ev.to_pylist()]
    out.sort(key=lambda r: order_key(r["ts"], r["side"], r["source_file"], r["line_no"]))
    return [tuple(r.get(f) for f in EVENT_FIELDS) for r in out]


def run(rows: list[tuple], group: str) -> ReplayOutput:
    h = GroupHistory(group)
    h.feed_rows(rows)
    return h.flush(final=True)


def rebs(out: ReplayOutput) -> list[tuple]:
    return [
        (r.protocol_type, r.old_generation, r.new_generation, r.cause, r.culprit_member_id, r.duration_ms,
         r.outcome, r.inferred)
        for r in sorted(out.rebalances, key=lambda r: r.start_ts)
    ]  # fmt: skip


CONVERTED = [
    ("classic", 0, 1, "new_member", "c1-aaa", 3009, "completed", False),
    ("consumer", 1, 2, "new_member", "m2", 7999, "completed", False),
    ("consumer", 2, 3, "session_timeout", "m2", 4000, "completed", False),
]


def test_logged_conversion_is_one_history() -> None:
    out = run(rows_of(KIP848 / "converted-classic-to-consumer-4.1.log"), "orders")
    assert rebs(out) == CONVERTED
    # the classic member's session goes on in the consumer model: same key, one open session
    sessions = {(s.member_id, s.joined_ts): s for s in out.sessions}
    c1 = sessions[("c1-aaa", 1740823200000)]
    assert (c1.end_reason, c1.protocol_type, c1.first_generation, c1.last_generation) == ("open", "consumer", 1, 3)
    assert [s.member_id for s in out.sessions].count("c1-aaa") == 1
    trail = [(t.from_state, t.to_state, t.trigger, t.protocol_type) for t in out.transitions]
    assert ("Stable", "Dead", "group_converted", "classic") in trail
    assert ("Stable", "Assigning", "group_epoch_bumped", "consumer") in trail
    moved = sorted(out.rebalances, key=lambda r: r.start_ts)[1]
    assert (moved.partitions_revoked, moved.partitions_assigned, moved.paused_partition_ms) == (1, 1, 5000)
    assert moved.members_before == 1 and moved.members_after == 2
    assert "protocol_converted" not in [a.kind for a in out.anomalies]


def test_unlogged_conversion_of_kafka_40_is_inferred() -> None:
    out = run(rows_of(KIP848 / "converted-implicit-4.0.log"), "orders")
    assert rebs(out) == CONVERTED
    assert [a.kind for a in out.anomalies] == ["protocol_converted"]
    assert "1 member(s) carried over" in out.anomalies[0].detail


def test_downgrade_to_classic_keeps_the_epoch_as_generation() -> None:
    out = run(rows_of(KIP848 / "downgrade-consumer-to-classic-4.1.log"), "billing")
    assert rebs(out) == [
        ("consumer", 0, 1, "new_member", "n1", 2, "completed", False),
        ("consumer", 1, 2, "new_member", "n2", 4999, "completed", False),
        # the leave that triggers the downgrade bumps no epoch: the classic group rebalances from 2
        ("classic", 2, 3, "member_leave", "n1", 3009, "completed", False),
    ]
    n2 = [s for s in out.sessions if s.member_id == "n2"]
    assert len(n2) == 1 and (n2[0].protocol_type, n2[0].end_reason, n2[0].last_generation) == ("classic", "open", 3)
    assert not [a for a in out.anomalies if a.kind == "generation_gap"]


@pytest.mark.parametrize(
    "name", ["converted-classic-to-consumer-4.1.log", "converted-implicit-4.0.log", "downgrade-consumer-to-classic-4.1.log"]
)
def test_cut_and_resume_equals_one_replay(name: str) -> None:
    rows = rows_of(KIP848 / name)
    group = rows[0][EVENT_FIELDS.index("group_id")]
    whole = run(rows, group)
    for cut in range(1, len(rows)):
        h = GroupHistory(group)
        h.feed_rows(rows[:cut])
        first = h.flush()
        h2 = GroupHistory.resume(group, h.snapshot())
        h2.feed_rows(rows[cut:])
        second = h2.flush(final=True)
        # the sinks upsert by key: the later report of a rebalance / session wins
        final = {r.rebalance_id: r for r in first.rebalances + second.rebalances}
        assert sorted(final.values(), key=lambda r: r.rebalance_id) == sorted(
            whole.rebalances, key=lambda r: r.rebalance_id
        ), cut
        sess = {(s.member_id, s.joined_ts): s for s in first.sessions + second.sessions}
        assert sorted(sess.values(), key=lambda s: (s.member_id, s.joined_ts)) == sorted(
            whole.sessions, key=lambda s: (s.member_id, s.joined_ts)
        ), cut
        assert h2.events == len(rows)


def _sample_rows() -> dict[str, list[tuple]]:
    rows = []
    for p in sorted((ROOT / "jobs" / "samples" / "logs").rglob("*")):
        if p.is_file():
            ev, _, _ = parse.parse_bytes(p.read_bytes(), str(p), "c1", None, "r")
            rows += [{**r, "ts": r["ts_ms"]} for r in ev.to_pylist()]
    rows.sort(key=lambda r: order_key(r["ts"], r["side"], r["source_file"], r["line_no"]))
    by: dict[str, list[tuple]] = {}
    for r in rows:
        by.setdefault(r["group_id"], []).append(tuple(r.get(f) for f in EVENT_FIELDS))
    return by


def test_classic_groups_replay_exactly_as_group_replay() -> None:
    for group, rows in _sample_rows().items():
        classic = GroupReplay(group)
        classic.feed_rows(rows)
        assert run(rows, group) == classic.flush(final=True), group


def test_a_classic_snapshot_resumes_as_a_classic_history() -> None:
    group, rows = next(iter(_sample_rows().items()))
    half = len(rows) // 2
    classic = GroupReplay(group)
    classic.feed_rows(rows[:half])
    classic.flush()
    h = GroupHistory.resume(group, classic.snapshot())
    assert h.protocol == "classic" and h.events == half
    h.feed_rows(rows[half:])
    classic.feed_rows(rows[half:])
    assert h.flush(final=True) == classic.flush(final=True)


def test_share_groups_replay_as_epoch_episodes() -> None:
    """KIP-932 share groups (3.9+ logs, assignment state at INFO, no revoked list): recognised by
    their own wordings, replayed by the epoch model, every row ``protocol_type = share``."""
    out = run(rows_of(KIP848 / "share-group-3.9.log"), "shares")
    assert rebs(out) == [
        ("share", 0, 1, "new_member", "s1", 2, "completed", False),
        ("share", 1, 2, "new_member", "s2", 3999, "completed", False),
        ("share", 2, 3, "member_leave", "s2", 3000, "completed", False),
    ]
    assert {t.protocol_type for t in out.transitions} == {"share"}
    assert sorted((s.member_id, s.end_reason) for s in out.sessions) == [("s1", "open"), ("s2", "leave")]
    assert out.anomalies == []
