"""Snapshots: the whole group model (and records not flushed yet) as compact JSON, so that
cut-and-resume equals one replay.

Format 2 (written): every :class:`~coordinator_core.replay.model.GroupModel` field by name at the
top level, typed members / departed / pending members and rebalances as objects by field name
(fields that are None are left out), records as objects by field name::

    {"v": 2, "g": group_id, "state": ..., "generation": ..., "members": {member_id: {...}}, ...,
     "dedup_keys": [[key, source_file, line_no], ...], "out": {"tr": [...], ..., "sk": [...]}}

Format 1 (read only): the single-module replay's snapshot - members and departed members as
positional lists, the open rebalance as a dict of two-letter keys, short attribute names.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from coordinator_core.replay.core import joined_ts
from coordinator_core.replay.model import (
    DepartedMember,
    GenerationAssignment,
    GroupModel,
    Member,
    OpenRebalance,
    PendingMember,
    Signal,
)
from coordinator_core.replay_base import dump_records, load_records

if TYPE_CHECKING:
    from coordinator_core.replay.core import ReplayCore

SNAPSHOT_VERSION = 2

_MODEL_FIELDS = tuple(f.name for f in fields(GroupModel) if f.name != "dedup_keys")
_NAMES = {c: tuple(f.name for f in fields(c)) for c in (Member, DepartedMember, PendingMember, OpenRebalance)}
#: typed fields of the model: name -> (decode one value, encode one value)
_MEMBER_MAPS = {"members": Member, "departed": DepartedMember, "pending": PendingMember}
_REBALANCES = ("rebalance", "last_rebalance")

#: format 1 attribute names -> model fields
_V1_NAMES = {
    "gen": "generation", "gone": "departed", "cid_map": "member_by_client", "reb": "rebalance",
    "stable_members": "stable_member_count", "known": "membership_known",
    "client_state": "client_inferred_state", "files": "file_positions", "dd_ts": "dedup_ts",
    "hb_gap": "heartbeat_gap_generation", "masg": "assignment", "prev_asg": "previous_assignment",
    "skew_gen": "skew_generation", "warned": "warned_members", "rids": "recent_rebalance_ids",
    "last_close": "last_completion", "last_reb": "last_rebalance", "giid_cid": "client_by_instance",
}  # fmt: skip
_V1_KEEP = (
    "state", "members", "pending", "leader", "protocol", "coordinator", "broker_seen", "loaded_ts",
    "signal", "hints", "last_ts", "client_ahead", "generations", "events", "removed",
)  # fmt: skip
#: format 1 keys of the open rebalance dict -> OpenRebalance fields
_V1_REBALANCE = {
    "id": "rebalance_id", "start": "start_ts", "su": "start_unknown", "og": "old_generation",
    "ng": "new_generation", "jr": "join_rounds", "cause": "cause", "reason": "reason",
    "cm": "culprit_member_id", "cc": "culprit_client_id", "ch": "culprit_host",
    "cg": "culprit_group_instance_id", "mb": "members_before", "lead": "leader_id", "proto": "protocol",
    "coord": "coordinator_broker", "inf": "inferred", "follow": "follows_signal", "weak": "weak_cause",
    "cf": "culprit_file", "out": "outcome", "end": "end_ts", "after": "members_after",
}  # fmt: skip


def _json_default(o: Any) -> Any:
    """numpy scalars / arrays and other iterables that may arrive in rows."""
    if hasattr(o, "item") and callable(o.item):
        try:
            return o.item()
        except (TypeError, ValueError):
            pass
    if isinstance(o, (set, frozenset)):
        return sorted(o, key=str)
    try:
        return list(o)
    except TypeError:
        return str(o)


def _obj(x: Any) -> dict[str, Any] | None:
    """A typed record as an object by field name, without the fields that are None."""
    if x is None:
        return None
    return {n: v for n in _NAMES[type(x)] if (v := getattr(x, n)) is not None}


# ---------------------------------------------------------------------- format 2
def dump(rp: ReplayCore) -> str:
    """The model of ``rp`` and its records not flushed yet, format 2."""
    d: dict[str, Any] = {"v": SNAPSHOT_VERSION, "g": rp.group_id}
    for name in _MODEL_FIELDS:
        d[name] = getattr(rp, name)
    for name in _MEMBER_MAPS:
        d[name] = {mid: _obj(m) for mid, m in getattr(rp, name).items()}
    for name in _REBALANCES:
        d[name] = _obj(getattr(rp, name))
    sig = rp.signal
    d["signal"] = None if sig is None else {"ts": sig.ts, "cause": sig.cause, "member_id": sig.member_id}
    a = rp.assignment
    d["assignment"] = None if a is None else {
        "generation": a.generation, "leader_map": a.leader_map, "member_maps": a.member_maps,
        "member_sources": a.member_sources,
    }  # fmt: skip
    mem = rp.settings.source_file_memory_ms
    if rp.last_ts is not None and mem is not None:
        d["file_positions"] = {
            k: v for k, v in rp.file_positions.items() if v[0] is None or v[0] >= rp.last_ts - mem
        }
    d["dedup_keys"] = [[k, sf, ln] for k, (sf, ln) in rp.dedup_keys.items()]
    out = dump_records(rp)
    if out:
        d["out"] = out
    return json.dumps(d, separators=(",", ":"), default=_json_default)


def restore(rp: ReplayCore, state_json: str) -> None:
    """Load a format 2 or format 1 snapshot into the fresh replay ``rp`` (raises when unreadable)."""
    d = json.loads(state_json)
    v = d.get("v")
    if v == SNAPSHOT_VERSION:
        _restore_v2(rp, d)
    elif v == 1:
        _restore_v1(rp, d)
    else:
        raise ValueError(f"snapshot version {v!r}")
    keys = d.get("dedup_keys" if v == SNAPSHOT_VERSION else "dd_keys", ())
    rp.dedup_keys = {tuple(k): (sf, ln) for k, sf, ln in keys}
    load_records(rp, d.get("out", {}))
    for m in rp.members.values():
        joined_ts(m)
    if not isinstance(rp.client_by_instance, dict):
        rp.client_by_instance = {}


def _restore_v2(rp: ReplayCore, d: dict[str, Any]) -> None:
    for name in _MODEL_FIELDS:
        if name in d:
            setattr(rp, name, d[name])
    for name, cls in _MEMBER_MAPS.items():
        setattr(rp, name, {mid: cls(**m) for mid, m in (d.get(name) or {}).items()})
    for name in _REBALANCES:
        r = d.get(name)
        setattr(
            rp, name, None if r is None else OpenRebalance(**{"rebalance_id": None, "start_ts": None, **r})
        )
    sig = d.get("signal")
    rp.signal = None if sig is None else Signal(**sig)
    a = d.get("assignment")
    rp.assignment = None if a is None else GenerationAssignment(**a)


# ---------------------------------------------------------------------- format 1
def _restore_v1(rp: ReplayCore, d: dict[str, Any]) -> None:
    """Format 1: members ``[client_id, host, group_instance_id, joined_ts, first_generation,
    last_generation, last_seen, inferred, client_generation]``, departed members ``[client_id,
    host, group_instance_id, left_ts, joined_ts, first_generation, last_generation, inferred,
    end_reason]``, pending members ``[client_id, host, member_id_ts]`` (older snapshots: shorter
    lists), signal ``[ts, cause, member_id]``, the current assignment ``{"g", "a", "m", "src"}``."""
    for old in _V1_KEEP:
        if old in d:
            setattr(rp, old, d[old])
    for old, new in _V1_NAMES.items():
        if old in d:
            setattr(rp, new, d[old])
    rp.members = {mid: Member(*m) for mid, m in (d.get("members") or {}).items()}
    rp.departed = {mid: DepartedMember(*m) for mid, m in (d.get("gone") or {}).items()}
    rp.pending = {mid: PendingMember(*p) for mid, p in (d.get("pending") or {}).items()}
    rp.rebalance = _v1_rebalance(d.get("reb"))
    rp.last_rebalance = _v1_rebalance(d.get("last_reb"))
    sig = d.get("signal")
    rp.signal = None if sig is None else Signal(*sig)
    a = d.get("masg")
    rp.assignment = None if a is None else GenerationAssignment(a["g"], a["a"], a["m"], a["src"])


def _v1_rebalance(r: dict[str, Any] | None) -> OpenRebalance | None:
    if r is None:
        return None
    kw = {_V1_REBALANCE[k]: v for k, v in r.items()}
    return OpenRebalance(**{"rebalance_id": None, "start_ts": None, **kw})
