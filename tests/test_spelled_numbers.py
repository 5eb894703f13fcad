"""Spelled numbers read as digits (``clueweaver.books.spelled_numbers``): a question typed with digits meets a
book that spells them, in every word language, and nothing else about a text's terms changes."""

import re

import numpy as np
import pytest
from conftest import shared_path

from clueweaver.benchmarks.checks import DIGITS_FROZEN_FILE, DIGITS_FROZEN_SHA256, frozen_digest, load_multihop_checks
from clueweaver.books.cardinals import french_cardinal
from clueweaver.books.spelled_numbers import SMALL, join_digit_groups, spelled_numbers
from clueweaver.retrieval.analyzers import analyzer_for, plain_analyzer
from clueweaver.retrieval.lexical import BM25Index


def words(text: str, language: str) -> list[str]:
    analyzer = analyzer_for(language)
    return analyzer.words(analyzer.normalize(text))


@pytest.mark.parametrize(
    "language, spelled, typed",
    [
        ("en", "two hundred and fifty pounds", "£250 pounds"),
        ("en", "a thousand and one nights", "1001 nights"),
        ("en", "eighteen hundred and forty-eight", "1848"),
        ("en", "twenty thousand pounds", "20,000 pounds"),
        ("fr", "vingt mille livres", "20 000 livres"),
        ("fr", "trois cent vingt", "320"),
        ("fr", "quatre-vingt-dix-neuf", "99"),
        ("de", "dreitausend Taler", "3.000 Taler"),
        ("de", "neunzehnhundertachtundvierzig", "1948"),
        ("de", "hundert und zwanzig", "120"),
        ("es", "doscientos cincuenta mil", "250.000"),
        ("es", "un millón", "1000000"),
        ("it", "duecentocinquanta", "250"),
        ("it", "centottanta", "180"),
        ("it", "ventimila", "20000"),
        ("pt", "quarenta e dous annos", "42 anos"),
        ("pt", "mil e quinhentos e vinte", "1520"),
        ("ru", "из ста тысяч франков", "из 100000 франков"),
        ("ru", "не меньше восьмидесяти тысяч", "не меньше 80000"),
        ("ru", "двадцати пяти рублей", "25 рублей"),
        ("el", "είκοσι πέντε, διακόσια", "25, 200"),
        ("sv", "tvåhundrafemtio kronor", "250 kronor"),
        ("sv", "två tusen år och tjugotre dagar", "2000 år och 23 dagar"),
        ("sv", "artonhundrafyrtioåtta", "1848"),
        ("no", "to hundre og femti kroner", "250 kroner"),
        ("no", "tohundreogfemti kroner", "250 kroner"),
        ("no", "treogtyve Aar", "23 Aar"),
        # Danish, read as Norwegian: its tens in scores, short and long, its "otte", "hundrede" and "tusind"
        ("no", "halvtreds Aar, tres Dage og firs Mand", "50 Aar, 60 Dage og 80 Mand"),
        ("no", "otteoghalvfjerds, femogfyrre", "78, 45"),
        ("no", "halvtredsindstyve Rigsdaler, fyrretyve Dage", "50 Rigsdaler, 40 Dage"),
        ("no", "to hundrede og halvtreds Kroner, tre tusind", "250 Kroner, 3000"),
        ("no", "tohundrede Daler", "200 Daler"),
        ("ro", "două sute cincizeci de lei", "250 de lei"),
        ("ro", "trei mii de oameni, un milion", "3000 de oameni, 1000000"),
        ("ro", "douăzeci şi cinci", "25"),
        ("pl", "po dwudziestu pięciu latach", "po 25 latach"),
        ("pl", "dwieście pięćdziesiąt złotych, dwustu ludzi", "250 złotych, 200 ludzi"),
        ("pl", "pięć tysięcy rubli", "5000 rubli"),
        ("cs", "před pětadvaceti lety", "před 25 lety"),
        ("cs", "dvě stě padesát korun, pět set", "250 korun, 500"),
        ("cs", "dvaceti pěti, tři tisíce", "25, 3000"),
        ("hu", "kétszázötven forint", "250 forint"),
        ("hu", "ezerkilencszáznegyvennyolc, háromezer ember", "1948, 3000 ember"),
        ("hu", "huszonöt év, harminckét katona", "25 év, 32 katona"),
    ],
)
def test_a_spelled_number_and_its_digits_give_one_term(language, spelled, typed):
    analyzer = analyzer_for(language)
    assert analyzer.tokenize(spelled) == analyzer.tokenize(typed)
    assert any(term.isdigit() and len(term) > 1 for term in analyzer.tokenize(spelled))


@pytest.mark.parametrize("language", sorted(SMALL))
def test_every_cardinal_of_one_to_ninety_nine_reads_as_its_value(language):
    analyzer = analyzer_for(language)
    # a value one of whose words is a stop word ("one", "два") stays a word when written as one word
    stop_values = {value for form, value in SMALL[language].items() if analyzer._stop_word(form)}
    misread = {
        form: words(form, language)
        for form, value in SMALL[language].items()
        if words(form, language) != [str(value)] and not (value in stop_values and " " not in form)
    }
    assert not misread
    assert all(
        words(form, language) == [form]
        for form, value in SMALL[language].items()
        if value in stop_values and " " not in form and "-" not in form
    )


