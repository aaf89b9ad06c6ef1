"""The replay stage in CPU seconds of one process: every group bucket of a job's staged events.

``python -m benchmarks.bench_replay <events folder> [--save F | --compare F] [--cprofile F] [--groups N]
[--repeat N]``

The events folder is a run's ``events/run_id=...`` partition written by the bucketed ingestion
(``part-<task>-b<bucket>.parquet``, see :mod:`jobs.buckets`). Each bucket is replayed with
:func:`jobs.bucket_replay.replay_bucket` (fresh state, a fixed run id) and timed with
``time.process_time()``: the figures do not depend on other processes' load. ``--groups N`` prints
the N groups of the largest CPU time (each group replayed alone from the bucket's sorted input);
``--repeat N`` replays every bucket N times
and reports the least CPU time of each (other processes on a shared machine only ever add to it);
``--save`` pickles the union tables, ``--compare`` checks them ``.equals()`` to a saved pickle.
"""

from __future__ import annotations

import argparse
import cProfile
import pickle
import pstats
import sys
import time

import pyarrow.compute as pc

from coordinator_core.replay.settings import ReplaySettings
from jobs.bucket_replay import bucket_input, read_bucket_events, replay_bucket
from jobs.buckets import bucket_files
from jobs.replay_udf import plain_strings, replay_parts

RUN_ID = "bench-replay"


def per_bucket(
    folder: str, profile: cProfile.Profile | None = None, repeat: int = 1
) -> tuple[dict[int, float], dict]:
    """(CPU seconds per bucket, the least of ``repeat`` runs; union table per bucket)."""
    files = {k: v for k, v in bucket_files(folder).items() if isinstance(k, int)}
    settings, cpu, tables = ReplaySettings(), {}, {}
    for _ in range(repeat):
        for k, paths in sorted(files.items()):
            if profile:
                profile.enable()
            t0 = time.process_time()
            tables[k] = replay_bucket(paths, [], settings, RUN_ID, None)
            cpu[k] = min(cpu.get(k, float("inf")), time.process_time() - t0)
            if profile:
                profile.disable()
    return cpu, tables


def per_group(folder: str) -> list[tuple[float, int, str, str, int]]:
    """(CPU seconds, bucket, cluster, group id, rows) of every group, replayed alone."""
    settings, out = ReplaySettings(), []
    for k, paths in sorted(bucket_files(folder).items()):
        if not isinstance(k, int):
            continue
        table = bucket_input(read_bucket_events(paths))
        keys = plain_strings(table.select(["cluster", "group_id"]))
        for cluster, group_id in sorted(set(zip(*(keys[c].to_pylist() for c in ("cluster", "group_id"))))):
            part = table.filter(
                pc.and_(pc.equal(keys["cluster"], cluster), pc.equal(keys["group_id"], group_id))
            )
            t0 = time.process_time()
            replay_parts(cluster, group_id, part, None, settings, RUN_ID, presorted=True)
            out.append((time.process_time() - t0, k, cluster, group_id, part.num_rows))
    return sorted(out, reverse=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--save")
    ap.add_argument("--compare")
    ap.add_argument("--cprofile")
    ap.add_argument("--groups", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1, help="replay every bucket N times, report the least CPU time")
    args = ap.parse_args(argv)
    profile = cProfile.Profile() if args.cprofile else None
    cpu, tables = per_bucket(args.folder, profile, args.repeat)
    total = sum(cpu.values())
    for k, s in cpu.items():
        print(f"bucket {k}: {s:6.2f} CPU-s ({s / total:5.1%}), {tables[k].num_rows} union rows")
    print(f"total: {total:.2f} CPU-s, largest bucket {max(cpu.values()) / total:.1%}")
    if profile:
        profile.dump_stats(args.cprofile)
        pstats.Stats(profile).sort_stats("tottime").print_stats(35)
    if args.save:
        with open(args.save, "wb") as fh:
            pickle.dump({k: t.to_pydict() for k, t in tables.items()}, fh)
    if args.compare:
        with open(args.compare, "rb") as fh:
            ref = pickle.load(fh)
        bad = [k for k in ref if ref[k] != tables[k].to_pydict()]
        print("tables equal to", args.compare if not bad else f"DIFFER in buckets {bad}")
        if bad:
            return 1
    for s, k, cluster, group_id, n in per_group(args.folder)[: args.groups]:
        print(f"{s:6.2f} CPU-s  bucket {k}  {cluster}/{group_id}  {n} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
