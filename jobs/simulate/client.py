"""One classic consumer process of the cluster simulation (:mod:`jobs.simulate.cluster`): the membership
protocol of :class:`~jobs.simulate.client_protocol.ClientProtocol` (heartbeat thread and poll loop,
JoinGroup / SyncGroup / Heartbeat / LeaveGroup / OffsetCommit calls, the lines it logs), and the
behaviours scenarios inject (close, crash, GC-like pause, stuck poll loop)."""

from __future__ import annotations

from jobs.simulate import render_client as rc
from jobs.simulate.client_protocol import ClientProtocol, tp_key

__all__ = ["Client", "tp_key"]


class Client(ClientProtocol):
    """One consumer process on one host (slot); restarts reuse the slot with a new incarnation."""

    # ------------------------------------------------------------------ departures
    def close(self, _a=None, _b=None) -> None:
        """Graceful shutdown: revoke, LeaveGroup (dynamic members only), close lines."""
        if not self.alive:
            return
        t = self.texts
        if self.owned:
            self.log(
                "INFO", t.callback_logger, f"Revoke previously assigned partitions {', '.join(self.owned)}"
            )
            self.owned = []
        if self.instance is None and self.member_id and self.coord is not None:
            reason = "the consumer is being closed"
            self.log(
                "INFO",
                t.coord_logger,
                f"Member {self.member_id} sending LeaveGroup request to coordinator {self.node()} due to {reason}",
            )
            self.sim.call(
                self,
                "leave_group",
                ("member_leave", self.member_id),
                members=[(self.member_id, None, reason)],
            )
            if not t.v2:
                self.log(
                    "INFO",
                    t.coord_logger,
                    "Resetting generation and member id due to: consumer pro-actively leaving the group",
                )
                self.log(
                    "INFO",
                    t.coord_logger,
                    "Request joining group due to: consumer pro-actively leaving the group",
                )
        self.log_plain("INFO", "org.apache.kafka.common.metrics.Metrics", "Metrics scheduler closed")
        self.log_plain(
            "INFO",
            "org.apache.kafka.common.metrics.Metrics",
            "Closing reporter org.apache.kafka.common.metrics.JmxReporter",
        )
        self.log_plain("INFO", "org.apache.kafka.common.metrics.Metrics", "Metrics reporters closed")
        self.log_plain("INFO", rc.APPINFO, f"App info kafka.consumer for {self.client_id} unregistered")
        self.die()

    def pause(self, duration: int, _b=None) -> None:
        """A stop-the-world pause (GC, VM freeze): no heartbeats for ``duration`` ms."""
        if not self.alive:
            return
        self.paused = True
        self.hb_epoch += 1
        self.sim.later(duration, self.resume, self.incarnation)

    def resume(self, inc: int, _b=None) -> None:
        if inc != self.incarnation or not self.alive:
            return
        self.paused = False
        self.log(
            "WARN",
            f"com.example.{self.grp.app.replace('-', '')}.Health",
            "Detected a JVM pause; the application was unresponsive",
        )
        if self.state in ("stable", "syncing"):
            self.schedule_hb(1)
        elif self.state == "unjoined" or self.pending_rejoin:
            self.rejoin_now(self.incarnation)

    def get_stuck(self, duration: int, _b=None) -> None:
        """The poll loop blocks for ``duration`` ms (the heartbeat thread keeps running)."""
        if not self.alive or self.state != "stable":
            return
        self.stuck = True
        # max.poll.interval.ms: the Java client sends it as the JoinGroup rebalance timeout
        self.sim.later(self.grp.rebalance_ms, self.poll_timeout, self.incarnation)
        self.sim.later(duration, self.unstuck, self.incarnation)

    def poll_timeout(self, inc: int, _b=None) -> None:
        if inc != self.incarnation or not self.alive or not self.stuck or not self.member_id:
            return
        t = self.texts
        self.log("WARN", t.coord_logger, t.poll_timeout_warning(), thread=self.hb_thread)
        reason = t.poll_timeout_reason()
        if self.instance is None and self.coord is not None:
            self.log(
                "INFO",
                t.coord_logger,
                f"Member {self.member_id} sending LeaveGroup request to coordinator {self.node()} due to {reason}",
                thread=self.hb_thread,
            )
            self.sim.call(
                self,
                "leave_group",
                ("poll_timeout_leave", self.member_id),
                members=[(self.member_id, None, "consumer poll timeout has expired.")],
            )
            if not t.v2:
                self.log(
                    "INFO",
                    t.coord_logger,
                    "Resetting generation and member id due to: consumer pro-actively leaving the group",
                    thread=self.hb_thread,
                )
                self.log(
                    "INFO",
                    t.coord_logger,
                    "Request joining group due to: consumer pro-actively leaving the group",
                    thread=self.hb_thread,
                )
        self.generation = -1
        self.member_id = ""
        self.leader = False
        self.state = "unjoined"
        self.hb_epoch += 1

    def unstuck(self, inc: int, _b=None) -> None:
        if inc != self.incarnation or not self.alive:
            return
        self.stuck = False
        if self.state == "unjoined":
            if self.owned:
                self.log("INFO", rc.CC, self.texts.lost_all())
                self.log(
                    "INFO",
                    self.texts.callback_logger,
                    f"Lost previously assigned partitions {', '.join(self.owned)}",
                )
                self.owned = []
            self.rejoin_now(self.incarnation)
        elif self.pending_rejoin:
            self.rejoin_now(self.incarnation)
