"""ChronoRAG's settings (``ChronoConfig``, nested in ``PipelineConfig`` as ``chrono``) and the error
it raises on purpose.

The same settings serve every way in: ``clueweaver chrono build|query``, ``eval --system
chronorag``, and ``--segment-source chrono`` in ``ask``, ``segment`` and ``eval``; each field has
one flag (``clueweaver.cli.common.add_chrono_arguments``). Which defaults come from the paper and
which are ours is in docs/chronorag.md.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from clueweaver.core.errors import ClueWeaverError

RETRIEVAL_MODES = ("dense", "hybrid", "bm25")
PAPER_BUDGET = 1500  # tokens of evidence; the budget the paper compares methods at


class ChronoError(ClueWeaverError, RuntimeError):
    """ChronoRAG cannot do what was asked (no index, no encoder, no token counter); the message
    says what to pass or build."""


@dataclass(frozen=True)
class ChronoConfig:
    """How a ChronoRAG index is built and read.

    Built (part of the index's cache key): ``chunk_tokens`` (k, Layer 0), ``group_chunks`` (l,
    chunks per summary), ``summarize`` (False: the no-summarization ablation, relations extracted
    from the chunks' own text). Read: ``retrieval`` over Layer 1, ``window`` (chronological
    neighbours on each side of a retrieved chunk; 0: the no-neighbourhood ablation), ``merged_key``
    (the merged-key ablation). ``model``: the model whose index is read (None: the Interpreter's
    for ``eval --system chronorag``; for the segment source, the book's one index with these build
    settings). ``max_attempts`` and ``batch_groups``: per output, and groups per generation call.
    """

    chunk_tokens: int = 128
    group_chunks: int = 4
    summarize: bool = True
    retrieval: str = "dense"
    window: int = 1
    merged_key: bool = False
    model: str | None = None
    max_attempts: int = 3
    batch_groups: int = 16

    def __post_init__(self) -> None:
        for name in ("chunk_tokens", "group_chunks", "max_attempts", "batch_groups"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.window < 0:
            raise ValueError(f"window must be 0 (no neighbours) or more, got {self.window}")
        if self.retrieval not in RETRIEVAL_MODES:
            raise ValueError(f"retrieval: unknown mode {self.retrieval!r}; use {', '.join(RETRIEVAL_MODES)}")

    def build_settings(self) -> dict:
        """The settings an index is built with: with the book, the model and the prompts, its cache key."""
        return {"chunk_tokens": self.chunk_tokens, "group_chunks": self.group_chunks, "summarize": self.summarize}

    def changed(self) -> dict:
        """The fields set away from their defaults (``model`` aside), in field order."""
        default = ChronoConfig()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "model" and getattr(self, f.name) != getattr(default, f.name)
        }

    def build_command(self, model: str | None) -> str:
        """The ``clueweaver chrono build`` command of these build settings, for the messages that
        say how to build a missing index."""
        flags = {"chunk_tokens": "--chrono-chunk-tokens", "group_chunks": "--chrono-group-chunks"}
        changed = self.changed()
        parts = [f"--model {model or 'MODEL'}"]
        parts += [f"{flags[name]} {changed[name]}" for name in flags if name in changed]
        parts += [] if self.summarize else ["--chrono-no-summary"]
        return f"clueweaver chrono build BOOK --backend hf|vllm|openai {' '.join(parts)}"

    def label(self) -> str:
        """The changed fields as a run label's words (``summarize=False window=2``)."""
        return " ".join(f"chrono.{name}={value}" for name, value in self.changed().items())
