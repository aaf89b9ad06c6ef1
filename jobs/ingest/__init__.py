"""Ingestion: Kafka broker/client/Connect logs → canonical event DataFrames, every line accounted for.

``ingest(spark, inputs, settings, run_id)`` reads files, directories and globs (plain or ``.gz``)
and returns an :class:`IngestResult` with the ``events``, ``quarantine`` and ``ingest_audit``
DataFrames (schemas of :mod:`jobs.schemas`). The per-file parser is the pure
:func:`jobs.ingest.parse.parse_bytes`.
"""

from jobs.ingest.model import IngestError, IngestSettings, InputSpec

__all__ = ["IngestError", "IngestResult", "IngestSettings", "InputSpec", "ingest"]


def __getattr__(name: str):
    # lazy: every import of a jobs.ingest module (e.g. jobs.config's of jobs.ingest.model) runs this
    # __init__; the Spark half would bring the whole parser and pandas with it
    if name in ("ingest", "IngestResult"):
        from jobs.ingest import spark_ingest

        return getattr(spark_ingest, name)
    raise AttributeError(name)
