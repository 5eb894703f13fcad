"""Text laid out for a terminal, where a Chinese or Japanese character takes two columns: lines cut
to a width and columns padded to one, counted in those columns rather than in characters. The
commands' listings and the rendered answer (``clueweaver.pipeline.render``) both use it."""

from __future__ import annotations

import unicodedata


def cells(text: str) -> int:
    """Terminal columns ``text`` takes: two for each wide or full-width character, none for a combining mark."""
    return sum(_cell_width(c) for c in text)


def _cell_width(character: str) -> int:
    if unicodedata.combining(character):
        return 0
    return 2 if unicodedata.east_asian_width(character) in "WF" else 1


def clip(text: str, width: int, placeholder: str = " …") -> str:
    """``text`` cut to ``width`` columns, ``placeholder`` marking the cut. Spaced text is cut at the
    last space of the line's second half, as ``textwrap.shorten`` cuts it; Chinese and Japanese,
    which have no spaces (``shorten`` would drop a whole paragraph of them), between two characters."""
    if cells(text) <= width:
        return text
    room, end, used = width - cells(placeholder), 0, 0
    while end < len(text) and used + _cell_width(text[end]) <= room:
        used += _cell_width(text[end])
        end += 1
    space = text.rfind(" ", 0, end + 1)
    if not text[end].isspace() and space > end // 2:
        end = space
    return text[:end].rstrip() + placeholder


def column(text: str, width: int) -> str:
    """``text`` padded or cut (with "…") to exactly ``width`` columns, so that a column of Chinese
    titles lines up as one of Latin titles does (``str.ljust`` counts a CJK character as one)."""
    text = clip(text, width, "…")
    return text + " " * (width - cells(text))
