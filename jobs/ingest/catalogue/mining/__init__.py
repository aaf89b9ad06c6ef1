"""Tools that mine the catalogue's statements from source trees (run by hand, never imported by the job).

``python -m jobs.ingest.catalogue.mining.mine_kafka /work/.mirror/apache+kafka/repo`` lists every log
statement of Kafka's group-membership code at the release tags of each source and writes/updates
``jobs/ingest/catalogue/data/kafka-*.yaml`` (identical wordings across tags merged into first/last; the
hand-written meaning of a statement - template, kind, values, expect, note - is kept on update).
"""
