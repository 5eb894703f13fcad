"""Ordered evidence packing: the Finder's selected segments become one packet for the Interpreter.

Paragraphs enter the packet by priority while the character budget allows: first the paragraphs
the Finder cited (or, for a segment kept without citations, its whole text), then their
chronological neighbours (ChronoRAG-style neighbourhood assembly), then the rest of the selected
segments. The packet is rendered in narrative order as ``[id] text`` lines, with a visible gap
marker between non-adjacent spans, so the Interpreter sees the story in the order it happens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from clueweaver.books.narrative import Narrative
from clueweaver.segments.segmenter import Preset, Segment, get_preset


@dataclass
class Packet:
    paragraph_ids: tuple[int, ...]  # narrative order
    text: str
    spans: list[tuple[int, int]]  # contiguous runs, first and last paragraph ID
    segments: list[Segment] = field(default_factory=list)  # the segments it was built from
    dropped_segments: list[Segment] = field(default_factory=list)  # over the N_E cap
    dropped_paragraphs: tuple[int, ...] = ()  # wanted but over the character budget
    truncated: tuple[int, ...] = ()  # paragraphs cut to fit, marked in the text

    @property
    def chars(self) -> int:
        return len(self.text)

    def to_dict(self) -> dict:
        return {
            "paragraph_ids": list(self.paragraph_ids),
            "spans": [list(s) for s in self.spans],
            "chars": self.chars,
            "text": self.text,
            "segments": [s.to_dict() for s in self.segments],
            "dropped_segments": [s.to_dict() for s in self.dropped_segments],
            "dropped_paragraphs": list(self.dropped_paragraphs),
            "truncated": list(self.truncated),
        }


def contiguous_spans(ids: Sequence[int]) -> list[tuple[int, int]]:
    """The runs of consecutive IDs in ascending ``ids``, as (first, last) pairs."""
    spans: list[tuple[int, int]] = []
    for i in ids:
        if spans and i == spans[-1][1] + 1:
            spans[-1] = (spans[-1][0], i)
        else:
            spans.append((i, i))
    return spans


def _longest_fitting_cut(narrative: Narrative, paragraph: int, budget: int, measure: Callable[[str], int]) -> int:
    """The most characters of ``paragraph`` whose rendering (with its cut marker) fits ``budget``:
    a bisection, since ``measure`` may be a tokenizer."""
    low, high = 0, len(narrative[paragraph].text)
    while low < high:
        middle = (low + high + 1) // 2
        if measure(narrative.render([paragraph], truncate={paragraph: middle})) <= budget:
            low = middle
        else:
            high = middle - 1
    return low


def pack(
    narrative: Narrative,
    segments: Sequence[Segment],
    preset: str | Preset = "detectiveqa",
    *,
    cited_ids: Iterable[int] | None = None,
    max_paragraph: int | None = None,
    token_budget: tuple[int, Callable[[str], int]] | None = None,
) -> Packet:
    """Pack selected segments within N_E segments and B_c characters (the rendered text, markers
    included, never exceeds B_c). ``cited_ids`` are the Finder's citations (IDs outside the
    selected segments are ignored); neighbours never go past ``max_paragraph`` (a chapter limit).
    ``token_budget`` = (tokens, counter) replaces B_c by a budget in a model's tokens (a context
    budget shared by systems compared at, e.g., 1,500 tokens).
    """
    preset = get_preset(preset)
    budget, measure = token_budget or (preset.char_budget, len)
    last = len(narrative) - 1 if max_paragraph is None else max_paragraph
    cited = set(cited_ids or ())

    def rank_key(segment: Segment):
        has_citation = any(i in cited for i in segment.paragraph_ids)
        return (not has_citation, -segment.score, segment.start)

    unique = list({s.paragraph_ids: s for s in segments}.values())
    ranked = sorted(unique, key=rank_key)
    kept, dropped = ranked[: preset.max_selected], ranked[preset.max_selected :]
    kept.sort(key=lambda s: s.start)

    # priority tiers: cited (or whole uncited segments), neighbours of cited, rest of segments
    first_tier, rest = [], []
    for segment in sorted(kept, key=rank_key):
        inside = [i for i in segment.paragraph_ids if i in cited]
        first_tier.extend(inside or segment.paragraph_ids)
        rest.extend(i for i in segment.paragraph_ids if inside and i not in inside)
    neighbours = []
    for distance in range(1, preset.neighbours + 1):
        for i in sorted(cited):
            neighbours.extend(j for j in (i - distance, i + distance) if 0 <= j <= last)
    wanted = list(dict.fromkeys(first_tier + neighbours + rest))

    chosen: list[int] = []
    over_budget: list[int] = []
    for i in wanted:
        trial = sorted(chosen + [i])
        if measure(narrative.render(trial)) <= budget:
            chosen = trial
        else:
            over_budget.append(i)

    truncate: dict[int, int] = {}
    if not chosen and wanted:
        # Not even one paragraph fits: keep the most important one, cut with a visible marker.
        first = wanted[0]
        over_budget.remove(first)
        chosen = [first]
        truncate[first] = _longest_fitting_cut(narrative, first, budget, measure)
    text = narrative.render(chosen, truncate=truncate)
    return Packet(
        paragraph_ids=tuple(chosen),
        text=text,
        spans=contiguous_spans(chosen),
        segments=kept,
        dropped_segments=dropped,
        dropped_paragraphs=tuple(sorted(over_budget)),
        truncated=tuple(truncate),
    )
