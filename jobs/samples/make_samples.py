"""Writes the bundled sample logs (``jobs/samples/logs``) - run once; the output is committed.

Every line uses Kafka's exact formats (the dialect table, ``jobs/ingest/dialects.py``; README *Ingestion*):
a Scala 3.6 broker (``[GroupCoordinator 1]: ...``) for cluster ``prod-eu`` and Java 4.0 brokers
(``[GroupCoordinator id=N topic=__consumer_offsets partition=P] ...``) for ``prod-us``; consumer logs
in log4j (Kafka's ``[%d] %p %m (%c)%n``), Spring Boot and JSON (logstash) layouts.  The scenarios and
the expected rebalances are in ``EXPECTED.md``.  Run: ``python -m jobs.samples.make_samples``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os

from coordinator_core.placement import partition_for

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logs")
DAY = dt.datetime(2024, 5, 14)
GC_SCALA = "kafka.coordinator.group.GroupCoordinator"
GMM_JAVA = "org.apache.kafka.coordinator.group.GroupMetadataManager"
RUNTIME_JAVA = "org.apache.kafka.coordinator.common.runtime.CoordinatorRuntime"
CC = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"
INVOKER = "org.apache.kafka.clients.consumer.internals.ConsumerRebalanceListenerInvoker"
LEAVE = "`LeaveGroup`"
#: each group's __consumer_offsets partition (Java's abs(hashCode) % 50, as the coordinator places it)
P = {g: partition_for(g, 50) for g in ("orders", "payments", "inventory", "shipping", "billing")}


def uid(name: str) -> str:
    h = hashlib.md5(name.encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def mid(client_id: str, incarnation: int = 0) -> str:
    return f"{client_id}-{uid(f'{client_id}/{incarnation}')}"


def t(hms: str) -> dt.datetime:
    h, m, s = hms.split(":")
    sec, _, ms = s.partition(".")
    return DAY.replace(hour=int(h), minute=int(m), second=int(sec), microsecond=int(ms or 0) * 1000)


def log4j_ts(ts: dt.datetime) -> str:
    return ts.strftime("%Y-%m-%d %H:%M:%S,") + f"{ts.microsecond // 1000:03d}"


class File:
    def __init__(self, path: str):
        self.path = os.path.join(OUT, path)
        self.lines: list[tuple[dt.datetime, int, str]] = []

    def add(self, ts: dt.datetime, line: str) -> None:
        self.lines.append((ts, len(self.lines), line))

    def write(self) -> None:
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        with open(self.path, "w", encoding="utf-8") as fh:
            for _, _, line in sorted(self.lines):
                fh.write(line + "\n")


# ------------------------------------------------------------------------------------------ brokers


class ScalaBroker(File):
    """Kafka 3.6 Scala GroupCoordinator, default log4j layout."""

    def __init__(self, path: str, broker_id: int):
        super().__init__(path)
        self.id = broker_id

    def gc(self, ts, msg, level="INFO"):
        self.add(ts, f"[{log4j_ts(ts)}] {level} [GroupCoordinator {self.id}]: {msg} ({GC_SCALA})")

    def other(self, ts, msg, logger, level="INFO"):
        self.add(ts, f"[{log4j_ts(ts)}] {level} {msg} ({logger})")

    def new_dynamic(self, ts, g, state, m):
        self.gc(ts, f"Dynamic member with unknown member id joins group {g} in {state} state. Created a new "
                    f"member id {m} and request the member to rejoin with this id.")  # fmt: skip

    def prepare(self, ts, g, old_gen, reason):
        self.gc(ts, f"Preparing to rebalance group {g} in state PreparingRebalance with old generation "
                    f"{old_gen} (__consumer_offsets-{P[g]}) (reason: {reason})")  # fmt: skip

    def stabilized(self, ts, g, gen, n):
        self.gc(ts, f"Stabilized group {g} generation {gen} (__consumer_offsets-{P[g]}) with {n} members")

    def assignment(self, ts, g, leader, gen, n, static=0):
        self.gc(ts, f"Assignment received from leader {leader} for group {g} for generation {gen}. "
                    f"The group has {n} members, {static} of which are static.")  # fmt: skip

    def left(self, ts, g, m, client_id, host, reason):
        meta = (f"MemberMetadata(memberId={m}, groupInstanceId=None, clientId={client_id}, clientHost={host}, "
                f"sessionTimeoutMs=45000, rebalanceTimeoutMs=300000, supportedProtocols=List(range))")  # fmt: skip
        self.gc(ts, f"Member {meta} has left group {g} through explicit {LEAVE}; client reason: {reason}")

    def failed(self, ts, g, m):
        self.gc(ts, f"Member {m} in group {g} has failed, removing it from the group")


class JavaBroker(File):
    """Kafka 4.0 Java group coordinator (GroupMetadataManager), log4j2 `[%d] %p %m (%c)%n`."""

    def __init__(self, path: str, broker_id: int):
        super().__init__(path)
        self.id = broker_id

    def gmm(self, ts, g, msg, level="INFO"):
        prefix = f"[GroupCoordinator id={self.id} topic=__consumer_offsets partition={P[g]}]"
        self.add(ts, f"[{log4j_ts(ts)}] {level} {prefix} {msg} ({GMM_JAVA})")

    def runtime(self, ts, msg):
        self.add(ts, f"[{log4j_ts(ts)}] INFO [GroupCoordinator id={self.id}] {msg} ({RUNTIME_JAVA})")

    def new_dynamic(self, ts, g, state, m):
        self.gmm(ts, g, f"Dynamic member with unknown member id joins group {g} in {state} state. Created a new "
                        f"member id {m} and requesting the member to rejoin with this id.")  # fmt: skip

    def pending_join(self, ts, g, state, m):
        self.gmm(
            ts,
            g,
            f"Pending dynamic member with id {m} joins group {g} in {state} state. Adding to the group now.",
        )

    def new_static(self, ts, g, state, iid, m):
        self.gmm(ts, g, f"Static member with groupInstanceId={iid} and unknown member id joins group {g} in "
                        f"{state} state. Created a new member id {m} for this member and added to the group.")  # fmt: skip

    def static_replaced(self, ts, g, state, iid, old):
        self.gmm(ts, g, f"Static member with groupInstanceId={iid} and unknown member id joins group {g} in "
                        f"{state} state. Replacing previously mapped member {old} with this groupInstanceId.")  # fmt: skip

    def static_no_rebalance(self, ts, g):
        self.gmm(ts, g, "Static member which joins during Stable stage and doesn't affect the selected protocol "
                        "will not trigger a rebalance.")  # fmt: skip

    def prepare(self, ts, g, old_gen, reason):
        self.gmm(ts, g, f"Preparing to rebalance group {g} in state PreparingRebalance with old generation "
                        f"{old_gen} (reason: {reason}).")  # fmt: skip

    def stabilized(self, ts, g, gen, n):
        self.gmm(ts, g, f"Stabilized group {g} generation {gen} with {n} members.")

    def assignment(self, ts, g, leader, gen, n, static=0):
        self.gmm(ts, g, f"Assignment received from leader {leader} for group {g} for generation {gen}. "
                        f"The group has {n} members, {static} of which are static.")  # fmt: skip


# ------------------------------------------------------------------------------------------ clients


class Log4jClient(File):
    """A consumer app using Kafka's own log4j layout (3.7+ client: callbacks by the invoker)."""

    def line(self, ts, cid, g, msg, level="INFO", logger=CC, iid=None):
        ctx = f"[Consumer {'instanceId=' + iid + ', ' if iid else ''}clientId={cid}, groupId={g}]"
        self.add(ts, f"[{log4j_ts(ts)}] {level} {ctx} {msg} ({logger})")


