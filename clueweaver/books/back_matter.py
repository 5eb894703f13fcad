"""What a book's text numbers or heads like chapters but is not one: endnotes numbered "1", "2", ...
under a notes heading, page numbers a scan left among the paragraphs, and the back matter of an
edition (its variant readings, its table or summary of contents by chapter), whose entries repeat
the chapter headings. ``chapter_heading_flags`` clears them from the headings ``is_heading`` found."""

from __future__ import annotations

import re
from collections import Counter

from clueweaver.books.chapters import BARE_DIGITS, BARE_NUMERAL, Heading, is_heading
from clueweaver.books.numerals import CJK_NUMERALS, number_value
from clueweaver.books.sentences import ends_with_sentence_mark

# A book's endnotes section, numbered "1", "2", ... like bare chapter numerals (RusLit's Russian e-texts:
# "Примечания", then 155 notes), and what the notes under it are called in the other languages.
_NOTES_HEADINGS = frozenset(
    "примечания примечание комментарии notes endnotes footnotes anmerkungen notas note annotazioni "
    "σημειώσεις 注释 注解 注 脚注 注記".split()
)


# How far past the last chapter number in digits a bare number may go and still number a chapter.
_CHAPTER_NUMBER_LEAP = 20
_CJK_NUMBER = re.compile(f"[{CJK_NUMERALS}]+")
_MIN_SAME_NUMBERS = 3  # a chapter's number and a note's "1" under it are two


def names_notes(text: str) -> bool:
    """A short line that opens with a notes word: "Примечания", "Notes", "Примечания к главе первой"."""
    words = text.split()
    return len(text) < 40 and bool(words) and re.sub(r"[\W_]+", "", words[0]).casefold() in _NOTES_HEADINGS


def without_endnote_numbers(texts: list[str], flags: list[bool]) -> list[bool]:
    """``flags`` (is each paragraph a heading) with the bare numerals after a notes heading
    ("Примечания", "Notes", "Примечания к главе первой") unset, once a chapter has opened before
    it: they number notes, not chapters. A worded heading after the notes ("CHAPTER XII",
    "ЧАСТЬ ВТОРАЯ", "Глава вторая") opens one and ends them: Подросток's first part ends in its
    notes, and the second part's sections are numbered again. So does a numeral that starts the
    numbering again at 1, written as the notes' own are: ELTeC's Fantasmas ends its first volume in notes
    I-V, and its second volume's chapters are I-XIII, under no heading of their own (Руслан и Людмила's
    notes "1" to "13" after an appendix's "II" stay notes)."""
    flags = list(flags)
    after_a_heading = in_notes = False
    last_note = ""  # the form of the notes' last number
    for i, text in enumerate(texts):
        if after_a_heading and names_notes(text):
            in_notes, last_note = True, ""
        elif in_notes and flags[i]:
            number = Heading.parse(text).number if BARE_NUMERAL.match(text) else None
            form = numeral_form(text)
            restarted = number == 1 and form == last_note
            flags[i], in_notes = number is None or restarted, number is not None and not restarted
            last_note = form
        after_a_heading = after_a_heading or flags[i]
    return flags


# A note a chapter ends with is a line or two ("чтобы стать учителем (франц.)."); a chapter is longer.
_NOTE_CHARACTERS = 500


def without_chapter_notes(texts: list[str], flags: list[bool]) -> list[bool]:
    """``flags`` with the numbers of the notes a chapter ends with unset: bare numbers in digits 1, 2,
    3 … each followed by one short paragraph (its note) and, after the last, by a heading that does
    not go on counting them, or by the end of the text (RusLit's Смерть Ивана Ильича ends chapter II
    with "1" to "5", each a French or Latin phrase translated: five chapters that were none)."""
    flags = list(flags)
    numbers = [int(text) if flag and text.strip().isdecimal() else None for text, flag in zip(texts, flags)]
    i = 0
    while i < len(texts):
        run, j = [], i
        while j < len(texts) and numbers[j] == len(run) + 1 and _one_note_after(texts, flags, j):
            run.append(j)
            j += 2
        ends_the_run = j >= len(texts) or flags[j] and numbers[j] != len(run) + 1
        if run and ends_the_run:
            for k in run:
                flags[k] = False
        i = max(j, i + 1)
    return flags


