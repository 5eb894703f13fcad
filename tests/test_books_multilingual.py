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


def test_don_quijote_chapters_carry_their_long_titles_and_the_contents_open_none():
    book = load_narrative(FIXTURES / "don_quijote_excerpt.es.txt")
    assert (book.encoding, book.title) == ("utf-8-sig", "Don Quijote")
    # the chapters of the 1605 part and of the 1615 Segunda parte, each with its title of two lines
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "1.8", "2.1"]
    assert book.chapters[2].title == (
        "Capítulo VIII. Del buen suceso que el valeroso don Quijote tuvo en la espantable y jamás imaginada "
        "aventura de los molinos de viento, con otros sucesos dignos de felice recordación"
    )
    assert book.chapters[0].part == "Primera parte" and book.chapters[3].part == "Segunda parte"
    # the contents name the Segunda parte among the chapters' titles: front matter, not a chapter
    contents_entry = next(p for p in book.paragraphs if p.text.startswith("Segunda parte del ingenioso"))
    assert contents_entry.chapter == 0 and contents_entry.id < book.chapters[0].first_paragraph
    assert build_index(book, None, use_cache=False).language == "es"
    assert "no son gigantes, sino molinos de viento" in best_match(
        book, "¿Qué creía don Quijote que eran los molinos de viento?"
    )


def test_anna_karenina_parts_open_their_first_chapter_without_swallowing_it():
    book = load_narrative(FIXTURES / "anna_karenina_excerpt.ru.txt")
    # ЧАСТЬ ПЕРВАЯ, then I, II: each part's chapter I is a chapter of its own, numbered within its part
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "2.1", "2.2", "7.1", "7.31"]
    first = book.chapters[0]
    assert (first.title, first.part) == ("ЧАСТЬ ПЕРВАЯ I", "ЧАСТЬ ПЕРВАЯ") and book[first.first_paragraph].text == (
        "ЧАСТЬ ПЕРВАЯ"
    )
    assert book[first.first_paragraph + 2].text.startswith("Все счастливые семьи похожи друг на друга")
    assert book.chapters[1].title == "II" and book.chapter_span("7") == (5, 6)
    assert build_index(book, None, use_cache=False).language == "ru"
    assert "упала под вагон" in best_match(book, "Под какой вагон упала Анна на станции?")
