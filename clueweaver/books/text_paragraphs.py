"""Where a plain text's paragraphs are: between blank lines, or, in a text that has lost them, at
the line breaks that end paragraphs rather than wrap them (``text_paragraphs``)."""

from __future__ import annotations

import re
from collections import Counter

from clueweaver.books.chapters import BARE_NUMERAL, is_heading, is_rule
from clueweaver.books.numerals import CJK_NUMERALS, DAI_NUMERALS, number_value
from clueweaver.books.sentences import CJK_CHARACTERS, ends_with_sentence_mark


def blocks(text: str) -> list[str]:
    """The text between blank lines (a line of spaces is blank, full-width ones too)."""
    return [b for b in re.split(r"\n[^\S\n]*\n", text.replace("\r\n", "\n").replace("\r", "\n")) if b.strip()]


# Prose keeps a handful of lines between blank lines; a text averaging more lines than this per
# blank-line block has lost its paragraph breaks (L-Eval stories, BMDS), so its line breaks are read.
_MAX_LINES_PER_BLOCK = 15
# No one hard-wraps prose this wide: a line this long is a whole paragraph.
_PARAGRAPH_LINE_CHARS = 250
# A text with this share of its lines that long gives every paragraph one line, short ones too (the
# e-text layout of lib.ru and many Russian collections); a hard-wrapped one has none.
_ONE_LINE_PARAGRAPHS_SHARE = 0.05


def _paragraphs_of_block(block: str, *, unwrap: bool, one_line_paragraphs: bool) -> list[str]:
    """The paragraphs of a block that may hold several separated by single line breaks.

    Lines longer than anyone wraps prose are whole paragraphs, one per line, and so is every line of
    a block in a text laid out so (``one_line_paragraphs``): a chapter of short dialogue lines has
    none that long. With ``unwrap`` (the text has lost its blank lines) hard-wrapped prose is joined
    back: a line is broken only when the next word does not fit, so a line that had room for the
    next line's first word ends a paragraph. The room is measured against the widest nearby lines,
    because a blurb or a quotation is often wrapped narrower than the body.
    """
    lines = [line.strip() for line in block.split("\n") if line.strip()]
    lengths = [len(line) for line in lines]
    if len(lines) > 1 and (one_line_paragraphs or max(lengths) > _PARAGRAPH_LINE_CHARS):
        return lines
    if not unwrap:
        return _listed_numerals(block) or _closing_heading_apart(block)
    paragraphs, current, apart = [], [], [*map(_stands_apart, lines), True]
    for i, line in enumerate(lines):
        current.append(line)
        following = lines[i + 1] if i + 1 < len(lines) else ""
        width = max(lengths[max(0, i - 4) : i + 2])
        if apart[i] or apart[i + 1] or len(line) + 1 + len(following.split(" ", 1)[0]) < width:
            paragraphs.append(" ".join(current))
            current = []
    return paragraphs


def _stands_apart(line: str) -> bool:
    """Whether a line of a text that lost its blank lines is a heading, a paragraph of its own, as a contents list's
    entries are (Paradise Lost's "BOOK I" to "BOOK XII", joined where the lines around them are as short); a
    wrapped line of prose that begins in lower case with a unit's word is none ("letter I sent to my chief")."""
    return not line[:1].islower() and is_heading(line)


def _closing_heading_apart(block: str) -> list[str]:
    """A block whose last line is a heading set at another indent than the line before it, as that
    text and the heading: RusLit's texts often leave no blank line before a chapter's numeral (an
    epigraph's "Из поэзии Н. А. Некрасова", then "     I"; an essay's last sentence, then "II"), and the
    chapter was lost in the paragraph before it. A wrapped line at the same indent ("King Henry", "IV.")
    goes on."""
    text, _, last = block.rstrip().rpartition("\n")
    before = text.rsplit("\n", 1)[-1]
    if before.strip() and is_heading(last.strip()) and _indent(last) != _indent(before):
        return [text, last]
    return [block]


_MIN_LISTED_NUMERALS = 3  # bare numerals one a line in a block: a list of them


def _listed_numerals(block: str) -> list[str] | None:
    """A block of bare numerals one a line, three or more, a paragraph each: a contents list's (Ulysses'
    "[ 1 ]", "[ 2 ]", "[ 3 ]" under "— I —"), whose entries the chapter finder leaves in the front matter."""
    lines = block.strip("\n").split("\n")
    if len(lines) >= _MIN_LISTED_NUMERALS and all(BARE_NUMERAL.match(line.strip()) for line in lines):
        return lines
    return None


