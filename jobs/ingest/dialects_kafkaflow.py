"""Dialects of KafkaFlow (.NET, over confluent-kafka-dotnet): its log handler's ``<message> | Data: <JSON>``
lines (statements in ``jobs/ingest/catalogue/data/kafkaflow.yaml``). Only the lines that carry no group fact
are read here: its rebalance callbacks (``Partitions revoked | Data: {"GroupId":"g",…}``) and the max-poll
warning stay unmapped while a line ending in a JSON object is taken for a CSV-and-JSON record by the layout
reader. Part of :data:`jobs.ingest.dialects.DIALECTS`, after the other non-Java clients."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d

KAFKAFLOW: tuple[Dialect, ...] = (
    # recognised, no group fact (kind None): the paused consumer's heartbeat loop, a commit after leaving
    _d("kafkaflow.quiet", None, OT, "kafkaflow 2.0+",
       r"(?:Paused consumer heartbeat process wrongly read a message, please report this issue"
       r"|Error executing paused consumer background heartbeat|Failed to commit offset: consumer has left the group) \| Data: .*",
       "Error executing paused consumer background heartbeat | Data: null"),
)  # fmt: skip
