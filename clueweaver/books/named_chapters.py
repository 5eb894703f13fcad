"""The book's chapters that a question names: its mentions (``clueweaver.books.chapter_mentions``: "in
chapter 5", "第五回中", "the last chapter", "Part II") resolved against the chapters the book has, by the
labels a reader uses, the chapters whose name it quotes and those of the epilogue it names. What it names that
the book lacks is returned too, for the segmenter's warning."""

from __future__ import annotations

import re
from functools import cache
from typing import Sequence

from clueweaver.books.chapter_mentions import CHAPTER_WORD, LAST, ChapterMention, chapter_mentions, unit_kind
from clueweaver.books.chapter_scope import bounded, chapters_related, half_named, relate
from clueweaver.books.chapters import EPILOGUE_ORDINAL, NOTE_MARK, SECTION_WORDS, Heading, names_its_unit
from clueweaver.books.front_sections import sections_named
from clueweaver.books.language import HAN, KANA, character_fold
from clueweaver.books.numerals import number_value
from clueweaver.books.ordinals import RUSSIAN_OBLIQUE, nominative
from clueweaver.books.sequences import bare_place, place_name

_HAN_CHARACTER = re.compile(f"[{HAN}]")
_KANA_CHARACTER = re.compile(f"[{KANA}]")
# A name in Chinese or Japanese characters alone, as a story's title is ("祝福", "狗·猫·鼠", "蜘蛛の糸")
_CJK_NAME = re.compile(rf"[{HAN}{KANA}][{HAN}{KANA}·]*")
# How a question marks a work's title: Chinese book-title marks, traditional Chinese's for a piece in a
# collection, Japanese brackets, double for a book and single for a story or chapter ("在《祝福》中", "〈祝福〉裡",
# "『羅生門』で", "「鼻」の内供"); a quoted word alone that is a chapter's whole name is its name too
_TITLE_MARKS = ("《》", "〈〉", "『』", "「」")
# An epilogue a question names, counted or not: "the epilogue", "the second epilogue", "Epilogue II", "im zweiten
# Epilog", "во втором эпилоге", "l'épilogue", "尾声中", "エピローグで", a web novel's extras: "番外二里"
_EPILOGUE_MENTION = re.compile(
    rf"(?:\b(?P<ordinal>{EPILOGUE_ORDINAL}|{RUSSIAN_OBLIQUE})\s+)?"
    r"(?:(?<!\w)(?:epilog(?:ue)?|épilogue|ep[ií]logo|epilógus\w*|эпилог\w*|επίλογ\w*)(?:\s+(?P<numeral>(?-i:[IVX]+)|\d{1,2})\b)?"
    r"|尾声|尾聲|終章|终章|エピローグ|에필로그|(?P<extras>番外)篇?\s*(?P<cjk>[一二三四五六七八九十]+|\d{1,3})?)",
    re.IGNORECASE,
)
# A heading's word for a chapter, in any language a mention is read in ("chapter", "глава", "章", "回")
_CHAPTER_UNIT = re.compile(rf"(?:{CHAPTER_WORD}|[回章])")
# A chapter named by its label ("chapter 3.2", "au chapitre 2.5"), or by its part's Roman numeral and its number, as
# scholars cite ("II.5", "III.12"; "I.2.3" with a volume's numeral, its book's and its own)
_LABEL_MENTION = re.compile(
    rf"(?:\b(?:{CHAPTER_WORD})\s+(?P<label>\d{{1,3}}(?:\.\d{{1,3}})+)"
    r"|\b(?P<part>(?-i:[IVXL]+))\.(?P<chapter>\d{1,3}(?:\.\d{1,3})?))(?![\d.]*\d)",
    re.IGNORECASE,
)
# What may stand between a chapter's mention and the part's or the epilogue's it is said with: "the last chapter of
# part 1", "the first epilogue, chapter 3", "au dernier chapitre de la première partie", "im letzten Kapitel des
# zweiten Teils", "в последней главе первой части", "i sista kapitlet i första delen", "het laatste hoofdstuk van het
# eerste deel", "第一部の最終章"
_SCOPE_JOIN = re.compile(
    r"(?:[\s,:;—–-]|(?<!\w)(?:of|in|from|the|de|du|des|la|le|l'|l’|d'|d’|dans|del|della|dello|dei|di|nel|nella|il|"
    r"el|en|do|da|dos|das|no|na|o|a|der|dem|den|im|vom|von|aus|van|het|uit|i|av|w|we|v|ve|в|во|из|της|του|στο|στην)"
    r"(?!\w)"
    r"|[の的之中里裡의])*",
    re.IGNORECASE,
)