def _indent(line: str) -> int:
    """Its leading spaces."""
    return len(line) - len(line.lstrip(" "))


_CJK_CHARACTER = re.compile(f"[{CJK_CHARACTERS}]")
# What a CJK text sets two columns wide: its characters, and the punctuation East Asian fonts give a
# full cell ("“", "…", "—", "·"), which a wrapped line counts as two like any character.
_WIDE = re.compile(f"[{CJK_CHARACTERS}\u00b7\u2014\u2015\u2018-\u201f\u2025\u2026\u203b]")
# Nobody hard-wraps CJK prose narrower than this many columns (a CJK character is two columns wide).
_MIN_CJK_WRAP_COLUMNS = 40
# A block between blank lines with this many lines shows its own wrap width: a text typed in by many
# hands is wrapped at as many widths (Project Gutenberg's 紅樓夢: 52 to 70 columns, chapter by chapter).
_OWN_WRAP_LINES = 12
# A line this many columns short of the wrap still goes on when it stops mid-sentence.
_NEAR_WRAP_COLUMNS = 6
# A line opening a quotation or an aside ("「", "（") after a line short of the wrap begins a paragraph.
_OPENERS = "「『“‘（(《"
# A 回目 heading whose chapter's first words run on in its line, as one hand typed them (Project
# Gutenberg's 紅樓夢: "第一零四回　　醉金剛小鰍生大浪　痴公子余痛触前情 話說賈雨村剛欲過渡，"): heading, then text.
_HEADING_RUNNING_ON = re.compile(rf"^(\s*第[{DAI_NUMERALS}\d]+回\s+\S{{2,12}}\s+\S{{2,12}})\s+(\S.*)$")
# A Chinese numeral alone on a line: after a line cut mid-sentence at the wrap, it is that sentence's
# next character left on a line of its own ("將系小衣儿", "一", "條大紅汗巾子"), not a section heading.
_BARE_NUMERAL = re.compile(f"^[{CJK_NUMERALS}]+$")


def _columns(line: str) -> int:
    return len(line) + len(_WIDE.findall(line))


def _wrap_width(lines: list[str]) -> int | None:
    """The width in columns a CJK text is hard-wrapped at, from its lines other than headings: the
    commonest width (of at least ``_MIN_CJK_WRAP_COLUMNS``) of lines that end mid-sentence, when at
    least a third of the lines, and three, are that wide (give or take two columns, for punctuation
    a line may not start with). None when lines end at sentence ends or are of all widths, as in a
    text that gives each paragraph one line."""
    widths = [_columns(line) for line in lines]
    open_widths = [width for line, width in zip(lines, widths) if not ends_with_sentence_mark(line)]
    common = Counter(width for width in open_widths if width >= _MIN_CJK_WRAP_COLUMNS).most_common(1)
    if not common:
        return None
    full = sum(abs(width - common[0][0]) <= 2 for width in open_widths)
    return common[0][0] if full >= 3 and 3 * full >= len(widths) else None


def join_lines(lines: list[str]) -> str:
    """Wrapped lines (stripped, not empty) as one paragraph: no space between two CJK characters,
    which have none between them; one space elsewhere."""
    text = lines[0]
    for line in lines[1:]:
        text += ("" if _CJK_CHARACTER.match(text[-1]) and _CJK_CHARACTER.match(line[0]) else " ") + line
    return text


def _prose_lines(lines: list[str]) -> list[str]:
    """The lines other than headings, as wide as they are set (a paragraph's indent fills its first line)."""
    return [line.rstrip() for line in lines if not is_heading(line.strip())]


def _cjk_paragraphs(blocks: list[str]) -> list[str]:
    """The paragraphs of a Chinese or Japanese text, which has no words to measure wrapping by:
    each line is one (e-texts give each paragraph one line, often indented with full-width
    spaces), unless the text is hard-wrapped (``_wrap_width``: a long block's own, else the whole
    text's); then a line as wide as the wrap goes on in the next line, unless that one is indented
    or either is a heading."""
    blocks_lines, run_on = zip(*map(_split_running_headings, blocks)) if blocks else ((), ())
    blocks_prose = [_prose_lines(lines) for lines in blocks_lines]
    text_wrap = _wrap_width([line for prose in blocks_prose for line in prose])
    paragraphs = []
    for lines, prose, running in zip(blocks_lines, blocks_prose, run_on):
        wrap = _wrap_width(prose) if len(lines) >= _OWN_WRAP_LINES else text_wrap
        stray = [i > 0 and _stray_numeral(lines[i - 1], line, wrap) for i, line in enumerate(lines)]
        current: list[str] = []
        for i, line in enumerate(lines):
            after_heading = i - 1 in running and not (line[0].isspace() or is_heading(line.strip()) or is_rule(line))
            joined = stray[i] or (i > 0 and stray[i - 1]) or (i > 0 and _goes_on(lines[i - 1].rstrip(), line, wrap))
            if current and not (joined or after_heading):
                paragraphs.append(join_lines(current))
                current = []
            current.append(line.strip())
        paragraphs.append(join_lines(current))
    return paragraphs


