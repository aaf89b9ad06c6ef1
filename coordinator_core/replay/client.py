"""Client evidence: consumers' log lines enrich the model, and rebuild it when no broker line exists.

Client lines give member ids, client ids, protocol, coordinator, assignments and leave reasons; a
group with no broker evidence at all is reconstructed from them (``inferred``): a rebalance starts
at the first rejoin/join/revoke/leave/poll-timeout/heartbeat-REBALANCE_IN_PROGRESS signal while
Stable or Empty, a join round completes at "Successfully joined ... generationId=N", and the
rebalance ends at the first sync / leader assignment / assignment notification of that generation.
Heartbeats (the bulk of the volume) are handled by :mod:`.heartbeat`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from coordinator_core.causes import CauseInfo, classify_client_reason
from coordinator_core.events.row import (
    ASSIGN,
    CID,
    COORD,
    ERR,
    GEN,
    GIID,
    KIND,
    MID,
    PARTS,
    PROTO,
    REASON,
    SF,
    SIDE,
    STATE,
    TS,
)
from coordinator_core.partition_groups import parsed_assignment
from coordinator_core.records import MemberSession
from coordinator_core.replay.client_only import ClientOnlyEvidence
from coordinator_core.replay.core import DEPARTED_MAX
from coordinator_core.replay.model import E, GenerationAssignment, S
from coordinator_core.rows import assignment_map, to_int

#: the kinds of a non-Java client line that name the file's own consumer as a member of the group
#: (it joined, or was given partitions): such a line with no member id in a file that never named one
#: is about :func:`file_member`
_STANDS_IN_FOR_MEMBER = frozenset({"joined", "synced", "partitions_assigned"})


def file_member(source_file: str) -> str:
    """The stand-in ``member_id`` of the one consumer of a non-Java client's log file whose lines name
    no member id (kafka-python 2.0 and aiokafka at INFO log ``Successfully joined group G with
    generation N``)."""
    return f"<consumer of {source_file}>"


def _one_consumer_file(row: tuple) -> bool:
    """A line of a non-Java client (no client id): its log file is one consumer."""
    return bool(row[SF]) and row[SIDE] == "other"


class ClientEvidence(ClientOnlyEvidence):
    """Client lines (heartbeats: :class:`~.heartbeat.HeartbeatEvidence`; the reconstruction of a group
    without broker lines: :class:`~.client_only.ClientOnlyEvidence`)."""

    __slots__ = ()

    # ------------------------------------------------------------------ client evidence
    def _client_member(self, row: tuple) -> str | None:
        """The member a client line is about (client-only, its last-seen time moves to the line's)."""
        mid = self._line_member(row)
        m = self.members.get(mid) if mid and not self.broker_seen else None
        ts = row[TS]
        if m is not None and type(ts) is int and (m.last_seen is None or ts > m.last_seen):
            m.last_seen = ts  # (client-only: what :meth:`_expire_unseen` judges by)
        return mid

    def _line_member(self, row: tuple) -> str | None:
        """The member a client line is about: its member id; else the member last seen with the same
        client id in the same log file (one consumer instance); else the member last seen with that
        client id anywhere - unless several current members share it (every JVM numbers its
        consumers ``consumer-<group>-1``, ``-2`` ...), which makes the line ambiguous. A line of a
        non-Java client with neither (librdkafka, kafka-python, aiokafka name no client) is about
        the member last named in its file: one consumer per log file."""
        mid = row[MID]
        cid = row[CID]
        sf = row[SF]
        giid = row[GIID]
        if cid and (giid or mid):
            self._client_evidence(mid, giid, cid)
        if mid:
            if cid:
                self.member_by_client[cid] = mid
                if sf:
                    self.member_by_client[f"{sf}\x1f{cid}"] = mid
            elif sf and row[SIDE] == "other":
                self.member_by_client[f"{sf}\x1f"] = mid
            return mid
        if cid:
            if sf:
                cand = self.member_by_client.get(f"{sf}\x1f{cid}")
                if cand is not None:
                    return cand
            cand = self.member_by_client.get(cid)
            if cand is not None and sum(1 for m in self.members.values() if m.client_id == cid) <= 1:
                return cand
        elif sf and row[SIDE] == "other":
            key = f"{sf}\x1f"
            mid = self.member_by_client.get(key)
            if mid is None and row[KIND] in _STANDS_IN_FOR_MEMBER:
                # kafka-python before 2.1 and its kin name no member at INFO: the file's one
                # consumer stands for itself until a line names its member id
                mid = self.member_by_client[key] = file_member(sf)
            return mid
        return None

    def _client_evidence(self, mid: str | None, giid: str | None, cid: str) -> None:
        """A client line names its client id with its member id and/or group.instance.id: fill the
        client id of the member(s) it names (static members' ids do not encode the client id).
        Client lines never give the client's host (the host they show is the coordinator's)."""
        if giid and self.client_by_instance.get(giid) != cid:
            self.client_by_instance[giid] = cid
            if len(self.client_by_instance) > DEPARTED_MAX:
                self.client_by_instance.pop(next(iter(self.client_by_instance)))
        if mid:
            for m in (self.members.get(mid), self.departed.get(mid)):
                if m is not None and not m.client_id:
                    m.client_id = cid
        if giid:
            for m in self.members.values():
                if m.group_instance_id == giid and not m.client_id:
                    m.client_id = cid
        for r in (self.rebalance, self.last_rebalance):
            if r is None or r.culprit_client_id is not None or not r.culprit_member_id:
                continue  # (the common case: nobody's client id is missing)
            if r.culprit_member_id == mid or (giid and r.culprit_group_instance_id == giid):
                r.culprit_client_id = cid
                if r is self.last_rebalance and r.outcome:
                    # the culprit's client logged after the rebalance ended: report it again (same id)
                    self._reemit_rebalance(r)

    def _on_coordinator_discovered(self, row: tuple) -> None:
        c = to_int(row[COORD])
        if c is not None:
            self.coordinator = c
            if self.rebalance is not None and self.rebalance.coordinator_broker is None:
                self.rebalance.coordinator_broker = c

    def _trigger_cause(self, row: tuple, kind: str, mid: str | None, cid: str | None) -> CauseInfo | None:
        """What a rebalance trigger line says about the cause; None: nothing (a heartbeat failure
        for another reason)."""
        reason = row[REASON]
        if kind == "poll_timeout":
            info = CauseInfo("poll_timeout_leave", mid)
        elif kind == "heartbeat_failed":
            err = (row[ERR] or "").upper()
            if "UNKNOWN_MEMBER" in err:
                info = CauseInfo("session_timeout", mid)
            elif "REBALANCE_IN_PROGRESS" in err or "REBALANCING" in err:
                info = CauseInfo("unknown", follow=True)
            else:
                return None
        elif kind == "leave_sent":
            info = classify_client_reason(reason, mid)
            if info.follow or info.cause == "unknown":
                info = CauseInfo("member_leave", mid)
        elif kind == "partitions_revoked":
            info = CauseInfo("unknown", follow=True)
        elif kind == "join_sent" and self.state in (S, E, None) and (cid or mid or _one_consumer_file(row)):
            known = bool(mid and mid in self.members)
            # a new consumer: its member id comes with its "Successfully joined" line
            info = CauseInfo("unknown", follow=True) if known else CauseInfo("new_member", None)
        else:
            info = classify_client_reason(reason, mid)
        return info

    def _on_rebalance_trigger(self, row: tuple) -> None:
        kind = row[KIND]
        ts = row[TS]
        mid = self._client_member(row)
        cid = row[CID]
        if kind == "leave_sent" and self._no_member_leaves(row, mid):
            return
        info = self._trigger_cause(row, kind, mid, cid)
        if info is None:
            return
        leaving = (
            info.cause in ("poll_timeout_leave", "member_leave", "session_timeout")
            and kind != "rejoin_requested"
        )
        weak = info.cause == "session_timeout" and kind != "leave_sent"
        if info.cause in ("poll_timeout_leave", "member_leave"):
            self._hint(ts, mid, info.cause)
            if cid:
                self._hint(ts, "client:" + cid, info.cause)
        if not info.follow and info.cause != "unknown":
            self._signal(ts, info.cause, info.member_id or mid)
        if self.broker_seen:
            if info.cause == "poll_timeout_leave":
                self._late_poll_timeout(ts, mid, cid)
            return
        self._client_only_trigger(row, info, mid, weak, leaving)

    def _no_member_leaves(self, row: tuple, mid: str | None) -> bool:
        """Client-only: a leave line of a one-consumer file that names no member (kafkajs' ``Stopped``,
        sarama's ``Closing Client``) while the file's consumer is no member - it never joined, or
        left already (a second stop) - is no leave of the group."""
        return (
            not self.broker_seen
            and _one_consumer_file(row)
            and not row[MID]
            and not row[CID]
            and (mid is None or mid not in self.members)
        )

    def _late_poll_timeout(self, ts: int, mid: str | None, cid: str | None) -> None:
        """A client's poll-timeout line logged (by its clock) just after the broker removed the member
        on LeaveGroup: the leave was a poll-timeout leave. Refines the open rebalance and re-emits
        the member's session (same key) with the corrected end reason."""
        window = self.settings.signal_window_ms
        r = self.rebalance
        if (
            r is not None
            and r.cause == "member_leave"
            and r.start_ts is not None
            and 0 <= ts - r.start_ts <= window
            and ((mid and r.culprit_member_id == mid) or (not mid and cid and r.culprit_client_id == cid))
        ):
            r.cause = "poll_timeout_leave"
        target = (
            mid
            if mid
            else (r.culprit_member_id if r is not None and r.cause == "poll_timeout_leave" else None)
        )
        d = self.departed.get(target) if target else None
        if (
            target
            and d is not None
            and d.end_reason == "leave"
            and d.left_ts is not None
            and 0 <= ts - d.left_ts <= window
        ):
            d.end_reason = "poll_timeout_leave"
            self._ss.append(
                MemberSession(
                    self.group_id,
                    target,
                    d.group_instance_id,
                    d.client_id,
                    d.client_host,
                    d.joined_ts,
                    d.left_ts,
                    d.first_generation,
                    d.last_generation,
                    d.end_reason,
                    bool(d.inferred),
                )  # fmt: skip
            )

    def _on_joined(self, row: tuple) -> None:
        ts = row[TS]
        g = to_int(row[GEN])
        mid = self._client_member(row)
        cid = row[CID]
        if not mid and cid and not self.broker_seen:
            mid = cid  # 2.x "Successfully joined group with generation N" has no member id
            self.member_by_client[cid] = mid
        if (
            self.broker_seen
            and g is not None
            and self.generation is not None
            and abs(g - self.generation) > 2
            and not (mid and mid in self.members)
        ):
            # a client claims a generation the broker's lines contradict (more than the couple of join
            # rounds that client/broker clock skew can explain): do not trust its membership
            self._anomaly(
                row,
                "generation_gap",
                f"client joined generation {g} while the broker is at {self.generation}",
            )
            return
        if row[PROTO]:
            self.protocol = row[PROTO]
            if self.rebalance is not None and self.rebalance.protocol is None:
                self.rebalance.protocol = row[PROTO]
        self._on_coordinator_discovered(row)
        if mid:
            self._joined_member(row, mid, cid, g)
        if self.broker_seen:
            if g is not None and self.generation is not None and g > self.generation:
                self.client_ahead = [g, ts]
            return
        if g is not None:
            self._client_only_join(row, g)

    def _joined_member(self, row: tuple, mid: str, cid: str | None, g: int | None) -> None:
        """The member a "Successfully joined" line names, and the culprit it may identify."""
        ts = row[TS]
        new = mid not in self.members
        m = self._add_member(mid, ts, cid=cid, giid=row[GIID], inferred=not self.broker_seen)
        if g is not None:
            m.client_generation = g
            m.last_generation = g if m.last_generation is None else max(m.last_generation, g)
            if m.first_generation is None:
                m.first_generation = g
        r = self.rebalance
        if (
            new
            and r is not None
            and ((r.cause == "unknown" and r.follows_signal) or r.weak_cause)
            and not self.broker_seen
        ):
            self._set_cause(r, "new_member", mid, cid=cid)
            r.weak_cause = False
        late = r is None and not self.broker_seen
        if late:
            r = self.last_rebalance  # the culprit's own "joined" may be logged after the end
        if (
            r is not None
            and r.culprit_member_id is None
            and r.culprit_client_id
            and r.culprit_client_id == cid
            and r.culprit_file in (None, row[SF])
        ):
            r.culprit_member_id = mid
            if late and r.outcome:
                self._reemit_rebalance(r)

    def _on_synced(self, row: tuple) -> None:
        mid = self._client_member(row)
        if row[PROTO]:
            self.protocol = row[PROTO]
        if mid and mid in self.members:
            g = to_int(row[GEN])
            if g is not None:
                self.members[mid].client_generation = g
        self._assigned_new_member(row, mid)
        self._client_only_end(row, mid)

    def _assigned_new_member(self, row: tuple, mid: str | None) -> None:
        """Client-only: the first sync or assignment of a one-consumer file's member that the group has
        not seen (its join was not logged: kafkajs at INFO, sarama before 1.31, an application's own
        assignment callback): the member joined. Kafka's consumers are given partitions only after a
        join round that admitted them, so an open rebalance whose cause is unknown was the member's
        arrival (``new_member``), and with none open this line ends the rebalance that admitted it,
        whose start was not logged."""
        if self.broker_seen or not mid or mid in self.members or not _one_consumer_file(row):
            return
        self._add_member(mid, row[TS], cid=row[CID], giid=row[GIID], inferred=True)
        r = self.rebalance
        lr = self.last_rebalance
        if (
            r is None
            and lr is not None
            and lr.outcome == "completed"
            and lr.end_ts is not None
            and 0 <= row[TS] - lr.end_ts <= self.settings.clock_skew_tolerance_ms
        ):
            # the round that just completed admitted it too (its other members' lines came first)
            if lr.cause == "unknown" or lr.weak_cause:
                self._set_cause(lr, "new_member", mid, cid=row[CID])
                lr.weak_cause = False
                self._reemit_rebalance(lr)
            return
        if r is None:
            if not self._can("rebalance_signal"):
                return
            self._expire_unseen()
            r = self._start_rebalance(None, self.generation, start_unknown=True, inferred=True)
            self._apply(row, "rebalance_signal")
        if r.cause == "unknown" or r.weak_cause:
            self._set_cause(r, "new_member", mid, cid=row[CID])
            r.weak_cause = False
            r.culprit_file = row[SF]

    def _on_leader_assigned(self, row: tuple) -> None:
        ts = row[TS]
        mid = self._client_member(row)
        g = to_int(row[GEN])
        if g is None and mid and mid in self.members:
            g = self.members[mid].client_generation
        if g is None:
            g = self.generation
        if mid:
            self.leader = mid
            if self.rebalance is not None and (self.rebalance.leader_id is None or not self.broker_seen):
                self.rebalance.leader_id = mid
        amap = assignment_map(row[ASSIGN])
        if g is not None and amap:
            table: dict[str, list[list[Any]]] = {}
            for m, parts in amap.items():
                tps, by_topic = parsed_assignment(parts)
                table[m] = [list(tp) for tp in tps]
                self._assignment_rows(g, m, by_topic, "leader_map", ts)
            current = self.assignment
            if current is None or current.generation != g:
                current = self.assignment = GenerationAssignment(g)
            current.leader_map = table
            for m in table:
                # the leader's map lists the generation's members: pending ids in it joined
                if (
                    m not in self.members
                    and m not in self.departed
                    and (not self.broker_seen or m in self.pending)
                ):
                    mm = self._add_member(m, ts, inferred=True, joined=False)
                    mm.client_generation = mm.first_generation = mm.last_generation = g
            if self.settings.track_generations:
                self.generations.append({"gen": g, "ts": ts, "assignment": table})
            self._emit_skew(g, table, ts)
        self._client_only_end(row, mid)
        if not self.broker_seen and amap and g is not None and g == self.generation:
            # client-only: members of an older generation missing from the leader's map were removed;
            # with nobody logging a leave, that is a session timeout (a crash, a long pause)
            missing = [
                m for m in self.members if m not in amap and (self.members[m].client_generation or -1) < g
            ]
            r = self.rebalance if self.rebalance is not None and self.rebalance.new_generation == g else None
            lr = self.last_rebalance
            if r is None and lr is not None and lr.new_generation == g and lr.inferred:
                r = lr
            timeout = r is not None and bool(missing) and r.cause == "unknown"
            if r is not None and timeout:
                self._set_cause(r, "session_timeout", missing[0])
                if r is lr:
                    self._reemit_rebalance(r)
            for m in missing:
                self._end_session(row, m, "session_timeout" if timeout else "not_rejoined", inferred=True)

    def _on_member_assignment(self, row: tuple) -> None:
        ts = row[TS]
        mid = self._client_member(row)
        if not mid:
            self._client_only_end(row, None)
            return
        self._assigned_new_member(row, mid)
        m = self.members.get(mid)
        g = to_int(row[GEN])
        if g is None and m is not None:
            g = m.client_generation
        if g is None:
            g = self.generation
        kind = row[KIND]
        current = self.assignment
        if g is not None:
            if current is None or current.generation != g:
                current = self.assignment = GenerationAssignment(g)
            src = current.member_sources
            # "Adding newly assigned partitions" lists only the added partitions under the
            # cooperative protocol; "Notifying assignor about the new Assignment" is the full set
            cooperative = "cooperative" in (self.protocol or "")
            usable = kind == "assignment_notified" or (src.get(mid) is None and not cooperative)
            if usable and src.get(mid) != "assignment_notified":
                tps, by_topic = parsed_assignment(row[PARTS])
                current.member_maps[mid] = [list(tp) for tp in tps]
                src[mid] = kind
                self._assignment_rows(g, mid, by_topic, "member", ts)
        self._client_only_end(row, mid)
        self._maybe_member_skew(row)

    def _on_client_identity(self, row: tuple) -> None:
        self._client_member(row)
        if row[COORD] is not None and row[KIND] == "coordinator_discovered":
            self._on_coordinator_discovered(row)

    def _on_nothing_to_replay(self, row: tuple) -> None:
        return


#: client kind -> handler(replay, row)
CLIENT_HANDLERS: dict[str, Callable[[Any, tuple], None]] = {
    "coordinator_discovered": ClientEvidence._on_coordinator_discovered,
    "coordinator_lost": ClientEvidence._on_nothing_to_replay,
    "rejoin_requested": ClientEvidence._on_rebalance_trigger,
    "join_sent": ClientEvidence._on_rebalance_trigger,
    "partitions_revoked": ClientEvidence._on_rebalance_trigger,
    "heartbeat_failed": ClientEvidence._on_rebalance_trigger,
    "leave_sent": ClientEvidence._on_rebalance_trigger,
    "poll_timeout": ClientEvidence._on_rebalance_trigger,
    "joined": ClientEvidence._on_joined,
    "synced": ClientEvidence._on_synced,
    "leader_assigned": ClientEvidence._on_leader_assigned,
    "assignment_notified": ClientEvidence._on_member_assignment,
    "partitions_assigned": ClientEvidence._on_member_assignment,
    "heartbeat_sent": ClientEvidence._on_nothing_to_replay,  # not reached: feed_rows routes heartbeats to _heartbeat
    "join_failed": ClientEvidence._on_client_identity,
    "sync_failed": ClientEvidence._on_client_identity,
    "partitions_lost": ClientEvidence._on_client_identity,
    "generation_reset": ClientEvidence._on_client_identity,
    "offset_commit_failed": ClientEvidence._on_client_identity,
    "other": ClientEvidence._on_nothing_to_replay,
}


# ------------------------------------------------------------------ Kafka Streams evidence
# (the Streams kinds of coordinator_core.events; their causes are read by causes.classify_client_reason)
def _on_streams_state(replay: Any, row: tuple) -> None:
    """A stream thread entering PARTITIONS_REVOKED is in an eager rebalance's join phase (a trigger
    whose cause comes from the earlier signals); other Streams state changes add nothing to the model."""
    if row[STATE] == "PARTITIONS_REVOKED" and row[REASON] == "stream-thread":
        ClientEvidence._on_rebalance_trigger(replay, row)


CLIENT_HANDLERS["streams_state_changed"] = _on_streams_state
#: the assignor's decision; the rebalance starts with the stream thread's trigger (rejoin_requested)
CLIENT_HANDLERS["streams_rebalance_scheduled"] = ClientEvidence._on_nothing_to_replay
