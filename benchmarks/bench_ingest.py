"""Ingestion benchmark: rebalance-lens ingest vs. a Spark "floor" job over the same files.

    python benchmarks/bench_ingest.py --lines 5000000

1. builds (or reuses) a mixed corpus under ``benchmarks/corpus/<lines>/``: broker logs (log4j,
   mostly broker noise with GroupCoordinator lines of several Kafka versions), Spring Boot client
   logs with stack traces, a JSON-lines client log and a Kafka Connect log; some files ``.gz``;
   group ids, member ids, generations and timestamps vary;
2. *floor job*: ``spark.read.text`` of the same files, one ``regexp_extract`` of the timestamp,
   write Parquet - the least any Spark job reading these logs does;
3. *ingestion*: ``jobs.ingest.ingest`` and writing events + quarantine + audit to Parquet;

both in one ``local[2]`` session, in the same run. Reports lines/s and the time ratio
(target <= 2.0x the floor) to ``benchmarks/out/ingest.json`` and stdout. Also times the pure
single-process ``parse_bytes`` over the corpus (no Spark) for reference.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

GC = "kafka.coordinator.group.GroupCoordinator"

BROKER_NOISE = [
    "[Partition orders-{p} broker=1] Log loaded for partition orders-{p} with initial high watermark {n} (kafka.cluster.Partition)",
    "[ReplicaFetcherManager on broker 1] Removed fetcher for partitions Set(orders-{p}) (kafka.server.ReplicaFetcherManager)",
    "[LocalLog partition=orders-{p}, dir=/var/lib/kafka/data] Rolled new log segment at offset {n} in 3 ms. (kafka.log.LocalLog)",
    "[ProducerStateManager partition=orders-{p}] Wrote producer snapshot at offset {n} with 0 producer ids in 1 ms. (org.apache.kafka.storage.internals.log.ProducerStateManager)",
    "[Controller id=1] Processing automatic preferred replica leader election (kafka.controller.KafkaController)",
    "[UnifiedLog partition=orders-{p}, dir=/var/lib/kafka/data] Incremented log start offset to {n} due to leader offset increment (kafka.log.UnifiedLog)",
    "[SocketServer listenerType=ZK_BROKER, nodeId=1] Failed authentication with /10.0.0.{p} (channelId=10.0.0.1:9092-10.0.0.{p}:5{n}) (kafka.network.Processor)",
    "[BrokerToControllerChannelManager id=1 name=alterPartition] Client requested disconnect from node 2 (org.apache.kafka.clients.NetworkClient)",
    "[GroupMetadataManager brokerId=1] Removed 0 expired offsets in 1 milliseconds. (kafka.coordinator.group.GroupMetadataManager)",
]
BROKER_GROUP = [
    "[GroupCoordinator 1]: Preparing to rebalance group {g} in state PreparingRebalance with old generation {gen} (__consumer_offsets-{p}) (reason: Adding new member {m} with group instance id None; client reason: need to re-join with the given member-id: {m})",
    "[GroupCoordinator 1]: Stabilized group {g} generation {gen} (__consumer_offsets-{p}) with 3 members",
    "[GroupCoordinator 1]: Assignment received from leader {m} for group {g} for generation {gen}. The group has 3 members, 0 of which are static.",
    "[GroupCoordinator 1]: Dynamic member with unknown member id joins group {g} in Stable state. Created a new member id {m} and request the member to rejoin with this id.",
    "[GroupCoordinator 1]: Member {m} in group {g} has failed, removing it from the group",
    "[GroupCoordinator 1]: Preparing to rebalance group {g} in state PreparingRebalance with old generation {gen} (__consumer_offsets-{p}) (reason: removing member {m} on heartbeat expiration)",
    "[GroupCoordinator 1]: Group {g} with generation {gen} is now empty (__consumer_offsets-{p})",
    "[GroupCoordinator 1]: Preparing to rebalance group {g} with old generation {gen} (__consumer_offsets-{p})",
]
CLIENT_NOISE = [
    "o.a.k.clients.consumer.internals.Fetcher : [Consumer clientId=consumer-{g}-1, groupId={g}] Fetch position FetchPosition{{offset={n}, offsetEpoch=Optional.empty}} is out of range for partition orders-{p}, resetting offset",
    "c.e.orders.OrderListener                 : processed order {n} in {p} ms",
    "o.a.k.clients.NetworkClient              : [Consumer clientId=consumer-{g}-1, groupId={g}] Node -1 disconnected.",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Setting offset for partition orders-{p} to the committed offset FetchPosition{{offset={n}, offsetEpoch=Optional[0]}}",
    "c.e.orders.OrderRepository               : saved batch of {p} orders",
]
CLIENT_GROUP = [
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] (Re-)joining group",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Request joining group due to: need to re-join with the given member-id: {m}",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Successfully joined group with generation Generation{{generationId={gen}, memberId='{m}', protocol='range'}}",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Finished assignment for group at generation {gen}: {{{m}=Assignment(partitions=[orders-0, orders-1]), m-2=Assignment(partitions=[orders-2])}}",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Successfully synced group in generation Generation{{generationId={gen}, memberId='{m}', protocol='range'}}",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Notifying assignor about the new Assignment(partitions=[orders-{p}, orders-1])",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Adding newly assigned partitions: orders-{p}, orders-1",
    "o.a.k.c.c.internals.ConsumerCoordinator  : [Consumer clientId=consumer-{g}-1, groupId={g}] Discovered group coordinator kafka-1:9092 (id: 2147483646 rack: null)",
]
STACK = [
    "org.apache.kafka.common.errors.TimeoutException: Timeout of 60000ms expired before successfully committing offsets",
    "\tat org.apache.kafka.clients.consumer.internals.ConsumerCoordinator.commitOffsetsSync(ConsumerCoordinator.java:1163)",
    "\tat org.apache.kafka.clients.consumer.KafkaConsumer.commitSync(KafkaConsumer.java:1518)",
    "\tat com.example.orders.OrderListener.onMessage(OrderListener.java:42)",
    "\t... 12 common frames omitted",
]


def _ts_log4j(ms: int) -> str:
    t = time.gmtime(ms // 1000)
    return time.strftime("%Y-%m-%d %H:%M:%S", t) + f",{ms % 1000:03d}"


def _ts_iso(ms: int) -> str:
    t = time.gmtime(ms // 1000)
    return time.strftime("%Y-%m-%d %H:%M:%S", t) + f".{ms % 1000:03d}"


def _fill(rnd: random.Random, tpl: str) -> str:
    g = f"orders-{rnd.randrange(40)}"
    return tpl.format(
        g=g,
        m=f"consumer-{g}-1-{rnd.getrandbits(48):012x}",
        gen=rnd.randrange(1, 500),
        p=rnd.randrange(50),
        n=rnd.randrange(10**7),
    )


def _broker_lines(rnd: random.Random, n: int, t0: int):
    t = t0
    for _ in range(n):
        t += rnd.randrange(0, 40)
        if rnd.random() < 0.12:
            msg, lg = _fill(rnd, rnd.choice(BROKER_GROUP)), GC
            yield f"[{_ts_log4j(t)}] INFO {msg} ({lg})"
        else:
            yield f"[{_ts_log4j(t)}] INFO {_fill(rnd, rnd.choice(BROKER_NOISE))}"


def _client_lines(rnd: random.Random, n: int, t0: int):
    t = t0
    out = 0
    while out < n:
        t += rnd.randrange(0, 40)
        ts = _ts_iso(t)
        r = rnd.random()
        if r < 0.25:
            yield f"{ts}  INFO 4242 --- [ntainer#0-0-C-1] {_fill(rnd, rnd.choice(CLIENT_GROUP))}"
            out += 1
        elif r < 0.255 and out + 6 < n:
            yield f"{ts} ERROR 4242 --- [ntainer#0-0-C-1] c.e.orders.OrderListener                 : commit failed"
            yield from STACK
            out += 1 + len(STACK)
        else:
            yield f"{ts}  INFO 4242 --- [ntainer#0-0-C-1] {_fill(rnd, rnd.choice(CLIENT_NOISE))}"
            out += 1


def _json_lines(rnd: random.Random, n: int, t0: int):
    t = t0
    for _ in range(n):
        t += rnd.randrange(0, 40)
        tpl = rnd.choice(CLIENT_GROUP) if rnd.random() < 0.3 else rnd.choice(CLIENT_NOISE)
        logger, msg = (s.strip() for s in _fill(rnd, tpl).split(" : ", 1))
        msg = msg.replace("\\", "\\\\").replace('"', '\\"')
        yield (
            f'{{"@timestamp":"{_ts_iso(t).replace(" ", "T")}Z","level":"INFO","logger_name":"{logger}",'
            f'"thread_name":"main","message":"{msg}"}}'
        )


def build_corpus(lines: int, out_dir: str, seed: int = 7) -> list[str]:
    """Write the corpus (idempotent: reused when complete). Returns the file paths."""
    marker = os.path.join(out_dir, "_COMPLETE")
    plan = [  # (name, generator, share of lines, gzip)
        ("broker-1.log", _broker_lines, 0.22, False),
        ("broker-2.log", _broker_lines, 0.22, False),
        ("broker-3.log.gz", _broker_lines, 0.16, True),
        ("client-orders-a.log", _client_lines, 0.15, False),
        ("client-orders-b.log.gz", _client_lines, 0.10, True),
        ("client-json.log", _json_lines, 0.10, False),
        ("client-orders-c.log", _client_lines, 0.05, False),
    ]
    paths = [os.path.join(out_dir, name) for name, *_ in plan]
    if os.path.exists(marker):
        return paths
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    rnd = random.Random(seed)
    t0 = 1714557600000
    for (_name, gen, share, gz), path in zip(plan, paths):
        n = int(lines * share)
        data = ("\n".join(gen(rnd, n, t0)) + "\n").encode()
        if gz:
            with gzip.open(path, "wb", compresslevel=1) as fh:
                fh.write(data)
        else:
            with open(path, "wb") as fh:
                fh.write(data)
    with open(marker, "w") as fh:
        fh.write(str(lines))
    return paths


def ingest_tables(spark, paths: list[str], lake: str, run_id: str = "bench", fmt: str = "delta"):
    """The job's ingestion stage: parse once (staged), the staged event files adopted as the events
    partition, quarantine and audit written - the same calls as :func:`jobs.pipeline.run_job`.
    Returns the IngestResult and the seconds of each phase."""
    from jobs.ingest import IngestSettings, InputSpec, ingest
    from jobs.ingest.spark_ingest import audit_table
    from jobs.pipeline import write_run_files
    from jobs.sink import make_sink

    sink = make_sink(spark, lake, fmt, "delta-rs", run_id)
    phases: dict[str, float] = {}
    t = time.perf_counter()
    res = ingest(
        spark,
        [InputSpec(p, cluster="bench") for p in paths],
        IngestSettings(staging_dir=sink.staging("ingest"), group_buckets=-1),  # as the batch job asks
        run_id=run_id,
    )
    phases["parse_and_stage_s"] = time.perf_counter() - t
    t = time.perf_counter()
    write_run_files(sink, res, run_id)
    phases["events_quarantine_s"] = time.perf_counter() - t
    t = time.perf_counter()
    sink.write_partition_arrow("ingest_audit", audit_table(res.audit_rows, run_id), run_id)
    phases["audit_s"] = time.perf_counter() - t
    return res, phases


def _parse_args() -> argparse.Namespace:
    """The command line (``--help``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=5_000_000)
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus"))
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--skip-single", action="store_true", help="skip the single-process parse_bytes timing")
    return ap.parse_args()


