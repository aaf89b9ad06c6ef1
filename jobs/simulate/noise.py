"""Unrelated log lines: broker housekeeping (log roll/cleaner, replica fetcher, controller, ISR),
application lines in client logs, and occasional multi-line Java stack traces."""

from __future__ import annotations

import random

TOPICS = ("orders", "payments", "clicks", "inventory", "audit-log", "shipments", "invoices", "sessions")

BROKER_STACK = (
    "java.io.IOException: Connection to {peer} was disconnected before the response was read\n"
    "\tat org.apache.kafka.clients.NetworkClientUtils.sendAndReceive(NetworkClientUtils.java:100)\n"
    "\tat kafka.server.BrokerBlockingSender.sendRequest(BrokerBlockingSender.scala:114)\n"
    "\tat kafka.server.RemoteLeaderEndPoint.fetch(RemoteLeaderEndPoint.scala:79)\n"
    "\tat kafka.server.AbstractFetcherThread.processFetchRequest(AbstractFetcherThread.scala:320)\n"
    "\tat kafka.server.AbstractFetcherThread.$anonfun$maybeFetch$3(AbstractFetcherThread.scala:137)\n"
    "\tat kafka.server.AbstractFetcherThread.maybeFetch(AbstractFetcherThread.scala:136)\n"
    "\tat kafka.server.AbstractFetcherThread.doWork(AbstractFetcherThread.scala:119)\n"
    "\tat org.apache.kafka.server.util.ShutdownableThread.run(ShutdownableThread.java:135)"
)

CLIENT_STACK = (
    "org.springframework.kafka.listener.ListenerExecutionFailedException: Listener method threw exception\n"
    "\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.decorateException(KafkaMessageListenerContainer.java:2996)\n"
    "\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.doInvokeOnMessage(KafkaMessageListenerContainer.java:2902)\n"
    "\tat org.springframework.kafka.listener.KafkaMessageListenerContainer$ListenerConsumer.run(KafkaMessageListenerContainer.java:1325)\n"
    "\tat java.base/java.lang.Thread.run(Thread.java:1583)\n"
    "Caused by: java.lang.IllegalStateException: downstream service returned 503 for record {offset}\n"
    "\tat com.example.{app}.RecordHandler.handle(RecordHandler.java:88)\n"
    "\tat com.example.{app}.Listener.onMessage(Listener.java:41)\n"
    "\t... 4 common frames omitted"
)


