"""Inconsistent or incomplete evidence becomes anomaly records, never exceptions."""

from __future__ import annotations

from coordinator_core.events import EVENT_FIELDS
from coordinator_core.replay import GroupReplay
from tests.core.replay_helpers import G, broker, client, kinds, number, replay


def _one_round(ts=1000, gen=3, file="server.log"):
    return [
        broker(
            "rebalance_prepared",
            ts,
            generation=gen,
            file=file,
            reason="removing member m2 on heartbeat expiration",
        ),
        broker("join_completed", ts + 100, generation=gen + 1, member_count=1, file=file),
        broker("assignment_received", ts + 110, member_id="m1", generation=gen + 1, file=file),
    ]


def test_generation_gap():
    evs = _one_round() + [
        broker("rebalance_prepared", 5000, generation=4),
        broker("join_completed", 5100, generation=7, member_count=1),  # lines of two rounds are missing
        broker("assignment_received", 5110, member_id="m1", generation=7),
    ]
    out = replay(number(evs))
    gaps = [a for a in out.anomalies if a.kind == "generation_gap"]
    assert len(gaps) == 1 and gaps[0].event_kind == "join_completed" and "7" in gaps[0].detail
    assert out.rebalances[-1].new_generation == 7


def test_lower_logged_generation_is_a_gap_and_the_model_does_not_go_back():
    evs = _one_round() + [broker("rebalance_prepared", 5000, generation=2)]
    out = replay(number(evs))
    assert kinds(out).count("generation_gap") == 1
    assert out.rebalances[-1].old_generation == 4
    assert [t.generation for t in out.transitions] == sorted(t.generation for t in out.transitions)


def test_duplicate_lines_from_a_log_shipped_twice():
    evs = number(_one_round()) + number(_one_round(file="server.log.copy"))
    out = replay(evs)
    assert kinds(out) == ["duplicate_line"] * 3
    assert len(out.rebalances) == 1
    assert {a.source_file for a in out.anomalies} == {"server.log.copy"}


def test_out_of_order_lines_of_one_file():
    evs = number(
        [
            broker("member_added", 2000, member_id="m1"),
            broker("member_added", 1000, member_id="m2"),  # written after a later line
        ]
    )
    out = replay(evs, sort=False)
    (a,) = out.anomalies
    assert (a.kind, a.ts, a.line_no) == ("out_of_order", 1000, 2)
    # sorted in total order the file's line 1 now comes after line 2
    out = replay(evs)
    assert [(a.kind, a.line_no) for a in out.anomalies] == [("out_of_order", 1)]


def test_rebalance_without_start():
    evs = number(
        [
            broker("join_completed", 1100, generation=4, member_count=1),
            broker("assignment_received", 1110, member_id="m1", generation=4),
        ]
    )
    out = replay(evs)
    assert kinds(out) == ["rebalance_without_start"]
    (r,) = out.rebalances
    assert (r.start_ts, r.start_unknown, r.old_generation, r.new_generation, r.duration_ms) == (
        None,
        True,
        3,
        4,
        None,
    )
    assert r.rebalance_id == "g:unknown:3"
    assert r.outcome == "completed"


def test_rebalance_without_end_only_on_final_flush():
    r = GroupReplay(G)
    for e in number(_one_round()[:2]):
        r.feed(e)
    out = r.flush()
    assert [x.outcome for x in out.rebalances] == ["open"]
    assert "rebalance_without_end" not in kinds(out)
    out = r.flush(final=True)
    assert [x.outcome for x in out.rebalances] == ["open"]
    assert kinds(out) == ["rebalance_without_end"]
    (x,) = out.rebalances
    assert (x.end_ts, x.duration_ms, x.rebalance_id) == (None, None, "g:1000:3")


def test_unknown_kind_and_bad_rows_never_raise():
    r = GroupReplay(G)
    row = dict.fromkeys(EVENT_FIELDS)
    row.update(ts=5, group_id=G, kind="bogus", side="broker")
    r.feed_rows([row, (None, G, "rebalance_prepared"), ("x", G, "heartbeat_sent"), {"kind": None}, 42])
    out = r.flush()
    assert kinds(out)[0] == "unknown_kind"
    # (a row without a time is a no_timestamp anomaly, not a failure of the replay)
    assert set(kinds(out)[1:]) <= {"replay_error", "no_timestamp"} and len(kinds(out)) == 5
    assert kinds(out).count("no_timestamp") == 1


def test_unknown_member_when_membership_is_known():
    evs = [
        broker("member_added", 10, member_id="m1"),
        broker(
            "rebalance_prepared", 10, generation=0, reason="Adding new member m1 with group instance id None"
        ),
        broker("join_completed", 20, generation=1, member_count=1),
        broker("assignment_received", 30, member_id="m1", generation=1, member_count=1),
        broker("member_left", 100, member_id="ghost"),
    ]
    out = replay(number(evs))
    assert kinds(out) == ["unknown_member"]
    assert [s.end_reason for s in out.sessions if s.member_id == "ghost"] == ["leave"]


def test_negative_duration_is_clamped_with_clock_skew():
    evs = [
        broker("rebalance_prepared", 2000, generation=3, file="a.log"),
        broker("join_completed", 2005, generation=4, file="b.log"),
        broker("assignment_received", 1000, generation=4, file="c.log"),
    ]
    out = replay(evs, sort=False)
    (r,) = out.rebalances
    assert r.duration_ms == 0
    assert "clock_skew" in kinds(out)


def test_client_far_ahead_of_the_broker_is_clock_skew():
    evs = _one_round(gen=3)[:1] + [
        client("joined", 1050, member_id="m1", client_id="c1", generation=4),
        broker("join_completed", 9000, generation=4, member_count=1),
    ]
    out = replay(number(evs))
    assert kinds(out) == ["clock_skew", "rebalance_without_end"]
