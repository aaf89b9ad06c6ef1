"""The job's configuration: YAML (``yaml.safe_load``) validated into frozen dataclasses.

Every key is checked at start: unknown keys, wrong types and bad values raise :class:`ConfigError`
whose message names the key, e.g. ``config error: storms.min_rebalances must be an integer >= 2,
got 'x'``.  The embedded default is the local configuration (``conf/local.yaml``): master
``local[*]``, Delta tables under ``./lakehouse``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, overload
from zoneinfo import ZoneInfo

import yaml

from coordinator_core.config import parse_version
from coordinator_core.replay import ReplaySettings
from jobs.ingest.declared import DeclarationError, declared_layouts
from jobs.ingest.model import ON_ERROR, IngestSettings, InputSpec

MODES = ("batch", "incremental")
EXCHANGES = ("auto", "shuffle")
FORMATS = ("delta", "parquet")
WRITERS = ("auto", "spark-delta", "delta-rs")


class ConfigError(ValueError):
    """A configuration or command-line error; the message is shown to the user as is."""

    def __init__(self, message: str):
        super().__init__(message if message.startswith("config error:") else f"config error: {message}")


@dataclass(frozen=True)
class SparkConfig:
    #: Spark master URL; None = whatever spark-submit / the environment gives (Databricks, Connect)
    master: str | None = "local[*]"
    #: extra Spark settings (key -> value), applied when the job builds its own session
    conf: dict[str, str] = field(default_factory=dict)
    #: Spark Connect URL (sc://host:port); when set the job uses SparkSession.builder.remote()
    remote: str | None = None


@dataclass(frozen=True)
class OutputConfig:
    #: lakehouse directory: one sub-directory per table
    path: str = "./lakehouse"
    format: str = "delta"
    #: auto = Spark's Delta writer when its classes are on the classpath, else delta-rs
    writer: str = "auto"


@dataclass(frozen=True)
class StormsConfig:
    #: N: a storm is at least N rebalances ...
    min_rebalances: int = 3
    #: ... within W minutes
    window_minutes: int = 10


@dataclass(frozen=True)
class RunConfig:
    mode: str = "batch"
    #: name of the table holding each group's end state (read back by the next run)
    state_table: str = "group_state"
    #: streaming checkpoint of incremental mode; default <output.path>/_checkpoints/replay
    checkpoint: str | None = None
    #: print progress lines (stages with counts)
    progress: bool = True
    #: how batch mode hands each group's events to its replay: ``auto`` = through group-bucketed
    #: event files when the workers write the staging folder (local/FUSE), else a Spark shuffle;
    #: ``shuffle`` = always the shuffle (cogroup.applyInArrow)
    exchange: str = "auto"


#: the client settings of the ``kafka:`` section: Kafka's name -> the what-if's ``GroupSettings`` field
KAFKA_KEYS: dict[str, str] = {
    "session.timeout.ms": "session_timeout_ms",
    "max.poll.interval.ms": "max_poll_interval_ms",
    "heartbeat.interval.ms": "heartbeat_interval_ms",
}


@dataclass(frozen=True)
class ClientTimeouts:
    """The consumers' timeouts as configured (INFO logs do not show them); None = not known."""

    session_timeout_ms: int | None = None
    max_poll_interval_ms: int | None = None
    heartbeat_interval_ms: int | None = None

    def known(self) -> dict[str, int]:
        """The values given, by ``GroupSettings`` field."""
        return {f: getattr(self, f) for f in KAFKA_KEYS.values() if getattr(self, f) is not None}


@dataclass(frozen=True)
class KafkaConfig:
    """``kafka:``: the consumers' client settings the advice re-simulates under, for every group
    (the top-level keys) and per group (``groups: {name: {...}}``, overriding the top level)."""

    defaults: ClientTimeouts = field(default_factory=ClientTimeouts)
    groups: tuple[tuple[str, ClientTimeouts], ...] = ()

    def for_group(self, group_id: str | None) -> dict[str, int]:
        """The known settings of ``group_id`` (``GroupSettings`` field -> value): the group's own,
        else the top level's; a setting given nowhere is absent (the what-if takes Kafka's default)."""
        out = self.defaults.known()
        own: dict[str | None, ClientTimeouts] = dict(self.groups)
        out.update(own.get(group_id, ClientTimeouts()).known())
        return out


