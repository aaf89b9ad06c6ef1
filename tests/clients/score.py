"""Score client-only reconstruction against the truth of a recorded scenario.

Each consumer's log is ingested on its own (:func:`jobs.ingest.parse.parse_bytes`, as the job reads a
file), every group's events are replayed together in the total order
(:class:`coordinator_core.history.GroupHistory`), and the outcome is compared with ``truth.json``:

* a truth rebalance is **found with its end** when a replayed rebalance of the scenario's group
  completed (``outcome`` completed) with its end between the truth's start and end + :data:`SLACK_MS`
  (its end is the first sign of the new assignment in the logs, the truth's end the last member's
  callback), and - where the truth has the generation - the same new generation;
* a truth member session is **ended right** when the replayed session of the same member id ended with
  the same reason (``leave``, ``session_timeout``, ``poll_timeout_leave``);
* **invented groups**: every replayed group other than the scenario's.

A consumer whose lines name no member id is followed through its file's stand-in member
(:func:`coordinator_core.replay.client.file_member`): a truth session whose member id the replay does not
know is compared with the session of the stand-in member of the consumer's own file (``<who>.log``).

Applications whose logs never name their group (:data:`INPUT_GROUP_LIBS`: arroyo) are scored twice: from
the logs alone, and with the group given as their input's (``--input-group``:
:func:`jobs.ingest.attribution.input_group`), as ``<library> +input-group``. They are applications on a
client library, not client libraries: :data:`APPLICATIONS` are left out of the client libraries' total.

``python -m tests.clients.score [DIR]`` prints the table per library and scenario.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from coordinator_core.events import event_from_row
from coordinator_core.history import UNATTRIBUTED_PREFIX, GroupHistory
from coordinator_core.replay import ReplayOutput
from coordinator_core.replay.client import file_member
from jobs.ingest.attribution import input_group
from jobs.ingest.parse import parse_bytes

CORPUS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "clients")
SLACK_MS = 1500
#: scenarios whose logs cannot show rebalances (librdkafka without debug: warnings and errors only)
NOT_SCORED = frozenset({"librdkafka/no_debug"})
#: libraries whose lines never name their group: also scored with their input's group
INPUT_GROUP_LIBS = frozenset({"arroyo"})
#: applications built on a client library (scored and reported apart from the client libraries)
APPLICATIONS = frozenset({"arroyo"})


@dataclass
class Score:
    name: str
    rebalances: int = 0
    found: int = 0
    causes: int = 0  # found rebalances whose truth names a cause
    causes_ok: int = 0
    sessions: int = 0
    sessions_ok: int = 0
    replayed: int = 0
    invented: list[str] = field(default_factory=list)
    quarantined: int = 0
    unattributed: int = 0  # files whose client lines name no group (kept in events, not replayed)
    misses: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        """Adds ``other``'s counts of rebalances, causes and sessions (a total over scenarios)."""
        self.rebalances += other.rebalances
        self.found += other.found
        self.causes += other.causes
        self.causes_ok += other.causes_ok
        self.sessions += other.sessions
        self.sessions_ok += other.sessions_ok
        self.replayed += other.replayed
        self.quarantined += other.quarantined
        self.invented += other.invented


def scenario_dirs(root: str = CORPUS) -> list[str]:
    out = []
    for lib in sorted(os.listdir(root)) if os.path.isdir(root) else ():
        for sc in sorted(os.listdir(os.path.join(root, lib))):
            d = os.path.join(root, lib, sc)
            if os.path.exists(os.path.join(d, "truth.json")):
                out.append(d)
    return out


def read_logs(d: str) -> dict[str, bytes]:
    out = {}
    for f in sorted(os.listdir(d)):
        if f.endswith((".log", ".log.gz")):
            with open(os.path.join(d, f), "rb") as fh:
                data = fh.read()
            out[f.removesuffix(".gz")] = gzip.decompress(data) if f.endswith(".gz") else data
    return out


def replay_logs(
    logs: dict[str, bytes], group: str | None = None
) -> tuple[dict[str, ReplayOutput], list[dict[str, Any]]]:
    """Ingest each file, replay every group; (output per group, quarantine rows). ``group``: the
    files' input names this group (``--input-group``)."""
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    quarantine: list[dict[str, Any]] = []
    for name, data in logs.items():
        events, q, _ = parse_bytes(data, name)
        if group is not None:
            events = input_group(events, name, (("*", group),))
        quarantine.extend(q.to_pylist())
        for r in events.to_pylist():
            r["ts"] = r.pop("ts_ms")
            if r["ts"] is not None:
                rows[r["group_id"]].append(r)
    out = {}
    for gid, rs in rows.items():
        evs = sorted((event_from_row(r) for r in rs), key=lambda e: e.sort_key())
        h = GroupHistory(gid)
        for e in evs:
            h.feed(e)
        out[gid] = h.flush(final=True)
    return out, quarantine


