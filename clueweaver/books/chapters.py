"""Chapters as the book names them: heading paragraphs, parts, stories, and the numbers a reader uses.

Headings are short paragraphs such as "CHAPTER IV", "Chapter 12: The Storm", "PART 2", a bare
"IV." or one before a title in capitals ("IV. THE STORM") (``is_heading``), or a worded heading's
line with its name on the next line or two of the same block (``heads_its_block``); a line in
capitals right after one is the chapter's name, and a short mixed-case line without punctuation
after a bare one joins the title ("-I-" then "Perdido", ``names_the_chapter``) while staying a
paragraph. Other languages:

- Chinese and Japanese "第N回", "第N章", "第N节", "第N話" (parts: "第N卷", "第N部"), N in Chinese
  numerals (一, 十一, 二十, 一百零五, 两百) or in digits, full-width ones too; the chapter's title
  may follow on the same line ("第一回 甄士隐梦幻识通灵 贾雨村风尘怀闺秀") and a web copy's bracket may
  hold the number ("【第一章】"); Korean "제N장", "제N화" (parts: "제N부", "제N편", "제N권");
- French "Chapitre", German "Kapitel", Spanish and Portuguese "Capítulo", Italian "Capitolo",
  Russian "Глава", Greek "Κεφάλαιο(ν)", an epistolary novel's letters ("Lettre", "Brief", "Carta",
  "Lettera", "Письмо", "Επιστολή") and a play's scenes (below) (parts: Livre, Partie, Tome, Buch,
  Teil, Band, Libro, Parte, Tomo, Livro, Книга, Часть, Том, Μέρος, Τόμος, Βιβλίο(ν)) before a
  number in digits or Roman numerals or an ordinal word (``clueweaver.books.ordinals``: "Chapitre
  premier", "Глава двадцать первая", "Capítulo decimotercero", "ΚΕΦΑΛΑΙΟΝ ΠΡΩΤΟΝ"), or in Greek numerals
  ("ΚΕΦΑΛΑΙΟΝ ΙΒ΄"); German and Romance ordinals and "3." also stand before the word ("Erstes
  Kapitel", "3. Kapitel", "Première partie"); and, in books read as plain words (``und``), the
  chapter words of Dutch, Polish, Czech, Norwegian, Ukrainian, Romanian, Catalan and Turkish
  ("Hoofdstuk 3", "Rozdział IV", "Розділ 2", "1. Bölüm");
- a bare Greek numeral with its keraia on its own line ("Α'", "ΙΖ'." in Project Gutenberg's
  Φόνισσα; the keraia typed as ʹ, ΄, ' or ’);
- the last chapter named so instead of numbered ("Capítulo último", "Глава последняя", "Letztes
  Kapitel", "Chapter the Last"), numbered one past the chapter before it, as is any chapter whose
  number cannot be read;
- a word of the book's own that it numbers 1, 2, 3 in order ("Ночь первая", "第一夜"), found by
  ``clueweaver.books.sequences`` and read as a heading the text marks.

An EPUB's h1-h3 elements and a Markdown file's ``#`` lines are the headings the file marks, read
as detected ones are. In a book whose headings carry numbers, one without a number opens no
chapter of its own (its label would leave every chapter numbered by position): right after a
numbered heading it is that chapter's name ("<h3>CHAPTER I.</h3><h3>The Period</h3>"), directly
before one it opens that chapter (two or more such are the book's parts, numbered in reading order:
こころ's "上　先生と私", "中　両親と私"), before the first chapter it is front matter (a title page, a
contents page), and elsewhere it belongs to the chapter before it (an edition's endnotes, colophon,
licence).

A heading the text's source repeats is one chapter: the same heading twice in a row (a scan's
duplicate) opens one chapter, at the first copy, and a table of contents (headings directly
followed by headings, or parts by parts, each repeated later) opens none (``_without_repeats``).
Bare numbers that number something else open none either: notes under a notes heading, up to the
next worded heading (``without_endnote_numbers``), and a scan's page numbers, which cut a sentence
or leap past the chapter numbers (``without_page_numbers``). Then the structure:

- a **part** ("PART 2", "VOLUME I", "BOOK ONE") followed by chapters groups them; a part heading
  with no chapter after it is a chapter itself; a play's acts are its parts and its scenes its
  chapters ("ACT I", "SCENE II. A room in the castle.": 1.2; "ACTE PREMIER", "Erster Aufzug",
  "Действие первое" / "АКТ ПЕРВЫЙ" with "Явление I", "第一幕" with "第一场", "제1막"), and a play
  without scenes has its acts as chapters;
- a **story** of a collection is a numbered, titled heading directly followed by a heading
  numbered 1 in another style ("I. A SCANDAL IN BOHEMIA", then "I.", "II.", "III."); the story
  ends at the next heading in its own style ("II. THE RED-HEADED LEAGUE");
- an **epilogue** ("EPILOGUE", "Эпилог", "Épilogue", "尾声"; no number) after the story is a part
  when its chapter I follows it directly (Преступление и наказание), else a chapter when prose
  follows it, numbered one past the part or chapter before it ("7.1", "41"); a prologue stays in
  the front matter;
- parts and stories are not chapters: their heading, and any text before their first chapter (a
  part's epigraph), opens that chapter, so "PART 2" shifts no chapter number.

Each chapter gets a **label**, the number a reader uses: the book's own chapter numbers when they
are all given and unique ("24" in Little Women, whose chapters run on across its parts); else
qualified by the part or story where that makes them unique ("1.2": story I, chapter II; "2.3":
volume II, chapter III); else the chapter's position in reading order. A label that names a part
or story ("1") reaches to its last chapter.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from dataclasses import dataclass

from clueweaver.books.language import HAN
from clueweaver.books.numerals import CJK_NUMERALS, DAI_NUMERALS, KERAIA, NUMBER_WORDS, number_value
from clueweaver.books.ordinals import LAST_PATTERN, ORDINAL_PATTERN

# A number in Chinese numerals ("一", "十一", "三十六"), not zero: a lone "〇" is a Japanese scene break.
_CJK_NUMBER = rf"[一二三四五六七八九十百千两兩][{CJK_NUMERALS}]*"
# A Greek numeral: capital letters (ΙΒ 12, ΣΤ 6, ΡΚΓ 123) and the keraia, typed in any of its look-alikes.
_GREEK_NUMERAL = rf"(?-i:[ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩϚϜϞϘϠ]{{1,4}})[{KERAIA}]"
_NUMBER = (
    rf"(?:\d+|[ivxlcdmхі]+|(?:(?:{NUMBER_WORDS})[\s-]*)+|the\s+(?:first|second|third|last|\w+th)|{ORDINAL_PATTERN}|{LAST_PATTERN}|{_CJK_NUMBER}|"
    rf"{_GREEK_NUMERAL}|(?-i:[ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩϚ]{{1,4}}))"
)
_NUMBER_END = rf"(?:\b|(?<=[{KERAIA}]))"  # after a keraia no word boundary follows
_UNIT_WORDS = (
    r"chapter|chap\.|adventure|letter|stave|canto|section|episode|"
    r"chapitre|kapitel|cap[ií]tulo|capitolo|глава|κεφ[άα]λαιον?|κεφ\.|"
    r"sc[èe]ne|szene|auftritt|escena|scena|cena|явление|сцена|σκην[ήη]|"
    r"lettre|brief|carta|lettera|письмо|επιστολ[ήη]|"
    r"hoofdstuk|rozdzia[łl]|kapitola|kapittel|розділ|capitolul|cap[ií]tol|b[öo]l[üu]m"
)
# A play's acts are its parts, its scenes its chapters ("ACT I", "SCENE II": chapter 1.2).
_WESTERN_CONTAINERS = (
    "book part volume vol. livre partie tome buch teil band libro parte tomo livro книга часть том "
    "μέρος μερος τόμος τομος βιβλίον βιβλιον βιβλίο βιβλιο "
    "act acte akt aufzug acto atto ato jornada акт действие πράξη πραξη πράξις πραξις".split()
)
# An epilogue, a section without a number: a part when chapters of its own follow ("ЭПИЛОГ", then
# "I", "II" in Преступление и наказание), else a chapter, which must open with prose
# (``_opens_with_prose``: a contents list names it among short entries). Either is numbered one past
# the part or chapter before it. A prologue stays in the front matter, which "0" names.
_EPILOGUES = frozenset(
    "epilogue épilogue epilog epílogo epilogo эпилог επίλογος 尾声 尾聲 終章 终章 終の章 エピローグ".split()
)
_CONTAINER_WORDS = frozenset([*_WESTERN_CONTAINERS, "卷", "部", "部分", "幕", "부", "편", "권", "막", *_EPILOGUES])
MIN_PROSE_CHARS = 150
# What a reader can do about a book in which no heading was found: the kinds the finder reads, and how to
# give the chapters of a book whose headings are none of them.
NO_CHAPTERS_HINT = (
    "no chapter headings were found (ClueWeaver reads headings such as 'Chapter 12', '第十二回', 'Глава первая', "
    "'Ночь первая' numbered in order, or the titles a contents list at the start names); to give a book's "
    "chapters, save it as Markdown with a '# ' line for each heading"
)
_CHAPTER_WORD = rf"(?:{_UNIT_WORDS}|{'|'.join(re.escape(w) for w in _WESTERN_CONTAINERS)})"
# Chinese and Japanese: 第 + a number in Chinese numerals or digits + the unit (回 章 节 话, old editions'
# 囘, a play's scene 场 場, or a part: 卷 部, a play's act 幕), as in
# "第一百二十回", "第１２章", "第三話", a play's "第一幕の二" (act 1, scene 2); "第一回合" (the first round),
# "第一场雪" (the first snowfall) and a verse's "第三囘に" (a particle after it) are no headings.
# A figure's or table's caption names its chapter first ("第１章図２", "第三章 表一"): no heading.
_CAPTION = rf"(?!\s*[図圖图表]\s*[{CJK_NUMERALS}\d])"
# A web copy's bracket closes "【第一章】"; a comma leads into the summary ("Глава II, из которой можно узнать…")
_SEPARATOR = r"\s*[】〗］]?\s*[.,:：—–-]?\s*"
# The forms of one numbered component of a heading, tried in this order.
_COMPONENT_FORMS = (
    rf"第\s*(?P<number>[{DAI_NUMERALS}\d]+)\s*(?P<word>[回囘](?!合)|章|节|節|话|話|卷|部分?|(?:幕|场|場)(?![{HAN}]))(?!(?!の[一二三四五六七八九十\d])[ぁ-ゖ]){_CAPTION}",
    rf"(?P<word>卷)\s*之?\s*(?P<number>[{CJK_NUMERALS}\d]+)(?![{CJK_NUMERALS}\d])",  # "卷一", "卷之三" (a part)
    r"제\s*(?P<number>\d+)\s*(?P<word>장|화|절|부|편|권|막)(?![\uac00-\ud7a3])",  # Korean "제1장"; not "제1장에서"
    # "Erstes Kapitel", "3. Kapitel"; "Letztes Kapitel" alone ("Последняя глава «Онегина» издана" is prose)
    rf"(?P<number>{ORDINAL_PATTERN}|\d+\.|{LAST_PATTERN}(?=\s*(?:{_CHAPTER_WORD})\.?$))\s*(?P<word>{_CHAPTER_WORD})\b",
    rf"(?P<word>{_CHAPTER_WORD})\s+(?P<number>{_NUMBER}){_NUMBER_END}\.?",  # "CHAPTER IV", "Глава первая"
    rf"(?P<word>{'|'.join(sorted(_EPILOGUES))})(?P<number>)(?!\w)",  # "EPILOGUE", "Эпилог", "尾声": no number
)
# "CHAPTER IV", "VOLUME I. CHAPTER I", "ADVENTURE II. THE RED-HEADED LEAGUE", "Chapter 12: The Storm",
# "第一回 甄士隐梦幻识通灵"
_ANY_COMPONENT = "|".join(re.sub(r"\(\?P<\w+>", "(?:", form) for form in _COMPONENT_FORMS)  # the forms, groups unnamed
# A title after the numbers fits a line (80 characters), or, after a full stop, comma or colon, two or
# three: Don Quijote's run to 222 ("Capítulo XXXVI. Que trata de la brava y descomunal batalla…").
_SHORT_TITLE_CHARS = 80
_MAX_HEADING_CHARS = 250
# What Chinese texts copied from the web put before a chapter's number: "正文 第一章" (the main text),
# "《》目录 第一回" (a contents link's leftover, in every web copy of 西游记 that was checked), a
# bracket ("【第一章】", as web novels head chapters); read past.
_CJK_LEAD = re.compile(r"(?:《[^》\n]{0,30}》\s*)?(?:(?:正文|目录|目錄)\s*[【〖［]?|[【〖［])\s*(?=第)")
_HEADING = re.compile(
    rf"^(?:{_CJK_LEAD.pattern})?(?:(?:{_ANY_COMPONENT}){_SEPARATOR})+(?P<rest>.{{0,230}})$", re.IGNORECASE
)
# A bare numeral on its own line ("IV", "II.", "12") starts a chapter in many Gutenberg texts, and
# in Chinese and Japanese ones ("一", "（十二）"); a roman one between dashes too (Marianela's "-I-").
_DASHED_ROMAN = re.compile(r"[-–—]\s*(?=[IVXLCХІ]+\.?\s*[-–—]$)")
# A heading set between asterisks ("* ЧАСТЬ ПЕРВАЯ *", as RusLit's Подросток and Дубровский set parts).
_STARRED = re.compile(r"^\*+\s*(?P<inner>[^\s*].*?)\s*\*+$")
BARE_NUMERAL = re.compile(
    rf"^(?:{_DASHED_ROMAN.pattern}[IVXLCХІ]+\.?\s*[-–—]|[IVXLCХІ]+|\d{{1,3}}|{_CJK_NUMBER}|（{_CJK_NUMBER}）|{_GREEK_NUMERAL})\.?$"
)
# A numeral, a full stop and a title: a heading when the title is in capitals ("I. ОТСТАВНОЙ ГЕНЕРАЛ И
# УЧИТЕЛЬ…" in Кто виноват?, "XII. THE STORM"); a title in mixed case after a bare numeral could be a
# sentence's first words (``clueweaver.books.sequences`` reads such titles numbered in order), and a
# lone C, L, D or M is an author's initial ("C. COLLODI"), not chapter 100, 50, 500 or 1000.
NUMBERED_TITLE = re.compile(r"^(?![CLDM]\.)(?P<number>[IVXLCDMХІ]+|\d{1,3})\.\s+(?P<title>\S.*)$")
# One numbered component at the start of a heading: one of the forms, or a bare number.
_COMPONENTS = tuple(
    re.compile(form + _SEPARATOR, re.IGNORECASE)
    for form in (*_COMPONENT_FORMS, rf"（?(?P<number>{_NUMBER})(?:）|{_NUMBER_END}\.?)")
)
_PROSE_ENDS = (".", "?", "!", ",", "。", "？", "！", "，", "；")
# A sentence of Chinese or Japanese ended inside the line: prose that a hard-wrapped line happens to
# open with "第四回" ("第四回中既將薛家母子在榮府內寄居等事略已表明，此回則暫不能寫矣．如").
_CJK_SENTENCE_INSIDE = re.compile(r"[。．！？][^\s。．！？」』”’）)]")


def is_heading(text: str) -> bool:
    if "\n" in text or len(text) > _MAX_HEADING_CHARS:
        return False
    if starred := _STARRED.match(text):
        text = starred["inner"]
    if BARE_NUMERAL.match(text):
        return True
    numbered_capitals = NUMBERED_TITLE.match(text)
    if numbered_capitals and is_title_line(numbered_capitals.group("title")):
        return True
    match = _HEADING.match(text)
    if not match:
        return False
    rest, numbered = match.group("rest"), text[: match.start("rest")].rstrip()
    if len(rest) > _SHORT_TITLE_CHARS and not numbered.endswith((".", ",", ":")):
        return False
    if _CJK_SENTENCE_INSIDE.search(rest):
        return False
    # "Chapter one was the best of the book." is prose, not a heading; after "SCENE I." a short sentence
    # is the scene's place ("SCENE I. Elsinore. A platform before the castle."), or the chapter's summary.
    titled = not rest or rest.isupper() or rest.istitle() or numbered.endswith(".") and len(rest) <= _SHORT_TITLE_CHARS
    return titled or not rest.rstrip().endswith(_PROSE_ENDS)


_MAX_NAME_LINES = 2


def heads_its_block(block: str) -> bool:
    """Whether a block of lines is a worded heading's line and its name on the next line or two
    ("Глава первая" / "Вместо введения: несколько подробностей из биографии…", as RusLit's Бесы sets
    its chapters), whatever the name's length or last mark: joined, the line break that set the name
    apart is lost. A bare numeral's line before a line or two is prose's first lines, not a name."""
    lines = [line.strip() for line in block.split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    first, *rest = lines
    return is_worded_heading(first) and len(rest) <= _MAX_NAME_LINES and len(" ".join(rest)) <= _MAX_HEADING_CHARS


def is_worded_heading(text: str) -> bool:
    """A heading that names its unit ("Глава первая", "CHAPTER IV"), not a bare numeral, which a
    stanza's or a note's number also is."""
    return is_heading(text) and not BARE_NUMERAL.match(text)


def is_rule(text: str) -> bool:
    """A line of three or more marks and no letter or digit ("-----", "* * *"): a rule the source
    draws, not text (a lone "。”" is the end of a sentence that a wrap pushed onto its own line)."""
    return len(text.strip()) >= 3 and not any(c.isalnum() for c in text)


def is_title_line(text: str) -> bool:
    """A short line in capitals after a heading is the chapter's name ("PLAYING PILGRIMS")."""
    letters = [c for c in text if c.isalpha()]
    return 0 < len(text) <= 80 and bool(letters) and all(c.isupper() for c in letters)


