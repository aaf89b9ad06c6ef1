"""Dialects of KafkaFlow (.NET, over confluent-kafka-dotnet): its log handler's ``<message> | Data: <JSON>``
lines (statements in ``jobs/ingest/catalogue/data/kafkaflow.yaml``). The data object holds the statement's
arguments as keys (``Partitions revoked | Data: {"GroupId":"g",…}``): read by ``{KEYS}`` (records.keys_tail).
The max-poll warning names no group and stays unmapped. Part of :data:`jobs.ingest.dialects.DIALECTS`, after
the other non-Java clients."""

from __future__ import annotations

from jobs.ingest.dialect_model import OT, Dialect
from jobs.ingest.dialect_model import dialect as _d

KAFKAFLOW: tuple[Dialect, ...] = (
    # its rebalance callbacks, the group in the data object's "GroupId"
    _d("kafkaflow.revoked", "partitions_revoked", OT, "kafkaflow 2.0+", r"Partitions revoked \| Data:{KEYS}",
       'Partitions revoked | Data: {"GroupId":"g","ConsumerName":"c","UpdatedTopics":[{"Topic":"t","PartitionsCount":2,"Partitions":[0,1]}]}'),
    _d("kafkaflow.assigned", "partitions_assigned", OT, "kafkaflow 2.0+", r"Partitions assigned \| Data:{KEYS}",
       'Partitions assigned | Data: {"GroupId":"g","ConsumerName":"c","UpdatedTopics":[{"Topic":"t","PartitionsCount":2,"Partitions":[0,1]}]}'),
    # recognised, no group fact (kind None): the paused consumer's heartbeat loop, a commit after leaving
    _d("kafkaflow.quiet", None, OT, "kafkaflow 2.0+",
       r"(?:Paused consumer heartbeat process wrongly read a message, please report this issue"
       r"|Error executing paused consumer background heartbeat|Failed to commit offset: consumer has left the group) \| Data: .*",
       "Error executing paused consumer background heartbeat | Data: null"),
)  # fmt: skip
