"""The zip of ``coordinator_core`` + ``jobs`` (Python sources only) the executors import: built in one
place for ``spark-submit.sh`` (``python -m jobs.package DIR``) and for Spark Connect
(``jobs.cli.ship_package``)."""

from __future__ import annotations

import os
import sys
import zipfile

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: folders of the packages that are not code
_SKIP = ("__pycache__", "samples")


def package_zip(target_dir: str) -> str:
    """Write ``target_dir/rebalance_lens.zip`` and return its path."""
    path = os.path.join(target_dir, "rebalance_lens.zip")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for pkg in ("coordinator_core", "jobs"):
            for d, dirs, files in os.walk(os.path.join(REPO_ROOT, pkg)):
                dirs[:] = [x for x in dirs if x not in _SKIP]
                for f in files:
                    if f.endswith(".py"):
                        full = os.path.join(d, f)
                        z.write(full, os.path.relpath(full, REPO_ROOT))
    return path


if __name__ == "__main__":
    print(package_zip(sys.argv[1]))
