"""Books in scripts no supported language is written in (Devanagari, Thai, Arabic, Hebrew): read as ``und``,
their words whole with their marks, Thai in letter pairs, vowel points folded; real prose
(tests/fixtures/books_scripts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clueweaver.books.language import UNDETERMINED, detect_language, guess_language
from clueweaver.books.narrative import from_paragraphs
from clueweaver.books.sentences import split_sentences
from clueweaver.protocol.question import Question
from clueweaver.protocol.text import answer_tokens, token_f1, word_count
from clueweaver.retrieval.analyzers import analyzer_for
from clueweaver.retrieval.index import build_index
from clueweaver.segments.segmenter import get_preset
from clueweaver.sources.registry import SourceRequest, candidate_segments

SCRIPTS = Path(__file__).parent / "fixtures" / "books_scripts"
BOOKS = {
    "hi": "idgah_excerpt.hi.txt",
    "th": "nithan_vetal_excerpt.th.txt",
    "ar": "al_bukhala_excerpt.ar.txt",
    "he": "neged_hazerem_excerpt.he.txt",
}


def paragraphs(language: str) -> list[str]:
    return (SCRIPTS / BOOKS[language]).read_text(encoding="utf-8").split("\n\n")


def ranking(language: str, question: str) -> list[int]:
    narrative = from_paragraphs(paragraphs(language), title=BOOKS[language], detect_headings=False)
    scores = build_index(narrative, None, use_cache=False).bm25_scores(question)
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


@pytest.mark.parametrize("language", sorted(BOOKS))
def test_a_book_in_another_script_is_undetermined(language):
    assert detect_language("\n\n".join(paragraphs(language))) == UNDETERMINED


def test_a_devanagari_word_keeps_its_vowel_signs():
    """Python's \\w has no combining marks: "रखे" was "र" and a stray mark, dropped, and "राम" met "रम"."""
    assert analyzer_for(UNDETERMINED).tokenize("बच्चे को ख़ुदा सलामत रखे") == ["बच्चे", "को", "ख़ुदा", "सलामत", "रखे"]
    assert word_count("बच्चे को ख़ुदा सलामत रखे") == 5
    assert answer_tokens("राम ने रावण") == ["राम", "ने", "रावण"] and token_f1("रम", ["राम"]) == 0.0


@pytest.mark.parametrize(
    "language,question,paragraph",
    [("hi", "किसने कहा कि बच्चे को ख़ुदा सलामत रखे?", 6),
     ("th", "หญิงสาวที่มีทาสีห้อมล้อมคือใคร", 2), ("th", "พระราชธิดายิ้มเมื่อได้ยินอะไร", 4),
     ("th", "ใครจะเป็นอำมาตย์ที่มีปัญญา", 6),
     ("ar", "متى عرفت مكانه فاجتنبته؟", 6), ("ar", "مَتَى عَرَفْتَ مَكَانَهُ فَاجْتَنَبْتَهُ؟", 6),
     ("he", "מי סובב את המפתח במנעול?", 6)],
)  # fmt: skip
def test_a_question_in_the_books_script_ranks_its_paragraph_first(language, question, paragraph):
    """Thai writes no spaces between words: its letter pairs meet where a clause never would; an Arabic question
    written with its vowels meets the unvocalized text."""
    assert ranking(language, question)[0] == paragraph


def test_thai_is_read_in_pairs_of_letters_each_with_its_marks():
    assert analyzer_for(UNDETERMINED).tokenize("เจ้าหญิง") == ["เจ้", "จ้า", "าห", "หญิ", "ญิง"]
    assert analyzer_for("en").tokenize("The word เจ้า") == ["word", "เจ้", "จ้า"]
    # a Thai answer earns partial credit as a Chinese one does, a letter with its marks a token
    assert token_f1("เจ้าหญิงองค์หนึ่ง", ["เจ้าหญิง"]) == pytest.approx(2 / 3)
    assert word_count(paragraphs("th")[6]) == 23  # its 70 letters with their marks; pythainlp cuts it into 23 words


def test_arabic_and_hebrew_vowel_points_tatweel_and_hamza_are_folded():
    analyzer = analyzer_for(UNDETERMINED)
    assert analyzer.tokenize("كِتَابٌ") == analyzer.tokenize("كتاب") == ["كتاب"]
    assert analyzer.tokenize("المدينـــة أحمد") == analyzer.tokenize("المدينة احمد")
    assert analyzer.tokenize("וַתְּהַדֵּק") == analyzer.tokenize("ותהדק") == ["ותהדק"]


def test_sentences_end_at_the_danda_and_the_arabic_question_mark():
    hindi = paragraphs("hi")[6]
    assert len(split_sentences(hindi)) == hindi.count("।") + hindi.count("?") + hindi.count("!")
    assert split_sentences("ذهب أحمد إلى المدينة؟ نعم ذهب.") == ["ذهب أحمد إلى المدينة؟ ", "نعم ذهب."]


@pytest.mark.parametrize("question", ["Чому Петро вирішив повернутися до села?", "Що сказала Оксана про батька?"])
def test_a_ukrainian_question_about_a_ukrainian_book_is_no_russian_one(question):
    """A Ukrainian book is ``und`` (no ы, э); its question, short, was read as Russian by its script alone and
    warned as asked in another language. Russian questions stay Russian, old spelling (і beside ѣ, ъ) too."""
    book = ["Оксана сказала йому, що батько захворів і лежить удома вже третій день.",
            "Тоді Петро вирішив повернутися до села, хоч дорога була довга і важка."] * 40  # fmt: skip
    narrative = from_paragraphs(book, title="село", detect_headings=False)
    index = build_index(narrative, None, use_cache=False)
    request = SourceRequest(narrative, Question.open(question), get_preset("focused"), index, encoder=None)
    candidates = candidate_segments(request)
    assert request.index.language == UNDETERMINED and candidates.segments and not candidates.warnings
    assert guess_language("Почему Оксана плакала?") == guess_language("Всѣ семьи і такъ далѣе") == "ru"
    assert guess_language("Почему Оксана плакала?", beside="ru") == "ru"