def _split_running_headings(block: str) -> tuple[list[str], set[int]]:
    """A block's non-blank lines, with a 回目 heading that runs on into its chapter's first words cut
    in two, and the numbers of those first words' lines, which the next line carries on unless it is
    indented, a heading or a rule ("第三十一回　撕扇子作千金一笑　因麒麟伏白首雙星　話", "說襲人見了自己吐")."""
    split, run_on = [], set()
    for line in block.split("\n"):
        running = _HEADING_RUNNING_ON.match(line) if line.strip() else None
        if running and is_heading(running[1].strip()):
            split.append(running[1])
            run_on.add(len(split))
            split.append(running[2])
        elif line.strip():
            split.append(line)
    return split, run_on


def _stray_numeral(line: str, following: str, wrap: int | None) -> bool:
    """Whether ``following`` is a Chinese numeral alone that carries on ``line``, a line of a
    hard-wrapped text cut mid-sentence at (or near) the wrap: the two, and the line after, are one
    paragraph, though the numeral reads as a heading and the next line may be indented."""
    if wrap is None or not _BARE_NUMERAL.match(following.strip()) or ends_with_sentence_mark(line.rstrip()):
        return False
    return _columns(line.rstrip()) >= wrap - _NEAR_WRAP_COLUMNS and not is_heading(line.strip())


def _goes_on(line: str, following: str, wrap: int | None) -> bool:
    """Whether a hard-wrapped ``line`` (as set, indent and all) goes on in the ``following`` line (as
    read): it is as wide as the wrap, or nearly and stops mid-sentence (hand-wrapped lines fall a
    character or two short), and the next line is not indented, opens no quotation and neither is a
    heading or a rule."""
    if wrap is None or following[0].isspace() or is_rule(line) or is_rule(following):
        return False
    width = _columns(line)
    if width < wrap - _NEAR_WRAP_COLUMNS or (
        width < wrap - 2 and (ends_with_sentence_mark(line) or following[0] in _OPENERS)
    ):
        return False
    return not is_heading(line.strip()) and not is_heading(following.strip())


# A heading inside a Chinese or Japanese line ("…且看下文分解。第二回：張翼德怒鞭督郵…"), and how far back from it the
# end of the sentence before it is looked for (a mark and its closing quotes); a closing quote alone ends speech too
# ("…革命黨麼」第八章")
_INLINE_HEADING = re.compile(rf"第\s*(?P<number>[{DAI_NUMERALS}\d]+)\s*(?P<unit>[回章節节])(?!合)[：:]?")  # not 回合
_SENTENCE_END_CHARS = 8
_CLOSING_QUOTES = "」』”"
_MIN_INLINE_HEADINGS = 3


def _inline_headings_apart(text_blocks: list[str]) -> list[str]:
    """A Chinese or Japanese text that lost every line break (a corpus that joined its lines: 三國志演義 as one line
    of 590,000 characters) cut before each heading it runs on: 第一回 after the title, then each 第N回 after a
    sentence's end, in the unit word most such headings take, counting up (a cross-reference, "詳見第五回", follows
    no sentence's end, and a number out of order is no heading). Each heading is a paragraph of its own; any other
    text is as it was. Not where the count stops short of half the unit's numbers: a heading the text runs on without
    a sentence's end ("…下回分解第七回") would leave every later chapter in the last one found, under its label."""
    if len(text_blocks) != 1 or "\n" in text_blocks[0].strip():
        return text_blocks
    line = text_blocks[0].strip()
    found = list(_INLINE_HEADING.finditer(line))
    unit = Counter(match["unit"] for match in found).most_common(1)[0][0] if found else None
    cuts: list[re.Match] = []
    for match in found:
        before = line[max(0, match.start() - _SENTENCE_END_CHARS) : match.start()]
        after_sentence = ends_with_sentence_mark(before) or before.endswith(tuple(_CLOSING_QUOTES))
        if match["unit"] == unit and number_value(match["number"]) == len(cuts) + 1 and (after_sentence or not cuts):
            cuts.append(match)
    if len(cuts) < _MIN_INLINE_HEADINGS or 2 * len(cuts) < sum(match["unit"] == unit for match in found):
        return text_blocks
    edges = [0, *(edge for match in cuts for edge in match.span()), len(line)]
    return [piece for start, end in zip(edges, edges[1:]) if (piece := line[start:end].strip())]


