"""TEI (the Text Encoding Initiative's XML): the format of scholarly editions and of the corpora
literary scholars read, ELTeC's novels in a dozen European languages among them, as a book's
paragraphs for the loader (``clueweaver.books.narrative``).

A TEI text marks its structure: ``<div>``s nest (a part holds its chapters) and each may open with a
``<head>``, so a heading's depth comes from the file, as a FictionBook's does. ``<p>``, ``<ab>``, a verse
``<l>`` (consecutive ones, or an ``<lg>``, make one paragraph, as a stanza, across a page break),
``<label>`` and ``<trailer>`` are paragraphs, and so are words set between them outside any (a draft's
loose lines, an epigraph's source); ``<front>`` (a title page, a preface) stays before the first chapter
and ``<back>`` follows the book. An annotated edition's ``<w>`` tokens are spaced as words. Editorial
``<note>``s inside a paragraph are taken out of it and follow the book as endnotes, so that no sentence
is cut by one; page breaks, milestones and gaps are no text, and a word the printer broke at a line's
end is one word (the Deutsches Textarchiv's "Wil¬<lb/>helm"); of an edition's ``<choice>``, its
correction, regularization or expansion is read.
The title is the header's ``<titleStmt><title>``, without the "ELTeC edition" its corpus adds.

Some editions mark a chapter's division and leave out its ``<head>``: a ``<div>`` whose first
paragraph reads as a chapter's heading ("<p>Chapter II ~ Now Shall Be Told…</p>", as ELTeC's The
Water of the Wondrous Isles sets all but its first) has that paragraph as its heading; where the
divisions have no heading at all (ELTeC's Con gli occhi chiusi, the Sonatas of Valle-Inclán), they
are the chapters of a book whose headings give none (``MarkedBook.divisions``).
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator

from clueweaver.books.chapters import MAX_HEADING_CHARS, is_heading, is_worded_heading, names_its_unit
from clueweaver.books.errors import NarrativeError
from clueweaver.books.marked import MarkedBook, local_name, parse_xml
from clueweaver.books.text_paragraphs import join_lines

_PARAGRAPH_TAGS = frozenset(
    {"p", "ab", "label", "trailer", "byline", "dateline", "salute", "signed", "closer", "opener"}
)  # "ab": an anonymous block, the paragraph of token-annotated editions (CLiGS's textbox)
_TOKEN_TAGS = frozenset({"w", "pc"})  # an annotated text's words and punctuation, often with no space between
_OPENING, _CLOSING = ("Ps", "Pi"), ("Pe", "Pf", "Po")  # Unicode's categories of "(" "«" and of ")" "»" "." ","
_VERSE_TAGS = frozenset({"l", "lg"})
_SECTIONS = ("front", "body", "back")  # a <text>'s: front and back matter hold no chapters
_SILENT_TAGS = frozenset({"pb", "lb", "cb", "milestone", "gap", "figure", "fw", "note"})
# "Marie-Claire : édition ELTeC", "Effi Briest: ELTeC-Ausgabe", "Middlemarch : ELTeC edition"
_CORPUS_EDITION = re.compile(r"\s*[:：]\s*[^:：]*\bELTeC\b[^:：]*$", re.IGNORECASE)


_BREAK = "\x00"  # where a line or page break stood, until the words around it are joined or parted
# The Deutsches Textarchiv's word-break hyphen ("Wil¬<lb/>helm"; ELTeC keeps some as "has¬ teada"): one word
_BROKEN_WORD = re.compile(rf"¬\s*(?:{_BREAK}\s*)*")
# An edition's alternatives: the corrected, regularized or expanded reading, not the print's error or
# abbreviation (DTA's <choice><sic>…</sic><corr>…</corr></choice>, <abbr>/<expan>, <orig>/<reg>)
_READINGS = ("corr", "reg", "expan")


def _text(element: ElementTree.Element, notes: list[str]) -> str:
    """An element's words with its notes taken out (appended to ``notes``), whitespace collapsed; a
    line or page break between words parts them, unless a word-break hyphen joins them; of a
    ``<choice>``, the edition's reading (``_READINGS``)."""
    pieces = [element.text or ""]
    for child in element:
        tag = local_name(child)
        if tag == "note":
            notes.append(_text(child, notes))
        elif tag == "choice":
            pieces.append(_text(_reading(child), notes) if len(child) else "")
        else:
            text = _BREAK if tag in _SILENT_TAGS else _text(child, notes)
            pieces.append(" " if tag in _TOKEN_TAGS and _spaced_before(pieces, text) else "")
            pieces.append(text)
        pieces.append(child.tail or "")
    return " ".join(_BROKEN_WORD.sub("", "".join(pieces)).replace(_BREAK, " ").split())


