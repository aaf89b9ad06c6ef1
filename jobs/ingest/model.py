"""Public value types of ingestion (inputs, settings, errors) and the Arrow forms of its schemas."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jobs.schemas import ARROW

#: quarantine ``reason`` vocabulary
QUARANTINE_REASONS = (
    "unparsable_layout",
    "no_timestamp",
    "invalid_utf8",
    "binary",
    "line_too_long",
    "group_line_not_understood",
    "group_unknown",
    "missing_file",
    "corrupt_gzip",
    "unreadable_envelope",
)


class IngestError(Exception):
    """A missing input path or a corrupt ``.gz`` (the message names the file)."""


#: what ``ingest.on_missing`` / ``ingest.on_corrupt`` may say
ON_ERROR = ("error", "quarantine")

#: metadata of the :class:`IngestSettings` fields the job sets per run (not keys of the config's
#: ``ingest`` section; :mod:`jobs.config` accepts every other field, and only those)
SET_BY_JOB = {"config": False}


@dataclass(frozen=True)
class InputSpec:
    """A file, directory (read recursively) or glob, plain or ``.gz``, of one Kafka ``cluster``
    (an item of the config's ``inputs`` list, :class:`jobs.config.JobConfig`). ``group``: the consumer
    group its files belong to, for the events of a file that names no group and has none from its
    context (a client whose lines never name their group: :func:`jobs.ingest.attribution.input_group`)."""

    path: str
    cluster: str = "default"
    group: str | None = None


@dataclass(frozen=True)
class IngestSettings:
    """How to read the inputs: the config's ``ingest`` section (:class:`jobs.config.JobConfig`;
    these are its defaults) plus the fields the job sets per run (``SET_BY_JOB``).

    ``default_timezone``: IANA zone of timestamps written without a zone. ``on_missing`` /
    ``on_corrupt``: ``"error"`` raises :class:`IngestError`; ``"quarantine"`` records an audit row
    with ``error`` and a quarantine row. ``max_line_bytes``: longer lines are quarantined as
    ``line_too_long`` with their first ``raw_keep_bytes`` kept. ``staging_dir``: when set, the
    parsed records are written there once as Parquet (``run_id=<id>/_rt=e|q|a``) and the result
    DataFrames read them back - the fastest way to write all three tables; on a cluster it must be
    shared storage. When ``None`` the parse is persisted in memory/disk instead.
    ``group_buckets``: when the workers write the staged files themselves (a local/FUSE
    ``staging_dir``), split each task's events into that many files by group (:mod:`jobs.buckets`)
    so the replay can read each group's events without a shuffle; 0 = one events file per task;
    -1 = choose from the input size and the session's parallelism (:func:`jobs.buckets.choose_buckets`).
    """

    default_timezone: str = "UTC"
    on_missing: str = "error"
    on_corrupt: str = "quarantine"
    max_line_bytes: int = 1_048_576
    #: year of timestamps written without one (syslog ``Mar  4 10:00:00``) when no other line of
    #: the file gives it
    default_year: int | None = None
    #: date (``yyyy-MM-dd``) of every timestamp written as a time of day alone, whatever the file's
    #: other lines, name or modification time say (:mod:`jobs.ingest.day_dates`)
    default_date: str | None = None
    #: the user's own layouts (``ingest.layouts`` of the config, :mod:`jobs.ingest.declared`),
    #: tried before the built-in ones
    layouts: tuple = ()
    raw_keep_bytes: int = field(default=4096, metadata=SET_BY_JOB)
    staging_dir: str | None = field(default=None, metadata=SET_BY_JOB)
    group_buckets: int = field(default=0, metadata=SET_BY_JOB)
    #: (path pattern, group) of the inputs that name their files' group (:attr:`InputSpec.group`;
    #: :func:`jobs.ingest.attribution.input_groups`)
    input_groups: tuple = field(default=(), metadata=SET_BY_JOB)

    def __post_init__(self) -> None:
        for name in ("on_missing", "on_corrupt"):
            if getattr(self, name) not in ON_ERROR:
                raise ValueError(
                    f"IngestSettings.{name} must be 'error' or 'quarantine', got {getattr(self, name)!r}"
                )
        if self.group_buckets < -1:
            raise ValueError("IngestSettings.group_buckets must be >= -1 (-1 = auto)")
        if self.max_line_bytes <= 0:
            raise ValueError("IngestSettings.max_line_bytes must be positive")


def __getattr__(name: str) -> Any:
    # arrow_type / arrow_schema (Spark -> Arrow) live in jobs.schemas_spark, which loads Spark's types:
    # imported when asked for, so that this module (read by jobs.config) loads no Spark
    if name in ("arrow_type", "arrow_schema"):
        from jobs import schemas_spark

        return getattr(schemas_spark, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


EVENTS_ARROW = ARROW["events"]
QUARANTINE_ARROW = ARROW["quarantine"]
AUDIT_ARROW = ARROW["ingest_audit"]
