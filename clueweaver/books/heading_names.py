"""The line after a bare chapter heading that names the chapter though it ends with a sentence's mark, as
Dom Casmurro's do ("II." then "Do livro."): read as the heading's name only in a book that names its chapters
so (``clueweaver.books.chapter_structure`` joins it to the heading)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from clueweaver.books.chapters import is_rule, names_the_chapter

if TYPE_CHECKING:
    from clueweaver.books.chapter_structure import HeadingGroup

_MIN_STOPPED_NAMES = 3  # the fewest names ending with a sentence's mark that make a book's layout
# A sentence's end inside a line, but for an initial's full stop ("D. Gloria")
_SENTENCE_BREAK = re.compile(r"(?<!\b[A-ZÀ-Þ])[.!?]\s")


def after_rules(texts: list[str], group: HeadingGroup) -> int:
    """The paragraph after a heading group and the rules under it."""
    return next((i for i in range(group.last + 1, len(texts)) if not is_rule(texts[i])), len(texts))


def _stopped_name(line: str) -> bool:
    """A short line that is one sentence ending with its mark: a name but for the mark."""
    line = line.strip()
    return line.endswith((".", "!", "?")) and not _SENTENCE_BREAK.search(line[:-1]) and names_the_chapter(line[:-1])


def stopped_names_of(texts: list[str], groups: list[HeadingGroup], afters: list[int]) -> set[int]:
    """The bare headings (by group) that a name ending with a sentence's mark follows, in a book that names
    its chapters so, as Dom Casmurro does ("II." then "Do livro.", "IV" then "Um dever amarissimo!"): half
    of its bare headings at least, three or more, are followed by one that more text follows before the
    next heading (``afters``: each group's ``after_rules``). None in any other book: a single short first
    sentence after a heading is prose."""
    bare = [k for k, group in enumerate(groups) if group.heading.unit is not None and not group.heading.name]
    named = set()
    for k in bare:
        after = afters[k]
        next_heading = groups[k + 1].first if k + 1 < len(groups) else len(texts)
        if after + 1 < next_heading and _stopped_name(texts[after]):
            named.add(k)
    return named if len(named) >= _MIN_STOPPED_NAMES and 2 * len(named) >= len(bare) else set()