def chapters_named(chapters: Sequence, text: str, front: dict | None = None) -> tuple[list, list[str]]:
    """The chapters (``Chapter``) that ``text`` names, and what it names that the book lacks ("chapter
    9", "chapters 21-30", "part 4", "the last chapter"). A chapter is named by the label a reader uses
    ("5" names the chapter labelled 5 and, in a book whose labels are qualified by part, every part's
    fifth; in the heading's own word, a chapter cut into sections whole: ``_heads_its_sections``), by its
    own heading where the chapters that carry the label do not say the number (``_headed``), or by its
    place from the book's end ("the penultimate chapter", "后四十回"); a part
    by its place among the book's parts, and it names its chapters; a chapter named with its part
    ("Part 2, chapter 5") is that part's chapter alone when the part has one so numbered. A part named
    by an ordinal ("the first part") counts only in a book that has parts: elsewhere it is a letter's
    or a plan's (``counted_mentions``); in a book without parts a part's word names the chapter headed with it
    ("Book 2" an epic's "BOOK II"). A chapter said with its part or epilogue is that one's ("the last chapter of
    part 1": ``_chapters_in_scope``); a label as ``clueweaver chapters`` prints it names that chapter ("chapter
    3.2", "II.5"); a bound names the chapters on its side ("before chapter 10": ``chapter_scope``). The chapters
    whose name it quotes follow (``chapters_titled``), then a half of the book it names (``half_named``). Given the
    book's ``front`` sections (``front_sections``), a prologue or preface it names comes first, or is what it
    lacks."""
    mentions = counted_mentions(chapters, text)
    labelled, label_spans = _chapters_labelled(chapters, text)
    units = [m for m in mentions if not m.part and not any(m.start in span for span in label_spans)]
    parts = [m for m in mentions if m.part]
    # a chapter said with its section ("第二章第二節"): the section alone, where each names more than it
    nested, paired = _said_together(chapters, [u for u in units if u.relation is None], _chapters_numbered, text)
    by_chapter, missing = _named(chapters, [u for u in units if u.start not in paired], _chapters_numbered, "chapter")
    by_chapter = list(dict.fromkeys(labelled + nested + by_chapter))
    by_part, missing_parts = _named(chapters, parts, _chapters_of_part, "part")
    by_part = _said_together(chapters, parts, _chapters_of_part, text)[0] or by_part
    in_parts = set(by_part)
    both = [c for c in by_chapter if c in in_parts]
    scoped = [] if both else _chapters_in_scope(chapters, units, parts, text)
    titled = chapters_titled(chapters, text)
    in_titled = set(titled)  # a chapter said with its part's name ("下巻の第二章", "「先生と遺書」の三十五"): that one
    within = [] if both or scoped else [c for c in by_chapter if c in in_titled]
    found = both or scoped or within or by_chapter + by_part
    epilogue = [] if scoped else chapters_of_epilogue(chapters, text)
    sections, missing_sections = sections_named(front, chapters, text) if front is not None else ([], [])
    # in order, each once: sets and dicts, since a bound or a part names hundreds of a web novel's chapters
    named = sections + found + ([] if within else titled) + half_named(chapters, text)[0] + epilogue
    return list(dict.fromkeys(named)), missing + missing_parts + missing_sections


def named_span(chapters: Sequence, text: str) -> tuple[int, int] | None:
    """The first and last position (1-based) of the chapters ``text`` names as a reader writes them ("第十回",
    "chapter X", "Part 2", "Act II", "before chapter 10"), for a reading limit given so; None when it names none,
    what the book lacks, or chapters apart ("chapter 5" of every part)."""
    found, missing = chapters_named(chapters, text)
    place = {chapter: k for k, chapter in enumerate(chapters, start=1)}
    places = sorted(place[c] for c in found)
    if missing or not places or places != list(range(places[0], places[-1] + 1)):
        return None
    return places[0], places[-1]


