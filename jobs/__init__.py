"""rebalance-lens jobs: ingest Kafka logs, replay groups through coordinator_core, roll up tables."""