def _spaced_before(pieces: list[str], token: str) -> bool:
    """Whether a space goes before an annotated ``token`` (``_TOKEN_TAGS``) set right after ``pieces``:
    unless the text before it ends in a space or an opening mark, or the token is closing punctuation."""
    before = next((piece for piece in reversed(pieces) if piece), "")
    if not before or not token or before[-1].isspace():
        return False
    return unicodedata.category(before[-1]) not in _OPENING and unicodedata.category(token[0]) not in _CLOSING


def _reading(choice: ElementTree.Element) -> ElementTree.Element:
    """The alternative of a ``<choice>`` to read: the edition's reading, else the first."""
    return next((child for tag in _READINGS for child in choice if local_name(child) == tag), choice[0])


_DIVISION = -1  # the level ``_blocks`` gives a headless division's opening, its title as the text


def _head(div: ElementTree.Element) -> ElementTree.Element | None:
    return next((child for child in div if local_name(child) == "head"), None)


def _holds_headed_divs(div: ElementTree.Element) -> bool:
    return any(local_name(child) == "div" and _head(child) is not None for child in div)


def _holds_divs(div: ElementTree.Element) -> bool:
    return any(local_name(child) == "div" for child in div)


def _heading_paragraph(div: ElementTree.Element) -> ElementTree.Element | None:
    """A headless division's first paragraph when it reads as a chapter's heading ("Chapter II ~ …",
    or one with a long name, ``names_its_unit``) and the next does not (a contents list's entries,
    "Capitolo I. …", "Capitolo II. …", do)."""
    first, second = [*(child for child in div if local_name(child) not in _SILENT_TAGS), None, None][:2]
    if first is None or local_name(first) != "p":
        return None
    text = _text(first, [])
    if not (is_worded_heading(text) or len(text) <= MAX_HEADING_CHARS and names_its_unit(text)):
        return None
    return None if second is not None and is_heading(_text(second, [])) else first


def _headless_divisions(body: ElementTree.Element) -> dict[int, str]:
    """The body's divisions without a heading that hold no division and are held by one that holds
    divisions alone (a novel's chapters, not a letter quoted between a chapter's paragraphs), by
    ``id``, each titled by its type and number in reading order ("Chapter 3"), or its number."""
    found = set()
    for parent in body.iter():
        children = [child for child in parent if local_name(child) not in _SILENT_TAGS and local_name(child) != "head"]
        if children and all(local_name(child) == "div" for child in children):
            found |= {id(child) for child in children if _head(child) is None and not _holds_divs(child)}
    divisions = [div for div in body.iter() if id(div) in found and _heading_paragraph(div) is None]  # reading order
    return {id(div): f"{div.get('type', '').capitalize()} {k}".strip() for k, div in enumerate(divisions, start=1)}


def _blocks(
    element: ElementTree.Element,
    depth: int | None,
    parts: set[str],
    notes: list[str],
    divisions: dict[int, str],
    heading: ElementTree.Element | None = None,
) -> Iterator[tuple[str, int]]:
    """The paragraphs of ``element``'s children: a ``<head>`` (or ``heading``, the paragraph that
    heads a headless division) is a heading at ``depth`` (the number of ``<div>``s around it; None
    in front and back matter, whose heads are no chapters), consecutive verse lines make one
    paragraph, and one of ``divisions`` opens with its title at level ``_DIVISION``."""
    verse: list[str] = []
    loose = [element.text or ""]
    for child in element:
        tag = local_name(child)
        if tag in _SILENT_TAGS:
            if tag == "note":  # a note between paragraphs, or in a notes div: with the endnotes
                notes.append(_text(child, notes))
            loose.append(child.tail or "")
            continue
        if verse and _loose_text(loose):
            yield join_lines(verse), 0
            verse = []
        yield from _loose_paragraph(loose)
        loose.append(child.tail or "")
        if tag in _VERSE_TAGS:
            lines = child.iter() if tag == "lg" else [child]
            verse += [text for line in lines if local_name(line) == "l" and (text := _text(line, notes))]
            continue
        if verse:
            yield join_lines(verse), 0
            verse = []
        if tag == "div" or (tag in _PARAGRAPH_TAGS and any(local_name(c) in ("head", "p") for c in child)):
            # a paragraph that holds a heading or paragraphs, which TEI does not allow, is a division that lost
            # its tag (ELTeC-rus level 0's <p type="chapter"><head>, or a <p> left open around a chapter), not
            # one paragraph of a whole chapter
            inner = None if depth is None else depth + 1
            head = _head(child)
            if inner is not None and head is not None and _holds_headed_divs(child):
                parts.add(_text(head, []))
            if id(child) in divisions:
                yield divisions[id(child)], _DIVISION
            lead = _heading_paragraph(child) if inner is not None and head is None else None
            yield from _blocks(child, inner, parts, notes, divisions, lead)
        elif tag == "head" or child is heading:
            yield _text(child, notes), depth or 0
        elif tag in _PARAGRAPH_TAGS:
            yield _text(child, notes), 0
        else:  # a quotation, a letter's body, a list: what it holds
            yield from _blocks(child, depth, parts, notes, divisions)
    if verse and _loose_text(loose):
        yield join_lines(verse), 0
        verse = []
    yield from _loose_paragraph(loose)
    if verse:
        yield join_lines(verse), 0


