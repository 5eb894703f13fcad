"""The query writer's prompts and the reading of its reply (``query_writer: keywords | passage``).

Before retrieval, one short generation turns the question into more words to search with: the
names, places, objects and events a passage answering it would mention (``keywords``), or a short
hypothetical passage that answers it (``passage``, as HyDE, Gao et al. 2022). Retrieval ranks with
the question's text plus what was written; the Finder and the Interpreter still read the question
as asked. Questions rarely use the words of the paragraph that answers them (a question about a
weapon, a book that says "the poker"), and a model can guess some of those words; a paragraph the
question shares no word with is then reachable.

The prompts are in English, like the agents', and ask for the reply in the book's language when the
caller knows it, since retrieval matches the book's words: an English question about a French
novel gets French keywords, which BM25 can match (else in the question's language). The reader
is lenient: a thinking block is dropped, whitespace collapsed and the length capped; a reply with
no word left is "" and the caller says so (the run goes on with the question alone).
"""

from __future__ import annotations

import re

from clueweaver.books.language import SUPPORTED_LANGUAGES, language_name
from clueweaver.protocol.prompts import render_case
from clueweaver.protocol.question import Question
from clueweaver.protocol.text import CJK, CJK_CHARACTERS_PER_WORD, is_cjk, words

QUERY_WRITER_OFF = "off"
QUERY_WRITER_MODES = (QUERY_WRITER_OFF, "keywords", "passage")
# The written text's cap, in English words (a CJK character counts 1/1.5): enough for a short
# passage, short enough that the question's own words keep their weight in the joined query.
QUERY_WORD_LIMIT = 80

_SEARCH = (
    "You help search a long narrative (a novel, story, script or archive) for the passages that {task}. "
    "You do not see the narrative; guess from the {subject} alone.\n\n"
)
_SYSTEMS = {
    "keywords": _SEARCH
    + "List the names, places, objects and events that such a passage would mention: the words themselves, "
    "separated by commas, at most 30. Write them {language}. Reply with the list only: "
    "no answer, no explanation, no numbering.",
    "passage": _SEARCH
    + "Write a short passage, as it could appear in the narrative itself, that {answers}: two to four sentences "
    "naming the people, places, objects and events involved (invent the details you cannot know). Write it "
    "{language}. Reply with the passage only.",
}
_TASK = {
    "mcq": "answer the question or decide between its options",
    "claim": "verify or refute the claim",
    "open": "answer the question",
}
_ANSWERS = {"mcq": "answers the question", "claim": "settles the claim", "open": "answers the question"}

_THINK_BLOCK = re.compile(r"<\s*think\s*>.*?<\s*/\s*think\s*>", re.IGNORECASE | re.DOTALL)
_THINK_OPEN = re.compile(r"<\s*think\s*>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"<\s*/\s*think\s*>", re.IGNORECASE)
_UNIT = re.compile(f"[{CJK}]|[^\\s{CJK}]+")  # a CJK character, or a whitespace-separated run


def query_writer_messages(question: Question, mode: str, book_language: str | None = None) -> list[dict[str, str]]:
    """The query writer's prompt: what to write (the mode's system message), in ``book_language``
    (a code of ``SUPPORTED_LANGUAGES``; else the question's language), and the case, shown as the
    agents see it (the question with its options, or the claim)."""
    if mode not in _SYSTEMS:
        raise ValueError(f"unknown query writer mode {mode!r}; use {' or '.join(_SYSTEMS)}")
    subject = "claim" if question.is_claim else "question"
    language = (
        f"in {language_name(book_language)}, the language of the narrative, whose words the search matches"
        if book_language in SUPPORTED_LANGUAGES
        else f"in the language of the {subject}"
    )
    system = _SYSTEMS[mode].format(
        task=_TASK[question.kind], answers=_ANSWERS[question.kind], subject=subject, language=language
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": render_case(question)}]


def _without_thinking(text: str) -> str:
    """``text`` less its thinking: whole ``<think>`` blocks, everything before a lone closing tag
    (a template that opened the block in the prompt) and after a lone opening one (cut off by the
    token limit while thinking)."""
    text = _THINK_BLOCK.sub(" ", text)
    closing = list(_THINK_CLOSE.finditer(text))
    if closing:
        text = text[closing[-1].end() :]
    opening = _THINK_OPEN.search(text)
    return text[: opening.start()] if opening else text


def read_written_query(text: str, limit: int = QUERY_WORD_LIMIT) -> str:
    """The query a reply holds: its thinking dropped, whitespace collapsed, cut after ``limit``
    words (CJK characters counted as ``protocol.text.word_count`` counts them); "" when no word is
    left, which the caller reports rather than searching with nothing."""
    body = " ".join(_without_thinking(str(text)).split())
    if not words(body):
        return ""
    counts = [0, 0]  # words of spaced scripts, CJK characters
    for unit in _UNIT.finditer(body):
        counts[is_cjk(unit.group())] += 1
        if counts[0] + counts[1] / CJK_CHARACTERS_PER_WORD > limit:
            return body[: unit.start()].rstrip()
    return body
