"""TEI (the Text Encoding Initiative's XML): the format of scholarly editions and of the corpora
literary scholars read, ELTeC's novels in a dozen European languages among them, as a book's
paragraphs for the loader (``clueweaver.books.narrative``).

A TEI text marks its structure: ``<div>``s nest (a part holds its chapters) and each may open with a
``<head>``, so a heading's depth comes from the file, as a FictionBook's does. ``<p>``, a verse
``<l>`` (consecutive ones, or an ``<lg>``, make one paragraph, as a stanza), ``<label>`` and
``<trailer>`` are paragraphs; ``<front>`` (a title page, a preface) stays before the first chapter
and ``<back>`` follows the book. Editorial ``<note>``s inside a paragraph are taken out of it and
follow the book as endnotes, so that no sentence is cut by one; page breaks, milestones and gaps are
no text. The title is the header's ``<titleStmt><title>``, without the "ELTeC edition" its corpus adds.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator

from clueweaver.books.errors import NarrativeError
from clueweaver.books.marked import MarkedBook, local_name, parse_xml
from clueweaver.books.text_paragraphs import join_lines

_PARAGRAPH_TAGS = frozenset({"p", "label", "trailer", "byline", "dateline", "salute", "signed", "closer", "opener"})
_VERSE_TAGS = frozenset({"l", "lg"})
_SECTIONS = ("front", "body", "back")  # a <text>'s: front and back matter hold no chapters
_SILENT_TAGS = frozenset({"pb", "lb", "cb", "milestone", "gap", "figure", "fw", "note"})
# "Marie-Claire : édition ELTeC", "Effi Briest: ELTeC-Ausgabe", "Middlemarch : ELTeC edition"
_CORPUS_EDITION = re.compile(r"\s*[:：]\s*[^:：]*\bELTeC\b[^:：]*$", re.IGNORECASE)


def _text(element: ElementTree.Element, notes: list[str]) -> str:
    """An element's words with its notes taken out (appended to ``notes``), whitespace collapsed; a
    line or page break between words parts them."""
    pieces = [element.text or ""]
    for child in element:
        if local_name(child) == "note":
            notes.append(_text(child, notes))
        else:
            pieces.append(" " if local_name(child) in _SILENT_TAGS else _text(child, notes))
        pieces.append(child.tail or "")
    return " ".join("".join(pieces).split())


def _holds_headed_divs(div: ElementTree.Element) -> bool:
    return any(local_name(child) == "div" and any(local_name(c) == "head" for c in child) for child in div)


def _blocks(
    element: ElementTree.Element, depth: int | None, parts: set[str], notes: list[str]
) -> Iterator[tuple[str, int]]:
    """The paragraphs of ``element``'s children: a ``<head>`` is a heading at ``depth`` (the number of
    ``<div>``s around it; None in front and back matter, whose heads are no chapters), and
    consecutive verse lines make one paragraph."""
    verse: list[str] = []
    for child in element:
        tag = local_name(child)
        if tag in _VERSE_TAGS:
            lines = child.iter() if tag == "lg" else [child]
            verse += [text for line in lines if local_name(line) == "l" and (text := _text(line, notes))]
            continue
        if verse:
            yield join_lines(verse), 0
            verse = []
        if tag == "div":
            inner = None if depth is None else depth + 1
            head = next((c for c in child if local_name(c) == "head"), None)
            if inner is not None and head is not None and _holds_headed_divs(child):
                parts.add(_text(head, []))
            yield from _blocks(child, inner, parts, notes)
        elif tag == "head":
            yield _text(child, notes), depth or 0
        elif tag == "note":  # a note between paragraphs, or in a notes div: with the endnotes
            notes.append(_text(child, notes))
        elif tag in _PARAGRAPH_TAGS:
            yield _text(child, notes), 0
        elif tag not in _SILENT_TAGS:  # a quotation, a letter's body, a list: what it holds
            yield from _blocks(child, depth, parts, notes)
    if verse:
        yield join_lines(verse), 0


def read_tei(data: bytes | str, source: str) -> MarkedBook:
    """A TEI file's title and paragraphs; an error names the file when it is not a TEI text."""
    root = parse_xml(data, source, "TEI file")
    if local_name(root) == "teiCorpus":
        raise NarrativeError(f"{source}: a teiCorpus holds several texts; give the TEI file of one")
    if local_name(root) != "TEI":
        raise NarrativeError(f"{source}: the root element is <{local_name(root)}>, not a TEI text's <TEI>")
    text = next((child for child in root if local_name(child) == "text"), None)
    sections = [child for child in text if local_name(child) in _SECTIONS] if text is not None else []
    if not sections:  # a draft that skips <body> (ELTeC's level-0 files): what it has is the body
        body = text if text is not None else next((e for e in root.iter() if local_name(e) == "body"), None)
        if body is None:
            raise NarrativeError(f"{source}: the TEI file has no <text> or <body>")
        sections = [body]
    parts: set[str] = set()
    notes: list[str] = []
    paragraphs: list[tuple[str, int]] = []
    for section in sections:
        paragraphs += _blocks(section, None if local_name(section) in ("front", "back") else 0, parts, notes)
    paragraphs += [(note, 0) for note in notes]
    return MarkedBook(_title(root), [(t, level) for t, level in paragraphs if t], frozenset(parts))


def _title(root: ElementTree.Element) -> str | None:
    """The header's first ``<titleStmt><title>``, without a corpus's edition label."""
    for element in root.iter():
        if local_name(element) == "titleStmt":
            title = next((" ".join("".join(c.itertext()).split()) for c in element if local_name(c) == "title"), "")
            return _CORPUS_EDITION.sub("", title) or None
    return None
