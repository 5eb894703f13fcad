"""Narratives: a book as numbered paragraphs with chapters, offsets and a content hash.

Every later stage refers to the text only through paragraph IDs, so IDs are stable integers in
narrative order (0..n-1) and ``Narrative.text`` is the canonical text the offsets point into: the
paragraphs joined by one blank line. The web page highlights citations with those offsets.

A paragraph is at most ``MAX_PARAGRAPH_CHARS`` characters in every book a loader reads (.txt, .md,
.html, .epub, .jsonl without paragraph IDs of its own): a longer one is cut at sentence ends
(``split_long_paragraph``), the same way in every loader, so that a text without paragraph breaks
(a LongBench context, a CJK e-text) still gives paragraphs a retrieval budget can hold and a
reader can cite. ``Narrative.split_paragraphs`` counts the paragraphs that were cut.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from clueweaver.books.aozora import is_aozora, strip_aozora
from clueweaver.books.archives import GZIP_SUFFIX, ZIP_SUFFIX, book_suffix, gunzip, is_epub_zip, unpack_zip
from clueweaver.books.back_matter import chapter_heading_flags
from clueweaver.books.centred_titles import piece_titles
from clueweaver.books.chapter_labels import describe_labels, label_span, labels
from clueweaver.books.chapter_structure import book_units, collection_titles, units_from_titles
from clueweaver.books.chapters import NO_CHAPTERS_HINT, heads_its_block, is_heading, parts_named_by_headings
from clueweaver.books.contents import contents_headings
from clueweaver.books.encoding import decode_text, strict_utf8, without_lone_surrogates
from clueweaver.books.epub import read_epub
from clueweaver.books.errors import NarrativeError
from clueweaver.books.fictionbook import read_fictionbook
from clueweaver.books.headers import is_licence_boundary, markdown_title, strip_gutenberg, text_title
from clueweaver.books.marked import MarkedBook
from clueweaver.books.markup import html_paragraphs, html_title
from clueweaver.books.named_chapters import named_span
from clueweaver.books.office import read_docx, read_odt
from clueweaver.books.pdf import PDF_SUFFIX, read_pdf
from clueweaver.books.sentences import split_long_paragraph
from clueweaver.books.sequences import placed_parts, sequence_headings
from clueweaver.books.tei import read_tei
from clueweaver.books.text_paragraphs import blocks, text_paragraphs

PARAGRAPH_SEPARATOR = "\n\n"
HTML_SUFFIXES = (".html", ".htm", ".xhtml")  # a Project Gutenberg HTML edition, a saved Wikisource page
TEI_SUFFIXES = (".xml", ".tei")  # a TEI text (an ELTeC novel, a scholarly edition); other XML is refused
# What a .zip or a .gz may hold: a book file that is no archive itself (an EPUB is one; JSONL is data)
PACKABLE_SUFFIXES = (".txt", ".md", ".markdown", *HTML_SUFFIXES, ".fb2", *TEI_SUFFIXES, PDF_SUFFIX)
OFFICE_READERS = {".docx": (read_docx, "Word document"), ".odt": (read_odt, "OpenDocument text")}  # zips themselves
_OWN_ENCODING = {  # files whose encoding no --encoding can change, and why
    ".epub": "an EPUB's documents declare their own",
    ".jsonl": "a JSONL file is UTF-8",
    PDF_SUFFIX: "a PDF's text layer is Unicode",
    **dict.fromkeys(OFFICE_READERS, "a Word or OpenDocument file's XML declares its own"),
}
SUPPORTED_SUFFIXES = (
    *PACKABLE_SUFFIXES,
    ".epub",
    *OFFICE_READERS,
    ".jsonl",
    ZIP_SUFFIX,
    *(s + GZIP_SUFFIX for s in PACKABLE_SUFFIXES),
)


# A paragraph longer than this is cut at sentence ends: about 500 English or 1,500-2,000 Chinese
# tokens, several of which fit a packet's 13,000-16,000 character budget (presets.yaml).
MAX_PARAGRAPH_CHARS = 2000

TRUNCATION_MARKER = " [… paragraph truncated: {omitted} more characters]"


def gap_marker(first_missing: int, last_missing: int) -> str:
    count = last_missing - first_missing + 1
    return f"[… {count} paragraph{'' if count == 1 else 's'} omitted …]"


@dataclass(frozen=True)
class Paragraph:
    id: int
    text: str
    start: int  # offset of the first character in Narrative.text
    end: int  # offset one past the last character
    chapter: int  # 1-based chapter number, 0 for front matter before the first heading
    is_heading: bool = False


@dataclass(frozen=True)
class Chapter:
    number: int  # 1-based position in reading order: what paragraphs, limits and stores count in
    title: str
    first_paragraph: int
    last_paragraph: int
    label: str = ""  # the number a reader uses, as the book numbers it ("24", "1.2"); see clueweaver.books.chapters
    part: str | None = None  # the heading of the part or story the chapter belongs to
    volume: str | None = None  # the heading of the volume over that part (clueweaver.books.part_levels)

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", str(self.number))

    @property
    def paragraph_ids(self) -> range:
        return range(self.first_paragraph, self.last_paragraph + 1)

    @property
    def full_title(self) -> str:
        """The title with its volume, part or story, unless it opens with them ("* ЧАСТЬ ПЕРВАЯ * Глава первая")."""
        overs = [over for over in (self.volume, self.part) if over and not self.title.lstrip("* ").startswith(over)]
        return " — ".join([*overs, self.title])


@dataclass
class Narrative:
    title: str
    paragraphs: list[Paragraph]
    chapters: list[Chapter] = field(default_factory=list)
    source: str = ""
    encoding: str | None = None  # the codec a text file was read with (reading it again with it gives this text)
    encoding_detected: bool = False  # not UTF-8 and not given: guessed by ``detect_encoding``
    encoding_warning: str | None = None  # where bytes that were not UTF-8 (or lone surrogates) were replaced
    split_paragraphs: int = 0  # paragraphs of the source longer than MAX_PARAGRAPH_CHARS, each cut into several
    archive_note: str | None = None  # which file of a .zip or .gz was read, and what else it held

    def __post_init__(self) -> None:
        if not self.paragraphs:
            raise NarrativeError(f"{self.source or self.title}: the narrative has no paragraphs")

    def __len__(self) -> int:
        return len(self.paragraphs)

    @property
    def encoding_note(self) -> str | None:
        """How a file nobody named the encoding of was read, when it was not UTF-8: said wherever the book
        is read for a person (the command line, a benchmark's log), since a wrong guess garbles every accent."""
        return f"{self.source} is not UTF-8; read as {self.encoding} (detected)" if self.encoding_detected else None

    def __getitem__(self, paragraph_id: int) -> Paragraph:
        return self.paragraphs[paragraph_id]

    @cached_property
    def text(self) -> str:
        return PARAGRAPH_SEPARATOR.join(p.text for p in self.paragraphs)

    @cached_property
    def content_hash(self) -> str:
        """SHA-256 of the canonical text: the same book from .txt, .epub or .jsonl hashes alike
        when its paragraphs are the same, and any edit to a paragraph changes it."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    @property
    def book_id(self) -> str:
        return self.content_hash[:16]

    @property
    def num_chars(self) -> int:
        return len(self.text)

    def chapter_limit(self, label: str | None) -> int | None:
        """The position of the last chapter a reader who read up to ``label`` has read: a chapter
        as the book numbers it ("24", "1.2"; ``clueweaver chapters`` lists them) or as a question names it
        ("第二十四回", "chapter XXIV", "Part 2"), a part or story ("1": all its chapters), or "0" (the front
        matter only). None reads the whole book."""
        return None if label is None else self.chapter_span(label)[1]

    def chapter_span(self, label: str) -> tuple[int, int]:
        """First and last chapter position that ``label`` names (``chapter_limit``); 0 is the
        front matter."""
        if str(label).strip() == "0":
            return 0, 0
        self._require_chapters()
        span = label_span(str(label), [c.label for c in self.chapters]) or named_span(self.chapters, str(label))
        if span is None:
            raise NarrativeError(
                f"{self.title}: no chapter {label} (the book's chapters are "
                f"{describe_labels([c.label for c in self.chapters])}; 'clueweaver chapters BOOK' lists them)"
            )
        return span

    def _require_chapters(self) -> None:
        """A chapter limit needs chapters: a book without any says how to give them."""
        if not self.chapters:
            raise NarrativeError(f"{self.title}: no chapter limit applies: {NO_CHAPTERS_HINT}")

    def chapter_label(self, number: int) -> str:
        """How the book numbers the chapter at position ``number`` ("0": the front matter)."""
        return self.chapters[number - 1].label if number else "0"

    def last_paragraph_of_chapter(self, chapter: int | None) -> int:
        """Last paragraph ID readable when reading up to ``chapter`` (inclusive); None means all."""
        if chapter is None:
            return len(self.paragraphs) - 1
        self._require_chapters()
        if not 0 <= chapter <= len(self.chapters):
            raise NarrativeError(
                f"{self.title}: chapter limit {chapter} is beyond the book's {len(self.chapters)} chapters"
            )
        if chapter == 0:
            return self.chapters[0].first_paragraph - 1
        return self.chapters[chapter - 1].last_paragraph

    def render(self, paragraph_ids, *, gap_markers: bool = True, truncate: dict[int, int] | None = None) -> str:
        """``[id] text`` lines, the form in which agents see and cite paragraphs, in the given
        (ascending) order. Where IDs skip, a marker line says how many paragraphs are left out, so a
        reader never mistakes two distant passages for one scene. ``truncate`` maps an ID to the
        number of characters kept, and the cut is marked in the text."""
        ids = list(paragraph_ids)
        truncate = truncate or {}
        lines = []
        previous = -1
        for i in ids:
            if gap_markers and i > previous + 1:
                lines.append(gap_marker(previous + 1, i - 1))
            text = self.paragraphs[i].text
            if i in truncate:
                kept = truncate[i]
                text = text[:kept] + TRUNCATION_MARKER.format(omitted=len(text) - kept)
            lines.append(f"[{i}] {text}")
            previous = i
        if gap_markers and ids and previous < len(self.paragraphs) - 1:
            lines.append(gap_marker(previous + 1, len(self.paragraphs) - 1))
        return "\n".join(lines)

    def to_jsonl(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            for p in self.paragraphs:
                chapter = self.chapters[p.chapter - 1].title if p.chapter else None
                f.write(json.dumps({"paragraph": p.id, "chapter": chapter, "text": p.text}, ensure_ascii=False) + "\n")


# --- building a narrative from paragraph texts --------------------------------------------------


def normalize_text(text: str) -> str:
    """The form paragraph texts are stored in (NFC, single spaces); apply it to a string before
    looking for it verbatim in a paragraph."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(r"\s+", " ", text).strip()


def from_paragraphs(
    texts: list[str],
    *,
    title: str,
    source: str = "",
    chapter_titles: list[str | None] | None = None,
    detect_headings: bool = True,
    max_paragraph_chars: int | None = None,
    headings: frozenset[str] = frozenset(),
    part_headings: frozenset[str] = frozenset(),
    marked_headings: Sequence[bool] | None = None,
    body_only: bool = False,
    story_titles: frozenset[str] = frozenset(),
) -> Narrative:
    """Number paragraphs and find chapters.

    Chapters come from ``chapter_titles`` (one per paragraph, e.g. a JSONL's chapter field) when
    given, else from heading paragraphs, with parts and stories folded into their first chapter and
    numbered as the book numbers them (``clueweaver.books.chapters``). The heading paragraphs are
    detected, or with ``marked_headings`` (a flag per text) the ones the file marks (an EPUB's
    h1-h3 elements, a Markdown file's ``#`` lines), which are read the same way: "第一回" is
    chapter 1 after a title page and a contents page. ``headings`` are texts the source marks as headings
    (Aozora's notes), as are those its layout shows (``sequence_headings``, ``placed_parts``,
    ``contents_headings``): one is a heading whatever its words, and one of ``part_headings`` heads a part
    (``with_marked_parts``).
    With ``max_paragraph_chars`` (the loaders give ``MAX_PARAGRAPH_CHARS``) a longer paragraph is
    cut by ``split_long_paragraph``; without it the paragraphs stay as given, for callers whose
    labels count them (DetectiveQA's numbered paragraphs, the common benchmark schema).
    ``body_only``: the headings are all of the book's body, its front and back matter marked apart
    and read as prose (a TEI text, a FictionBook), so a titled section after the last chapter is a chapter.
    ``story_titles``: the titles of a collection's stories (``piece_titles``), each a heading that opens
    a story, whose numbered headings are its sections (``story_units``).
    """
    texts, surrogates = without_lone_surrogates(texts, source or title)
    parts = [
        (split_long_paragraph(text, max_paragraph_chars) if max_paragraph_chars else [text]) if text else []
        for text in map(normalize_text, texts)
    ]
    cleaned = [piece for pieces in parts for piece in pieces]
    if chapter_titles is not None:
        chapter_titles = [name for name, pieces in zip(chapter_titles, parts) for _ in pieces]
    if not cleaned:
        raise NarrativeError(f"{source or title}: no paragraphs (the text is empty or only whitespace)")

    parts_marked = frozenset(map(normalize_text, part_headings)) | parts_named_by_headings(cleaned)
    stories = collection_titles(cleaned, frozenset(map(normalize_text, story_titles)))
    if marked_headings is not None:  # a long heading's first piece is the heading
        found = [mark and k == 0 for mark, pieces in zip(marked_headings, parts) for k in range(len(pieces))]
    elif not detect_headings:
        found = [False] * len(cleaned)
    else:
        by_layout = (sequence_headings(cleaned) | placed_parts(cleaned) | contents_headings(cleaned)) - parts_marked
        marked = frozenset(map(normalize_text, headings)) | stories | by_layout
        named = [heads_its_block(text) for text, pieces in zip(texts, parts) for _ in pieces]  # never cut: short
        found = [t in marked or is_heading(t) or b for t, b in zip(cleaned, named)]
    heading_flags = chapter_heading_flags(cleaned, found)
    if chapter_titles is not None:
        starts, previous = {}, None
        for i, name in enumerate(chapter_titles):
            if name and name != previous:
                starts[i] = name
            previous = name
        units = units_from_titles(starts)
    else:
        units = book_units(cleaned, heading_flags, stories=stories, parts=parts_marked, body_only=body_only)

    paragraphs, offset = [], 0
    firsts = [u.first for u in units]
    for i, text in enumerate(cleaned):
        chapter = bisect.bisect_right(firsts, i)
        paragraphs.append(Paragraph(i, text, offset, offset + len(text), chapter, heading_flags[i]))
        offset += len(text) + len(PARAGRAPH_SEPARATOR)
    chapters = [
        Chapter(n, u.title, u.first, (firsts[n] - 1 if n < len(units) else len(cleaned) - 1), label, u.part, u.volume)
        for n, (u, label) in enumerate(zip(units, labels(units)), start=1)
    ]
    split = sum(len(pieces) > 1 for pieces in parts)
    return Narrative(
        title=title,
        paragraphs=paragraphs,
        chapters=chapters,
        source=source,
        split_paragraphs=split,
        encoding_warning=surrogates,
    )


# --- file loaders ------------------------------------------------------------------------------


def from_text(text: str, *, title: str, source: str = "", gutenberg: bool = True) -> Narrative:
    """Plain text: paragraphs are separated by blank lines. A text without blank lines between its
    paragraphs is split at its line breaks instead, Chinese and Japanese text at every line break
    unless it is hard-wrapped (``clueweaver.books.text_paragraphs``). A Project Gutenberg text loses
    its licence (``strip_gutenberg``), an Aozora Bunko text its markup and gives its headings
    (``clueweaver.books.aozora``)."""
    headings = parts = frozenset()
    if is_aozora(text):
        text, headings, parts = strip_aozora(text)
    text = strip_gutenberg(text) if gutenberg else text
    return from_paragraphs(
        text_paragraphs(text),
        title=title,
        source=source,
        max_paragraph_chars=MAX_PARAGRAPH_CHARS,
        headings=headings,
        part_headings=parts,
        story_titles=frozenset() if headings else piece_titles(text),
    )


def from_markdown(text: str, *, title: str, source: str = "") -> Narrative:
    """Markdown: ``#`` headings start chapters (``from_paragraphs``' marked headings); emphasis
    markers are dropped from the text."""
    texts, marks = [], []
    for block in blocks(text):
        heading = re.match(r"^\s*#{1,6}\s+(.*)$", block)
        marks.append(bool(heading) and "\n" not in block.strip())
        texts.append(heading.group(1).strip() if marks[-1] else re.sub(r"(\*\*|__|\*|_)(\S.*?\S|\S)\1", r"\2", block))
    return from_paragraphs(
        texts,
        title=title,
        source=source,
        marked_headings=marks if any(marks) else None,
        max_paragraph_chars=MAX_PARAGRAPH_CHARS,
    )


def from_jsonl(path: str | Path) -> Narrative:
    """One paragraph per line: ``{"text": ...}`` with optional ``paragraph`` (or ``id``) and ``chapter``.

    Given IDs must be 0, 1, 2, ... in file order, because gold evidence labels refer to them; so a
    file that gives them keeps every paragraph whole, and one that does not has its long paragraphs
    cut like any other book's (``MAX_PARAGRAPH_CHARS``).
    """
    path = str(path)
    texts, chapter_titles, numbered = [], [], False
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise NarrativeError(f"{path}, line {line_no}: not valid JSON ({exc.msg})") from exc
            if not isinstance(row, dict) or not isinstance(row.get("text"), str):
                raise NarrativeError(f"{path}, line {line_no}: expected an object with a string 'text'")
            given = row.get("paragraph", row.get("id"))
            if given is not None and given != len(texts):
                raise NarrativeError(
                    f"{path}, line {line_no}: paragraph id {given!r} breaks the sequence 0, 1, 2, ... "
                    f"(expected {len(texts)})"
                )
            if not row["text"].strip():
                raise NarrativeError(f"{path}, line {line_no}: empty paragraph text")
            numbered = numbered or given is not None
            texts.append(row["text"])
            chapter = row.get("chapter")
            chapter_titles.append(None if chapter is None else str(chapter))
    if not texts:
        raise NarrativeError(f"{path}: no paragraphs")
    use_titles = any(c is not None for c in chapter_titles)
    return from_paragraphs(
        texts,
        title=Path(path).stem,
        source=path,
        chapter_titles=chapter_titles if use_titles else None,
        detect_headings=not use_titles,
        max_paragraph_chars=None if numbered else MAX_PARAGRAPH_CHARS,
    )


def _from_html_documents(documents, *, title: str, source: str, what: str) -> Narrative:
    """The documents' paragraphs in order (``html_paragraphs``)."""
    paragraphs = [html_paragraphs(markup) for markup in documents]
    return _from_document_paragraphs(paragraphs, title=title, source=source, what=what)


def _from_document_paragraphs(
    documents: list[list[tuple[str, int]]], *, title: str, source: str, what: str
) -> Narrative:
    """Documents' leveled paragraphs in order, Project Gutenberg's licence left out."""
    paragraphs = [(text, level) for document in documents for text, level in document if not is_licence_boundary(text)]
    return _from_leveled_paragraphs(paragraphs, title=title, source=source, what=what)


def _from_leveled_paragraphs(
    paragraphs: list[tuple[str, int]],
    *,
    title: str,
    source: str,
    what: str,
    parts: frozenset[str] = frozenset(),
    body_only: bool = False,
) -> Narrative:
    """Paragraphs with the heading level their file marks (0 for prose): a heading starts a chapter
    (``from_paragraphs``' marked headings): levels 1-3, and deeper ones down to the deepest that
    numbers a chapter (an Aozora Bunko EPUB's "<h4>一</h4>" under its title's h1), not a chapter's
    subsections. ``parts``: headings the file marks as parts (a FictionBook's sections of sections);
    ``body_only`` as ``from_paragraphs`` takes it.
    A file that marks one heading at most (its title in an <h1>) while its text heads chapters of its
    own ("<p>CHAPTER I</p>", twice or more) has its chapter headings read from its text instead."""
    if not paragraphs:
        raise NarrativeError(f"{source or title}: the {what} has no text paragraphs")
    texts, levels = map(list, zip(*paragraphs))
    deepest = max([3, *(level for level, text in zip(levels, texts) if level and is_heading(text))])
    marks = [0 < level <= deepest for level in levels]
    unmarked_headings = sum(not mark and is_heading(text) for mark, text in zip(marks, texts))
    read_from_text = not any(marks) or (sum(marks) <= 1 and unmarked_headings >= 2)
    return from_paragraphs(
        texts,
        title=title,
        source=source,
        marked_headings=None if read_from_text else marks,
        max_paragraph_chars=MAX_PARAGRAPH_CHARS,
        part_headings=parts,
        body_only=body_only,
    )


def from_html(html: str, *, title: str, source: str = "") -> Narrative:
    """One HTML document (a QuALITY article, a Project Gutenberg HTML edition, an Aozora Bunko XHTML
    file): block elements and loose lines are paragraphs (``html_paragraphs``); a lone line break
    inside a paragraph becomes a space so ``Belgian<br/>politics`` keeps its two words, and two end it."""
    return _from_html_documents([html], title=title, source=source, what="HTML document")


def from_epub(path: str | Path) -> Narrative:
    """EPUB: spine documents in reading order (``read_epub``); each block element is a paragraph and a
    heading, marked or named by the navigation, starts a chapter. Gutenberg's licence sections are dropped."""
    title, documents = read_epub(str(path))
    return _from_document_paragraphs(documents, title=title, source=str(path), what="EPUB")


def from_fictionbook(data: bytes, *, name: str, source: str, encoding: str | None = None) -> Narrative:
    """FictionBook 2 (``name``: its file name): its sections' titles are the headings, at their
    nesting depth, and a section of sections is a part; its notes follow the book as endnotes
    (``clueweaver.books.fictionbook``)."""
    return _from_marked_xml(read_fictionbook, data, name=name, source=source, encoding=encoding, what="FictionBook")


def from_tei(data: bytes, *, name: str, source: str, encoding: str | None = None) -> Narrative:
    """A TEI text (``name``: its file name; a scholarly edition, an ELTeC novel): its divs' heads are
    the headings, at their nesting depth, and a div of headed divs is a part; its notes follow the
    book as endnotes (``clueweaver.books.tei``)."""
    return _from_marked_xml(read_tei, data, name=name, source=source, encoding=encoding, what="TEI text")


def _from_marked_xml(read, data: bytes, *, name: str, source: str, encoding: str | None, what: str) -> Narrative:
    """A FictionBook's or TEI text's paragraphs (``read`` gives its ``MarkedBook``) at the heading levels
    its XML marks, read in the encoding it declares, or in ``encoding`` (a wrong declaration)."""
    book: MarkedBook = read(decode_text(data, source, encoding)[0] if encoding else data, source)
    title = book.title or Path(name).stem
    narrative = _from_leveled_paragraphs(
        book.paragraphs, title=title, source=source, what=what, parts=book.parts, body_only=True
    )
    if not narrative.chapters and book.divisions:  # no headings, and chapters marked without them
        narrative = from_paragraphs(
            [text for text, _level in book.paragraphs],
            title=title,
            source=source,
            chapter_titles=book.division_titles(),
            max_paragraph_chars=MAX_PARAGRAPH_CHARS,
        )
    narrative.encoding = encoding
    return narrative


def _from_file_bytes(data: bytes, *, name: str, source: str, encoding: str | None) -> Narrative:
    """A text, Markdown, HTML, FictionBook, TEI or PDF file's bytes; ``name`` (the file's) says which, and is
    the title when the book names none."""
    suffix = book_suffix(name)
    if suffix == PDF_SUFFIX:
        found_title, text = read_pdf(data, source, encoding=encoding)
        return from_text(text, title=found_title or Path(name).stem, source=source)
    if suffix == ".fb2":
        return from_fictionbook(data, name=name, source=source, encoding=encoding)
    if suffix in TEI_SUFFIXES:
        return from_tei(data, name=name, source=source, encoding=encoding)
    text, narrative_encoding, detected, warning = decode_text(data, source, encoding)
    if suffix in (".md", ".markdown"):
        loader, found_title = from_markdown, markdown_title(text)
    elif suffix in HTML_SUFFIXES:
        loader, found_title = from_html, html_title(text)
    else:
        loader, found_title = from_text, text_title(text)
    narrative = loader(text, title=found_title or Path(name).stem, source=source)
    narrative.encoding, narrative.encoding_detected = narrative_encoding, detected
    narrative.encoding_warning = warning
    return narrative


def load_narrative(path: str | Path, *, encoding: str | None = None, title: str | None = None) -> Narrative:
    """Load a book from .txt, .md, .html, .epub, .fb2, TEI .xml, .docx, .odt, .pdf or .jsonl, or a .zip holding one (an
    EPUB under another name too) or one gzip-compressed (``clueweaver.books.archives``); every failure
    is a NarrativeError naming the file.

    The title: ``title`` when given, else the book's own (a Gutenberg header's ``Title:`` line, a first line of
    only a name in book-title marks ("《红楼梦》"), a Markdown file's front matter or only level-1 heading, an HTML
    file's <title>, an EPUB's metadata, a FictionBook's <book-title>, a TEI's or a PDF's), else the file's name."""
    path = Path(path)
    if not path.exists():
        raise NarrativeError(f"{path}: no such file")
    if path.is_dir():
        raise NarrativeError(f"{path}: is a directory, not a book file")
    suffix = book_suffix(path.name)
    if suffix not in SUPPORTED_SUFFIXES:
        raise NarrativeError(
            f"{path}: unsupported file type {suffix or '(none)'}; use one of {', '.join(SUPPORTED_SUFFIXES)}"
        )
    if path.stat().st_size == 0:
        raise NarrativeError(f"{path}: the file is empty")
    is_epub = suffix == ".epub" or (suffix == ZIP_SUFFIX and is_epub_zip(path))
    own_encoding = _OWN_ENCODING.get(".epub" if is_epub else suffix)
    if encoding and own_encoding:  # said, not ignored
        applies = "applies to text, Markdown, HTML, FictionBook and TEI files"
        raise NarrativeError(f"{path}: an encoding ({encoding}) {applies}; {own_encoding}")
    if is_epub:
        narrative = from_epub(path)
    elif suffix in OFFICE_READERS:
        read, what = OFFICE_READERS[suffix]
        narrative = _from_marked_xml(
            read, path.read_bytes(), name=path.name, source=str(path), encoding=None, what=what
        )
    elif suffix == ".jsonl":
        strict_utf8(path)
        narrative = from_jsonl(path)
    elif suffix == ZIP_SUFFIX:
        member = unpack_zip(path, PACKABLE_SUFFIXES)
        stored = Path(member.name).name  # its suffix is right whatever encoding the zip stored it in
        narrative = _from_file_bytes(member.data, name=stored, source=f"{path} ({stored})", encoding=encoding)
        if narrative.title == Path(stored).stem:  # the book names no title: its file's name, read right
            narrative.title = Path(member.names(narrative.encoding)[0]).stem
        narrative.source, narrative.archive_note = str(path), member.note(path.name, narrative.encoding)
    elif suffix.endswith(GZIP_SUFFIX):
        narrative = _from_file_bytes(
            gunzip(path), name=path.name[: -len(GZIP_SUFFIX)], source=str(path), encoding=encoding
        )
    else:
        narrative = _from_file_bytes(path.read_bytes(), name=path.name, source=str(path), encoding=encoding)
    if title:
        narrative.title = title
    return narrative


def reading_limit(narrative: Narrative, max_chapter: int | None, max_paragraph: int | None) -> int:
    """The last paragraph ID a reader may see (chapters up to ``max_chapter``, IDs up to ``max_paragraph``)."""
    last = narrative.last_paragraph_of_chapter(max_chapter)
    if max_paragraph is not None:
        if max_paragraph < 0:
            raise NarrativeError(f"{narrative.title}: paragraph limit {max_paragraph} leaves nothing to read")
        last = min(last, max_paragraph)
    if last < 0:
        raise NarrativeError(f"{narrative.title}: the reading limit leaves nothing to read")
    return last