@dataclass(frozen=True)
class JobConfig:
    spark: SparkConfig = field(default_factory=SparkConfig)
    output: OutputConfig = field(default_factory=OutputConfig)
    #: the inputs the ingestion reads (``inputs:``, a list of ``{path, cluster, group}``)
    inputs: tuple[InputSpec, ...] = ()
    #: the ingestion's settings (``ingest:``; the fields ``SET_BY_JOB`` are not config keys): the
    #: layouts are ``[{pattern: "<log4j/logback pattern>"} | {regex: "<named groups>"}, name?]``
    ingest: IngestSettings = field(default_factory=IngestSettings)
    #: the replay's settings (``replay:``; the core's own, one default per value; the fields the job
    #: or what-if sets, ``metadata={"config": False}``, are not config keys)
    replay: ReplaySettings = field(default_factory=ReplaySettings)
    storms: StormsConfig = field(default_factory=StormsConfig)
    run: RunConfig = field(default_factory=RunConfig)
    #: the consumers' client settings (``kafka:``), used by the advice of the report and notebooks
    kafka: KafkaConfig = field(default_factory=KafkaConfig)

    def replace(self, **sections: Any) -> JobConfig:
        """A copy with some sections replaced, e.g. ``cfg.replace(output=OutputConfig(path=p))``."""
        return dataclasses.replace(self, **sections)

    def with_values(self, **dotted: Any) -> JobConfig:
        """A copy with dotted keys changed and validated, e.g. ``with_values(**{"run.mode": "incremental"})``."""
        data = to_dict(self)
        for key, value in dotted.items():
            section, _, name = key.partition(".")
            if not name:
                data[section] = value
            else:
                data.setdefault(section, {})[name] = value
        return config_from_dict(data)


# ------------------------------------------------------------------------------------ validation


def _fail(key: str, what: str, value: Any) -> ConfigError:
    return ConfigError(f"{key} must be {what}, got {value!r}")


@overload
def _str(
    key: str, v: Any, *, choices: tuple[str, ...] | None = None, optional: Literal[False] = False
) -> str: ...
@overload
def _str(key: str, v: Any, *, choices: tuple[str, ...] | None = None, optional: bool) -> str | None: ...
def _str(key: str, v: Any, *, choices: tuple[str, ...] | None = None, optional: bool = False) -> str | None:
    """``v`` as a non-empty string (one of ``choices`` when given); None only when ``optional``."""
    if v is None and optional:
        return None
    if choices is not None:
        if v not in choices:
            raise _fail(key, "one of " + ", ".join(choices), v)
        return v
    if isinstance(v, bool) or not isinstance(v, str | int | float) or (isinstance(v, str) and not v.strip()):
        raise _fail(key, "a non-empty string" + (" or null" if optional else ""), v)
    return str(v)