_NAME_LINE_ENDS = tuple(".,;:!?…\"'»«”’)-—")
MAX_NAME_LINE_CHARS, MAX_NAME_LINE_WORDS = 60, 10


# A Chinese chapter's name on its own line: Han characters and spaces only, as a 回目 couplet is
# ("游幻境指迷十二釵　飲仙醪曲演紅樓夢"); prose has punctuation.
_HAN_NAME_LINE = re.compile(rf"^[{HAN}][{HAN}\s]{{1,39}}$")


def names_the_chapter(text: str) -> bool:
    """A short line opening with a capital and ending without punctuation, right after a heading
    that names nothing, is the chapter's name in mixed case (Marianela's "-I-", then "Perdido"; Anne
    of Green Gables' "CHAPTER I.", then "Mrs. Rachel Lynde is Surprised"), and so is a short line of
    Han characters alone after "第五回" (its 回目). It joins the chapter's title only: unlike a line
    in capitals it stays a paragraph like any other, for retrieval too."""
    text = text.strip()
    latin_name = (
        0 < len(text) <= MAX_NAME_LINE_CHARS
        and len(text.split()) <= MAX_NAME_LINE_WORDS
        and text[0].isupper()
        and not text.endswith(_NAME_LINE_ENDS)
    )
    return (latin_name or bool(_HAN_NAME_LINE.match(text))) and not is_heading(text)


