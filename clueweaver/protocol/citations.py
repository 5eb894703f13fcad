"""The paragraphs a rationale cites: "[12]", "[12-15]", "paragraphs 3 and 5", "[12]-[14]", "第12段", "12번 단락", in
every language ``clueweaver.protocol.reply_words`` names paragraphs in. A reference is read, never guessed: an ID
outside the allowed set, and a range too long to be a citation, are reported as invalid rather than dropped."""

from __future__ import annotations

import re
from typing import Iterable

from clueweaver.protocol.cues import Table
from clueweaver.protocol.reply_words import LIST_WORDS, PARAGRAPH_WORDS, RANGE_WORDS, words_regex
from clueweaver.protocol.text import fold

# A cited range longer than this is not a citation but a way to claim everything: its two ends
# are reported as invalid IDs instead of being expanded.
MAX_RANGE_SPAN = 500
# All ranges of one reply together expand to at most this many IDs; later ranges are then
# reported by their ends in ``invalid_ids``. Bounds memory for any reply.
MAX_EXPANDED_IDS = 10_000
# Paragraph numbers longer than this many digits are reported as this sentinel (never an ID).
_MAX_DIGITS = 18
_HUGE_ID = 10**_MAX_DIGITS

_NUMBER = r"\d+"


def _range_sep(range_words: Table) -> str:
    return r"\s*(?:-|\u2013|\u2014|~|\uff5e|" + words_regex(range_words) + r")\s*"


def _item(range_sep: str) -> str:
    return _NUMBER + r"(?:" + range_sep + _NUMBER + r")?"


def _items(range_sep: str) -> str:
    return "(" + _item(range_sep) + r"(?:" + _LIST_SEP + _ID_MARK + _item(range_sep) + r")*)"


def _paragraph_words(languages: Iterable[str]) -> str:
    return words_regex({language: PARAGRAPH_WORDS[language] for language in languages}) + r"\.?"


_RANGE_SEP = _range_sep(RANGE_WORDS)
# Czech "a" is "and", where Spanish, Italian and Portuguese "a" is "to": after a Czech paragraph word, "odstavce
# 3 a 5" names two paragraphs, where "párrafos 3 a 5" names three.
_CZECH_RANGE_SEP = _range_sep({"cs": RANGE_WORDS["cs"]})
_CONJUNCTION = words_regex(LIST_WORDS)
_LIST_SEP = r"\s*(?:,|;|&|\u3001|\uff0c|" + _CONJUNCTION + r"|,\s*" + _CONJUNCTION + r")\s*"
_PARAGRAPH_WORD = _paragraph_words(PARAGRAPH_WORDS)
_ID_MARK = r"(?:¶\s*|p\.?\s*|" + _PARAGRAPH_WORD + r"\s*)?"
_ITEMS = _items(_RANGE_SEP)
_BRACKETED = re.compile(r"[\[\uff3b\u3010]\s*" + _ID_MARK + _ITEMS + r"\s*[\]\uff3d\u3011]", re.IGNORECASE)
_WORDED = re.compile(r"(?:" + _paragraph_words(set(PARAGRAPH_WORDS) - {"cs"}) + r"|¶)\s*\[?" + _ITEMS, re.IGNORECASE)
_CZECH_WORDED = re.compile(_paragraph_words(["cs"]) + r"\s*\[?" + _items(_CZECH_RANGE_SEP), re.IGNORECASE)
_ORDINAL = re.compile(r"第\s*" + _ITEMS + r"\s*段")  # Chinese and Japanese: "第12段", "第3至5段"
# The references a number opens start where a number does, not inside one: tried at every digit of a long run,
# they would read the run again from each ("[" and 5,000 nines took 23 s)
_NUMBER_START = r"(?<!\d)"
_COUNTED = re.compile(_NUMBER_START + _ITEMS + r"\s*번째?\s*(?:단락|문단)")  # Korean: "12번 단락", "3~5번째 문단"
# Czech, Hungarian and Norwegian also write ordinals, a dot after each, before the word: "ve 12. odstavci",
# "3. a 5. odstavec", "a 3–5. bekezdésben", "az 5. és a 7. bekezdés" (Hungarian's article before a number),
# "i 12. avsnitt". The word in lower case only: a capital after a number's dot opens a sentence
# ("v kapitole 3. Odstavec 5 líčí...").
_DOTTED_RANGE_SEP = _range_sep({language: RANGE_WORDS[language] for language in ("cs", "hu", "no")})
_DOTTED_ITEM = _item(_DOTTED_RANGE_SEP) + r"\."
_DOTTED_ORDINAL = re.compile(
    _NUMBER_START + "(" + _DOTTED_ITEM + "(?:" + _LIST_SEP + r"(?:az?\s+)?" + _DOTTED_ITEM + r")*)\s*"
    + words_regex({language: PARAGRAPH_WORDS[language] for language in ("cs", "hu", "no")})
)  # fmt: skip


