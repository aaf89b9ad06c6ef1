"""The run's DataFrames over one parse: :class:`IngestResult`.

The parse itself (:mod:`jobs.ingest.spark_ingest`) leaves the staged record stream and one audit row
per file on the driver. The ``events``, ``quarantine`` and ``audit`` DataFrames over them are built on
first use: a run whose replay reads the staged, group-bucketed files and whose sink adopts them never
builds them (each costs driver round trips to the JVM: a Parquet listing, a ``createDataFrame`` of the
audit rows, the plans of the selects). :func:`ingest_frames` is the one definition of what they hold.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from jobs.ingest.task_files import QUARANTINE_IN_RECORD
from jobs.schemas import EVENTS, INGEST_AUDIT, QUARANTINE


@dataclass(frozen=True)
class Frames:
    """The three DataFrames of a run."""

    events: DataFrame
    quarantine: DataFrame
    audit: DataFrame


@dataclass
class IngestResult:
    """Lazy DataFrames over one parse (staged as Parquet under ``settings.staging_dir``, or persisted:
    call :meth:`unpersist` when done). ``events_dir``: the staged event files (columns of
    :data:`EVENT_DATA`) when they hold exactly :attr:`events`, i.e. no duplicate file was dropped.
    :attr:`events`, :attr:`quarantine` and :attr:`audit` are built on first use."""

    frames: Callable[[], Frames]
    run_id: str
    audit_rows: list[dict[str, Any]] = field(default_factory=list)
    events_dir: str | None = None
    #: group buckets of the staged event files (:mod:`jobs.buckets`), 0 when not bucketed
    buckets: int = 0
    #: the staged, group-bucketed event files (all parsed files, duplicates included) when bucketed
    bucket_dir: str | None = None
    #: True when the workers wrote the staging folder and no quarantine row was staged at all
    no_quarantine: bool = False
    #: the local folder of the staged quarantine files (columns of ``EVENT_DATA``, ``QUARANTINE_IN_RECORD``)
    #: when they hold exactly :attr:`quarantine` but ``run_id``, i.e. the workers wrote them and no
    #: duplicate file was dropped
    quarantine_dir: str | None = None
    _cache: DataFrame | None = None

    @cached_property
    def _built(self) -> Frames:
        return self.frames()

    @property
    def events(self) -> DataFrame:
        return self._built.events

    @property
    def quarantine(self) -> DataFrame:
        return self._built.quarantine

    @property
    def audit(self) -> DataFrame:
        return self._built.audit

    def unpersist(self) -> None:
        if self._cache is not None:
            with contextlib.suppress(Exception):  # Connect servers without caching
                self._cache.unpersist()


def ingest_frames(
    spark: SparkSession, records: Callable[[], DataFrame], audits: list[dict[str, Any]], dups: set[str],
    run_id: str,
) -> Frames:
    """The run's DataFrames from the record stream (``records()``) and the audit rows: files with the
    content of an earlier one (``dups``) lose their events / quarantine rows; every row gets the
    ``run_id``."""
    stream = records()
    events = stream.where(F.col("_rt") == "e")
    quarantine = stream.where(F.col("_rt") == "q")
    if dups:
        events = events.where(~F.col("source_file").isin(sorted(dups)))
        quarantine = quarantine.where(~F.col("source_file").isin(sorted(dups)))
    # a nullable run_id column (a literal alone would be NOT NULL): every record has its _rt
    run_col = F.when(F.col("_rt").isNotNull(), F.lit(run_id))
    q_cols = [
        F.col(QUARANTINE_IN_RECORD.get(f.name, f.name)).cast(f.dataType).alias(f.name)
        if f.name != "run_id"
        else run_col.alias("run_id")
        for f in QUARANTINE.fields
    ]
    return Frames(
        events=events.withColumn("run_id", run_col).select(*EVENTS.fieldNames()),
        quarantine=quarantine.select(*q_cols),
        audit=spark.createDataFrame([tuple(a.get(f) for f in INGEST_AUDIT.fieldNames()) for a in audits], INGEST_AUDIT),
    )
