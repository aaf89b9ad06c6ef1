"""Mining the message catalogue from the sources (tools, not imported by the job): the log statements of
a project's group-membership code at each release tag read (format string, level, file:line), merged
across tags into the catalogue file's statements with ``first`` / ``last``. The repositories are read from
git snapshots (``<owner>+<name>/repo``) with ``git show TAG:PATH``; nothing of them is copied but the
statements' format strings (facts about what a program logs).

* ``python -m jobs.ingest.catalogue.mining SOURCE`` (librdkafka, kafka-python, aiokafka: ``extract_c``,
  ``extract_py``, ``readings``) rewrites ``data/SOURCE.yaml``, keeping what was mapped by reading
  (``kind``, ``template``, ``values``, ``expect``, ``note`` ...) of every statement whose id it finds again;
* ``python -m jobs.ingest.catalogue.mining.mine <client> <mirror git dir>`` (the Go, JS, Ruby, Erlang and
  faust clients: ``clients``, ``scan``, ``propose``) prints a YAML draft of a client's statements;
  ``--check`` compares a catalogue file with what it mines;
* ``python -m jobs.ingest.catalogue.mining.mine_kafka /work/.mirror/apache+kafka/repo`` (Kafka's broker,
  clients, Streams, Connect and Spring Kafka: ``kafka_sources``, ``java_source``) writes/updates
  ``data/kafka-*.yaml`` and ``data/spring-kafka.yaml`` the same way;
* ``python -m jobs.ingest.catalogue.mining.parser_view SOURCE [--all]`` prints what the parser makes of
  each (unmapped) statement today: a proposal to check by reading, never a mapping by itself.

See ``docs/catalogue.md``.
"""
