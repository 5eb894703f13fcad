"""Narrative World Model: chapter-safe typed records of a book as an optional segment source.

``records`` (typed, evidence-backed records and registries), ``graph`` (temporal edges),
``store`` (SQLite, JSONL import/export), ``publish`` (LLM extraction), ``retrieval`` (reads as
of a chapter). Import the submodules directly; this package imports nothing heavy.
"""