@dataclass(frozen=True)
class Heading:
    """A heading's numbered components ((word, number) in order, word "" for a bare numeral), the
    offset in its text where the part's own components end, and the name after the numbers."""

    components: tuple[tuple[str, int | None], ...]
    part_end: int
    name: str

    @classmethod
    def parse(cls, text: str) -> Heading:
        if starred := _STARRED.match(text):
            text = text[: starred.end("inner")]  # without the closing stars: offsets stay the text's
        start = starred.start("inner") if starred else 0
        lead = _CJK_LEAD.match(text, start) or _DASHED_ROMAN.match(text, start)
        components, position, part_end = [], lead.end() if lead else start, 0
        while match := next((m for form in _COMPONENTS if (m := form.match(text, position))), None):
            word, number = (match.groupdict().get("word") or "").lower(), number_value(match.group("number"))
            if not word and (components or number is None):  # a bare number comes first, and must read
                break
            components.append((word, number))
            position = match.end()
            if all(w in _CONTAINER_WORDS for w, _ in components):
                part_end = position
        return cls(tuple(components), part_end, text[position:].strip())

    @property
    def part(self) -> tuple[str, int | None] | None:
        """The part component ("PART 2" in "PART 2 CHAPTER I"), None without one."""
        parts = [c for c in self.components if c[0] in _CONTAINER_WORDS]
        return parts[-1] if parts else None

    @property
    def unit(self) -> tuple[str, int | None] | None:
        """The chapter component, None for a heading that only names a part."""
        units = [c for c in self.components if c[0] not in _CONTAINER_WORDS]
        return units[-1] if units else None

    @property
    def style(self) -> tuple[str, bool] | None:
        """How its chapter number is written: the word, and whether a name follows."""
        return (self.unit[0], bool(self.name)) if self.unit else None


