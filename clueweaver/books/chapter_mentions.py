"""The chapters a question names ("in chapter 5", "第五回中", "au chapitre V", "в главе 3", "im 3.
Kapitel"), read against the book's own chapter labels.

A reader who remembers where something happened says so, and the words that say it are a scope,
not content: "第五回" matches only the heading of chapter 5 (which the segmenter skips), "chapter"
any paragraph that says the word. Retrieval reads the named chapter's best paragraphs first and
asks without the mention (``clueweaver.retrieval.index``); a mention the book cannot resolve is a
warning, never a silent miss (``clueweaver.segments.segmenter.chapter_mention_warning``).

The forms read: Chinese and Japanese 第N回 / 第N章 / 第N节 / 第N話 (N in Chinese numerals or digits);
the chapter words of English, French, German, Spanish, Portuguese, Italian, Russian and Greek before
a number in digits, capital Roman numerals, English number words or an ordinal word ("chapitre
premier"), or after an ordinal ("the fifth chapter", "im dritten Kapitel", "3. Kapitel", "le
cinquième chapitre", "в пятой главе"); a plural names a list or a range ("chapters 3 and 7",
"chapitres 3 à 5"); and the book's last chapter named as such ("the last chapter", "最后一回",
"最終章", "au dernier chapitre", "im letzten Kapitel", "в последней главе").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from clueweaver.books.numerals import DAI_NUMERALS, ENGLISH_ORDINALS, NUMBER_WORDS, number_value
from clueweaver.books.ordinals import LAST_PATTERN, LAST_WORDS, ORDINAL_PATTERN, ordinal_value

MAX_RANGE = 20  # the most chapters one range names ("chapters 3-7"); a longer one is read as its two ends
LAST = -1  # the number of "the last chapter", "最后一回", "dernier chapitre": whichever the book's last is
_LAST_BEFORE_UNIT = rf"{LAST_PATTERN}|final|последн(?:ей|юю|яя|ий|ем)"  # "в последней главе"
_UNIT = (
    r"chapters?|chap\.|ch\.|chapitres?|kapiteln?|cap[ií]tulos?|capitol[oi]|"
    r"глав(?:ах|ами|ам|ой|ою|а|ы|е|у)|κεφ[άα]λαι(?:ον|ου|ων|ο|α)|κεφ\."
)
_NUMBER = rf"\d+|(?-i:[IVXLCDM]+)|(?:(?:{NUMBER_WORDS})[\s-]*)+|{ORDINAL_PATTERN}|{LAST_PATTERN}"
_JOIN = r"\s*(?:[,&–-]|\b(?:and|to|through|et|à|au|und|bis|y|a|e|и|по|до|και)\b)\s*"
_AFTER_UNIT = re.compile(rf"\b(?:{_UNIT})\s*((?:{_NUMBER})\b(?:{_JOIN}(?:{_NUMBER})\b)*)", re.IGNORECASE)
# a Russian ordinal in an oblique case before "главе": its feminine nominative is what ordinals.py spells
_RUSSIAN_OBLIQUE = r"[а-яё]+(?:ой|ей)"
_BEFORE_UNIT = re.compile(
    rf"\b({_LAST_BEFORE_UNIT}|{ORDINAL_PATTERN}|{'|'.join(ENGLISH_ORDINALS)}|{_RUSSIAN_OBLIQUE}|\d+\.)\s+(?:{_UNIT})",
    re.IGNORECASE,
)
_DAI = re.compile(rf"第\s*([{DAI_NUMERALS}]+|\d+)\s*[回章节節话話]|(最[后後終终](?:一|の)?)[回章]")
_RANGE = re.compile(r"-|–|\b(?:to|through|à|au|bis|a|по|до)\b", re.IGNORECASE)


@dataclass(frozen=True)
class ChapterMention:
    """A place where a text names chapters: the words as written and the numbers they give."""

    text: str
    numbers: tuple[int, ...]


def chapter_mentions(text: str) -> list[ChapterMention]:
    """Every chapter mention in ``text``, in the order written; a number that cannot be read
    ("chapter the seventy-seventh") makes none."""
    found: list[tuple[int, ChapterMention]] = []
    taken: list[range] = []
    for pattern, read in ((_DAI, _one), (_AFTER_UNIT, _listed), (_BEFORE_UNIT, _ordinal)):
        for match in pattern.finditer(text):
            span = range(match.start(), match.end())
            if any(span.start < other.stop and other.start < span.stop for other in taken):
                continue
            numbers = read(match.group(1) or match.group(2))
            if numbers:
                taken.append(span)
                found.append((match.start(), ChapterMention(match.group(0).strip(), numbers)))
    return [mention for _, mention in sorted(found, key=lambda item: item[0])]


def without_chapter_mentions(text: str) -> str:
    """``text`` with its chapter mentions taken out (the words a retrieval query should not match);
    ``text`` itself when nothing else would be left."""
    stripped = text
    for mention in chapter_mentions(text):
        stripped = stripped.replace(mention.text, " ", 1)
    return stripped if stripped.strip() else text


def _one(token: str) -> tuple[int, ...]:
    if token.lower() in LAST_WORDS or token.lower() == "final" or token.startswith("最") or "последн" in token.lower():
        return (LAST,)
    value = number_value(token)
    return (value,) if value else ()


def _ordinal(token: str) -> tuple[int, ...]:
    token = token.lower()
    if token in ENGLISH_ORDINALS:
        return (ENGLISH_ORDINALS.index(token) + 1,)
    if re.fullmatch(_RUSSIAN_OBLIQUE, token) and ordinal_value(token) is None:
        token = token[:-2] + ("ая" if token.endswith("ой") else "ья")  # "пятой" -> "пятая", "третьей" -> "третья"
    return _one(token)


def _listed(numbers: str) -> tuple[int, ...]:
    """The numbers of "3", "3 and 7", "3, 5 and 7", "3-5" ("chapters 3 to 5": each chapter between)."""
    values: list[int] = []
    pieces = re.split(rf"({_JOIN})", numbers, flags=re.IGNORECASE)
    for k in range(0, len(pieces), 2):
        value = next(iter(_one(pieces[k].strip())), None)
        if value is None:
            break
        joined_by_range = k >= 2 and _RANGE.search(pieces[k - 1]) and values
        if joined_by_range and 0 < values[-1] < value <= values[-1] + MAX_RANGE:
            values.extend(range(values[-1] + 1, value + 1))
        else:
            values.append(value)
    return tuple(dict.fromkeys(values))


def chapters_named(chapters: Sequence, text: str) -> tuple[list, list[int]]:
    """The chapters (``Chapter``) that ``text`` names, by the label a reader uses ("5" names the
    chapter labelled 5, and in a book whose labels are qualified by part, "1.5", "2.5", every part's
    fifth), and the numbers it names that no chapter carries."""
    found, missing = [], []
    for number in dict.fromkeys(n for mention in chapter_mentions(text) for n in mention.numbers):
        label = str(number)
        if number == LAST:
            named = list(chapters[-1:])
        else:
            named = [c for c in chapters if c.label == label or c.label.endswith("." + label)]
        found.extend(c for c in named if c not in found)
        if not named:
            missing.append(number)
    return found, missing


def named_as(numbers: Sequence[int]) -> str:
    """How a message names chapters by these numbers: "chapter 5, 9", "the last chapter"."""
    named = ", ".join("the last" if n == LAST else str(n) for n in numbers)
    return "the last chapter" if named == "the last" else f"chapter {named}"
