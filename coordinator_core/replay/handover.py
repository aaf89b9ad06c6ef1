"""Protocol conversion, the classic model's side (:mod:`coordinator_core.conversion`): the group's
members leave this model without a session end when the group becomes a consumer-protocol group, and
come back when it converts to classic again (:class:`coordinator_core.history.GroupHistory` calls
these two methods)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from coordinator_core.conversion import HandedOverMember
from coordinator_core.events.row import TS
from coordinator_core.replay.core import ReplayCore, joined_ts


class ProtocolHandover(ReplayCore):
    """``hand_over`` / ``take_over`` of a classic group at a protocol conversion."""

    __slots__ = ()

    def hand_over(self, row: Any) -> tuple[int | None, list[HandedOverMember]]:
        """The group converts to the consumer protocol at ``row``: an open rebalance ends there
        (``inferred``: the conversion takes over), the group goes Dead in this model, and its members
        leave it WITHOUT a session end: returned with their partitions (the current generation's
        assignment when known) for the consumer model to continue."""
        row = self._normalise(row)
        if self.rebalance is not None:
            self.rebalance.inferred = True
            self._close_rebalance(row, "completed", len(self.members) or None)
        a = self.assignment if self.assignment is not None and self.assignment.generation == self.generation else None
        table = {**(a.leader_map or {}), **a.member_maps} if a is not None else {}
        out = [
            HandedOverMember(
                mid, m.group_instance_id, m.client_id, joined_ts(m), bool(m.inferred),
                tuple(f"{t}-{p}" for t, p in table[mid]) if mid in table else None, m.client_host,
            )
            for mid, m in self.members.items()
        ]  # fmt: skip
        generation = self.generation
        self.members, self.pending, self.leader, self.stable_member_count = {}, {}, None, None
        self._apply(row, "handed_over", inferred=False)
        return generation, out

    def take_over(self, row: Any, generation: int | None, members: Iterable[HandedOverMember]) -> None:
        """The group converts back to the classic protocol at ``row``: Kafka's classic group starts
        Stable at generation = the consumer group's epoch (``ClassicGroup.fromConsumerGroup``), with
        the handed-over members (their sessions continue: same ``joined_ts``)."""
        row = self._normalise(row)
        if generation is not None:
            self.generation = generation if self.generation is None else max(self.generation, generation)
        for h in members:
            m = self._add_member(h.member_id, h.joined_ts, cid=h.client_id, host=h.host, giid=h.group_instance_id,
                                 inferred=h.inferred)  # fmt: skip
            m.joined_ts, m.last_seen = h.joined_ts, row[TS]
            m.client_generation = m.first_generation = m.last_generation = self.generation
        self.membership_known = self.broker_seen = True
        self.stable_member_count = len(self.members)
        self._apply(row, "taken_over", inferred=False)
