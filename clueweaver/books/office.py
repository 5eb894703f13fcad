"""Word (.docx) and OpenDocument (.odt) documents as a book's marked paragraphs for the loader
(``clueweaver.books.narrative``): the form archives' transcriptions, case files and manuscripts
typed by researchers take.

Both are zip archives of XML. A Word paragraph is a heading when its style (or the paragraph itself)
sets an outline level, as Word's built-in "heading 1-9" styles do in every language Word is set to
(their style IDs are localized: German Word's "Überschrift 1" is "berschrift1", its name stays
"heading 1"); an OpenDocument heading is a ``<text:h>`` with its outline level. Only the text a
reader sees is read: a Word file's deleted or moved-away revisions, field codes and the fallback
copies of drawings are not (a text box is read once, where it stands); footnotes and endnotes follow
the text, as a TEI edition's notes do.
The title is the document's properties' title, else its first paragraph in Word's "Title" style, else
the file's name.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
import zipfile
from collections.abc import Iterator
from io import BytesIO
from typing import NamedTuple

from clueweaver.books.archives import DAMAGED_ZIP, MAX_UNPACKED_BYTES
from clueweaver.books.errors import NarrativeError
from clueweaver.books.marked import MarkedBook, local_name, parse_xml

_WORD = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_ODF_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"
# What a Word file holds beside the text a reader sees: deleted and moved-away revisions, the fallback
# copy of a drawing (its text box is read once, from the drawing), a note's reference mark.
_WORD_UNSEEN = frozenset(
    {"del", "moveFrom", "Fallback", "delText", "instrText", "footnoteReference", "endnoteReference"}
)
_WORD_SEPARATORS = frozenset({"separator", "continuationSeparator", "continuationNotice"})  # notes' rules, no text
_ODF_UNSEEN = frozenset({"note", "tracked-changes", "bookmark-ref", "soft-page-break"})


def read_docx(data: bytes, source: str) -> MarkedBook:
    """A Word document's title and paragraphs, headings at the outline levels their styles set; the table
    of contents Word generates (its "toc" styles) is left out: it repeats the headings, page numbers added."""
    parts = _unzipped(data, source, "word/document.xml", "Word document (.docx)")
    styles = _styles(parts.get("word/styles.xml"), source)
    body = _body(_xml(parts["word/document.xml"], source, "Word document"), "body", source)
    read = [(p, text) for p in _word_paragraphs(body) if _style(p) not in styles.contents and (text := _word_text(p))]
    paragraphs = [(text, _word_level(p, styles.levels)) for p, text in read]
    for notes in ("word/footnotes.xml", "word/endnotes.xml"):
        if notes in parts:
            paragraphs += [(text, 0) for text in _word_notes(_xml(parts[notes], source, "Word document"))]
    styled_title = next((text for p, text in read if _style(p) in styles.titles), None)
    return MarkedBook(_core_title(parts.get("docProps/core.xml"), source) or styled_title, paragraphs, frozenset())


def read_odt(data: bytes, source: str) -> MarkedBook:
    """An OpenDocument text's title and paragraphs, ``<text:h>`` headings at their outline levels."""
    parts = _unzipped(data, source, "content.xml", "OpenDocument text (.odt)")
    body = _body(_xml(parts["content.xml"], source, "OpenDocument text"), "text", source)
    notes: list[str] = []
    paragraphs = [(text, level) for text, level in _odf_blocks(body, notes) if text]
    paragraphs += [(note, 0) for note in notes if note]
    return MarkedBook(_core_title(parts.get("meta.xml"), source), paragraphs, frozenset())


def _unzipped(data: bytes, source: str, main: str, what: str) -> dict[str, bytes]:
    """The XML parts of an office document's zip, which must hold ``main``."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if info.filename.endswith(".xml")]
            if sum(info.file_size for info in members) > MAX_UNPACKED_BYTES:
                raise NarrativeError(f"{source}: unpacks to more than {MAX_UNPACKED_BYTES:,} bytes of XML")
            parts = {info.filename: archive.read(info) for info in members}
    except (*DAMAGED_ZIP, RuntimeError) as exc:  # RuntimeError: encrypted, or packed with a method zipfile lacks
        raise NarrativeError(f"{source}: not a readable {what} ({exc})") from exc
    if main not in parts:
        raise NarrativeError(f"{source}: holds no {main}, so it is no {what}")
    return parts


def _body(root: ElementTree.Element, name: str, source: str) -> ElementTree.Element:
    body = next((element for element in root.iter() if local_name(element) == name), None)
    if body is None:
        raise NarrativeError(f"{source}: the document has no <{name}>")
    return body


def _core_title(xml: bytes | None, source: str) -> str | None:
    """The title the document's properties give (docProps/core.xml, meta.xml), if any."""
    if xml is None:
        return None
    title = _xml(xml, source, "document's properties").find(f".//{_DC_TITLE}")
    if title is None:
        return None
    return " ".join("".join(title.itertext()).split()) or None


class _Styles(NamedTuple):
    """What a Word document's paragraph styles say, by style ID: heading levels (1-9), the "Title" style
    (whose first paragraph titles a document its properties do not) and the table of contents' styles."""

    levels: dict[str, int]
    titles: set[str]
    contents: set[str]


