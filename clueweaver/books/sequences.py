"""Headings a book numbers with a word of its own: Белые ночи's "Ночь первая" to "Ночь четвертая",
夢十夜's "第一夜" to "第十夜", an old edition's "第一囘", a diary's "第一日", a play's "第一齣". No list
of chapter words can name every such word, but a book that sets one word with the numbers 1, 2, 3 in
order on paragraphs of their own is numbering its sections with it, whatever the word. So is one
that numbers titles in mixed case in order ("I. Вельчанинов", "II. Господин с крепом на шляпе"),
which alone could be a sentence's first words, and a Chinese or Japanese book that numbers titles
("一、两兄弟", "（二）雨夜", "3．来信"), which alone could be a list's items.

``sequence_headings`` finds them; the chapter finder reads them as headings the text marks
(``clueweaver.books.narrative.from_paragraphs``), so they are numbered in reading order. Parts named by
their place instead of a number, 上 / 中 / 下 (こころ's "上　先生と私") or 前編 / 後編, are ``placed_parts``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from clueweaver.books.chapters import NUMBERED_TITLE, is_heading
from clueweaver.books.language import HAN, HANGUL
from clueweaver.books.numerals import CJK_NUMERALS, DAI_NUMERALS, ENGLISH_ORDINALS, number_value
from clueweaver.books.ordinals import ORDINAL_PATTERN

_ENGLISH_ORDINALS = "|".join(ENGLISH_ORDINALS)
_ORDINAL = rf"(?P<number>{ORDINAL_PATTERN}|{_ENGLISH_ORDINALS})"
_WORD = r"(?P<word>[^\W\d_]{2,20})"
# "Ночь первая", "Giornata prima", "Première journée", "Erster Tag", "First Night"
_SPACED_FORMS = (
    re.compile(rf"^{_WORD}\s+{_ORDINAL}\.?$", re.IGNORECASE),
    re.compile(rf"^{_ORDINAL}\s+{_WORD}\.?$", re.IGNORECASE),
)
# "第一夜", "第三日　雨", "第二齣 言懷": 第, a number, one Han character, and a name without a sentence's marks
_CJK_FORM = re.compile(rf"^第\s*(?P<number>[{DAI_NUMERALS}\d]+)\s*(?P<word>[{HAN}])(?:\s+[^。！？，；、]{{1,30}})?$")
# "一、两兄弟", "（二）雨夜", "三　来信", "4．别离": a number in Chinese numerals or digits (full-width too), in
# brackets or before a mark (、．. or a space), and a title in Han, Hangul or kana without a sentence's or a clause's
# marks. Without the mark a numeral opens prose ("一个人"); keyed by how the number is set, so that a list set
# otherwise does not join the run.
_CJK_NUMBERED_TITLE = re.compile(
    rf"^(?P<open>[（(]?)(?P<number>[{CJK_NUMERALS}]{{1,6}}|\d{{1,3}})(?P<mark>[）)]|[、．.]|\s)\s*"
    rf"(?P<title>[{HAN}{HANGUL}\u3041-\u30ff《「『][^。！？，；：…!?;]{{0,29}})$"
)
# "I. Вельчанинов", "II. Господин с крепом на шляпе" (Вечный муж): a numeral, a full stop and a title in
# mixed case (``NUMBERED_TITLE``), which alone could be a sentence's first words ("I. Went home."); in
# order, they head sections. The title opens with a letter and does not end as a sentence or a clause does.
_SENTENCE_ENDS = (".", "!", "?", "…", ",", ";", ":")
# What such a sequence numbers outside the story: figures, tables, a statute's articles
_NOT_SECTIONS = frozenset("図圖图表条條")
_MAX_CHARS = 80  # a line of its own: a word and a number, or a numbered title
# A run must reach three: speakers in a dialogue take turns as "first" and "second" ("Голос первый",
# "Голос второй" in Blok; Turgenev's "Первый чернорабочий").
_MIN_LAST = 3


def sequence_headings(texts: Sequence[str]) -> frozenset[str]:
    """The paragraphs that head sections numbered with a word of the book's own: those of a word set
    with the numbers 1, 2, 3 ... in reading order, starting again at 1 where a new part does, and
    reaching at least 3. Such paragraphs one right after another are a list ("第一隊 池田勝入ノ兵六千",
    "第二隊 …": an army's divisions) or a contents page, not headings."""
    numbered: dict[str, list[tuple[int, str, int]]] = defaultdict(list)
    for i, text in enumerate(texts):
        if len(text) <= _MAX_CHARS and (found := _numbered_word(text)):
            numbered[found[0]].append((i, text, found[1]))
    headings = set()
    for run in numbered.values():
        # of paragraphs one right after another, only the last can head a section (a contents page's
        # last entry may stand right before the first heading)
        following = [*run[1:], None]
        heads = [(text, value) for (i, text, value), after in zip(run, following) if not after or after[0] > i + 1]
        if _counts_up([value for _, value in heads]):
            headings.update(text for text, _ in heads)
    return frozenset(headings)


def _numbered_word(text: str) -> tuple[str, int] | None:
    """(the word, casefolded, and its number) of a paragraph that is a word and a number, or for a
    numbered title the way its number is set ("roman.", "digits.", "numerals、", "（numerals）") and the number;
    else None."""
    titled = NUMBERED_TITLE.match(text)
    if titled and titled["title"][0].isalpha() and not titled["title"].endswith(_SENTENCE_ENDS):
        value = number_value(titled["number"])  # keyed by how the number is written: digits or letters
        return ("digits." if titled["number"].isdigit() else "roman.", value) if value else None
    if (cjk := _CJK_NUMBERED_TITLE.match(text)) and (cjk["open"] == "") == (cjk["mark"] not in "）)"):
        value = number_value(cjk["number"])
        written = "digits" if cjk["number"].isdigit() else "numerals"
        return (f"{cjk['open']}{written}{cjk['mark'].strip() or ' '}", value) if value else None
    match = _CJK_FORM.match(text) or next(filter(None, (form.match(text) for form in _SPACED_FORMS)), None)
    if not match or match["word"] in _NOT_SECTIONS:
        return None
    number = match["number"]
    value = number_value(f"the {number}" if re.fullmatch(_ENGLISH_ORDINALS, number, re.IGNORECASE) else number)
    return (match["word"].casefold(), value) if value else None


def _counts_up(values: list[int]) -> bool:
    """Whether numbers run 1, 2, 3 ... up to 3 at least, starting again at 1 fewer times than they
    reach: once a part (神曲's cantos, 34, 33 and 33), not every few lines, as a play's "First Witch",
    "Second Witch", "Third Witch" do when they speak in turn."""
    steps_up = all(after in (before + 1, 1) for before, after in zip(values, values[1:]))
    top = max(values)
    return values[0] == 1 and steps_up and top >= _MIN_LAST and values.count(1) <= top


# A part named by its place, alone or with the part's word and a name ("上", "上巻", "中　両親と私", "後編")
_PLACE = re.compile(r"^(?P<place>[上中下前後后])(?P<word>[巻卷編编篇册冊部]?)(?:\s+[^。！？，；、.!?]{1,30})?$")
_PLACE_ORDERS = ("上下", "上中下", "前後", "前后")  # the places of a book's parts, in their order


def placed_parts(texts: Sequence[str]) -> frozenset[str]:
    """The paragraphs that head parts named by their place in the book, each followed by a heading (こころ's
    "上　先生と私", then "一"): 上, 中, 下 (or 前編, 後編), each once and in that order, all with the same word
    (上巻, 下巻) or none. A contents page's entries, one under another, head nothing; a 上 alone is a word."""
    placed = [
        (text, match)
        for text, following in zip(texts, texts[1:])
        if len(text) <= _MAX_CHARS and (match := _PLACE.match(text)) and is_heading(following)
    ]
    places = "".join(match["place"] for _, match in placed)
    if places not in _PLACE_ORDERS or len({match["word"] for _, match in placed}) != 1:
        return frozenset()
    return frozenset(text for text, _ in placed)


def bare_place(heading: str) -> str | None:
    """The place a part is headed by alone ("上" for "上　先生と私"), which a question writes right before a chapter
    of it ("上の第三章"); None for a heading with the part's word (``place_name``) or another heading."""
    match = _PLACE.match(heading)
    return match["place"] if match and not match["word"] else None


def place_name(heading: str) -> str | None:
    """How a reader names a part headed by its place with the part's word, unquoted: "下巻" for "下巻 帰郷", "後編";
    None for a bare 上 / 中 / 下, which a question writes as a word ("下の方"), and for any other heading."""
    match = _PLACE.match(heading)
    return match["place"] + match["word"] if match and match["word"] else None
