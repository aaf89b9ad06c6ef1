"""Report, plots and notebook helpers of rebalance-lens.

* :func:`build_report` / ``python -m jobs.report --output report.html --lakehouse DIR [--group G]``:
  a self-contained HTML report (summary first, then timelines and skew);
* :mod:`jobs.report.plots`: matplotlib figures of table DataFrames;
* :mod:`jobs.report.data`: load the tables (Spark or delta-rs) as pandas;
* :mod:`jobs.report.summary`: the roll-ups (totals, worst storms, causes, culprits, rankings).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coordinator_core.replay import ReplaySettings
    from jobs.config import KafkaConfig


def report_html(
    lakehouse: str,
    group: str | None = None,
    *,
    spark: Any = None,
    cluster: str | None = None,
    title: str | None = None,
    advise: bool = True,
    settings: ReplaySettings | None = None,
    kafka: KafkaConfig | None = None,
) -> str:
    """The HTML report of the tables of ``lakehouse``. ``advise``: re-simulate the worst storms under
    other settings (:func:`jobs.report.whatif.storm_advice`), their evidence replayed under the job's
    replay ``settings`` (a ``ReplaySettings``; default: the core's) and the consumers' client settings
    of the ``kafka:`` section (``kafka``; default: Kafka's)."""
    # lazy: the CLI imports jobs.report.console after a run, which runs this __init__; matplotlib and
    # the what-if re-simulation load only when a report is made
    from jobs.report.data import load_tables
    from jobs.report.html import render
    from jobs.report.whatif import storm_advice

    tables = load_tables(lakehouse, spark=spark, group=group, cluster=cluster)
    advice = (storm_advice(lakehouse, tables["storms"], spark=spark, cluster=cluster, settings=settings, kafka=kafka)
              if advise else None)  # fmt: skip
    return render(tables, group=group, title=title, advice=advice)


def write_report(text: str, output: str) -> str:
    """Write ``text`` to ``output`` (a ``.html`` file, or a directory that gets ``report.html``)."""
    if os.path.isdir(output) or not output.lower().endswith((".html", ".htm")):
        output = os.path.join(output, "report.html")  # a directory (``spark-submit.sh report --output DIR``)
    parent = os.path.dirname(os.path.abspath(output))
    os.makedirs(parent, exist_ok=True)
    with open(output, "w", encoding="utf-8") as fh:
        fh.write(text)
    return output


def build_report(
    lakehouse: str,
    output: str,
    group: str | None = None,
    *,
    spark: Any = None,
    cluster: str | None = None,
    title: str | None = None,
    advise: bool = True,
    settings: ReplaySettings | None = None,
    kafka: KafkaConfig | None = None,
) -> str:
    """Read the tables of ``lakehouse`` and write the HTML report to ``output`` (a ``.html`` file, or a
    directory that gets ``report.html``). Returns the path written. ``settings``, ``kafka``: see
    :func:`report_html`."""
    text = report_html(lakehouse, group, spark=spark, cluster=cluster, title=title, advise=advise, settings=settings,
                       kafka=kafka)  # fmt: skip
    return write_report(text, output)


__all__ = ["build_report", "report_html", "write_report"]