def _one_note_after(texts: list[str], flags: list[bool], i: int) -> bool:
    """Whether the paragraph after ``i`` is a short text, not a heading, and the last before a heading."""
    after = i + 1
    return (
        after < len(texts)
        and not flags[after]
        and len(texts[after]) <= _NOTE_CHARACTERS
        and (after + 1 >= len(texts) or flags[after + 1])
    )


def without_page_numbers(texts: list[str], flags: list[bool]) -> list[bool]:
    """``flags`` with the page numbers a scan leaves among the paragraphs unset: bare numbers in
    digits or Chinese numerals that cut a sentence in two (RusLit's Хозяйка: "…широко стал", "337", "вдыхать в
    себя…"), or that leap more than ``_CHAPTER_NUMBER_LEAP`` past the last chapter number ("I",
    then "341"), or that count nothing: a zero after the first number (a puzzle's remainder "０"
    under its rule, in 虫喰い算大会), or the number of the heading just before again (a note's "1" in
    chapter 1; after another heading, a story's title, "1" numbers its first section), and the same number three
    times or more with no other heading between (史记's calendar, whose years end in a month "十二" on its own
    line, 48 times). A chapter number follows a finished sentence, and the one before it."""
    flags = list(flags)
    numbers = {i: _bare_number(text) for i, text in enumerate(texts) if flags[i]}
    last = previous = None  # the last chapter number in digits; the number of the heading just before
    for i, number in numbers.items():
        if number is None:
            previous = None
            continue
        cut = 0 < i < len(texts) - 1 and not ends_with_sentence_mark(texts[i - 1]) and texts[i + 1][:1].islower()
        counts_nothing = number == 0 and last is not None or number == previous
        if cut or counts_nothing or number > (last or 0) + _CHAPTER_NUMBER_LEAP:
            flags[i] = False
        else:
            last = previous = number
    for run in _runs_of_one_number(numbers):
        flags[run[0]] = False
    return flags


def _bare_number(text: str) -> int | None:
    """The number of a bare numeral in digits or Chinese numerals ("12", "十二"), else None: more digits
    (``BARE_DIGITS``) are a year, which a file marks as a chapter's title (DEU018's "1806"), not a page's number."""
    numeral = text.strip().rstrip(".")
    digits = numeral.isdigit() and len(numeral) <= BARE_DIGITS
    return number_value(numeral) if digits or _CJK_NUMBER.fullmatch(numeral) else None


def _runs_of_one_number(numbers: dict[int, int | None]) -> list[list[int]]:
    """The headings' runs (``numbers``: each heading's bare number, None for a worded one) of one number three
    times or more, with no other heading between."""
    runs, current = [], []
    for i, number in numbers.items():
        if current and number is not None and number == numbers[current[-1]]:
            current.append(i)
        else:
            runs.append(current)
            current = [i] if number is not None else []
    runs.append(current)
    return [run for run in runs if len(run) >= _MIN_SAME_NUMBERS]


# The headings of an edition's back matter, in capitals or alone on their line: its variant readings
# and its table or summary of contents (RusLit's Война и мир, volume 2: "ПЕЧАТНЫЕ ВАРИАНТЫ", then "ОБЗОР
# СОДЕРЖАНИЯ ВТОРОГО ТОМА «ВОЙНЫ И МИРА» ПО ГЛАВАМ." with an entry per chapter, "Глава I. Приезд Николая
# Ростова…", then its footnotes' translations "1" to "172": 185 chapters that were none).
_BACK_MATTER_WORDS = frozenset(
    "варианты содержание содержания оглавление contents inhalt inhaltsverzeichnis matières índice indice "
    "sumário 目录 目錄 目次".split()
)


def _opens_back_matter(text: str) -> bool:
    """A short line in capitals that names back matter ("ПЕЧАТНЫЕ ВАРИАНТЫ", "CONTENTS"), or such a
    word alone ("Contents", "Оглавление")."""
    if len(text) > 80:  # most paragraphs: nothing to split
        return False
    words = text.split()
    if not (len(words) == 1 or text.isupper()):
        return False
    return any(re.sub(r"[\W_]+", "", word).casefold() in _BACK_MATTER_WORDS for word in words)