@dataclass(frozen=True)
class Unit:
    """A chapter before numbering: its first paragraph and title, the part or story it belongs to
    (its heading text and number), and its own number (None when the heading has none)."""

    first: int
    title: str
    part: str | None = None
    part_number: int | None = None
    number: int | None = None


def _part_text(text: str, heading: Heading) -> str:
    return text[: heading.part_end].strip().rstrip(".:—–-").strip(" *")


def _names_only_a_part(text: str) -> bool:
    """ "PART 2", "BOOK ONE", "Erster Teil", "第一卷": a part's number and nothing else. Not an
    epilogue: it stays a heading group of its own, so that a contents list naming it is told apart."""
    heading = Heading.parse(text)
    return heading.part is not None and heading.unit is None and not heading.name and not _is_epilogue(heading)


def heading_groups(texts: list[str], flags: list[bool]) -> list[tuple[int, int]]:
    """(first, last) paragraph of each heading: a heading, the chapter heading right after a part
    heading ("PART 1", "CHAPTER ONE") and its name: a line in capitals after it, or a heading the
    file marks without a number (an EPUB's "<h2>CHAPTER I.</h2><h3>The Period</h3>"). ``flags`` (is
    each paragraph a heading) is updated to mark the name lines."""
    groups, i = [], 0
    while i < len(texts):
        if flags[i]:
            first = i
            if _names_only_a_part(texts[i]) and i + 1 < len(texts) and flags[i + 1]:
                i += 1
            if i + 1 < len(texts) and _names_the_heading(texts[i], texts[i + 1], flags[i + 1]):
                i += 1
            for j in range(first, i + 1):
                flags[j] = True
            groups.append((first, i))
        i += 1
    return groups


