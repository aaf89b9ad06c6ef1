"""Mining scripts of the message catalogue's non-Java sources (tools, not imported by the job).

``python -m jobs.ingest.catalogue.mining.mine <client> <mirror git dir>`` lists every log statement of
the client's group-membership files at each release tag it reads (:mod:`.clients`), merges identical
wordings across tags into first/last, and prints them as a YAML draft of catalogue statements;
``--check`` compares a catalogue file with what it mines. See ``docs/catalogue.md``.
"""
