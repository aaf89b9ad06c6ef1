"""Hypothesis properties of one group's history across protocols (``GroupHistory``): random evidence
of both protocols, with logged conversions both ways and unlogged switches (Kafka 4.0), never makes
the replay fail; cut-and-resume anywhere in well-formed rounds of both protocols equals one replay; a member's open session is never reported
twice (once per protocol); the records stay in their vocabularies."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from coordinator_core.history import GroupHistory
from coordinator_core.records import ANOMALY_KINDS, CAUSES, OUTCOMES, SESSION_ENDS
from tests.core.test_consumer_properties import SETTINGS, evidence, merged
from tests.core.test_consumer_replay import G, astate, bumped, joined, left, row, target


@st.composite
def classic_round(draw, ts: int, gen: int) -> list[tuple]:
    """One classic rebalance as the Java coordinator logs it (a member joins, the group stabilises)."""
    mid = draw(st.sampled_from(("c1", "c2", "m1", "m2")))
    out = [
        row("member_added", ts, member_id=mid, protocol_type=None),
        row("rebalance_prepared", ts + 1, generation=gen, reason=f"Adding new member {mid}", protocol_type=None),
        row("join_completed", ts + 3000, generation=gen + 1, member_count=draw(st.integers(1, 3)), protocol_type=None),
    ]
    if draw(st.booleans()):
        out.append(row("assignment_received", ts + 3010, member_id=mid, generation=gen + 1, protocol_type=None))
    return out


@st.composite
def consumer_round(draw, ts: int, epoch: int, members: list[str]) -> list[tuple]:
    """One consumer-protocol episode as a 3.8+ broker logs it: a member joins or leaves, the epoch is
    bumped (a leave bumps without a line), the target computed, every member reaches the epoch."""
    mid = draw(st.sampled_from(("m1", "m2", "m3", "c1")))
    out = []
    if mid in members and draw(st.booleans()):
        members.remove(mid)
        out.append(left(ts, mid))
    else:
        if mid not in members:
            members.append(mid)
        out += [joined(ts, mid), bumped(ts + 1, epoch + 1)]
    out.append(target(ts + 2, epoch + 1))
    for i, m in enumerate(members):
        out.append(astate(ts + 1000 * (i + 1), m, epoch + 1, epoch, "STABLE"))
    return out


@st.composite
def mixed_rounds(draw) -> list[tuple]:
    """Well-formed rounds of both protocols, joined by logged conversions or none: what a converted
    group logs (the cut-and-resume property is about the hand-over, not about contradictory lines)."""
    out: list[tuple] = []
    ts, gen, members = 1_000, 0, []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            out += draw(classic_round(ts, gen))
        else:
            out += draw(consumer_round(ts, gen, members))
        ts, gen = ts + 10_000, gen + 1
        if draw(st.integers(0, 2)) == 0:
            to = draw(st.sampled_from(("consumer", "classic")))
            out.append(row("group_converted", ts, protocol_type=to, reason=f"Converted to a {to} group"))
            ts += 10
    return out


@st.composite
def mixed_evidence(draw) -> list[tuple]:
    """Segments of classic rounds and consumer-protocol evidence, joined by logged conversions or none."""
    out: list[tuple] = []
    ts, gen = 1_000, 0
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            for _ in range(draw(st.integers(1, 3))):
                out += draw(classic_round(ts, gen))
                ts, gen = ts + 10_000, gen + 1
        else:
            seg = draw(evidence(max_size=15))
            shift = ts - (seg[0][0] if seg else ts)
            out += [(r[0] + shift, *r[1:]) for r in seg]
            ts = (out[-1][0] if out else ts) + 10_000
        if draw(st.booleans()):
            to = draw(st.sampled_from(("consumer", "classic")))
            out.append(row("group_converted", ts, protocol_type=to, reason=f"Converted to a {to} group"))
            ts += 10
    # strictly increasing times: a member leaving and joining again in the same millisecond would give
    # two sessions one key (group, member, joined_ts), a limit of the key, not of the hand-over
    fixed, last = [], -1
    for r in out:
        last = max(r[0], last + 1)
        fixed.append((last, *r[1:]))
    return fixed


def run(rows) -> object:
    h = GroupHistory(G)
    h.feed_rows(rows)
    return h.flush(final=True)


@SETTINGS
@given(mixed_evidence())
def test_history_invariants(rows):
    out = run(rows)
    kinds = [a.kind for a in out.anomalies]
    assert "replay_error" not in kinds, [a.detail for a in out.anomalies if a.kind == "replay_error"]
    assert set(kinds) <= set(ANOMALY_KINDS)
    for r in out.rebalances:
        assert r.outcome in OUTCOMES and r.cause in CAUSES and r.protocol_type in ("classic", "consumer")
        assert r.duration_ms is None or r.duration_ms >= 0
    assert len({r.rebalance_id for r in out.rebalances}) == len(out.rebalances)
    # a handed-over member is one open session, not one per protocol
    keys = [(s.member_id, s.joined_ts) for s in out.sessions if s.end_reason == "open"]
    assert len(keys) == len(set(keys))
    assert all(s.end_reason in SESSION_ENDS and s.joined_ts is not None for s in out.sessions)


@SETTINGS
@given(mixed_rounds(), st.data())
def test_history_cut_and_resume_equals_one_replay(rows, data):
    k = data.draw(st.integers(0, len(rows)))
    h = GroupHistory(G)
    h.feed_rows(rows[:k])
    first = h.flush()
    h2 = GroupHistory.resume(G, h.snapshot())
    h2.feed_rows(rows[k:])
    assert merged([first, h2.flush(final=True)]) == merged([run(rows)])