def _chapters_labelled(chapters: Sequence, text: str) -> tuple[list, list[range]]:
    """The chapters ``text`` names by the labels ``clueweaver chapters`` prints, after a chapter's word ("in
    chapter 3.2", "au chapitre 2.5"), or by a part's Roman numeral and a chapter's number, as scholars cite a
    novel ("in II.5"), and where each is written; only labels the book has, or, in a book labelled by volume, part
    and chapter, the part such a label names ("I.2": Les Misérables' volume I, book second, as ``label_span``
    reads "1.2")."""
    found, spans = [], []
    for match in _LABEL_MENTION.finditer(text):
        label = match["label"] or f"{number_value(match['part'])}.{match['chapter']}"
        exact = [c for c in chapters if c.label == label]
        if labelled := exact or [c for c in chapters if c.label.startswith(f"{label}.") and c.label.count(".") == 2]:
            found.extend(c for c in labelled if c not in found)
            spans.append(range(match.start(), match.end()))
    return found, spans


def _chapters_in_scope(
    chapters: Sequence, units: list[ChapterMention], parts: list[ChapterMention], text: str
) -> list:
    """The chapters a mention names inside the part or epilogue it is said with ("the last chapter of part 1",
    "au dernier chapitre de la première partie", "chapter 3 of the first epilogue", "the second epilogue, chapter
    4"): that part's chapter headed or labelled with the number, else its n-th, counted from its end below zero.
    Said apart ("How does the last chapter answer Part 1?"), the two name what each names alone."""
    if not units:  # most questions name no chapter: no part's or place's scope to work out
        return []
    scopes = [
        (p.start, p.start + len(p.text), _chapters_of_part(chapters, n, p.text)) for p in parts for n in p.numbers
    ]
    if epilogue := _EPILOGUE_MENTION.search(text):
        scopes.append((epilogue.start(), epilogue.end(), chapters_of_epilogue(chapters, text)))
    placed = _placed_scopes(chapters, text)
    found: list = []
    for unit in units:
        end = unit.start + len(unit.text)
        for start, stop, scope in scopes + [s for s in placed if s[1] <= unit.start]:  # a bare place only before
            gap = text[end:start] if end <= start else text[stop : unit.start]
            if scope and _SCOPE_JOIN.fullmatch(gap):
                found.extend(c for n in unit.numbers for c in _numbered_in(scope, n, unit.text) if c not in found)
    return found


def _placed_scopes(chapters: Sequence, text: str) -> list[tuple[int, int, list]]:
    """Where ``text`` writes the place of a part headed by it alone (こころ's "上　先生と私": "上"), with that part's
    chapters; not after another Han character, where the place is a word's ("以上", "其中")."""
    places: dict[str, list] = {}
    for chapter in chapters:
        if chapter.part and (place := bare_place(chapter.part)):
            places.setdefault(place, []).append(chapter)
    if not places:
        return []
    written = re.finditer(rf"(?<![{HAN}])[{''.join(places)}]", text)
    return [(match.start(), match.end(), places[match.group()]) for match in written]


def _said_together(chapters: Sequence, mentions: list[ChapterMention], resolve, text: str) -> tuple[list, set[int]]:
    """The chapters that two mentions said together both name, when only joining words stand between them
    (``_SCOPE_JOIN``), and where the mentions so paired start. A part said with the volume it is in ("Volume 1, Book
    2" in Les Misérables, whose books count from one in each volume; "Book XI of Part IV"); a section said with its
    chapter ("第二章第二節", "第二章の第三節"), where "第二章" alone names the whole chapter and "第二節" every
    chapter's second section; the chapter alone where it has no such section ("第九十九回第一节" in a book of 回
    without sections, where "第一节" alone reads as chapter 1's label)."""
    if len(mentions) < 2:  # one mention pairs with none: it is resolved once, by the caller
        return [], set()
    mentions = sorted(mentions, key=lambda mention: mention.start)
    named = [(m, [c for n in m.numbers for c in resolve(chapters, n, m.text)]) for m in mentions]
    found: dict = {}
    paired: set[int] = set()
    for (outer_mention, outer), (inner_mention, inner) in zip(named, named[1:]):
        in_inner = set(inner)
        both = [c for c in outer if c in in_inner] or (outer if _in_sections_word(inner_mention.text) else [])
        if both and _SCOPE_JOIN.fullmatch(text[outer_mention.start + len(outer_mention.text) : inner_mention.start]):
            found.update(dict.fromkeys(both))
            paired.update((outer_mention.start, inner_mention.start))
    return list(found), paired