class SpringClient(File):
    """A Spring Boot 2 app (logback console pattern, abbreviated logger names)."""

    def line(self, ts, cid, g, msg, level="INFO", logger="o.a.k.c.c.internals.ConsumerCoordinator",
             thread="ntainer#0-0-C-1"):  # fmt: skip
        stamp = ts.strftime("%Y-%m-%d %H:%M:%S.") + f"{ts.microsecond // 1000:03d}"
        self.add(ts, f"{stamp} {level:>5} 4242 --- [{thread:>15}] {logger:<40} : "
                     f"[Consumer clientId={cid}, groupId={g}] {msg}")  # fmt: skip


class JsonClient(File):
    """A service logging JSON lines (logstash-logback-encoder)."""

    def line(self, ts, cid, g, msg, level="INFO", logger=CC, iid=None):
        ctx = f"[Consumer {'instanceId=' + iid + ', ' if iid else ''}clientId={cid}, groupId={g}]"
        stamp = ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}Z"
        rec = {"@timestamp": stamp, "@version": "1", "message": f"{ctx} {msg}", "logger_name": logger,
               "thread_name": "main", "level": level, "level_value": 20000}  # fmt: skip
        self.add(ts, json.dumps(rec, separators=(",", ":")))


def gen_str(gen: int, m: str, proto: str = "range") -> str:
    return f"Generation{{generationId={gen}, memberId='{m}', protocol='{proto}'}}"