def _loose_text(pieces: list[str]) -> str:
    """The words of text found outside any paragraph (``_loose_paragraph``), whitespace collapsed."""
    return " ".join(" ".join(pieces).split())


def _loose_paragraph(pieces: list[str]) -> Iterator[tuple[str, int]]:
    """Text left between a division's or a quotation's elements, outside any paragraph (ELTeC's level-0 drafts:
    "<head>1.</head> Я ехал на перекладных из Тифлиса. <p>…"; an epigraph's "—" before its source), as a
    paragraph of its own unless it is punctuation alone; ``pieces`` is emptied."""
    text = _loose_text(pieces)
    pieces.clear()
    if any(character.isalnum() for character in text):
        yield text, 0


def read_tei(data: bytes | str, source: str) -> MarkedBook:
    """A TEI file's title and paragraphs; an error names the file when it is not a TEI text."""
    root = parse_xml(data, source, "TEI file")
    if local_name(root) == "teiCorpus":
        raise NarrativeError(f"{source}: a teiCorpus holds several texts; give the TEI file of one")
    if local_name(root) != "TEI":
        raise NarrativeError(f"{source}: the root element is <{local_name(root)}>, not a TEI text's <TEI>")
    text = next((child for child in root if local_name(child) == "text"), None)
    if text is None:
        body = next((e for e in root.iter() if local_name(e) == "body"), None)
        if body is None:
            raise NarrativeError(f"{source}: the TEI file has no <text> or <body>")
    sections = _sections(text) if text is not None else [body]
    parts: set[str] = set()
    notes: list[str] = []
    paragraphs: list[tuple[str, int]] = []
    divisions: dict[int, str] = {}  # paragraph: title of the headless division opening there
    for section in sections:
        matter = local_name(section) in ("front", "back")
        headless = {} if matter else _headless_divisions(section)
        for text, level in _blocks(section, None if matter else 0, parts, notes, headless):
            if level == _DIVISION:
                divisions[len(paragraphs)] = text
            elif text:
                paragraphs.append((text, level))
    opened = tuple((first, title) for first, title in divisions.items() if first < len(paragraphs))  # not empty
    paragraphs += [(note, 0) for note in notes]
    return MarkedBook(_title(root), paragraphs, frozenset(parts), opened if len(opened) >= 2 else ())


def _sections(text: ElementTree.Element) -> list[ElementTree.Element]:
    """A ``<text>``'s front, body and back. A draft that skips ``<body>`` (ELTeC's level-0 files, one with a
    ``<front>`` before its chapters' divisions) has what else its ``<text>`` holds for a body."""
    children = list(text)
    if any(local_name(child) == "body" for child in children):
        return [child for child in children if local_name(child) in _SECTIONS]
    if not any(local_name(child) in _SECTIONS for child in children):
        return [text]
    body = ElementTree.Element("body")
    body.extend(child for child in children if local_name(child) not in _SECTIONS)
    front, back = ([c for c in children if local_name(c) == name] for name in ("front", "back"))
    return [*front, body, *back]


def _title(root: ElementTree.Element) -> str | None:
    """The header's first ``<titleStmt><title>``, without a corpus's edition label."""
    for element in root.iter():
        if local_name(element) == "titleStmt":
            title = next((" ".join("".join(c.itertext()).split()) for c in element if local_name(c) == "title"), "")
            return _CORPUS_EDITION.sub("", title) or None
    return None
