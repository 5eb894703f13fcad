"""How a book's heading paragraphs make its chapters: each heading's group (a part's heading, the
chapter's, its name), the headings that open no chapter, and the parts, stories and epilogues the
chapters belong to. ``clueweaver.books.chapters`` reads each heading; ``clueweaver.books.chapter_labels``
numbers the chapters found here.

An EPUB's h1-h3 elements and a Markdown file's ``#`` lines are the headings the file marks, read
as detected ones are. In a book whose headings carry numbers, one without a number opens no
chapter of its own (its label would leave every chapter numbered by position): right after a
numbered heading it is that chapter's name ("<h3>CHAPTER I.</h3><h3>The Period</h3>"), directly
before one it opens that chapter (two or more such are the book's parts, numbered in reading order:
こころ's "上　先生と私", "中　両親と私"), before the first chapter it is front matter (a title page, a
contents page), and elsewhere it belongs to the chapter before it (an edition's endnotes, colophon,
licence), but in a TEI text's or FictionBook's body, whose front and back matter the file sets apart,
one after the last numbered chapter that opens prose is an appendix, a chapter of its own.

A heading the text's source repeats is one chapter: the same heading twice in a row (a scan's
duplicate) opens one chapter, at the first copy, and a table of contents (headings directly
followed by headings, or parts by parts, each repeated later) opens none (``_without_repeats``).
Bare numbers that number something else open none either (``clueweaver.books.back_matter``): notes
under a notes heading, up to the next worded heading, and a scan's page numbers, which cut a
sentence or leap past the chapter numbers. Then the structure:

- a **part** ("PART 2", "VOLUME I", "BOOK ONE") followed by chapters groups them; a part heading
  with no chapter after it is a chapter itself; a play's acts are its parts and its scenes its
  chapters ("ACT I", "SCENE II. A room in the castle.": 1.2; "ACTE PREMIER", "Erster Aufzug",
  "Действие первое" / "АКТ ПЕРВЫЙ" with "Явление I", "第一幕" with "第一场", "제1막"), and a play
  without scenes has its acts as chapters;
- a **story** of a collection is a numbered, titled heading directly followed by a heading
  numbered 1 in another style ("I. A SCANDAL IN BOHEMIA", then "I.", "II.", "III."); the story
  ends at the next heading in its own style ("II. THE RED-HEADED LEAGUE");
- an **epilogue** ("EPILOGUE", "Эпилог", "Épilogue", "尾声"; or numbered, "FIRST EPILOGUE", "Epilogue II",
  as War and Peace's two in English) after the story is a part
  when its chapter I follows it directly (Преступление и наказание), else a chapter when prose
  follows it, numbered one past the part, story or chapter before it ("7.1", "3", "41"); so is a
  closing section named as one ("CONCLUSION.", "FINALE.", "Schluß.", alone on its line) where no
  numbered chapter follows it; a prologue stays in the front matter;
- **volumes** over parts ("VOLUME I" over "BOOK FIRST", "PART II" over "Book IV") open their first chapters as
  parts do, and their parts' headings are read within them (``clueweaver.books.part_levels``);
- **sections** a book with parts numbers within its chapters ("Глава первая", then "I.", "II.") stay
  within them (``without_sections``);
- parts and stories are not chapters: their heading, and any text before their first chapter (a
  part's epigraph), opens that chapter, so "PART 2" shifts no chapter number; when that chapter is
  numbered 2 and prose follows the part heading, the part heading opens the part's chapter 1, whose
  numeral the source left out (Война и мир's second volume: "ЧАСТЬ ВТОРАЯ.", prose, then "II.").
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from clueweaver.books.back_matter import names_notes, numeral_form
from clueweaver.books.centred_titles import story_name
from clueweaver.books.chapters import (
    MIN_PROSE_CHARS,
    PROSE_ENDS,
    SECTION_WORDS,
    Heading,
    is_heading,
    is_rule,
    is_title_line,
    names_its_unit,
    names_the_chapter,
    web_lead_end,
)
from clueweaver.books.heading_names import after_rules, stopped_names_of
from clueweaver.books.numerals import CJK_NUMERALS
from clueweaver.books.part_levels import (
    heads_volume,
    keys_in_volumes,
    number_past,
    volume_words,
    volumes_apart,
    with_marked_parts,
    with_volumes,
)
from clueweaver.books.sentences import ends_with_sentence_mark


@dataclass(frozen=True)
class Unit:
    """A chapter before numbering: its first paragraph and title, the part or story it belongs to
    (its heading text and number), its own number (None when the heading has none), whether it is an
    appendix, numbered on after the book's chapters and parts by ``with_marked_parts``, and the volume
    over its part (``clueweaver.books.part_levels``)."""

    first: int
    title: str
    part: str | None = None
    part_number: int | None = None
    number: int | None = None
    appendix: bool = False
    volume: str | None = None
    volume_number: int | None = None


@dataclass(frozen=True)
class HeadingGroup:
    """A heading's paragraphs, ``first`` to ``last`` (a part's heading, the chapter's, its name), their
    text and the heading they make together, parsed once for every rule that reads them."""

    first: int
    last: int
    text: str
    heading: Heading


def _part_text(text: str, heading: Heading, *, named: bool = False) -> str:
    """A part's heading without a chapter's number after it, and without its own name unless ``named``."""
    end = len(text) if named and heading.unit is None else heading.part_end
    return text[web_lead_end(text) : end].strip().rstrip(".:—–-").strip(" *")


def _names_only_a_part(heading: Heading) -> bool:
    """ "PART 2", "BOOK ONE", "Erster Teil", "第一卷": a part's number and nothing else. Not an
    epilogue: it stays a heading group of its own, so that a contents list naming it is told apart."""
    return heading.part is not None and heading.unit is None and not heading.name and not heading.is_epilogue


def _next_part(part: Heading, text: str) -> bool:
    """Whether ``text`` heads another part in the same word as ``part`` ("BOOK I", then "BOOK II"): a contents
    list's next entry, never the part's first chapter."""
    following = Heading.parse(text)
    return _names_only_a_part(following) and following.part[0] == part.part[0]


def heading_groups(texts: list[str], flags: list[bool]) -> list[HeadingGroup]:
    """Each heading with the chapter heading right after a part heading ("PART 1", "CHAPTER ONE") and its
    name: a line in capitals after it, or a heading the file marks without a number (an EPUB's
    "<h2>CHAPTER I.</h2><h3>The Period</h3>"). ``flags`` (each paragraph's) then marks the name lines."""
    groups, i = [], 0
    while i < len(texts):
        if flags[i]:
            first, lead = i, Heading.parse(texts[i])
            if _names_only_a_part(lead) and i + 1 < len(texts) and flags[i + 1] and not _next_part(lead, texts[i + 1]):
                i += 1
            if i + 1 < len(texts) and _names_the_heading(texts[i], texts[i + 1], flags[i + 1]):
                i += 1
            for j in range(first, i + 1):
                flags[j] = True
            heading = _group_heading(texts, first, i, lead)
            groups.append(HeadingGroup(first, i, " ".join(texts[first : i + 1]), heading))
        i += 1
    return groups


def _names_the_heading(heading: str, following: str, marked: bool) -> bool:
    """Whether the paragraph after a heading is its name: a line in capitals, or a heading without
    a number after a numbered one."""
    if not marked:
        return is_title_line(following)
    return is_heading(heading) and not (is_heading(following) or _numbers_by_mark(following, Heading.parse(following)))


def _opens_story(heading: Heading, group: HeadingGroup, following: HeadingGroup | None) -> bool:
    """A numbered heading, named or worded ("第一章"), directly followed by a heading numbered 1 in
    another style: a story and its chapters, or a chapter and its sections."""
    if following is None or heading.unit is None or not (heading.name or heading.unit[0]):
        return False
    after = following.heading
    numbered_one = after.unit is not None and after.unit[1] == 1
    return following.first == group.last + 1 and numbered_one and after.style != heading.style


def _heads_a_part(texts: list[str], groups: list[HeadingGroup], k: int) -> bool:
    """A bare numeral directly followed by a numbered heading written in another form: a part and its
    first chapter, numbered on or from 1 (Ulysses' "— I —" over "[ 1 ]", "— II —" over "[ 4 ]")."""
    heading = groups[k].heading
    if heading.unit is None or heading.unit[0] or heading.name or k + 1 == len(groups):
        return False
    after = groups[k + 1]
    bare_after = after.heading.unit is not None and not after.heading.unit[0]
    return (
        bare_after and _directly_after(texts, groups, k) and numeral_form(after.text) != numeral_form(groups[k].text)
    )


def _group_heading(texts: list[str], first: int, last: int, lead: Heading) -> Heading:
    """A heading group's heading. A part's heading and the chapter heading after it are read apart
    (Anna Karenina's "ЧАСТЬ ПЕРВАЯ", then "I"), so that a bare numeral is the part's first chapter
    and not a name after the part; a name line after a part stays its name ("Vol. I.", then "I
    PROMESSI SPOSI": the title page of I promessi sposi); so is the line after a closing section's
    heading ("FINALE", then "La patria"). ``lead``: the group's first paragraph, parsed alone."""
    if last == first:
        return lead
    if lead.is_closing:  # "FINALE", then its name
        return dataclasses.replace(lead, name=" ".join(texts[first + 1 : last + 1]))
    if _names_only_a_part(lead):
        chapter = Heading.parse(" ".join(texts[first + 1 : last + 1]))
        if _is_numbered(texts[first + 1], chapter):
            return Heading(lead.components + chapter.components, len(texts[first]), chapter.name)
    return Heading.parse(" ".join(texts[first : last + 1]))


# A Roman numeral set off from the name after it by a mark: "II.: NUESTRO HÉROE.", "VIII: SIN MÚSICA.",
# "- I -: Escenario" (CLiGS's TEI editions join a chapter's number and its name with a colon), "VI-Popery"; a lone C,
# L, D or M is an initial ("M. EDISON", "D. Manuel"), as ``NUMBERED_TITLE`` says.
_MARKED_OFF_NUMERAL = re.compile(r"^[-–—\s]*(?![CLDM]\s*[-–—.:])[IVXLCDM]+\s*[-–—.:]", re.IGNORECASE)


def _is_numbered(text: str, heading: Heading) -> bool:
    """Whether a marked heading (``heading``: the parse of its group) numbers its chapter:
    it reads as a heading, has a number before its name in digits or Chinese numerals ("一　お猿さん",
    次郎物語's 中見出し), or is numbered by a mark or its unit's word (``_numbers_by_mark``). A Roman
    letter and a space before a name may be a word ("I PROMESSI SPOSI", a title page's)."""
    digits = heading.unit is not None and (text[:1] in CJK_NUMERALS or text[:1].isdigit())
    return is_heading(text) or digits or _numbers_by_mark(text, heading)


def _numbers_by_mark(text: str, heading: Heading) -> bool:
    """Whether a marked heading that would not read as one in running text numbers its chapter with
    a Roman numeral set off by a mark (``_MARKED_OFF_NUMERAL``) or with its unit's word whatever
    follows (``names_its_unit``)."""
    return names_its_unit(text, heading) or heading.unit is not None and bool(_MARKED_OFF_NUMERAL.match(text))


def _same_heading_key(text: str, heading: Heading) -> tuple | str:
    """What makes two headings the same: their numbered words ("第一回", "CHAPTER I"; the title
    after them aside), or for a heading without them (a bare "I."), its words and numbers."""
    if heading.components and all(word for word, _ in heading.components):
        return heading.components
    return _letters(text)


def _letters(text: str) -> str:
    """``text``'s letters and digits alone, casefolded: what two copies of a heading share whatever their spacing
    and marks ("第三十八回  林潇湘魁夺菊花诗　薛蘅芜…", "第三十八回林潇湘魁夺菊花诗薛蘅芜…——")."""
    return re.sub(r"[\W_]+", "", text).casefold()


_MIN_CONTENTS_ENTRIES = 3  # entries of a contents list before its last one, which no entry follows


def _numbers_of_named_numerals(groups: list[HeadingGroup]) -> dict[str, int]:
    """The last group that each bare numeral with a name repeats, by its numeral alone: a contents list's
    "[ 7 ]" is Ulysses' "[ 7 ] IN THE HEART OF THE HIBERNIAN METROPOLIS" (a bare numeral's key is its text)."""
    numbers = {}
    for k, group in enumerate(groups):
        if group.heading.name and group.heading.components and not any(w for w, _ in group.heading.components):
            numeral = group.text[: len(group.text) - len(group.heading.name)]
            numbers[_same_heading_key(numeral, Heading.parse(numeral))] = k
    return numbers


def _without_repeats(
    texts: list[str], groups: list[HeadingGroup], volumes: frozenset[str]
) -> tuple[list[HeadingGroup], list[int]]:
    """The heading groups that open chapters, and the paragraph where each chapter opens, without
    the repeats a text's source adds (``_same_heading_key`` says which headings are the same):

    - a heading directly followed by the same heading (a scan's or a converter's duplicate), rules
      ("-----") aside and a web page's few short lines (``_repeated_after_notes``), is one chapter, which opens
      at the first copy;
    - a heading directly followed by another heading, and repeated later, is an entry of a table
      of contents: it opens no chapter and stays in the front matter (or the chapter before it);
      so is a list's last entry, after three or more, when it is repeated later (儒林外史's contents
      end "第五十六回 …" before its preface, as 殆知阁's edition sets it), not the heading after one
      or two such entries;
    - so is a part heading whose next heading is a part too, not its chapters, when it is repeated
      later: a contents list that names the parts between the chapters' titles (Don Quijote's
      "Segunda parte del ingenioso caballero…", among unnumbered titles).

    A heading in a volume (``volumes``: the book's volume words) is another than the same in another volume.
    """
    keys = keys_in_volumes(groups, [_same_heading_key(g.text, g.heading) for g in groups], volumes)
    parts = [g.heading.part is not None and g.heading.unit is None for g in groups] + [True]  # the end: no chapter
    last = {key: k for k, key in enumerate(keys)} | _numbers_of_named_numerals(groups)
    kept, opens, first_copy, contents_before = [], [], None, 0  # contents entries right before this one
    for k, group in enumerate(groups):
        directly_followed = k + 1 < len(groups) and _directly_after(texts, groups, k)
        last_entry = contents_before >= _MIN_CONTENTS_ENTRIES
        if k + 1 < len(groups) and keys[k + 1] == keys[k] and _repeated_after_notes(texts, groups, k):
            first_copy, contents_before = group.first if first_copy is None else first_copy, 0
        elif (directly_followed or parts[k] and parts[k + 1] or last_entry) and last[keys[k]] > k:
            first_copy, contents_before = None, contents_before + 1 if directly_followed else 0
        else:
            kept.append(group)
            opens.append(group.first if first_copy is None else first_copy)
            first_copy, contents_before = None, 0
    return kept, opens


_MIN_SECTIONED = 2  # chapters opening with section 1 that show a book numbers sections within chapters


def without_sections(texts: list[str], groups: list[HeadingGroup]) -> list[HeadingGroup]:
    """The heading groups without the sections a book with parts numbers within its chapters:
    Подросток's "* ЧАСТЬ ПЕРВАЯ *", "Глава первая", then "I.", "II." …; "第一部", "第一章", then "第一節",
    "第二節" (``SECTION_WORDS``). Where two or more chapter headings are directly followed by a heading
    numbered 1 and nothing else, or 1 in a section's word, every run of such
    headings after a chapter heading that counts 1, 2, 3 … is that chapter's sections; else the
    chapter's heading would be read as a contents entry, or the sections as chapters. A reader's label
    has two levels, so in a book without parts the sections stay, within their chapter as a story's
    chapters are ("2.3", ``_opens_story``); a source that marks its headings' levels (Aozora Bunko's
    large headings) says itself which are parts (``with_marked_parts``)."""
    parsed = [group.heading for group in groups]
    numbered_only = [len(h.components) == 1 and h.components[0][0] in ("", *SECTION_WORDS) for h in parsed]
    worded = [h.unit is not None and h.unit[0] not in ("", *SECTION_WORDS) for h in parsed]
    opening = [
        worded[k] and numbered_only[k + 1] and parsed[k + 1].unit[1] == 1 and _directly_after(texts, groups, k)
        for k in range(len(groups) - 1)
    ]
    if sum(opening) < _MIN_SECTIONED or all(h.part is None for h in parsed):
        return groups
    sections, k = set(), 0
    while k < len(groups):
        run_end = k + 1
        while run_end < len(groups) and numbered_only[run_end]:
            run_end += 1
        values = [parsed[j].unit[1] for j in range(k + 1, run_end)]
        if worded[k] and values and values == list(range(1, len(values) + 1)):
            sections.update(range(k + 1, run_end))
        k = run_end
    return [group for j, group in enumerate(groups) if j not in sections]


def _directly_after(texts: list[str], groups: list[HeadingGroup], k: int) -> bool:
    """Whether the heading group after group ``k`` follows it with nothing but rules between."""
    return all(map(is_rule, texts[groups[k].last + 1 : groups[k + 1].first]))


_MAX_NOTE_LINES = 8


def _repeated_after_notes(texts: list[str], groups: list[HeadingGroup], k: int) -> bool:
    """Whether the heading group after group ``k`` follows it with nothing between but rules and a few short
    lines, which end no sentence unless the two give the chapter the same name: what a web copy sets between a
    chapter's heading and its copy (红楼梦's "上卷 第三十八回 林潇湘魁夺菊花诗…", "更新时间:2007-1-12 23:59:11
    本章字数:6858", the site's menu and notice, "后一页", "回目录", then "第三十八回 林潇湘魁夺菊花诗…" again)."""
    between = [t for t in texts[groups[k].last + 1 : groups[k + 1].first] if not is_rule(t)]
    if len(between) > _MAX_NOTE_LINES or any(len(t) >= MIN_PROSE_CHARS for t in between):
        return False
    name, next_name = (_letters(g.heading.name) for g in groups[k : k + 2])
    named_alike = bool(name) and name == next_name
    return named_alike or not any(map(_ends_as_prose, between))


def detect_units(
    texts: list[str], groups: list[HeadingGroup], *, body_only: bool = False, volumes: frozenset[str] = frozenset()
) -> list[Unit]:
    """The chapters of a book from its heading groups, with parts and stories folded in and the
    source's repeated headings taken out (``_without_repeats``). ``body_only``: the headings are all
    of the book's body, its front and back matter marked apart (a TEI text's, a FictionBook's), so
    that a titled section after the last chapter is one of its own (``_appendices``). ``volumes``: the
    words of the volumes over its parts, whose headings open their first chapters."""
    groups, opens = _without_repeats(texts, groups, volumes)
    skipped, unnumbered_parts, appendices = _unnumbered_headings(texts, groups, body_only)
    units: list[Unit] = []
    part, part_number, story_style, pending, story_title = None, None, None, None, None
    last_part = None  # the number of the last part or story, for an epilogue after it
    epilogue = None  # (heading text, number) of an epilogue holding parts of its own, numbered on from it
    last_numbered = max((k for k, group in enumerate(groups) if group.heading.unit is not None), default=-1)
    afters = [after_rules(texts, group) for group in groups]
    stopped_names = stopped_names_of(texts, groups, afters)
    for k, group in enumerate(groups):
        text, heading = group.text, group.heading
        following = groups[k + 1] if k + 1 < len(groups) else None
        holds_chapters = following is not None and following.heading.unit is not None
        directly = following is not None and following.first == group.last + 1
        start = opens[k] if pending is None else pending  # where the chapter opens: at a part heading before it
        if k in skipped:
            if units and k + 1 in unnumbered_parts and directly:  # a story's title over the name its part is given
                pending, story_title = start, text  # ("LE LIVRE DE THOT", "CONTE MAGIQUE", "I"); not the book's
            continue
        if heads_volume(heading, volumes):
            pending = start
            continue
        if k in unnumbered_parts:
            part, part_number, story_style = " ".join(filter(None, (story_title, text))), unnumbered_parts[k], None
            story_title = None
        if k in appendices:  # numbered once the parts a source marks are placed (``with_marked_parts``)
            if k + 1 in appendices and _directly_after(texts, groups, k):  # a title over the appendix's own
                pending = start
                continue
            title = " ".join(t for t in texts[start : group.last + 1] if not is_rule(t))
            units.append(Unit(start, title, appendix=True))
            pending = None
            continue
        if heading.is_epilogue:  # after the story; a part only with its first chapter right after it
            holds_chapters = holds_chapters and directly and following.heading.unit[1] == 1
            if not units or heading.unit is None and not holds_chapters and not _opens_with_prose(texts, group):
                continue
            if heading.is_closing and k < last_numbered:  # a "Conclusion" that a numbered chapter follows
                continue
            heading = _renumbered(heading, 0, number_past(last_part, units))
            if holds_chapters and following.heading.part is not None:  # Война и мир's "Эпилог", "Часть первая"
                epilogue, pending = (text, heading.part[1]), start
                continue
        elif heading.unit is not None and heading.unit[1] is None and units and units[-1].number is not None:
            heading = _numbered_after(heading, 0 if pending is not None else units[-1].number)  # a part's first: 1
        if story_style is not None and heading.style == story_style:
            part, part_number, story_style = None, None, None  # the next story of the collection
        if heading.part is not None and (heading.unit is not None or holds_chapters):
            # a one-line part heading keeps its name ("第二卷 江湖远", "Book II. An Unfortunate Gathering")
            named = group.first == group.last
            part, part_number, story_style = _part_text(text, heading, named=named), heading.part[1], None
            if epilogue is not None:  # its title names the epilogue too when it heads its first chapter
                part, part_number = f"{epilogue[0]}. {part}", epilogue[1] + part_number - 1
                text = f"{epilogue[0]}. {text}" if heading.unit is not None else text
            last_part = part_number
        if heading.unit is None and holds_chapters:  # a part heading: it opens its first chapter
            pending = start
            if heading.part is not None and following.heading.unit[1] == 2 and _opens_with_prose(texts, group):
                units.append(Unit(start, text, part, part_number, 1))  # chapter I's numeral left out, then "II."
                pending = None
            continue
        if _heads_a_part(texts, groups, k):  # Ulysses' "— II —", then "[ 4 ]": its episodes run on
            part, part_number, story_style, pending = text, heading.unit[1], None, start
            last_part = part_number
            continue
        if _opens_story(heading, group, following):
            part, part_number, story_style, pending = text, heading.unit[1], heading.style, start
            last_part = part_number
            continue
        after = afters[k]
        if not heading.name and after + 1 < len(texts) and (names_the_chapter(texts[after]) or k in stopped_names):
            text = f"{text} {texts[after]}"
        in_part = (part, part_number) if heading.unit else (None, None)  # a part or epilogue alone is no part's
        units.append(Unit(start, text, *in_part, heading.number if k not in unnumbered_parts else part_number))
        pending = None
    return units


# A book with under a fifth of its headings numbered has each of them open a chapter (an Aozora edition's
# 117 sections "一の一", "一の二"… marked beside one "十三" are its chapters, not the one "十三").
_MOSTLY_UNNUMBERED = 5


def _unnumbered_headings(
    texts: list[str], groups: list[HeadingGroup], body_only: bool
) -> tuple[set[int], dict[int, int], set[int]]:
    """The headings without a number in a book whose headings carry numbers (a file's marked
    headings, module docstring): those that open no chapter, those that are the book's parts with
    their numbers in reading order, and, where the headings are all of the book's body
    (``body_only``), its appendices (``_appendices``). One directly before a numbered heading opens
    that chapter; two or more such are parts ("上　先生と私", "中　両親と私"), one alone is a title."""
    numbered = [_is_numbered(texts[g.first], g.heading) for g in groups]
    if all(numbered) or sum(numbered) * _MOSTLY_UNNUMBERED < len(numbered):
        return set(), {}, set()
    opening = [
        k
        for k in range(len(groups) - 1)
        if not numbered[k] and groups[k + 1].heading.unit is not None and groups[k + 1].first == groups[k].last + 1
    ]
    pieces = _pieces_among_parts(texts, groups, numbered, opening) if len(opening) >= 2 else set()
    skipped = {k for k in range(len(groups)) if not numbered[k]} - set(opening) - pieces
    in_parts = _in_unnumbered_parts(groups, numbered)
    appendices = _appendices(texts, groups, numbered) - in_parts if body_only else set()
    skipped -= in_parts | appendices
    parts = sorted([*opening, *pieces])
    return skipped, ({k: n for n, k in enumerate(parts, start=1)} if len(opening) >= 2 else {}), appendices


def _pieces_among_parts(
    texts: list[str], groups: list[HeadingGroup], numbered: list[bool], opening: list[int]
) -> set[int]:
    """The titles between a collection's stories of numbered chapters that head text of their own and no
    chapter: its stories of one piece, each numbered among the stories (ELTeC's Chandeneux: "Les Filles du
    colonel" between "La Femme du capitaine Aubépin", I-XII, and "Le mariage du trésorier", I-XVIII)."""
    return {
        k
        for k in range(opening[0] + 1, opening[-1])
        if not numbered[k] and k not in opening and not numbered[k + 1] and _heads_text(texts, groups, k)
    }


def _heads_text(texts: list[str], groups: list[HeadingGroup], k: int) -> bool:
    """Whether heading group ``k`` has text of its own before the next heading, more than a title's line."""
    return sum(map(len, texts[groups[k].last + 1 : groups[k + 1].first])) >= MIN_PROSE_CHARS


def _appendices(texts: list[str], groups: list[HeadingGroup], numbered: list[bool]) -> set[int]:
    """The headings without a number after a book's last numbered one that open prose and name no
    notes, with the titles directly over them (a division's two heads, "QUATTR'ORE AL LIDO" over
    "Schizzo dal vero"): in a book's body, sections that close it, each its own chapter (Le Captain
    Cap's "Breuvages", its cocktails after chapter XLVII; Ganivet's "Sueño de Pío Cid", a verse drama
    after the last trabajo), not the last chapter's text. Elsewhere such headings are an edition's
    back matter (an EPUB's colophon) or the notes a plain text sets after its chapters."""
    last = max(k for k, is_numbered in enumerate(numbered) if is_numbered)
    found: set[int] = set()
    for k in range(len(groups) - 1, last, -1):
        over_one = k + 1 in found and _directly_after(texts, groups, k)
        if over_one or _opens_with_prose(texts, groups[k]) and not names_notes(texts[groups[k].first]):
            found.add(k)
    return found


def _in_unnumbered_parts(groups: list[HeadingGroup], numbered: list[bool]) -> set[int]:
    """The headings of a part, after its heading and up to the next part's, when two or more and none
    carries a number: the part's chapters, titled (Le Captain Cap's "Première partie": "Ville de
    Paris", "Profession de foi du Captain Cap", before a second part of numbered chapters)."""
    starts = [k for k, group in enumerate(groups) if group.heading.part is not None and group.heading.unit is None]
    found = set()
    for start, end in zip(starts, [*starts[1:], len(groups)]):
        inside = range(start + 1, end)
        if len(inside) >= 2 and not any(numbered[k] for k in inside):
            found.update(inside)
    return found


def _opens_with_prose(texts: list[str], group: HeadingGroup) -> bool:
    """Whether the paragraph after a heading, or after the line that names it ("ЭПИЛОГ", "Последние
    воспоминания": Униженные и оскорблённые), is prose: a sentence's end, or a line too long for a
    contents entry."""
    rest = (t.strip() for t in texts[group.last + 1 :] if t.strip() and not is_rule(t))
    following = next(rest, "")
    if names_the_chapter(following):
        following = next(rest, "")
    return len(following) >= MIN_PROSE_CHARS or _ends_as_prose(following) and not is_heading(following)


def _ends_as_prose(line: str) -> bool:
    """Whether a line ends as a sentence or a clause does (``PROSE_ENDS``), closing quotes after the mark aside
    ("»… wie ein Stück Fett!«")."""
    return line.rstrip().endswith(PROSE_ENDS) or ends_with_sentence_mark(line)


def _numbered_after(heading: Heading, last_number: int) -> Heading:
    """A chapter whose heading names it the last instead of numbering it ("Capítulo último", "Chapter
    the Last", ``LAST_WORDS``), or whose number cannot be read, numbered one past the chapter before it
    (``last_number`` 0 after a part's heading: Ginx's Baby's "PART V.", then "The Last Chapter.")."""
    k = max(i for i, component in enumerate(heading.components) if component == heading.unit)
    return _renumbered(heading, k, last_number + 1)


def _renumbered(heading: Heading, k: int, value: int) -> Heading:
    """The heading with its ``k``-th component given the number ``value``."""
    components = list(heading.components)
    components[k] = (components[k][0], value)
    return dataclasses.replace(heading, components=tuple(components))


def book_units(
    texts: list[str], flags: list[bool], *, stories: frozenset[str], parts: frozenset[str], body_only: bool
) -> list[Unit]:
    """The chapters of a book from its heading paragraphs (``flags``): a collection's stories where the
    text heads them with ``stories`` (``story_units``), else its headings' chapters (``detect_units``),
    with sections kept in their chapters unless the source marks ``parts``, placed under those parts."""
    groups = heading_groups(texts, flags)
    if stories:
        return story_units(texts, groups, stories)
    volumes = volume_words(groups)
    groups = volumes_apart(texts, groups, volumes)
    found = without_sections(texts, groups) if not parts else groups
    units = detect_units(texts, found, body_only=body_only, volumes=volumes)
    return with_volumes(with_marked_parts(units, texts, parts, groups), groups, volumes)


def units_from_titles(starts: dict[int, str]) -> list[Unit]:
    """The chapters a file names beside its paragraphs (a JSONL chapter field, GutenQA's chapter column)."""
    units = []
    for first, title in sorted(starts.items()):
        heading = Heading.parse(title)
        part = _part_text(title, heading) if heading.part and heading.unit else None
        units.append(Unit(first, title, part, heading.part[1] if part else None, heading.number))
    return units


def story_units(texts: list[str], groups: list[HeadingGroup], titles: frozenset[str]) -> list[Unit]:
    """The chapters of a collection whose stories the text heads with ``titles`` (``centred_titles``): a
    story whose headings number no sections is one chapter, numbered in reading order ("孔乙己": 3); one
    with numbered sections is a chapter per section under the story ("奔月"'s "一", "二": 1.1, 1.2), the
    first opening at the story's title. A title right under another (the author's name) is the story's
    too, and a title's earlier lines are a contents list's or a preface's: the story opens at its last;
    what comes before the first story is front matter."""
    units: list[Unit] = []
    for number, (start, end) in enumerate(_story_spans(texts, titles), start=1):
        name = story_name(texts[start])
        sections = [g for g in groups if start < g.first < end and g.heading.unit is not None and g.text not in titles]
        if not sections:
            units.append(Unit(start, name, number=number))
        for k, group in enumerate(sections):
            units.append(Unit(start if k == 0 else group.first, group.text, name, number, group.heading.number))
    return units


def _story_spans(texts: list[str], titles: frozenset[str]) -> list[tuple[int, int]]:
    """Where each story opens and the next one does: at its title's last copy (``story_units``), not under
    another title."""
    lines = set({text: i for i, text in enumerate(texts) if text in titles}.values())
    starts = [i for i in sorted(lines) if i - 1 not in lines]
    return list(zip(starts, [*starts[1:], len(texts)]))


def collection_titles(texts: list[str], titles: frozenset[str]) -> frozenset[str]:
    """``titles`` (``centred_titles``) when they head a collection's stories: each story that numbers
    sections numbers its first 1. Else none: a novel whose chapters run on past a title set centred
    inside one (a poem's, a letter's: "第五回" after it) is no collection."""
    for start, end in _story_spans(texts, titles):
        numbers = (Heading.parse(t).unit for t in texts[start + 1 : end] if t not in titles and is_heading(t))
        first = next((unit for unit in numbers if unit is not None), None)
        if first is not None and first[1] != 1:
            return frozenset()
    return titles
