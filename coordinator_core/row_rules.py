"""Rules over flat evidence rows that the job applies before (or instead of) a replay, written once as
plain functions over the row shape (:mod:`coordinator_core.events.row`):

* **routing** — which lines may switch a group's protocol (:data:`ROUTE_KINDS`:
  :func:`route_positions`); every other line goes to the group's current model
  (:class:`coordinator_core.history.GroupHistory`);
* **heartbeat compaction** — which heartbeats a replay cannot learn anything from
  (:func:`heartbeat_keep_mask`).

The job (``jobs/replay_udf.py``) applies the same rules to Arrow columns in one vectorised call each;
``tests/job/test_replay_udf_rules.py`` checks those equal to the functions here over generated rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from coordinator_core.events import BROKER_KINDS
from coordinator_core.events.row import ASSIGN, EVENT_FIELDS, KIND, LN, MEMBERS, PARTS, REVOKED, TS

__all__ = [
    "HEARTBEAT", "CONSUMER_SIGNS", "CLASSIC_SIGNS", "SHARED_KINDS", "ROUTE_KINDS", "NESTED_FIELDS",
    "HEARTBEAT_KEY_FIELDS", "route_positions", "heartbeat_keep_mask",
]  # fmt: skip

#: the kind of a heartbeat line (DEBUG "Sending Heartbeat request ..." / "Received successful ...")
HEARTBEAT = "heartbeat_sent"

# ---------------------------------------------------------------------------------------- routing

#: kinds only a consumer-protocol (or share / streams) group logs
CONSUMER_SIGNS = frozenset(
    {
        "consumer_member_joined", "consumer_member_replaced", "group_epoch_bumped", "target_assignment_computed",
        "consumer_subscription_changed", "consumer_member_left", "consumer_member_fenced",
        "member_assignment_state", "member_state_changed", "reconciliation_started",
    }
)  # fmt: skip
#: kinds both protocols log (routed to the current model unless their ``protocol_type`` says which)
SHARED_KINDS = frozenset({"group_loaded", "group_unloaded", "group_dead", "group_converted"})
#: broker kinds only a classic group logs
CLASSIC_SIGNS = frozenset(BROKER_KINDS - CONSUMER_SIGNS - SHARED_KINDS)
#: the kinds whose line may switch the group's protocol (every other line goes to the current model)
ROUTE_KINDS = CONSUMER_SIGNS | CLASSIC_SIGNS | SHARED_KINDS


def route_positions(rows: Sequence[tuple]) -> list[int]:
    """Positions of the rows whose kind may switch the group's protocol (:data:`ROUTE_KINDS`)."""
    return [i for i, r in enumerate(rows) if r[KIND] in ROUTE_KINDS]


# ---------------------------------------------------------------------------------------- heartbeats

#: fields holding lists or maps: a heartbeat carrying one of them is always kept
NESTED_FIELDS: tuple[str, ...] = ("members", "partitions", "assignment", "revoked")
_NESTED = (MEMBERS, PARTS, ASSIGN, REVOKED)
#: the fields that tell two heartbeats apart (all but the time, the line and the nested fields)
HEARTBEAT_KEY_FIELDS: tuple[str, ...] = tuple(f for f in EVENT_FIELDS if f not in ("ts", "line_no", *NESTED_FIELDS))
_KEY = tuple(i for i, f in enumerate(EVENT_FIELDS) if f in HEARTBEAT_KEY_FIELDS)
assert TS not in _KEY and LN not in _KEY


def heartbeat_keep_mask(rows: Sequence[tuple]) -> list[bool]:
    """For one group's rows in the total order: False for the heartbeats whose replay changes nothing.

    A replay handles a ``heartbeat_sent`` row of a known member by refreshing its last-seen time (and a
    member-less heartbeat *response* by raising the group's last time); only a member or generation the
    model does not expect has further effects, and those happen on the first such row. So within a run
    of consecutive heartbeat rows (no other row of the group in between), of the rows equal in every
    field but ``ts`` and ``line_no`` (:data:`HEARTBEAT_KEY_FIELDS`) only the first and the last can
    change the model: the first for what it starts, the last for the final times. Every other one may
    be left out (the replay counts it as fed: ``GroupHistory.count_skipped``). Rows without a time or
    with a nested value (:data:`NESTED_FIELDS`) are always kept."""
    keep = [True] * len(rows)
    run = 0
    ends: dict[tuple, list[int]] = {}
    for i, row in enumerate(rows):
        if row[KIND] != HEARTBEAT:
            run += 1
            continue
        if row[TS] is None or any(row[p] is not None for p in _NESTED):
            continue
        key = (run, *[row[p] for p in _KEY])
        seen = ends.get(key)
        if seen is None:
            ends[key] = [i, i]
        else:  # the former last of the run is no longer last: kept only if it is the first
            keep[seen[1]] = seen[1] == seen[0]
            seen[1] = i
    return keep