def _written_without_spaces(text: str) -> bool:
    """Chinese or Japanese: most of the text is CJK characters."""
    return 2 * (len(text) - len(_CJK_CHARACTER.sub("", text))) > len(text)


# A printed page's number, set flush right alone on its line ("…a amanecer.", "      4", "      II": it
# ends at the text's right edge and starts past its middle; a chapter number is centred), or after a
# gap of three spaces or more at the end of the page's last line ("…con impaciencia.   3").
_PAGE_NUMBER = re.compile(r"(?P<gap>^[ \t]+|(?<=\S)[ \t]{3,})\d{1,4}[ \t]*$")
# A line number in the margin of an annotated edition ("[25] cada vez mas lejanos"): in brackets, as
# wide as the indent of the nearest line before or after it.
_MARGIN_LINE_NUMBER = re.compile(r"\[\d{1,4}\] +(?=\S)")


def without_margins(text: str) -> str:
    """``text`` without the page numbers and line numbers a printed edition's transcription keeps in
    its margins (Project Gutenberg's Doña Perfecta, a school edition: "4" opened a chapter, and the
    next page's "73" ran into the chapter numeral "XI")."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    marked = [i for i, line in enumerate(lines) if line[-1:].isdigit() or line.startswith("[")]
    if not marked or len(lines) < 20:
        return "\n".join(lines)
    right_edge = sorted(map(len, lines))[int(0.95 * (len(lines) - 1))]
    for i in marked:
        line = lines[i]
        page = _PAGE_NUMBER.search(line) if line[-1:].isdigit() else None
        alone_flush_right = page and len(line) >= right_edge - 2 and len(page["gap"].expandtabs()) > right_edge / 2
        if page and (page.start() > 0 or alone_flush_right):
            lines[i] = line[: page.start()]
        number = _MARGIN_LINE_NUMBER.match(line)
        if number and len(number[0]) in (_nearest_indent(lines, i, -1), _nearest_indent(lines, i, 1)):
            lines[i] = " " * len(number[0]) + lines[i][len(number[0]) :]
    return "\n".join(lines)


def _nearest_indent(lines: list[str], i: int, step: int) -> int | None:
    """The leading spaces of the nearest non-blank line within four of line ``i``, in direction ``step``."""
    for j in range(i + step, i + 5 * step, step):
        if 0 <= j < len(lines) and lines[j].strip():
            return _indent(lines[j])
    return None


def split_blocks(text: str) -> list[str]:
    """The paragraphs of a text that keeps its blank lines: its blocks, each cut at its lines when one
    is longer than anyone wraps prose (never joined back, ``_paragraphs_of_block``)."""
    cut = (_paragraphs_of_block(block, unwrap=False, one_line_paragraphs=False) for block in blocks(text))
    return [paragraph for paragraphs in cut for paragraph in paragraphs]


def text_paragraphs(text: str) -> list[str]:
    """The paragraphs of a plain text, in order (not yet normalized): its blank-line blocks, cut at
    line breaks where the text has lost its blank lines (``_paragraphs_of_block``), and Chinese or
    Japanese text at every line break unless it is hard-wrapped (``_cjk_paragraphs``). A printed
    edition's page and line numbers go first (``without_margins``)."""
    text_blocks = blocks(without_margins(text))
    if _written_without_spaces(text):
        return _cjk_paragraphs(_inline_headings_apart(text_blocks))
    lines = [line for block in text_blocks for line in block.split("\n") if line.strip()]
    unwrap = len(lines) > _MAX_LINES_PER_BLOCK * len(text_blocks)
    long_lines = sum(len(line.strip()) > _PARAGRAPH_LINE_CHARS for line in lines)
    one_line = unwrap and long_lines >= _ONE_LINE_PARAGRAPHS_SHARE * len(lines)
    cut = [_paragraphs_of_block(block, unwrap=unwrap, one_line_paragraphs=one_line) for block in text_blocks]
    return [paragraph for paragraphs in cut for paragraph in paragraphs]
