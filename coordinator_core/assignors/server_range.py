"""The server-side ``range`` assignor of consumer groups (KIP-848, Kafka's
``group/assignor/RangeAssignor``): per topic, contiguous ranges over the members subscribed to it.

Members are sorted as Kafka sorts them: members with an instance id first, by instance id; then
the others by member id. Per topic, ``n // k`` partitions each and one more for the first
``n % k`` members (in that order) among the ``k`` subscribers. The assignment does not depend on
the current one (Kafka's server-side range assignor is not sticky): a static member that comes
back gets the same range because it sorts at the same place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from coordinator_core.assignors.server_uniform import AssignorError, MemberSpec

__all__ = ["NAME", "assign"]

NAME = "range"


def _order(m: MemberSpec) -> tuple:
    return (0, m[1], "") if m[1] is not None else (1, "", m[0])


def assign(members: Sequence[MemberSpec], topics: Mapping[str, int]) -> dict[str, dict[str, frozenset[int]]]:
    if not members:
        return {}
    ordered = sorted(members, key=_order)
    counts: dict[str, int] = {}
    for m in ordered:
        for t in m[2]:
            if topics.get(t, -1) < 0:
                raise AssignorError("Member is subscribed to a non-existent topic")
            counts[t] = counts.get(t, 0) + 1
    quota = {t: divmod(topics[t], k) for t, k in counts.items()}
    extra = {t: q[1] for t, q in quota.items()}
    nxt = dict.fromkeys(counts, 0)
    out: dict[str, dict[str, frozenset[int]]] = {}
    for m in ordered:
        a: dict[str, frozenset[int]] = {}
        for t in sorted(m[2]):
            q = quota[t][0]
            if extra[t] > 0:
                q += 1
                extra[t] -= 1
            start = nxt[t]
            end = min(start + q, topics[t])
            nxt[t] = end
            if start < end:
                a[t] = frozenset(range(start, end))
        out[m[0]] = a
    return out
