"""A PDF's text layer read as a book's paragraphs: the pages' lines as set (pypdf's layout mode keeps
each line's indent), a two-column page's columns in turn, without the running heads and page numbers a
printed page repeats, joined into paragraphs where the layout shows one begins, and words hyphenated at a
line's end made whole.

Extracted text has no paragraph marks: a paragraph begins at a first-line indent (most books), after a
vertical gap, at a centred line (headings), or, in a book set without indents, after a line that stops
short at a sentence's end. A scan without a text layer, an encrypted file and a broken one are refused
with what to do instead.
"""

from __future__ import annotations

import io
import logging
import re
from collections import Counter
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.errors import PdfReadError

from clueweaver.books.chapters import is_heading
from clueweaver.books.errors import NarrativeError
from clueweaver.books.sentences import ends_with_sentence_mark
from clueweaver.books.text_paragraphs import join_lines

PDF_SUFFIX = ".pdf"
# A first or last line of a page that recurs, digits aside, on this share of the pages (and three at
# least) is a running head or foot ("Le Tour du monde   12"), not the book's text.
_RUNNING_SHARE = 0.2
_MIN_RUNNING_PAGES = 3
# A number alone on a page's first or last line ("12", "- 12 -", "[12]"): the page's number when the pages
# count on by one from it (a chapter's "3" at a page's top does not)
_BARE_NUMBER = re.compile(r"[-–—\[(]?\s*(\d{1,4})\s*[-–—\])]?")
# A line indented this many columns past the body's margin, or more, is set apart (centred: a heading,
# a title, an epigraph), not a paragraph's first line.
_SET_APART_COLUMNS = 12
# In a book set without indents, a line that ends a sentence and is shorter than this share of a full line
# (in characters: a proportional font fits more narrow letters) ends its paragraph. Chosen on a typeset
# Emma (block style: 71% of its paragraphs read whole, against 55% at 0.8), then measured once on a typeset
# Le Tour du monde (78%); a book set with first-line indents reads 99% whole whatever this is.
_SHORT_LINE_SHARE = 0.95
# Two columns: a gutter is a column blank in this share of a page's lines at least, with text on both sides
# in this share (a page of this many lines at least); one column of prose has no such column of spaces.
_GUTTER_SHARE, _TWO_SIDED_SHARE, _MIN_COLUMN_LINES = 0.97, 0.3, 8
_MIN_INDENTED_SHARE = 0.02  # of the lines: fewer first-line indents than this, and the book sets none
# A PDF's metadata title that names no book: a writer's placeholder, or the file a word processor printed
_NO_TITLE = re.compile(r"\(anonymous\)|untitled|document\d*|.*\.(?:docx?|odt|rtf|txt|indd|tex)", re.IGNORECASE)
_HYPHENATED = re.compile(r"(\w+)-$")
_WORD_START = re.compile(r"^(\w+)")


@dataclass(frozen=True)
class _Line:
    indent: int  # columns, as pypdf's layout mode sets the line
    text: str  # stripped; "" for a vertical gap


def read_pdf(data: bytes, source: str, encoding: str | None = None) -> tuple[str | None, str]:
    """A PDF's title (its metadata's, when set) and its text as paragraphs apart by blank lines; an
    ``encoding`` (given for a zip that holds the PDF) is refused, not ignored."""
    if encoding:
        raise NarrativeError(
            f"{source}: an encoding ({encoding}) applies to text files; a PDF's text layer is Unicode"
        )
    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # pypdf logs what it repairs in a file ("Ignoring wrong pointing object")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise NarrativeError(f"{source}: the PDF is encrypted; save an unprotected copy and pass that")
        pages = [page.extract_text(extraction_mode="layout") for page in reader.pages]
        title = str((reader.metadata or {}).get("/Title") or "").strip()
    except (PdfReadError, ValueError, KeyError) as exc:
        raise NarrativeError(f"{source}: not a readable PDF ({exc})") from exc
    finally:
        quiet.setLevel(level)
    if not any(re.search(r"\w", page) for page in pages):
        raise NarrativeError(
            f"{source}: the PDF has no text layer (a scan of {len(pages)} page images); run OCR first "
            "(e.g. ocrmypdf --sidecar BOOK.txt BOOK.pdf out.pdf) and pass the text, or a text edition of the book"
        )
    title = title.removeprefix("Microsoft Word - ")
    return (None if _NO_TITLE.fullmatch(title) or not title else title), "\n\n".join(
        laid_out_paragraphs([_lines(page) for page in pages])
    )


def _lines(page: str) -> list[_Line]:
    """A page's lines with their indents and single spaces, its columns read in turn (``_in_columns``),
    the blank lines at its top and bottom left out."""
    raw = _in_columns(page.expandtabs().split("\n"))
    lines = [_Line(len(line) - len(line.lstrip()), " ".join(line.split())) for line in raw]
    while lines and not lines[0].text:
        lines.pop(0)
    while lines and not lines[-1].text:
        lines.pop()
    return lines


