"""What the XML book formats share (FictionBook, TEI): the book their markup gives, paragraphs
with the heading level the file marks, and the reading of the XML itself."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

from clueweaver.books.errors import NarrativeError


@dataclass(frozen=True)
class MarkedBook:
    """A book's title and paragraphs as its markup gives them: (text, heading level) in reading
    order, level 0 for prose and for front or back matter, 1 for a top-level section's heading and
    one more for each section it is nested in; ``parts`` are the headings of sections that hold
    headed sections; ``divisions`` (paragraph, title) where each section the file marks without a
    heading opens, the chapters of a book whose headings give none (a TEI text's ``<div
    type="chapter">`` without a ``<head>``)."""

    title: str | None
    paragraphs: list[tuple[str, int]]
    parts: frozenset[str]
    divisions: tuple[tuple[int, str], ...] = ()

    def division_titles(self) -> list[str | None]:
        """Each paragraph's division title (``divisions``), None before the first: the chapter titles
        ``clueweaver.books.narrative.from_paragraphs`` takes beside the paragraphs."""
        titles, current, opening = [], None, dict(self.divisions)
        for k in range(len(self.paragraphs)):
            current = opening.get(k, current)
            titles.append(current)
        return titles


def local_name(element: ElementTree.Element) -> str:
    """An element's tag without its namespace (FictionBook 2.0 and 2.1, TEI P5 and older files
    differ there); "" for what is no element."""
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def parse_xml(data: bytes | str, source: str, what: str, *, encoding_given: bool = True) -> ElementTree.Element:
    """The root of a file's XML, from its bytes (read in the encoding its declaration names) or its
    decoded text; a file that is not well-formed is a NarrativeError naming the line and column where
    it breaks (one that declares one encoding and is written in another breaks at its first letter
    outside ASCII, and one may declare an encoding Python does not know: for bytes of a format whose
    encoding a person may give, ``encoding_given``, the message names --encoding)."""
    offer = isinstance(data, bytes) and encoding_given
    try:
        return ElementTree.fromstring(data)
    except LookupError as exc:  # the declaration names an encoding Python does not know
        advice = "; pass --encoding" if offer else ""
        raise NarrativeError(f"{source}: not a readable {what} (its XML declares an {exc}){advice}") from exc
    except ElementTree.ParseError as exc:
        advice = "; if it is written in another encoding than its XML declares, pass --encoding" if offer else ""
        raise NarrativeError(f"{source}: not a readable {what} (the XML: {exc}){advice}") from exc