def _item_re(range_sep: str) -> re.Pattern:
    return re.compile("(" + _NUMBER + ")(?:" + range_sep + "(" + _NUMBER + "))?", re.IGNORECASE)


# Each kind of reference, and how its numbers are read: after a Czech, Hungarian or Norwegian word, only their
# own words join a range.
_REFERENCES = tuple((pattern, _item_re(_RANGE_SEP)) for pattern in (_BRACKETED, _WORDED, _ORDINAL, _COUNTED)) + (
    (_CZECH_WORDED, _item_re(_CZECH_RANGE_SEP)),
    (_DOTTED_ORDINAL, _item_re(_DOTTED_RANGE_SEP)),
)


def _to_id(digits: str) -> int:
    return int(digits) if len(digits) <= _MAX_DIGITS else _HUGE_ID


# "[12]-[14]", "paragraph 12 to paragraph 14", "第12段到第14段": a range word joining two references, which then
# name the range between them; not "a" (nor French "à", folded to it), Czech "and" as well as Spanish "to".
_JOINING = re.compile(
    _range_sep({language: tuple(w for w in words if fold(w) != "a") for language, words in RANGE_WORDS.items()}),
    re.IGNORECASE,
)


def _references(text: str) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Each reference in ``text``, in order: where it starts and ends, and its items (a range's ends, or a number
    twice)."""
    found = []
    for pattern, item_re in _REFERENCES:
        for reference in pattern.finditer(text):
            items = [
                (_to_id(i.group(1)), _to_id(i.group(2) or i.group(1))) for i in item_re.finditer(reference.group(1))
            ]
            found.append((reference.start(), reference.end(), items))
    return sorted(found)


def reference_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the paragraph references in ``text`` (to tell them from other numbers)."""
    return [(start, end) for start, end, _ in _references(text)]


def _joined(text: str, references: list[tuple[int, int, list[tuple[int, int]]]]) -> list[tuple[int, int]]:
    """The ranges two references name together (``_JOINING``), each between one's last number and the other's
    first."""
    joined = []
    for (_, end, before), (start, _, after) in zip(references, references[1:]):
        (low, last), (first, high) = before[-1], after[0]
        if start >= end and low == last and first == high and _JOINING.fullmatch(text, end, start):
            joined.append((last, first))
    return joined


def paragraph_references(
    text: str, allowed_ids: Iterable[int] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(cited, invalid): the paragraph IDs ``text`` refers to with "[12]", "[12-15]", "[12, 14]",
    "paragraph 12", "paragraphs 3 and 5" or "[12]-[15]", split by membership in ``allowed_ids`` (no check when
    None). Both ascending and without repeats."""
    allowed = None if allowed_ids is None else {int(i) for i in allowed_ids}
    referenced: set[int] = set()
    invalid: set[int] = set()
    budget = MAX_EXPANDED_IDS
    references = _references(text)
    items = [item for _, _, items in references for item in items]
    for low, high in _joined(text, references):  # a joined range's ends are read with it, not as citations alone
        items.remove((low, low))
        items.remove((high, high))
        items.append((low, high))
    for low, high in items:
        low, high = min(low, high), max(low, high)
        span = high - low + 1
        if span > MAX_RANGE_SPAN or span > budget:
            invalid.update((low, high))
            continue
        budget -= span
        referenced.update(range(low, high + 1))
    if allowed is not None:
        invalid |= referenced - allowed
        referenced &= allowed
    return tuple(sorted(referenced)), tuple(sorted(invalid))
