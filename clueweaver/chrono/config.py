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
# How a retrieved node is read: "relations" (the paper: the node, its chronologically adjacent
# Layer 1 nodes and their linked text) or "chunks" (our first reading: the node's linked chunks and
# their Layer 0 neighbours, no relation shown).
ASSEMBLIES = ("relations", "chunks")
# Merged-key ablations: "neighbours" (the paper: a relation joined with its adjacent relations),
# "chunks" (ours: a relation joined with the text of its linked chunks); None: the relation alone.
MERGED_KEYS = ("neighbours", "chunks")
PAPER_BUDGET = 1500  # tokens of evidence; the budget the paper compares methods at
COST_TOKENS = ("summary_tokens", "extraction_tokens")  # new tokens per try of a build's two steps
# Settings that say how an index is afforded or which one is read, not what a reading is.
UNLABELLED = ("model", "max_attempts", "batch_groups", "summary_tokens", "extraction_tokens", "max_failed_share")


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
    (the merged-key ablation, one of ``MERGED_KEYS``), ``assembly`` (one of ``ASSEMBLIES``),
    ``relations`` (False: the no-relation-extraction ablation, Layer 1 replaced by the groups'
    summaries, or their text when built without). ``model``: the model whose index is read (None:
    the Interpreter's for ``eval --system chronorag``; for the segment source, the book's one index
    with these build settings). Cost caps of a build: ``max_attempts`` per output,
    ``batch_groups`` per generation call, ``summary_tokens`` and ``extraction_tokens`` new tokens
    per try; ``max_failed_share``: the share of failed groups above which a build is an error.
    """

    chunk_tokens: int = 128
    group_chunks: int = 4
    summarize: bool = True
    retrieval: str = "dense"
    window: int = 1
    merged_key: str | None = None
    assembly: str = "relations"
    relations: bool = True
    model: str | None = None
    max_attempts: int = 3
    batch_groups: int = 16
    summary_tokens: int = 400  # a summary of at most SUMMARY_WORDS words, JSON around it
    extraction_tokens: int = 1500  # up to MAX_RELATIONS relations with their entities
    max_failed_share: float = 0.25

    def __post_init__(self) -> None:
        for name in ("chunk_tokens", "group_chunks", "max_attempts", "batch_groups", *COST_TOKENS):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.window < 0:
            raise ValueError(f"window must be 0 (no neighbours) or more, got {self.window}")
        if self.retrieval not in RETRIEVAL_MODES:
            raise ValueError(f"retrieval: unknown mode {self.retrieval!r}; use {', '.join(RETRIEVAL_MODES)}")
        if self.assembly not in ASSEMBLIES:
            raise ValueError(f"assembly: unknown {self.assembly!r}; use {', '.join(ASSEMBLIES)}")
        if self.merged_key is not None and self.merged_key not in MERGED_KEYS:
            raise ValueError(f"merged_key: unknown {self.merged_key!r}; use {', '.join(MERGED_KEYS)} or none")
        if not 0 <= self.max_failed_share <= 1:
            raise ValueError(f"max_failed_share must lie between 0 and 1, got {self.max_failed_share}")

    def build_settings(self) -> dict:
        """The settings an index is built with: with the book, the model and the prompts, its cache key."""
        return {"chunk_tokens": self.chunk_tokens, "group_chunks": self.group_chunks, "summarize": self.summarize}

    def changed(self) -> dict:
        """The fields set away from their defaults, in field order: the model and the build's
        cost caps aside, which change what a build costs, not what a reading is."""
        default = ChronoConfig()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in UNLABELLED and getattr(self, f.name) != getattr(default, f.name)
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
