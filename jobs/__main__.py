"""``python -m jobs [run|report|simulate] ...``: the one command line (:mod:`jobs.cli`) without
spark-submit (``run`` builds a local Spark session, or uses ``--remote``)."""

from jobs.cli import main
from jobs.process import run_main

if __name__ == "__main__":
    run_main(main)
