"""Ingestion: Kafka broker/client/Connect logs → canonical event DataFrames, every line accounted for.

``ingest(spark, inputs, settings, run_id)`` reads files, directories and globs (plain or ``.gz``)
and returns an :class:`IngestResult` with the ``events``, ``quarantine`` and ``ingest_audit``
DataFrames (schemas of :mod:`jobs.schemas`). The per-file parser is the pure
:func:`jobs.ingest.parse.parse_bytes`.
"""

from jobs.ingest.model import IngestError, IngestSettings, InputSpec

__all__ = ["IngestError", "IngestResult", "IngestSettings", "InputSpec", "ingest"]


def __getattr__(name: str):
    # the Spark half is imported lazily so that parse_bytes works without a SparkSession
    if name in ("ingest", "IngestResult"):
        from jobs.ingest import spark_ingest

        return getattr(spark_ingest, name)
    raise AttributeError(name)
