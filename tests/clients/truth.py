"""The truth of a recorded scenario, from the clients' own rebalance callbacks (never from logs).

* A **rebalance** ends when the last member's ``assigned`` callback of it ran. Where the library
  exposes the generation (kafka-python, aiokafka) a rebalance is one generation's ``assigned``
  callbacks; otherwise (confluent-kafka) the callbacks that follow each other by less than
  :data:`GAP_MS` (the recorder waits longer than that between steps). It starts at the recorder's
  action that caused it or the first ``revoked``/``lost`` callback, whichever is first.
* A **member session** is one member id of one consumer process; it ends ``leave`` when the process
  closed the consumer or unsubscribed, ``session_timeout`` when it was SIGKILLed, ``poll_timeout_leave`` when its
  poll loop stalled past max.poll.interval.ms (the consumer rejoins afterwards under a new id).
"""

from __future__ import annotations

import json
import sys
from typing import Any

GAP_MS = 1000
_ENDS = {"close": "leave", "kill": "session_timeout", "unsubscribe": "leave"}
#: the recorder's action -> the cause of the rebalance it started
_CAUSES = {
    "start": "new_member", "close": "member_leave", "kill": "session_timeout", "stall": "poll_timeout_leave",
    "unsubscribe": "member_leave",
}  # fmt: skip


def _clusters(cbs: list[dict[str, Any]], by_generation: bool) -> list[list[dict[str, Any]]]:
    if by_generation:
        gens: dict[int, list[dict[str, Any]]] = {}
        for c in cbs:
            if c["what"] == "assigned" and c.get("generation") is not None and c["generation"] > 0:
                gens.setdefault(c["generation"], []).append(c)
        return [gens[g] for g in sorted(gens)]
    out: list[list[dict[str, Any]]] = []
    for c in cbs:
        if c["what"] not in ("assigned", "revoked", "lost"):
            continue
        if out and c["t"] - out[-1][-1]["t"] < GAP_MS:
            out[-1].append(c)
        else:
            out.append([c])
    return [cl for cl in out if any(c["what"] == "assigned" for c in cl)]


def _rebalances(cbs: list[dict[str, Any]], actions: list[dict[str, Any]], by_gen: bool) -> list[dict[str, Any]]:
    out = []
    prev_end = 0
    for cl in _clusters(cbs, by_gen):
        assigned = [c for c in cl if c["what"] == "assigned"]
        end = max(c["t"] for c in assigned)
        first = min(c["t"] for c in assigned)
        before = [c["t"] for c in cbs if c["what"] in ("revoked", "lost") and prev_end < c["t"] <= first]
        acts = [a for a in actions if prev_end < a["t"] <= first]
        start = min(before + [a["t"] for a in acts[-1:]] + [first])
        if acts:
            cause = _CAUSES.get(acts[-1]["action"], "unknown")
        elif out and out[-1]["cause"] == "poll_timeout_leave":
            cause = "new_member"  # the stalled consumer polls again and rejoins
        else:
            cause = "unknown"  # no action of the recorder: a rebalance the clients caused themselves
        out.append({
            "start": start, "end": end,
            "generation": assigned[0].get("generation") if by_gen else None, "cause": cause,
            "members": sorted({c["who"] for c in assigned}),
            "member_ids": sorted({c["member_id"] for c in assigned if c.get("member_id")}),
        })  # fmt: skip
        prev_end = end
    return out


def _sessions(cbs: list[dict[str, Any]], actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for who in sorted({c["who"] for c in cbs}):
        mine = [c for c in cbs if c["who"] == who]
        ids: list[str] = []
        for c in mine:
            if c.get("member_id") and c["member_id"] not in ids:
                ids.append(c["member_id"])
        stalls = [c for c in mine if c["what"] == "stall"]
        ended = [a["action"] for a in actions if a["who"] == who and a["action"] in _ENDS]
        for i, mid in enumerate(ids):
            if i < len(ids) - 1:
                stalled = any(s.get("member_id") == mid for s in stalls)
                end = "poll_timeout_leave" if stalled else "rejoined_as_new_member"
            else:
                end = _ENDS[ended[-1]] if ended else "open"
            out.append({"who": who, "member_id": mid, "end": end})
    return out


def retruth(path: str) -> None:
    """Recompute a recorded ``truth.json`` from its callbacks and actions (after a change here)."""
    with open(path, encoding="utf-8") as fh:
        t = json.load(fh)
    new = truth_of(t["callbacks"], t["actions"], t["library"], t["scenario"], t["group"])
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(new, fh, indent=1, sort_keys=True)
        fh.write("\n")


def truth_of(
    cbs: list[dict[str, Any]], actions: list[dict[str, Any]], lib: str, scenario: str, group: str
) -> dict[str, Any]:
    cbs = sorted(cbs, key=lambda c: c["t"])
    by_gen = any(c.get("generation") not in (None, -1, 0) for c in cbs if c["what"] == "assigned")
    return {
        "library": lib,
        "scenario": scenario,
        "group": group,
        "actions": actions,
        "callbacks": cbs,
        "rebalances": _rebalances(cbs, actions, by_gen),
        "sessions": _sessions(cbs, actions),
    }


if __name__ == "__main__":
    for p in sys.argv[1:]:
        retruth(p)
