"""Imported first by every notebook: puts the repository root on ``sys.path``.

Run as a script (``LAKEHOUSE=./lakehouse python notebooks/02_cluster_overview.py``, from any
directory) a notebook finds this module because Python puts the script's own folder first on
``sys.path``. On Databricks Git folders (and under the tests' ``runpy``) the root is on ``sys.path``
already, so a notebook that cannot import this module goes on without it.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