class BrokerNoise:
    """Random broker housekeeping lines ``(level, logger, message, stack)`` for broker ``b``."""

    def __init__(self, rng: random.Random, brokers: list[int], stack_rate: float) -> None:
        self.rng = rng
        self.brokers = brokers
        self.stack_rate = stack_rate

    def line(self, b: int) -> tuple[str, str, str, str | None]:
        """One line of broker ``b``: now and then a replica fetcher error with its stack trace, else
        log layer or replication housekeeping."""
        r = self.rng
        t = r.choice(TOPICS)
        p = r.randrange(24)
        off = r.randrange(10_000, 90_000_000)
        k = r.randrange(8)
        if r.random() < self.stack_rate:
            return self._fetch_error(b)
        if k < 5:
            return self._log_layer(k, f"{t}-{p}", off)
        return self._replication(k, b, f"{t}-{p}")

    def _fetch_error(self, b: int) -> tuple[str, str, str, str | None]:
        """The replica fetcher of ``b`` lost its connection to the leader (a WARN with a stack trace)."""
        peer = self.rng.choice([x for x in self.brokers if x != b] or [b])
        msg = (
            f"[ReplicaFetcher replicaId={b}, leaderId={peer}, fetcherId=0] Error in response for fetch request "
            f"(type=FetchRequest, replicaId={b}, maxWait=500, minBytes=1, maxBytes=10485760, fetchData={{}}, "
            "isolationLevel=READ_UNCOMMITTED, removed=, replaced=, metadata=(sessionId=INVALID, epoch=INITIAL), rackId=)"
        )
        return "WARN", "kafka.server.ReplicaFetcherThread", msg, BROKER_STACK.format(peer=peer)

    def _log_layer(self, k: int, tp: str, off: int) -> tuple[str, str, str, str | None]:
        """Log layer line ``k`` (0-4) of partition ``tp``: segment roll, producer snapshot, segment
        deletion, retention breach, log cleaner."""
        r = self.rng
        if k == 0:
            logger = "kafka.log.LocalLog"
            msg = f"[LocalLog partition={tp}, dir=/var/lib/kafka/data] Rolled new log segment at offset {off} in {r.randrange(1, 9)} ms."
        elif k == 1:
            logger = "kafka.log.ProducerStateManager"
            msg = f"[ProducerStateManager partition={tp}] Wrote producer snapshot at offset {off} with {r.randrange(0, 4)} producer ids in {r.randrange(1, 5)} ms."
        elif k == 2:
            logger = "kafka.log.LogSegment"
            msg = f"Deleted log /var/lib/kafka/data/{tp}/{off - 5_000_000 if off > 5_000_000 else 0:020d}.log.deleted."
        elif k == 3:
            logger = "kafka.log.UnifiedLog$"
            msg = f"[UnifiedLog partition={tp}, dir=/var/lib/kafka/data] Deleting segment LogSegment(baseOffset={off}, size={r.randrange(1 << 20, 1 << 30)}, lastModifiedTime=1767225600000, largestRecordTimestamp=1767225599000) due to log retention time 604800000ms breach based on the largest record timestamp in the segment"
        else:
            logger = "kafka.log.LogCleaner"
            msg = f"[kafka-log-cleaner-thread-0]: \tLog cleaner thread 0 cleaned log __consumer_offsets-{r.randrange(50)} (dirty section = [{off}, {off + r.randrange(100, 9000)}])"
        return "INFO", logger, msg, None

    def _replication(self, k: int, b: int, tp: str) -> tuple[str, str, str, str | None]:
        """Replication line ``k`` (5-7) of broker ``b``: ISR update, fetcher removed, lifecycle state."""
        if k == 5:
            logger = "kafka.cluster.Partition"
            isr = ",".join(str(x) for x in self.brokers)
            msg = f"[Partition {tp} broker={b}] ISR updated to {isr} and version updated to {self.rng.randrange(2, 900)}"
        elif k == 6:
            logger = "kafka.server.ReplicaFetcherManager"
            msg = f"[ReplicaFetcherManager on broker {b}] Removed fetcher for partitions Set({tp})"
        else:
            logger = "kafka.server.BrokerLifecycleManager"
            msg = f"[BrokerLifecycleManager id={b}] The broker is in RUNNING state."
        return "INFO", logger, msg, None


class ClientNoise:
    """Application lines of a consumer host."""

    def __init__(self, rng: random.Random, app: str, stack_rate: float) -> None:
        self.rng = rng
        self.app = app
        self.pkg = "com.example." + app.replace("-", "")
        self.stack_rate = stack_rate

    def line(self) -> tuple[str, str, str, str | None]:
        r = self.rng
        if r.random() < self.stack_rate:
            off = r.randrange(1, 10**8)
            return (
                "ERROR", "org.springframework.kafka.listener.KafkaMessageListenerContainer",
                f"Error handler threw an exception for record at offset {off}",
                CLIENT_STACK.format(offset=off, app=self.app.replace("-", "")),
            )  # fmt: skip
        k = r.randrange(4)
        if k == 0:
            return (
                "INFO",
                self.pkg + ".Listener",
                f"Processed {r.randrange(1, 501)} records in {r.randrange(2, 900)} ms",
                None,
            )
        if k == 1:
            return (
                "DEBUG" if r.random() < 0.5 else "INFO",
                self.pkg + ".RecordHandler",
                f"Handled record key={r.randrange(10**6)} partition={r.randrange(24)}",
                None,
            )
        if k == 2:
            return (
                "INFO",
                "org.apache.kafka.clients.Metadata",
                f"Resetting the last seen epoch of partition {r.choice(TOPICS)}-{r.randrange(24)} to {r.randrange(1, 40)} since the associated topicId changed from null to AAAA{r.randrange(10**6):06d}QQ",
                None,
            )
        return "WARN", self.pkg + ".Client", f"Slow downstream call took {r.randrange(1000, 5000)} ms", None
