"""ChronoRAG (Kim et al. 2025): a book indexed in two layers and read through passages assembled
in the order the story tells them, as a segment source (``--segment-source chrono``) and as an
evaluation system (``eval --system chronorag``). See docs/chronorag.md.

``config`` (``ChronoConfig``, ``ChronoError``), ``chunks`` (Layer 0: sentence chunks of at most k
tokens, and their groups), ``build`` (summaries and relation extraction through any backend, with
retries; the build report), ``store`` (the index folder: cache key, Layer 0, the log a build
resumes from), ``graph`` (Layer 1, the links, the ranking of Layer 1), ``assembly`` (neighbourhood
assembly within a token budget), ``segments`` (passages as Finder segments) and ``reader`` (the
eval system). Nothing is imported here, so that the pipeline's settings can name ``ChronoConfig``
without loading the builder (which uses the pipeline's token counter).
"""
