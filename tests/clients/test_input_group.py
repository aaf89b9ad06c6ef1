"""The group an input names for its files (``inputs: [{path, group}]``, ``--input-group``): events whose
line and file context name no group take it; a line that names a group keeps it (docs/client-logs.md,
"Lines that name no group")."""

from __future__ import annotations

import gzip
import os

import pytest

from jobs import cli
from jobs.config import ConfigError, config_from_dict
from jobs.ingest.attribution import input_group, input_groups
from jobs.ingest.model import IngestSettings, InputSpec
from jobs.ingest.resume import parse_file
from tests.clients.score import CORPUS

ARROYO = os.path.join(CORPUS, "arroyo", "scale_up", "c1.log.gz")
SARAMA = os.path.join(CORPUS, "sarama", "scale_up", "c1.log.gz")


def test_the_config_and_the_command_line_name_an_inputs_group(tmp_path):
    cfg = config_from_dict({"inputs": [{"path": "logs/arroyo/*.log", "group": "my-group"}, {"path": "logs/broker"}]})
    assert [(i.path, i.cluster, i.group) for i in cfg.inputs] == [
        ("logs/arroyo/*.log", "default", "my-group"), ("logs/broker", "default", None)]  # fmt: skip
    with pytest.raises(ConfigError):
        config_from_dict({"inputs": [{"path": "x", "group": ["a", "b"]}]})
    args = cli.parse_args(["--input", str(tmp_path), "--input-group", "g1", "--cluster", "c"])
    _, inputs = cli.resolve_config(args)
    assert [(i.path, i.cluster, i.group) for i in inputs] == [(str(tmp_path), "c", "g1")]
    with pytest.raises(ConfigError):
        cli.resolve_config(cli.parse_args(["--sample", "--input-group", "g1"]))
    with pytest.raises(ConfigError, match="inputs.0..group"):
        config_from_dict({"inputs": [{"path": "x", "group": "  "}]})
    with pytest.raises(ConfigError, match="needs a consumer group name"):
        cli.resolve_config(cli.parse_args(["--input", str(tmp_path), "--input-group", ""]))


def test_input_groups_match_files_under_a_folder_a_glob_or_the_file():
    groups = input_groups([InputSpec("/logs/arroyo", group="a"), InputSpec("/logs/*.log.gz", group="b"),
                           InputSpec("s3://bucket/x.log", group="c"), InputSpec("/logs/broker")])  # fmt: skip
    assert groups == (("/logs/arroyo", "a"), ("/logs/arroyo/*", "a"), ("/logs/*.log.gz", "b"),
                      ("s3://bucket/x.log", "c"), ("s3://bucket/x.log/*", "c"))  # fmt: skip


def _groups(path: str, groups: tuple) -> set[str]:
    with open(path, "rb") as fh:
        ev, _, _ = parse_file(fh.read(), path, "default", IngestSettings(input_groups=groups), None)
    return set(ev.column("group_id").to_pylist())


def test_a_file_that_names_no_group_takes_its_inputs():
    """arroyo's lines name no group: without the input's group they stay unattributed
    (``unnamed-<sha8>``); with it they are the group's. The group of another input does not apply."""
    folder = os.path.dirname(ARROYO)
    alone = _groups(ARROYO, ())
    assert len(alone) == 1 and next(iter(alone)).startswith("unnamed-")
    assert _groups(ARROYO, input_groups([InputSpec(folder, group="my-group")])) == {"my-group"}
    assert _groups(ARROYO, input_groups([InputSpec(os.path.join(folder, "*.gz"), group="g2")])) == {"g2"}
    assert _groups(ARROYO, input_groups([InputSpec("/elsewhere", group="g3")])) == alone


def test_a_line_or_a_file_context_that_names_a_group_keeps_it():
    """sarama's coordinator lookups name the group: its subscription lines take it from the file, not
    from the input."""
    assert _groups(SARAMA, (("*", "other-group"),)) == {"scale-up-sarama"}
    with open(SARAMA, "rb") as fh:
        ev, _, _ = parse_file(fh.read(), SARAMA, "default", IngestSettings(), None)
    assert input_group(ev, SARAMA, (("*", "x"),)).column("group_id").to_pylist() == ev.column("group_id").to_pylist()
    with open(SARAMA, "rb") as fh:
        text = gzip.decompress(fh.read())
    kinds = ev.column("kind").to_pylist()
    assert (kinds.count("partitions_assigned"), kinds.count("partitions_revoked"), kinds.count("leave_sent")) == (
        text.count(b"added subscription"), text.count(b"closed dead subscription"), 1) == (10, 10, 1)
