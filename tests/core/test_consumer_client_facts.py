"""Consumer-protocol (KIP-848) replay from client lines only: what a member's own heartbeat lines say
(``coordinator_core.consumer.client_facts``), in librdkafka's shape (one consumer per file, side
``other``): a join (member epoch 0) is ``new_member``, a leave (-1) ``member_leave``, a static
member's -2 no departure, a fenced heartbeat the member's removal, a member whose heartbeats stop an
expired session."""

from __future__ import annotations

from coordinator_core.consumer import ConsumerGroupReplay
from coordinator_core.consumer.client_facts import (
    EPOCH,
    EXPIRED,
    FENCED_REBALANCE,
    FENCED_SESSION,
    HEARTBEAT_FACTS,
    JOIN,
    LEAVE,
    STATIC_LEAVE,
    fenced_fact,
    heartbeat_fact,
)
from coordinator_core.events import EVENT_FIELDS
from coordinator_core.records import CAUSES, SESSION_ENDS
from coordinator_core.replay import ReplayOutput

G = "g"


def line(kind: str, ts: int, file: str, **kw) -> tuple:
    d = dict.fromkeys(EVENT_FIELDS)
    d.update(ts=ts, group_id=G, kind=kind, side="other", source_file=file, protocol_type="consumer")
    d.update(kw)
    return tuple(d[f] for f in EVENT_FIELDS)


def join(ts, file, mid):  # the heartbeat request with generation id 0
    return line("member_state_changed", ts, file, member_id=mid, member_epoch=0, state="JOINING",
                from_state="UNSUBSCRIBED")  # fmt: skip


def hb(ts, file, mid, epoch):  # "ConsumerGroupHeartbeat response received for member id m with epoch N"
    return line("member_state_changed", ts, file, member_id=mid, member_epoch=epoch)


def reconcile(ts, file):  # "Reconciliation starts with new target assignment ..."
    return line("member_state_changed", ts, file, state="RECONCILING", from_state="STABLE")


def acked(ts, file):  # "Target assignment acked, new current assignment ..."
    return line("member_state_changed", ts, file, state="STABLE", from_state="ACKNOWLEDGING")


def leave(ts, file, mid, epoch=-1):  # the heartbeat request with generation id -1 / -2
    return line("member_state_changed", ts, file, member_id=mid, member_epoch=epoch, state="LEAVING",
                from_state="STABLE")  # fmt: skip


def fenced(ts, file, error="UNKNOWN_MEMBER_ID"):  # "ConsumerGroupHeartbeat failed due to: ...: will rejoin"
    return line("heartbeat_failed", ts, file, error=error)


def heartbeats(file, mid, epoch, start, end, every=500):
    return [hb(t, file, mid, epoch) for t in range(start, end + 1, every)]


def replay(rows) -> ReplayOutput:
    r = ConsumerGroupReplay(G)
    r.feed_rows(sorted(rows, key=lambda x: (x[0], x[-2] or "", 0)))
    return r.flush(final=True)


def two_members() -> list[tuple]:
    """a joins and gets epoch 2; b joins at 5000, a revokes half (epoch 3), b gets the rest."""
    # librdkafka logs the heartbeat response (the new epoch) before the reconciliation it starts
    rows = [join(1000, "a.log", "A"), hb(1001, "a.log", "A", 2), reconcile(1001, "a.log"), acked(1002, "a.log")]
    rows += heartbeats("a.log", "A", 2, 1500, 5000)
    rows += [join(5010, "b.log", "B"), hb(5011, "b.log", "B", 0)]
    rows += [hb(5400, "a.log", "A", 3), reconcile(5400, "a.log"), acked(5401, "a.log")]
    rows += [hb(5450, "b.log", "B", 3), reconcile(5450, "b.log"), acked(5451, "b.log")]
    return rows


def final_sessions(out: ReplayOutput) -> dict[str, str]:
    return {s.member_id: s.end_reason for s in out.sessions}


def test_the_table_speaks_kafkas_vocabulary() -> None:
    assert [heartbeat_fact(e) for e in (0, 3, -1, -2, None)] == [JOIN, EPOCH, LEAVE, STATIC_LEAVE, None]
    assert fenced_fact("FENCED_MEMBER_EPOCH", "RECONCILING") == FENCED_REBALANCE
    assert fenced_fact("UNKNOWN_MEMBER_ID", "STABLE") == FENCED_SESSION
    assert fenced_fact("COORDINATOR_NOT_AVAILABLE", "STABLE") is None
    for f in HEARTBEAT_FACTS.values():
        assert f.cause is None or f.cause in CAUSES
        assert f.session_end is None or f.session_end in SESSION_ENDS
    assert (HEARTBEAT_FACTS[EXPIRED].cause, HEARTBEAT_FACTS[EXPIRED].session_end) == ("session_timeout",) * 2


