"""Evaluation: the accuracy harness, metrics, audits and retrieval diagnostics."""
