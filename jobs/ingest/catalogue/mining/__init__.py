"""Mining the message catalogue from the sources: the log statements of a project's group-membership
code at each release tag read (format string, level, file:line), merged across tags into the
catalogue file's statements with ``first`` / ``last``. ``python -m jobs.ingest.catalogue.mining
SOURCE`` rewrites ``data/SOURCE.yaml``, keeping what was mapped by reading (``kind``, ``template``,
``values``, ``expect``, ``note`` ...) of every statement whose id it finds again.

The repositories are read from git snapshots (``--mirror``, default ``/work/.mirror``:
``<owner>+<name>/repo``) with ``git show TAG:PATH``; nothing of them is copied but the statements'
format strings (facts about what a program logs)."""
