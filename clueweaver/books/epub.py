"""An EPUB's spine documents as leveled paragraphs for the loader (``clueweaver.books.narrative``).

The reading order is the spine's; the navigation document (EPUB 3's ``nav``), which some books put in
the spine, is the reader's table of contents, not the book's text, and is left out. Many EPUBs made by
converters set a chapter's title in a plain ``<p>`` (or not at all) and name it only in the navigation:
in a book none of whose documents marks a heading, a document that exactly one navigation entry points
into takes that entry's title as its heading (the paragraph that already reads it, or one put before
it). A book that marks its headings keeps them alone: its navigation also names a title page or a
copyright page, which mark none and are no chapters.
"""

from __future__ import annotations

import posixpath
import warnings
from pathlib import Path
from urllib.parse import unquote

from ebooklib import ITEM_DOCUMENT, epub

from clueweaver.books.errors import NarrativeError
from clueweaver.books.markup import html_paragraphs


def read_epub(path: str) -> tuple[str, list[list[tuple[str, int]]]]:
    """The book's title and each spine document's paragraphs with their heading levels (0: prose)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            book = epub.read_epub(path, options={"ignore_ncx": True})
    except Exception as exc:  # ebooklib raises zipfile, KeyError and its own errors alike
        raise NarrativeError(f"{path}: not a readable EPUB ({type(exc).__name__}: {exc})") from exc
    title = (book.get_metadata("DC", "title") or [(Path(path).stem,)])[0][0]
    items = [book.get_item_with_id(item_id) for item_id, _linear in book.spine]
    items = [item for item in items if _is_text(item)]
    documents = [html_paragraphs(item.get_content()) for item in items]
    if any(level for document in documents for _text, level in document):
        return title, documents
    titles = _navigation_titles(book)
    return title, [_titled(document, titles.get(item.file_name)) for document, item in zip(documents, items)]


def _is_text(item) -> bool:
    """Whether a spine item is a document of the book's text: not missing, not the navigation."""
    return item is not None and item.get_type() == ITEM_DOCUMENT and not isinstance(item, epub.EpubNav)


def _navigation_titles(book: epub.EpubBook) -> dict[str, str]:
    """The navigation's title for each document exactly one of its entries points into, by the document's
    file name (ebooklib gives an entry's link relative to the package, as file names are; it may be %-escaped)."""
    entries: dict[str, list[str]] = {}
    for href, title in _entries(book.toc):
        name = posixpath.normpath(unquote(href.split("#", 1)[0]))
        entries.setdefault(name, []).append(" ".join(title.split()))
    return {name: titles[0] for name, titles in entries.items() if len(titles) == 1 and titles[0]}


def _entries(toc):
    """(href, title) of every entry of ebooklib's table of contents: links, and sections with their children."""
    for entry in toc:
        if isinstance(entry, tuple):
            section, children = entry
            if getattr(section, "href", None):
                yield section.href, section.title or ""
            yield from _entries(children)
        elif getattr(entry, "href", None):
            yield entry.href, entry.title or ""


def _titled(paragraphs: list[tuple[str, int]], title: str | None) -> list[tuple[str, int]]:
    """A document's paragraphs, which mark no heading, headed by its navigation title."""
    if not title or not paragraphs:
        return paragraphs
    if " ".join(paragraphs[0][0].split()).casefold() == title.casefold():
        return [(paragraphs[0][0], 1), *paragraphs[1:]]
    return [(title, 1), *paragraphs]
