#!/usr/bin/env bash
# rebalance-lens entry point: replay Kafka group-coordinator logs with Spark and write the tables.
#
#   ./spark-submit.sh --input PATH [--input PATH ...] --output DIR [--config FILE]
#                     [--mode batch|incremental] [--master URL] [--cluster NAME] [...]
#   ./spark-submit.sh --sample            # bundled sample logs -> ./lakehouse, prints a summary
#   ./spark-submit.sh report --output report.html --lakehouse DIR [--group G]
#   ./spark-submit.sh simulate --out DIR [--groups N --members M --hours H --seed S ...]
#   ./spark-submit.sh --help              # (`run` is the default subcommand: --input ... = run --input ...)
#
# One command line (jobs/cli.py, also `python -m jobs`): run (the job, through spark-submit),
# report and simulate (plain Python).
#
# Environment:
#   REBALANCE_LENS_NO_VENV=1   don't create/activate .venv (use the python/pyspark on PATH)
#   SPARK_HOME                 use $SPARK_HOME/bin/spark-submit (else spark-submit on PATH, else pip pyspark's)
#   REBALANCE_LENS_EXECUTOR_PYTHON  python of the executors (default: the driver's)
#   SPARK_SUBMIT_OPTS_EXTRA    extra spark-submit options, e.g. "--driver-memory 8g --packages io.delta:..."
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if [ -z "${REBALANCE_LENS_NO_VENV:-}" ]; then
  # shellcheck source=.ci/venv.sh
  source "$ROOT/.ci/venv.sh"
fi
PY="${PYSPARK_PYTHON:-$(command -v python3 || command -v python)}"
export PYSPARK_PYTHON="$PY"
export PYSPARK_DRIVER_PYTHON="${PYSPARK_DRIVER_PYTHON:-$PY}"

# the report and simulate subcommands, --help and Spark Connect (--remote sc://...) need no local
# spark-submit: the same command line in plain Python
case "${1:-}" in
  report|simulate) PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" exec "$PY" -m jobs "$@";;
esac
for a in "$@"; do
  case "$a" in
    -h|--help|--remote|--remote=*) PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" exec "$PY" -m jobs "$@";;
  esac
done

# find spark-submit: SPARK_HOME, PATH, then the pip-installed pyspark
if [ -n "${SPARK_HOME:-}" ] && [ -x "$SPARK_HOME/bin/spark-submit" ]; then
  SUBMIT="$SPARK_HOME/bin/spark-submit"
elif command -v spark-submit >/dev/null 2>&1 && [ -z "${VIRTUAL_ENV:-}" ]; then
  SUBMIT="$(command -v spark-submit)"
else
  PYSPARK_DIR="$("$PY" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
  SUBMIT="$PYSPARK_DIR/bin/spark-submit"
  export SPARK_HOME="$PYSPARK_DIR"
fi

# --master goes to spark-submit as well as to the job
MASTER_ARGS=()
prev=""
for a in "$@"; do
  if [ "$prev" = "--master" ]; then MASTER_ARGS=(--master "$a"); export REBALANCE_LENS_MASTER_GIVEN=1; fi
  case "$a" in --master=*) MASTER_ARGS=(--master "${a#--master=}"); export REBALANCE_LENS_MASTER_GIVEN=1;; esac
  prev="$a"
done

# check the arguments, the configuration and the inputs before the JVM starts (a wrong flag costs a
# fraction of a second, not a Spark start); the run's folder name (--input without --output) is fixed here
export REBALANCE_LENS_RUN_STAMP="${REBALANCE_LENS_RUN_STAMP:-$(date +%Y%m%d-%H%M%S)}"
REBALANCE_LENS_CHECK_ONLY=1 PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m jobs "$@" || exit $?

# ship the package to the executors: a zip of coordinator_core + jobs, removed however the run ends
# (spark-submit runs as a child, not through exec, so that this trap fires)
TMP="$(mktemp -d "${TMPDIR:-/tmp}/rebalance-lens.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
ZIP="$(cd "$ROOT" && "$PY" -m jobs.package "$TMP")"

export REBALANCE_LENS_SUBMITTED=1
# Ctrl-C: the JVM starts with SIGINT ignored; the job's Python driver catches it, prints one line,
# touches $REBALANCE_LENS_INTERRUPT_FILE and exits 130, which spark-submit passes on; what the JVM
# logs while it shuts down after that is dropped. The JVM's one line about the incubator vector
# module Spark loads is not for the user either.
export REBALANCE_LENS_INTERRUPT_FILE="$TMP/interrupted"
trap '' INT
_stderr_filter() {
  local line
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in "WARNING: Using incubator modules"*) continue;; esac
    [ -e "$REBALANCE_LENS_INTERRUPT_FILE" ] || printf '%s\n' "$line" >&2
  done
}
exec 3>&1
set +e
# shellcheck disable=SC2086
"$SUBMIT" \
  ${MASTER_ARGS[@]+"${MASTER_ARGS[@]}"} \
  --name rebalance-lens \
  --conf "spark.pyspark.python=${REBALANCE_LENS_EXECUTOR_PYTHON:-$PY}" \
  --conf "spark.pyspark.driver.python=$PY" \
  --conf spark.sql.session.timeZone=UTC \
  --conf spark.ui.showConsoleProgress=false \
  --conf spark.log.level=${REBALANCE_LENS_LOG_LEVEL:-WARN} \
  --driver-java-options "-Dlog4j2.configurationFile=file:${REBALANCE_LENS_LOG4J:-$ROOT/conf/log4j2.properties}" \
  --driver-memory "${REBALANCE_LENS_DRIVER_MEMORY:-4g}" \
  --py-files "$ZIP" \
  ${SPARK_SUBMIT_OPTS_EXTRA:-} \
  "$ROOT/jobs/cli.py" "$@" 2>&1 1>&3 3>&- | _stderr_filter
rc=${PIPESTATUS[0]}
exit "$rc"
