"""The sections of a book's front matter that a reader names: its prologue ("PROLOGUE", "Пролог", "序章",
"楔子", "プロローグ") and its preface ("PREFACE", "Préface", "Vorwort", "Предисловие", "序言"). They stand
before the first chapter, in the front matter that "0" names (``clueweaver.books.chapter_structure``), so
no chapter label reaches them; a question that names one ("in the prologue", "в предисловии", "楔子中")
reads it first (``clueweaver.books.named_chapters.chapters_named``)."""

from __future__ import annotations

import dataclasses
import re
from typing import Sequence

from clueweaver.books.chapters import Heading

# Each section's words: those written between spaces, declined as a question declines them ("в прологе"); those
# of scripts written without spaces; and those a question names the section by only where it says so, since they
# are everyday words too (楔子 a wedge, 引子 a remedy's guide, 序幕 a curtain-raiser, 前言 what was said before:
# "前言不搭后语", 引言 a quotation's lead; a play's 序幕 is its prologue, as in 曹禺's 雷雨)
_WORDS = {
    "prologue": (
        r"prologue|prolog|prólogo|prologo|пролог\w*|πρόλογ\w*",
        "序章|プロローグ|프롤로그",
        "楔子|(?<!药)引子|序幕",
    ),
    "preface": (
        r"preface|foreword|vorwort|préface|prefacio|prefazione|prefácio|предислови\w*|przedmow\w*",
        "序言|自序|序文|まえがき|はしがき|서문|머리말",
        "前言|引言",
    ),
}
# "楔子中", "前言里", "在楔子", "《楔子》": said as a place in the book
_PLACED = r"(?:{0})(?=\s*(?:中|里|裡|内|部分))|(?<=在)(?:{0})|(?<=[《「『])(?:{0})(?=[》」』])"
_MENTIONS = {
    kind: re.compile(rf"(?<!\w)(?:{spaced})(?!\w)|{unspaced}|{_PLACED.format(placed)}", re.IGNORECASE)
    for kind, (spaced, unspaced, placed) in _WORDS.items()
}
_MAX_HEADING_CHARS = 100
# The word alone on its line, or before the section's name after a mark or a space ("PROLOGUE. THE STORM",
# "序章　嵐の夜")
_HEADINGS = {
    kind: re.compile(rf"^\s*(?:{spaced}|{unspaced}|{placed})(?:$|[\s.:—–-])", re.IGNORECASE)
    for kind, (spaced, unspaced, placed) in _WORDS.items()
}


def front_sections(narrative) -> dict[str, object]:
    """Each section a ``Narrative``'s front matter heads ("prologue", "preface") as a chapter labelled "0" (a
    ``Chapter`` like its first, titled with its heading): its text, from after its last heading before the first
    chapter (a contents list names it before the text does) to the next section's heading or the first chapter.
    None in a book without chapters, nor a heading with no text after it."""
    chapters = narrative.chapters
    if not chapters:
        return {}
    first = chapters[0].first_paragraph
    paragraphs = [paragraph.text for paragraph in narrative.paragraphs[:first]]
    starts = {}
    for i, text in enumerate(paragraphs):
        kind = next(
            (k for k, heading in _HEADINGS.items() if len(text) <= _MAX_HEADING_CHARS and heading.match(text)), None
        )
        if kind:
            starts[kind] = i
    ends = sorted([*starts.values(), first])
    spans = {kind: (start, ends[ends.index(start) + 1] - 1) for kind, start in starts.items()}
    return {
        kind: dataclasses.replace(
            chapters[0], number=0, title=paragraphs[start], first_paragraph=start + 1, last_paragraph=last, label="0",
            part=None, volume=None,
        )
        for kind, (start, last) in spans.items()
        if last > start
    }  # fmt: skip


def sections_named(front: dict[str, object], chapters: Sequence, text: str) -> tuple[list, list[str]]:
    """The front sections (``front_sections``) that ``text`` names, and those it names that the book has not
    ("prologue"). A chapter headed or named as one ("# Prologue" in a Markdown file, "CHAPTER I. PROLOGUE") is
    the one named."""
    found, missing = [], []
    for kind, mention in _MENTIONS.items():
        if not mention.search(text):
            continue
        heading = _HEADINGS[kind]
        titled = [c for c in chapters if heading.match(c.title) or heading.match(Heading.parse(c.title).name)]
        found += titled or ([front[kind]] if kind in front else [])
        missing += [] if titled or kind in front else [kind]
    return found, missing