def _in_sections_word(mention: str) -> bool:
    """Whether ``mention`` names a section within a chapter ("第三节", "제2절", "section 2": ``SECTION_WORDS``)."""
    return any(word in mention.casefold() for word in SECTION_WORDS)


def _numbered_in(scope: list, number: int, mention: str) -> list:
    """The chapter of ``scope`` (one part's chapters, in reading order) that ``number`` names as in a book of its
    own (``_chapters_numbered``), else its n-th: a part whose chapters are labelled on from the last part's."""
    return _chapters_numbered(scope, number, mention) or ([scope[number - 1]] if 0 < number <= len(scope) else [])


def counted_mentions(chapters: Sequence, text: str) -> list[ChapterMention]:
    """The mentions in ``text`` of this book's units. A part named by an ordinal ("the first part") counts in a book
    that has parts or heads its chapters with the part's word (Paradise Lost's "BOOK II"); elsewhere it is a
    letter's or a plan's. A unit named by an everyday word (an act, a scene, a letter, a canto: ``headed_only``)
    counts only in a book that heads its units so: a play, an epistolary novel, an epic."""
    parts = has_parts(chapters)
    return relate(
        text,
        [
            m
            for m in chapter_mentions(text)
            if not (m.headed_only or m.loose and not parts) or _heads_units_as(chapters, m.text)
        ],
    )


def without_chapter_mentions(text: str, chapters: Sequence) -> str:
    """``text`` without the mentions of the book's units that it makes (``counted_mentions``, with a bound's words),
    the labels it cites ("chapter 3.2", "II.5") and the half of the book it names: the words a retrieval query
    should not match; ``text`` itself when nothing else would be left."""
    stripped = text
    labels = [text[span.start : span.stop] for span in _chapters_labelled(chapters, text)[1]]
    half = [half_words] if (half_words := half_named(chapters, text)[1]) else []
    for words in labels + half + [mention.text for mention in counted_mentions(chapters, text)]:
        stripped = stripped.replace(words, " ", 1)
    return stripped if stripped.strip() else text


def chapters_of_epilogue(chapters: Sequence, text: str) -> list:
    """The chapters of the epilogue ``text`` names ("in the epilogue", "the second epilogue", "Epilogue II",
    "во втором эпилоге", "尾声中"), or of a web novel's extras ("番外二里"): the book's n-th where it counts one (War
    and Peace's "SECOND EPILOGUE"), else every one; none in a book that heads none so (Отцы и дети's last
    chapter, which readers call its epilogue, is numbered like the others)."""
    mention = _EPILOGUE_MENTION.search(text)
    if not mention:
        return []
    epilogues = [chapters for word, chapters in _epilogues(chapters) if (word == "番外") == bool(mention["extras"])]
    n = number_value(nominative(mention["ordinal"] or "") or mention["numeral"] or mention["cjk"] or "")
    if n is None:
        return [c for epilogue in epilogues for c in epilogue]
    return epilogues[n - 1] if 0 < n <= len(epilogues) else []


