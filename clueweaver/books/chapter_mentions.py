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
"最終章", "au dernier chapitre", "im letzten Kapitel", "в последней главе"). Parts, volumes and books
are read the same way ("Part II", "the second part", "第二卷", "im zweiten Teil", "во второй части",
"Livre III"): a part names its chapters, and a chapter named with its part is that part's chapter. A
question that quotes a chapter's name names it too ("在“刘姥姥一进荣国府”那一回中": ``chapters_titled``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Sequence

from clueweaver.books.chapters import Heading
from clueweaver.books.language import HAN
from clueweaver.books.numerals import DAI_NUMERALS, ENGLISH_ORDINALS, NUMBER_WORDS, number_value
from clueweaver.books.ordinals import LAST_PATTERN, LAST_WORDS, ORDINAL_PATTERN, ordinal_value

MAX_RANGE = 20  # the most chapters one range names ("chapters 3-7"); a longer one is read as its two ends
LAST = -1  # the number of "the last chapter", "最后一回", "dernier chapitre": whichever the book's last is
_LAST_BEFORE_UNIT = rf"{LAST_PATTERN}|final|последн(?:ей|юю|яя|ий|ем)"  # "в последней главе"
_CHAPTER = (
    r"chapters?|chap\.|ch\.|chapitres?|kapiteln?|cap[ií]tulos?|capitol[oi]|"
    r"глав(?:ах|ами|ам|ой|ою|а|ы|е|у)|κεφ[άα]λαι(?:ον|ου|ων|ο|α)|κεφ\."
)
# a part's words; "book" and "Band" only before a number ("the first book" he read is no part)
_PART = (
    r"parts?|volumes?|partie|livre|tome|(?<!zum )teil|buch|parte|libro|tomo|livro|"
    r"част(?:ями|ях|ью|ь|и)|книг[аеиу]|том[еау]?|μέρο[ςυ]"
)
_PART_BEFORE_NUMBER = rf"{_PART}|books?|vol\.|band"
_NUMBER = rf"\d+|(?-i:[IVXLCDM]+)|(?:(?:{NUMBER_WORDS})[\s-]*)+|{ORDINAL_PATTERN}|{LAST_PATTERN}"
_JOIN = r"\s*(?:[,&–-]|\b(?:and|to|through|et|à|au|und|bis|y|a|e|и|по|до|και)\b)\s*"
# a Russian ordinal in an oblique case before "главе": its feminine nominative is what ordinals.py spells
_RUSSIAN_OBLIQUE = r"[а-яё]+(?:ой|ей)"
_ORDINAL = rf"{_LAST_BEFORE_UNIT}|{ORDINAL_PATTERN}|{'|'.join(ENGLISH_ORDINALS)}|{_RUSSIAN_OBLIQUE}|\d+\."
_DAI_NUMBER = rf"第\s*([{DAI_NUMERALS}]+|\d+)\s*"


def _patterns(unit_after_number: str, unit_before_number: str, dai_units: str, last_units: str) -> tuple:
    """The three ways a unit is named: 第N回 (or 最后一回), the word before its number(s), after its ordinal."""
    return (
        re.compile(rf"{_DAI_NUMBER}[{dai_units}]|(最[后後終终](?:一|の)?)[{last_units}]"),
        re.compile(rf"\b(?:{unit_before_number})\s*((?:{_NUMBER})\b(?:{_JOIN}(?:{_NUMBER})\b)*)", re.IGNORECASE),
        re.compile(rf"\b({_ORDINAL})\s+(?:{unit_after_number})\b", re.IGNORECASE),
    )


_CHAPTER_PATTERNS = _patterns(_CHAPTER, _CHAPTER, "回章节節话話", "回章")
_PART_PATTERNS = _patterns(_PART, _PART_BEFORE_NUMBER, "卷巻部", "卷巻部")
_RANGE = re.compile(r"-|–|\b(?:to|through|à|au|bis|a|по|до)\b", re.IGNORECASE)


@dataclass(frozen=True)
class ChapterMention:
    """A place where a text names chapters (or, with ``part``, parts): the words as written and the
    numbers they give."""

    text: str
    numbers: tuple[int, ...]
    part: bool = False
    loose: bool = False  # a part named by an ordinal ("the first part"), which may be a letter's or a plan's


