"""librdkafka's mock cluster (bundled with confluent-kafka), started through its C API with ctypes so
that it lives in the recorder's process while the consumers run in their own processes and connect
to its bootstrap address on loopback (kafka-python and aiokafka too)."""

from __future__ import annotations

import ctypes
import glob
import os


def library_path() -> str | None:
    """The librdkafka shared library bundled with the installed confluent-kafka wheel."""
    try:
        import confluent_kafka
    except ImportError:
        return None
    base = os.path.dirname(os.path.dirname(confluent_kafka.__file__))
    found = sorted(glob.glob(os.path.join(base, "confluent_kafka.libs", "librdkafka*.so*")))
    return found[0] if found else None


class MockCluster:
    """One mock cluster with ``brokers`` brokers; :attr:`bootstraps` is its ``host:port,...``."""

    def __init__(self, brokers: int = 1) -> None:
        path = library_path()
        if path is None:
            raise RuntimeError("confluent-kafka with its bundled librdkafka is not installed")
        lib = self.lib = ctypes.CDLL(path)
        lib.rd_kafka_conf_new.restype = ctypes.c_void_p
        lib.rd_kafka_conf_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.rd_kafka_new.restype = ctypes.c_void_p
        lib.rd_kafka_new.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.rd_kafka_destroy.argtypes = [ctypes.c_void_p]
        lib.rd_kafka_mock_cluster_new.restype = ctypes.c_void_p
        lib.rd_kafka_mock_cluster_new.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.rd_kafka_mock_cluster_bootstraps.restype = ctypes.c_char_p
        lib.rd_kafka_mock_cluster_bootstraps.argtypes = [ctypes.c_void_p]
        lib.rd_kafka_mock_cluster_destroy.argtypes = [ctypes.c_void_p]
        lib.rd_kafka_mock_topic_create.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
        lib.rd_kafka_mock_group_initial_rebalance_delay_ms.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.rd_kafka_mock_set_group_consumer_session_timeout_ms.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.rd_kafka_mock_set_group_consumer_heartbeat_interval_ms.argtypes = [ctypes.c_void_p, ctypes.c_int]
        err = ctypes.create_string_buffer(512)
        conf = lib.rd_kafka_conf_new()
        lib.rd_kafka_conf_set(conf, b"log_level", b"0", err, 512)  # the cluster's own handle stays quiet
        self._rk = lib.rd_kafka_new(1, conf, err, 512)  # RD_KAFKA_CONSUMER: a handle that never connects
        if not self._rk:
            raise RuntimeError(f"rd_kafka_new: {err.value.decode()}")
        self._mc = lib.rd_kafka_mock_cluster_new(self._rk, brokers)
        if not self._mc:
            raise RuntimeError("rd_kafka_mock_cluster_new failed")
        self.bootstraps = lib.rd_kafka_mock_cluster_bootstraps(self._mc).decode()

    def topic(self, name: str, partitions: int) -> None:
        self.lib.rd_kafka_mock_topic_create(self._mc, name.encode(), partitions, 1)

    def initial_rebalance_delay(self, ms: int) -> None:
        self.lib.rd_kafka_mock_group_initial_rebalance_delay_ms(self._mc, ms)

    def consumer_protocol_timeouts(self, session_ms: int, heartbeat_ms: int) -> None:
        """Session timeout and heartbeat interval of consumer-protocol (KIP-848) groups."""
        self.lib.rd_kafka_mock_set_group_consumer_session_timeout_ms(self._mc, session_ms)
        self.lib.rd_kafka_mock_set_group_consumer_heartbeat_interval_ms(self._mc, heartbeat_ms)

    def close(self) -> None:
        if self._mc:
            self.lib.rd_kafka_mock_cluster_destroy(self._mc)
            self._mc = None
        if self._rk:
            self.lib.rd_kafka_destroy(self._rk)
            self._rk = None

    def __enter__(self) -> MockCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
