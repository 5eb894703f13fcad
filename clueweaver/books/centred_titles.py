"""Titles a Chinese or Japanese plain text sets centred: the stories and essays of a collection. Lu Xun's
彷徨 and 朝花夕拾, as their e-texts lay them out, head each piece with its title alone between blank
lines, indented far past the paragraphs' two full-width spaces ("                    　　祝福"), and
number no chapters, or only the sections inside a story ("一", "二"). Such a title has no number and no
chapter word, so only its place on the line shows it.

An anthology or a collection of tales sets its titles on lines of their own without centring them (诗经's
"关雎", "葛覃"; 聊斋志异's "考城隍", "画皮"): short lines of Han characters and no mark, many more of them than a
novel has (``bare_titles``).

``piece_titles`` finds them; ``clueweaver.books.narrative.from_text`` reads each as a story
(``clueweaver.books.chapter_structure.story_units``) where the book's numbered headings restart under
each (``collection_titles``), and ``story_name`` is what a reader calls it.
"""

from __future__ import annotations

import re

from clueweaver.books.chapters import NOTE_MARK, is_heading, is_rule
from clueweaver.books.language import HAN, KANA
from clueweaver.books.numerals import CJK_NUMERALS

_TITLE_CHARACTER = re.compile(f"[{HAN}{KANA}]")
# A paragraph's indent is two full-width spaces (four columns); a title is set this far in or more,
# past the four full-width spaces of a poem quoted in the text.
_MIN_INDENT_COLUMNS = 12
_MAX_TITLE_CHARS = 25
_MAX_TITLE_LINES = 3  # a title, its subtitle, its author's name
# A line that ends so is prose, a verse, a quoted line or a signed date ("一九二二年十二月三日，鲁迅记于北京。")
_PROSE_ENDS = tuple("。．！？，；：、…—”’」』")
_BRACKETS = "（）()［］[]〔〕"
# A date set centred under a piece ("一九二五年三月一日", "三月十日"): no title
_DATE = re.compile(rf"^(?:[{CJK_NUMERALS}○\d０-９]+\s*[年月日号號夜]\s*)+$")
# So few centred lines are a title page or an epigraph, not a collection's titles
_MIN_TITLES = 3


# A title on a line of its own: Han characters alone. A novel has few such lines (红楼梦: 49 of its 2,999, its
# inscriptions; 西游记 none); an anthology many (诗经: 688 of 4,105; an annotated 聊斋志异: 166 of 1,590).
_BARE_TITLE = re.compile(f"[{HAN}]{{2,8}}")
_MIN_BARE_TITLES = 20
_MIN_BARE_TITLE_SHARE = 0.05


def piece_titles(text: str) -> frozenset[str]:
    """The titles of a CJK text's pieces: those it sets centred, else those on lines of their own."""
    return centred_titles(text) or bare_titles(text)


def bare_titles(text: str) -> frozenset[str]:
    """The lines (stripped) of Han characters alone (``_BARE_TITLE``, an editor's note mark aside) that are no
    heading read by its words ("第三回", "卷一"), where they are at least ``_MIN_BARE_TITLE_SHARE`` of the text's
    lines and ``_MIN_BARE_TITLES`` in all; else none."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    titles = [line for line in lines if _BARE_TITLE.fullmatch(NOTE_MARK.sub("", line)) and not is_heading(line)]
    enough = len(titles) >= max(_MIN_BARE_TITLES, _MIN_BARE_TITLE_SHARE * len(lines))
    return frozenset(titles) if enough else frozenset()


def centred_titles(text: str) -> frozenset[str]:
    """The lines (stripped) a CJK text sets centred as titles: the first of a block between blank lines
    whose few lines (a subtitle, "——涓生的手记", the author's name) are all indented
    ``_MIN_INDENT_COLUMNS`` or more, short, ending with no sentence's or clause's mark, no date, no
    heading read by its words (a numbered one, "第三章", "一") and no heading's name (the line after
    one); none unless ``_MIN_TITLES`` or more are found."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    titles, previous = [], ""
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        opens_block = i == 0 or not lines[i - 1].strip()
        centred = opens_block and _indent_columns(line) >= _MIN_INDENT_COLUMNS  # the cheap test first
        if centred and _is_title(line) and not is_heading(previous) and _set_centred(_block(lines, i)):
            titles.append(line.strip())
        previous = line.strip()
    return frozenset(titles) if len(titles) >= _MIN_TITLES else frozenset()


def _block(lines: list[str], first: int) -> list[str]:
    """The lines from ``first`` to the next blank one."""
    end = next((j for j in range(first, len(lines)) if not lines[j].strip()), len(lines))
    return lines[first:end]


def _set_centred(block: list[str]) -> bool:
    return len(block) <= _MAX_TITLE_LINES and all(
        _indent_columns(line) >= _MIN_INDENT_COLUMNS and len(line.strip()) <= _MAX_TITLE_CHARS for line in block
    )


def _indent_columns(line: str) -> int:
    """How far in a line is set: a full-width space is two columns, a tab eight."""
    indent = line[: len(line) - len(line.lstrip())].expandtabs(8)
    return len(indent) + indent.count("\u3000")


def _is_title(line: str) -> bool:
    title = NOTE_MARK.sub("", line.strip())
    if not title or len(title) > _MAX_TITLE_CHARS or not _TITLE_CHARACTER.search(title):
        return False
    inside = title.strip(_BRACKETS)  # a date set in brackets: "（一九二四年十月二十八日。）"
    return not (inside.endswith(_PROSE_ENDS) or _DATE.match(inside) or is_heading(title) or is_rule(title))


def story_name(title: str) -> str:
    """What a reader calls a centred title: without its note mark, and without the spaces that letter-space
    it ("肥　　皂〔１〕" is "肥皂", "在 酒 楼 上" is "在酒楼上")."""
    name = NOTE_MARK.sub("", title.strip())
    return re.sub(rf"(?<=[{HAN}{KANA}])\s+(?=[{HAN}{KANA}])", "", name)