def test_a_member_joining_at_epoch_0_is_the_cause_of_the_next_reconciliation() -> None:
    out = replay(two_members())
    rebs = sorted(out.rebalances, key=lambda r: r.start_ts)
    assert [(r.cause, r.culprit_member_id, r.outcome) for r in rebs] == [
        ("new_member", "A", "completed"),
        ("new_member", "B", "completed"),
    ]
    assert rebs[1].start_ts == 5400
    assert final_sessions(out) == {"A": "open", "B": "open"}


def test_a_leave_with_member_epoch_minus_1_ends_the_session_and_starts_a_rebalance() -> None:
    rows = two_members() + heartbeats("a.log", "A", 3, 5500, 9000) + heartbeats("b.log", "B", 3, 5500, 8000)
    rows += [leave(8200, "b.log", "B"), hb(8600, "a.log", "A", 4), reconcile(8600, "a.log"), acked(8601, "a.log")]
    out = replay(rows)
    last = max(out.rebalances, key=lambda r: r.start_ts)
    assert (last.cause, last.culprit_member_id, last.start_ts, last.end_ts) == ("member_leave", "B", 8200, 8601)
    assert final_sessions(out) == {"A": "open", "B": "leave"}


def test_a_static_member_leaving_with_minus_2_keeps_its_session() -> None:
    rows = two_members() + heartbeats("b.log", "B", 3, 5500, 8000)
    rows += [leave(8200, "b.log", "B", epoch=-2)]
    out = replay(rows)
    assert len({r.rebalance_id for r in out.rebalances}) == 2  # no rebalance of its own
    assert final_sessions(out)["B"] == "open"


def test_a_fenced_heartbeat_removes_the_member_for_its_session_or_its_rebalance_timeout() -> None:
    rows = two_members() + heartbeats("a.log", "A", 3, 5500, 9000) + heartbeats("b.log", "B", 3, 5500, 7000)
    rows += [fenced(8000, "b.log")]
    out = replay(rows)
    last = max(out.rebalances, key=lambda r: r.start_ts)
    assert (last.cause, last.culprit_member_id, last.start_ts) == ("session_timeout", "B", 8000)
    assert final_sessions(out)["B"] == "session_timeout"
    # fenced while reconciling: it did not revoke within the rebalance timeout
    rows = two_members() + heartbeats("a.log", "A", 3, 5500, 9000) + heartbeats("b.log", "B", 3, 5500, 7000)
    rows += [reconcile(7100, "b.log"), fenced(8000, "b.log", "FENCED_MEMBER_EPOCH")]
    out = replay(rows)
    assert final_sessions(out) == {"A": "open", "B": "fenced"}
    # the rebalance B was reconciling in (its own join's, reopened at the same epoch) takes one more
    # round without it, and ends as B is removed: A alone is reconciled
    last = max(out.rebalances, key=lambda r: r.start_ts)
    assert (last.cause, last.join_rounds, last.new_generation, last.end_ts, last.members_after) == (
        "new_member", 2, 4, 8000, 1,
    )  # fmt: skip


def test_a_member_whose_heartbeats_stop_has_expired_when_the_next_reconciliation_begins() -> None:
    rows = two_members() + heartbeats("a.log", "A", 3, 5500, 12000) + heartbeats("b.log", "B", 3, 5500, 7000)
    rows += [hb(10500, "a.log", "A", 4), reconcile(10500, "a.log"), acked(10501, "a.log")]
    out = replay(rows)
    last = max(out.rebalances, key=lambda r: r.start_ts)
    assert (last.cause, last.culprit_member_id, last.start_ts, last.outcome) == (
        "session_timeout", "B", 10500, "completed",
    )  # fmt: skip
    assert final_sessions(out) == {"A": "open", "B": "session_timeout"}


def test_a_member_still_heartbeating_has_not_expired() -> None:
    rows = two_members() + heartbeats("a.log", "A", 3, 5500, 12000) + heartbeats("b.log", "B", 3, 5500, 12000)
    rows += [hb(10500, "a.log", "A", 4), reconcile(10500, "a.log"), acked(10501, "a.log")]
    out = replay(rows)
    assert final_sessions(out) == {"A": "open", "B": "open"}
    assert max(out.rebalances, key=lambda r: r.start_ts).cause == "unknown"


def test_a_leave_after_the_poll_timer_expired_is_a_poll_timeout_leave() -> None:
    rows = two_members() + heartbeats("a.log", "A", 3, 5500, 9000) + heartbeats("b.log", "B", 3, 5500, 7000)
    # librdkafka's MAXPOLL warning names no member: it is its file's
    rows += [line("poll_timeout", 7200, "b.log", reason="Application maximum poll interval (4000ms) exceeded by 12ms"),
             leave(7201, "b.log", "B")]  # fmt: skip
    out = replay(rows)
    last = max(out.rebalances, key=lambda r: r.start_ts)
    assert (last.cause, last.culprit_member_id, last.start_ts) == ("poll_timeout_leave", "B", 7201)
    assert final_sessions(out) == {"A": "open", "B": "poll_timeout_leave"}