def _epilogues(chapters: Sequence) -> list[tuple[str, list]]:
    """The book's epilogues in order, each its heading's word ("epilogue", "番外") and its chapters: those
    under a part headed as one ("FIRST EPILOGUE"), or one chapter headed or named so ("EPILOGUE", "CHAPTER
    XL. EPILOGUE")."""
    epilogues: dict[str, tuple[str, list]] = {}
    for chapter in chapters:
        heading, part = Heading.parse(chapter.title), Heading.parse(chapter.part or "")
        if part.is_epilogue:
            epilogues.setdefault(chapter.part, (part.components[0][0], []))[1].append(chapter)
        elif heading.is_epilogue or _EPILOGUE_MENTION.fullmatch(heading.name.strip(" .:")):
            word = heading.components[0][0] if heading.is_epilogue else "epilogue"
            epilogues.setdefault(chapter.title, (word.removesuffix("篇"), []))[1].append(chapter)
    return list(epilogues.values())


def has_parts(chapters: Sequence) -> bool:
    """Whether a book's chapters stand under part headings: where a part named by an ordinal counts."""
    return any(c.part is not None for c in chapters)


def chapters_titled(chapters: Sequence, text: str) -> list:
    """The chapters whose name ``text`` quotes (``title_pieces``): one line of a Chinese chapter's name
    ("刘姥姥一进荣国府" names 红楼梦's 回 6, "劉姥姥一進榮國府" too), or a whole name as words ("A Merry
    Christmas"), in any case; and the sections of a story whose Chinese or Japanese name it quotes between
    a title's marks ("《奔月》中")."""
    fold = _variant_fold(text)
    folded = " ".join(text.casefold().translate(fold).split())
    return [c for c in chapters if any(_quotes(folded, piece.casefold().translate(fold)) for piece in _pieces(c))]


def _variant_fold(text: str) -> dict[int, str]:
    """How a question's characters and a chapter's name meet across their variant forms, as retrieval reads
    them (``character_fold``): in simplified Chinese ("釵" is "钗": a question typed in simplified names a
    traditional edition's 回), or in the new kanji forms for a Japanese question (kana); none without Han."""
    if not _HAN_CHARACTER.search(text):
        return {}
    return character_fold("ja" if _KANA_CHARACTER.search(text) else "zh")


def _pieces(chapter) -> tuple[str, ...]:
    """The chapter's ``title_pieces``, and its story's or part's Chinese or Japanese name between a title's marks:
    the whole name ("祝福"), the name after its number ("第一部 青春"), or each word of it (こころ's "下
    先生と遺書"); a part named by its place with its word, unquoted too ("下巻で", "後編では")."""
    part = NOTE_MARK.sub("", chapter.part or "")  # "第一部 青春[1]": its note's mark is not its name
    names = dict.fromkeys((part, Heading.parse(part).name, *part.split()))
    placed = (place,) if (place := place_name(part)) else ()
    return title_pieces(chapter.title) + tuple(marked for name in names for marked in _marked_titles(name)) + placed


def _marked_titles(name: str) -> tuple[str, ...]:
    """A Chinese or Japanese name between each of a title's marks ("《祝福》"); none for another name."""
    return tuple(f"{marks[0]}{name}{marks[1]}" for marks in _TITLE_MARKS) if _CJK_NAME.fullmatch(name) else ()


def _quotes(folded: str, piece: str) -> bool:
    """Whether ``folded`` holds ``piece`` whole: a name in letters as words ("a promessa." is not quoted by
    "da promessa."), a Chinese one anywhere (its characters have no spaces between words)."""
    if piece not in folded or _HAN_CHARACTER.search(piece):
        return piece in folded
    return re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", folded) is not None


@cache
def title_pieces(title: str) -> tuple[str, ...]:
    """What of a chapter's heading names it when quoted: its name's lines of four Chinese characters or
    more, a shorter Chinese or Japanese name between a title's marks ("《祝福》", "『羅生門』"), else the
    whole name when it has two words and ten letters or more; none for a bare number (kept per heading:
    every question reads every chapter's)."""
    name = NOTE_MARK.sub("", " ".join(Heading.parse(title).name.split()))  # "Долгий путь[2]": the note's mark aside
    lines = tuple(line for line in re.split(r"[\s，,；;：:、。]+", name) if len(_HAN_CHARACTER.findall(line)) >= 4)
    if lines:
        return lines
    # a word as short is asked about everywhere, a title only between its marks
    return _marked_titles(name) or ((name,) if len(name.split()) >= 2 and len(name) >= 10 else ())