def _in_columns(lines: list[str]) -> list[str]:
    """A page set in two columns as its left column's lines, then its right column's (layout mode sets
    them side by side, a line of each in one line); the page as it is when no gutter parts it: a column
    of spaces in nearly every line, near the page's middle, with text on both sides in many lines."""
    written = [line for line in lines if line.strip()]
    width = max(map(len, written), default=0)
    if len(written) < _MIN_COLUMN_LINES:
        return lines
    candidates = []
    for column in range(int(0.3 * width), int(0.7 * width)):
        blank = sum(len(line) <= column or line[column] == " " for line in written)
        both = sum(bool(line[:column].strip()) and bool(line[column:].strip()) for line in written)
        if blank >= _GUTTER_SHARE * len(written) and both >= _TWO_SIDED_SHARE * len(written):
            candidates.append((blank, both, column))  # the blankest column first: it cuts no word
    if not candidates:
        return lines
    gutter = max(candidates)[2]
    right = [line[gutter:] for line in lines]
    margin = Counter(len(part) - len(part.lstrip()) for part in right if part.strip()).most_common(1)[0][0]
    return [line[:gutter] for line in lines] + [part[margin:] if part[:margin].isspace() else part for part in right]


def laid_out_paragraphs(pages: list[list[_Line]]) -> list[str]:
    """The paragraphs of pages of laid-out lines (``read_pdf``), running heads and page numbers left out."""
    lines = [line for page in _without_running_lines(pages) for line in page]
    indents = Counter(line.indent for line in lines if line.text)
    if not indents:
        return []
    margin = indents.most_common(1)[0][0]  # the body's left edge
    lines = [_Line(max(0, line.indent - margin), line.text) for line in lines]
    body = [line for line in lines if line.text]
    uses_indents = sum(0 < line.indent < _SET_APART_COLUMNS for line in body) >= _MIN_INDENTED_SHARE * len(body)
    widths = sorted(len(line.text) + line.indent for line in body)
    full = widths[int(0.9 * (len(widths) - 1))]
    words = Counter(word.lower() for line in body for word in re.findall(r"\w+(?:-\w+)*", line.text))
    paragraphs, current, previous, previous_heading = [], [], None, False
    for line in lines:
        heading = bool(line.text) and is_heading(line.text)  # once a line: it is the next line's previous
        if line.text and current and (heading or previous_heading or _begins(line, previous, uses_indents, full)):
            paragraphs.append(_joined(current, words))
            current = []
        if line.text:
            current.append(line.text)
        previous, previous_heading = (line, heading) if line.text else (None, False)
    if current:
        paragraphs.append(_joined(current, words))
    return paragraphs


def _begins(line: _Line, previous: _Line | None, uses_indents: bool, full: int) -> bool:
    """Whether ``line``, no heading and not after one, begins a paragraph after ``previous`` (None: a
    vertical gap between them)."""
    if previous is None:
        return True
    set_apart, previous_apart = (x.indent >= _SET_APART_COLUMNS for x in (line, previous))
    if set_apart or previous_apart:
        return set_apart != previous_apart  # the lines of one centred title go on
    if uses_indents:
        return line.indent > 0
    return len(previous.text) + previous.indent < _SHORT_LINE_SHARE * full and ends_with_sentence_mark(previous.text)


def _joined(lines: list[str], words: Counter) -> str:
    """A paragraph's lines as one text: a word hyphenated at a line's end made whole when the book
    writes it whole at least as often as with its hyphen ("remar-" "qués"; "Saville-" "row" keeps it)."""
    text = lines[0]
    for line in lines[1:]:
        cut, rest = _HYPHENATED.search(text), _WORD_START.match(line)
        if cut and rest and rest.group(1)[0].islower():
            whole, hyphened = cut.group(1) + rest.group(1), f"{cut.group(1)}-{rest.group(1)}"
            text = text[:-1] + line if words[whole.lower()] >= words[hyphened.lower()] else text + line
        else:
            text = join_lines([text, line])
    return text


def _running_key(line: _Line) -> str:
    """A line as running heads recur: digits aside ("Le Tour du monde   12", "   13")."""
    return re.sub(r"\d+", "#", line.text)


def _without_running_lines(pages: list[list[_Line]]) -> list[list[_Line]]:
    """``pages`` without their page numbers (``_page_offset``) and the first and last lines that recur,
    digits aside, on ``_RUNNING_SHARE`` of the pages (running heads and feet), nor the gaps they leave."""
    ends = Counter(_running_key(page[i]) for page in pages for i in {0, len(page) - 1} if page)
    least = max(_MIN_RUNNING_PAGES, _RUNNING_SHARE * len(pages))
    running = {key for key, n in ends.items() if n >= least and re.search(r"[^\W\d_]", key)}  # words, not "#"
    offset = _page_offset(pages)

    def running_line(line: _Line, number: int) -> bool:
        bare = _BARE_NUMBER.fullmatch(line.text)
        return _running_key(line) in running or (offset is not None and bare and int(bare.group(1)) == number + offset)

    kept = []
    for number, page in enumerate(pages):
        start, end = 0, len(page)
        while start < end and (not page[start].text or running_line(page[start], number)):
            start += 1
        while end > start and (not page[end - 1].text or running_line(page[end - 1], number)):
            end -= 1
        kept.append(page[start:end])
    return kept


def _page_offset(pages: list[list[_Line]]) -> int | None:
    """What the numbers printed alone on the pages' first or last lines add to the pages' order (0, 1,
    ...), when three pages at least agree; None when no pages are so numbered."""
    offsets = Counter(
        int(bare.group(1)) - number
        for number, page in enumerate(pages)
        for i in {0, len(page) - 1}
        if page and (bare := _BARE_NUMBER.fullmatch(page[i].text))
    )
    best = offsets.most_common(1)
    return best[0][0] if best and best[0][1] >= _MIN_RUNNING_PAGES else None
