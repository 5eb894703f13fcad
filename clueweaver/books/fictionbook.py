"""FictionBook 2 (.fb2): the XML e-book format of Russian, Ukrainian and other Eastern European
libraries, as a book's paragraphs for the loader (``clueweaver.books.narrative``; a .fb2.zip, as the
libraries serve it, is unpacked by ``clueweaver.books.archives``).

A FictionBook marks what a plain text leaves to guessing: its <section>s nest (a part holds its
chapters) and each opens with a <title>, so a heading's depth comes from the file, as an HTML
heading's level does. Its notes are a <body name="notes"> of numbered sections after the book;
they are kept as paragraphs after it, each opening with its number, the way a printed edition sets
endnotes, and never as chapters. The XML declaration names the encoding (often windows-1251), and
the XML parser honours it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator

from clueweaver.books.chapters import is_worded_heading
from clueweaver.books.errors import NarrativeError
from clueweaver.books.marked import MarkedBook, local_name, parse_xml
from clueweaver.books.text_paragraphs import join_lines

# Elements whose text is one paragraph (any other holds paragraphs); a <subtitle> inside a chapter
# ("* * *", a stanza's number) is a paragraph of it, not a chapter of its own, unless it names one
# (``is_worded_heading``).
_PARAGRAPH_TAGS = frozenset({"p", "subtitle", "text-author", "date", "v"})
_UNREAD_TAGS = frozenset({"image", "empty-line", "binary"})


def _text(element: ElementTree.Element) -> str:
    """An element's text with its inline markup (emphasis, strong, a note reference) read through,
    whitespace collapsed."""
    return " ".join("".join(element.itertext()).split())


def _child(element: ElementTree.Element, name: str) -> ElementTree.Element | None:
    return next((child for child in element if local_name(child) == name), None)


def _title(element: ElementTree.Element) -> str:
    """A <title>'s lines ("Глава первая", "Встреча") as one heading line."""
    lines = _lines(element, "p")
    return join_lines(lines) if lines else _text(element)


def _lines(element: ElementTree.Element, name: str) -> list[str]:
    """The non-empty texts of an element's ``name`` children (a title's <p>s, a stanza's <v>s)."""
    return [line for line in (_text(child) for child in element if local_name(child) == name) if line]


def _paragraphs_of(element: ElementTree.Element) -> Iterator[str]:
    """One element's prose paragraphs: a <p>-like element is one, a stanza's lines one, a table's
    row one; a title inside the text (a poem's, a cited letter's) is prose here; a poem, a cite, an
    epigraph or a table gives the paragraphs of its children."""
    name = local_name(element)
    if name in _UNREAD_TAGS:
        return
    if name in _PARAGRAPH_TAGS:
        text = _text(element)
    elif name == "stanza":
        lines = _lines(element, "v")
        text = join_lines(lines) if lines else ""
    elif name == "tr":
        text = " ".join(cell for cell in (_text(td) for td in element) if cell)
    elif name == "title":
        text = _title(element)
    else:
        for child in element:
            yield from _paragraphs_of(child)
        return
    if text:
        yield text


def _section(section: ElementTree.Element, level: int, parts: set[str]) -> Iterator[tuple[str, int]]:
    """A <section>'s heading at ``level`` (when it has a title) and its paragraphs, sub-sections one
    level deeper; a section holding titled sections is a part."""
    title = _child(section, "title")
    heading = _title(title) if title is not None else ""
    subsections = [child for child in section if local_name(child) == "section"]
    if heading and any(_child(sub, "title") is not None for sub in subsections):
        parts.add(heading)
    if heading:
        yield heading, level
    for child in section:
        name = local_name(child)
        if name == "section":
            yield from _section(child, level + 1, parts)
        # a <subtitle> heads a chapter where a converter wrote a book as one section ("Глава первая");
        # a bare numeral (a poem's stanza: "XIV") heads none
        elif name == "subtitle" and is_worded_heading(subtitle := _text(child)):
            yield subtitle, level + 1
        elif name != "title":
            yield from ((text, 0) for text in _paragraphs_of(child))


def _notes(body: ElementTree.Element) -> Iterator[str]:
    """A notes body as endnotes: its title a line, each note's first paragraph opening with the
    note's number ("1 Рулетка (франц.)."), nothing marked a heading."""
    title = _child(body, "title")
    heading = _title(title) if title is not None else ""
    if heading:
        yield heading
    for section in (child for child in body if local_name(child) == "section"):
        number = _child(section, "title")
        label = _title(number) if number is not None else ""
        paragraphs = [text for child in section if local_name(child) != "title" for text in _paragraphs_of(child)]
        if label and paragraphs:
            paragraphs[0] = f"{label} {paragraphs[0]}"
        yield from paragraphs or ([label] if label else [])


def read_fictionbook(data: bytes | str, source: str) -> MarkedBook:
    """A FictionBook's title (its <book-title>) and paragraphs (the book's title line in its body is
    front matter, at level 0), from its bytes or its decoded text (``parse_xml``)."""
    root = parse_xml(data, source, "FictionBook")
    if local_name(root) != "FictionBook":
        raise NarrativeError(f"{source}: not a FictionBook: its root element is <{local_name(root)}>")
    book_title = next((text for e in root.iter() if local_name(e) == "book-title" and (text := _text(e))), None)
    paragraphs: list[tuple[str, int]] = []
    parts: set[str] = set()
    bodies = [child for child in root if local_name(child) == "body"]
    for body in (b for b in bodies if not b.get("name")):  # the book; a named body holds its notes
        for child in body:
            name = local_name(child)
            if name == "title":
                paragraphs.append((_title(child), 0))
            elif name == "section":
                paragraphs.extend(_section(child, 1, parts))
            else:
                paragraphs.extend((text, 0) for text in _paragraphs_of(child))
    for body in (b for b in bodies if b.get("name")):
        paragraphs.extend((text, 0) for text in _notes(body))
    return MarkedBook(book_title, [(text, level) for text, level in paragraphs if text], frozenset(parts))