def _named(chapters: Sequence, mentions: list[ChapterMention], resolve, unit: str) -> tuple[list, list[str]]:
    named_by_mention, missing = [], []
    for mention in dict.fromkeys(mentions):
        named: dict = {}
        for number in mention.numbers:
            by_number = resolve(chapters, number, mention.text)
            named.update(dict.fromkeys(by_number))
            if not by_number and number not in missing:
                missing.append(number)
        named_by_mention.append((mention.relation, chapters_related(chapters, list(named), mention.relation)))
    return bounded(named_by_mention), _missing_names(missing, unit)


def _missing_names(numbers: list[int], unit: str) -> list[str]:
    """How a warning names what the book lacks: "chapter 9", "chapters 21-30" (a run of numbers),
    "the last chapter", "chapter 3 from the end"."""
    names: list[str] = []
    runs: list[list[int]] = []
    for number in numbers:
        if number < 0:
            names.append(f"the last {unit}" if number == LAST else f"{unit} {-number} from the end")
        elif runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    named_runs = [f"{unit} {run[0]}" if len(run) == 1 else f"{unit}s {run[0]}-{run[-1]}" for run in runs]
    return named_runs + names


def _chapters_numbered(chapters: Sequence, number: int, mention: str) -> list:
    if number < 0 and unit_kind(mention):  # "the last letter": Frankenstein's Letter 4, not its Chapter 24
        return _units_headed(chapters, number, mention)
    if number < 0:
        wholes = _whole_chapters(chapters, mention)
        return wholes[number] if len(wholes) >= -number else []
    label = str(number)
    if sections := [c for c in chapters if c.label.startswith(label + ".") and _heads_its_sections(c, mention)]:
        return sections
    labelled = [c for c in chapters if c.label == label or c.label.endswith("." + label)]
    if any("." in c.label for c in chapters):  # labelled by part: "3" after volumes 1 and 2 is a closing section's
        labelled = [c for c in labelled if "." in c.label or _heading_number(c.title) == number]
    if headed := [c for c in labelled if _headed(c.title, number, mention)]:
        return headed if unit_kind(mention) else labelled  # "Canto II": the cantos, not an appendix's sonnet "II"
    return [c for c in chapters if _headed(c.title, number, mention)] or labelled


def _headed(heading: str, number: int, mention: str) -> bool:
    """Whether a heading gives its chapter ``number`` in a unit that ``mention`` names ("第三章 续优胜记略" for
    "第三章" or "in chapter 3"): in a collection whose first story is cut into bare "一", "二", "三" and whose
    second has "第一章" to "第九章", labelled in reading order, "第三章" is the chapter so headed."""
    unit = Heading.parse(heading).unit
    return unit is not None and unit[1] == number and _names_unit_as(unit[0], mention)


def _heading_number(heading: str) -> int | None:
    """The number a heading gives its chapter in any unit ("II. THE RED-HEADED LEAGUE": 2), or None ("尾声")."""
    unit = Heading.parse(heading).unit
    return None if unit is None else unit[1]


def _whole_chapters(chapters: Sequence, mention: str) -> list[list]:
    """The book's chapters in reading order, a chapter cut into sections (``_heads_its_sections``) as one."""
    wholes: list[list] = []
    for chapter in chapters:
        if wholes and chapter.part == wholes[-1][-1].part and _heads_its_sections(chapter, mention):
            wholes[-1].append(chapter)
        else:
            wholes.append([chapter])
    return wholes


def _heads_its_sections(chapter, mention: str) -> bool:
    """Whether ``chapter`` is a section of a chapter whose heading names its unit as ``mention`` does ("第二章
    发展", then "一", "二": labels 2.1, 2.2), so that "第二章" names the chapter with all its sections, not every
    chapter's second section; "第三节" (a section) and a story's or a part's heading ("I. A SCANDAL IN BOHEMIA",
    "ЧАСТЬ ПЕРВАЯ") keep the label's last level. The unit's word is compared by its first four letters, as a
    mention declines it ("в главе 2" under "Глава вторая"); a chapter's word in another language names it too
    ("in chapter 2" under "第二章 发展"), a section's ("第三节") does not."""
    if not chapter.part or not names_its_unit(chapter.part):
        return False
    return _names_unit_as(Heading.parse(chapter.part).unit[0], mention)