def node(host: str, broker: int) -> str:
    return f"{host}:9092 (id: {2147483647 - broker} rack: null)"


# ------------------------------------------------------------------------------------------ prod-eu

ORDERS_CLIENT = {i: f"consumer-orders-{i}" for i in (1, 2, 3)}
ORDERS_HOST = {1: "/10.0.1.11", 2: "/10.0.1.12", 3: "/10.0.1.13"}
PAYMENTS_CLIENT = {1: "consumer-payments-1", 2: "consumer-payments-2"}


def prod_eu() -> list[File]:
    """Cluster prod-eu: one Scala broker; orders' rolling restart, payments' poll timeout, inventory's crash."""
    b1 = ScalaBroker("prod-eu/broker-1/server.log", 1)
    b1.other(t("08:59:58.000"), "[KafkaServer id=1] started", "kafka.server.KafkaServer")
    b1.other(t("08:59:58.412"), "[GroupMetadataManager brokerId=1] Finished loading offsets and group metadata "
             "from __consumer_offsets-31 in 12 milliseconds for epoch 4, of which 1 milliseconds was spent in "
             "the scheduler.", "kafka.coordinator.group.GroupMetadataManager")  # fmt: skip
    app = Log4jClient("prod-eu/apps/orders-consumer-1.log")
    orders = orders_formed(b1, app)
    orders_rolling_restart(b1, app, orders)
    spring = SpringClient("prod-eu/apps/payments-service.log")
    payments = payments_formed(b1, spring)
    payments_poll_timeout(b1, spring, payments)
    inventory_crash(b1)
    return [b1, app, spring]


