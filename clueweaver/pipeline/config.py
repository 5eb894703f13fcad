"""How ClueWeaver reads: ``PipelineConfig``, built from YAML or command-line settings by
``clueweaver.core.config``'s dataclass loader (a typo in a key or a wrong type fails naming the field),
and recorded whole in every trace (``trace["config"]``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from clueweaver.backends.base import SamplingConfig
from clueweaver.books.language import SUPPORTED_LANGUAGES
from clueweaver.chrono.config import ChronoConfig
from clueweaver.core.config import config_from_dict, config_to_dict, named
from clueweaver.protocol.calibration import ALWAYS_CALIBRATED, DEFAULT_TRIGGERS, CalibrationTriggers
from clueweaver.protocol.query_writer import QUERY_WRITER_MODES, QUERY_WRITER_OFF
from clueweaver.protocol.question import QUESTION_KINDS
from clueweaver.segments.segmenter import Preset, get_preset
from clueweaver.sources import segment_source


@dataclass(frozen=True)
class PipelineConfig:
    """How ClueWeaver reads. Build from YAML with ``PipelineConfig.from_dict``: the preset by name
    or as a mapping of overrides on top of ``base`` (default detectiveqa); sampling settings and
    triggers as nested mappings, which override this class's default for that agent (a
    ``finder_sampling`` mapping keeps the Finder's 128 tokens unless it sets its own).

    Token limits: the Finder's reason is one to three sentences (its length reward is full up to
    60 words), the Interpreter's two to five (full up to 120 words); the limits leave room for
    the tags and cut off rambling. Greedy decoding by default, as in evaluation.
    """

    preset: str | Preset = field(default="detectiveqa", metadata=named(get_preset))
    use_finder: bool = True  # False: the no-Finder ablation (pack the retrieved segments)
    self_calibration: bool = True  # False: the no-self-calibration ablation
    format_retry: bool = True  # an Interpreter output without a legal answer is asked again once, with a reminder
    finder_adapter: str | None = None  # adapter names, when one base model serves both agents
    interpreter_adapter: str | None = None
    # segments per Finder generate call; None: all in one batched call. A smaller batch reports
    # progress after each call (the offline smoke model on a CPU reads one at a time, and says so)
    finder_batch: int | None = None
    finder_sampling: SamplingConfig = SamplingConfig(max_new_tokens=128)
    interpreter_sampling: SamplingConfig = SamplingConfig(max_new_tokens=320)
    encoder: str | None = "auto"  # dense encoder of the retrieval index, when none is passed in
    language: str | None = None  # the book's language for retrieval (ISO 639-1); None: detected from the book
    cache_dir: str | None = None  # retrieval index cache
    exhaustive: bool = False  # tile the whole book instead of retrieving (one Finder call per window)
    hops: int = 1  # 2: the paragraphs the Finder cites seed a second retrieval round and Finder call
    # keywords | passage: the model writes search words (or a hypothetical answer passage) before
    # retrieval, which ranks with the question plus them; off by default (pipeline.query)
    query_writer: str = QUERY_WRITER_OFF
    triggers: CalibrationTriggers = DEFAULT_TRIGGERS  # tau(q)
    always_calibrate: tuple[str, ...] = ALWAYS_CALIBRATED  # question kinds tau(q) always fires for
    context_tokens: int | None = None  # evidence budget in the Interpreter's tokens instead of the preset's B_c
    segment_source: str = "plain"  # a registered source (clueweaver.sources): "nwm", "mix", "chrono", ...
    segment_fallback: bool = False  # True: plain segments (recorded) when the source has nothing to give
    nwm_dir: str | None = None  # world-model stores (default: $CLUEWEAVER_CACHE/nwm)
    chrono: ChronoConfig = ChronoConfig()  # the ChronoRAG index read by segment_source chrono (docs/chronorag.md)

    def __post_init__(self) -> None:
        object.__setattr__(self, "preset", get_preset(self.preset))
        if self.language is not None and self.language not in SUPPORTED_LANGUAGES:
            raise ValueError(f"unknown language {self.language!r}; use one of {', '.join(SUPPORTED_LANGUAGES)}")
        segment_source(self.segment_source)  # an unknown name fails here, naming the registered ones
        unknown = [kind for kind in self.always_calibrate if kind not in QUESTION_KINDS]
        if unknown:
            raise ValueError(f"always_calibrate: unknown question kind(s) {unknown}; use {', '.join(QUESTION_KINDS)}")
        object.__setattr__(self, "always_calibrate", tuple(self.always_calibrate))
        if self.hops not in (1, 2):
            raise ValueError(f"hops must be 1 or 2 (a second retrieval round), got {self.hops}")
        if self.hops == 2 and not self.use_finder:
            raise ValueError(
                "hops: 2 (--hops 2) needs the Finder, whose citations seed the second round, but use_finder is false "
                "(--no-finder): drop one of the two settings"
            )
        self._check_query_writer()
        if self.finder_batch is not None and self.finder_batch < 1:
            raise ValueError(
                f"finder_batch must be a positive number of segments (or null: all at once), got {self.finder_batch}"
            )
        if self.context_tokens is not None and self.context_tokens < 1:
            raise ValueError(f"context_tokens must be a positive number of tokens, got {self.context_tokens}")

    def _check_query_writer(self) -> None:
        """A known mode, and retrieval for it to steer: reading every window (``exhaustive``)
        ranks nothing that decides what is read."""
        if self.query_writer not in QUERY_WRITER_MODES:
            raise ValueError(f"unknown query_writer {self.query_writer!r}; use one of {', '.join(QUERY_WRITER_MODES)}")
        if self.query_writer != QUERY_WRITER_OFF and self.exhaustive:
            raise ValueError(
                f"query_writer: {self.query_writer} (--query-writer) steers retrieval, but exhaustive: true reads "
                "every window whatever retrieval ranks: drop one of the two settings"
            )

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> PipelineConfig:
        """From a YAML/CLI mapping; a ``ConfigError`` (a ValueError) names a bad or unknown field."""
        return config_from_dict(cls, values)

    def to_dict(self) -> dict:
        """Every field as plain data: the preset, sampling settings and triggers as their fields,
        an encoder object (one passed in instead of a name) by its name."""
        encoder = self.encoder
        if not isinstance(encoder, (str, type(None))):
            encoder = getattr(encoder, "name", "custom")
        return config_to_dict(dataclasses.replace(self, encoder=encoder))
