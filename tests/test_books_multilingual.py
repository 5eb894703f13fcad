"""Real books in the languages ClueWeaver claims, cut to a few pages in their real layout
(``tests/fixtures/books_multilingual``, sources in its README): each is loaded as a user's file
would be, and gives its encoding, its language, its chapters as the book numbers them, and the
paragraph that answers a question in its language as the best match."""

from __future__ import annotations

from pathlib import Path

from clueweaver.books.narrative import Narrative, load_narrative
from clueweaver.retrieval import build_index

FIXTURES = Path(__file__).parent / "fixtures" / "books_multilingual"


def best_match(narrative: Narrative, question: str) -> str:
    """The text of the paragraph retrieval ranks first for ``question`` (BM25, the book's analyzer)."""
    index = build_index(narrative, None, use_cache=False)
    return narrative[index.rank([question])[0][0]].text


def test_effi_briest_numbers_its_chapters_in_german_words_past_twelve():
    book = load_narrative(FIXTURES / "effi_briest_excerpt.de.txt")
    assert (book.encoding, book.encoding_detected, book.title) == ("latin_1", True, "Effi Briest")
    assert [c.label for c in book.chapters] == ["1", "2", "12", "13", "21", "27", "28", "29", "30", "36"]
    assert [c.title for c in book.chapters][3:6] == [
        "Dreizehntes Kapitel",
        "Einundzwanzigstes Kapitel",
        "Siebenundzwanzigstes Kapitel",
    ]
    assert book.chapters[-1].title == "Sechsunddreißigstes Kapitel" and book.chapter_span("29") == (8, 8)
    index = build_index(book, None, use_cache=False)
    assert index.language == "de"
    assert "Major von Crampas fiel." in best_match(book, "Wer fiel im Duell mit Innstetten?")