def _styles(xml: bytes | None, source: str) -> _Styles:
    """The styles of styles.xml: a heading level from a style's own outline level, else its name's ("heading
    2"); Word's built-in names are English whatever language it is set to ("title", "toc 1")."""
    styles = _Styles({}, set(), set())
    if xml is None:
        return styles
    for style in _xml(xml, source, "Word document's styles").iter(f"{_WORD}style"):
        style_id, level = style.get(f"{_WORD}styleId", ""), _outline_level(style)
        name = style.find(f"{_WORD}name")
        words = (name.get(f"{_WORD}val", "") if name is not None else "").lower().split()
        if level is None and len(words) == 2 and words[0] == "heading" and words[1].isdigit():
            level = int(words[1])
        if level and 1 <= level <= 9:
            styles.levels[style_id] = level
        elif words == ["title"]:
            styles.titles.add(style_id)
        elif words[:1] == ["toc"]:
            styles.contents.add(style_id)
    return styles


def _xml(data: bytes, source: str, what: str) -> ElementTree.Element:
    """An office file's XML part: it declares its own encoding, which no --encoding changes."""
    return parse_xml(data, source, what, encoding_given=False)


def _word_paragraphs(element: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """The ``<w:p>``s of the body, tables' cells and content controls included, in reading order."""
    for child in element:
        tag = local_name(child)
        if tag == "p":
            yield child
        elif tag not in _WORD_UNSEEN:
            yield from _word_paragraphs(child)


def _word_level(paragraph: ElementTree.Element, levels: dict[str, int]) -> int:
    """A Word paragraph's heading level: its own outline level, else its style's; 0 for prose."""
    level = _outline_level(paragraph)
    if level is not None:
        return level if level <= 9 else 0
    return levels.get(_style(paragraph), 0)


def _outline_level(element: ElementTree.Element) -> int | None:
    """The outline level a style or paragraph sets, counted from 1 (Word's 9, body text, is 10); None unset."""
    outline = element.find(f"{_WORD}pPr/{_WORD}outlineLvl")
    value = outline.get(f"{_WORD}val", "") if outline is not None else ""
    return int(value) + 1 if value.isdigit() else None


def _style(paragraph: ElementTree.Element) -> str:
    style = paragraph.find(f"{_WORD}pPr/{_WORD}pStyle")
    return style.get(f"{_WORD}val", "") if style is not None else ""


def _word_text(element: ElementTree.Element) -> str:
    """The text a reader sees in a Word paragraph, whitespace collapsed (``_WORD_UNSEEN`` left out)."""
    return " ".join("".join(_word_pieces(element)).split())


def _word_pieces(element: ElementTree.Element) -> Iterator[str]:
    for child in element:
        tag = local_name(child)
        if tag == "t":
            yield child.text or ""
        elif tag in ("tab", "br", "cr"):
            yield " "
        elif tag not in _WORD_UNSEEN:  # runs, links, insertions; a text box's paragraphs, where it stands
            yield from (" ", *_word_pieces(child), " ") if tag == "p" else _word_pieces(child)


def _word_notes(root: ElementTree.Element) -> Iterator[str]:
    """The footnotes' or endnotes' text, one paragraph a note (Word's separator rules left out)."""
    for note in root:
        if note.get(f"{_WORD}type") not in _WORD_SEPARATORS:
            yield " ".join(_word_text(p) for p in _word_paragraphs(note)).strip()


def _odf_blocks(element: ElementTree.Element, notes: list[str]) -> Iterator[tuple[str, int]]:
    """An OpenDocument body's headings (their outline level) and paragraphs, in lists, tables and
    sections too; notes' text goes to ``notes``."""
    for child in element:
        tag = local_name(child)
        if tag == "h":
            level = child.get(f"{_ODF_TEXT}outline-level", "1")
            yield _odf_text(child, notes), int(level) if level.isdigit() and 1 <= int(level) <= 9 else 1
        elif tag == "p":
            yield _odf_text(child, notes), 0
        elif tag not in _ODF_UNSEEN:
            yield from _odf_blocks(child, notes)


def _odf_text(element: ElementTree.Element, notes: list[str]) -> str:
    """An OpenDocument paragraph's text: spans and links read, ``<text:s>`` and tabs and line breaks as
    spaces, a note's body taken out to ``notes``; whitespace collapsed."""
    return " ".join("".join(_odf_pieces(element, notes)).split())


def _odf_pieces(element: ElementTree.Element, notes: list[str]) -> Iterator[str]:
    yield element.text or ""
    for child in element:
        tag = local_name(child)
        if tag == "note":
            body = next((part for part in child if local_name(part) == "note-body"), None)
            if body is not None:
                notes.append(" ".join(text for text, _level in _odf_blocks(body, notes)))
        elif tag in ("s", "tab", "line-break"):
            yield " "
        elif tag not in _ODF_UNSEEN:  # spans, links; a frame's text box, its paragraphs where it stands
            yield from (" ", *_odf_pieces(child, notes), " ") if tag in ("p", "h") else _odf_pieces(child, notes)
        yield child.tail or ""