def _int(key: str, v: Any, minimum: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise _fail(key, f"an integer >= {minimum}", v)
    return v


def _bool(key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise _fail(key, "true or false", v)
    return v


def _section(name: str, data: Any, known: tuple[str, ...]) -> dict[str, Any]:
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _fail(name, "a mapping", data)
    for k in data:
        if k not in known:
            raise ConfigError(f"unknown key {name}.{k} (known: {', '.join(known)})")
    return data


def config_keys(cls: type) -> tuple[str, ...]:
    """The keys of the config section read into ``cls``: its fields, but for those the job sets per
    run (``metadata={"config": False}``: :data:`jobs.ingest.model.SET_BY_JOB`, and ReplaySettings'
    ``emit_skew`` / ``track_generations``)."""
    return tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("config", True))


#: the config section of each JobConfig field, and the class it is read into
SECTIONS: dict[str, type] = {
    "spark": SparkConfig,
    "output": OutputConfig,
    "inputs": InputSpec,
    "ingest": IngestSettings,
    "replay": ReplaySettings,
    "storms": StormsConfig,
    "run": RunConfig,
    "kafka": KafkaConfig,
}


def config_from_dict(data: dict[str, Any] | None) -> JobConfig:
    """Validate a parsed YAML mapping into a :class:`JobConfig` (missing keys take defaults)."""
    data = {} if data is None else data
    if not isinstance(data, dict):
        raise ConfigError(f"the configuration must be a mapping of sections, got {type(data).__name__}")
    top = config_keys(JobConfig)
    for k in data:
        if k not in top:
            raise ConfigError(f"unknown key {k} (known: {', '.join(top)})")
    return JobConfig(
        spark=_spark(data.get("spark")),
        output=_output(data.get("output")),
        inputs=_inputs(data.get("inputs")),
        ingest=_ingest(data.get("ingest")),
        replay=_replay(data.get("replay")),
        storms=_storms(data.get("storms")),
        run=_run(data.get("run")),
        kafka=_kafka(data.get("kafka")),
    )


def _spark(raw: Any) -> SparkConfig:
    s = _section("spark", raw, config_keys(SparkConfig))
    conf = s.get("conf") or {}
    if not isinstance(conf, dict):
        raise _fail("spark.conf", "a mapping of Spark settings", conf)
    for ck, cv in conf.items():
        if not isinstance(ck, str) or isinstance(cv, dict | list) or cv is None:
            raise _fail(f"spark.conf.{ck}", "a scalar value", cv)
    spark = SparkConfig(
        master=_str("spark.master", s.get("master", SparkConfig.master), optional=True),
        conf={k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in conf.items()},
        remote=_str("spark.remote", s.get("remote"), optional=True),
    )
    if spark.remote is not None and not spark.remote.startswith("sc://"):
        raise _fail("spark.remote", "a Spark Connect URL sc://host:port", spark.remote)
    return spark


def _output(raw: Any) -> OutputConfig:
    o = _section("output", raw, config_keys(OutputConfig))
    return OutputConfig(
        path=_str("output.path", o.get("path", OutputConfig.path)),
        format=_str("output.format", o.get("format", OutputConfig.format), choices=FORMATS),
        writer=_str("output.writer", o.get("writer", OutputConfig.writer), choices=WRITERS),
    )


def _inputs(raw: Any) -> tuple[InputSpec, ...]:
    raw = raw or []
    if not isinstance(raw, list):
        raise _fail("inputs", "a list of {path, cluster, group}", raw)
    inputs = []
    for i, item in enumerate(raw):
        key = f"inputs[{i}]"
        if isinstance(item, str):
            item = {"path": item}
        item = _section(key, item, config_keys(InputSpec))
        if "path" not in item:
            raise ConfigError(f"{key}.path is required")
        inputs.append(
            InputSpec(
                path=_str(f"{key}.path", item["path"]),
                cluster=_str(f"{key}.cluster", item.get("cluster", InputSpec.cluster)),
                group=_str(f"{key}.group", item.get("group"), optional=True),
            )
        )
    return tuple(inputs)


def _ingest(raw: Any) -> IngestSettings:
    g = _section("ingest", raw, config_keys(IngestSettings))
    tz = _str("ingest.default_timezone", g.get("default_timezone", IngestSettings.default_timezone))
    try:
        ZoneInfo(tz)
    except Exception as exc:  # noqa: BLE001 - any failure means an unknown zone
        raise _fail("ingest.default_timezone", "an IANA time zone such as UTC or Europe/Berlin", tz) from exc
    return IngestSettings(
        default_timezone=tz,
        on_missing=_str(
            "ingest.on_missing", g.get("on_missing", IngestSettings.on_missing), choices=ON_ERROR
        ),
        on_corrupt=_str(
            "ingest.on_corrupt", g.get("on_corrupt", IngestSettings.on_corrupt), choices=ON_ERROR
        ),
        max_line_bytes=_int(
            "ingest.max_line_bytes", g.get("max_line_bytes", IngestSettings.max_line_bytes), 1024
        ),
        default_year=(
            None if g.get("default_year") is None else _int("ingest.default_year", g["default_year"], 1970)
        ),
        default_date=_default_date(g.get("default_date")),
        layouts=_declared_layouts(g.get("layouts")),
    )


def _default_date(v: Any) -> str | None:
    """``ingest.default_date``: null or a date ``yyyy-MM-dd``."""
    if v is None:
        return None
    try:
        return date.fromisoformat(str(v)).isoformat()
    except ValueError as exc:
        raise _fail("ingest.default_date", "a date yyyy-MM-dd, or null", v) from exc


def _replay(raw: Any) -> ReplaySettings:
    """``version_hint`` and durations in ms (every other key), each >= 0."""
    r = _section("replay", raw, config_keys(ReplaySettings))
    vh = r.get("version_hint")
    if vh is not None:
        vh = str(vh) if isinstance(vh, int | float) and not isinstance(vh, bool) else vh
        if not isinstance(vh, str) or not _is_version(vh):
            raise _fail("replay.version_hint", 'a Kafka version such as "2.8", "3.9" or "4.0", or null', vh)
    durations: dict[str, Any] = {k: _int(f"replay.{k}", r.get(k, getattr(ReplaySettings, k)), 0)
                 for k in config_keys(ReplaySettings) if k != "version_hint"}  # fmt: skip
    return ReplaySettings(version_hint=vh, **durations)


def _storms(raw: Any) -> StormsConfig:
    st = _section("storms", raw, config_keys(StormsConfig))
    return StormsConfig(
        min_rebalances=_int(
            "storms.min_rebalances", st.get("min_rebalances", StormsConfig.min_rebalances), 2
        ),
        window_minutes=_int(
            "storms.window_minutes", st.get("window_minutes", StormsConfig.window_minutes), 1
        ),
    )


def _run(raw: Any) -> RunConfig:
    u = _section("run", raw, config_keys(RunConfig))
    state_table = _str("run.state_table", u.get("state_table", RunConfig.state_table))
    if not state_table.replace("_", "").isalnum():
        raise _fail("run.state_table", "a table name of letters, digits and _", state_table)
    return RunConfig(
        mode=_str("run.mode", u.get("mode", RunConfig.mode), choices=MODES),
        state_table=state_table,
        checkpoint=_str("run.checkpoint", u.get("checkpoint"), optional=True),
        progress=_bool("run.progress", u.get("progress", RunConfig.progress)),
        exchange=_str("run.exchange", u.get("exchange", RunConfig.exchange), choices=EXCHANGES),
    )


def _timeouts(key: str, raw: Any, extra: tuple[str, ...] = ()) -> ClientTimeouts:
    k = _section(key, raw, (*KAFKA_KEYS, *extra))
    values = {field_: _int(f"{key}.{name}", k[name], 1) for name, field_ in KAFKA_KEYS.items() if k.get(name) is not None}
    return ClientTimeouts(**values)


def _kafka(raw: Any) -> KafkaConfig:
    """``kafka:`` Kafka's own key names (``session.timeout.ms`` ...), top level and per group."""
    defaults = _timeouts("kafka", raw, ("groups",))
    groups = (raw or {}).get("groups") or {}
    if not isinstance(groups, dict):
        raise _fail("kafka.groups", "a mapping of group id -> settings", groups)
    return KafkaConfig(
        defaults=defaults,
        groups=tuple((str(g), _timeouts(f"kafka.groups.{g}", v)) for g, v in groups.items()),
    )


def kafka_dict(kafka: KafkaConfig) -> dict[str, Any]:
    """The ``kafka:`` section as YAML-able data (Kafka's key names)."""

    def named(t: ClientTimeouts) -> dict[str, int]:
        return {n: getattr(t, f) for n, f in KAFKA_KEYS.items() if getattr(t, f) is not None}

    out: dict[str, Any] = named(kafka.defaults)
    if kafka.groups:
        out["groups"] = {g: named(t) for g, t in kafka.groups}
    return out


def _declared_layouts(entries: Any) -> tuple:
    try:
        return declared_layouts(entries)
    except DeclarationError as exc:
        raise ConfigError(str(exc)) from None


def _is_version(v: str) -> bool:
    """``v`` is a Kafka version the core reads (:func:`coordinator_core.config.parse_version`)."""
    try:
        parse_version(v)
    except ValueError:
        return False
    return True


def load_config(path: str | None = None) -> JobConfig:
    """Load and validate a YAML file (``None`` = the embedded local default)."""
    if path is None:
        return JobConfig()
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except FileNotFoundError as exc:
        raise ConfigError(f"config file not found: {path}") from exc
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path} is not valid YAML: {exc}") from exc
    return config_from_dict(data)


def to_dict(cfg: JobConfig) -> dict[str, Any]:
    """The configuration as plain YAML-able data (the inverse of :func:`config_from_dict`)."""
    d: dict[str, Any] = {name: {k: getattr(getattr(cfg, name), k) for k in config_keys(cls)}
         for name, cls in SECTIONS.items() if name not in ("inputs", "kafka")}  # fmt: skip
    d["kafka"] = kafka_dict(cfg.kafka)
    d["spark"]["conf"] = dict(cfg.spark.conf)
    d["inputs"] = [{k: getattr(i, k) for k in config_keys(InputSpec)} for i in cfg.inputs]
    d["ingest"]["layouts"] = [{"regex": lay.regex, "name": lay.id} for lay in cfg.ingest.layouts]
    return d