def _names_the_heading(heading: str, following: str, marked: bool) -> bool:
    """Whether the paragraph after a heading is its name: a line in capitals, or a heading without
    a number after a numbered one."""
    if not marked:
        return is_title_line(following)
    return is_heading(heading) and not is_heading(following)


def _opens_story(heading: Heading, group: tuple[int, int], following: tuple[tuple[int, int], Heading] | None) -> bool:
    """A numbered heading, named or worded ("第一章"), directly followed by a heading numbered 1 in
    another style: a story and its chapters, or a chapter and its sections."""
    if following is None or heading.unit is None or not (heading.name or heading.unit[0]):
        return False
    (first, _), after = following
    return first == group[1] + 1 and after.unit is not None and after.unit[1] == 1 and after.style != heading.style


def _group_heading(texts: list[str], group: tuple[int, int]) -> Heading:
    """A heading group's heading. A part's heading and the chapter heading after it are read apart
    (Anna Karenina's "ЧАСТЬ ПЕРВАЯ", then "I"), so that a bare numeral is the part's first chapter
    and not a name after the part; a name line after a part stays its name ("Vol. I.", then "I
    PROMESSI SPOSI": the title page of I promessi sposi)."""
    first, last = group
    if last > first and _names_only_a_part(texts[first]):
        part, chapter = Heading.parse(texts[first]), Heading.parse(" ".join(texts[first + 1 : last + 1]))
        if is_heading(texts[first + 1]) or _numbers_its_name(texts[first + 1], chapter):
            return Heading(part.components + chapter.components, len(texts[first]), chapter.name)
    return Heading.parse(" ".join(texts[first : last + 1]))