def orders_formed(b1: ScalaBroker, app: Log4jClient) -> dict[int, str]:
    """orders: 3 dynamic members form the group (generation 1); returns their member ids."""
    c = ORDERS_CLIENT
    m = {i: mid(c[i]) for i in (1, 2, 3)}
    b1.new_dynamic(t("09:00:00.102"), "orders", "Empty", m[1])
    b1.prepare(t("09:00:00.108"), "orders", 0, f"Adding new member {m[1]} with group instance id None; client "
               f"reason: need to re-join with the given member-id: {m[1]}")  # fmt: skip
    b1.new_dynamic(t("09:00:00.511"), "orders", "PreparingRebalance", m[2])
    b1.new_dynamic(t("09:00:01.204"), "orders", "PreparingRebalance", m[3])
    b1.stabilized(t("09:00:04.210"), "orders", 1, 3)
    b1.assignment(t("09:00:04.225"), "orders", m[1], 1, 3)
    app.line(t("09:00:00.051"), c[1], "orders", f"Discovered group coordinator {node('kafka-1.eu', 1)}")
    app.line(t("09:00:00.055"), c[1], "orders", "(Re-)joining group")
    app.line(t("09:00:00.104"), c[1], "orders", f"Request joining group due to: need to re-join with the given "
             f"member-id: {m[1]}")  # fmt: skip
    app.line(t("09:00:00.105"), c[1], "orders", "(Re-)joining group")
    app.line(
        t("09:00:04.215"), c[1], "orders", f"Successfully joined group with generation {gen_str(1, m[1])}"
    )
    app.line(t("09:00:04.221"), c[1], "orders", "Finished assignment for group at generation 1: "
             f"{{{m[1]}=Assignment(partitions=[orders-0, orders-1]), {m[2]}=Assignment(partitions=[orders-2, "
             f"orders-3]), {m[3]}=Assignment(partitions=[orders-4, orders-5])}}")  # fmt: skip
    app.line(t("09:00:04.229"), c[1], "orders", f"Successfully synced group in generation {gen_str(1, m[1])}")
    app.line(t("09:00:04.230"), c[1], "orders", "Notifying assignor about the new Assignment(partitions=[orders-0, "
             "orders-1])")  # fmt: skip
    app.line(
        t("09:00:04.231"),
        c[1],
        "orders",
        "Adding newly assigned partitions: orders-0, orders-1",
        logger=INVOKER,
    )
    return m


def orders_rolling_restart(b1: ScalaBroker, app: Log4jClient, m: dict[int, str]) -> None:
    """orders at 10:00: each pod closes (LeaveGroup) and comes back 35 s later with a new member id
    (``m`` is updated); two rebalances per pod, a storm."""
    gen, leader = 1, m[1]
    clock = {1: "10:00:00", 2: "10:01:30", 3: "10:03:00"}
    back = {1: "10:00:35", 2: "10:02:05", 3: "10:03:35"}
    for i in (1, 2, 3):
        old = m[i]
        if old == leader:
            leader = m[2] if i != 2 else m[3]
        gen = orders_pod_leaves(b1, app, i, old, t(clock[i] + ".000"), gen, leader)
        m[i] = mid(ORDERS_CLIENT[i], 1)
        gen = orders_pod_returns(b1, app, i, m[i], t(back[i] + ".000"), gen, leader)


def orders_pod_leaves(
    b1: ScalaBroker, app: Log4jClient, i: int, old: str, base: dt.datetime, gen: int, leader: str
) -> int:
    """Pod ``i`` closes: LeaveGroup and a rebalance of the 2 others; returns the new generation."""
    c = ORDERS_CLIENT
    if i == 1:
        app.line(base + dt.timedelta(milliseconds=1), c[1], "orders",
                 "Revoke previously assigned partitions orders-0, orders-1", logger=INVOKER)  # fmt: skip
        app.line(base + dt.timedelta(milliseconds=3), c[1], "orders", f"Member {old} sending LeaveGroup request "
                 f"to coordinator {node('kafka-1.eu', 1)} due to the consumer is being closed")  # fmt: skip
        app.line(base + dt.timedelta(milliseconds=4), c[1], "orders", "Resetting generation and member id due "
                 "to: consumer pro-actively leaving the group")  # fmt: skip
    b1.left(
        base + dt.timedelta(milliseconds=6),
        "orders",
        old,
        c[i],
        ORDERS_HOST[i],
        "the consumer is being closed",
    )
    b1.prepare(base + dt.timedelta(milliseconds=7), "orders", gen, f"Removing member {old} on LeaveGroup; client "
               "reason: the consumer is being closed")  # fmt: skip
    gen += 1
    b1.stabilized(base + dt.timedelta(milliseconds=2950), "orders", gen, 2)
    b1.assignment(base + dt.timedelta(milliseconds=2961), "orders", leader, gen, 2)
    return gen


