"""What the Kafka miner reads: per catalogue source, the tags, the classes (files) and how the program
wraps each class's messages (logger, context prefix), and how an argument expression is named in a
draft template."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TRUNK = "1eb7644349cb07139d6a3c1ad1986979647cac99"  # apache/kafka trunk, 2024-10-25 (the mirror's head)

#: Kafka 4.x release tags as commits of apache/kafka's release branches (a mirror that merges those
#: branches has them, e.g. a fork that keeps apache's history): 4.1.0 and 4.2.0 are the "Bump version to
#: 4.x.0" commits that were tagged (Kafka's ``commitId`` 13f70256db3c994c, a18251bae0b825c6); the 4.0.0
#: release commit (985bc99521dd22bb) is not on the branch, so its parent is read, the same sources but
#: for the version number in gradle.properties.
TAG_COMMITS = {
    "4.0.0": "4ae681446f18f9a6d7a59f317013ef82379a4ba4",
    "4.1.0": "13f70256db3c994c590e5d262a7cc50b9e973204",
    "4.2.0": "a18251bae0b825c69794a50dffd4c3100cf5ca5b",
}

_OLD = ["0.10.0.0", "0.10.1.0", "0.10.2.0", "0.11.0.0", "1.0.0", "1.1.0"]
_MINORS = [f"2.{i}.0" for i in range(9)] + [f"3.{i}.0" for i in range(9)] + ["3.9.0-rc3"]
_4X = list(TAG_COMMITS)
#: the Scala coordinator is gone in 4.0
SCALA_TAGS = _OLD + _MINORS + ["trunk-2024-10"]
ALL_TAGS = SCALA_TAGS + _4X
NEW_TAGS = ["3.7.0", "3.8.0", "3.9.0-rc3", "trunk-2024-10"] + _4X

BROKER_PFX = "[GroupCoordinator {coordinator}]: {body}"
JAVA_PFX = "[GroupCoordinator id={coordinator} topic=__consumer_offsets partition={offsets_partition}] {body}"
CLIENT_PFX = "[Consumer clientId={client_id}, groupId={group_id}] {body}"
WORKER_PFX = "[Worker clientId={client_id}, groupId={group_id}] {body}"
THREAD_PFX = "stream-thread [{client_id}] {body}"
ASSIGNOR_PFX = "stream-thread [{_assignor_client}] {body}"
CLIENT_STREAMS_PFX = "stream-client [{_streams_client}] {body}"


#: a stream thread's name with the default client id (``<application.id>-<process UUID>``)
STREAM_THREAD = "orders-g7-4e0c2b1a-7d6f-4c3e-9b8a-1f2e3d4c5b6a-StreamThread-1"


def ref_of(tag: str) -> str:
    return TRUNK if tag.startswith("trunk") else TAG_COMMITS.get(tag, tag)


@dataclass(frozen=True)
class ClassSpec:
    """One class of a source: the file name it has, how its lines are wrapped, an optional filter."""

    name: str  # the file's base name without extension
    logger: str
    context: str = ""
    #: only statements whose wording matches (KafkaConsumer: the lines about the group)
    only: str | None = None
    #: the first tag with ``context``; a statement last seen before it gets ``before`` instead
    since: str = ""
    before: str = ""
    exclude_dirs: tuple[str, ...] = ("/test/", "trogdor/", "/tasks/")


@dataclass(frozen=True)
class SourceSpec:
    name: str
    language: str  # java-slf4j or scala
    tags: tuple[str, ...]
    classes: tuple[ClassSpec, ...]
    header: dict = field(default_factory=dict)
    repo: str = "apache/kafka"
    #: how a log call looks (:func:`java_source.log_calls`): ``java`` (``log.info(…)``) or ``scala`` (``info(…)``);
    #: default: by the files' language (Akka's ``log.debug(…)`` in Scala files is ``java``)
    calls: str = ""


_GC = "kafka.coordinator.group."
_JG = "org.apache.kafka.coordinator.group."
_CI = "org.apache.kafka.clients.consumer.internals."
_ST = "org.apache.kafka.streams.processor.internals."
_CD = "org.apache.kafka.connect.runtime.distributed."
_ABOUT_GROUP = r"(?i)group|rebalanc|assign|revok|subscri|coordinator|generation|heartbeat|member|commit"
#: OffsetMetadataManager: the lines about a group's membership (not offsets alone)
_MEMBERSHIP = r"(?i)member|simple consumer group"
_SPRING_GROUP = r"(?i)group|rebalanc|assign|revok|partitions? lost|fenc|member|Consumer stopped"

SOURCES: tuple[SourceSpec, ...] = (
    SourceSpec(
        "kafka-broker-scala", "scala", tuple(SCALA_TAGS),
        (
            ClassSpec("GroupCoordinator", _GC + "GroupCoordinator", BROKER_PFX),
            ClassSpec("GroupMetadataManager", _GC + "GroupMetadataManager", "[GroupMetadataManager brokerId={coordinator}] {body}",
                      since="1.0.0", before="[Group Metadata Manager on Broker {coordinator}]: {body}"),
            ClassSpec("GroupMetadata", _GC + "GroupMetadata"),
            ClassSpec("MemberMetadata", _GC + "MemberMetadata"),
            ClassSpec("DelayedJoin", _GC + "DelayedJoin"),
            ClassSpec("DelayedHeartbeat", _GC + "DelayedHeartbeat"),
        ),
        {"comment": "The Scala group coordinator (kafka.coordinator.group, kafka.coordinator before 0.11).", "expect": {"side": "broker"}},
    ),
    SourceSpec(
        "kafka-broker-java", "java-slf4j", tuple(NEW_TAGS),
        (
            ClassSpec("GroupMetadataManager", _JG + "GroupMetadataManager", JAVA_PFX),
            ClassSpec("ClassicGroup", _JG + "classic.ClassicGroup", JAVA_PFX),
            ClassSpec("ConsumerGroup", _JG + "modern.consumer.ConsumerGroup", JAVA_PFX),
            ClassSpec("ConsumerGroupMember", _JG + "modern.consumer.ConsumerGroupMember", JAVA_PFX),
            ClassSpec("StreamsGroup", _JG + "streams.StreamsGroup", JAVA_PFX),
            ClassSpec("OffsetMetadataManager", _JG + "OffsetMetadataManager", JAVA_PFX, only=_MEMBERSHIP),
            ClassSpec("GroupCoordinatorShard", _JG + "GroupCoordinatorShard", JAVA_PFX),
            ClassSpec("GroupCoordinatorService", _JG + "GroupCoordinatorService", "[GroupCoordinator id={coordinator}] {body}"),
            ClassSpec("CoordinatorRuntime", "org.apache.kafka.coordinator.common.runtime.CoordinatorRuntime",
                      "[GroupCoordinator id={coordinator}] {body}", only=r"(?i)group"),
        ),
        {"comment": "The Java group coordinator (group-coordinator module, KIP-848), 3.7+.", "expect": {"side": "broker"}},
    ),
    SourceSpec(
        "kafka-consumer-classic", "java-slf4j", tuple(ALL_TAGS),
        (
            ClassSpec("AbstractCoordinator", _CI + "AbstractCoordinator", CLIENT_PFX, since="1.0.0"),
            ClassSpec("ConsumerCoordinator", _CI + "ConsumerCoordinator", CLIENT_PFX, since="1.0.0"),
            ClassSpec("ConsumerRebalanceListenerInvoker", _CI + "ConsumerRebalanceListenerInvoker", CLIENT_PFX, since="1.0.0"),
            ClassSpec("KafkaConsumer", "org.apache.kafka.clients.consumer.KafkaConsumer", CLIENT_PFX, only=_ABOUT_GROUP, since="1.0.0"),
            ClassSpec("LegacyKafkaConsumer", _CI + "LegacyKafkaConsumer", CLIENT_PFX, only=_ABOUT_GROUP, since="1.0.0"),
            ClassSpec("ClassicKafkaConsumer", _CI + "ClassicKafkaConsumer", CLIENT_PFX, only=_ABOUT_GROUP, since="1.0.0"),
        ),
        {"comment": "The classic Java consumer's group membership (AbstractCoordinator, ConsumerCoordinator).", "expect": {"side": "client"}},
    ),
    SourceSpec(
        "kafka-consumer-async", "java-slf4j", tuple(NEW_TAGS),
        (
            ClassSpec("MembershipManagerImpl", _CI + "MembershipManagerImpl", CLIENT_PFX, since="1.0.0"),
            ClassSpec("AbstractMembershipManager", _CI + "AbstractMembershipManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("ConsumerMembershipManager", _CI + "ConsumerMembershipManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("HeartbeatRequestManager", _CI + "HeartbeatRequestManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("AbstractHeartbeatRequestManager", _CI + "AbstractHeartbeatRequestManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("ConsumerHeartbeatRequestManager", _CI + "ConsumerHeartbeatRequestManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("CommitRequestManager", _CI + "CommitRequestManager", CLIENT_PFX, only=_ABOUT_GROUP, since="1.0.0"),
            ClassSpec("CoordinatorRequestManager", _CI + "CoordinatorRequestManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("AsyncKafkaConsumer", _CI + "AsyncKafkaConsumer", CLIENT_PFX, only=_ABOUT_GROUP, since="1.0.0"),
            ClassSpec("StreamsMembershipManager", _CI + "StreamsMembershipManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("StreamsGroupHeartbeatRequestManager", _CI + "StreamsGroupHeartbeatRequestManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("StreamsRebalanceListenerInvoker", _CI + "StreamsRebalanceListenerInvoker", CLIENT_PFX, since="1.0.0"),
            ClassSpec("ShareMembershipManager", _CI + "ShareMembershipManager", CLIENT_PFX, since="1.0.0"),
            ClassSpec("ShareHeartbeatRequestManager", _CI + "ShareHeartbeatRequestManager", CLIENT_PFX, since="1.0.0"),
        ),
        {"comment": "The new Java consumer (KIP-848 consumer protocol, group.protocol=consumer), 3.7+.", "expect": {"side": "client"}},
    ),
    SourceSpec(
        "kafka-streams", "java-slf4j", tuple(ALL_TAGS),
        (
            ClassSpec("StreamThread", _ST + "StreamThread", THREAD_PFX, since="1.0.0"),
            ClassSpec("TaskManager", _ST + "TaskManager", THREAD_PFX, since="1.0.0"),
            ClassSpec("StreamsRebalanceListener", _ST + "StreamsRebalanceListener", THREAD_PFX, since="1.0.0"),
            ClassSpec("DefaultStreamsRebalanceListener", _ST + "DefaultStreamsRebalanceListener", THREAD_PFX, since="1.0.0"),
            ClassSpec("StreamsPartitionAssignor", _ST + "StreamsPartitionAssignor", ASSIGNOR_PFX, since="1.0.0"),
            ClassSpec("KafkaStreams", "org.apache.kafka.streams.KafkaStreams", CLIENT_STREAMS_PFX, since="1.0.0"),
            ClassSpec("HighAvailabilityTaskAssignor", _ST + "assignment.HighAvailabilityTaskAssignor"),
        ),
        {"comment": "Kafka Streams: stream threads, the client, the partition assignor and its task assignor.",
         "context_values": {"client_id": STREAM_THREAD, "_streams_client": STREAM_THREAD.rsplit("-StreamThread", 1)[0],
                            "_assignor_client": STREAM_THREAD + "-consumer"},
         "expect": {"side": "client"}},
    ),
    SourceSpec(
        "kafka-connect", "java-slf4j", tuple(ALL_TAGS),
        (
            ClassSpec("WorkerCoordinator", _CD + "WorkerCoordinator", WORKER_PFX, since="2.3.0"),
            ClassSpec("WorkerGroupMember", _CD + "WorkerGroupMember", WORKER_PFX, since="2.3.0"),
            ClassSpec("DistributedHerder", _CD + "DistributedHerder", WORKER_PFX, since="2.3.0"),
            ClassSpec("IncrementalCooperativeAssignor", _CD + "IncrementalCooperativeAssignor", WORKER_PFX, since="2.3.0"),
            ClassSpec("EagerAssignor", _CD + "EagerAssignor", WORKER_PFX, since="2.3.0"),
        ),
        {"comment": "Kafka Connect's distributed worker: its group membership and the assignors.",
         "context_values": {"client_id": "connect-1"}, "expect": {"side": "connect"}},
    ),
    SourceSpec(
        "spring-kafka", "java-slf4j",
        ("v2.2.0.RELEASE", "v2.3.0.RELEASE", "v2.4.0.RELEASE", "v2.5.0.RELEASE", "v2.6.0", "v2.7.0", "v2.8.0",
         "v2.9.0", "v3.0.0", "v3.1.0", "v3.2.0", "v3.3.0"),
        (
            ClassSpec("AbstractMessageListenerContainer", "o.s.k.l.KafkaMessageListenerContainer", only=_SPRING_GROUP),
            ClassSpec("KafkaMessageListenerContainer", "o.s.k.l.KafkaMessageListenerContainer", only=_SPRING_GROUP),
        ),
        {"comment": "Spring for Apache Kafka's listener container: its rebalance listener and the lines about the group.",
         "line": "{ts}  {level} 4242 --- [ntainer#0-0-C-1] {logger} : {message}", "ts": "2024-05-01 10:00:00.123",
         "expect": {"side": "client"}},
        repo="spring-projects/spring-kafka",
    ),
    SourceSpec(
        "spring-cloud-stream-kafka", "java-slf4j",
        ("v1.3.4.RELEASE", "v2.0.3.RELEASE", "v2.1.4.RELEASE", "v2.2.1.RELEASE", "v3.0.13.RELEASE", "v3.1.6", "v3.2.2",
         "v4.0.5", "v4.1.6", "v4.2.3", "v4.3.3"),
        (
            ClassSpec("KafkaMessageChannelBinder", "o.s.c.s.b.k.KafkaMessageChannelBinder", only=_SPRING_GROUP),
            ClassSpec("KafkaBinderConfigurationProperties", "o.s.c.s.b.k.p.KafkaBinderConfigurationProperties", only=r"(?i)group"),
        ),
        {"comment": "Spring Cloud Stream's Kafka binder (spring-cloud-stream-binder-kafka to 3.2, then binders/kafka-binder of\n"
                    "spring-cloud-stream): its rebalance listener and the lines about the group.",
         "line": "{ts}  {level} 4242 --- [container-0-C-1] {logger} : {message}", "ts": "2024-05-01 10:00:00.123",
         "expect": {"side": "client"}},
        repo="spring-cloud/spring-cloud-stream",
    ),
    SourceSpec(
        "alpakka-kafka", "scala",
        ("v1.0.5", "v1.1.0", "v2.0.7", "v2.1.1", "v3.0.1", "v4.0.2", "v5.0.0", "v6.0.0", "v7.0.4", "v8.0.2"),
        (
            ClassSpec("BaseSingleSourceLogic", "akka.kafka.internal.SingleSourceLogic", only=_ABOUT_GROUP + r"|partitions"),
            ClassSpec("SubSourceLogic", "akka.kafka.internal.SubSourceLogic", only=_ABOUT_GROUP + r"|partitions"),
            ClassSpec("KafkaConsumerActor", "akka.kafka.internal.KafkaConsumerActor", only=_ABOUT_GROUP),
        ),
        {"comment": "Alpakka Kafka (Akka Streams): its sources' partition assignment handlers and the consumer actor's lines\n"
                    "about the group (Akka's logging: the source class as the logger).",
         "line": "[{level}] [{ts}] [{logger}] {message}", "ts": "05/01/2024 10:00:00.123",
         "expect": {"side": "client"}},
        repo="akka/alpakka-kafka", calls="java",
    ),
)  # fmt: skip

# ------------------------------------------------------------------------------ draft templates
#: argument expression (lower-cased, regex search) -> placeholder; first match wins
_ARG_NAMES: tuple[tuple[str, str], ...] = (
    (r"(?:^|\.)groupid(?:\(\))?$", "group_id"),
    (r"instanceid", "group_instance_id"),
    (r"^(?:old|current|existing|previous)memberid(?:\(\))?$|\.(?:old|current|existing|previous)memberid\(\)$", "old_member_id"),
    (r"(?:^|\.)(?:new)?memberid(?:\(\))?$", "member_id"),
    (r"(?:^|\.)generationid(?:\(\))?$", "generation"),
    (r"^(?:group\.)?currentstate(?:\(\))?$|^group\.state(?:\(\))?$", "state"),
    (r"^(?:leave)?reason$|^reason\(\)$", "reason"),
    (r"^(?:group\.)?protocolname(?:\(\))?$|^protocol$", "protocol"),
    (r"^coordinator$|^coordinator\(\)$", "_coordinator_node"),
    (r"(?:^|\.)memberepoch(?:\(\))?$", "member_epoch"),
    (r"^logprefix$", "_logprefix"),
)


def draft_name(expr: str, used: set[str]) -> str:
    low = re.sub(r"\s+", "", expr).lower()
    name = None
    for rx, n in _ARG_NAMES:
        if re.search(rx, low):
            name = n
            break
    if name is None or name in used:
        base = re.sub(r"[^a-z0-9]+", "_", low).strip("_")[:24] or "arg"
        name = "_" + (base if base[0].isalpha() else "a" + base)
    k, out = 2, name
    while out in used:
        out = f"{name}{k}"
        k += 1
    used.add(out)
    return out


#: argument expressions rendered as a literal in the draft template
_LITERAL_ARGS = {"topic.group_metadata_topic_name": "__consumer_offsets", "group_metadata_topic_name": "__consumer_offsets"}
#: argument expressions whose draft sample value is a number
_NUMERIC = re.compile(r"(?:size|count|ms|epoch|timeout|version|offset|generation|generationid|partition|num\w*|\.length|bytes|delay|interval)\)?$")


def draft_template(wording: str, args: tuple[str, ...]) -> tuple[str, dict]:
    """The wording with each ``{}`` named after its argument (literal braces doubled), and sample
    values for the unnamed arguments that must be numbers."""
    parts = wording.split("{}")
    used: set[str] = set()
    values: dict = {}
    out = [parts[0].replace("{", "{{").replace("}", "}}")]
    for i, rest in enumerate(parts[1:]):
        expr = args[i] if i < len(args) else f"arg{i}"
        low = re.sub(r"\s+", "", expr).lower()
        if low in _LITERAL_ARGS:
            out.append(_LITERAL_ARGS[low])
        elif low.startswith("partitionfor("):
            out.append("{offsets_partition}")
        elif "staticmembers" in low and "size" in low:
            out.append("{static_count}")
        elif low in ("group.size", "group.size()", "members.size()", "group.numMembers()".lower()):
            out.append("{member_count}")
        else:
            name = draft_name(expr, used)
            # (Streams before 1.0 passed its "stream-thread [T]" prefix as the first argument)
            if name == "_logprefix":
                out.append("stream-thread [{client_id}]")
            else:
                out.append("{" + name + "}")
                if name.startswith("_") and _NUMERIC.search(low):
                    values[name] = 3
        out.append(rest.replace("{", "{{").replace("}", "}}"))
    return "".join(out), values
