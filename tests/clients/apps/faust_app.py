"""A faust worker of a recorded scenario: ``python -m tests.clients.apps.faust_app SPEC_JSON``.

An agent over the topic and a table (so faust's table recovery runs), started as faust's own
``Worker`` at the spec's log level: its log is the worker's default logging (faust's and aiokafka's
lines, ``[ts] [pid] [LEVEL] message``) on stderr. The truth is faust's own rebalance signals
``on_partitions_assigned`` / ``on_partitions_revoked``, with the generation and member id of the
underlying aiokafka coordinator. ``close`` on stdin stops the worker as SIGTERM does.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from typing import Any

from tests.clients.consumer import LEADER_DELAY_S, Truth


def _parts(tps: Any) -> list[str]:
    return sorted(f"{tp.topic}-{tp.partition}" for tp in tps)


def _patient_assignor() -> type:
    """faust's partition assignor taking LEADER_DELAY_S first (the mock cluster's SyncGroup race, see
    tests/clients/consumer.py: a follower whose SyncGroup arrives after the leader's is refused, and
    faust's worker crashes on that error)."""
    from faust.assignor import PartitionAssignor

    class PatientAssignor(PartitionAssignor):
        def assign(self, *args: Any, **kw: Any) -> Any:
            time.sleep(LEADER_DELAY_S)
            return super().assign(*args, **kw)

    return PatientAssignor


def main(argv: list[str]) -> None:
    import faust

    spec = json.loads(argv[0])
    conf = spec.get("config", {})
    truth = Truth(spec["truth"], spec["who"])
    app = faust.App(
        spec["group"], broker=f"kafka://{spec['bootstrap']}", store="memory://", web_enabled=False,
        topic_partitions=4, topic_replication_factor=1, consumer_auto_offset_reset="earliest",
        # the mock cluster names no controller to send CreateTopics to: the recorder creates faust's
        # internal topics (record.EXTRA_TOPICS) and faust does not declare them
        topic_allow_declare=False, PartitionAssignor=_patient_assignor(),
        broker_session_timeout=conf.get("session_timeout_ms", 3000) / 1000,
        broker_heartbeat_interval=conf.get("heartbeat_interval_ms", 500) / 1000,
    )  # fmt: skip
    topic = app.topic(spec["topic"], value_serializer="raw")
    counts = app.Table("counts", default=int, partitions=4)

    @app.agent(topic)
    async def process(stream: Any) -> None:
        async for value in stream:
            counts[value] += 1

    def coordinator() -> dict[str, Any]:
        try:
            co = app.consumer._thread._ensure_consumer()._coordinator  # noqa: SLF001 - not public
            return {"generation": co.generation, "member_id": co.member_id or None}
        except Exception:  # noqa: BLE001 - before the consumer exists
            return {"generation": None, "member_id": None}

    state = {"member": None}

    @app.on_partitions_revoked.connect
    async def on_revoked(sender: Any, revoked: Any, **kw: Any) -> None:
        truth.write("revoked", partitions=_parts(revoked), **coordinator())

    @app.on_partitions_assigned.connect
    async def on_assigned(sender: Any, assigned: Any, **kw: Any) -> None:
        c = coordinator()
        state["member"] = c["member_id"]
        truth.write("assigned", partitions=_parts(assigned), **c)

    def commands() -> None:
        for line in sys.stdin:
            if line.strip() == "close":
                break
        truth.write("closing", member_id=state["member"])
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=commands, daemon=True).start()
    truth.write("started")
    worker = faust.Worker(app, loglevel=spec.get("level", "INFO"), quiet=True)
    try:
        worker.execute_from_commandline()
    finally:
        truth.write("closed", member_id=state["member"])


if __name__ == "__main__":
    main(sys.argv[1:])