def orders_pod_returns(
    b1: ScalaBroker, app: Log4jClient, i: int, new: str, ret: dt.datetime, gen: int, leader: str
) -> int:
    """Pod ``i`` is back as member ``new``: a rebalance to 3 members; returns the new generation."""
    c = ORDERS_CLIENT
    b1.new_dynamic(ret + dt.timedelta(milliseconds=210), "orders", "Stable", new)
    b1.prepare(ret + dt.timedelta(milliseconds=214), "orders", gen, f"Adding new member {new} with group instance "
               f"id None; client reason: need to re-join with the given member-id: {new}")  # fmt: skip
    gen += 1
    b1.stabilized(ret + dt.timedelta(milliseconds=2890), "orders", gen, 3)
    b1.assignment(ret + dt.timedelta(milliseconds=2904), "orders", leader, gen, 3)
    if i == 1:
        app.line(ret + dt.timedelta(milliseconds=120), c[1], "orders",
                 f"Discovered group coordinator {node('kafka-1.eu', 1)}")  # fmt: skip
        app.line(ret + dt.timedelta(milliseconds=125), c[1], "orders", "(Re-)joining group")
        app.line(ret + dt.timedelta(milliseconds=212), c[1], "orders", "Request joining group due to: need to "
                 f"re-join with the given member-id: {new}")  # fmt: skip
        app.line(ret + dt.timedelta(milliseconds=213), c[1], "orders", "(Re-)joining group")
        app.line(ret + dt.timedelta(milliseconds=2895), c[1], "orders",
                 f"Successfully joined group with generation {gen_str(gen, new)}")  # fmt: skip
        app.line(ret + dt.timedelta(milliseconds=2910), c[1], "orders",
                 f"Successfully synced group in generation {gen_str(gen, new)}")  # fmt: skip
        app.line(ret + dt.timedelta(milliseconds=2911), c[1], "orders",
                 "Notifying assignor about the new Assignment(partitions=[orders-4, orders-5])")  # fmt: skip
        app.line(ret + dt.timedelta(milliseconds=2912), c[1], "orders",
                 "Adding newly assigned partitions: orders-4, orders-5", logger=INVOKER)  # fmt: skip
    return gen


def payments_formed(b1: ScalaBroker, spring: SpringClient) -> dict[int, str]:
    """payments: 2 members form the group (generation 1); returns their member ids."""
    pc = PAYMENTS_CLIENT
    pm = {1: mid(pc[1]), 2: mid(pc[2])}
    b1.new_dynamic(t("09:05:00.300"), "payments", "Empty", pm[1])
    b1.prepare(t("09:05:00.305"), "payments", 0, f"Adding new member {pm[1]} with group instance id None; client "
               f"reason: need to re-join with the given member-id: {pm[1]}")  # fmt: skip
    b1.new_dynamic(t("09:05:00.900"), "payments", "PreparingRebalance", pm[2])
    b1.stabilized(t("09:05:03.910"), "payments", 1, 2)
    b1.assignment(t("09:05:03.930"), "payments", pm[1], 1, 2)
    spring.line(t("09:05:00.250"), pc[1], "payments", f"Discovered group coordinator {node('kafka-1.eu', 1)}")
    spring.line(t("09:05:00.260"), pc[1], "payments", "(Re-)joining group")
    spring.line(
        t("09:05:03.915"), pc[1], "payments", f"Successfully joined group with generation {gen_str(1, pm[1])}"
    )
    spring.line(
        t("09:05:03.940"), pc[1], "payments", f"Successfully synced group in generation {gen_str(1, pm[1])}"
    )
    spring.line(t("09:05:03.941"), pc[1], "payments",
                "Adding newly assigned partitions: payments-0, payments-1, payments-2", logger=INVOKER.replace(
                    "org.apache.kafka.clients.consumer.internals", "o.a.k.c.c.internals"))  # fmt: skip
    return pm


