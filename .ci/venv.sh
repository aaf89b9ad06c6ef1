# Sourced by ./spark-submit.sh and tests/run: create .venv once (Python 3.11 + Java 17 are all a fresh
# machine needs) and activate it. Re-installs when setup.py changes.
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_venv="${REBALANCE_LENS_VENV:-$_root/.venv}"
_stamp="$_venv/.setup-stamp"
if [ ! -x "$_venv/bin/python" ] || [ "$_root/setup.py" -nt "$_stamp" ]; then
  echo "[rebalance-lens] setting up $_venv (first run only) ..." >&2
  python3 -m venv "$_venv" || exit 1
  "$_venv/bin/python" -m pip install -q --upgrade pip >&2 || exit 1
  "$_venv/bin/python" -m pip install -q -e "$_root[test,connect]" >&2 || exit 1
  touch "$_stamp"
fi
export VIRTUAL_ENV="$_venv"
export PATH="$_venv/bin:$PATH"
export PYSPARK_PYTHON="$_venv/bin/python"
export PYSPARK_DRIVER_PYTHON="$_venv/bin/python"
