"""How a Korean question names a chapter or a part, for ``clueweaver.books.chapter_mentions``: Korean sets the
unit after its number and its particles after the unit, as no other language read there does."""

from __future__ import annotations

import re

from clueweaver.books.mention_numbers import LAST, add_number, edge_numbers
from clueweaver.books.numerals import SINO_KOREAN_NUMERALS, number_value

# The unit after its number ("제3장에서", "제삼장", "3장에서", "3~5장", "3장부터 5장까지", "제3장과 제7장"),
# after a native ordinal ("두 번째 장", "첫째 장", "첫 장", "끝에서 두 번째 장", "마지막 장"), or a count of the first
# or last ones ("처음 세 장", "마지막 두 장"). A particle or nothing follows the unit ("장면" is a scene, "장소" a
# place); Sino-Korean numerals only after 제 ("삼장" is 三藏, the monk), and a number without 제 before 의 counts
# sheets ("3장의 편지", three letters), not a chapter. A section within a chapter: "제2절".
_KOREAN_END = r"(?:에서|에게|에|의|까지|부터|과|와|은|는|을|를|이|가|도|만|으로|로)?(?![\uac00-\ud7a3])"
_KOREAN_NUMBER = rf"(?:제\s*(?:\d+|[{SINO_KOREAN_NUMERALS}]+)|\d+)"
_KOREAN_JOIN = r"\s*(?:~|～|-|–|부터|에서|,|、|과|와|및)\s*"
_KOREAN_RANGE = re.compile(r"~|～|-|–|부터|에서")
_KOREAN_COUNTS = {"첫": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10}
_KOREAN_COUNTED = rf"{'|'.join(sorted(_KOREAN_COUNTS, key=len, reverse=True))}|\d+"
_KOREAN_NTH = {"첫째": 1, "둘째": 2, "셋째": 3, "넷째": 4, "다섯째": 5}


def korean_patterns(units: str) -> tuple:
    """How a Korean question names its units (``units``, e.g. "장"): numbers before the unit, and for
    chapters an ordinal, the last, or a count of the first or last ones."""
    unit = rf"(?:{units})"
    number = rf"{_KOREAN_NUMBER}(?:\s*{unit})?"
    listed = re.compile(
        rf"(?<![\d\uac00-\ud7a3])(?P<numbers>{number}(?:{_KOREAN_JOIN}{number})*)\s*{unit}(?P<end>{_KOREAN_END})"
    )
    if units != "장":
        return ((listed, _korean_listed, False),)
    nth = rf"(?P<nth>{'|'.join(_KOREAN_NTH)}|(?:{_KOREAN_COUNTED})\s*번째|첫)"
    return (
        (listed, _korean_listed, False),
        (re.compile(rf"(?P<from_end>끝에서\s*)?{nth}\s*{unit}{_KOREAN_END}"), _korean_ordinal, False),
        (
            re.compile(rf"(?P<edge>처음|마지막)\s*(?P<count>{_KOREAN_COUNTED})\s*{unit}{_KOREAN_END}"),
            _korean_edge,
            False,
        ),
        (re.compile(rf"마지막\s*{unit}{_KOREAN_END}"), lambda match: (LAST,), False),
    )


def _korean_listed(match: re.Match) -> tuple[int, ...]:
    """ "제3장", "3~5장" (each chapter between), "제3장과 제7장", a section "제2절"; () for sheets counted ("3장의
    편지") or a song's verses ("3절까지 불렀다"): a section is named with 제 alone."""
    unit = match.string[match.end("numbers") :].lstrip()[:1]
    if (match["end"] == "의" or unit == "절") and "제" not in match["numbers"]:
        return ()
    values: list[int] = []
    pieces = re.split(rf"({_KOREAN_JOIN})", match["numbers"])
    for k in range(0, len(pieces), 2):
        value = number_value(re.sub(r"^제|[^\d\w]|[장절부편권]$", "", pieces[k].strip()))
        if value is None:
            return ()
        add_number(values, value, k >= 2 and bool(_KOREAN_RANGE.search(pieces[k - 1])))
    return tuple(dict.fromkeys(values))


def _korean_ordinal(match: re.Match) -> tuple[int, ...]:
    """ "두 번째 장" (2), "첫째 장", "첫 장" (1), "끝에서 두 번째 장" (the second from the end)."""
    nth = match["nth"].replace("번째", "").strip()
    value = _KOREAN_NTH.get(nth) or _KOREAN_COUNTS.get(nth) or int(nth)
    return (-value,) if match["from_end"] else (value,)


def _korean_edge(match: re.Match) -> tuple[int, ...]:
    """ "처음 세 장" (chapters 1-3), "마지막 두 장" (the last two)."""
    count = match["count"]
    value = int(count) if count.isdigit() else _KOREAN_COUNTS[count]
    return edge_numbers(match["edge"] == "처음", value) if value >= 2 else ()