def payments_poll_timeout(b1: ScalaBroker, spring: SpringClient, pm: dict[int, str]) -> None:
    """payments at 11:20: member 1 exceeds max.poll.interval.ms (its heartbeat thread leaves), rejoins
    70 s later with a new member id."""
    pc = PAYMENTS_CLIENT
    hb = "kafka-coordinator-heartbeat-thread | payments"
    spring.line(t("11:20:00.412"), pc[1], "payments", "consumer poll timeout has expired. This means the time between "
                "subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically "
                "implies that the poll loop is spending too much time processing messages. You can address this "
                "either by increasing max.poll.interval.ms or by reducing the maximum size of batches returned in "
                "poll() with max.poll.records.", level="WARN", thread=hb)  # fmt: skip
    spring.line(t("11:20:00.413"), pc[1], "payments", f"Member {pm[1]} sending LeaveGroup request to coordinator "
                f"{node('kafka-1.eu', 1)} due to consumer poll timeout has expired.", thread=hb)  # fmt: skip
    b1.left(t("11:20:00.420"), "payments", pm[1], pc[1], "/10.0.2.21", "consumer poll timeout has expired.")
    b1.prepare(t("11:20:00.421"), "payments", 1, f"Removing member {pm[1]} on LeaveGroup; client reason: consumer "
               "poll timeout has expired.")  # fmt: skip
    b1.stabilized(t("11:20:02.800"), "payments", 2, 1)
    b1.assignment(t("11:20:02.812"), "payments", pm[2], 2, 1)
    pm1b = mid(pc[1], 1)
    spring.line(t("11:21:10.101"), pc[1], "payments", "(Re-)joining group")
    b1.new_dynamic(t("11:21:10.110"), "payments", "Stable", pm1b)
    b1.prepare(t("11:21:10.114"), "payments", 2, f"Adding new member {pm1b} with group instance id None; client "
               f"reason: need to re-join with the given member-id: {pm1b}")  # fmt: skip
    b1.stabilized(t("11:21:12.950"), "payments", 3, 2)
    b1.assignment(t("11:21:12.960"), "payments", pm[2], 3, 2)
    spring.line(t("11:21:12.955"), pc[1], "payments",
                f"Successfully joined group with generation {gen_str(3, pm1b)}")  # fmt: skip


def inventory_crash(b1: ScalaBroker) -> None:
    """inventory: 3 members; member 2 crashes at 13:00:00 (kill -9), expires after 45 s (broker lines only)."""
    im = {i: mid(f"consumer-inventory-{i}") for i in (1, 2, 3)}
    b1.new_dynamic(t("09:10:00.010"), "inventory", "Empty", im[1])
    b1.prepare(t("09:10:00.015"), "inventory", 0, f"Adding new member {im[1]} with group instance id None; client "
               f"reason: need to re-join with the given member-id: {im[1]}")  # fmt: skip
    b1.new_dynamic(t("09:10:00.400"), "inventory", "PreparingRebalance", im[2])
    b1.new_dynamic(t("09:10:00.800"), "inventory", "PreparingRebalance", im[3])
    b1.stabilized(t("09:10:03.810"), "inventory", 1, 3)
    b1.assignment(t("09:10:03.822"), "inventory", im[1], 1, 3)
    b1.failed(t("13:00:45.003"), "inventory", im[2])
    b1.prepare(t("13:00:45.004"), "inventory", 1, f"removing member {im[2]} on heartbeat expiration")
    b1.stabilized(t("13:00:47.950"), "inventory", 2, 2)
    b1.assignment(t("13:00:47.961"), "inventory", im[1], 2, 2)


# ------------------------------------------------------------------------------------------ prod-us

#: shipping's static members: group.instance.id shipping-0..3 and their client ids
SHIPPING_INSTANCE = {i: f"shipping-{i}" for i in range(4)}
SHIPPING_CLIENT = {i: f"consumer-shipping-shipping-{i}" for i in range(4)}


