"""Dialects of the JVM frameworks around the Java consumer: Spring Cloud Stream's Kafka binder (:data:`SCS`)
and SmallRye Reactive Messaging's Kafka connector (Quarkus), whose JBoss Logging messages carry a code (``SRMSG18224: …``; statements in
``jobs/ingest/catalogue/data/smallrye-kafka.yaml``). The embedded Java consumer's own lines are read by the
Java client's dialects; these add the connector's view (its rebalance listener, its start), as ``other``
events of the group they name. Part of :data:`jobs.ingest.dialects.DIALECTS`, after the other non-Java
clients. The codes are unique, so no logger condition is needed."""

from __future__ import annotations

from jobs.ingest.dialect_model import C, Dialect
from jobs.ingest.dialect_model import dialect as _d

#: Quarkus' default console format (``%d %-5p [%c{3.}] (%t) %s``) leaves ``[io.sma.rea.mes.kafka] (thread) `` in
#: front of the message under the generic layout, and a layout that takes the word after the thread for the
#: logger leaves the message without its code: both are accepted
_AT = r"(?:\[[\w.$]+\] \([^)]*\) )?"

JVM: tuple[Dialect, ...] = (
    # ------------------------------------------------------------------ SmallRye Reactive Messaging Kafka 2.1+
    # SRMSG18223 / 18224 are logged in the connector's ConsumerRebalanceListener.onPartitionsAssigned / Revoked,
    # before the application's listener: evidence of the assignment / revocation (no partitions printed)
    _d("smallrye.listener_assigned", "partitions_assigned", C, "smallrye 2.1+",
       _AT + r"(?P<reason>(?:SRMSG18223: )?Executing consumer assigned re-balance listener) for group '(?P<group_id>[^']+)'",
       "SRMSG18223: Executing consumer assigned re-balance listener for group 'g'"),
    _d("smallrye.listener_revoked", "partitions_revoked", C, "smallrye 2.1+",
       _AT + r"(?P<reason>(?:SRMSG18224: )?Executing consumer revoked re-balance listener) for group '(?P<group_id>[^']+)'",
       "SRMSG18224: Executing consumer revoked re-balance listener for group 'g'"),
    _d("smallrye.rebalance_listener", "other", C, "smallrye 2.1+",
       _AT + r"(?P<reason>(?:SRMSG182(?:2[1-6]): )?(?:Unable to execute|Executing|Executed) consumer (?:assigned|revoked) re-balance listener)"
       r" for group '(?P<group_id>[^']+)'(?:\. .*)?",
       "SRMSG18226: Executed consumer revoked re-balance listener for group 'g'"),
    _d("smallrye.reenabling", "other", C, "smallrye 2.1+",
       _AT + r"(?P<reason>(?:SRMSG18227: )?Re-enabling consumer) for group '(?P<group_id>[^']+)'\. .*",
       "SRMSG18227: Re-enabling consumer for group 'g'. This consumer was paused because of a re-balance failure."),
    _d("smallrye.consumer_started", "other", C, "smallrye 3.10+",
       _AT + r"(?:(?P<reason>SRMSG18257): )?Kafka consumer (?P<client_id>[^\s,]+), connected to Kafka brokers '[^']*', belongs to the"
       r" '(?P<group_id>[^']+)' consumer group and is configured to poll records from .*",
       "SRMSG18257: Kafka consumer kafka-consumer-prices, connected to Kafka brokers 'localhost:9092', belongs to the 'g' "
       "consumer group and is configured to poll records from [prices]"),
    _d("smallrye.random_group", "other", C, "smallrye 2.1+",
       _AT + r"(?:(?P<reason>SRMSG18216): )?No `group\.id` set in the configuration, generate a random id: (?P<group_id>\S+)",
       "SRMSG18216: No `group.id` set in the configuration, generate a random id: 3f0c9a6e-1b2d-4c5e-8f7a-9b0c1d2e3f4a"),
    # recognised, no group fact (kind None): commit strategies, acknowledgements, state stores, share groups
    _d("smallrye.quiet", None, C, "smallrye 2.1+",
       _AT + r"SRMSG18(?:219|220|232|235|236|239|242|243|253|254|267|268|269|281|28[6-9]|29[01]): .*",
       "SRMSG18232: Will commit for group 'g' every 5000 milliseconds."),
)  # fmt: skip

#: Spring Cloud Stream's Kafka binder (``o.s.c.s.b.k.KafkaMessageChannelBinder``; statements in
#: ``jobs/ingest/catalogue/data/spring-cloud-stream-kafka.yaml``): its rebalance listener's lines name no group
#: (the group comes from the file's context); no other catalogued program writes them, and any program that
#: does speaks of a rebalance, so they are read under any logger
SCS: tuple[Dialect, ...] = (
    _d("scs.partitions_revoked", "partitions_revoked", C, "spring-cloud-stream 2.1+",
       r"Partitions revoked: (?P<partitions_raw>\[[^\]]*\])", "Partitions revoked: [orders-0, orders-1]"),
    _d("scs.partitions_assigned", "partitions_assigned", C, "spring-cloud-stream 2.1+",
       r"Partitions assigned: (?P<partitions_raw>\[[^\]]*\])", "Partitions assigned: [orders-0, orders-1]"),
    _d("scs.group_id_ignored", None, C, "spring-cloud-stream 2.2+",
       r"Ignoring provided value\(s\) for 'group\.id'\. Use spring\.cloud\.stream\.default\.group or .*",
       "Ignoring provided value(s) for 'group.id'. Use spring.cloud.stream.default.group or spring.cloud.stream.binding.<name>.group "
       "to specify the group instead of group.id"),
)  # fmt: skip

#: Alpakka Kafka (``akka.kafka.internal.*``; statements in ``jobs/ingest/catalogue/data/alpakka-kafka.yaml``):
#: a source's partition assignment handler (``Assigned partitions: Set(…). All partitions: Set(…)``, a
#: sub-source's ``#3 Assigning new partitions: t-0,t-1``), naming no group (it comes from the file's
#: context; a bare line's leading ``#`` is taken for a comment mark); the consumer actor's lines that
#: mention offsets or assignment without a group fact
ALPAKKA: tuple[Dialect, ...] = (
    _d("alpakka.partitions_assigned", "partitions_assigned", C, "alpakka-kafka 1.0+",
       r"(?:Assigned partitions: .*\. All partitions: .*|(?:#?\d+ )?Assigning new partitions: .*)",
       "Assigned partitions: Set(orders-0, orders-1). All partitions: Set(orders-0, orders-1)"),
    _d("alpakka.partitions_revoked", "partitions_revoked", C, "alpakka-kafka 1.0+",
       r"(?:Revoked partitions: .*\. All partitions: .*|(?:#?\d+ )?Closing SubSources for revoked partitions: .*)",
       "Revoked partitions: Set(orders-1). All partitions: Set(orders-0)"),
    _d("alpakka.quiet", None, C, "alpakka-kafka 1.0+",
       r"(?:Refreshing committed offsets: .*|Partition assignment handler `[^`]*` took longer than `partition-handler-warning`: .*)",
       "Refreshing committed offsets: Map(orders-0 -> 42)"),
)  # fmt: skip