def test_french_hundreds_and_thousands_built_from_every_cardinal():
    for n in range(1, 100):
        assert words(f"{french_cardinal(n)} mille", "fr") == [str(n * 1000)]
    for h in range(2, 10):
        assert words(f"{french_cardinal(h)} cents", "fr") == [str(h * 100)]
        assert words(f"{french_cardinal(h)} cent {french_cardinal(h + 10)}", "fr") == [str(h * 100 + h + 10)]


@pytest.mark.parametrize(
    "language, text, expected",
    [
        ("es", "doscientos cincuenta, mil quinientos", ["250", "1500"]),  # a mark ends a number
        ("en", "twenty, three of them", ["20", "3", "of", "them"]),
        ("en", "one of them", ["one", "of", "them"]),  # a stop word alone stays a word
        ("it", "sei tu", ["sei", "tu"]),
        ("fr", "un chapitre un peu long", ["un", "chapitre", "un", "peu", "long"]),  # an article alone too
        ("en", "a hundred men", ["100", "men"]),  # but before a hundred it is one
        ("en", "millions of men and two millions", ["millions", "of", "men", "and", "2000000"]),
        ("ru", "тысячи людей, тысячу раз", ["тысячи", "людей", "1000", "раз"]),
        ("ru", "двух носильщиков, двадцати двух", ["двух", "носильщиков", "22"]),  # "два" is a stop word
        ("de", "ein Dreieck und Tausende", ["ein", "dreieck", "und", "tausende"]),
        ("it", "un accento", ["un", "accento"]),
        ("fr", "deux cents et trois", ["200", "et", "3"]),  # French joins with "et" after a thousand only
        ("fr", "mille et un", ["1001"]),
        ("sv", "ett hus, ett tusen år, etthundra", ["ett", "hus", "1000", "år", "100"]),  # "ett" alone: an article
        ("no", "ett hus og to hundre og ett år", ["ett", "hus", "og", "201", "år"]),
        ("ro", "mie îmi place, o mie de ani", ["mie", "îmi", "place", "o", "mie", "de", "ani"]),  # "mie": "to me"
        ("pl", "tysiące ludzi, dwa tysiące", ["tysiące", "ludzi", "2000"]),  # "tysiące" follows a number only
        ("cs", "s dvěma bratry a třemi sestrami", ["s", "2", "bratry", "a", "3", "sestrami"]),
        ("hu", "egy ember, egy millió, százados", ["egy", "ember", "1000000", "százados"]),  # "százados": a captain
    ],
)
def test_what_is_and_is_not_a_number(language, text, expected):
    assert words(text, language) == expected


def test_digit_groups_join_and_decimals_stay_apart():
    assert join_digit_groups("20,000 and 20 000 and 1.000.000") == "20000 and 20000 and 1000000"
    assert join_digit_groups("3,5 and 1848 100 and 12, 345") == "3,5 and 1848 100 and 12, 345"


def test_chinese_and_japanese_keep_their_own_reading_of_numbers():
    assert "500" not in analyzer_for("zh").tokenize("五百两 500两")
    assert analyzer_for("ja").tokenize("五百円") == analyzer_for("ja").tokenize("500円")


def test_plain_bm25_keeps_spelled_numbers_as_words():
    assert plain_analyzer("fr").tokenize("vingt mille livres") == ["vingt", "mill", "livr"]
    assert analyzer_for("fr").tokenize("vingt mille livres") == ["20000", "livr"]


def test_a_question_typed_with_digits_finds_the_paragraph_that_spells_them():
    paragraphs = [
        "Phileas Fogg paria vingt mille livres avec ses collègues du Reform-Club.",
        "Les livres de la bibliothèque du club restaient fermés ce soir-là.",
        "Il avait déposé cinq mille livres chez Baring frères, et il en emporta autant.",
        "Passepartout compta les livres sterling dans le sac de voyage.",
    ]
    index = BM25Index.from_texts(paragraphs, "fr")
    assert int(np.argmax(index.scores("Combien Fogg a-t-il parié : 20 000 livres ?"))) == 0
    assert int(np.argmax(index.scores("Quelle somme de 5.000 livres a-t-il déposée ?"))) == 2


@pytest.mark.parametrize(
    "language, text, numbers",
    [
        ("en", "A hundred and fifty, or a fifty-dollar silk?", [("A hundred and fifty", 150), ("fifty", 50)]),
        ("en", "the twenty-first day, a 24-hour dial, 3,000 men", []),  # an ordinal; digits are typed, not spelled
        ("fr", "Il paria vingt mille livres, mille et une fois", [("vingt mille", 20000), ("mille et une", 1001)]),
        ("ru", "из ста тысяч франков", [("ста тысяч", 100000)]),
    ],
)
def test_spelled_numbers_are_found_as_the_text_writes_them(language, text, numbers):
    assert spelled_numbers(text, language) == numbers


def test_the_frozen_digits_set_is_as_committed_and_types_what_its_gold_paragraphs_spell():
    assert frozen_digest(DIGITS_FROZEN_FILE) == DIGITS_FROZEN_SHA256
    checks = load_multihop_checks(shared_path(), checks_path=DIGITS_FROZEN_FILE)
    assert len(checks) == 24 and len({check.book for _, check in checks}) == 10
    for narrative, check in checks:
        typed = {number.replace(",", "") for number in re.findall(r"\d[\d,]*", check.question.text)}
        gold = " ".join(narrative[i].text for i in check.gold_ids)
        assert typed and not any(re.search(rf"(?<!\d){number}(?!\d)", gold.replace(",", "")) for number in typed)
