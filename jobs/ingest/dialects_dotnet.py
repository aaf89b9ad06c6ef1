"""Dialects of the .NET clients: Streamiz (``LGouellec/kafka-streams-dotnet``, the .NET port of Kafka
Streams). Its statements are in ``jobs/ingest/catalogue/data/streamiz.yaml``; confluent-kafka-dotnet logs
nothing about groups itself (its default logger writes librdkafka's lines, which librdkafka's dialects
read). Part of :data:`jobs.ingest.dialects.DIALECTS`, after the other non-Java clients.

Streamiz writes its prefixes without the space Kafka Streams puts before the bracket:
``stream-thread[T] `` (a stream thread) and ``stream-application[A] `` (the streams client, named by its
``application.id``, which is the consumer group id). A thread's default name is
``<application.id lowercased>-<process UUID>-stream-thread-N`` (1.3+; before, without the UUID): the group
is read from it only with the UUID, as a custom ``client.id`` takes the application id's place."""

from __future__ import annotations

from jobs.ingest.dialect_model import C, Dialect
from jobs.ingest.dialect_model import dialect as _d

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
#: ``stream-thread[T] ``: the thread name as ``client_id``; the group when the name has the process UUID
THREAD = r"stream-thread\[(?P<client_id>(?:(?P<group_id>[^\]\s]+?)-" + _UUID + r"-)?[^\]\s]*)\] "
#: ``stream-application[A] ``: the application id, the group
APPLICATION = r"stream-application\[(?P<group_id>[^\]\s]+)\] "
_T = "stream-thread[app-4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a-stream-thread-0] "

DOTNET: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ Streamiz 0.1+
    _d("streamiz.thread_state", "streams_state_changed", C, "streamiz 0.1+",
       THREAD + r"State transition from (?P<from_state>[A-Z_]+) to (?P<state>[A-Z_]+)",
       _T + "State transition from RUNNING to PARTITIONS_REVOKED", fixed={"reason": "stream-thread"}),
    _d("streamiz.client_state", "streams_state_changed", C, "streamiz 0.1+",
       APPLICATION + r"State transition from (?P<from_state>[A-Z_]+) to (?P<state>[A-Z_]+)",
       "stream-application[app] State transition from RUNNING to REBALANCING", fixed={"reason": "stream-client"}),
    # recognised, no group fact (kind None): task migration and the rebalance callbacks' timings (the thread's
    # state transitions and librdkafka's lines carry the facts)
    _d("streamiz.quiet", None, C, "streamiz 0.1+",
       r"(?:" + THREAD + r")?(?:Stream task \S+ is already closed, probably because it got unexpectedly migrated to another thread already\..*"
       r"|Unable to commit as we are in the middle of a rebalance, will try again when it completes\.?"
       r"|Unable to locate active task for received-record partition .*"
       r"|Detected that the thread (?:is being fenced|throw an inner exception)\. .*"
       r"|Encountered the following unexpected Kafka exception during assignment partitions .*"
       r"|Partitions lost took \S+ ms|New partitions assign requested : .*"
       r"|Failed to punctuate stream task \S+ since it got migrated to another thread already\. .*)",
       "Partitions lost took 00:00:00.0123450 ms"),
)  # fmt: skip