def prod_us() -> list[File]:
    """Cluster prod-us: two Java 4.0 brokers; shipping's static restart and scale-up, billing's failover."""
    b2 = JavaBroker("prod-us/broker-2/server.log", 2)
    b3 = JavaBroker("prod-us/broker-3/server.log", 3)
    js = JsonClient("prod-us/apps/shipping-1.json.log")
    shipping = shipping_formed(b2, js)
    shipping_static_restart(b2, js, shipping)
    shipping_scale_up(b2, shipping)
    billing = billing_formed(b2)
    billing_failover(b2, b3)
    billing_joins_on_new_coordinator(b3, billing)
    return [b2, b3, js]


def shipping_formed(b2: JavaBroker, js: JsonClient) -> dict[int, str]:
    """shipping: 3 static members (group.instance.id shipping-0..2) form the group; returns the member ids
    of shipping-0..3."""
    sid, scid = SHIPPING_INSTANCE, SHIPPING_CLIENT
    # static members' ids are <group.instance.id>-<uuid> (GroupMetadata.generateMemberId, 2.3.0+)
    sm = {i: mid(sid[i]) for i in range(4)}
    b2.new_static(t("09:00:00.210"), "shipping", "Empty", sid[0], sm[0])
    b2.prepare(t("09:00:00.213"), "shipping", 0, f"Adding new member {sm[0]} with group instance id {sid[0]}; "
               "client reason: not provided")  # fmt: skip
    b2.new_static(t("09:00:00.650"), "shipping", "PreparingRebalance", sid[1], sm[1])
    b2.new_static(t("09:00:01.020"), "shipping", "PreparingRebalance", sid[2], sm[2])
    b2.stabilized(t("09:00:04.030"), "shipping", 1, 3)
    b2.assignment(t("09:00:04.047"), "shipping", sm[0], 1, 3, 3)
    js.line(
        t("09:00:00.600"),
        scid[1],
        "shipping",
        f"Discovered group coordinator {node('kafka-2.us', 2)}",
        iid=sid[1],
    )
    js.line(t("09:00:00.602"), scid[1], "shipping", "(Re-)joining group", iid=sid[1])
    js.line(t("09:00:04.035"), scid[1], "shipping", f"Successfully joined group with generation {gen_str(1, sm[1])}",
            iid=sid[1])  # fmt: skip
    js.line(t("09:00:04.060"), scid[1], "shipping", f"Successfully synced group in generation {gen_str(1, sm[1])}",
            iid=sid[1])  # fmt: skip
    js.line(t("09:00:04.061"), scid[1], "shipping", "Notifying assignor about the new Assignment(partitions=["
            "shipments-2, shipments-3])", iid=sid[1])  # fmt: skip
    js.line(t("09:00:04.062"), scid[1], "shipping", "Adding newly assigned partitions: shipments-2, shipments-3",
            logger=INVOKER, iid=sid[1])  # fmt: skip
    return sm


def shipping_static_restart(b2: JavaBroker, js: JsonClient, sm: dict[int, str]) -> None:
    """shipping at 12:00: shipping-1's pod restarts within the session timeout: static member replaced,
    no rebalance."""
    sid, scid = SHIPPING_INSTANCE, SHIPPING_CLIENT
    sm1b = mid(sid[1], 1)
    js.line(
        t("12:00:20.101"),
        scid[1],
        "shipping",
        f"Discovered group coordinator {node('kafka-2.us', 2)}",
        iid=sid[1],
    )
    js.line(t("12:00:20.105"), scid[1], "shipping", "(Re-)joining group", iid=sid[1])
    b2.static_replaced(t("12:00:20.110"), "shipping", "Stable", sid[1], sm[1])
    b2.static_no_rebalance(t("12:00:20.111"), "shipping")
    js.line(t("12:00:20.120"), scid[1], "shipping", f"Successfully joined group with generation {gen_str(1, sm1b)}",
            iid=sid[1])  # fmt: skip
    js.line(t("12:00:20.131"), scid[1], "shipping", f"Successfully synced group in generation {gen_str(1, sm1b)}",
            iid=sid[1])  # fmt: skip
    js.line(t("12:00:20.133"), scid[1], "shipping", "Adding newly assigned partitions: shipments-2, shipments-3",
            logger=INVOKER, iid=sid[1])  # fmt: skip


