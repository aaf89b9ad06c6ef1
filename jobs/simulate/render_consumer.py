"""Log lines of consumer-protocol (KIP-848) groups: the broker's ``GroupMetadataManager`` and the new
consumer's ``ConsumerMembershipManager``, in Kafka's own wordings.

Flavours (``CONSUMER_FLAVOURS``):

* ``4.0`` — ``Bumped group epoch to E.``; ``new assignment state`` at DEBUG; no conversion line.
* ``4.1`` — ``Bumped group epoch to E with metadata hash H.``; ``Converted the classic group to a
  consumer group.`` when a classic group is upgraded.

Both render "joins the consumer group using the consumer protocol" (3.9+) and "fenced from the
group because the member session expired.." (3.8+, the doubled period is Kafka's). Broker renders
return ``(level, logger, message)``; DEBUG lines are dropped by the caller unless the broker logs
at DEBUG. Client messages are returned as ``(level, message)`` for the client's own layout.
"""

from __future__ import annotations

from coordinator_core.consumer.protocol import ConsumerLog
from jobs.simulate.consumer_core import tps
from jobs.simulate.render_client import PKG, tp_list

CONSUMER_FLAVOURS = ("4.0", "4.1")
J_GMM = "org.apache.kafka.coordinator.group.GroupMetadataManager"
CMM = PKG + "ConsumerMembershipManager"

Line = tuple[str, str, str]


def broker_prefix(broker: int, partition: int) -> str:
    return f"[GroupCoordinator id={broker} topic=__consumer_offsets partition={partition}] "


class ConsumerBrokerRenderer:
    """Renders the core coordinator's :class:`~coordinator_core.consumer.protocol.ConsumerLog`
    entries in one flavour's wordings. A bump of a leave or a fence (``level`` NONE) and the DEBUG
    subscription line are not rendered."""

    __slots__ = ("flavour",)

    def __init__(self, flavour: str = "4.0") -> None:
        if flavour not in CONSUMER_FLAVOURS:
            raise ValueError(f"unknown consumer flavour {flavour!r}; expected one of {CONSUMER_FLAVOURS}")
        self.flavour = flavour

    def render(self, f: ConsumerLog, group: str, broker: int, partition: int) -> list[Line]:
        msg = self.message(f, group)
        if msg is None:
            return []
        level = "DEBUG" if f.kind == "assignment_state" else "INFO"
        return [(level, J_GMM, broker_prefix(broker, partition) + msg)]

    def message(self, f: ConsumerLog, group: str) -> str | None:  # noqa: PLR0911
        g, m, k = f"[GroupId {group}] ", f.member_id, f.kind
        if k == "joined":
            return f"{g}Member {m} joins the consumer group using the consumer protocol."
        if k == "static_joined":
            return f"{g}Static member {m} with instance id {f.instance_id} joins the consumer group using the consumer protocol."
        if k == "static_replaced":
            return (
                f"{g}Static member with instance id {f.instance_id} re-joins the consumer group using the "
                f"consumer protocol. Created a new member {m} to replace the existing member {f.old_member_id}."
            )
        if k == "bumped":
            if f.level == "NONE":
                return None
            if self.flavour == "4.0":
                return f"{g}Bumped group epoch to {f.epoch}."
            return f"{g}Bumped group epoch to {f.epoch} with metadata hash {f.metadata_hash}."
        if k == "target":
            return f"{g}Computed a new target assignment for epoch {f.epoch} with '{f.assignor}' assignor in {f.took_ms}ms."
        if k == "assignment_state":
            return (
                f"{g}Member {m} new assignment state: epoch={f.epoch}, previousEpoch={f.previous_epoch}, "
                f"state={f.state}, assignedPartitions={tp_list(tps(f.assigned))} and revokedPartitions={tp_list(tps(f.revoked))}."
            )
        return self._departure(f, g)

    def _departure(self, f: ConsumerLog, g: str) -> str | None:
        m, k = f.member_id, f.kind
        if k == "left":
            return f"{g}Member {m} left the consumer group."
        if k == "static_left":
            return f"{g}Static Member {m} with instance id {f.instance_id} left the consumer group."
        if k == "static_temp_left":
            return f"{g}Static Member {m} with instance id {f.instance_id} temporarily left the consumer group."
        if k == "fenced_session":
            return f"{g}Member {m} fenced from the group because the member session expired.."
        if k == "fenced_rebalance":
            return f"{g}Member {m} fenced from the group because it failed to transition from epoch {f.epoch} within {f.took_ms}ms."
        if k == "converted":
            return f"{g}Converted the classic group to a consumer group." if self.flavour != "4.0" else None
        return None


# ---------------------------------------------------------------------- client (new consumer)
def client_prefix(client_id: str, group: str) -> str:
    return f"[Consumer clientId={client_id}, groupId={group}] "


def transitioned(member_id: str, epoch: int, frm: str, to: str) -> str:
    return f"Member {member_id} with epoch {epoch} transitioned from {frm} to {to}."


def reconciling(local_epoch: int, member_id: str, assigned, owned, added, revoked) -> str:
    """``ConsumerMembershipManager`` (4.x) reconciliation block; the message ends with a newline."""
    return (
        f"Reconciling assignment with local epoch {local_epoch}\n"
        f"\tMember:                                    {member_id}\n"
        f"\tAssigned partitions:                       {tp_list(assigned)}\n"
        f"\tCurrent owned partitions:                  {tp_list(owned)}\n"
        f"\tAdded partitions (assigned - owned):       {tp_list(added)}\n"
        f"\tRevoked partitions (owned - assigned):     {tp_list(revoked)}\n"
    )


def revoking(revoked) -> str:
    return f"Revoking previously assigned partitions {', '.join(revoked)}"