def _names_unit_as(word: str, mention: str) -> bool:
    """Whether ``mention`` names the unit a heading's ``word`` names: the same word, compared by its first four
    letters as a mention declines it ("в главе 2", "Глава"), or a chapter's word in another language ("in
    chapter 2", "章"), but for a section's ("第三节")."""
    word = word.casefold()
    if not word:
        return False
    if _declined_as(word, mention):
        return True
    return _CHAPTER_UNIT.fullmatch(word) is not None and not _in_sections_word(mention)


def _declined_as(word: str, mention: str) -> bool:
    """Whether ``mention`` says a heading's ``word``, compared by its first four letters as a mention declines it
    ("в главе 2" for "Глава", "во втором действии" for "Действие")."""
    return word.casefold()[:4] in mention.casefold()


def _chapters_of_part(chapters: Sequence, number: int, mention: str) -> list:
    """The chapters of the volume or part headed ``number`` in the unit ``mention`` names ("Part 2" The Brothers
    Karamazov's "PART II", over Books IV to VI; "Part 7" a volume's "ЧАСТЬ СЕДЬМАЯ", though the file holds three
    parts; "the last volume"), else of the book's ``number``-th volume or, in a book without volumes, part (in
    reading order: runs of chapters under one heading); in a book without parts, the chapter headed as that part
    (``_units_headed``)."""
    if not has_parts(chapters):
        return _units_headed(chapters, number, mention)
    volumes, parts = _runs(chapters, "volume"), _runs(chapters, "part")
    headed_volumes = [v for v in volumes if _unit_number(v[0].volume, mention) is not None]
    if number < 0:
        counted = headed_volumes or parts
        return counted[number] if len(counted) >= -number else []
    for runs, heading in ((headed_volumes, "volume"), (parts, "part")):
        if headed := [c for run in runs if _unit_number(getattr(run[0], heading), mention) == number for c in run]:
            return headed
    counted = volumes or parts
    return counted[number - 1] if 0 < number <= len(counted) else []


def _runs(chapters: Sequence, over: str) -> list[list]:
    """The book's runs of chapters under one heading of the kind ``over`` names ("part", "volume"), in order."""
    runs: list[list] = []
    for chapter in chapters:
        if (heading := getattr(chapter, over)) is not None:
            if runs and getattr(runs[-1][-1], over) == heading:
                runs[-1].append(chapter)
            else:
                runs.append([chapter])
    return runs


def _units_headed(chapters: Sequence, number: int, mention: str) -> list:
    """The chapter whose heading numbers it ``number`` in the unit ``mention`` names (the n-th from the end below
    zero): a book whose chapters are headed as parts are, "BOOK II" in an epic, "Действие второе" in a play
    of acts alone, where "Book 2" or "во втором действии" names that chapter."""
    units = [(c, n) for c in chapters if (n := _unit_number(c.title, mention)) is not None]
    if number < 0:
        return [units[number][0]] if len(units) >= -number else []
    return [c for c, n in units if n == number]


def _heads_units_as(chapters: Sequence, mention: str) -> bool:
    """Whether the book heads a chapter or a part in the unit ``mention`` names ("Act II" in a play)."""
    return any(
        _unit_number(heading or "", mention) is not None for c in chapters for heading in (c.title, c.part, c.volume)
    )


def _unit_number(heading: str, mention: str) -> int | None:
    """The number ``heading`` gives in the unit ``mention`` names, its word compared by its first four letters as
    a mention declines it ("ACT II" for "in Act 2", "Действие второе" for "во втором действии"), or the same kind's
    in another language ("Действие второе" for "in Act 2", "LETTRE II" for "in Letter 2"); None if none."""
    unit = unit_kind(mention)
    return next(
        (
            n
            for word, n in Heading.parse(heading).components
            if word and (_declined_as(word, mention) or unit is not None and unit_kind(word) == unit)
        ),
        None,
    )
