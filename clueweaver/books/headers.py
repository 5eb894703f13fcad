"""What a book's file says around its text rather than in it: Project Gutenberg's header (its
``Title:`` line) and licence, and a Markdown file's front matter or single level-1 title. The loaders
(``clueweaver.books.narrative``) take the title from here and leave the licence out of the book."""

from __future__ import annotations

import re

from clueweaver.books.aozora import aozora_title

_GUTENBERG_START = re.compile(r"^\s*\*{3}\s*START OF (?:THE|THIS) PROJECT GUTENBERG.*$", re.IGNORECASE | re.MULTILINE)
_GUTENBERG_END = re.compile(
    r"^\s*(?:\*{3}\s*END OF (?:THE|THIS) PROJECT GUTENBERG|End of (?:the )?Project Gutenberg'?s?)\b.*$",
    re.IGNORECASE | re.MULTILINE,
)


def is_licence_boundary(text: str) -> bool:
    """Whether a paragraph is the line where Project Gutenberg's licence header ends or its footer begins."""
    return bool(_GUTENBERG_START.match(text) or _GUTENBERG_END.match(text))


def strip_gutenberg(text: str) -> str:
    """Drop the Project Gutenberg licence header and footer when present."""
    start = _GUTENBERG_START.search(text)
    if start:
        text = text[start.end() :]
    end = _GUTENBERG_END.search(text)
    if end:
        text = text[: end.start()]
    return text


# A Gutenberg header's title line; a long title goes on over indented lines.
_GUTENBERG_TITLE = re.compile(r"^Title:[ \t]*(\S.*(?:\n[ \t]+\S.*)*)", re.MULTILINE)
_HEADER_CHARS = 5000  # where a file without a START marker may have a header
# front matter: a block between two "---" lines at the very top, one of its lines "title: ..."
_FRONT_MATTER_TITLE = re.compile(
    r"\A---[ \t]*\n(?:(?!---).*\n)*?title:[ \t]*(\S.*)\n(?:(?!---).*\n)*?---[ \t]*$", re.MULTILINE
)
_MARKDOWN_H1 = re.compile(r"^#[ \t]+(\S.*?)[ \t#]*$", re.MULTILINE)


# A first line that is only a work's name in book-title marks: "《红楼梦》", "『こころ』"
_MARKED_TITLE = re.compile(r"[《『]([^《》『』\n]{1,60})[》』]")
# A Chinese e-text's line under its name that is only its author's name, after the dynasty in brackets ("[清]刘鹗",
# "（明）吴承恩") or a label ("作者：曹雪芹"); the name above it no sentence
_AUTHOR_LINE = re.compile(r"(?:[\[（(【〔][\u4e00-\u9fff]{1,3}[\]）)】〕]|作者\s*[:：])\s*[\u4e00-\u9fff·]{2,8}")
_TITLE_LINE = re.compile(r"[^\s，。！？；：,.!?;:]{1,20}")


def text_title(text: str) -> str | None:
    """The title a Project Gutenberg header gives on its ``Title:`` line (before the START marker,
    or near the top of a file without one), an Aozora Bunko text's first line, or a first line that is only
    a name in book-title marks, as Chinese e-texts open ("《红楼梦》"), or a name over its author's line
    ("老残游记" over "[清]刘鹗"); else None."""
    start = _GUTENBERG_START.search(text)
    found = _GUTENBERG_TITLE.search(text[: start.start() if start else _HEADER_CHARS])
    if found:
        return " ".join(found.group(1).split())
    first, second = ([line.strip() for line in text[:_HEADER_CHARS].splitlines() if line.strip()] + ["", ""])[:2]
    marked = _MARKED_TITLE.fullmatch(first)
    named = _TITLE_LINE.fullmatch(first) and _AUTHOR_LINE.fullmatch(second)
    return aozora_title(text) or (marked.group(1).strip() if marked else first if named else None)


def markdown_title(text: str) -> str | None:
    """A Markdown book's title: its front matter's ``title:``, else its one level-1 heading (a
    book with several has chapters at that level, not a title), or None."""
    front = _FRONT_MATTER_TITLE.search(text)
    if front:
        return front.group(1).strip().strip("\"'") or None
    headings = _MARKDOWN_H1.findall(text)
    return headings[0] if len(headings) == 1 else None