def _warm_up(spark, work: str) -> None:
    """Start the JVM and the Python workers on a tiny file (not timed)."""
    from jobs.ingest import InputSpec, ingest

    warm = os.path.join(work, "warm.log")
    os.makedirs(work, exist_ok=True)
    with open(warm, "w") as fh:
        fh.write("\n".join(_broker_lines(random.Random(1), 200, 1714557600000)) + "\n")
    ingest(spark, [InputSpec(warm)]).events.count()
    spark.read.text(warm).count()


def _time_floor(spark, files: list[str], work: str) -> float:
    """Seconds of the floor job: read.text + one regexp_extract of the timestamp + Parquet."""
    from pyspark.sql import functions as F

    t = time.perf_counter()
    (
        spark.read.text(files)
        .select(
            F.regexp_extract("value", r"^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}[,.]\d{3})", 1).alias(
                "ts"
            ),
            "value",
        )
        .write.mode("overwrite")
        .parquet(os.path.join(work, "floor"))
    )
    return time.perf_counter() - t


def _time_ingest(spark, corpus_dir: str, work: str) -> tuple[float, dict[str, float], dict]:
    """Seconds of ingestion (events + quarantine + audit tables, as the job's ingestion stage), its
    phases and the summed audit counters."""
    from pyspark.sql import functions as F

    t = time.perf_counter()
    res, phases = ingest_tables(spark, [corpus_dir], os.path.join(work, "lake"))
    ingest_s = time.perf_counter() - t
    audit = (
        res.audit.agg(
            *[
                F.sum(c).alias(c)
                for c in ("total_lines", "events", "continuations", "unrelated", "quarantined")
            ]
        )
        .collect()[0]
        .asDict()
    )
    res.unpersist()
    return ingest_s, phases, audit


