"""Books in scripts no supported language is written in (Devanagari, Thai, Arabic, Hebrew): read as ``und``,
their words whole with their marks, Thai in letter pairs, vowel points folded, on real prose
(tests/fixtures/books_scripts); their chapters, and those of Ukrainian, Finnish and Turkish books, as they head
them, and named in a question."""

from __future__ import annotations

from pathlib import Path

import pytest

from clueweaver.books.chapter_mentions import chapter_mentions
from clueweaver.books.language import UNDETERMINED, detect_language, guess_language
from clueweaver.books.narrative import from_paragraphs
from clueweaver.books.sentences import split_sentences
from clueweaver.measure.recall import bench_recall
from clueweaver.protocol.calibration import calibration_cues
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


BODY = "Prose long enough to be a paragraph of the chapter, with a full stop at its end, as a novel's text is."


@pytest.mark.parametrize(
    "headings,numbers",
    [(["अध्याय 1", "अध्याय 2", "अध्याय ३"], [1, 2, 3]), (["पहला अध्याय", "दूसरा अध्याय", "तीसरा अध्याय"], [1, 2, 3]),
     (["الفصل الأول", "الفصل الثاني", "الفصل ٣"], [1, 2, 3]),
     (["الفصل العاشر", "الفصل الحادي عشر", "الفصل الثاني والعشرون"], [10, 11, 22]),
     (["פרק א", "פרק ב: בבית", "פרק ג'"], [1, 2, 3]),
     (["פרק י״ד", "פרק ט״ו", "פרק כ״ג"], [14, 15, 23]),
     (["פרק ראשון", "פרק שני", "פרק שלישי"], [1, 2, 3]),
     (["บทที่ 1", "บทที่ ๒", "ตอนที่ 3"], [1, 2, 3]),
     (["РОЗДІЛ ПЕРШИЙ", "Розділ п’ятий", "Розділ двадцять третій"], [1, 5, 23]),
     (["ENSIMMÄINEN LUKU", "Luku 2", "KAHDESKYMMENES LUKU"], [1, 2, 20]),
     (["BİRİNCİ BÖLÜM", "ALTINCI BÖLÜM", "On Birinci Bölüm"], [1, 6, 11])],
)  # fmt: skip
def test_chapters_as_these_books_head_them(headings, numbers):
    narrative = from_paragraphs([p for heading in headings for p in (heading, BODY, BODY)], title="book")
    assert [chapter.label for chapter in narrative.chapters] == [str(n) for n in numbers]


@pytest.mark.parametrize(
    "prose", ["פרק זמן קצר עבר", "פרק לא נגמר עדיין", "פרק לא.", "ספר לו.", "Luku oli pitkä", "الفصل في الأمر"]
)
def test_prose_that_opens_with_a_chapter_word_is_no_heading(prose):
    """Hebrew numerals are letters: only in their order (hundreds, tens, units), before the line's end or a mark,
    and without a geresh or gershayim only one letter or a teen, is a word after "פרק" or "ספר" a number ("זמן",
    time, "לא", not, "לו", to him, are none)."""
    narrative = from_paragraphs(["פרק א", BODY, prose, BODY, "פרק ב", BODY], title="book")
    assert [chapter.label for chapter in narrative.chapters] == ["1", "2"]


@pytest.mark.parametrize(
    "question,numbers",
    [("Що сталося в розділі 3?", (3,)), ("ماذا حدث في الفصل الثالث؟", (3,)), ("ماذا حدث في الفصل ٣؟", (3,)),
     ("מה קרה בפרק ג?", (3,)), ("אחרי מה קרה בפרק 12?", (12,)), ("अध्याय ३ में क्या हुआ?", (3,)),
     ("Mitä tapahtui luvussa 3?", (3,)), ("3. bölümde ne oldu?", (3,)), ("Wat gebeurde er in hoofdstuk 3?", (3,)),
     ("בפרק לא ברור מה קרה", None), ("เกิดอะไรขึ้นในบทที่ 3", (3,)), ("บทที่ ๓ เกิดอะไรขึ้น", (3,)),
     ("ในตอนที่ 12 ใครตาย", (12,)), ("Wat gebeurt er in hoofdstuk drie?", (3,))],
)  # fmt: skip
def test_a_question_names_chapters_in_these_languages(question, numbers):
    assert [mention.numbers for mention in chapter_mentions(question)] == ([numbers] if numbers else [])


@pytest.mark.parametrize(
    "question,family",
    [("Чому Петро повернувся до села?", "causal"), ("Хто не прийшов на весілля?", "negation"),
     ("Waarom ging de molenaar niet naar de stad?", "causal"), ("Wie kwam er nooit terug?", "negation"),
     ("Petro neden köye döndü?", "causal"), ("Kim düğüne gelmedi, hiç kimse mi?", "negation"),
     ("Miksi Petro palasi kylään?", "causal"), ("Mitä voidaan päätellä hänen kirjeestään?", "inferential"),
     ("لماذا عاد أحمد إلى المدينة؟", "causal"), ("من لم يحضر العرس؟", "negation"),
     ("למה חזרה נחמה הביתה?", "causal"), ("מי לא בא לחתונה?", "negation"),
     ("हामिद मेले में क्यों गया?", "causal"), ("कौन मेले में नहीं गया?", "negation")],
)  # fmt: skip
def test_the_self_calibration_trigger_reads_these_languages_why_and_not(question, family):
    """A "why" or a "not" in a language read as plain words fires tau(q) as it does in English."""
    assert family in calibration_cues(Question.open(question))
    assert not calibration_cues(Question.open("Wie kwam er op de bruiloft?"))  # no cue: no second pass


def test_a_word_of_a_language_without_a_stemmer_is_read_as_its_first_five_letters():
    """An undetermined book's Latin or Cyrillic words meet in their other forms ("dziewczyny", "dziewczyna");
    other scripts, and the supported languages' own analyzers, are left as they were."""
    und = analyzer_for(UNDETERMINED)
    assert und.tokenize("Dziewczyny, dziewczyna") == ["dziew", "dziew"]
    assert und.tokenize("розділі розділом l'homme") == ["розді", "розді", "l'hom"]
    assert und.tokenize("अध्यायों المدينة 1998") == ["अध्यायों", "المدينة", "1998"]
    assert analyzer_for("sv").tokenize("flickorna") == ["flickorna"]


def test_bench_recall_reads_the_sets_books_as_a_language_clueweaver_does_not_know():
    """`clueweaver bench recall --language und`: how a book fares in a language without a stemmer, here the
    Polish tuning set's novel with its words cut to five letters and und's ranking settings (8 of 15 all gold at
    detectiveqa; 5 with the default settings, 3 when the words were read whole, 12 with Polish's own stemmer and
    stop words)."""
    payload, markdown = bench_recall(language="und", sets=["tuning-pl"], presets=["detectiveqa"], progress=False)
    (result,) = payload["results"]
    assert payload["language"] == "und" and "read as und" in markdown
    assert abs(result["segments"]["fully_covered"] - 8) <= 1
