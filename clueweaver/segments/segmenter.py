"""Retrieval-aware segmentation: cut a book into the few candidate segments the Finder reads.

The fused ranking of paragraphs for the question and its options gives anchors. The best
``num_windows`` anchors get a local window: P_w contiguous paragraphs where the ranking is densest
around the anchor, the scene the clue sits in. The other anchors, up to ``num_anchors``, are
grouped in narrative order into retrieval-anchored segments of P_r paragraphs each: the passages
retrieval ranked highest, which are often far apart (the several hops of a multi-hop question),
shown with gap markers between them. Overlapping windows merge (up to P_w + P_r paragraphs,
beyond which the later one is trimmed); an anchor inside a window is not repeated, so the Finder
never reads a paragraph twice.

When retrieval ranks nothing (no dense encoder, and no word shared with the question), segmenting
fails with a ``NoMatchError`` that says why (a script ClueWeaver cannot cut into words, a question in
another language than the book, no shared word) and what to pass: reading the whole book is the
explicit ``exhaustive`` mode, never a silent fallback that costs hundreds of Finder calls.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import NamedTuple

import numpy as np
import yaml

from clueweaver.books.chapter_labels import chapters_text, describe_labels
from clueweaver.books.language import SUPPORTED_LANGUAGES, UNDETERMINED, language_name, script_of
from clueweaver.books.narrative import Narrative, NarrativeError
from clueweaver.core.config import ConfigError, config_from_dict
from clueweaver.core.errors import ClueWeaverError
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index, joined_query, question_language
from clueweaver.retrieval.analyzers import UNKNOWN_LANGUAGE_PREFIX
from clueweaver.retrieval.dense import MULTILINGUAL_HINT

# The book length (paragraphs) up to which a preset's anchor count is used as it is; most novels of
# the shared data have 1,600-4,500 paragraphs (The Count of Monte Cristo: 15,000).
REFERENCE_PARAGRAPHS = 4000
# The cap on the Finder's cost: on any book it reads at most this many times the paragraphs the
# preset reads on a book of up to REFERENCE_PARAGRAPHS (Preset.paragraph_cap).
COST_CAP = 2.0


SHAPE_FIELDS = ("num_anchors", "num_windows", "max_length_scale")  # required of every preset


@dataclass(frozen=True)
class Preset:
    name: str
    max_selected: int  # N_E
    retrieval_paragraphs: int  # P_r
    window_paragraphs: int  # P_w
    char_budget: int  # B_c
    # The segment shape has no default: the tuned one differs per preset (clueweaver/presets.yaml,
    # chosen on the tuning set, docs/retrieval.md), and a default would hand a preset that leaves
    # them out some other preset's shape, or the untuned one (48 anchors, 4 windows, no scaling).
    num_anchors: int
    num_windows: int
    max_length_scale: float  # anchors grow with sqrt(book length / REFERENCE_PARAGRAPHS), at most this factor
    neighbours: int = 1
    long_book_windows: int = 0  # windows added as the anchors grow, all of them at max_length_scale

    def __post_init__(self) -> None:
        for name in ("max_selected", "retrieval_paragraphs", "window_paragraphs", "char_budget", "num_anchors"):
            if getattr(self, name) < 1:
                raise ValueError(f"preset {self.name}: {name} must be at least 1")
        if self.char_budget < 200:
            raise ValueError(f"preset {self.name}: char_budget must be at least 200 characters")
        if self.num_windows < 0 or self.neighbours < 0 or self.long_book_windows < 0:
            raise ValueError(f"preset {self.name}: num_windows, long_book_windows and neighbours cannot be negative")
        if self.max_length_scale < 1:
            raise ValueError(f"preset {self.name}: max_length_scale must be at least 1 (1: no scaling)")

    def length_scale(self, readable_paragraphs: int) -> float:
        """1 up to REFERENCE_PARAGRAPHS, then the square root of the length over it, at most
        ``max_length_scale``."""
        return min(max(1.0, math.sqrt(readable_paragraphs / REFERENCE_PARAGRAPHS)), self.max_length_scale)

    def anchors_for(self, readable_paragraphs: int) -> int:
        """How many anchors a book of ``readable_paragraphs`` gets: ``num_anchors`` up to
        REFERENCE_PARAGRAPHS, then growing with the square root of the length (a fixed count reads
        half a percent of a 15,000-paragraph novel), capped at ``max_length_scale`` times: the cap
        on the Finder's cost."""
        return round(self.num_anchors * self.length_scale(readable_paragraphs))

    def windows_for(self, readable_paragraphs: int) -> int:
        """How many of the best anchors get a local window: ``num_windows`` up to REFERENCE_PARAGRAPHS,
        plus ``long_book_windows`` in proportion as the anchors grow (all of them at the cap). On a
        long book the evidence a top anchor misses is often a few paragraphs from it."""
        if self.long_book_windows == 0 or self.max_length_scale == 1:
            return self.num_windows
        grown = (self.length_scale(readable_paragraphs) - 1) / (self.max_length_scale - 1)
        return self.num_windows + round(self.long_book_windows * grown)

    @property
    def paragraph_cap(self) -> int:
        """The most paragraphs the candidates hold on any book: COST_CAP times the most they hold on
        a book of up to REFERENCE_PARAGRAPHS (the anchors, and P_w - 1 more around each window's
        anchor). Only the long-book windows can reach it; then the lowest-ranked anchors go."""
        return round(COST_CAP * (self.num_anchors + self.num_windows * (self.window_paragraphs - 1)))

    def with_overrides(self, **overrides) -> "Preset":
        unknown = set(overrides) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise ValueError(f"unknown preset fields: {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **{k: v for k, v in overrides.items() if v is not None})


def load_presets(path: str | Path | None = None) -> dict[str, Preset]:
    """Presets from a YAML mapping name -> fields; the packaged paper presets by default."""
    text = (
        Path(path).read_text(encoding="utf-8")
        if path
        else files("clueweaver").joinpath("presets.yaml").read_text(encoding="utf-8")
    )
    raw = yaml.safe_load(text) or {}
    for name, fields in raw.items():
        missing = [shape for shape in SHAPE_FIELDS if isinstance(fields, dict) and shape not in fields]
        if missing:
            raise ConfigError(
                f"preset {name}: {', '.join(missing)} must be given. The segment shape has no default: the tuned one "
                "differs per preset (clueweaver/presets.yaml, e.g. detectiveqa: num_anchors 56, num_windows 1, "
                "max_length_scale 2.0; docs/retrieval.md says how each was chosen)"
            )
    return {name: config_from_dict(Preset, {"name": name, **fields}, f"preset {name}") for name, fields in raw.items()}


@lru_cache(maxsize=1)
def _packaged_presets() -> dict[str, Preset]:
    return load_presets()


PRESETS = _packaged_presets()


class UnknownPreset(ClueWeaverError, ValueError):
    """A preset name that is not in presets.yaml; the message lists the names."""


def get_preset(name: str | Preset) -> Preset:
    if isinstance(name, Preset):
        return name
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPreset(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None


@dataclass(frozen=True)
class Segment:
    """Paragraphs the Finder reads as one unit: a contiguous run (windows, exhaustive tiles) or a
    group of top-ranked paragraphs in narrative order (retrieval-anchored segments). ``source``
    names what proposed it (``plain``: the segmenter; ``nwm``: the world model's records;
    ``chrono``: a ChronoRAG index's passages; two sources joined by ``+`` when their spans merged),
    so a trace says where each one came from. ``kind`` says what sort of passage it is; the kinds
    are declared by the segment sources (``clueweaver.sources``), which check the segments they
    give against them: this layer sits below the sources and cannot list them."""

    paragraph_ids: tuple[int, ...]
    kind: str
    score: float = 0.0  # best fused retrieval score among its anchors
    anchor_ids: tuple[int, ...] = field(default=())
    source: str = "plain"

    def __post_init__(self) -> None:
        ids = self.paragraph_ids
        if not ids or any(b <= a for a, b in zip(ids, ids[1:])) or ids[0] < 0:
            raise ValueError(f"a segment is a non-empty ascending list of paragraph IDs, got {ids[:5]}...")

    @classmethod
    def span(
        cls, start: int, end: int, kind: str, score: float = 0.0, anchor_ids=(), source: str = "plain"
    ) -> "Segment":
        return cls(tuple(range(start, end + 1)), kind, score, tuple(sorted(anchor_ids)), source)

    @property
    def is_contiguous(self) -> bool:
        return self.end - self.start + 1 == len(self.paragraph_ids)

    @property
    def start(self) -> int:
        return self.paragraph_ids[0]

    @property
    def end(self) -> int:
        return self.paragraph_ids[-1]

    def __len__(self) -> int:
        return len(self.paragraph_ids)

    def render(self, narrative: Narrative) -> str:
        """The Finder's view: ``[id] text`` lines, with a marker where paragraphs are skipped."""
        return narrative.render(self.paragraph_ids)

    def chars(self, narrative: Narrative) -> int:
        return sum(len(narrative[i].text) for i in self.paragraph_ids)

    def to_dict(self, narrative: Narrative | None = None) -> dict:
        payload = {
            "paragraph_ids": list(self.paragraph_ids),
            "kind": self.kind,
            "span": [self.start, self.end],
            "score": round(self.score, 6),
            "anchor_ids": list(self.anchor_ids),
            "source": self.source,
        }
        if narrative is not None:
            payload["chars"] = self.chars(narrative)
        return payload


def _best_run(scores: np.ndarray, anchor: int, length: int, last: int) -> tuple[int, int]:
    """The ``length``-paragraph run containing ``anchor`` with the highest summed score; ties go
    to the run that centres the anchor."""
    length = min(length, last + 1)
    lo, hi = max(0, anchor - length + 1), min(anchor, last - length + 1)
    sums = np.convolve(scores[: last + 1], np.ones(length), mode="valid")[lo : hi + 1]
    centre = anchor - (length - 1) / 2
    starts = np.arange(lo, hi + 1)
    best = starts[np.lexsort((np.abs(starts - centre), -np.round(sums, 12)))[0]]
    return int(best), int(best + length - 1)


class Span(NamedTuple):
    """A candidate run of paragraphs before merging: ``start``-``end``, its kind and score, the
    paragraphs that earned it (``anchors``) and the source that proposed it."""

    start: int
    end: int
    kind: str
    score: float
    anchors: tuple[int, ...]
    source: str = "plain"


def merge_spans(spans: list[Span], max_len: int) -> list[Segment]:
    """Merge overlapping spans while the union stays within ``max_len`` paragraphs; otherwise trim
    the later span to start after the earlier one, so segments never share a paragraph. A merged
    segment keeps the first span's kind and names every source that went into it."""
    merged: list[list] = []
    for start, end, kind, score, anchors, source in sorted(spans):
        if merged and start <= merged[-1][1]:
            last = merged[-1]
            if max(end, last[1]) - last[0] + 1 <= max_len:
                last[1] = max(last[1], end)
                last[3] = max(last[3], score)
                last[4] = last[4] + anchors
                last[5].add(source)
                continue
            start = last[1] + 1
            if start > end:
                last[4] = last[4] + anchors
                last[5].add(source)
                continue
        merged.append([start, end, kind, score, anchors, {source}])
    segments = []
    for start, end, kind, score, anchors, sources in merged:
        kept = {a for a in anchors if start <= a <= end}
        segments.append(Segment.span(start, end, kind, score, kept, "+".join(sorted(sources))))
    return segments


def _retrieval_segments(anchors: list[tuple[int, float]], size: int, window_starts: list[int]) -> list[Segment]:
    """Retrieval-anchored segments: (paragraph, score) anchors in narrative order cut into groups of
    ``size``, and also where a window lies between two anchors, so that no segment's span
    straddles another segment."""
    groups: list[list[tuple[int, float]]] = []
    for anchor in sorted(anchors):
        previous = groups[-1][-1][0] if groups else None
        if groups and len(groups[-1]) < size and not any(previous < w < anchor[0] for w in window_starts):
            groups[-1].append(anchor)
        else:
            groups.append([anchor])
    return [
        Segment(tuple(p for p, _ in group), "retrieval", max(s for _, s in group), tuple(p for p, _ in group))
        for group in groups
    ]


class NoMatchError(ClueWeaverError, ValueError):
    """Retrieval ranked no paragraph for the question; the message says why and what to pass."""


def cross_language_warning(narrative: Narrative, index, question: Question) -> str | None:
    """A warning when the question is in another language than the book and the index has no dense
    encoder that bridges languages: BM25 then matches only the words both share (names, numbers)."""
    asked = question_language(question, index.language)
    if asked is None or asked == index.language or index.bridges_languages:
        return None
    return (
        f"the question seems to be in {language_name(asked)} and {narrative.title!r} in "
        f"{language_name(index.language)}: BM25 matches only the words the two share (names, numbers); "
        f"{MULTILINGUAL_HINT} ranks paragraphs by meaning across languages (or, when a model answers, "
        "--query-writer keywords has it write search words in the book's language; or ask in the book's "
        "language, or pass --language CODE if the book's language was detected wrongly)"
    )


def chapter_mention_warning(narrative: Narrative, named: list, missing: list[str], last: int) -> str | None:
    """A warning when the question names chapters the book has not (``missing``), or ``named`` ones
    that lie past the reading limit (paragraph ``last``), as ``chapters_named`` gives them: retrieval
    then reads the whole readable book's best paragraphs, not theirs."""
    beyond = [c.label for c in named if c.first_paragraph > last]
    problems = [_missing_chapters(narrative, missing)] if missing else []
    if beyond:
        verb = "lies" if len(beyond) == 1 else "lie"
        problems.append(f"{chapters_text(beyond)} {verb} past the reading limit (paragraph {last})")
    if not problems:
        return None
    return (
        f"the question names a chapter retrieval cannot read first: {'; '.join(problems)}; the best "
        "paragraphs of the readable book are read instead"
    )


def _missing_chapters(narrative: Narrative, missing: list[str]) -> str:
    named = ", ".join(missing)
    if not narrative.chapters:
        return f"{narrative.title!r} has no chapters ClueWeaver found ({named} named)"
    labels = describe_labels([c.label for c in narrative.chapters])
    return f"{narrative.title!r} has no {named} (its chapters are {labels}; 'clueweaver chapters BOOK' lists them)"


def no_match_error(narrative: Narrative, index, question: Question, readable: int, preset: Preset) -> NoMatchError:
    """Why retrieval ranked no paragraph, and what to pass instead."""
    book, asked = index.language, question_language(question, index.language)
    calls = math.ceil(readable / preset.window_paragraphs)
    if not index.bm25.terms(joined_query(question)):
        return NoMatchError(
            "retrieval ranked no paragraph: the question holds no word to search for, only punctuation, symbols or "
            "function words that every page holds ('the', 'of', '的', '了'). Ask with words of the book (a name, a "
            f"place, a thing), or pass --exhaustive to read the whole book ({calls} Finder calls)"
        )
    if book == UNDETERMINED:
        script = script_of(narrative.text)
        why = (
            f"{narrative.title!r} is in no language ClueWeaver knows (its Latin text shows none of their function "
            f"words): it is read as plain words, each cut to its first {UNKNOWN_LANGUAGE_PREFIX} letters, and none of "
            "them is in the question"
            if script == "latin"
            else f"{narrative.title!r} is in a script no supported language is written in ({script}): it is read as "
            f"plain words (a Latin or Cyrillic one cut to its first {UNKNOWN_LANGUAGE_PREFIX} letters, pairs of "
            "letters where the script writes no spaces), and none of them is in the question"
        )
        language_hint = f"--language CODE if the book is in one of {', '.join(SUPPORTED_LANGUAGES)}"
    else:
        differs = asked is not None and asked != book
        why = (
            f"the question seems to be in {language_name(asked)} and {narrative.title!r} in {language_name(book)}, "
            "and BM25 finds no word the two share"
            if differs
            else f"no paragraph of {narrative.title!r} shares a word with the question (the book is read as "
            f"{language_name(book)})"
        )
        language_hint = f"--language CODE if the book is not in {language_name(book)}"
    return NoMatchError(
        f"retrieval ranked no paragraph: {why}. Pass a dense encoder that ranks by meaning across languages "
        f"({MULTILINGUAL_HINT}), {language_hint}, or --exhaustive to read the whole book ({calls} Finder calls)"
    )


def second_round_segments(
    narrative: Narrative, ranking: list[tuple[int, float]], read: set[int], preset: str | Preset
) -> list[Segment]:
    """A second retrieval round's segments: the best half of the preset's anchors among paragraphs
    the first round did not read, grouped in narrative order like retrieval-anchored segments."""
    preset = get_preset(preset)
    fresh = [(p, s) for p, s in ranking if p not in read and not narrative[p].is_heading]
    return _retrieval_segments(fresh[: max(1, preset.num_anchors // 2)], preset.retrieval_paragraphs, [])


def segment_narrative(
    narrative: Narrative,
    question: Question,
    preset: str | Preset = "detectiveqa",
    *,
    index=None,
    encoder="auto",
    max_chapter: int | None = None,
    max_paragraph: int | None = None,
    exhaustive: bool = False,
) -> list[Segment]:
    """Candidate segments for a question, in narrative order.

    ``max_chapter`` restricts everything to chapters up to n (spoiler-free reading) and
    ``max_paragraph`` to paragraphs up to that ID (a benchmark's reading position); ``exhaustive``
    tiles the whole (restricted) book with P_w-paragraph windows, ranked but none left out: a
    recall-first research mode that costs one Finder call per window. When retrieval ranks nothing
    (no dense encoder and no shared word) and ``exhaustive`` is off: a ``NoMatchError``.
    """
    preset = get_preset(preset)
    last = narrative.last_paragraph_of_chapter(max_chapter)
    if max_paragraph is not None:
        last = min(last, max_paragraph)
    if last < 0:
        raise NarrativeError(f"{narrative.title}: nothing to read before chapter 1")
    index = index if index is not None else get_index(narrative, encoder)
    ranking = index.rank_question(question, max_paragraph=last)
    scores = np.zeros(last + 1)
    for paragraph_id, score in ranking:
        scores[paragraph_id] = score

    if not ranking and not exhaustive:
        raise no_match_error(narrative, index, question, last + 1, preset)
    if exhaustive:
        segments = []
        for start in range(0, last + 1, preset.window_paragraphs):
            end = min(start + preset.window_paragraphs, last + 1) - 1
            best = start + int(np.argmax(scores[start : end + 1]))
            segments.append(Segment.span(start, end, "exhaustive", float(scores[best]), (best,)))
        return segments

    r, w = preset.retrieval_paragraphs, preset.window_paragraphs
    # chapter headings match title words but are rarely evidence; keep them only as a last resort
    candidates = [(p, s) for p, s in ranking if not narrative[p].is_heading] or ranking
    anchors = candidates[: preset.anchors_for(last + 1)]
    windows = []
    for paragraph_id, score in anchors[: preset.windows_for(last + 1)]:
        if any(s <= paragraph_id <= e for s, e, *_ in windows):
            continue
        start, end = _best_run(scores, paragraph_id, w, last)
        windows.append(Span(start, end, "window", score, (paragraph_id,)))
    segments = merge_spans(windows, max_len=w + r)
    in_window = {i for s in segments for i in s.paragraph_ids}
    loose = [(p, s) for p, s in anchors if p not in in_window][: max(0, preset.paragraph_cap - len(in_window))]
    segments += _retrieval_segments(loose, r, [s.start for s in segments])
    return sorted(segments, key=lambda s: s.start)