def shipping_scale_up(b2: JavaBroker, sm: dict[int, str]) -> None:
    """shipping at 14:30: a 4th static member joins -> one rebalance."""
    sid = SHIPPING_INSTANCE
    b2.new_static(t("14:30:00.500"), "shipping", "Stable", sid[3], sm[3])
    b2.prepare(t("14:30:00.503"), "shipping", 1, f"Adding new member {sm[3]} with group instance id {sid[3]}; "
               "client reason: not provided")  # fmt: skip
    b2.stabilized(t("14:30:03.400"), "shipping", 2, 4)
    b2.assignment(t("14:30:03.415"), "shipping", sm[0], 2, 4, 4)


def billing_formed(b2: JavaBroker) -> dict[int, str]:
    """billing: 2 dynamic members form the group on broker 2; returns the member ids of members 1..3."""
    bc = {i: f"consumer-billing-{i}" for i in (1, 2, 3)}
    bm = {i: mid(bc[i]) for i in (1, 2, 3)}
    b2.new_dynamic(t("09:30:00.100"), "billing", "Empty", bm[1])
    b2.pending_join(t("09:30:00.160"), "billing", "Empty", bm[1])
    b2.prepare(t("09:30:00.161"), "billing", 0, f"Adding new member {bm[1]} with group instance id null; client "
               f"reason: need to re-join with the given member-id: {bm[1]}")  # fmt: skip
    b2.new_dynamic(t("09:30:01.000"), "billing", "PreparingRebalance", bm[2])
    b2.pending_join(t("09:30:01.050"), "billing", "PreparingRebalance", bm[2])
    b2.stabilized(t("09:30:04.060"), "billing", 1, 2)
    b2.assignment(t("09:30:04.075"), "billing", bm[1], 1, 2)
    return bm


def billing_failover(b2: JavaBroker, b3: JavaBroker) -> None:
    """billing at 15:00: the coordinator moves from broker 2 to broker 3 (no rebalance)."""
    b2.runtime(
        t("15:00:00.010"),
        f"Scheduling unloading of metadata for __consumer_offsets-{P['billing']} with epoch 7",
    )
    b2.gmm(t("15:00:00.012"), "billing", "[GroupId=billing] Unloading group metadata for generation 1.")
    b3.runtime(
        t("15:00:00.200"),
        f"Scheduling loading of metadata from __consumer_offsets-{P['billing']} with epoch 8",
    )
    b3.gmm(t("15:00:00.245"), "billing", "Loaded classic group billing with 2 members.")
    b3.runtime(t("15:00:00.246"), f"Finished loading of metadata from __consumer_offsets-{P['billing']} with epoch 8 "
               "in 46ms where 1ms was spent in the scheduler. Loaded 14 records which total to 3120 bytes.")  # fmt: skip


def billing_joins_on_new_coordinator(b3: JavaBroker, bm: dict[int, str]) -> None:
    """billing at 15:20: a third member joins on broker 3 -> one rebalance."""
    b3.new_dynamic(t("15:20:00.300"), "billing", "Stable", bm[3])
    b3.pending_join(t("15:20:00.352"), "billing", "Stable", bm[3])
    b3.prepare(t("15:20:00.353"), "billing", 1, f"Adding new member {bm[3]} with group instance id null; client "
               f"reason: need to re-join with the given member-id: {bm[3]}")  # fmt: skip
    b3.stabilized(t("15:20:03.100"), "billing", 2, 3)
    b3.assignment(t("15:20:03.118"), "billing", bm[1], 2, 3)


def main() -> None:
    for f in prod_eu() + prod_us():
        f.write()
        print(f"wrote {f.path} ({len(f.lines)} lines)")


if __name__ == "__main__":
    main()
