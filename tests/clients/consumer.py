"""One consumer process of a recorded scenario: ``python -m tests.clients.consumer SPEC_JSON``.

It subscribes with one client library (confluent-kafka / kafka-python / aiokafka), polls, and obeys
commands on stdin (``stall <seconds>``: stop polling that long; ``unsubscribe`` (confluent-kafka):
leave the group and go on polling; ``close``: close the consumer cleanly and exit). Its log goes to stderr exactly as the library writes it by default (librdkafka's own
``%7|epoch|FAC|rdkafka#consumer-1| ...`` lines, or Python logging with the format of the spec); the
TRUTH goes to the spec's ``truth`` file, one JSON object a line, flushed at once (a SIGKILL loses
nothing written): every rebalance callback (``assigned`` / ``revoked`` / ``lost``) with its epoch-ms
time, partitions, and the member id and generation where the library exposes them.
"""

from __future__ import annotations

import json
import logging
import queue
import sys
import threading
import time
from typing import Any

PY_FORMAT = "%(asctime)s - %(name)s - %(levelname)s - %(message)s"


class Truth:
    def __init__(self, path: str, who: str) -> None:
        self.fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the process's life
        self.who = who

    def write(self, what: str, **kw: Any) -> None:
        row = {"t": int(time.time() * 1000), "who": self.who, "what": what, **kw}
        self.fh.write(json.dumps(row, sort_keys=True) + "\n")
        self.fh.flush()


def _commands() -> queue.Queue[str]:
    q: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            q.put(line.strip())
        q.put("close")  # the recorder went away

    threading.Thread(target=read, daemon=True).start()
    return q


def _parts(tps: Any) -> list[str]:
    out = []
    for tp in tps:
        out.append(f"{tp.topic}-{tp.partition}")
    return sorted(out)


LEADER_DELAY_S = 0.05


def _patient_range(base: Any) -> Any:
    """The library's range assignor, taking LEADER_DELAY_S first: the mock cluster answers SyncGroup as
    soon as the leader's assignment covers every member and refuses (INVALID_REQUEST) a follower's
    SyncGroup that arrives after the leader's; a real broker waits for both."""

    class PatientRange(base):
        @classmethod
        def assign(cls, *args: Any, **kw: Any) -> Any:
            time.sleep(LEADER_DELAY_S)
            return super().assign(*args, **kw)

    return PatientRange


def _python_logging(spec: dict[str, Any]) -> None:
    logging.basicConfig(stream=sys.stderr, format=spec.get("format", PY_FORMAT), level=logging.WARNING)
    for name in spec.get("loggers", ()):
        logging.getLogger(name).setLevel(spec.get("level", "INFO"))


# ---------------------------------------------------------------------------------------- librdkafka
def run_confluent(spec: dict[str, Any], truth: Truth, cmds: queue.Queue[str]) -> None:
    from confluent_kafka import Consumer

    conf = {
        "bootstrap.servers": spec["bootstrap"],
        "group.id": spec["group"],
        "auto.offset.reset": "earliest",
        **spec.get("config", {}),
    }
    if spec.get("python_logger"):
        _python_logging({**spec, "loggers": ["rdkafka"], "level": "DEBUG"})
        conf["logger"] = logging.getLogger("rdkafka")
    c = Consumer(conf)

    def member() -> str | None:
        try:
            return c.memberid()
        except Exception:  # noqa: BLE001 - not yet a member
            return None

    def on_assign(cons: Any, tps: Any) -> None:
        truth.write("assigned", partitions=_parts(tps), member_id=member())
        if spec.get("config", {}).get("partition.assignment.strategy") == "cooperative-sticky":
            cons.incremental_assign(tps)

    def on_revoke(cons: Any, tps: Any) -> None:
        truth.write("revoked", partitions=_parts(tps), member_id=member())
        if spec.get("config", {}).get("partition.assignment.strategy") == "cooperative-sticky":
            cons.incremental_unassign(tps)

    def on_lost(cons: Any, tps: Any) -> None:
        truth.write("lost", partitions=_parts(tps), member_id=member())

    c.subscribe([spec["topic"]], on_assign=on_assign, on_revoke=on_revoke, on_lost=on_lost)
    truth.write("started")
    while True:
        c.poll(0.1)
        try:
            cmd = cmds.get_nowait()
        except queue.Empty:
            continue
        if cmd.startswith("stall"):
            truth.write("stall", seconds=float(cmd.split()[1]), member_id=member())
            time.sleep(float(cmd.split()[1]))
            truth.write("resumed", member_id=member())
        elif cmd == "unsubscribe":
            mid = member()
            c.unsubscribe()
            truth.write("unsubscribed", member_id=mid)
        elif cmd == "close":
            mid = member()
            c.close()
            truth.write("closed", member_id=mid)
            return