def _numbers_its_name(text: str, heading: Heading) -> bool:
    """Whether a marked heading opens with its number before its name ("一　お猿さん", 次郎物語's
    中見出し), in digits or Chinese numerals: a Roman letter before a name may be a word ("I
    PROMESSI SPOSI", a title page's)."""
    return heading.unit is not None and (text[:1] in CJK_NUMERALS or text[:1].isdigit())


def _same_heading_key(text: str, heading: Heading) -> tuple | str:
    """What makes two headings the same: their numbered words ("第一回", "CHAPTER I"; the title
    after them aside), or for a heading without them (a bare "I."), its words and numbers."""
    if heading.components and all(word for word, _ in heading.components):
        return heading.components
    return re.sub(r"[\W_]+", "", text).casefold()


_MIN_CONTENTS_ENTRIES = 3  # entries of a contents list before its last one, which no entry follows


def _without_repeats(texts: list[str], groups: list[tuple[int, int]]) -> tuple[list[tuple[int, int]], list[int]]:
    """The heading groups that open chapters, and the paragraph where each chapter opens, without
    the repeats a text's source adds (``_same_heading_key`` says which headings are the same):

    - a heading directly followed by the same heading (a scan's or a converter's duplicate), rules
      ("-----") aside, is one chapter, which opens at the first copy;
    - a heading directly followed by another heading, and repeated later, is an entry of a table
      of contents: it opens no chapter and stays in the front matter (or the chapter before it);
      so is a list's last entry, after three or more, when it is repeated later (儒林外史's contents
      end "第五十六回 …" before its preface, as 殆知阁's edition sets it), not the heading after one
      or two such entries;
    - so is a part heading whose next heading is a part too, not its chapters, when it is repeated
      later: a contents list that names the parts between the chapters' titles (Don Quijote's
      "Segunda parte del ingenioso caballero…", among unnumbered titles).
    """
    parsed = [_group_heading(texts, group) for group in groups]
    keys = [_same_heading_key(" ".join(texts[a : b + 1]), h) for (a, b), h in zip(groups, parsed)]
    parts = [h.part is not None and h.unit is None for h in parsed] + [True]  # the end: no chapter follows
    last = {key: k for k, key in enumerate(keys)}
    kept, opens, first_copy, contents_before = [], [], None, 0  # contents entries right before this one
    for k, group in enumerate(groups):
        directly_followed = k + 1 < len(groups) and _directly_after(texts, groups, k)
        last_entry = contents_before >= _MIN_CONTENTS_ENTRIES
        if directly_followed and keys[k + 1] == keys[k]:
            first_copy, contents_before = group[0] if first_copy is None else first_copy, 0
        elif (directly_followed or parts[k] and parts[k + 1] or last_entry) and last[keys[k]] > k:
            first_copy, contents_before = None, contents_before + 1 if directly_followed else 0
        else:
            kept.append(group)
            opens.append(group[0] if first_copy is None else first_copy)
            first_copy, contents_before = None, 0
    return kept, opens


