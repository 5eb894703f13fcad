"""German compounds read as their parts too, against the book's own words (clueweaver.retrieval.compounds)."""

from __future__ import annotations

import pytest

from clueweaver.retrieval.analyzers import analyzer_for
from clueweaver.retrieval.compounds import CompoundSplitter
from clueweaver.retrieval.lexical import BM25Index

GERMAN = analyzer_for("de")
BOOK = [
    "In der Nacht hörte Effi den Spuk oben im Saal.",
    "Die Hochzeit war im Oktober, die Reise ging nach Italien.",
    "Er sprach von seinen Plänen und von der Vorstellung im Theater.",
    "Innstetten sass am Tisch und schrieb einen Brief.",
]


def splitter(*texts: str) -> CompoundSplitter:
    vocabulary = {term for text in texts for term in GERMAN.tokenize(text)}
    return CompoundSplitter(GERMAN, vocabulary)


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("spuknacht", ("spuk", "nacht")),
        ("hochzeitsreise", ("hochzeit", "reis")),  # the linking s
        ("reisepläne", ("reis", "plan")),  # the linking e, the plural head
        ("schreibtisch", ()),  # "schreib" is no word of the book
        ("vorstellungen", ()),  # a suffix is no part
        ("saal", ()),  # too short to hold two parts
    ],
)
def test_a_compound_splits_into_words_the_book_writes(word, parts):
    assert splitter(*BOOK).parts(word) == parts


def test_the_most_even_split_goes_first():
    """Feuerwehrmann is Feuer and Wehrmann before Feuerwehr and Mann when the book writes all four."""
    book = ("Das Feuer brannte.", "Der Wehrmann kam.", "Die Feuerwehr half.", "Ein Mann rief.")
    stems = GERMAN.tokenize("Feuer Wehrmann Feuerwehr Mann")
    assert splitter(*book).parts("feuerwehrmann") == tuple(stems[:2])
    assert splitter(*book[2:]).parts("feuerwehrmann") == tuple(stems[2:])


def test_a_german_question_meets_the_compound_the_book_writes_and_the_other_way_round():
    index = BM25Index.from_texts([*BOOK, "Die Spuknacht vergass sie nie."], "de")
    assert set(index.terms("Was geschah in der Spuknacht?")) >= {"spuknacht", "spuk", "nacht"}
    scores = index.scores("Wann war der Spuk?")
    assert scores[4] > 0  # the compound's paragraph, which never writes "Spuk" alone
    assert index.scores("Spuknacht")[0] > 0  # and the paragraph of the night and the ghost, apart


def test_a_question_in_another_language_is_not_split():
    """An English word is no German compound: "offering" stays whole beside a German book with "off" and "ring"."""
    index = BM25Index.from_texts(["Die Tür war offen.", "Der Ring lag da.", "Er ging hinaus."], "de")
    assert index.terms("What was he offering?") == GERMAN.tokenize("What was he offering?")
    assert "ring" in index.terms("Was war das Offenring?")


def test_only_german_books_split_compounds():
    english = BM25Index.from_texts(["The night was dark.", "A ghost walked.", "Nightghost stories."], "en")
    assert english.terms("nightghost") == ["nightghost"]
