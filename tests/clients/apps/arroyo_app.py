"""A Sentry arroyo consumer of a recorded scenario: ``python -m tests.clients.apps.arroyo_app SPEC_JSON``.

arroyo's ``StreamProcessor`` over its confluent-kafka ``KafkaConsumer`` with a strategy that does
nothing with the messages. Its log is Python logging at INFO (arroyo's own lines: ``New partitions
assigned``, ``Partitions to revoke`` ..., and librdkafka's warnings on stderr) in the format of
tests/clients/consumer.py. The truth is arroyo's own rebalance points: the strategy factory's
``create_with_partitions`` (assigned) and the strategy's ``close`` (revoked), with the consumer's member
id. ``close`` on stdin signals the processor's shutdown.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from typing import Any

from tests.clients.consumer import PY_FORMAT, Truth


def main(argv: list[str]) -> None:
    from arroyo.backends.kafka import KafkaConsumer
    from arroyo.backends.kafka.configuration import build_kafka_consumer_configuration
    from arroyo.processing import StreamProcessor
    from arroyo.processing.strategies import ProcessingStrategy, ProcessingStrategyFactory
    from arroyo.types import Topic

    spec = json.loads(argv[0])
    truth = Truth(spec["truth"], spec["who"])
    logging.basicConfig(stream=sys.stderr, format=PY_FORMAT, level=spec.get("level", "INFO"))
    consumer = KafkaConsumer(build_kafka_consumer_configuration(
        {"bootstrap.servers": spec["bootstrap"]}, group_id=spec["group"], auto_offset_reset="earliest",
        override_params=spec.get("config", {}),
    ))  # fmt: skip

    state: dict[str, str | None] = {"member": None}

    def member() -> str | None:
        """The member id, read in the rebalance callbacks (they run on the polling thread: another
        thread that asks the consumer waits for its poll)."""
        return state["member"]

    class Drop(ProcessingStrategy[Any]):
        def __init__(self, partitions: list[str]) -> None:
            self.partitions = partitions

        def submit(self, message: Any) -> None:
            pass

        def poll(self) -> None:
            pass

        def join(self, timeout: float | None = None) -> None:
            pass

        def close(self) -> None:
            state["member"] = consumer.member_id or state["member"]
            truth.write("revoked", partitions=self.partitions, member_id=member())

        def terminate(self) -> None:
            pass

    class Factory(ProcessingStrategyFactory[Any]):
        def create_with_partitions(self, commit: Any, partitions: Any) -> ProcessingStrategy[Any]:
            parts = sorted(f"{p.topic.name}-{p.index}" for p in partitions)
            state["member"] = consumer.member_id or None
            truth.write("assigned", partitions=parts, member_id=member())
            return Drop(parts)

    processor = StreamProcessor(consumer, Topic(spec["topic"]), Factory())

    def commands() -> None:
        for line in sys.stdin:
            if line.strip() == "close":
                break
        truth.write("closing", member_id=member())
        processor.signal_shutdown()

    threading.Thread(target=commands, daemon=True).start()
    truth.write("started")
    try:
        processor.run()
    finally:
        truth.write("closed", member_id=member())


if __name__ == "__main__":
    main(sys.argv[1:])