_MIN_SECTIONED = 2  # chapters opening with section 1 that show a book numbers sections within chapters


def without_sections(texts: list[str], groups: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The heading groups without the sections a book with parts numbers within its chapters:
    Подросток's "* ЧАСТЬ ПЕРВАЯ *", "Глава первая", then "I.", "II." …. Where two or more chapter
    headings are directly followed by a heading numbered 1 and nothing else, every run of such
    headings after a chapter heading that counts 1, 2, 3 … is that chapter's sections; else the
    chapter's heading would be read as a contents entry, or the sections as chapters. A reader's label
    has two levels, so in a book without parts the sections stay, within their chapter as a story's
    chapters are ("2.3", ``_opens_story``); a source that marks its headings' levels (Aozora Bunko's
    large headings) says itself which are parts (``with_marked_parts``)."""
    parsed = [_group_heading(texts, group) for group in groups]
    numbered_only = [len(h.components) == 1 and not h.components[0][0] for h in parsed]
    worded = [h.unit is not None and bool(h.unit[0]) for h in parsed]
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


def _directly_after(texts: list[str], groups: list[tuple[int, int]], k: int) -> bool:
    """Whether the heading group after group ``k`` follows it with nothing but rules between."""
    return all(map(is_rule, texts[groups[k][1] + 1 : groups[k + 1][0]]))


def detect_units(texts: list[str], groups: list[tuple[int, int]]) -> list[Unit]:
    """The chapters of a book from its heading groups, with parts and stories folded in and the
    source's repeated headings taken out (``_without_repeats``)."""
    groups, opens = _without_repeats(texts, groups)
    parsed = [_group_heading(texts, group) for group in groups]
    skipped, unnumbered_parts = _unnumbered_headings(texts, groups, parsed)
    units: list[Unit] = []
    part, part_number, story_style, pending = None, None, None, None
    last_part = None  # the number of the last part, for an epilogue after it
    epilogue = None  # (heading text, number) of an epilogue holding parts of its own, numbered on from it
    for k, (group, heading) in enumerate(zip(groups, parsed)):
        text = " ".join(texts[group[0] : group[1] + 1])
        following = (groups[k + 1], parsed[k + 1]) if k + 1 < len(groups) else None
        holds_chapters = following is not None and following[1].unit is not None
        directly = following is not None and following[0][0] == group[1] + 1
        if k in skipped:
            continue
        start = opens[k] if pending is None else pending  # where the chapter opens: at a part heading before it
        if k in unnumbered_parts:
            part, part_number, story_style = text, unnumbered_parts[k], None
        if _is_epilogue(heading):  # after the story; a part only with its first chapter right after it
            holds_chapters = holds_chapters and directly and following[1].unit[1] == 1
            if not units or heading.unit is None and not holds_chapters and not _opens_with_prose(texts, group):
                continue
            heading = _numbered_epilogue(heading, last_part, units[-1].number)
            if holds_chapters and following[1].part is not None:  # Война и мир's "Эпилог", "Часть первая"
                epilogue, pending = (text, heading.part[1]), start
                continue
        elif heading.unit is not None and heading.unit[1] is None and units and units[-1].number is not None:
            heading = _numbered_after(heading, units[-1].number)
        if story_style is not None and heading.style == story_style:
            part, part_number, story_style = None, None, None  # the next story of the collection
        if heading.part is not None and (heading.unit is not None or holds_chapters):
            part, part_number, story_style = _part_text(text, heading), heading.part[1], None
            if epilogue is not None:
                part, part_number = f"{epilogue[0]}. {part}", epilogue[1] + part_number - 1
            last_part = part_number
        if heading.unit is None and holds_chapters:
            pending = start  # a part heading: it opens its first chapter
            continue
        if _opens_story(heading, group, following):
            part, part_number, story_style, pending = text, heading.unit[1], heading.style, start
            continue
        own = heading.unit or heading.part
        after = next((i for i in range(group[1] + 1, len(texts)) if not is_rule(texts[i])), len(texts))
        if not heading.name and after + 1 < len(texts) and names_the_chapter(texts[after]):
            text = f"{text} {texts[after]}"
        units.append(Unit(start, text, part if heading.unit else None, part_number, own[1] if own else None))
        pending = None
    return units


