"""Consumer programs built on client libraries (faust, arroyo), each run with the Python of
its own virtualenv (tests/clients/toolchains.py): same spec, stdin commands and truth format as
tests/clients/consumer.py."""
