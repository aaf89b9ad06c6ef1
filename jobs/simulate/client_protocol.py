"""The membership protocol of one classic consumer process of the cluster simulation
(:mod:`jobs.simulate.cluster`): its state, the lines it logs in its host's layout, coordinator
discovery, the JoinGroup / SyncGroup / Heartbeat calls it sends through the simulation and the
responses it handles. :class:`jobs.simulate.client.Client` adds the behaviours scenarios inject."""

from __future__ import annotations

from jobs.simulate import render_client as rc
from jobs.simulate.noise import ClientNoise
from jobs.simulate.render_broker import MemberInfo
from jobs.simulate.sim_types import GroupView, SimHost


class ClientProtocol:
    """The membership protocol of one consumer process on one host (slot); restarts reuse the slot
    with a new incarnation."""

    def __init__(self, sim: SimHost, grp: GroupView, slot: int) -> None:
        self.sim = sim
        self.grp = grp
        self.slot = slot
        r = sim.rng
        self.host = f"{grp.app}-{slot}"
        self.ip = f"/10.{(grp.index // 200) % 250 + 1}.{grp.index % 200 + 1}.{slot + 10}"
        self.skew = r.randint(-60, 60)
        self.instance = f"{grp.app}-{slot}" if grp.static else None
        self.client_id = f"consumer-{grp.name}-{self.instance}" if grp.static else f"consumer-{grp.name}-1"
        self.path = f"clients/{self.host}/{grp.app}.log"
        self.layout = rc.Layout(sim.cfg.layout, grp.app, 1000 + r.randrange(60000))
        self.texts = sim.texts
        self.prefix = self.texts.prefix(self.client_id, grp.name, self.instance)
        self.thread = (
            "org.springframework.kafka.KafkaListenerEndpointContainer#0-0-C-1"
            if sim.cfg.layout != "log4j"
            else "main"
        )
        self.hb_thread = f"kafka-coordinator-heartbeat-thread | {grp.name}"
        self.noise = ClientNoise(sim.rng, grp.app, sim.cfg.stack_rate)
        self.incarnation = 0
        self.alive = False
        self.member_id = ""
        self.generation = -1
        self.protocol: str | None = None
        self.owned: list[str] = []
        self.state = "down"
        self.coord: int | None = None
        self.hb_epoch = 0
        self.hb_count = 0
        self.leader = False
        self.stuck = False
        self.paused = False
        self.rejoin_reason = ""
        self.pending_rejoin = False
        self.hb_text: str | None = None
        #: handle responses synchronously (scenario: join during CompletingRebalance)
        self.immediate = False

    # ------------------------------------------------------------------ logging
    def log(
        self, level: str, logger: str, msg: str, stack: str | None = None, thread: str | None = None
    ) -> None:
        if level == "DEBUG" and not self.sim.cfg.debug_heartbeats:
            return
        text, n = self.layout.line(
            self.sim.now + self.skew, level, logger, thread or self.thread, self.prefix + msg, stack
        )
        self.sim.write(self.path, text, n, self)

    def log_plain(self, level: str, logger: str, msg: str, stack: str | None = None) -> None:
        if level == "DEBUG" and not self.sim.cfg.debug_heartbeats:
            return
        text, n = self.layout.line(self.sim.now + self.skew, level, logger, self.thread, msg, stack)
        self.sim.write(self.path, text, n, self)

    def gen_str(self) -> str:
        return self.texts.generation(self.generation, self.member_id, self.protocol)

    def node(self) -> str:
        b = self.coord if self.coord is not None else 1
        return self.texts.node(self.sim.brokers[b].host, b)

    def metadata(self) -> bytes:
        topics = ",".join(self.grp.topics)
        if self.grp.cooperative:
            return f"{topics}|{','.join(self.owned)}".encode()
        return topics.encode()

    def info(self) -> MemberInfo:
        return MemberInfo(
            self.member_id,
            self.instance,
            self.client_id,
            self.ip,
            self.grp.session_ms,
            self.grp.rebalance_ms,
            tuple(self.grp.strategies),
        )

    # ------------------------------------------------------------------ lifecycle
    def start(self, _a=None, _b=None) -> None:
        """A new consumer process on this host: startup lines, coordinator discovery, join."""
        if self.alive:
            return
        self.incarnation += 1
        self.alive = True
        self.member_id = ""
        self.generation = -1
        self.protocol = None
        self.owned = []
        self.state = "unjoined"
        self.stuck = self.paused = False
        self.leader = False
        self.hb_epoch += 1
        t = self.texts
        self.log_plain(
            "INFO",
            rc.CONFIG,
            t.config_dump(
                self.client_id, self.grp.name, self.instance, self.grp.strategies, self.grp.session_ms, self.grp.rebalance_ms
            ),
        )
        self.log_plain("INFO", rc.APPINFO, f"Kafka version: {t.version}")
        self.log_plain("INFO", rc.APPINFO, f"Kafka commitId: {t.commit}")
        self.log_plain("INFO", rc.APPINFO, f"Kafka startTimeMs: {self.sim.now + self.skew}")
        self.log("INFO", t.consumer_logger, f"Subscribed to topic(s): {', '.join(self.grp.topics)}")
        self.rejoin_cause = "new_member"
        self.sim.later(self.sim.rng.randint(20, 200), self.discover, self.incarnation)

    def discover(self, inc: int, _b=None) -> None:
        if inc != self.incarnation or not self.alive:
            return
        b = self.sim.coordinator_of(self.grp)
        if b is None:
            self.sim.later(self.sim.rng.randint(100, 400), self.discover, inc)
            return
        self.coord = b
        self.log("INFO", self.texts.coord_logger, f"Discovered group coordinator {self.node()}")
        if self.state == "stable" or self.state == "syncing":
            self.schedule_hb(self.sim.rng.randint(1, 50))
        elif self in self.grp.hold_on_completing:
            return  # joins when the group reaches CompletingRebalance (scenario hook)
        elif not self.stuck and not self.paused:
            self.send_join()

    def lost_coordinator(self, error: str) -> None:
        t = self.texts
        self.log("INFO", t.coord_logger, t.coordinator_lost(self.node(), error))
        if not t.v2:
            self.log(
                "INFO", t.coord_logger, f"Requesting disconnect from last known coordinator {self.node()}"
            )
        self.coord = None
        self.hb_epoch += 1
        if self.state == "joining":
            self.state = "unjoined"
        self.sim.later(self.sim.rng.randint(50, 300), self.discover, self.incarnation)

    # ------------------------------------------------------------------ join / sync
    def send_join(self) -> None:
        if not self.alive or self.coord is None:
            return
        self.state = "joining"
        self.pending_rejoin = False
        self.hb_epoch += 1  # the heartbeat thread is disabled while the JoinGroup is in flight
        self.log("INFO", self.texts.coord_logger, "(Re-)joining group")
        grp = self.grp
        ctx: tuple[str, str | None]
        if self.member_id == "" and self.instance is None:
            ctx = ("new_member", None)
        elif self.member_id == "":
            ctx = (
                "static_member" if self.sim.instance_mapped(grp, self.instance) else "new_member",
                None,
            )
        elif self.member_id in self.sim.pending_ids:
            ctx = ("new_member", self.member_id)
        else:
            ctx = ("leader_rejoin" if self.leader else "metadata_change", self.member_id)
        reason = self.rejoin_reason or None
        md = self.metadata()
        self.sim.call(
            self, "join_group", ctx,
            member_id=self.member_id, group_instance_id=self.instance, client_id=self.client_id,
            client_host=self.ip, session_timeout_ms=grp.session_ms, rebalance_timeout_ms=grp.rebalance_ms,
            protocol_type="consumer", protocols=tuple((s, md) for s in grp.strategies), reason=reason,
        )  # fmt: skip

    def on_response(self, r, inc: int) -> None:
        if inc != self.incarnation or not self.alive:
            return
        api = r.api
        if api == "Heartbeat":
            self.on_heartbeat(r)
        elif api == "JoinGroup":
            self.on_join(r)
        elif api == "SyncGroup":
            self.on_sync(r)
        elif (
            api == "OffsetCommit"
            and r.error in ("NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE")
            and self.coord is not None
        ):
            self.lost_coordinator(r.error)

    def on_join(self, r) -> None:
        if self.state != "joining":
            return
        t = self.texts
        err = r.error
        if err == "MEMBER_ID_REQUIRED":
            self.member_id = r.member_id
            self.sim.by_member[r.member_id] = self
            self.sim.pending_ids.add(r.member_id)
            self.log(
                "DEBUG",
                t.coord_logger,
                f"JoinGroup failed due to non-fatal error: MEMBER_ID_REQUIRED. Will set the member id as {r.member_id} and then rejoin. Sent generation was Generation{{generationId=-1, memberId='', protocol='null'}}",
            )
            self.rejoin_reason = f"need to re-join with the given member-id: {r.member_id}"
            if not t.v2:
                self.log("INFO", t.coord_logger, f"Request joining group due to: {self.rejoin_reason}")
            self.send_join()
            self.immediate = False
            return
        if err == "NONE":
            self.sim.pending_ids.discard(self.member_id)
            if r.member_id and r.member_id != self.member_id:
                self.member_id = r.member_id
                self.sim.by_member[r.member_id] = self
            self.generation = r.generation
            self.protocol = r.protocol_name
            self.leader = r.leader_id == self.member_id
            self.rejoin_reason = ""
            self.state = "syncing"
            self.hb_text = None
            self.log("INFO", t.coord_logger, f"Successfully joined group with generation {self.gen_str()}")
            # the first heartbeat after the join comes one heartbeat.interval.ms later (±1/30: 2900..3100
            # ms at Kafka's default 3 s)
            hb = self.grp.heartbeat_ms
            self.schedule_hb(self.sim.rng.randint(hb - hb // 30, hb + hb // 30))
            assignments = None
            if self.leader and getattr(r, "skip_assignment", False):
                self.log(
                    "INFO",
                    rc.CC,
                    f"Skipped assignment for returning static leader at generation {self.generation}. The static leader will continue with its existing assignment.",
                )
            elif self.leader:
                assignments = self.sim.leader_assign(self, r)
            self.sim.later(
                self.sim.rng.randint(1, 4) if assignments is not None else self.sim.rng.randint(2, 9),
                self.send_sync,
                (self.incarnation, self.generation, assignments),
            )
            return
        self.join_error(err, "JoinGroup")

    def join_error(self, err: str, api: str) -> None:
        t = self.texts
        gen = self.gen_str()
        if err in ("NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS"):
            self.log(
                "INFO",
                t.coord_logger,
                f"{api} failed: The coordinator is not available. Marking coordinator unknown. Sent generation was {gen}",
            )
            self.lost_coordinator(err)
            return
        if err == "REBALANCE_IN_PROGRESS":
            if api == "SyncGroup":
                self.log(
                    "INFO",
                    t.coord_logger,
                    f"SyncGroup failed: The group began another rebalance. Need to re-join the group. Sent generation was {gen}",
                )
                self.rejoin_reason = "rebalance failed due to RebalanceInProgressException"
                if not t.v2:
                    self.log(
                        "INFO",
                        t.coord_logger,
                        "Request joining group due to: rebalance failed due to 'The group is rebalancing, so a rejoin is needed.' (RebalanceInProgressException)",
                    )
            self.sim.later(self.sim.rng.randint(1, 5), self.rejoin_now, self.incarnation)
            return
        if err == "FENCED_INSTANCE_ID":
            self.log(
                "ERROR",
                t.coord_logger,
                f"{api} failed: The group instance id Optional[{self.instance}] has been fenced by another instance. Sent generation was {gen}",
            )
            self.die()
            return
        if err in ("UNKNOWN_MEMBER_ID", "ILLEGAL_GENERATION"):
            msg = (
                "The coordinator is not aware of this member."
                if err == "UNKNOWN_MEMBER_ID"
                else "Specified group generation id is not valid."
            )
            self.log(
                "INFO",
                t.coord_logger,
                f"{api} failed: {msg} Need to re-join the group. Sent generation was {gen}",
            )
            self.reset(
                f"encountered {err} from {'JOIN_GROUP' if api == 'JoinGroup' else 'SYNC_GROUP'} response"
            )
            self.sim.later(self.sim.rng.randint(1, 5), self.rejoin_now, self.incarnation)
            return
        self.log("ERROR", t.coord_logger, f"{api} failed due to fatal error: {err}")
        self.state = "unjoined"
        self.sim.later(1000, self.rejoin_now, self.incarnation)

    def send_sync(self, args, _b=None) -> None:
        inc, gen, assignments = args
        if inc != self.incarnation or not self.alive or self.state != "syncing" or gen != self.generation:
            return
        self.sim.call(
            self,
            "sync_group",
            None,
            member_id=self.member_id,
            generation=gen,
            group_instance_id=self.instance,
            protocol_type="consumer",
            protocol_name=self.protocol,
            assignments=assignments,
        )

    def on_sync(self, r) -> None:
        if self.state != "syncing":
            return
        t = self.texts
        if r.error != "NONE":
            self.join_error(r.error, "SyncGroup")
            return
        self.log("INFO", t.coord_logger, f"Successfully synced group in generation {self.gen_str()}")
        assigned = sorted(r.assignment or (), key=tp_key)
        self.state = "stable"
        added, revoked = assigned, []
        if self.grp.cooperative:
            owned = self.owned
            aset, oset = set(assigned), set(owned)
            added = [p for p in assigned if p not in oset]
            revoked = [p for p in owned if p not in aset]
            self.log("INFO", rc.CC, t.updating_assignment(assigned, owned, added, revoked))
            if revoked:
                self.log(
                    "INFO", t.callback_logger, f"Revoke previously assigned partitions {', '.join(revoked)}"
                )
                full = f"need to revoke partitions {rc.tp_list(revoked)} as indicated by the current assignment and re-join"
                if t.v2:
                    self.log(
                        "INFO",
                        rc.CC,
                        f"Need to revoke partitions {rc.tp_list(revoked)} and re-join the group",
                    )
                else:
                    self.log("INFO", t.coord_logger, f"Request joining group due to: {full}")
                self.rejoin_reason = "need to revoke partitions and re-join"
                self.pending_rejoin = True
        # eager: everything assigned is new (the member revoked all before it joined)
        self.log("INFO", rc.CC, f"Notifying assignor about the new Assignment(partitions={rc.tp_list(assigned)})")
        self.log("INFO", t.callback_logger, f"Adding newly assigned partitions: {', '.join(added)}")
        self.owned = assigned
        if revoked:
            self.sim.later(self.sim.rng.randint(5, 60), self.rejoin_now, self.incarnation)
        self.sim.on_member_stable(self)

    def rejoin_now(self, inc: int, _b=None) -> None:
        if inc != self.incarnation or not self.alive or self.stuck or self.paused:
            return
        if self.state in ("joining",):
            return
        if self.coord is None:
            return
        if not self.grp.cooperative and self.owned and self.member_id:
            self.log(
                "INFO",
                self.texts.callback_logger,
                f"Revoke previously assigned partitions {', '.join(self.owned)}",
            )
            self.owned = []
        self.send_join()

    def reset(self, reason: str, member_too: bool = True) -> None:
        """Reset generation (and member id): the partitions are lost."""
        t = self.texts
        if t.v2:
            self.log("DEBUG", t.coord_logger, f"Resetting generation after {reason} and requesting re-join")
        else:
            self.log("INFO", t.coord_logger, f"Resetting generation and member id due to: {reason}")
            self.log("INFO", t.coord_logger, f"Request joining group due to: {reason}")
        if self.owned:
            self.log("INFO", rc.CC, t.lost_all())
            self.log(
                "INFO", t.callback_logger, f"Lost previously assigned partitions {', '.join(self.owned)}"
            )
            self.owned = []
        self.generation = -1
        self.protocol = None
        if member_too:
            self.member_id = ""
        self.leader = False
        self.state = "unjoined"
        self.hb_epoch += 1
        self.rejoin_reason = reason if not t.v2 else ""

    # ------------------------------------------------------------------ heartbeat thread
    def schedule_hb(self, delay: int) -> None:
        self.hb_epoch += 1
        self.sim.later(delay, self.heartbeat, self.hb_epoch)

    def heartbeat(self, epoch: int, _b=None) -> None:
        if epoch != self.hb_epoch or not self.alive or self.paused or self.coord is None:
            return
        sim = self.sim
        if sim.cfg.debug_heartbeats:
            hb = self.hb_text
            if hb is None:
                hb = self.hb_text = (
                    f"{self.prefix}Sending Heartbeat request with generation {self.generation} and member id "
                    f"{self.member_id} to coordinator {self.node()}"
                )
            text, n = self.layout.line(
                sim.now + self.skew, "DEBUG", self.texts.coord_logger, self.hb_thread, hb
            )
            sim.write(self.path, text, n, self)
        sim.call(
            self,
            "heartbeat",
            None,
            member_id=self.member_id,
            generation=self.generation,
            group_instance_id=self.instance,
        )
        self.hb_count += 1
        if self.state == "stable" and self.hb_count % 2 == 0 and not self.stuck:
            sim.call(
                self,
                "commit_offsets",
                None,
                member_id=self.member_id,
                generation=self.generation,
                group_instance_id=self.instance,
            )
        if epoch == self.hb_epoch:
            sim.later(self.grp.heartbeat_ms + sim.rng.randint(-3, 3), self.heartbeat, epoch)

    def on_heartbeat(self, r) -> None:
        """A Heartbeat response: all fine, a rebalance to join, a lost membership or a lost coordinator."""
        err = r.error
        if err == "NONE":
            self._heartbeat_ok()
        elif err == "REBALANCE_IN_PROGRESS":
            self._heartbeat_rebalancing()
        elif err in ("UNKNOWN_MEMBER_ID", "ILLEGAL_GENERATION", "FENCED_INSTANCE_ID"):
            self._heartbeat_membership_lost(err)
        elif err in ("NOT_COORDINATOR", "COORDINATOR_NOT_AVAILABLE", "COORDINATOR_LOAD_IN_PROGRESS") and (
            self.coord is not None
        ):
            self._heartbeat_coordinator_lost(err)

    def _heartbeat_ok(self) -> None:
        """The DEBUG line of a successful heartbeat (only with ``debug_heartbeats``)."""
        if self.sim.cfg.debug_heartbeats:
            text, n = self.layout.line(
                self.sim.now + self.skew,
                "DEBUG",
                self.texts.coord_logger,
                self.hb_thread,
                f"{self.prefix}Received successful Heartbeat response",
            )
            self.sim.write(self.path, text, n, self)

    def _heartbeat_rebalancing(self) -> None:
        """REBALANCE_IN_PROGRESS to a stable member: it rejoins shortly (unless its poll loop is stuck)."""
        t = self.texts
        if self.state != "stable" or self.pending_rejoin:
            return
        self.pending_rejoin = True
        if t.v2:
            self.log(
                "INFO",
                t.coord_logger,
                "Attempt to heartbeat failed since group is rebalancing",
                thread=self.hb_thread,
            )
        else:
            self.log(
                "INFO",
                t.coord_logger,
                "Request joining group due to: group is already rebalancing",
                thread=self.hb_thread,
            )
        self.rejoin_reason = "group is already rebalancing"
        if not self.stuck:
            self.sim.later(self.sim.rng.randint(5, 400), self.rejoin_now, self.incarnation)

    def _heartbeat_membership_lost(self, err: str) -> None:
        """UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION reset the generation and rejoin; FENCED_INSTANCE_ID
        (another process with this group_instance_id) is fatal."""
        t = self.texts
        if self.state not in ("stable", "syncing"):
            return
        if err == "FENCED_INSTANCE_ID":
            self.log(
                "ERROR",
                t.coord_logger,
                f"Attempt to heartbeat failed since member id {self.member_id} is fenced by another instance of group instance id Optional[{self.instance}]",
                thread=self.hb_thread,
            )
            self.die()
            return
        inst = f"Optional[{self.instance}]" if self.instance else "Optional.empty"
        self.log(
            "INFO",
            t.coord_logger,
            f"Attempt to heartbeat with {self.gen_str()} and group instance id {inst} failed due to {err}, resetting generation",
            thread=self.hb_thread,
        )
        self.reset(f"encountered {err} from HEARTBEAT response", member_too=err == "UNKNOWN_MEMBER_ID")
        if not self.stuck:
            self.sim.later(self.sim.rng.randint(5, 300), self.rejoin_now, self.incarnation)

    def _heartbeat_coordinator_lost(self, err: str) -> None:
        """The coordinator moved or is loading: mark it unknown and rediscover."""
        self.log(
            "INFO",
            self.texts.coord_logger,
            f"Attempt to heartbeat failed since coordinator {self.node()} is either not started or not valid",
            thread=self.hb_thread,
        )
        self.lost_coordinator(err)

    def die(self, _a=None, _b=None) -> None:
        """The process is gone (crash: no lines at all)."""
        self.alive = False
        self.state = "down"
        self.hb_epoch += 1
        self.pending_rejoin = False
        self.sim.pending_ids.discard(self.member_id)


def tp_key(tp: str) -> tuple[str, int]:
    """``"orders.v1-3"`` -> ``("orders.v1", 3)``: the sort key of a topic-partition name."""
    t, _, p = tp.rpartition("-")
    return (t, int(p))
