"""Narrative World Model: chapter-safe typed records of a book, an optional segment source.

``records`` (typed, evidence-backed records, their JSON schema and registries), ``graph``
(temporal edges), ``store`` (SQLite, JSONL import/export, edited-book carry-over), ``publish``
(extraction through a generation backend), ``retrieval`` (state, State Memory and queries as of a
chapter), ``segments`` (records as Finder segments). Import the submodules directly; this package
imports nothing heavy.
"""
