"""Benchmarks of rebalance-lens (``python -m benchmarks.run``); not part of the installed package."""
