"""Chapters as the book names them: heading paragraphs, parts, stories, and the numbers a reader uses.

Headings are short paragraphs such as "CHAPTER IV", "Chapter 12: The Storm", "PART 2", a bare
"IV." or one before a title in capitals ("IV. THE STORM") (``is_heading``), or a worded heading's
line with its name on the next line or two of the same block (``heads_its_block``); a line in
capitals right after one is the chapter's name, and a short mixed-case line without punctuation
after a bare one joins the title ("-I-" then "Perdido", ``names_the_chapter``) while staying a
paragraph, and so does one ending with a sentence's mark in a book that names its chapters so ("II."
then "Do livro.": ``chapter_structure``). A name in capitals may wrap over two lines (``is_title_line``).
Other languages:

- Chinese and Japanese "第N回", "第N章", "第N节", "第N話" (parts: "第N卷", "第N部"), N in Chinese
  numerals (一, 十一, 二十, 一百零五, 两百) or in digits, full-width ones too; the chapter's title
  may follow on the same line ("第一回 甄士隐梦幻识通灵 贾雨村风尘怀闺秀") and a web copy's bracket may
  hold the number ("【第一章】"); Korean "제N장", "제N화" (parts: "제N부", "제N편", "제N권"), N in digits
  or Sino-Korean numerals ("제삼장"), and "N장" without 제;
- French "Chapitre", German, Swedish and Norwegian "Kapitel" ("Kap.", "Kapittel"; 19th-century German
  "Capitel", and its parts' "Theil"), Spanish and Portuguese
  "Capítulo", Italian "Capitolo", Russian "Глава", Greek "Κεφάλαιο(ν)", Polish "Rozdział", Czech
  "Kapitola", Hungarian "fejezet", Romanian "Capitolul", an epistolary novel's letters ("Lettre", "Brief",
  "Carta", "Lettera", "Письмо", "Επιστολή") and a play's scenes (below) (parts: Livre, Partie, Tome, Buch,
  Teil, Band, Libro, Parte, Tomo, Livro, Книга, Часть, Том, Μέρος, Τόμος, Βιβλίο(ν), Część, Księga, Tom,
  Díl, Část, Kniha, Rész, Könyv, Kötet, Partea, Cartea, Volumul) before a number in digits or Roman
  numerals or an ordinal word (``clueweaver.books.ordinals``: "Chapitre premier", "Глава двадцать первая",
  "Capítulo decimotercero", "ΚΕΦΑΛΑΙΟΝ ΠΡΩΤΟΝ", "Rozdział dwudziesty pierwszy", "Kapitola dvacátá první",
  "Capitolul al doilea"), or in Greek numerals ("ΚΕΦΑΛΑΙΟΝ ΙΒ΄"); German, Romance, Scandinavian and
  Hungarian ordinals, "3." and "III." also stand before the word ("Erstes Kapitel", "3. Kapitel", "Première
  partie", "FÖRSTA KAPITLET.", "Første Kapitel", "1ste Kapitel.", "Harmadik fejezet", "III. fejezet"); and,
  in books read as plain words (``und``), the chapter words of Dutch, Ukrainian, Catalan, Turkish, Finnish,
  Hindi, Arabic, Hebrew and Thai ("Hoofdstuk 3", "Розділ перший", "1. Bölüm", "Birinci Bölüm", "ENSIMMÄINEN
  LUKU", "अध्याय ३", "पहला अध्याय", "الفصل الحادي عشر", "פרק י״ד", "บทที่ ๒"), digits in any script, and a Hebrew
  numeral in its letters' order before the line's end or a mark (``HEBREW_NUMERAL``: "פרק לא נגמר" and "ספר לו."
  are prose);
- a bare Greek numeral with its keraia on its own line ("Α'", "ΙΖ'." in Project Gutenberg's
  Φόνισσα; the keraia typed as ʹ, ΄, ' or ’);
- the last chapter named so instead of numbered ("Capítulo último", "Глава последняя", "Letztes
  Kapitel", "Chapter the Last"), numbered one past the chapter before it, as is any chapter whose
  number cannot be read;
- a word of the book's own that it numbers 1, 2, 3 in order ("Ночь первая", "第一夜"), found by
  ``clueweaver.books.sequences`` and read as a heading the text marks.

How heading paragraphs make the chapters (marked headings without numbers, a source's repeats, parts,
stories, epilogues) is ``clueweaver.books.chapter_structure``; the numbers a reader uses for them,
``clueweaver.books.chapter_labels``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from clueweaver.books.language import HAN
from clueweaver.books.numerals import (
    CJK_NUMERALS,
    DAI_NUMERALS,
    DANISH_ORDINAL_DIGITS,
    ENGLISH_ORDINALS,
    FRENCH_ORDINAL_NUMERAL,
    KERAIA,
    NUMBER_WORDS,
    SINO_KOREAN_NUMERALS,
    hebrew_numeral_before,
    number_value,
)
from clueweaver.books.ordinals import LAST_PATTERN, ORDINAL_PATTERN

# A number in Chinese numerals ("一", "十一", "三十六"), not zero: a lone "〇" is a Japanese scene break.
_CJK_NUMBER = rf"[一二三四五六七八九十百千两兩][{CJK_NUMERALS}]*"
# A Greek numeral: capital letters (ΙΒ 12, ΣΤ 6, ΡΚΓ 123) and the keraia, typed in any of its look-alikes.
_GREEK_NUMERAL = rf"(?-i:[ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩϚϜϞϘϠ]{{1,4}})[{KERAIA}]"
# Digits with an ordinal indicator ("2ª PARTE", "Capítulo 1.º"), French ordinals in capital Roman numerals or
# digits ("CHAPITRE Ier", "Livre IIe", "Chapitre 1er"), and Norwegian and Danish ones in digits ("1ste Kapitel.",
# "2det", "3dje", "4de", "6te")
_ORDINAL_DIGITS = rf"\d+\.?[ºª°]|{FRENCH_ORDINAL_NUMERAL}|{DANISH_ORDINAL_DIGITS.pattern}"
_HEBREW_NUMBER = hebrew_numeral_before(".:\u2013\u2014-")
_NUMBER = (
    rf"(?:{_ORDINAL_DIGITS}|\d+|[ivxlcdmхі]+|(?:the\s+)?{ORDINAL_PATTERN}|(?:(?:{NUMBER_WORDS})[\s-]*)+|"
    rf"the\s+(?:first|second|third|last|\w+th)|{LAST_PATTERN}|{_CJK_NUMBER}|"
    rf"{_GREEK_NUMERAL}|(?-i:[ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩϚ]{{1,4}})|{_HEBREW_NUMBER})"
)
# after a keraia, or a degree sign typed for º, no word boundary follows; an elided article is no numeral ("L'ÉTOILE")
_NUMBER_END = rf"(?:\b(?!['’][^\W\d_])|(?<=[{KERAIA}°]))"
_UNIT_WORDS = (
    r"chapter|chap\.|adventure|letter|stave|canto|section|episode|chant|gesang|песнь|"
    r"chapitre|[kc]apitel|cap[ií]tulo|capitolo|cap\.|глава|κεφ[άα]λαιον?|κεφ\.|"
    r"sc[èe]ne|szene|auftritt|escena|scena|cena|явление|сцена|σκην[ήη]|"
    r"lettre|brief|carta|lettera|письмо|επιστολ[ήη]|"
    r"hoofdstuk|rozdzia[łl]|kapitola|kapittel|kapitlet|kap\.|fejezet|розділ|capitolul|capitol|cap[ií]tol|b[öo]l[üu]m|"
    r"luku|अध्याय|परिच्छेद|الفصل|فصل|الباب|פרק|บทที่|ตอนที่"
)
# A play's acts are its parts, its scenes its chapters ("ACT I", "SCENE II": chapter 1.2).
_WESTERN_CONTAINERS = (
    "book part volume vol. livre partie tome buch teil theil band libro parte tomo livro книга часть том "
    "μέρος μερος τόμος τομος βιβλίον βιβλιον βιβλίο βιβλιο "
    "act acte akt aufzug acto atto ato jornada акт действие πράξη πραξη πράξις πραξις część księga tom delen díl část "
    "kniha rész könyv kötet partea cartea volumul частина osa kirja kısım cilt deel boek "
    "भाग खंड الجزء חלק ספר ภาค".split()
)
# An epilogue, a section without a number (or with one of its own, which tells two apart: "FIRST EPILOGUE",
# "Epilogue II"): a part when chapters of its own follow ("ЭПИЛОГ", then "I", "II" in Преступление и
# наказание), else a chapter, which must open with prose (a contents list names it among short entries).
# Either is numbered one past the part, story or chapter before it
# (``clueweaver.books.chapter_structure``). A prologue stays in the front matter, which "0" names.
_EPILOGUES = frozenset(
    "epilogue épilogue epilog epílogo epilogo epilógus эпилог επίλογος 尾声 尾聲 終章 终章 終の章 エピローグ "
    "에필로그 番外 番外篇".split()  # 番外: a web novel's extras after its last chapter
)
# A closing section named as one, alone on its line ("CONCLUSION.", Middlemarch's "FINALE.", "Schluß."):
# an epilogue when no numbered chapter follows it; after a chapter's number it is the chapter's name
# ("CHAPTER XXX. CONCLUSION"), and a scholar's "Conclusion" before the next chapter closes an argument.
_CLOSINGS = frozenset(
    "conclusion finale postscript postface l'envoi l’envoi schluß schluss nachwort conclusión conclusione conclusão "
    "заключение послесловие zakończenie závěr doslov befejezés utószó".split()
)
_EPILOGUE_WORDS = "|".join(sorted(_EPILOGUES))
# What counts epilogues in a heading or a question: "FIRST EPILOGUE", "the second epilogue", "Zweiter Epilog"
EPILOGUE_ORDINAL = f"{ORDINAL_PATTERN}|{'|'.join(ENGLISH_ORDINALS)}"
_CONTAINER_WORDS = frozenset(
    [*_WESTERN_CONTAINERS, "卷", "部", "部分", "幕", "編", "编", "篇", "부", "편", "권", "막", *_EPILOGUES, *_CLOSINGS]
)
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
# 囘, a play's scene 场 場, or a part: 卷 部 編 篇, a play's act 幕), as in
# "第一百二十回", "第１２章", "第三話", a play's "第一幕の二" (act 1, scene 2); "第一回合" (the first round),
# "第一场雪" (the first snowfall), "第一篇文章" (the first article), "第一编辑室" (an editors' room) and a verse's
# "第三囘に" (a particle after it) are no headings.
# A figure's or table's caption names its chapter first ("第１章図２", "第三章 表一"): no heading.
_CAPTION = rf"(?!\s*[図圖图表]\s*[{CJK_NUMERALS}\d])"
# A web copy's bracket closes "【第一章】", an editor's "[SCÈNE V]."; a comma leads into the summary ("Глава II, из
# которой можно узнать…"); a dash closing a number, and a colon, into the name ("- I -: Escenario")
_SEPARATOR = r"\s*[】〗］\]]?\s*(?:[—–-]\s*[:：]|[.,:：—–-])?\s*"
_KOREAN_UNITS = "장|화|절|부|편|권|막"  # chapter, episode, section; part, part, volume; act
_NOT_HANGUL = r"(?![\uac00-\ud7a3])"
# The forms of one numbered component of a heading, tried in this order.
_COMPONENT_FORMS = (
    rf"第\s*(?P<number>[{DAI_NUMERALS}\d]+)\s*(?P<word>[回囘](?!合)|章|节|節|话|話|卷|部分?|(?:幕|场|場|編|编|篇)(?![{HAN}]))(?!(?!の[一二三四五六七八九十\d])[ぁ-ゖ]){_CAPTION}",
    rf"(?P<word>卷)\s*之?\s*(?P<number>[{CJK_NUMERALS}\d]+)(?![{CJK_NUMERALS}\d])",  # "卷一", "卷之三" (a part)
    # Korean "제1장", "제 일 장", "제이십삼장" and, without 제, "1장"; not "제1장에서" (a particle after it: prose)
    rf"제\s*(?P<number>\d+|[{SINO_KOREAN_NUMERALS}]+)\s*(?P<word>{_KOREAN_UNITS}){_NOT_HANGUL}",
    rf"(?P<number>\d+)\s*(?P<word>장|화|막){_NOT_HANGUL}",
    # "Erstes Kapitel", "3. Kapitel", "III. fejezet", "2ª PARTE"; "Letztes Kapitel", "The Last Chapter" alone
    # ("Последняя глава «Онегина» издана" is prose)
    rf"(?P<number>{ORDINAL_PATTERN}|{_ORDINAL_DIGITS}|\d+\.|(?-i:[IVXLC]+)\.|(?:the\s+)?{LAST_PATTERN}(?=\s*(?:{_CHAPTER_WORD})\.?$))\s*(?P<word>{_CHAPTER_WORD})\b",
    # "CHAPTER IV", "Глава первая", and an English ordinal after the word, as older English editions number ("BOOK
    # FIRST—A JUST MAN", "CHAPTER TWELFTH": Hapgood's Les Misérables)
    rf"(?P<word>{_CHAPTER_WORD})\s+(?P<number>{_NUMBER}|{'|'.join(ENGLISH_ORDINALS)}){_NUMBER_END}\.?",
    # "FIRST EPILOGUE", "Epilogue II" (War and Peace's two in English), then "EPILOGUE", "Эпилог", "尾声": no number
    rf"(?P<number>{EPILOGUE_ORDINAL})\s+(?P<word>{_EPILOGUE_WORDS})(?!\w)",
    rf"(?P<word>{_EPILOGUE_WORDS})\s+(?P<number>(?-i:[IVX]+)|\d{{1,2}})\b",
    rf"(?P<word>番外篇?)\s*(?P<number>{_CJK_NUMBER}|\d{{1,3}})(?![{CJK_NUMERALS}\d])",  # "番外一", "番外2"
    rf"(?P<word>{_EPILOGUE_WORDS})(?P<number>)(?!\w)",
    rf"^(?P<word>{'|'.join(sorted(_CLOSINGS))})(?P<number>)\.?$",  # "CONCLUSION.": the whole line
)
# "CHAPTER IV", "VOLUME I. CHAPTER I", "ADVENTURE II. THE RED-HEADED LEAGUE", "Chapter 12: The Storm",
# "第一回 甄士隐梦幻识通灵"
_ANY_COMPONENT = "|".join(re.sub(r"\(\?P<\w+>", "(?:", form) for form in _COMPONENT_FORMS)  # the forms, groups unnamed
# A title after the numbers fits a line (80 characters), or, after a full stop, comma or colon, two or
# three: Don Quijote's run to 222 ("Capítulo XXXVI. Que trata de la brava y descomunal batalla…").
_SHORT_TITLE_CHARS = 80
MAX_HEADING_CHARS = 250
_LONG_S = "ſ"  # Fraktur's long s, as the Deutsches Textarchiv keeps it ("Erſtes Kapitel"): a heading reads an s
# What Chinese texts copied from the web put before a chapter's number: "正文 第一章" (the main text),
# "《》目录 第一回" (a contents link's leftover, in every web copy of 西游记 that was checked), a
# bracket ("【第一章】", as web novels head chapters), a web serial's volume of free or paid chapters ("正文卷 第一章",
# "VIP卷 第十章"), the half of the book ("上卷 第一回", "下卷 第六十一回": the
# 回 count on, as web copies of 水浒传, 西游记 and 红楼梦 set them), a bullet that marks the heading
# ("●卷一·五帝本纪第一", as an older e-text of 史记 heads its 130 卷); read past.
_CJK_LEAD = re.compile(
    r"(?:《[^》\n]{0,30}》\s*)?(?:(?:正文卷?|VIP卷|目录|目錄|[上中下][卷册冊部])\s*[【〖［]?|[【〖［])\s*(?=第)"
    r"|[●◎○■◆★☆]\s*(?=[第卷])"
)
# A part's name and a colon before the unit's word, as Project Gutenberg's Divine Comedy heads its cantos
# ("Inferno: Canto I", "Purgatorio: Canto XXXIII"): the name is the part's, which a line of its own opens
_NAMED_LEAD = re.compile(rf"(?P<part_name>(?-i:[A-Z][a-zà-ÿ]{{2,20}})):\s+(?=(?:{_UNIT_WORDS})\s)", re.IGNORECASE)
_APPENDIX_WORDS = frozenset("appendix appendice anhang apéndice apêndice приложение".split())


def parts_named_by_headings(texts: list[str]) -> frozenset[str]:
    """The part headings that the chapter headings after them name ("INFERNO" over "Inferno: Canto I"), which
    ``clueweaver.books.part_levels.with_marked_parts`` places the chapters under: "1.5" is Inferno's Canto V;
    and an appendix's heading after them, one more part (the Divine Comedy's six sonnets: "4.1" to "4.6")."""
    named = {
        k
        for k, (text, following) in enumerate(zip(texts, texts[1:]))
        if (lead := _NAMED_LEAD.match(following)) and text.strip(" .").casefold() == lead["part_name"].casefold()
    }
    after = max(named, default=len(texts))
    appendices = {k for k in range(after + 1, len(texts)) if texts[k].strip(" .").casefold() in _APPENDIX_WORDS}
    return frozenset(texts[k] for k in named | appendices)


# The bracket an edition sets around a heading it supplies where the print has none (CLiGS's Ostorius:
# "[SCÈNE V].", between "SCÈNE IV. Caractacus, Didius." and "ACTE III"), closed right after its number.
_EDITORS_BRACKET = re.compile(rf"\[(?=(?:{_ANY_COMPONENT})\s*\])", re.IGNORECASE)
# After the editor's bracket, if any (``is_heading`` reads past it, so that the components are compiled once here)
_HEADING = re.compile(
    rf"^(?:{_CJK_LEAD.pattern}|{_NAMED_LEAD.pattern})?(?:(?:{_ANY_COMPONENT}){_SEPARATOR})+(?P<rest>.{{0,230}})$",
    re.IGNORECASE,
)
# A bare numeral on its own line ("IV", "II.", "12") starts a chapter in many Gutenberg texts, and
# in Chinese and Japanese ones ("一", "（十二）"); a roman one between dashes too (Marianela's "-I-").
_DASHED_ROMAN = re.compile(r"[-–—]\s*(?=[IVXLCХІ]+\.?\s*[-–—](?:$|\s*:))")  # "- I -: Escenario" names it
# A heading set between asterisks ("* ЧАСТЬ ПЕРВАЯ *", as RusLit's Подросток and Дубровский set parts).
_STARRED = re.compile(r"^\*+\s*(?P<inner>[^\s*].*?)\s*\*+$")
# A number set in brackets and spaces (Ulysses' episodes, "[ 1 ]" to "[ 18 ]"); "[1]" alone is a note's mark
_BRACKETED_NUMBER = r"\[ \d{1,3} \]"
# Japanese "part" before a section's number ("その一", "其の二", "その3")
_SONO = r"(?:その|其の|其ノ)\s*"
_SONO_LEAD = re.compile(rf"{_SONO}(?=[{CJK_NUMERALS}\d])")
# A bare number in digits has three at most: four are a year, which titles a chapter (DEU018's "1806")
BARE_DIGITS = 3
_BARE_DIGITS = rf"\d{{1,{BARE_DIGITS}}}"
BARE_NUMERAL = re.compile(
    rf"^(?:{_DASHED_ROMAN.pattern}[IVXLCХІ]+\.?\s*[-–—]|[IVXLCХІ]+|{_BARE_DIGITS}|{_BRACKETED_NUMBER}|{_CJK_NUMBER}|"
    rf"（(?:{_CJK_NUMBER}|{_BARE_DIGITS})）|{_SONO}(?:{_CJK_NUMBER}|{_BARE_DIGITS})|{_GREEK_NUMERAL})[.．]?$"
)
# A numeral, a full stop and a title: a heading when the title is in capitals ("I. ОТСТАВНОЙ ГЕНЕРАЛ И
# УЧИТЕЛЬ…" in Кто виноват?, "XII. THE STORM"); a title in mixed case after a bare numeral could be a
# sentence's first words (``clueweaver.books.sequences`` reads such titles numbered in order), and a
# lone C, L, D or M is an author's initial ("C. COLLODI"), not chapter 100, 50, 500 or 1000.
NUMBERED_TITLE = re.compile(r"^(?![CLDM]\.)(?P<number>[IVXLCDMХІ]+|\d{1,3})\.\s+(?P<title>\S.*)$")
# One numbered component at the start of a heading: one of the forms, or a bare number.
_COMPONENTS = tuple(
    re.compile(form + _SEPARATOR, re.IGNORECASE)
    for form in (*_COMPONENT_FORMS, rf"(?:（|\[ )?(?P<number>{_NUMBER})(?:）| \]|{_NUMBER_END}[.．]?)")
)
PROSE_ENDS = (".", "?", "!", ",", "。", "？", "！", "，", "；")
# A sentence of Chinese or Japanese ended inside the line: prose that a hard-wrapped line happens to
# open with "第四回" ("第四回中既將薛家母子在榮府內寄居等事略已表明，此回則暫不能寫矣．如").
_CJK_SENTENCE_INSIDE = re.compile(r"[。．！？][^\s。．！？」』”’）)]")
# Prose a line break left at a line's start: "第一回是民国元年我初到北京的时候，当时一个朋友对我说，北京戏最好，你"
# (社戏, its line broken mid-sentence): the number's unit runs straight into words, without the space, mark or
# bracket a title follows ("第一章：你好，世界", "【第一章】你好，世界" are headings), and a clause goes on past a
# comma, which no 回目 or chapter title set so holds.
_CJK_RUN_ON_CLAUSE = re.compile(rf"^[{HAN}]\S*[，、；]")
_HAN_END = re.compile(rf"[{HAN}]$")  # the number's unit word, with no mark or bracket after it


def is_heading(text: str) -> bool:
    if "\n" in text or len(text) > MAX_HEADING_CHARS:
        return False
    text = text.replace(_LONG_S, "s")
    if starred := _STARRED.match(text):
        text = starred["inner"]
    if BARE_NUMERAL.match(text):
        return True
    numbered_capitals = NUMBERED_TITLE.match(text)
    if numbered_capitals and is_title_line(numbered_capitals.group("title")):
        return True
    bracket = _EDITORS_BRACKET.match(text)
    match = _HEADING.match(text[bracket.end() :] if bracket else text)
    if not match or _repeats_its_word(text):
        return False
    rest_start = match.start("rest") + (bracket.end() if bracket else 0)
    rest, numbered = match.group("rest"), text[:rest_start].rstrip()
    if len(rest) > _SHORT_TITLE_CHARS and not numbered.endswith((".", ",", ":")):
        return False
    run_on = numbered == text[:rest_start] and _HAN_END.search(numbered) and _CJK_RUN_ON_CLAUSE.match(rest)
    if run_on or _CJK_SENTENCE_INSIDE.search(rest):
        return False
    # "Chapter one was the best of the book." is prose, not a heading; after "SCENE I." a short sentence
    # is the scene's place ("SCENE I. Elsinore. A platform before the castle."), or the chapter's summary.
    titled = not rest or rest.isupper() or rest.istitle() or numbered.endswith(".") and len(rest) <= _SHORT_TITLE_CHARS
    return titled or not rest.rstrip().endswith(PROSE_ENDS)


def _repeats_its_word(text: str) -> bool:
    """Whether a heading-like line names its unit twice: a contents list whose lines were joined ("BOOK I. BOOK II.
    BOOK III.", as Project Gutenberg's Iliad indents them one space), never one heading ("PART 2 CHAPTER I")."""
    words = [word for word, _ in Heading.parse(text).components if word]
    return len(set(words)) < len(words)


_MAX_NAME_LINES = 2


def heads_its_block(block: str) -> bool:
    """Whether a block of lines is a worded heading's line and its name on the next line or two
    ("Глава первая" / "Вместо введения: несколько подробностей из биографии…", as RusLit's Бесы sets
    its chapters), whatever the name's length or last mark: joined, the line break that set the name
    apart is lost. A bare numeral's line before a line or two is prose's first lines, not a name; a heading's
    line after it is the next entry of a contents list (Paradise Lost's "BOOK III", "BOOK IV"), not a name."""
    lines = [line.strip() for line in block.split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    first, *rest = lines
    if not is_worded_heading(first) or len(rest) > _MAX_NAME_LINES or len(" ".join(rest)) > MAX_HEADING_CHARS:
        return False
    return not any(is_worded_heading(line) for line in rest)


def is_worded_heading(text: str) -> bool:
    """A heading that names its unit ("Глава первая", "CHAPTER IV"), not a bare numeral, which a
    stanza's or a note's number also is."""
    return is_heading(text) and not BARE_NUMERAL.match(text)


def is_rule(text: str) -> bool:
    """A line of three or more marks and no letter or digit ("-----", "* * *"): a rule the source
    draws, not text (a lone "。”" is the end of a sentence that a wrap pushed onto its own line)."""
    return len(text.strip()) >= 3 and not any(c.isalnum() for c in text)


# A chapter's name in capitals fits two lines: Le Tour du monde wraps 15 of its 37 ("OÙ PHILEAS FOGG ET SES
# COMPAGNONS S'AVENTURENT À TRAVERS LES FORÊTS DE" / "L'INDE ET CE QUI S'ENSUIT"; the longest, 111 characters).
MAX_TITLE_CHARS = 160


def is_title_line(text: str) -> bool:
    """A short paragraph in capitals after a heading is the chapter's name ("PLAYING PILGRIMS")."""
    letters = [c for c in text if c.isalpha()]
    return 0 < len(text) <= MAX_TITLE_CHARS and bool(letters) and all(c.isupper() for c in letters)


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


# An editor's note mark after a title ("孔乙己⑴", "祝福〔１〕", "药[1]", "Глава II. Долгий путь[2]"): not the title's
NOTE_MARK = re.compile(r"\s*(?:[〔\[［(（][0-9０-９]{1,3}[〕\]］)）]|[\u2474-\u2487\u2460-\u2473])\s*$")
# The words of a section within a chapter: "第一節" under "第一章" is the chapter's first section, no chapter
SECTION_WORDS = frozenset({"section", "节", "節", "절"})

_LEADS = (_CJK_LEAD, _DASHED_ROMAN, _EDITORS_BRACKET, _NAMED_LEAD, _SONO_LEAD)


@dataclass(frozen=True)
class Heading:
    """A heading's numbered components ((word, number) in order, word "" for a bare numeral), the
    offset in its text where the part's own components end, and the name after the numbers."""

    components: tuple[tuple[str, int | None], ...]
    part_end: int
    name: str

    @classmethod
    def parse(cls, text: str) -> Heading:
        text = text.replace(_LONG_S, "s")  # one letter for one: the offsets stay the text's
        if starred := _STARRED.match(text):
            text = text[: starred.end("inner")]  # without the closing stars: offsets stay the text's
        start = starred.start("inner") if starred else 0
        lead = next((m for form in _LEADS if (m := form.match(text, start))), None)
        components, position, part_end = [], lead.end() if lead else start, 0
        while match := _component_at(text, position) or _after_part_name(text, position, components):
            word, number = (match.groupdict().get("word") or "").lower(), number_value(match.group("number"))
            if not word and (components or number is None or _is_no_number(text, match)):
                break  # a bare number comes first, and must read as one
            if word in _EPILOGUES and any(w not in _CONTAINER_WORDS for w, _ in components):
                break  # "CHAPTER XL. EPILOGUE": the chapter's name
            if match.start() > position:  # a part's name before the chapter's number: the part's own
                part_end = match.start()
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
    def number(self) -> int | None:
        """The chapter's number, else the part's (a part heading's own)."""
        return (self.unit or self.part or (None, None))[1]

    @property
    def is_epilogue(self) -> bool:
        return bool(self.components) and self.components[0][0] in _EPILOGUES or self.is_closing

    @property
    def is_closing(self) -> bool:
        return bool(self.components) and self.components[0][0] in _CLOSINGS

    @property
    def style(self) -> tuple[str, bool] | None:
        """How its chapter number is written: the word, and whether a name follows."""
        return (self.unit[0], bool(self.name)) if self.unit else None


_I_BEFORE_WORD = re.compile(r"I\s+(\w)")


def _is_no_number(text: str, bare: re.Match) -> bool:
    """Whether a bare number's match is a word or a year: "I" before a word in lower case is Italian's plural
    article or English's pronoun ("I condannati della Corsia", a title in Barbieri's Lucifero, had taken the title
    above it for its own), and four digits are a year that titles a chapter (DEU018's "1806", "1822")."""
    after = _I_BEFORE_WORD.match(text, bare.start())
    digits = bare.group("number")
    return bool(after) and after.group(1).islower() or digits.isdigit() and len(digits) > BARE_DIGITS


def web_lead_end(text: str) -> int:
    """Where what a web copy puts before a Chinese heading's number ends ("正文卷 ", "上卷 ", "【": ``_CJK_LEAD``); 0
    without it. A part's name leaves it out: "第一卷 风起", not "正文卷 第一卷 风起"."""
    lead = _CJK_LEAD.match(text)
    return lead.end() if lead else 0


def _component_at(text: str, position: int) -> re.Match | None:
    return next((m for form in _COMPONENTS if (m := form.match(text, position))), None)


# A part's name between its number and the chapter's, as downloads of Chinese web serials head chapters ("第一卷
# 风起 第三章 开端"): Han characters without a mark, then 第
_CJK_PART_NAME = re.compile(rf"\s*[{HAN}]{{1,12}}\s+(?=第)")


def _after_part_name(text: str, position: int, components: list) -> re.Match | None:
    """The chapter's number after a Chinese part's name (``_CJK_PART_NAME``), when the components read so far are a
    part's; else None."""
    if not components or any(word not in _CONTAINER_WORDS for word, _ in components):
        return None
    name = _CJK_PART_NAME.match(text, position)
    return _component_at(text, name.end()) if name else None


def names_its_unit(text: str, heading: Heading | None = None) -> bool:
    """Whether a heading's paragraph (``heading``: its parse, when the caller has it) opens with its
    unit's word and number, whatever follows ("SCÈNE III. Dorante, Mélisse, déguisée en servante…", a
    scene's cast; "Chapter VIII ~ In What Wise Birdalone Was Clad, and How She Went Her Ways…"): a
    heading where a file marks one, though its long name or last mark reads as prose in running text."""
    unit = (heading or Heading.parse(text)).unit
    return unit is not None and bool(unit[0])
