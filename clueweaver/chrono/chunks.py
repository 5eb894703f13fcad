"""Layer 0 of ChronoRAG: the book cut into chunks of whole sentences of at most k tokens, in
narrative order, and the groups of l consecutive chunks that are summarized together.

A chunk is a list of pieces, ``(paragraph ID, first character, one past the last)``, so that it
knows the paragraphs it covers and shows them as ``[id] text`` lines the Interpreter can cite.
Sentences fill a chunk while its text stays within k tokens by the given counter (the generation
backend's own); a chunk may span several short paragraphs, and a paragraph longer than k tokens
spans several chunks. A sentence longer than k (a long quotation is one sentence) is cut at the
sentence ends inside its quotations, else between words (a CJK character is a word; a single word
longer than k stays whole). Chunks and groups never cross a chapter, so a chapter limit never cuts one in two:
what a reader may see is always whole chunks and whole groups.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import groupby

from clueweaver.books.narrative import Narrative
from clueweaver.books.sentences import CJK_CHARACTERS, sentence_spans

Counter = Callable[[str], int]
Piece = tuple[int, int, int]  # paragraph ID, first character, one past the last

_WORD = re.compile(rf"[{CJK_CHARACTERS}]|[^\s{CJK_CHARACTERS}]+")


@dataclass(frozen=True)
class Chunk:
    """One Layer 0 node: pieces of consecutive paragraphs, one piece per paragraph."""

    pieces: tuple[Piece, ...]

    @property
    def paragraph_ids(self) -> tuple[int, ...]:
        return tuple(p for p, _, _ in self.pieces)

    @property
    def first_paragraph(self) -> int:
        return self.pieces[0][0]

    @property
    def last_paragraph(self) -> int:
        return self.pieces[-1][0]

    def text(self, narrative: Narrative) -> str:
        """The chunk's words as the builder's prompts show them and its token count measures them."""
        return piece_text(narrative, self.pieces)


def piece_text(narrative: Narrative, pieces) -> str:
    """The pieces' text, one line per paragraph."""
    return "\n".join(narrative[p].text[start:end] for p, start, end in pieces)


def _cut_between_words(text: str, span: tuple[int, int], count: Counter, max_tokens: int) -> list[tuple[int, int]]:
    """A sentence longer than ``max_tokens`` as runs of whole words of at most that many tokens."""
    start, end = span
    words = [(start + m.start(), start + m.end()) for m in _WORD.finditer(text[start:end])]
    runs, run_start, run_end = [], words[0][0], words[0][1]
    for word_start, word_end in words[1:]:
        if count(text[run_start:word_end]) > max_tokens:
            runs.append((run_start, run_end))
            run_start = word_start
        run_end = word_end
    return runs + [(run_start, run_end)]


def _runs(text: str, span: tuple[int, int], count: Counter, max_tokens: int) -> list[tuple[int, int]]:
    """A sentence as runs of at most ``max_tokens``: whole, else cut at the sentence ends inside its
    quotations, else between words."""
    start, end = span
    if count(text[start:end]) <= max_tokens:
        return [span]
    inner = sentence_spans(text[start:end], keep_quotes=False)
    if len(inner) == 1:
        return _cut_between_words(text, span, count, max_tokens)
    return [run for a, b in inner for run in _runs(text, (start + a, start + b), count, max_tokens)]


def _units(narrative: Narrative, paragraph_ids, count: Counter, max_tokens: int) -> Iterator[Piece]:
    """The sentences of the paragraphs in order, each within ``max_tokens``."""
    for paragraph_id in paragraph_ids:
        text = narrative[paragraph_id].text
        for span in sentence_spans(text):
            yield from ((paragraph_id, *run) for run in _runs(text, span, count, max_tokens))


def _joined(pieces: list[Piece], unit: Piece) -> list[Piece]:
    """``pieces`` with ``unit`` added: the same paragraph's piece grows, another paragraph starts one."""
    if pieces and pieces[-1][0] == unit[0]:
        return [*pieces[:-1], (unit[0], pieces[-1][1], unit[2])]
    return [*pieces, unit]


def chunk_narrative(narrative: Narrative, count: Counter, max_tokens: int) -> list[Chunk]:
    """Layer 0: every paragraph's sentences in narrative order, packed into chunks of at most
    ``max_tokens`` tokens by ``count``, never across a chapter."""
    chunks: list[Chunk] = []
    for _, paragraphs in groupby(narrative.paragraphs, key=lambda p: p.chapter):
        current: list[Piece] = []
        for unit in _units(narrative, [p.id for p in paragraphs], count, max_tokens):
            trial = _joined(current, unit)
            if current and count(piece_text(narrative, trial)) > max_tokens:
                chunks.append(Chunk(tuple(current)))
                trial = [unit]
            current = trial
        if current:
            chunks.append(Chunk(tuple(current)))
    return chunks


def chunk_groups(narrative: Narrative, chunks: list[Chunk], size: int) -> list[range]:
    """Runs of ``size`` consecutive chunks (fewer at a chapter's end), never across a chapter."""
    groups: list[range] = []
    for _, members in groupby(range(len(chunks)), key=lambda i: narrative[chunks[i].first_paragraph].chapter):
        first = next(members)
        stop = first + 1 + sum(1 for _ in members)
        groups += [range(start, min(start + size, stop)) for start in range(first, stop, size)]
    return groups