def _matches(t: dict[str, Any], r: Any) -> bool:
    if r.outcome != "completed" or r.end_ts is None:
        return False
    if t.get("generation") is not None and r.new_generation is not None and r.new_generation != t["generation"]:
        return False
    return t["start"] - SLACK_MS <= r.end_ts <= t["end"] + SLACK_MS


def _final_sessions(out: ReplayOutput) -> dict[str, str]:
    last: dict[str, str] = {}
    for s in out.sessions:
        last[s.member_id] = s.end_reason
    return last


def score_dir(d: str, with_input_group: bool = False) -> Score:
    """The score of one scenario; ``with_input_group``: its files' input names the scenario's group."""
    with open(os.path.join(d, "truth.json"), encoding="utf-8") as fh:
        truth = json.load(fh)
    sc = Score(f"{truth['library']}{' +input-group' if with_input_group else ''}/{truth['scenario']}")
    outs, quarantine = replay_logs(read_logs(d), truth["group"] if with_input_group else None)
    sc.quarantined = len(quarantine)
    # a group of the replay other than the scenario's (unattributed lines give no rebalance, no session)
    sc.invented = sorted(g for g, o in outs.items() if g != truth["group"] and (o.rebalances or o.sessions))
    sc.unattributed = sum(1 for g in outs if g.startswith(UNATTRIBUTED_PREFIX))
    out = outs.get(truth["group"])
    rebs = list(out.rebalances) if out else []
    final = {r.rebalance_id: r for r in rebs}  # a rebalance is reported again when it changes
    rebs = list(final.values())
    sc.replayed = len(rebs)
    used: set[str] = set()
    for t in truth["rebalances"]:
        sc.rebalances += 1
        hit = next((r for r in rebs if r.rebalance_id not in used and _matches(t, r)), None)
        if hit is None:
            sc.misses.append(f"rebalance {t['start']}..{t['end']} gen {t.get('generation')} {t['members']}")
        else:
            used.add(hit.rebalance_id)
            sc.found += 1
            if t.get("cause", "unknown") != "unknown":
                sc.causes += 1
                if hit.cause == t["cause"]:
                    sc.causes_ok += 1
                else:
                    sc.misses.append(f"cause of rebalance ending {t['end']}: want {t['cause']}, got {hit.cause}")
    ends = _final_sessions(out) if out else {}
    for s in truth["sessions"]:
        if s["end"] in ("open", "rejoined_as_new_member"):
            continue
        sc.sessions += 1
        got = ends.get(s["member_id"], ends.get(file_member(f"{s['who']}.log")))
        if got == s["end"]:
            sc.sessions_ok += 1
        else:
            sc.misses.append(f"session {s['who']} {s['member_id']}: want {s['end']}, got {got}")
    return sc


def _row(s: Score) -> str:
    return (f"{s.name:34} {s.rebalances:10} {s.found:6} {s.replayed:8} {s.causes:7} {s.causes_ok:4} {s.sessions:8} "
            f"{s.sessions_ok:4} {s.quarantined:6} {','.join(s.invented)}")  # fmt: skip


def main(argv: list[str]) -> None:
    """Print one row per scenario, then one per library and the total (scenarios of NOT_SCORED left out)."""
    roots = [a for a in argv if not a.startswith("-")]
    root = roots[0] if roots else CORPUS
    tot = Score("total (scored)")
    clients = Score("total (client libraries)")
    libs: dict[str, Score] = {}
    print(f"{'scenario':34} {'rebalances':>10} {'found':>6} {'replayed':>8} {'causes':>7} {'ok':>4} {'sessions':>8} {'ok':>4} "
          f"{'quar.':>6} invented")  # fmt: skip
    for d in scenario_dirs(root):
        lib = os.path.basename(os.path.dirname(d))
        for with_group in (False, True) if lib in INPUT_GROUP_LIBS else (False,):
            s = score_dir(d, with_group)
            print(_row(s))
            if "-v" in argv:
                for m in s.misses:
                    print("    " + m)
            if s.name in NOT_SCORED:
                continue
            if not with_group:
                tot.add(s)
                if lib not in APPLICATIONS:
                    clients.add(s)
            libs.setdefault(s.name.split("/")[0], Score(s.name.split("/")[0])).add(s)
    for name in sorted(libs):
        print(_row(libs[name]))
    print(_row(tot))
    print(_row(clients))


if __name__ == "__main__":
    main(sys.argv[1:])
