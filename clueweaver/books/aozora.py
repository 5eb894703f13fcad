"""Aozora Bunko (青空文庫) plain texts: the book without the markup its volunteers add.

An Aozora file is the book's title and author, a legend of its markup between two rulers of
dashes (【テキスト中に現れる記号について】), the text, and a colophon from "底本：" (the printed
edition it was typed from, who typed and proofread it). The text carries:

- ruby, the reading of a word, after it in 《》 ("私《わたくし》"), its start marked by ｜ where
  the word does not begin at a change of script ("一人｜麦藁帽《むぎわらぼう》");
- the typists' notes in ［＃…］: indents, emphasis dots, page breaks, headings
  ("［＃５字下げ］一［＃「一」は中見出し］", or a block's lines between "［＃ここから中見出し］" and
  "［＃ここで中見出し終わり］"), and characters outside Shift_JIS after a ※
  ("※［＃「てへん＋劣」、第3水準1-84-77］", "※［＃二の字点、1-2-22］"); notes may nest.

Left in, a reading doubles every word it follows for a reader and for retrieval (BM25 takes
"わたくし" for words of the text) and the notes read as text, so the loader keeps the words only
(``strip_aozora``): the readings, ｜ and the notes go, a ※ note that names the character's code
point (U+XXXX) or its place in JIS X 0213 (plane-row-cell, "1-84-77") becomes that character, and any other
leaves the ※ the printed text has; the legend and
the colophon go like a Project Gutenberg licence. The heading notes say which lines are headings,
which the loader passes on, so that chapters are found whatever the headings say ("一", "上　先生と私"),
and the large headings (大見出し) head parts, which number the chapters under them ("2.1": 中's 一).
"""

from __future__ import annotations

import re
from typing import NamedTuple

_LEGEND = "【テキスト中に現れる記号について】"
_RULER = re.compile(r"^-{20,}[ \t]*$", re.MULTILINE)
_COLOPHON = re.compile(r"^底本[：:]", re.MULTILINE)
_NOTE = re.compile(r"［＃[^［］]*］")  # innermost first: a note may hold a ※ note
_CHARACTER_NOTE = re.compile(r"※［＃([^［］]*)］")  # a character Shift_JIS lacks, described (innermost notes first)
_CODE_POINT = re.compile(r"U\+([0-9A-Fa-f]{4,6})")
# its plane, row and cell in JIS X 0213, after the description ("第3水準1-84-77", "1-2-22"); not a page and line
# of the printed edition ("144-3")
_JIS_X_0213_PLACE = re.compile(r"、(?:第[34]水準)?([12])-(\d{1,2})-(\d{1,2})$")
_HEADING_NOTE = re.compile(r"［＃[^［］]*見出し(?:終わり)?］")  # 大見出し, 中見出し, 小見出し and their variants
_PART_NOTE = re.compile(r"［＃[^［］]*大見出し(?:終わり)?］")  # a large heading: a part ("上　先生と私")
# A heading set as a block: the note alone on a line before it ("［＃ここから中見出し］"), another after
# it ("［＃ここで中見出し終わり］"), as 吉川英治's 新・水滸伝 heads its 104 chapters.
_BLOCK_START = re.compile(r"［＃ここから[^［］]*?(大)?見出し］")
_BLOCK_END = re.compile(r"［＃ここで[^［］]*見出し終わり］")
_RUBY = re.compile(r"《[^《》\n]*》")


def is_aozora(text: str) -> bool:
    """An Aozora Bunko text: its legend of markup, or a colophon ("底本：") and typists' notes."""
    return _LEGEND in text or (_COLOPHON.search(text) is not None and "［＃" in text)


def aozora_title(text: str) -> str | None:
    """An Aozora text's title: its first line, or None when the text is not Aozora's."""
    if not is_aozora(text):
        return None
    return next((line.strip() for line in text.splitlines() if line.strip()), None)


def _without_legend_and_colophon(text: str) -> str:
    """The title, author and text: the legend between its two rulers, and the colophon, cut out."""
    colophon = _COLOPHON.search(text)
    if colophon:
        text = text[: colophon.start()]
    legend = text.find(_LEGEND)
    if legend >= 0:
        opening = [m for m in _RULER.finditer(text) if m.end() <= legend]
        closing = next((m for m in _RULER.finditer(text, legend)), None)
        if opening and closing:
            text = text[: opening[-1].start()] + text[closing.end() :]
    return text


def gaiji(description: str) -> str | None:
    """The character a note describes ("「區＋鳥」、第3水準1-94-69" is 鷗, "「木＋世」、U+67BB、123-4" 枻): by its
    code point, or by its JIS X 0213 place, which EUC-JIS-2004 encodes as the row's and the cell's byte (0xA0 +
    each), after 0x8F on plane 2; None where the note names neither (the printed page's "144-3" alone)."""
    if code_point := _CODE_POINT.search(description):
        return chr(int(code_point.group(1), 16))
    place = _JIS_X_0213_PLACE.search(description)
    if place is None:
        return None
    plane, row, cell = (int(group) for group in place.groups())
    if not (0 < row <= 94 and 0 < cell <= 94):
        return None
    try:
        return bytes([0x8F] * (plane == 2) + [0xA0 + row, 0xA0 + cell]).decode("euc_jis_2004")
    except UnicodeDecodeError:
        return None


def _plain(line: str) -> str:
    """A line without ruby, ｜ and notes; a ※ note that names a code point or a JIS X 0213 place gives its
    character."""
    line = _CHARACTER_NOTE.sub(lambda m: gaiji(m.group(1)) or m.group(), line)
    line = _RUBY.sub("", line).replace("｜", "")
    while (stripped := _NOTE.sub("", line)) != line:
        line = stripped
    return line


class AozoraText(NamedTuple):
    """An Aozora text without its markup, the lines its heading notes mark (as they read once the
    markup is gone), and those of them marked large headings (大見出し), which head parts."""

    text: str
    headings: frozenset[str]
    parts: frozenset[str]


def strip_aozora(text: str) -> AozoraText:
    """An Aozora text without its markup (see the module's docstring), with its headings and parts."""
    lines, headings, parts = [], set(), set()
    block, held = None, []  # in a heading block: whether it heads a part, and its lines so far
    for line in _without_legend_and_colophon(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n"):
        plain = _plain(line)
        if start := _BLOCK_START.search(line):
            block = bool(start.group(1))
        if block is None:
            lines.append(plain)
            heading, part = plain.strip() if _HEADING_NOTE.search(line) else "", bool(_PART_NOTE.search(line))
        else:
            held += [plain.strip()] if plain.strip() else []
            if not _BLOCK_END.search(line):
                continue
            heading, part = "".join(held), block  # a heading wrapped over the block's lines is one heading
            lines.append(heading)
            block, held = None, []
        if heading:
            headings.add(heading)
            if part:
                parts.add(heading)
    lines.extend(held)  # a block left open at the end: its lines as they are
    return AozoraText("\n".join(lines), frozenset(headings), frozenset(parts))
