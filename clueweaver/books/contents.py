"""Headings a book's own contents list vouches for. 三国志通俗演义's 嘉靖本 heads its 240 sections
with titles alone ("祭天地桃园结义"), no number and no chapter word, and lists them under the book's
title; a title is a line like any short line of prose, but one the contents list names and the text
repeats, in the same order, on a line of its own, heads a section.

``contents_headings`` finds them; the chapter finder reads them as headings the text marks
(``clueweaver.books.narrative.from_paragraphs``). The list's own entries are repeated later, so
the finder leaves them in the front matter as it leaves any contents list.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence

_MAX_ENTRY_CHARS = 50
_ENTRY_ENDS = (".", "?", "!", ",", ";", ":", "。", "？", "！", "，", "；", "：", "…", "”", "」", '"')
_MIN_ENTRIES = 3  # titles found again, in order, for a run of short lines to be a contents list
# A contents list opens the book: later on, the verse of a poem or a play is runs of short lines too,
# whose speakers' names the text repeats in order.
_FRONT_MATTER_SHARE = 0.1


def contents_headings(texts: Sequence[str]) -> frozenset[str]:
    """The titles a contents list in the first tenth of the book names that the text repeats in the
    same order, each on a paragraph of its own with text between them (a song or a letter quoted
    twice repeats its lines one after another), at least three of them and at least half of the list."""
    where = defaultdict(list)
    for i, text in enumerate(texts):
        if _is_entry(text):
            where[text].append(i)
    headings: set[str] = set()
    start = 0
    while start < len(texts) * _FRONT_MATTER_SHARE:
        end, listed = start, set()
        while end < len(texts) and _is_entry(texts[end]) and texts[end] not in listed:  # the text's first title
            listed.add(texts[end])  # may follow the list directly
            end += 1
        if end - start >= _MIN_ENTRIES:
            headings.update(_found_again(texts[start:end], end, where))
        start = max(end, start + 1)
    return frozenset(headings)


def _is_entry(text: str) -> bool:
    return 0 < len(text) <= _MAX_ENTRY_CHARS and not text.endswith(_ENTRY_ENDS)


def _found_again(entries: Sequence[str], after: int, where: dict[str, list[int]]) -> list[str]:
    """The entries found once again after the list, in its order, none right after the one before. A
    title heads one section; a name the text repeats (a play's cast list, then its speakers) is no title."""
    found, position = [], after - 1
    for entry in entries:
        places = where[entry]
        k = bisect.bisect_right(places, position)
        if k < len(places) and len(places) - bisect.bisect_left(places, after) == 1:
            if found and places[k] == position + 1:
                return []  # lines repeated one after another: a quotation, not headings
            found.append(entry)
            position = places[k]
    return found if len(found) >= max(_MIN_ENTRIES, len(entries) / 2) else []
