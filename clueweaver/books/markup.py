"""HTML as a book's paragraphs, for the HTML and EPUB loaders (``clueweaver.books.narrative``): the
text a browser shows, one paragraph per innermost block element or loose line, each with its
heading level, and the book's title. What is not the book goes: Project Gutenberg's licence,
Aozora Bunko's editor notes, legend and colophon."""

from __future__ import annotations

import re
from collections.abc import Iterator

from bs4 import BeautifulSoup, NavigableString, Tag

from clueweaver.books.aozora import gaiji
from clueweaver.books.text_paragraphs import join_lines, split_blocks, text_paragraphs

_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BLOCK_TAGS = ("p", *_HEADING_TAGS, "blockquote", "pre", "li", "dt", "dd")
# Markup inside a line of text; any other element ends the line (a <div>, a table cell)
_INLINE_TAGS = frozenset(
    "a abbr b bdi bdo big cite code del dfn em font i img ins kbd mark q rb rp rt rtc ruby s samp small span "
    "strike strong sub sup time tt u var wbr".split()
)
_LINE_ENDS = (*_BLOCK_TAGS, "br")  # inline markup holding one of these is read as a container
_UNREAD_TAGS = frozenset("head script style noscript template svg math".split())
# What is not the book: Project Gutenberg's licence, and Aozora Bunko's editor notes ("［＃…］"), its
# legend of notations and its colophon (the text path strips them too, ``clueweaver.books.aozora``)
_BOILERPLATE = (
    "#pg-header, #pg-footer, section.pg-boilerplate, .pgheader, "
    "span.notes, div.notation_notes, div.bibliographical_information, div.after_text"
)


_BREAK = "\x0b"  # a <br>, told apart from the markup's own line breaks, which a browser shows as spaces


def _breaks_marked(element: Tag) -> str:
    """An element's text with each <br> as ``_BREAK``."""
    for br in element.find_all("br"):
        br.replace_with(_BREAK)
    return "".join(element.strings)


def _lines(text: str) -> str:
    """Text with ``_BREAK``s as the lines of a plain text: each line's markup whitespace collapsed and
    joined as wrapped lines are (``join_lines``), a blank line where two <br> meet."""
    return "\n".join(_joined_lines(line) for line in text.split(_BREAK))


def _element_paragraphs(element: Tag) -> list[str]:
    """A block element's text as a browser shows it, one paragraph or more: no space added where
    inline markup begins or ends ("<i>Emma</i>'s", "私は<ruby>先生<rt>せんせい</rt></ruby>と": ruby
    readings are left out), its <br> read as a plain text's line breaks: a line break wraps, a blank
    line (<br><br>, QuALITY's articles' paragraph break) ends a paragraph, and so does a line longer
    than anyone wraps (``split_blocks``)."""
    return [_joined_lines(paragraph) for paragraph in split_blocks(_lines(_breaks_marked(element)))]


def _joined_lines(text: str) -> str:
    """Markup text's lines, whitespace collapsed, joined as wrapped lines are (``join_lines``)."""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    lines = [line for line in lines if line]
    return join_lines(lines) if lines else ""


def html_paragraphs(markup: str | bytes) -> list[tuple[str, int]]:
    """(text, heading level 1-6 or 0) of each paragraph of an HTML document, in order."""
    soup = BeautifulSoup(markup, "html.parser")
    for boilerplate in soup.select(_BOILERPLATE):
        boilerplate.decompose()
    for image in soup.select("img.gaiji"):  # Aozora Bunko's: alt="※(「區＋鳥」、第3水準1-94-69)"
        image.replace_with(gaiji(image.get("alt", "").removeprefix("※(").removesuffix(")")) or "※")
    return list(_html_paragraphs(soup.body or soup))


def _html_paragraphs(element: Tag) -> Iterator[tuple[str, int]]:
    """(text, heading level or 0) of each paragraph under an element, in document order: each
    innermost block element's paragraphs, and the loose text between blocks read as a plain text
    whose lines the <br>s end (``text_paragraphs``): Aozora Bunko's XHTML writes a book as a <div> of
    lines, one paragraph each; a Western text so written wraps its lines and leaves a blank one
    between paragraphs."""
    loose: list[str] = []
    for child in element.children:
        if isinstance(child, Tag) and child.name == "br":
            loose.append(_BREAK)
        elif isinstance(child, Tag) and (child.name not in _INLINE_TAGS or child.find(_LINE_ENDS)):
            yield from _loose_paragraphs(loose)
            if child.name in _UNREAD_TAGS:
                continue
            if child.name in _HEADING_TAGS and child.find(_BLOCK_TAGS) is None:  # one heading, however broken
                yield _joined_lines(_breaks_marked(child).replace(_BREAK, "\n")), int(child.name[1])
            elif child.name in _BLOCK_TAGS and child.find(_BLOCK_TAGS) is None:
                yield from ((paragraph, 0) for paragraph in _element_paragraphs(child))
            else:
                yield from _html_paragraphs(child)
        elif isinstance(child, Tag):
            loose.append("".join(child.strings))  # bs4 leaves ruby readings out of .strings
        elif type(child) is NavigableString:  # not a comment, a doctype or a script's text
            loose.append(str(child))
    yield from _loose_paragraphs(loose)


def _loose_paragraphs(pieces: list[str]) -> Iterator[tuple[str, int]]:
    """The paragraphs of the loose text gathered so far (``text_paragraphs``); empties ``pieces``."""
    text = _lines("".join(pieces))
    pieces.clear()
    if text.strip():
        yield from ((_joined_lines(paragraph), 0) for paragraph in text_paragraphs(text))


# A Project Gutenberg HTML edition's <title>: "The Project Gutenberg eBook of Emma, by Jane Austen"
_GUTENBERG_HTML_TITLE = re.compile(r"^The Project Gutenberg e?Book of (.+?)(?:, by .*)?$", re.IGNORECASE)


def html_title(html: str) -> str | None:
    """An HTML book's title: an Aozora Bunko file's h1.title, else its <title> (a Project
    Gutenberg edition's without "The Project Gutenberg eBook of" and its author), else its first
    h1, or None."""
    soup = BeautifulSoup(html, "html.parser")
    for element in (soup.select_one("h1.title"), soup.title, soup.find("h1")):
        text = " ".join(element.get_text(" ").split()) if element else ""
        if text:
            gutenberg = _GUTENBERG_HTML_TITLE.match(text)
            return gutenberg.group(1) if gutenberg else text
    return None