# A book with under a fifth of its headings numbered has each of them open a chapter (an Aozora edition's
# 117 sections "一の一", "一の二"… marked beside one "十三" are its chapters, not the one "十三").
_MOSTLY_UNNUMBERED = 5


def _unnumbered_headings(
    texts: list[str], groups: list[tuple[int, int]], parsed: list[Heading]
) -> tuple[set[int], dict[int, int]]:
    """The headings without a number in a book whose headings carry numbers (a file's marked
    headings, module docstring): those that open no chapter, and those that are the book's parts
    with their numbers in reading order. One directly before a numbered heading opens that
    chapter; two or more such are parts ("上　先生と私", "中　両親と私"), one alone is a title."""
    firsts = [texts[first] for first, _ in groups]
    numbered = [is_heading(text) or _numbers_its_name(text, heading) for text, heading in zip(firsts, parsed)]
    if all(numbered) or sum(numbered) * _MOSTLY_UNNUMBERED < len(numbered):
        return set(), {}
    opening = [
        k
        for k in range(len(groups) - 1)
        if not numbered[k] and parsed[k + 1].unit is not None and groups[k + 1][0] == groups[k][1] + 1
    ]
    skipped = {k for k in range(len(groups)) if not numbered[k]} - set(opening)
    return skipped, ({k: n for n, k in enumerate(opening, start=1)} if len(opening) >= 2 else {})


def _is_epilogue(heading: Heading) -> bool:
    return bool(heading.components) and heading.components[0][0] in _EPILOGUES


def _opens_with_prose(texts: list[str], group: tuple[int, int]) -> bool:
    """Whether the paragraph after a heading is prose: a sentence's end, or a line too long for a
    contents entry."""
    following = next((t.strip() for t in texts[group[1] + 1 :] if t.strip() and not is_rule(t)), "")
    return len(following) >= MIN_PROSE_CHARS or following.endswith(_PROSE_ENDS) and not is_heading(following)


def _numbered_epilogue(heading: Heading, last_part: int | None, last_number: int | None) -> Heading:
    """An epilogue's heading numbered one past the last part (in a book without parts, the last chapter)."""
    return _renumbered(heading, 0, (last_part if last_part is not None else last_number or 0) + 1)


def _numbered_after(heading: Heading, last_number: int) -> Heading:
    """A chapter whose heading names it the last instead of numbering it ("Capítulo último", "Chapter
    the Last", ``LAST_WORDS``), or whose number cannot be read, numbered one past the chapter before it."""
    k = max(i for i, (word, _) in enumerate(heading.components) if word not in _CONTAINER_WORDS)
    return _renumbered(heading, k, last_number + 1)


def _renumbered(heading: Heading, k: int, value: int) -> Heading:
    """The heading with its ``k``-th component given the number ``value``."""
    components = list(heading.components)
    components[k] = (components[k][0], value)
    return dataclasses.replace(heading, components=tuple(components))


def with_marked_parts(units: list[Unit], texts: list[str], parts: frozenset[str]) -> list[Unit]:
    """The units under the part headings a source marks (an Aozora Bunko text's large headings:
    "上　先生と私"), which name no part word a heading could be read by: each unit after one belongs
    to it, numbered in reading order, unless its own heading already names its part."""
    starts = [i for i, text in enumerate(texts) if text in parts]
    placed = []
    for unit in units:
        k = bisect.bisect_right(starts, unit.first)  # the part headings at or before the unit's opening
        placed.append(
            unit if k == 0 or unit.part else dataclasses.replace(unit, part=texts[starts[k - 1]], part_number=k)
        )
    return placed


def units_from_titles(starts: dict[int, str]) -> list[Unit]:
    """The chapters a file names beside its paragraphs (a JSONL chapter field, GutenQA's chapter column)."""
    units = []
    for first, title in sorted(starts.items()):
        heading = Heading.parse(title)
        part = _part_text(title, heading) if heading.part and heading.unit else None
        number = (heading.unit or heading.part or (None, None))[1]
        units.append(Unit(first, title, part, heading.part[1] if part else None, number))
    return units