def _time_single_process(files: list[str]) -> float:
    """Seconds of ``parse_bytes`` over every file in this process (no Spark)."""
    from jobs.ingest.parse import parse_bytes

    t = time.perf_counter()
    for f in files:
        with open(f, "rb") as fh:
            parse_bytes(fh.read(), f)
    return time.perf_counter() - t


def _report(
    args: argparse.Namespace,
    files: list[str],
    total_bytes: int,
    build_s: float,
    floor_s: float,
    ingested: tuple[float, dict[str, float], dict],
    single_s: float | None,
) -> dict:
    """The ``ingest.json`` figures: lines/s, the ratio to the floor, phases and the line accounting."""
    ingest_s, phases, audit = ingested
    total = int(audit["total_lines"])
    return {
        "lines": total,
        "files": len(files),
        "bytes_on_disk": total_bytes,
        "master": args.master,
        "corpus_build_s": round(build_s, 2),
        "floor_s": round(floor_s, 2),
        "ingest_s": round(ingest_s, 2),
        "ingest_phases": {k: round(v, 2) for k, v in phases.items()},
        "ratio_ingest_over_floor": round(ingest_s / floor_s, 3),
        "target_ratio": 2.0,
        "floor_lines_per_s": round(total / floor_s),
        "ingest_lines_per_s": round(total / ingest_s),
        "single_process_parse_s": round(single_s, 2) if single_s else None,
        "single_process_lines_per_s": round(total / single_s) if single_s else None,
        "accounting": {k: int(v) for k, v in audit.items()},
        "accounting_reconciles": int(audit["total_lines"])
        == sum(int(audit[k]) for k in ("events", "continuations", "unrelated", "quarantined")),
    }


def main() -> None:
    args = _parse_args()
    corpus_dir = os.path.join(args.corpus, str(args.lines))
    t = time.perf_counter()
    files = build_corpus(args.lines, corpus_dir)
    build_s = time.perf_counter() - t
    total_bytes = sum(os.path.getsize(f) for f in files)

    from jobs.session import local_session

    work = os.path.join(args.out, "ingest_work")
    shutil.rmtree(work, ignore_errors=True)
    spark = local_session(master=args.master, app_name="bench-ingest", shuffle_partitions=4)
    spark.sparkContext.setLogLevel("ERROR")
    _warm_up(spark, work)
    floor_s = _time_floor(spark, files, work)
    ingested = _time_ingest(spark, corpus_dir, work)
    spark.stop()
    single_s = None if args.skip_single else _time_single_process(files)

    report = _report(args, files, total_bytes, build_s, floor_s, ingested, single_s)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "ingest.json"), "w") as fh:
        json.dump(report, fh, indent=2)
    print(json.dumps(report, indent=2))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    from jobs.process import run_main  # leaves without the Arrow thread-pool abort at exit

    run_main(main)
