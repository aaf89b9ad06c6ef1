"""Property tests of the consumer-group coordinator over random request streams (joins, heartbeats
that acknowledge or lag, leaves, static temporary leaves and returns, subscription changes,
partition-count changes, time passing, a classic-protocol member joining, syncing and heartbeating,
the online downgrade when it is left alone with classic members), for every version:

* every member at the target epoch owns a subset of its target assignment;
* no partition is owned by two members (assigned or pending revocation);
* the group is Stable iff every member is STABLE at the group epoch with nothing pending and the
  target assignment is current;
* replaying the records the calls returned rebuilds the same state;
* the fast path answers exactly as the reference path (responses, records, logs, state).
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coordinator_core.consumer.classic import ConsumerProtocolSubscription
from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator
from coordinator_core.consumer.protocol import HeartbeatRequest
from coordinator_core.consumer.records import replay_records
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig

MEMBERS = ["a", "b", "c", "d"]
TOPIC_SETS = [("t1",), ("t1", "t2"), ("t2",)]

op = st.one_of(
    st.tuples(st.just("hb"), st.sampled_from(MEMBERS), st.booleans()),
    st.tuples(st.just("hb"), st.sampled_from(MEMBERS), st.booleans()),
    st.tuples(st.just("hb"), st.sampled_from(MEMBERS), st.booleans()),
    st.tuples(st.just("leave"), st.sampled_from(MEMBERS), st.booleans()),
    st.tuples(st.just("subs"), st.sampled_from(MEMBERS), st.sampled_from(range(len(TOPIC_SETS)))),
    st.tuples(st.just("sleep"), st.sampled_from([100, 5_000, 20_000, 46_000]), st.none()),
    st.tuples(st.just("grow"), st.sampled_from(["t1", "t2"]), st.integers(1, 3)),
    st.tuples(st.just("cjoin"), st.just("e"), st.booleans()),
    st.tuples(st.just("chb"), st.just("e"), st.none()),
)


class Client:
    def __init__(self, mid, static):
        self.mid, self.static = mid, static
        self.epoch, self.owned, self.latest, self.subs, self.gen = 0, {}, None, ("t1",), 0

    def request(self, ack, sent_subs):
        if self.epoch == 0:
            self.gen += 1
            return HeartbeatRequest("g", f"{self.mid}{self.gen}", 0, instance_id=self.static, rebalance_timeout_ms=30_000,
                                    subscribed_topic_names=list(self.subs), topic_partitions=[],
                                    server_assignor="uniform")  # fmt: skip
        if ack and self.latest is not None:
            self.owned = dict(self.latest)
        return HeartbeatRequest("g", f"{self.mid}{self.gen}", self.epoch, instance_id=self.static,
                                subscribed_topic_names=list(self.subs) if sent_subs else None,
                                topic_partitions=None if ack and sent_subs is False else self.owned)  # fmt: skip

    def on_reply(self, r):
        if r.error != "NONE":
            self.epoch, self.owned, self.latest = 0, {}, None
            return
        self.epoch = r.member_epoch
        if r.assignment is not None:
            self.latest = r.assignment


class ClassicClient:
    """A classic-protocol member (JoinGroup + SyncGroup, Heartbeat) inside the consumer group."""

    def __init__(self):
        self.gen, self.n, self.owned = -1, 0, {}

    def join(self, c, now, ack):
        if self.gen < 0:
            self.n += 1
        owned = [f"{t}-{p}" for t, ps in sorted(self.owned.items()) for p in sorted(ps)] if ack else []
        out = c.join_group(now, "g", member_id=f"e{self.n}", session_timeout_ms=10_000, rebalance_timeout_ms=30_000,
                           protocols=(("range", ConsumerProtocolSubscription(("t1",), tuple(owned))),),
                           require_known_member_id=False)  # fmt: skip
        outs = [out]
        if out.reply is None or out.reply.error != "NONE":
            self.gen, self.owned = -1, {}
            return outs
        self.gen = out.reply.generation
        sync = c.sync_group(now, "g", member_id=f"e{self.n}", generation=self.gen)
        outs.append(sync)
        if sync.reply is not None and sync.reply.error == "NONE":
            self.owned = sync.reply.assignment
        return outs

    def heartbeat(self, c, now):
        if self.gen < 0:
            return []
        out = c.classic_heartbeat(now, "g", member_id=f"e{self.n}", generation=self.gen)
        if out.reply is not None and out.reply.error in ("UNKNOWN_MEMBER_ID", "ILLEGAL_GENERATION"):
            self.gen, self.owned = -1, {}
        return [out]


def run(version, ops, fast):
    c = ConsumerGroupCoordinator(ConsumerCoordinatorConfig(version), {"t1": 4, "t2": 3})
    c.use_fast_path = fast
    clients = {m: Client(m, "s-" + m if m in "cd" else None) for m in MEMBERS}
    classic = ClassicClient()
    now, trace, records = 0, [], []
    for kind, x, y in ops:
        if kind in ("cjoin", "chb"):
            for out in classic.join(c, now, y) if kind == "cjoin" else classic.heartbeat(c, now):
                records.extend(out.records)
                trace.append((out.reply, out.records, [(lg.kind, lg.member_id) for lg in out.logs], out.transitions))
            check_invariants(c)
            continue
        if kind == "hb":
            cl = clients[x]
            out = c.heartbeat(now, cl.request(y, False if y else None))
            cl.on_reply(out.reply)
        elif kind == "leave":
            cl = clients[x]
            if cl.epoch <= 0:
                continue
            epoch = -2 if (y and cl.static) else -1
            out = c.heartbeat(now, HeartbeatRequest("g", f"{x}{cl.gen}", epoch, instance_id=cl.static))
            cl.epoch, cl.owned, cl.latest = 0, {}, None
        elif kind == "subs":
            cl = clients[x]
            cl.subs = TOPIC_SETS[y]
            if cl.epoch <= 0:
                continue
            out = c.heartbeat(now, HeartbeatRequest("g", f"{x}{cl.gen}", cl.epoch, instance_id=cl.static,
                                                    subscribed_topic_names=list(cl.subs), topic_partitions=cl.owned))  # fmt: skip
            cl.on_reply(out.reply)
        elif kind == "sleep":
            now += x
            out = c.advance_to(now)
        else:
            out = c.update_topics(now, {x: c.topics[x] + y})
        records.extend(out.records)
        trace.append((out.reply, out.records, [(lg.kind, lg.member_id, lg.epoch) for lg in out.logs], out.transitions))
        check_invariants(c)
    return c, trace, records


def check_invariants(c):
    g = c.group("g")
    if g is None:
        return
    owner = {}
    for m in g.members.values():
        for parts in (m.assigned_partitions, m.partitions_pending_revocation):
            for t, ps in parts.items():
                for p in ps:
                    assert (t, p) not in owner, f"{t}-{p} owned by {owner[(t, p)]} and {m.member_id}"
                    owner[(t, p)] = m.member_id
        if m.member_epoch == g.assignment_epoch:
            target = g.target_assignment.get(m.member_id, {})
            for t, ps in m.assigned_partitions.items():
                assert ps <= target.get(t, frozenset()), (m, target)
    stable = bool(g.members) and g.group_epoch == g.assignment_epoch and all(
        m.state == "STABLE" and m.member_epoch == g.group_epoch and not m.partitions_pending_revocation
        for m in g.members.values()
    )
    assert (g.state == "Stable") == stable
    assert c.anomalies == []


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.sampled_from(["4.0", "4.1", "4.2"]), st.lists(op, min_size=1, max_size=60))
def test_invariants_replay_and_fast_path(version, ops):
    c, trace, records = run(version, ops, fast=True)
    ref, ref_trace, _ = run(version, ops, fast=False)
    assert trace == ref_trace
    assert c.groups == ref.groups
    rebuilt = {}
    anomalies = []
    replay_records(rebuilt, records, anomalies)
    assert anomalies == []
    assert rebuilt == c.groups


def test_epoch_going_backwards_is_an_anomaly_not_a_crash():
    from coordinator_core.consumer.records import GroupMetadataRecord, TargetAssignmentMetadataRecord

    c = ConsumerGroupCoordinator()
    got = c.replay([GroupMetadataRecord("g", 5), GroupMetadataRecord("g", 3), TargetAssignmentMetadataRecord("g", 5),
                    TargetAssignmentMetadataRecord("g", 4)])  # fmt: skip
    assert [k for k, _ in got] == ["epoch_backwards", "epoch_backwards"]
    assert (c.group("g").group_epoch, c.group("g").assignment_epoch) == (5, 5)


def test_bad_input_never_raises():
    c = ConsumerGroupCoordinator(topics={"t": 1})
    bad = [
        HeartbeatRequest(None), HeartbeatRequest("g", "m", 0, rebalance_timeout_ms=1, subscribed_topic_names=["t"],
                                                 topic_partitions=[("t", ["x"])]),
        HeartbeatRequest("g", "m", 3, topic_partitions=object()), HeartbeatRequest("g", None, 1),
    ]  # fmt: skip
    errors = [c.heartbeat(0, copy.copy(r)).reply.error for r in bad]
    assert errors == ["INVALID_REQUEST", "INVALID_REQUEST", "INVALID_REQUEST", "INVALID_REQUEST"]
