"""Kafka's error names and messages, for the ``error`` of the failure dialects (join / sync / heartbeat /
offset commit failed): :data:`ERROR_NAME` finds a name in the body, else the first text of
:data:`ERROR_MESSAGES` found gives it. Re-exported by :mod:`jobs.ingest.dialects`."""

from __future__ import annotations

#: Kafka error messages (``Errors.X.message()``) → error names, for join/sync/heartbeat/commit failures
ERROR_MESSAGES: tuple[tuple[str, str], ...] = (
    ("The coordinator is not aware of this member", "UNKNOWN_MEMBER_ID"),
    ("unknown member id", "UNKNOWN_MEMBER_ID"),
    ("The group is rebalancing, so a rejoin is needed", "REBALANCE_IN_PROGRESS"),
    ("The group began another rebalance", "REBALANCE_IN_PROGRESS"),
    ("already rebalanced", "REBALANCE_IN_PROGRESS"),
    ("group began another rebalance", "REBALANCE_IN_PROGRESS"),
    ("since it is rebalancing", "REBALANCE_IN_PROGRESS"),
    ("member id is not valid", "UNKNOWN_MEMBER_ID"),
    ("is either not started or not valid", "COORDINATOR_NOT_AVAILABLE"),
    ("is loading the group", "COORDINATOR_LOAD_IN_PROGRESS"),
    ("Specified group generation id is not valid", "ILLEGAL_GENERATION"),
    ("generation id is not legal", "ILLEGAL_GENERATION"),
    ("The coordinator is loading and hence can't process requests", "COORDINATOR_LOAD_IN_PROGRESS"),
    ("The coordinator is not available", "COORDINATOR_NOT_AVAILABLE"),
    ("This is not the correct coordinator", "NOT_COORDINATOR"),
    ("has been fenced", "FENCED_INSTANCE_ID"),
    ("another consumer with the same group.instance.id", "FENCED_INSTANCE_ID"),
    ("supported protocols are incompatible", "INCONSISTENT_GROUP_PROTOCOL"),
    ("has reached its max size", "GROUP_MAX_SIZE_REACHED"),
    ("The session timeout is not within the range", "INVALID_SESSION_TIMEOUT"),
    ("needs to have a valid member id", "MEMBER_ID_REQUIRED"),
    ("Not authorized to access group", "GROUP_AUTHORIZATION_FAILED"),
    ("Group rebalance in progress", "REBALANCE_IN_PROGRESS"),  # (librdkafka's Broker: ... texts, rdkafka.c)
    ("Group member needs a valid member ID", "MEMBER_ID_REQUIRED"),  # (with or without "Broker: ")
    ("Broker: Not coordinator", "NOT_COORDINATOR"),
    ("Broker: Coordinator not available", "COORDINATOR_NOT_AVAILABLE"),
    ("Broker: Coordinator load in progress", "COORDINATOR_LOAD_IN_PROGRESS"),
    ("Broker: Inconsistent group protocol", "INCONSISTENT_GROUP_PROTOCOL"),
    ("Broker: Invalid session timeout", "INVALID_SESSION_TIMEOUT"),
    ("Broker: Group authorization failed", "GROUP_AUTHORIZATION_FAILED"),
    ("Broker: Consumer group has reached maximum size", "GROUP_MAX_SIZE_REACHED"),
    ("Broker: Static consumer fenced by other consumer", "FENCED_INSTANCE_ID"),
    ("group is rebalancing", "REBALANCE_IN_PROGRESS"),
    ("Broker: Unknown member", "UNKNOWN_MEMBER_ID"),
    ("Broker: Specified group generation id is not valid", "ILLEGAL_GENERATION"),
    ("The member epoch is fenced by the group coordinator", "FENCED_MEMBER_EPOCH"),  # (KIP-848: librdkafka 2.4+)
    ("The instance ID is still used by another member", "UNRELEASED_INSTANCE_ID"),
    ("The assignor or its version range is not supported", "UNSUPPORTED_ASSIGNOR"),
    # (the error class names of kafka-python / aiokafka, ruby-kafka, kafka-node and franz-go)
    ("UnknownMemberId", "UNKNOWN_MEMBER_ID"),
    ("RebalanceInProgress", "REBALANCE_IN_PROGRESS"),
    ("IllegalGeneration", "ILLEGAL_GENERATION"),
    ("MemberIDRequired", "MEMBER_ID_REQUIRED"),
    ("NotCoordinatorForGroup", "NOT_COORDINATOR"),
    ("MemberIdRequiredError", "MEMBER_ID_REQUIRED"),  # (kafka-python's kafka/errors.py class names, 2.0+)
    ("CoordinatorNotAvailableError", "COORDINATOR_NOT_AVAILABLE"),
    ("CoordinatorLoadInProgressError", "COORDINATOR_LOAD_IN_PROGRESS"),
    ("NotCoordinatorError", "NOT_COORDINATOR"),
    ("InconsistentGroupProtocolError", "INCONSISTENT_GROUP_PROTOCOL"),
    ("GroupAuthorizationFailedError", "GROUP_AUTHORIZATION_FAILED"),
    ("FencedInstanceIdError", "FENCED_INSTANCE_ID"),
    ("The request timed out", "REQUEST_TIMED_OUT"),
    # (kafka-python 1.0-1.3's own sentences and error classes, base.py)
    ("generation id is not current", "ILLEGAL_GENERATION"),
    ("failed due to coordinator rebalance", "REBALANCE_IN_PROGRESS"),
    ("GroupCoordinatorNotAvailable", "COORDINATOR_NOT_AVAILABLE"),
    ("GroupLoadInProgress", "COORDINATOR_LOAD_IN_PROGRESS"),
    # (kafkajs' texts of the protocol's errors, src/protocol/error.js)
    ("The group coordinator is not available", "COORDINATOR_NOT_AVAILABLE"),
)
ERROR_NAME = r"\b(?P<error>(?:UNKNOWN_MEMBER_ID|REBALANCE_IN_PROGRESS|ILLEGAL_GENERATION|COORDINATOR_LOAD_IN_PROGRESS|COORDINATOR_NOT_AVAILABLE|NOT_COORDINATOR|FENCED_INSTANCE_ID|INCONSISTENT_GROUP_PROTOCOL|GROUP_MAX_SIZE_REACHED|INVALID_SESSION_TIMEOUT|MEMBER_ID_REQUIRED|GROUP_AUTHORIZATION_FAILED|INVALID_GROUP_ID|UNKNOWN_SERVER_ERROR|FENCED_MEMBER_EPOCH|UNRELEASED_INSTANCE_ID|UNSUPPORTED_ASSIGNOR))\b"