# A chapter tells at least this many characters before the next heading; an entry of a table or a
# summary of contents tells none, a note a few lines.
_CHAPTER_CHARACTERS = 3000


def without_back_matter(texts: list[str], flags: list[bool]) -> list[bool]:
    """``flags`` with the headings of an edition's back matter unset: once a numbered heading has
    opened a chapter (an EPUB's unnumbered title heading opens none), a back-matter heading
    (``_opens_back_matter``) starts it, and every heading after it is an entry or a note, not a
    chapter, until one that tells ``_CHAPTER_CHARACTERS`` before the next heading (the
    chapters after a table of contents: I promessi sposi's comes after "Vol. I.", before
    "CAPITOLO PRIMO."), or a part heading numbered past every part before it, and past 1 (the next
    volume of a file that holds two; a contents entry "Часть первая" opens none)."""
    flags = list(flags)
    headings = [i for i, flag in enumerate(flags) if flag]
    next_heading = dict(zip(headings, [*headings[1:], len(texts)]))
    chapters_seen, in_back_matter, last_part = False, False, 0
    for i, text in enumerate(texts):
        if chapters_seen and not in_back_matter and _opens_back_matter(text):
            in_back_matter = True
            continue
        if not flags[i]:
            continue
        heading = Heading.parse(text)
        number = heading.part[1] if heading.part and heading.part[1] is not None else None
        next_volume = number is not None and number > max(last_part, 1)
        if in_back_matter and not (next_volume or _tells_a_chapter(texts, i, next_heading[i])):
            flags[i] = False
            continue
        in_back_matter, chapters_seen = False, chapters_seen or is_heading(text)
        last_part = max(last_part, number or 0)
    return flags


def _tells_a_chapter(texts: list[str], heading: int, next_heading: int) -> bool:
    """Whether the paragraphs between a heading and the next hold ``_CHAPTER_CHARACTERS``."""
    return sum(len(texts[j]) for j in range(heading + 1, next_heading)) >= _CHAPTER_CHARACTERS


# Bare numerals of one form that show how a book numbers its chapters
_MIN_NUMERAL_RUN = 5


def numeral_form(text: str) -> str:
    """How a bare numeral is written, its number aside: "[ 0 ]" for "[ 7 ]", "— I —" for "— II —", "I" for
    "XII." (a full stop typed or not), "一" for "十二"; a book numbers its chapters in one or two such forms."""
    text = re.sub(rf"[{CJK_NUMERALS}]+", "一", re.sub(r"[IVXLCDMХІ]+", "I", text.strip().rstrip(".")))
    return re.sub(r"[\d０-９]+", "0", text)


def without_lone_numerals(texts: list[str], flags: list[bool]) -> list[bool]:
    """``flags`` without a bare numeral written in a form no other heading of the book takes, where
    ``_MIN_NUMERAL_RUN`` or more bare numerals share another: Bloom's "I." written in the sand (Ulysses,
    whose episodes are "[ 1 ]" to "[ 18 ]") numbers nothing."""
    bare = [i for i, text in enumerate(texts) if flags[i] and BARE_NUMERAL.match(text.strip())]
    forms = {i: numeral_form(texts[i]) for i in bare}
    counts = Counter(forms.values())
    if max(counts.values(), default=0) < _MIN_NUMERAL_RUN:
        return flags
    return [flag and not (i in forms and counts[forms[i]] == 1) for i, flag in enumerate(flags)]


def chapter_heading_flags(texts: list[str], flags: list[bool]) -> list[bool]:
    """``flags`` (is each paragraph a heading) without the endnote numbers, the back matter's headings,
    the numbers of a chapter's closing notes, the page numbers and a lone numeral of its own form."""
    flags = without_back_matter(texts, without_endnote_numbers(texts, flags))
    return without_lone_numerals(texts, without_page_numbers(texts, without_chapter_notes(texts, flags)))