def chapter_mentions(text: str) -> list[ChapterMention]:
    """Every chapter and part mention in ``text``, in the order written; a number that cannot be
    read ("chapter the seventy-seventh") makes none."""
    found: list[tuple[int, ChapterMention]] = []
    taken: list[range] = []
    for part, (dai, before, after) in ((False, _CHAPTER_PATTERNS), (True, _PART_PATTERNS)):
        for pattern, read in ((dai, _one), (before, _listed), (after, _ordinal)):
            for match in pattern.finditer(text):
                span = range(match.start(), match.end())
                if any(span.start < other.stop and other.start < span.stop for other in taken):
                    continue
                numbers = read(match.group(1) or match.group(2))
                if numbers:
                    taken.append(span)
                    mention = ChapterMention(match.group(0).strip(), numbers, part, part and pattern is after)
                    found.append((match.start(), mention))
    return [mention for _, mention in sorted(found, key=lambda item: item[0])]


def without_chapter_mentions(text: str, *, book_has_parts: bool = True) -> str:
    """``text`` with its chapter mentions taken out (the words a retrieval query should not match;
    a part named by an ordinal stays in a book without parts, see ``chapters_named``); ``text``
    itself when nothing else would be left."""
    stripped = text
    for mention in chapter_mentions(text):
        if book_has_parts or not mention.loose:
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


def chapters_named(chapters: Sequence, text: str) -> tuple[list, list[str]]:
    """The chapters (``Chapter``) that ``text`` names, and what it names that the book lacks ("chapter
    9", "part 4", "the last chapter"). A chapter is named by the label a reader uses ("5" names the
    chapter labelled 5 and, in a book whose labels are qualified by part, every part's fifth); a part
    by its place among the book's parts, and it names its chapters; a chapter named with its part
    ("Part 2, chapter 5") is that part's chapter alone when the part has one so numbered. A part named
    by an ordinal ("the first part") counts only in a book that has parts: elsewhere it is a letter's
    or a plan's. The chapters whose name it quotes follow (``chapters_titled``)."""
    mentions = chapter_mentions(text)
    parts = [m for m in mentions if m.part and (has_parts(chapters) or not m.loose)]
    by_chapter, missing = _named(chapters, [m for m in mentions if not m.part], _chapters_numbered, "chapter")
    by_part, missing_parts = _named(chapters, parts, _chapters_of_part, "part")
    both = [c for c in by_chapter if c in by_part]
    found = both or by_chapter + [c for c in by_part if c not in by_chapter]
    return found + [c for c in chapters_titled(chapters, text) if c not in found], missing + missing_parts


def has_parts(chapters: Sequence) -> bool:
    """Whether a book's chapters stand under part headings: where a part named by an ordinal counts."""
    return any(c.part is not None for c in chapters)


def chapters_titled(chapters: Sequence, text: str) -> list:
    """The chapters whose name ``text`` quotes (``title_pieces``): one line of a Chinese chapter's name
    ("刘姥姥一进荣国府" names 红楼梦's 回 6), or a whole name ("A Merry Christmas"), in any case."""
    folded = " ".join(text.casefold().split())
    return [c for c in chapters if any(piece.casefold() in folded for piece in title_pieces(c.title))]


@cache
def title_pieces(title: str) -> tuple[str, ...]:
    """What of a chapter's heading names it when quoted: its name's lines of four Chinese characters or
    more, else the whole name when it has two words and ten letters or more; none for a bare number
    (kept per heading: every question reads every chapter's)."""
    name = " ".join(Heading.parse(title).name.split())
    lines = tuple(line for line in re.split(r"[\s，,；;：:、。]+", name) if len(re.findall(rf"[{HAN}]", line)) >= 4)
    if lines:
        return lines
    return (name,) if len(name.split()) >= 2 and len(name) >= 10 else ()


def _named(chapters: Sequence, mentions: list[ChapterMention], resolve, unit: str) -> tuple[list, list[str]]:
    found, missing = [], []
    for number in dict.fromkeys(n for mention in mentions for n in mention.numbers):
        named = resolve(chapters, number)
        found.extend(c for c in named if c not in found)
        if not named:
            missing.append(f"the last {unit}" if number == LAST else f"{unit} {number}")
    return found, missing


def _chapters_numbered(chapters: Sequence, number: int) -> list:
    if number == LAST:
        return list(chapters[-1:])
    label = str(number)
    return [c for c in chapters if c.label == label or c.label.endswith("." + label)]


def _chapters_of_part(chapters: Sequence, number: int) -> list:
    """The chapters of the book's ``number``-th part (its parts in reading order: runs of chapters
    under one part heading)."""
    parts: list[list] = []
    for chapter in chapters:
        if chapter.part is not None:
            if parts and parts[-1][-1].part == chapter.part:
                parts[-1].append(chapter)
            else:
                parts.append([chapter])
    if number == LAST:
        return parts[-1] if parts else []
    return parts[number - 1] if 0 < number <= len(parts) else []