# -------------------------------------------------------------------------------------- kafka-python
def run_kafka_python(spec: dict[str, Any], truth: Truth, cmds: queue.Queue[str]) -> None:
    _python_logging({**spec, "loggers": ["kafka"]})
    from kafka import KafkaConsumer
    from kafka.consumer.subscription_state import ConsumerRebalanceListener
    from kafka.coordinator.assignors.range import RangePartitionAssignor

    c = KafkaConsumer(
        bootstrap_servers=spec["bootstrap"], group_id=spec["group"], auto_offset_reset="earliest",
        api_version=(2, 3), partition_assignment_strategy=[_patient_range(RangePartitionAssignor)],
        **spec.get("config", {}),
    )  # fmt: skip

    def gen() -> dict[str, Any]:
        g = c._coordinator._generation  # noqa: SLF001 - the generation is not public
        return {"generation": g.generation_id, "member_id": g.member_id or None}

    class Listener(ConsumerRebalanceListener):
        def on_partitions_revoked(self, revoked: Any) -> None:
            truth.write("revoked", partitions=_parts(revoked), **gen())

        def on_partitions_assigned(self, assigned: Any) -> None:
            truth.write("assigned", partitions=_parts(assigned), **gen())

        def on_partitions_lost(self, lost: Any) -> None:
            truth.write("lost", partitions=_parts(lost), **gen())

    c.subscribe([spec["topic"]], listener=Listener())
    truth.write("started")
    while True:
        c.poll(timeout_ms=100)
        try:
            cmd = cmds.get_nowait()
        except queue.Empty:
            continue
        if cmd.startswith("stall"):
            truth.write("stall", seconds=float(cmd.split()[1]), **gen())
            time.sleep(float(cmd.split()[1]))
            truth.write("resumed", **gen())
        elif cmd == "close":
            g = gen()
            c.close()
            truth.write("closed", **g)
            return


# ------------------------------------------------------------------------------------------ aiokafka
def run_aiokafka(spec: dict[str, Any], truth: Truth, cmds: queue.Queue[str]) -> None:
    import asyncio

    _python_logging({**spec, "loggers": ["aiokafka"]})
    from aiokafka import AIOKafkaConsumer
    from aiokafka.abc import ConsumerRebalanceListener

    try:
        from aiokafka.coordinator.assignors.range import RangePartitionAssignor
    except ImportError:  # aiokafka before 0.9 uses kafka-python's assignors
        from kafka.coordinator.assignors.range import RangePartitionAssignor

    async def main() -> None:
        c = AIOKafkaConsumer(
            bootstrap_servers=spec["bootstrap"], group_id=spec["group"], auto_offset_reset="earliest",
            partition_assignment_strategy=[_patient_range(RangePartitionAssignor)], **spec.get("config", {}),
        )  # fmt: skip

        def gen() -> dict[str, Any]:
            co = c._coordinator  # noqa: SLF001 - the generation is not public
            return {"generation": getattr(co, "generation", None), "member_id": getattr(co, "member_id", None) or None}

        class Listener(ConsumerRebalanceListener):
            async def on_partitions_revoked(self, revoked: Any) -> None:
                truth.write("revoked", partitions=_parts(revoked), **gen())

            async def on_partitions_assigned(self, assigned: Any) -> None:
                truth.write("assigned", partitions=_parts(assigned), **gen())

        c.subscribe([spec["topic"]], listener=Listener())
        await c.start()
        truth.write("started")
        while True:
            await c.getmany(timeout_ms=100)
            try:
                cmd = cmds.get_nowait()
            except queue.Empty:
                continue
            if cmd.startswith("stall"):
                truth.write("stall", seconds=float(cmd.split()[1]), **gen())
                await asyncio.sleep(float(cmd.split()[1]))  # the application does not poll
                truth.write("resumed", **gen())
            elif cmd == "close":
                g = gen()
                await c.stop()
                truth.write("closed", **g)
                return

    asyncio.run(main())


RUNNERS = {
    "librdkafka": run_confluent, "kafka-python": run_kafka_python, "aiokafka": run_aiokafka,
    # the release lines most deployments run, each with its own virtualenv (tests/clients/toolchains.py)
    "kafka-python-2.0": run_kafka_python, "aiokafka-0.8": run_aiokafka, "librdkafka-2.0": run_confluent,
}  # fmt: skip


def main(argv: list[str]) -> None:
    spec = json.loads(argv[0])
    truth = Truth(spec["truth"], spec["who"])
    RUNNERS[spec["library"]](spec, truth, _commands())


if __name__ == "__main__":
    main(sys.argv[1:])
