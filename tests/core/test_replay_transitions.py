"""One test per (state, broker kind) pair of the evidence transition table, legal and illegal."""

from __future__ import annotations

import pytest

from coordinator_core.events import EVENT_TYPES
from coordinator_core.replay import GroupReplay
from coordinator_core.states import VALID_PREVIOUS_STATES, GroupState
from coordinator_core.transitions import LOADED, MEMBER_KINDS, STATE_KINDS, STAY, TRANSITIONS

KINDS = sorted(set(STATE_KINDS) | {"group_loaded"} | set(MEMBER_KINDS))
PAIRS = [(s, k) for s in GroupState for k in KINDS]

_FIELDS = {
    "rebalance_prepared": {"generation": 3, "reason": "removing member m2 on heartbeat expiration"},
    "join_completed": {"generation": 4, "member_count": 2},
    "group_empty": {"generation": 4},
    "assignment_received": {"generation": 3},
    "group_stable": {"generation": 3},
    "group_loaded": {"generation": 3, "member_count": 2},
    "group_unloaded": {"generation": 3},
    "group_dead": {"generation": 3},
    "members_removed_not_joined": {"members": ("m2",)},
    "sync_expired": {"members": ("m2",)},
    "static_member_replaced": {"old_member_id": "m2", "group_instance_id": "i2"},
    "static_member_fenced": {"old_member_id": "m1"},
    "leader_reelected": {"old_member_id": "m2"},
}


def _replay_in(state: GroupState) -> GroupReplay:
    r = GroupReplay("g")
    r.feed(EVENT_TYPES["group_loaded"](ts=1, group_id="g", generation=3, member_count=2, coordinator=1))
    r.feed(EVENT_TYPES["member_added"](ts=2, group_id="g", member_id="m1"))
    r.feed(EVENT_TYPES["member_added"](ts=2, group_id="g", member_id="m2"))
    r.flush()
    r.state = state.value  # put the model in the state under test
    return r


@pytest.mark.parametrize(("state", "kind"), PAIRS, ids=[f"{s.value}-{k}" for s, k in PAIRS])
def test_transition_pair(state: GroupState, kind: str):
    r = _replay_in(state)
    kw = {"member_id": "m1", **_FIELDS.get(kind, {})}
    r.feed(EVENT_TYPES[kind](ts=100, group_id="g", coordinator=1, **kw))
    out = r.flush()
    impossible = [a for a in out.anomalies if a.kind == "impossible_transition"]
    legal = (state, kind) in TRANSITIONS
    assert bool(impossible) is (not legal)
    tgt = TRANSITIONS.get((state, kind))
    if tgt is None:  # adopted: the natural target of the fact
        tgt = STATE_KINDS[kind].value if kind in STATE_KINDS else (LOADED if kind == "group_loaded" else STAY)
    expected = {STAY: state.value, LOADED: "Stable"}.get(tgt, tgt)
    assert r.state == expected
    changed = [t for t in out.transitions if t.trigger == kind]
    assert bool(changed) is (expected != state.value)


def test_state_changes_follow_kafkas_valid_previous_states():
    for kind, tgt in STATE_KINDS.items():
        for src in GroupState:
            entry = TRANSITIONS.get((src, kind))
            if src in VALID_PREVIOUS_STATES[tgt]:
                assert entry == tgt.value
            elif entry is not None:
                assert entry == STAY and src == tgt


def test_unknown_state_accepts_any_fact():
    for kind in KINDS:
        r = GroupReplay("g")
        kw = {"member_id": "m1", **_FIELDS.get(kind, {})}
        r.feed(EVENT_TYPES[kind](ts=100, group_id="g", coordinator=1, **kw))
        assert not [a for a in r.flush().anomalies if a.kind == "impossible_transition"], kind
