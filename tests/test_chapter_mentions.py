"""A question that names a chapter ("in chapter 5", "第五回中", "в главе 3"): the mention is read in
every book language, resolved against the book's chapter labels, read first by retrieval, left out
of its queries, and a chapter the book lacks or the reader has not reached is a warning."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.benchmarks.checks import load_bundled_book
from clueweaver.books.cardinals import CARDINAL_WORDS, cardinal_value
from clueweaver.books.chapter_labels import chapters_text
from clueweaver.books.chapter_mentions import LAST, _patterns_by_unit, chapter_mentions, unit_kind
from clueweaver.books.named_chapters import (
    chapters_named,
    chapters_titled,
    counted_mentions,
    title_pieces,
    without_chapter_mentions,
)
from clueweaver.books.narrative import NarrativeError, from_paragraphs, from_text, load_narrative
from clueweaver.books.numerals import chinese_numeral
from clueweaver.evaluation.retrieval import GoldItem
from clueweaver.measure.recall import naming_chapters
from clueweaver.pipeline import ClueWeaver, PipelineConfig, format_result
from clueweaver.protocol.question import Question
from clueweaver.retrieval import build_index
from clueweaver.retrieval.ranking import spread
from clueweaver.segments.segmenter import NoMatchError, get_preset, segment_narrative
from clueweaver.sources.base import SourceRequest
from clueweaver.sources.registry import candidate_segments


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("In chapter 5, why does Jo cut her hair?", [(5,)]),
        ("What happens in Chapter XII and in chapters 3 and 7?", [(12,), (3, 7)]),
        ("the fifth chapter", [(5,)]),
        ("chapters five and six", [(5, 6)]),
        ("第五回中，贾宝玉梦到了哪里？", [(5,)]),
        ("第一百零五回和第3章", [(105, 3)]),
        ("第二十回到第二十二回，第三、四回，第30-32回", [(20, 21, 22), (3, 4), (30, 31, 32)]),
        ("第三、四、五回，第八、十至十二回，第1、2、3話", [(3, 4, 5), (8, 10, 11, 12), (1, 2, 3)]),  # lists of three
        ("終章で、终章里，始終章を読む", [(LAST,), (LAST,)]),  # the last chapter; 始終 is "always"
        ("第二十回で", [(20,)]),
        ("Au chapitre V, puis au chapitre premier", [(5,), (1,)]),
        ("Im dritten Kapitel und im 12. Kapitel", [(3,), (12,)]),
        ("Im XX. Kapitel des II. Teils", [(20,), (2,)]),  # a Roman ordinal's point, as German writes it
        ("En el capítulo 4 y en los capítulos 7 a 9", [(4,), (7, 8, 9)]),
        ("En los capítulos 20 al 22, en el capítulo 3 al final", [(20, 21, 22), (3,)]),  # "al": a range's
        ("Nel capitolo XXIII", [(23,)]),
        ("No capítulo 2", [(2,)]),
        ("В главе 3 и в пятой главе", [(3,), (5,)]),
        ("в гл. 20 и в гл. XX–XXII", [(20,), (20, 21, 22)]),  # as scholars cite
        ("Во втором томе, в третьем томе и в двадцать первой главе", [(2,), (3,), (21,)]),  # masculine too
        ("στο κεφάλαιο 4", [(4,)]),
        ("In the final chapter, and in the last chapter", [(LAST,), (LAST,)]),
        ("最后一回中和最終章で", [(LAST,), (LAST,)]),
        ("au dernier chapitre, im letzten Kapitel, en el último capítulo", [(LAST,), (LAST,), (LAST,)]),
        ("в последней главе; Глава последняя", [(LAST,), (LAST,)]),
        ("W rozdziale 5 i w piątym rozdziale; rozdziały 3 i 4; w ostatnim rozdziale", [(5,), (5,), (3, 4), (LAST,)]),
        ("w rozdz. 20", [(20,)]),
        ("I femte kapitlet, i kapitel 3 till 5 och i sista kapitlet", [(5,), (3, 4, 5), (LAST,)]),
        ("V kapitole 5, v páté kapitole, kapitoly 3 až 5 a v poslední kapitole", [(5,), (5,), (3, 4, 5), (LAST,)]),
        (
            "Az 5. fejezetben, a harmadik fejezetben, a 3. és 4. fejezetben, az I. fejezetben",
            [(5,), (3,), (3, 4), (1,)],
        ),
        ("I femte kapittel, i kapittel 3 til 5 og i siste kapittel", [(5,), (3, 4, 5), (LAST,)]),
        (
            "În capitolul 5, în capitolul al doilea, capitolele 3 și 4, în ultimul capitol",
            [(5,), (2,), (3, 4), (LAST,)],
        ),
        ("제3장에서 정희는? 3장에서, 제삼장의, 10장", [(3,), (3,), (3,), (10,)]),
        ("3~5장에서, 3장부터 5장까지, 제3장과 제7장에서, 3, 4장에서", [(3, 4, 5), (3, 4, 5), (3, 7), (3, 4)]),
        ("두 번째 장에서, 첫째 장, 첫 장에서, 12번째 장", [(2,), (1,), (1,), (12,)]),
        ("마지막 장에서, 끝에서 두 번째 장, 처음 세 장에서, 마지막 두 장", [(LAST,), (-2,), (1, 2, 3), (-2, LAST)]),
        # digits before 章 without 第, as a Japanese or Chinese question may write them
        ("12章で何が起きたか。3章から5章まで、１２章の最後", [(12,), (3, 4, 5), (12,)]),
        ("在12章里，3～5章中，7—9章", [(12,), (3, 4, 5), (7, 8, 9)]),
        # a Japanese counter's ordinal: 章目 and 話目 are the n-th chapter, 回目 the n-th time
        ("三章目で、3話目で、二回目の訪問で", [(3,), (3,)]),
    ],
)
def test_chapter_mentions_are_read_in_every_book_language(text, numbers):
    assert [m.numbers for m in chapter_mentions(text)] == numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("Au chapitre cinq, que fait Fogg ?", [(5,)]),
        ("Au chapitre vingt et un, puis aux chapitres soixante-douze et quatre-vingt-dix-neuf", [(21,), (72, 99)]),
        ("Im Kapitel fünf und in den Kapiteln dreiundzwanzig bis fünfundzwanzig", [(5,), (23, 24, 25)]),
        ("¿Qué pasa en el capítulo dos y en el capítulo treinta y dos?", [(2,), (32,)]),
        ("En los capítulos dos y tres", [(2, 3)]),
        ("Nel capitolo ventitré e nei capitoli tre-cinque", [(23,), (3, 4, 5)]),
        ("No capítulo vinte e três, e no capítulo dezasseis", [(23,), (16,)]),
        ("В главе пять, а потом в главах двадцать пять и двадцать шесть", [(5,), (25, 26)]),
        ("Im zweiten Teil, Kapitel drei; Teil zwei; la partie deux", [(2,), (3,), (2,), (2,)]),
        ("Capítulo uno, Kapitel eins, capitolo uno", [(1,), (1,), (1,)]),
        ("Στο κεφάλαιο πέντε και στα κεφάλαια είκοσι εφτά και είκοσι οκτώ", [(5,), (27, 28)]),
        ("Co się dzieje w rozdziale trzy, a co w rozdziale dwadzieścia jeden?", [(3,), (21,)]),
        ("Vad händer i kapitel tre och i kapitel tjugotvå? I kapitel ett?", [(3,), (22,), (1,)]),
        ("Hva skjer i kapittel fem og i kapittel tjueto? I kapittel treogtyve?", [(5,), (22,), (23,)]),
        # Danish, read as Norwegian ("kapitel tre og fire" is Swedish's "kapitel tre" first: one chapter)
        ("Hvad sker der i kapitel fire, i kapitlerne tre og fire og i kapitel halvtreds?", [(4,), (3, 4), (50,)]),
        ("Co se stane v kapitole tři, v kapitole dvacet pět a v kapitole pětadvacet?", [(3,), (25,), (25,)]),
        ("Ce se întâmplă în capitolul trei și în capitolul douăzeci şi unu?", [(3,), (21,)]),
        ("Wat gebeurt er in hoofdstuk drie en in hoofdstuk drieëntwintig? En in hoofdstuk één?", [(3,), (23,), (1,)]),
    ],
)
def test_cardinal_numbers_after_the_chapter_word_are_read_in_its_language(text, numbers):
    assert [m.numbers for m in chapter_mentions(text)] == numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("Au chapitre vingt et unième, au chapitre vingt-deuxième", [(21,), (22,)]),
        ("в главе двадцать первой и в сорок второй главе", [(21,), (42,)]),
        ("Capitolo ventesimo secondo; capítulo vigésimo primero", [(22,), (21,)]),
    ],
)
def test_an_ordinal_of_several_words_after_the_chapter_word_is_one_number(text, numbers):
    # "vingt-deuxième" was cut at its hyphen and read as nothing; "двадцать первой" must not be 20
    assert [m.numbers for m in chapter_mentions(text)] == numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("in the twenty-third chapter; in the twenty first chapter", [(23,), (21,)]),
        ("dans le vingt-troisième chapitre, au chapitre vingt-troisième", [(23,), (23,)]),
        ("en el vigésimo tercer capítulo", [(23,)]),
        ("the twenty-second and twenty-third chapters; the second and third chapters", [(22, 23), (2, 3)]),
        ("im zweiundzwanzigsten und dreiundzwanzigsten Kapitel; im 3.-5. Kapitel", [(22, 23), (3, 4, 5)]),
        ("aux chapitres vingt-deuxième et vingt-troisième", [(22, 23)]),
        ("au chapitre vingt-deuxième et au chapitre vingt-troisième", [(22,), (23,)]),
        ("the third to fifth chapters; the first and last chapters", [(3, 4, 5), (1, LAST)]),
        ("στο εικοστό τρίτο κεφάλαιο, του δέκατου τρίτου κεφαλαίου", [(23,), (13,)]),
        ("Book the Third, chapter the twenty-third; Chapter the Last", [(3,), (23,), (LAST,)]),
        ("au troisième et au quatrième chapitre; nel terzo e nel quarto capitolo", [(3, 4), (3, 4)]),
        (
            "im dritten und im vierten Kapitel; in the third and the fourth chapter; nel cap. III",
            [(3, 4), (3, 4), (3,)],
        ),
    ],
)
def test_ordinals_of_several_words_and_lists_of_ordinals_before_the_chapter_word(text, numbers):
    # "twenty-third chapter" had been read as chapter 3 ("third chapter"), "vingt-troisième chapitre" too,
    # and "au chapitre vingt-troisième" as chapter 20; a list before the word read its last ordinal only
    assert [m.numbers for m in chapter_mentions(text)] == numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("in the 23rd chapter, the 1st chapter, the 2nd and 3rd chapters", [(23,), (1,), (2, 3)]),
        ("au 23e chapitre, le 1er chapitre, le XXIIIe chapitre", [(23,), (1,), (23,)]),
        ("au chapitre Ier, au chapitre 1er, aux chapitres IIe et IIIe", [(1,), (1,), (2, 3)]),
        ("en el 23º capítulo, el capítulo 23º, no 2.º capítulo", [(23,), (23,), (2,)]),
        ("il 23° capitolo", [(23,)]),
        ("в 23-й главе; в 23-й и 24-й главах", [(23,), (23, 24)]),
    ],
)
def test_ordinals_written_in_digits_are_read(text, numbers):
    assert [m.numbers for m in chapter_mentions(text)] == numbers


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("In the penultimate chapter and the second-to-last chapter", [(-2,), (-2,)]),
        ("l'avant-dernier chapitre, im vorletzten Kapitel, el penúltimo capítulo", [(-2,), (-2,), (-2,)]),
        ("в предпоследней главе; 倒数第二回", [(-2,), (-2,)]),
        ("In the opening chapter; in the closing chapter", [(1,), (LAST,)]),
        ("le chapitre final, il capitolo finale, в заключительной главе", [(LAST,), (LAST,), (LAST,)]),
        ("In the first three chapters and the last two chapters", [(1, 2, 3), (-2, -1)]),
        ("les trois premiers chapitres; les deux derniers chapitres", [(1, 2, 3), (-2, -1)]),
        ("in den ersten drei Kapiteln; en los dos últimos capítulos", [(1, 2, 3), (-2, -1)]),
        ("nei primi tre capitoli; os dois últimos capítulos", [(1, 2, 3), (-2, -1)]),
        ("в первых трёх главах; в последних двух главах", [(1, 2, 3), (-2, -1)]),
        ("前五回中，最后三回里，最初の三章", [(1, 2, 3, 4, 5), (-3, -2, -1), (1, 2, 3)]),
        ("In chapter twenty-one; chapters twenty-one to twenty-three", [(21,), (21, 22, 23)]),
        ("В главе третьей и в XII главе", [(3,), (12,)]),
    ],
)
def test_chapters_counted_from_either_end_and_spelled_numbers_are_read(text, numbers):
    assert [m.numbers for m in chapter_mentions(text)] == numbers


@given(st.integers(min_value=2, max_value=200))
def test_a_count_of_first_or_last_chapters_names_that_many(count):
    first, last = tuple(range(1, count + 1)), tuple(range(-count, 0))
    for text, numbers in (
        (f"In the first {count} chapters", first),
        (f"dans les {count} derniers chapitres", last),
        (f"前{chinese_numeral(count)}章中", first),
        (f"最后{count}回", last),
    ):
        assert [m.numbers for m in chapter_mentions(text)] == [numbers]
    assert [m.numbers for m in chapter_mentions(f"后{chinese_numeral(count)}回")] == ([last] if count >= 5 else [])


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("In Part II, and in the second part", [(2,), (2,)]),
        ("Book 3; Livre III; la deuxième partie", [(3,), (3,), (2,)]),
        ("第二卷中，最后一卷", [(2,), (LAST,)]),
        ("卷二十七里，卷27中；巻三で", [(27,), (27,), (3,)]),  # a history's 卷 cited with its number after
        ("卷二至卷五讲了什么？卷八到卷九十", [(2, 3, 4, 5), (8, 90)]),  # a range; a long one is its two ends
        ("im zweiten Teil; во второй части; Том 2", [(2,), (2,), (2,)]),
    ],
)
def test_parts_are_read_as_chapters_are(text, numbers):
    mentions = chapter_mentions(text)
    assert [m.numbers for m in mentions] == numbers and all(m.part for m in mentions)


@pytest.mark.parametrize("text", ["In the first book he read", "in part because", "zum Teil 3 Leute"])
def test_words_that_name_no_part_are_no_mention(text):
    """In a book with parts; "the first book" is a part only where the book heads its units with "book"."""
    in_parts = from_text("PART I\n\nCHAPTER 1\n\nThe keeper lit the lantern.", title="t", gutenberg=False)
    assert counted_mentions(in_parts.chapters, text) == []


def test_a_part_names_its_chapters_and_a_chapter_named_with_its_part_is_that_parts():
    parts = []
    for part in (1, 2):
        parts.append(f"PART {part}")
        for chapter in (1, 2, 3):
            parts += [
                f"CHAPTER {chapter}",
                *(f"Part {part}, chapter {chapter}, line {k}: the gulls." for k in range(4)),
            ]
    narrative = from_text("\n\n".join(parts), title="parts", gutenberg=False)

    def named(text):
        found, missing = chapters_named(narrative.chapters, text)
        return [c.label for c in found], missing

    assert named("In Part 2, what happens?") == (["2.1", "2.2", "2.3"], [])
    assert named("In part 2, chapter 3, who came?") == (["2.3"], [])
    assert named("In chapter 3, who came?") == (["1.3", "2.3"], [])  # every part's third
    assert named("In the last part, and in part 3?") == (["2.1", "2.2", "2.3"], ["part 3"])
    assert named("In the second part of the letter, who writes?") == (["2.1", "2.2", "2.3"], [])
    flat = _book()  # no parts: "the second part" of a letter is the letter's; "Part 2" names one the book lacks
    assert chapters_named(flat.chapters, "In the second part of the letter, who writes?") == ([], [])
    assert chapters_named(flat.chapters, "In Part 2, who writes?") == ([], ["part 2"])


def _two_parts():
    lines = []
    for part in ("PREMIÈRE PARTIE", "DEUXIÈME PARTIE"):
        lines.append(part)
        for chapter in ("I", "II", "III"):
            lines += [
                f"CHAPITRE {chapter}",
                *(f"{part}, chapitre {chapter}, ligne {k} : les mouettes." for k in range(4)),
            ]
    return from_text("\n\n".join(lines), title="parties", gutenberg=False)


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("What happens in the last chapter of part 1?", ["1.3"]),
        ("Que se passe-t-il au dernier chapitre de la première partie ?", ["1.3"]),
        ("Was geschieht im letzten Kapitel des ersten Teils?", ["1.3"]),
        ("Что происходит в последней главе первой части?", ["1.3"]),
        ("Что происходит в третьей главе второй части?", ["2.3"]),  # "второй" is the part's, not chapter 2
        ("Was geschieht im zweiten Kapitel des zweiten Teils?", ["2.2"]),
        ("Τι γίνεται στο τελευταίο κεφάλαιο του πρώτου μέρους;", ["1.3"]),  # "μέρους" was no part
        ("Co się dzieje w ostatnim rozdziale pierwszej części?", ["1.3"]),  # "pierwszej" is the part's
        ("Co se stane v poslední kapitole první části?", ["1.3"]),
        # the chapter's number before the part's word and the part's own number: "3" is the chapter's
        ("Co się dzieje w rozdziale 3 części 1?", ["1.3"]),
        ("Что происходит в главе третьей части второй?", ["2.3"]),
        ("Что происходит в главе 3 части 2?", ["2.3"]),
        ("Wat gebeurt er in het laatste hoofdstuk van het eerste deel?", ["1.3"]),  # Dutch: no part, no "laatste"
        ("Wat gebeurt er in hoofdstuk 3 van deel 2?", ["2.3"]),
        ("Vad händer i sista kapitlet i första delen?", ["1.3"]),
        ("Part 1, the first chapter: who comes?", ["1.1"]),
        # said apart, each names what it names alone: the book's last chapter, and the first part
        ("How does the last chapter answer what part 1 asked?", ["2.3", "1.1", "1.2", "1.3"]),
    ],
)
def test_a_chapter_said_with_its_part_is_that_parts_in_every_language(text, labels):
    """ "the last chapter of part 1" named the book's last chapter and all of part 1; "im dritten Kapitel des
    zweiten Teils" did not read the part's genitive, and "в третьей главе второй части" read chapter 2."""
    assert [c.label for c in chapters_named(_two_parts().chapters, text)[0]] == labels


def test_a_chapter_is_named_by_the_label_clueweaver_prints_and_as_scholars_cite_it():
    """ "chapter 2.3" named every part's second chapter; "II.3", a part's Roman numeral and a chapter's number,
    named nothing. Both leave the query; a label the book lacks is no mention."""
    book = _two_parts().chapters
    for text in ("In chapter 2.3, who comes?", "Au chapitre 2.3, qui vient ?", "In II.3, who comes?"):
        assert chapters_named(book, text) == ([c for c in book if c.label == "2.3"], [])
        assert "3" not in without_chapter_mentions(text, book)
    assert chapters_named(book, "In chapter 4.2, who comes?") == ([], ["chapter 4"])  # no 4.2: its chapter 4, lacked
    assert chapters_named(book, "In II.7, who comes?") == ([], [])
    assert without_chapter_mentions("Charles II.7 was king", book) == "Charles II.7 was king"


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("What had happened before chapter 4?", 1, 3),
        ("By chapter 4, who has died?", 1, 4),
        ("After chapter 9, who leaves?", 10, 12),
        ("From chapter 9 onwards, who leads?", 9, 12),
        ("Que s'est-il passé avant le chapitre 4 ?", 1, 3),
        ("Was geschieht nach dem neunten Kapitel?", 10, 12),
        ("Wer stirbt bis zum Kapitel 4?", 1, 4),
        ("¿Qué ocurre después del capítulo 9?", 10, 12),
        ("Cosa succede prima del capitolo 4?", 1, 3),
        ("O que acontece a partir do capítulo 9?", 9, 12),
        ("Что случилось до главы 4?", 1, 3),
        ("Что происходит после главы 9?", 10, 12),
        ("第四回之前发生了什么？", 1, 3),
        ("第九回以后谁离开了？", 10, 12),
        ("从第九回起谁当家？", 9, 12),
        ("到第四回为止谁死了？", 1, 4),
        ("第四章までに誰が死んだか", 1, 4),
        ("第九章以降、誰が去ったか", 9, 12),
        ("9장 이후에 누가 떠났나?", 10, 12),
        ("4장까지 누가 죽었나?", 1, 4),
    ],
)
def test_a_chapter_named_as_a_bound_names_the_chapters_on_its_side(text, first, last):
    """ "before chapter 4" had read chapter 4 first, the one chapter the question is not about; the bound's words
    leave the query with the mention."""
    book = _book(12).chapters
    assert chapters_named(book, text) == (book[first - 1 : last], [])
    bounds = ("before", "avant", "之前", "まで", "이후")
    assert not any(word in without_chapter_mentions(text, book) for word in bounds)


@pytest.mark.parametrize(
    "text",
    [
        "From chapter 3 to chapter 5, who travels?",
        "From Chapter III to Chapter V, who travels?",
        "Between chapter 3 and chapter 5, who travels?",
        "Du chapitre 3 au chapitre 5, qui voyage ?",
        "Entre le chapitre 3 et le chapitre 5, qui voyage ?",
        "Von Kapitel 3 bis Kapitel 5, wer reist?",
        "Zwischen Kapitel 3 und Kapitel 5, wer reist?",
        "Vom dritten bis zum fünften Kapitel, wer reist?",
        "Desde el capítulo 3 hasta el capítulo 5, ¿quién viaja?",
        "Del capítulo 3 al capítulo 5, ¿quién viaja?",
        "Dal capitolo 3 al capitolo 5, chi viaggia?",
        "Tra il capitolo 3 e il capitolo 5, chi viaggia?",
        "Do capítulo 3 ao capítulo 5, quem viaja?",
        "С главы 3 по главу 5 кто путешествует?",
        "От главы 3 до главы 5 кто путешествует?",
        "Между главой 3 и главой 5 кто путешествует?",
        "Между 3 и 5 главами кто путешествует?",
        "Od rozdziału 3 do rozdziału 5, kto podróżuje?",
        "Od trzeciego do piątego rozdziału, kto podróżuje?",  # Polish ordinals in the genitive
        "Кто путешествует в главах 3—5?",  # an em dash between digits
        "In chapters 3 thru 5, who travels?",
    ],
)
def test_a_stretch_said_by_its_two_ends_names_every_chapter_between(text):
    """ "From chapter 3 to chapter 5" named chapters 3 and 5, not 4; "Von Kapitel 3 bis Kapitel 5" 1 to 5 and "От
    главы 3 до главы 5" 1 to 4 (the second end read as a bound alone); "Между 3 и 5 главами" none."""
    book = _book(12).chapters
    assert chapters_named(book, text) == (book[2:5], [])
    assert not any(char.isdigit() for char in without_chapter_mentions(text, book))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("How does chapter 3 lead to chapter 5?", [3, 5]),  # no word before the first end: two chapters
        ("Compare chapter 3 and chapter 5.", [3, 5]),
        ("From chapter 5 to chapter 3, who returns?", [5, 3]),  # no stretch runs backwards
        ("From chapter 10 to the last chapter, who dies?", [10, 11, 12]),
        ("Что было в 3 и 4 главах?", [3, 4]),
        ("В 3 главах кто-то умер?", []),  # a count of chapters
    ],
)
def test_two_chapters_said_apart_name_each(text, named):
    book = _book(12).chapters
    assert chapters_named(book, text) == ([book[n - 1] for n in named], [])


def test_a_reading_limit_is_taken_as_a_question_names_the_chapter():
    """--max-chapter '第十回' was refused as "no chapter 第十回"; two chapters apart are still no limit."""
    book = _book(12)
    for limit in ("chapter 10", "Chapter X", "第十回", "im 10. Kapitel", "before chapter 11", "10"):
        assert book.chapter_limit(limit) == 10
    for refused in ("chapter 13", "chapters 3 and 5"):
        with pytest.raises(NarrativeError, match=f"no chapter {refused}"):
            book.chapter_limit(refused)


def test_notes_name_a_run_of_chapters_by_its_ends():
    """ "after chapter 100" in 红楼梦 names twenty chapters: the note says "chapters 101-120", not each."""
    assert chapters_text(["5"]) == "chapter 5" and chapters_text(["2", "5"]) == "chapters 2, 5"
    assert chapters_text([str(n) for n in range(101, 121)]) == "chapters 101-120"
    assert chapters_text(["1.5", "2.5", "3.5"]) == "chapters 1.5, 2.5, 3.5"
    assert chapters_text(["1", "2"]) == "chapters 1-2"  # the book's first chapters, as its labels were always given


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("In the second half of the novel, who dies?", 7, 12),
        ("In the first half of the book, who arrives?", 1, 6),
        ("Qui meurt dans la seconde moitié du roman ?", 7, 12),
        ("Wer stirbt in der ersten Hälfte des Romans?", 1, 6),
        ("Кто умирает во второй половине романа?", 7, 12),
        ("¿Quién muere en la primera mitad de la novela?", 1, 6),
        ("Chi muore nella seconda metà del romanzo?", 7, 12),
        ("后半部中谁死了？", 7, 12),
        ("物語の後半で誰が死ぬか", 7, 12),
    ],
)
def test_a_half_of_the_book_names_its_chapters(text, first, last):
    book = _book(12).chapters
    assert chapters_named(book, text) == (book[first - 1 : last], [])
    assert not any(word in without_chapter_mentions(text, book) for word in ("half", "moitié", "Hälfte", "后半部"))


@pytest.mark.parametrize(
    ("text", "named"),
    [("Who took half of the money?", []), ("the second half of chapter 9", [9]), ("第九章の後半で", [9])],
)
def test_half_of_something_else_names_no_half_of_the_book(text, named):
    book = _book(12).chapters
    assert chapters_named(book, text) == ([book[n - 1] for n in named], [])


@pytest.mark.parametrize(
    "text",
    [
        "A line from chapter 9 says what?",
        "第九回开始时，谁来了？",
        "In chapter 9, what came before the storm?",
        "What does Jo do after chapter 9's quarrel?",  # the bound is the quarrel's, in chapter 9
    ],
)
def test_a_chapter_said_plainly_is_no_bound(text):
    """ "from chapter 9" alone quotes it; "第九回开始时" is at chapter 9's start; a bound's word elsewhere is a
    word."""
    book = _book(12).chapters
    assert chapters_named(book, text) == ([book[8]], [])


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("Who comes between chapters 3 and 7?", 3, 7),
        ("Qui vient entre les chapitres 3 et 7 ?", 3, 7),
        ("Wer kommt zwischen Kapitel 3 und 7?", 3, 7),
        ("Кто приходит между главами 3 и 7?", 3, 7),
        ("第三回和第七回之间谁来了？", 3, 7),
        ("3장과 7장 사이에서 누가 왔나?", 3, 7),
        ("Who comes after chapter 3 and before chapter 7?", 4, 6),  # the two bounds together
    ],
)
def test_two_chapters_said_as_a_stretchs_ends_name_the_stretch(text, first, last):
    """ "between chapters 3 and 7" named chapters 3 and 7 alone; "after chapter 3 and before chapter 7" named every
    chapter, the union of the two sides."""
    book = _book(12).chapters
    assert chapters_named(book, text) == (book[first - 1 : last], [])


@pytest.mark.parametrize(
    "text", ["3장부터 5장까지 누가 왔나?", "第三章から第五章までに誰が来たか", "从第三回到第五回为止，谁来了？"]
)
def test_a_range_with_its_ends_words_is_the_range(text):
    """ "3장부터 5장까지" is chapters 3 to 5: its "까지" (up to) closes the range, not a bound from chapter 1."""
    book = _book(12).chapters
    assert chapters_named(book, text) == (book[2:5], [])


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("am Ende des dritten Kapitels", [((3,), False)]),
        ("des ersten Buches", [((1,), True)]),
        ("im dritten Kapitel des siebten Teils", [((3,), False), ((7,), True)]),
        ("в третьей главе седьмой части", [((3,), False), ((7,), True)]),
        ("в главе седьмой", [((7,), False)]),
        ("teils aus Angst, teils 3 Tage", []),
    ],
)
def test_german_genitives_and_a_russian_parts_ordinal_after_the_chapter_word(text, numbers):
    assert [(m.numbers, m.part) for m in chapter_mentions(text)] == numbers


def test_a_volume_after_its_ordinal_names_the_volume_a_book_heads_so():
    """ "im zweiten Band" named nothing ("Band" was read before a number only); it counts, as "the ninth book" does,
    only in a book that heads its parts "Band"."""
    lines = []
    for volume in ("Erster Band", "Zweiter Band"):
        lines.append(volume)
        for chapter in ("Erstes Kapitel", "Zweites Kapitel"):
            lines += [chapter, *(f"{volume}, {chapter}, Zeile {k}: die Möwen." for k in range(4))]
    volumes = from_text("\n\n".join(lines), title="Bände", gutenberg=False).chapters
    assert [c.label for c in chapters_named(volumes, "Was geschieht im zweiten Band?")[0]] == ["2.1", "2.2"]
    assert [c.label for c in chapters_named(volumes, "im ersten Kapitel des zweiten Bandes")[0]] == ["2.1"]
    assert counted_mentions(_book().chapters, "Das zweite Band war rot") == []  # a ribbon, in a book without volumes


def _sectioned(headings: list[str], sections: list[str], line: str) -> list:
    """A book whose chapters, headed in words, are cut into numbered sections (labels 1.1, 1.2, ...)."""
    paragraphs = []
    for heading in headings:
        paragraphs.append(heading)
        for section in sections:
            paragraphs += [section, *(line.format(heading, section, k) for k in range(3))]
    return from_text("\n\n".join(paragraphs), title="sections", gutenberg=False).chapters


def test_a_chapter_cut_into_sections_is_named_whole_by_its_headings_word():
    """ "第二章" in a book headed "第二章 发展", then "一", "二", "三", is the second chapter with its sections, not
    every chapter's second section; "第三节" (a section) is every chapter's third, as a part's is."""
    line = "{}{}的第{}段：海鸥在港口上空盘旋，一切都很安静。"
    chinese = _sectioned(["第一章 开端", "第二章 发展", "第三章 结局"], ["一", "二", "三"], line)
    russian = _sectioned(["Глава первая", "Глава вторая"], ["I", "II"], "{} {}, строка {}: над гаванью кружили чайки.")

    def named(chapters, text):
        return [c.label for c in chapters_named(chapters, text)[0]]

    assert [c.label for c in chinese][:4] == ["1.1", "1.2", "1.3", "2.1"]
    assert named(chinese, "第二章里发生了什么？") == ["2.1", "2.2", "2.3"]
    assert named(chinese, "第三节里发生了什么？") == ["1.3", "2.3", "3.3"]
    assert named(russian, "Что случилось в главе 2?") == ["2.1", "2.2"]
    assert named(russian, "Что случилось во второй главе?") == ["2.1", "2.2"]


def test_a_chapter_cut_into_sections_is_named_whole_by_a_chapters_word_in_any_language():
    """ "In chapter 2" and "第二回" name the chapter headed "第二章 发展" with its sections, and "the last
    chapter" the last whole chapter; a part's heading ("ЧАСТЬ ВТОРАЯ") keeps naming every part's second."""
    line = "{}{}的第{}段：海鸥在港口上空盘旋，一切都很安静。"
    chinese = _sectioned(["第一章 开端", "第二章 发展", "第三章 结局"], ["一", "二", "三"], line)
    parts = _sectioned(["ЧАСТЬ ПЕРВАЯ", "ЧАСТЬ ВТОРАЯ"], ["I", "II"], "{} {}, строка {}: над гаванью кружили чайки.")

    def named(chapters, text):
        return [c.label for c in chapters_named(chapters, text)[0]]

    assert named(chinese, "What happens in chapter 2?") == ["2.1", "2.2", "2.3"]
    assert named(chinese, "Que se passe-t-il au chapitre 2 ?") == ["2.1", "2.2", "2.3"]
    assert named(chinese, "第二回里发生了什么？") == ["2.1", "2.2", "2.3"]
    assert named(chinese, "What happens in the last chapter?") == ["3.1", "3.2", "3.3"]
    assert named(chinese, "最后一章里发生了什么？") == ["3.1", "3.2", "3.3"]
    assert named(chinese, "第二节里发生了什么？") == ["1.2", "2.2", "3.2"]
    assert named(parts, "What happens in chapter 2?") == ["1.2", "2.2"]
    assert named(parts, "What happens in the last chapter?") == ["2.2"]


def test_a_section_said_with_its_chapter_is_that_chapters_section_alone():
    """ "第二章第二节" is the second chapter's second section, where "第二章" alone names the whole chapter and
    "第二节" every chapter's second section; a Japanese book's "第一節" under "第二章" is named so too
    ("第二章の第三節"), and a chapter said beside it is read as well."""
    line = "{}{}的第{}段：海鸥在港口上空盘旋，一切都很安静。"
    chinese = _sectioned(["第一章 开端", "第二章 发展", "第三章 结局"], ["一", "二", "三"], line)
    sections = ["第一節", "第二節", "第三節"]
    japanese = _sectioned(["第一章　旅", "第二章　町"], sections, "{}{}の{}：港の上を鴎が舞っていた。")

    def named(chapters, text):
        return [c.label for c in chapters_named(chapters, text)[0]]

    assert named(chinese, "第二章第二节里发生了什么？") == ["2.2"]
    assert named(chinese, "第二章第二节和第三章里发生了什么？") == ["2.2", "3.1", "3.2", "3.3"]
    assert [c.label for c in japanese] == ["1.1", "1.2", "1.3", "2.1", "2.2", "2.3"]
    assert named(japanese, "第二章の第三節で何が起きたか") == ["2.3"]
    assert named(japanese, "第二章で何が起きたか") == ["2.1", "2.2", "2.3"]
    korean = _sectioned(["제1장 여행", "제2장 도시"], ["제1절", "제2절"], "{} {}, {}: 항구 위로 갈매기가 날았다.")
    assert named(korean, "제2장 제2절에서 무슨 일이 있었나?") == ["2.2"] and named(korean, "제2장의 제1절") == ["2.1"]
    assert named(korean, "제2장에서") == ["2.1", "2.2"] and named(korean, "제2절에서") == ["1.2", "2.2"]
    assert named(korean, "노래를 2절까지 불렀다") == []  # a song's verses: a section is named with 제
    # a chapter without such sections is named alone: "第一节" is no chapter 1 beside it
    hui = from_paragraphs([t for n in "一二三" for t in (f"第{n}回", line.format(n, n, n))], title="t").chapters
    assert named(hui, "第二回第一节里发生了什么？") == ["2"]


@pytest.mark.parametrize(
    "text",
    [
        "第二天，他又来了",
        "nel capitolo di Renzo",
        "Which chapter tells it?",
        "Each. 5 men",
        "a chapter of accidents",
        "前两回虽赢",  # 西游记: "won the two times before" (回 counts times too)
        "他把席子卷一卷",  # 卷 the verb, rolled up once
        "试卷二十分，花卷三个",  # an exam paper's twenty points; three steamed rolls
        "之后三回，他又来了",
        "两人斗到第三回合，不分胜败",  # a fight's round, not chapter 3
        "前五回合都输了",
        "第三、四回合",
        "第3回目の手紙",  # Japanese: the third time
        "在前一回中",  # the chapter before: no text places it
        "в главе этой книги",
        "un chapitre un peu long",  # an article is no one
        "Kapitel ein wenig später",
        "in hoofdstuk een paar regels",  # Dutch "een" is an article, "één" one
        "i kapittel en gang til",  # Norwegian "en" likewise
        "I vilket kapitel ni läste",  # Swedish "ni" (you), Norwegian's nine: "kapitel" takes Swedish numbers
        "no capítulo um tanto confuso",
        "ένα κεφάλαιο ένα τέτοιο",
        "In the chapter once more",  # Spanish "once" (eleven) after an English word
        "o capítulo dos ciúmes",  # Portuguese "of the", not Spanish "two"
        "na parte dos olhos de ressaca",
        "Tom 2 went home",  # a name and a number, not Polish "tom" (a volume)
        "después del 1 de mayo",  # Spanish "of the", not Swedish "del" (a part)
        "정희가 받은 3장의 편지",  # three sheets, not chapter 3
        "마지막 장면에서",  # the last scene
        "삼장은 길을 떠났다",  # 三藏, the monk: Sino-Korean numerals are read only after 제
        "그 장소에서",
        "全12章からなる小説で、この本は12章ある",  # a count of chapters, not chapter 12
        "共12章，十二章里",  # a count; Chinese numerals before 章 only after 第
    ],
)
def test_words_that_name_no_chapter_are_no_mention(text):
    assert chapter_mentions(text) == []


def test_the_mention_leaves_the_query_unless_nothing_else_is_asked():
    novel = from_text("CHAPTER 1\n\nThe keeper lit the lantern.", title="t", gutenberg=False).chapters
    assert (
        without_chapter_mentions("In chapter 5, why does Jo cut her hair?", novel).split()
        == "In , why does Jo cut her hair?".split()
    )
    assert "第五回" not in without_chapter_mentions("第五回中，宝玉梦到了哪里？", novel)
    assert without_chapter_mentions("Chapter 5", novel) == "Chapter 5"
    letter = "In the second part of the letter, who writes?"
    assert without_chapter_mentions(letter, novel) == letter  # a book without parts
    in_parts = from_text("PART I\n\nCHAPTER 1\n\nThe keeper lit the lantern.", title="t", gutenberg=False)
    assert "second part" not in without_chapter_mentions(letter, in_parts.chapters)
    kindness = "In the opening scene, what was the first act of kindness?"  # a novel's scenes and acts are words
    assert without_chapter_mentions(kindness, novel) == kindness and chapters_named(novel, kindness) == ([], [])
    read = "Which was the first book he read?"  # "the first book" is a part only where the book heads its units so
    assert (
        without_chapter_mentions(read, in_parts.chapters) == read and chapters_named(in_parts.chapters, read)[0] == []
    )


def _book(chapters: int = 6):
    parts = []
    for n in range(1, chapters + 1):
        parts.append(f"CHAPTER {n}")
        parts += [f"The harbour was quiet on day {n}.{k} and the gulls circled the boats." for k in range(8)]
        parts.append(f"In chapter time {n} the lantern keeper lit the lantern by the quay.")
    return from_text("\n\n".join(parts), title="harbour", gutenberg=False)


def test_a_chapter_is_named_by_the_label_a_reader_uses_and_a_missing_one_is_reported():
    narrative = _book()
    found, missing = chapters_named(narrative.chapters, "In chapters 2 and 9, who lit the lantern?")
    assert [c.label for c in found] == ["2"] and missing == ["chapter 9"]
    assert chapters_named(narrative.chapters, "In the last chapter, who lit it?") == ([narrative.chapters[-1]], [])


def test_chapters_counted_from_the_end_resolve_against_the_books_count_and_what_it_lacks_is_named():
    narrative = _book()  # chapters 1-6

    def named(text):
        found, missing = chapters_named(narrative.chapters, text)
        return [c.label for c in found], missing

    assert named("In the penultimate chapter, who lit it?") == (["5"], [])
    assert named("In the last two chapters, who lit it?") == (["5", "6"], [])
    assert named("前八十回中，谁点了灯？") == (["1", "2", "3", "4", "5", "6"], ["chapters 7-80"])
    assert named("In chapters 2 and 9 to 11, who lit it?") == (["2"], ["chapters 9-11"])
    one = from_text("CHAPTER 1\n\nThe keeper lit the lantern.", title="one", gutenberg=False)
    assert chapters_named(one.chapters, "In the penultimate chapter?") == ([], ["chapter 2 from the end"])
    (warning,) = _warnings(narrative, "In the first 80 chapters, who lit the lantern?")
    assert "has no chapters 7-80 (its chapters are 1-6" in warning


def test_the_named_chapters_best_paragraphs_are_read_first():
    narrative = _book()
    question = Question.open("In chapter 5, who lit the lantern by the quay?")
    index = build_index(narrative, None, use_cache=False)
    chapter = narrative.chapters[4]
    first = [p for p, _ in index.rank_question(question)][:1]
    assert first and chapter.first_paragraph < first[0] <= chapter.last_paragraph
    unnamed = build_index(narrative, None, use_cache=False, chapter_reserve=0).rank_question(question)
    assert [p for p, _ in unnamed][:1] != first  # without the reserve every chapter's lantern line ties


def test_a_question_of_a_chapter_alone_reads_that_chapter_instead_of_failing():
    narrative = _book()
    question = Question.open("What happens in chapter 3?")
    with pytest.raises(NoMatchError):  # "What happens in?" shares no word with the book
        segment_narrative(narrative, Question.open("What happens in?"), "focused", encoder=None)
    segments = segment_narrative(narrative, question, "focused", encoder=None)
    read = {p for s in segments for p in s.paragraph_ids}
    chapter = narrative.chapters[2]
    assert read == set(chapter.paragraph_ids) - {chapter.first_paragraph}  # all of it but its heading


def test_a_chapter_read_as_such_is_read_spread_from_its_first_paragraphs_on():
    assert spread(list(range(10))) == [0, 8, 4, 2, 6, 1, 3, 5, 7, 9]
    assert spread([]) == [] and spread(["a"]) == ["a"]
    long_chapter = from_text(
        "CHAPTER 1\n\n" + "\n\n".join(f"Line {k} of the long chapter, told plainly." for k in range(60)),
        title="long", gutenberg=False,
    )  # fmt: skip
    ranking = build_index(long_chapter, None, use_cache=False).rank_question(
        Question.open("What happens in chapter 1?")
    )
    first = sorted(p for p, _ in ranking[:4])
    assert first[0] == 1 and first[-1] > 45  # the opening, the middle and the quarters: not the first four lines
    assert len(ranking) == 60  # every paragraph of the chapter, none other


def _warnings(narrative, text, **limits):
    request = SourceRequest(
        narrative, Question.open(text), get_preset("focused"), build_index(narrative, None, use_cache=False), **limits
    )
    return candidate_segments(request).warnings


def test_the_trace_names_the_chapters_read_first():
    narrative = _book()
    index = build_index(narrative, None, use_cache=False)
    named = SourceRequest(narrative, Question.open("In chapters 2 and 5, who lit it?"), get_preset("focused"), index)
    assert candidate_segments(named).to_dict()["named_chapters_read_first"] == ["2", "5"]
    limited = SourceRequest(**{**vars(named), "max_chapter": 3})
    assert candidate_segments(limited).read_first == ["2"]  # chapter 5 is past the reading limit (a warning)
    off = SourceRequest(**{**vars(named), "index": build_index(narrative, None, use_cache=False, chapter_reserve=0)})
    assert "named_chapters_read_first" not in candidate_segments(off).to_dict()


def test_a_prologue_the_question_names_is_read_first_and_one_the_book_lacks_is_a_warning():
    prologue = ["PROLOGUE", "Long before the harbour, a keeper buried the brass key under the old quay."]
    narrative = from_text("\n\n".join([*prologue, _book().text]), title="harbour", gutenberg=False)
    index = build_index(narrative, None, use_cache=False)
    question = Question.open("In the prologue, who lit the lantern?")
    candidates = candidate_segments(SourceRequest(narrative, question, get_preset("focused"), index))
    assert candidates.read_first == ["0"] and candidates.warnings == []
    assert index.rank_question(question)[0][0] == 1  # the prologue's text first, though it names no lantern
    (missing,) = _warnings(_book(), "In the prologue, who lit the lantern?")
    assert "'harbour' has no prologue (its chapters are 1-6" in missing


def test_a_chapter_the_book_lacks_or_the_reader_has_not_reached_is_a_warning():
    narrative = _book()
    assert _warnings(narrative, "In chapter 4, who lit the lantern?") == []
    (missing,) = _warnings(narrative, "In chapter 9, who lit the lantern?")
    assert "has no chapter 9 (its chapters are 1-6" in missing
    (beyond,) = _warnings(narrative, "In chapter 5, who lit the lantern?", max_chapter=2)
    assert "chapter 5 lies past the reading limit" in beyond
    flat = from_text("The lantern keeper lit the lantern.\n\nThe gulls circled.", title="flat", gutenberg=False)
    (none,) = _warnings(flat, "In the last chapter, who lit the lantern?")
    assert "'flat' has no chapters ClueWeaver found (the last chapter named)" in none


def test_a_chinese_question_naming_a_hui_reads_that_hui_in_honglou_meng():
    narrative = load_bundled_book("hongloumeng.zh")
    question = Question.open("第五回中，贾宝玉在梦中到了什么地方？又听了哪些曲子？")
    chapter = next(c for c in narrative.chapters if c.label == "5")
    read = [p for s in segment_narrative(narrative, question, "detectiveqa", encoder=None) for p in s.paragraph_ids]
    unnamed = Question.open("贾宝玉在梦中到了什么地方？又听了哪些曲子？")
    before = [p for s in segment_narrative(narrative, unnamed, "detectiveqa", encoder=None) for p in s.paragraph_ids]
    inside = sum(p in chapter.paragraph_ids for p in read)
    assert inside >= 10 > sum(p in chapter.paragraph_ids for p in before)


def test_the_recall_bench_names_each_checks_first_clue_chapter_in_the_books_language():
    narrative = load_bundled_book("hongloumeng.zh")
    chapter = next(c for c in narrative.chapters if c.label == "5")
    item = GoldItem(narrative, Question.open("宝玉梦到了哪里？"), (chapter.first_paragraph + 3, 2900), "x")
    (named,) = naming_chapters([item])
    assert named.question.text == "第5回中，宝玉梦到了哪里？" and named.gold_ids == item.gold_ids


@pytest.mark.parametrize(
    "book",
    ["wilcze_gniazdo.pl", "norrtullsligan.sv", "karbanik.cs", "egy_magyar_amazon.hu", "en_professor.no",
     "pacatul_rabinului.ro"],
)  # fmt: skip
def test_the_recall_bench_names_a_chapter_of_the_later_languages_in_words_the_mention_reader_reads_back(book):
    narrative = load_bundled_book(book)
    chapter = narrative.chapters[4]  # En Professor has no 5th: its fifth is labelled 6
    item = GoldItem(narrative, Question.open("?"), (chapter.first_paragraph + 2,), "x")
    (named,) = naming_chapters([item])
    assert named.question.text != "?" and f" {chapter.label}" in named.question.text
    assert chapters_named(narrative.chapters, named.question.text) == ([chapter], [])


def test_a_chapter_named_in_another_language_than_the_books_is_still_read_first():
    narrative = load_bundled_book("hongloumeng.zh")
    chapter = next(c for c in narrative.chapters if c.label == "5")
    question = Question.open("In chapter 5, where does Baoyu go in his dream?")  # English, about a Chinese novel
    read = [p for s in segment_narrative(narrative, question, "detectiveqa", encoder=None) for p in s.paragraph_ids]
    assert sum(p in chapter.paragraph_ids for p in read) >= 10  # BM25 shares no word; the chapter is still read


def test_a_french_question_naming_a_chapter_in_words_reads_that_chapter():
    narrative = load_bundled_book("le_tour_du_monde.fr")
    chapter = next(c for c in narrative.chapters if c.label == "5")
    found, missing = chapters_named(narrative.chapters, "Au chapitre cinq, que fait Passepartout ?")
    assert found == [chapter] and missing == []

    def inside(text: str) -> int:
        segments = segment_narrative(narrative, Question.open(text), "detectiveqa", encoder=None)
        return sum(p in chapter.paragraph_ids for s in segments for p in s.paragraph_ids)

    assert inside("Au chapitre cinq, que fait Passepartout ?") >= 10 > inside("Que fait Passepartout ?")


def test_a_name_is_quoted_as_words_not_inside_other_words():
    text = "XI\n\nA promessa.\n\nText.\n\nXII\n\nNa varanda.\n\nMore text.\n\nXIII\n\nO juramento.\n\nThe end."
    chapters = from_text(text, title="t").chapters  # names that end with a full stop, as in Dom Casmurro
    assert chapters_titled(chapters, "Livrar D. Glória do vínculo da promessa. Quais?") == []  # "d|a promessa."
    assert chapters_titled(chapters, "Em «A promessa.», o que jura Bentinho?") == [chapters[0]]


def test_a_chapter_is_named_by_quoting_its_name():
    assert title_pieces("第六回 贾宝玉初试云雨情 刘姥姥一进荣国府") == ("贾宝玉初试云雨情", "刘姥姥一进荣国府")
    assert title_pieces("CHAPTER TWO A MERRY CHRISTMAS") == ("A MERRY CHRISTMAS",)
    assert title_pieces("CHAPTER XII") == () and title_pieces("CHAPTER 4 BETH") == ()  # no name, or one word
    # a shorter Chinese or Japanese name names its chapter only between a title's marks: a word so short is
    # asked about anywhere ("鲁镇的祝福")
    assert title_pieces("羅生門") == ("《羅生門》", "〈羅生門〉", "『羅生門』", "「羅生門」")
    assert title_pieces("一") == ()
    texts = ["一　羅生門", "　下人が雨やみを待つ。", "二　鼻", "　禅智内供の鼻。", "三　芋粥", "　五位の芋粥。"]
    stories = from_text("\n\n".join(texts), title="t")
    assert [c.title for c in stories.chapters] == ["一 羅生門", "二 鼻", "三 芋粥"]
    assert chapters_titled(stories.chapters, "『鼻』で内供の鼻はどれほど長いか。") == [stories.chapters[1]]
    assert chapters_titled(stories.chapters, "「芋粥」の五位は何を望んだか。") == [stories.chapters[2]]
    assert chapters_titled(stories.chapters, "内供の鼻はどれほど長いか。") == []
    narrative = load_bundled_book("hongloumeng.zh")
    (chapter,) = chapters_titled(narrative.chapters, "在“刘姥姥一进荣国府”那一回中，刘姥姥带了谁去？")
    assert chapter.label == "6"
    book = from_text(
        "CHAPTER ONE PLAYING PILGRIMS\n\nThe girls knit.\n\nCHAPTER TWO A MERRY CHRISTMAS\n\nJo woke first.",
        title="pilgrims", gutenberg=False,
    )  # fmt: skip
    assert [c.label for c in chapters_named(book.chapters, 'What gift comes in "a merry Christmas"?')[0]] == ["2"]


def test_a_name_is_quoted_without_the_note_mark_an_edition_sets_after_it():
    """RusLit sets a note's mark after a heading ("Глава II. Долгий приезд домой[2]", "Часть I ПОДПОЛЬЕ[1]"), Chinese
    e-texts after a part's name ("第二部　老年[2]"): the name is quoted without it."""
    assert title_pieces("Глава II. Долгий приезд домой[2]") == ("Долгий приезд домой",)
    assert title_pieces("第一回 甄士隐梦幻识通灵（1）") == ("甄士隐梦幻识通灵",)
    prose = "Не утерпев, я сел записывать эту историю моих первых шагов на жизненном поприще."
    parts = ["第一部　青春[1]", "第一章", prose, "第二章", prose, "第二部　老年[2]", "第一章", prose, "第二章", prose]
    book = from_paragraphs(parts, title="t")
    assert [c.label for c in chapters_named(book.chapters, "《老年》里他去了哪里？")[0]] == ["2.1", "2.2"]


def test_the_recall_bench_names_a_chapter_by_its_name_where_it_has_one():
    narrative = load_bundled_book("hongloumeng.zh")
    chapter = next(c for c in narrative.chapters if c.label == "6")
    item = GoldItem(narrative, Question.open("刘姥姥带了谁去？"), (chapter.first_paragraph + 2,), "x")
    (named,) = naming_chapters([item], "title")
    assert named.question.text == "在“贾宝玉初试云雨情”那一回中，刘姥姥带了谁去？"


def test_ask_shows_the_chapters_it_read_first():
    narrative = _book()
    backend = scripted_reader_backend()
    config = PipelineConfig(encoder=None, preset="focused", self_calibration=False)
    result = ClueWeaver(backend, config=config).answer(narrative, Question.open("In chapter 5, who lit the lantern?"))
    assert "Read first: chapter 5, which the question names" in format_result(result, narrative)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("In chapter 5, I think the letter was sent", [(5,)]),
        ("In chapter 5, ten men arrive", [(5,)]),
        ("In chapter 12, one of the brothers lies", [(12,)]),
        ("In chapter V, I learn", [(5,)]),
        ("In chapter 5, The first letter", [(5,)]),
        ("Nel capitolo L'insetto; au chapitre D'Artagnan arrive; au chapitre M. Fogg part", []),
        ("Nel capitolo V, L'insetto; What happens in chapter V.; au chapitre L.", [(5,), (5,), (50,)]),
        (
            "chapters I, II and III; chapters 3, 4 and 5; chapters three, four and five",
            [(1, 2, 3), (3, 4, 5), (3, 4, 5)],
        ),
    ],
)
def test_a_number_of_another_kind_after_a_chapter_number_is_the_question_not_a_second_chapter(text, numbers):
    # the first four had named a second chapter (1, 10, 1, 1), the article and the name a chapter 50, 500, 1000; in
    # a novel "the first letter" is no letter of an epistolary novel's (``counted_mentions``)
    novel = from_text("CHAPTER 1\n\nThe keeper lit the lantern.", title="t", gutenberg=False).chapters
    assert [m.numbers for m in counted_mentions(novel, text)] == numbers


def test_a_korean_question_naming_a_jang_reads_that_chapter_and_leaves_the_mention_out_of_its_query():
    prose = "정희는 마을 우물가에서 물을 길었다. 그날 {n}번째 날에 편지가 왔다."
    narrative = from_text(
        "\n\n".join(f"제{n}장\n\n" + "\n\n".join(prose.format(n=n) for _ in range(3)) for n in range(1, 5)),
        title="우물",
        gutenberg=False,
    )
    found, missing = chapters_named(narrative.chapters, "제2장과 제9장에서 정희는 무엇을 했나?")
    assert [c.label for c in found] == ["2"] and missing == ["chapter 9"]
    assert chapters_named(narrative.chapters, "마지막 장에서 정희는?")[0] == [narrative.chapters[-1]]
    assert chapters_named(narrative.chapters, "제1부에서 정희는?") == ([], ["part 1"])
    assert "제3장에서" not in without_chapter_mentions("제3장에서 정희는 무엇을 했나?", narrative.chapters)
    question = Question.open("제3장에서 정희는 어디에서 물을 길었나?")
    chapter = narrative.chapters[2]
    first = [p for p, _ in build_index(narrative, None, use_cache=False).rank_question(question)][:1]
    assert first and chapter.first_paragraph < first[0] <= chapter.last_paragraph
    (named,) = naming_chapters([GoldItem(narrative, Question.open("정희는?"), (chapter.first_paragraph + 1,), "x")])
    assert named.question.text == "제3장에서 정희는?"


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("Co se stane v kapitolách 3 a 5?", [(3, 5)]),  # Czech "a" is "and"
        ("v kapitolách tři a pět, v třetí a páté kapitole", [(3, 5), (3, 5)]),
        ("v kapitolách 3 až 5, v dílech 2 a 3", [(3, 4, 5), (2, 3)]),
        ("en los capítulos 3 a 5, en el tercero a quinto capítulo", [(3, 4, 5), (3, 4, 5)]),  # Spanish "a" is "to"
    ],
)
def test_a_joins_a_list_after_a_czech_chapter_word_and_a_range_after_a_spanish_one(text, numbers):
    assert [m.numbers for m in chapter_mentions(text)] == numbers


@pytest.mark.parametrize("language", sorted(CARDINAL_WORDS))
def test_every_cardinal_language_spells_one_to_ninety_nine_and_reads_each_spelling_back(language):
    forms = CARDINAL_WORDS[language]
    assert set(forms.values()) - {1} == set(range(2, 100)), language
    # their only "one" is an article: "un chapitre un peu", Hungarian "egy fejezet"
    assert 1 in forms.values() or language in {"fr", "pt", "el", "hu"}
    assert all(cardinal_value(form, (language,)) == value for form, value in forms.items())


@pytest.mark.parametrize(
    ("language", "spelling", "value"),
    [
        ("cs", "jednadvacet", 21), ("cs", "dvacet jedna", 21), ("cs", "devětadevadesát", 99), ("pl", "dwie", 2),
        ("pl", "dziewięćdziesiąt dziewięć", 99), ("sv", "tjugoett", 21), ("sv", "nittionio", 99),
        ("no", "tjueen", 21), ("no", "treogtyve", 23), ("no", "syv", 7), ("no", "tredive", 30), ("no", "otte", 8),
        ("no", "enoghalvfems", 91), ("no", "halvfemsindstyve", 90), ("ro", "douăsprezece", 12),
        ("ro", "douăzeci şi unu", 21), ("ro", "nouazeci si noua", 99), ("nl", "tweeëntwintig", 22),
        ("nl", "eenentwintig", 21), ("nl", "negenennegentig", 99),
    ],
)  # fmt: skip
def test_cardinals_are_spelled_as_each_language_writes_them(language, spelling, value):
    assert cardinal_value(spelling, (language,)) == value


@pytest.mark.parametrize(
    ("text", "mentions"),
    [
        ("Wat gebeurt er in hoofdstukken 3 en 4? En in hoofdstuk 7 tot 9?", [("hoofdstukken 3 en 4", (3, 4)),
                                                                             ("hoofdstuk 7 tot 9", (7, 8, 9))]),
        ("Que fait Fogg au chapitre 3 en 1872 ?", [("chapitre 3", (3,))]),  # a year: it stays in the query
        ("chapters 3 and 1850", [("chapters 3", (3,))]),
    ],
)  # fmt: skip
def test_dutch_lists_and_ranges_are_read_and_a_year_after_a_joining_word_is_no_chapter(text, mentions):
    assert [(m.text, m.numbers) for m in chapter_mentions(text)] == mentions


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("Что происходит в 9 главе?", [(9,)]), ("w 9 rozdziale", [(9,)]), ("v 9 kapitole", [(9,)]),
        ("у 9 розділі", [(9,)]),
        ("в романе 9 глав, в 3 главах, 3 главы спустя, 21 главу", []),  # counts: the plural, or a count's case
        ("прочитайте пятую главу и главу третью", [(5,), (3,)]),  # the accusative
        ("с третьей по пятую главу", [(3, 4, 5)]), ("с 3-й по 5-ю главу", [(3, 4, 5)]),
        ("в главах с третьей по пятую", [(3, 4, 5)]),
        ("в главах с 3 по 5", [(3, 4, 5)]), ("w rozdziałach od 3 do 5", [(3, 4, 5)]),
        ("in den Kapiteln von 3 bis 5", [(3, 4, 5)]), ("in chapters from 3 to 5", [(3, 4, 5)]),
        ("в главе с 3 героями", []),  # "с" before one number is "with": a chapter with three heroes
        ("nei capitoli dal 3 al 5", [(3, 4, 5)]), ("en los capítulos del 3 al 5", [(3, 4, 5)]),
        ("nos capítulos do 3 ao 5", [(3, 4, 5)]), ("no capítulo de 3 páginas", []),
        # a serial comma
        ("chapters 3, 4, and 5", [(3, 4, 5)]), ("the third, fourth, and fifth chapters", [(3, 4, 5)]),
        ("im 20sten Kapitel", [(20,)]), ("das 3te Kapitel", [(3,)]), ("het 3de hoofdstuk", [(3,)]),
        ("het 20ste hoofdstuk", [(20,)]),
    ],
)  # fmt: skip
def test_digits_before_a_locative_chapter_word_accusative_ordinals_ranges_from_a_number_and_serial_commas_are_read(
    text, numbers
):
    assert [m.numbers for m in chapter_mentions(text)] == numbers


def test_a_russian_question_naming_a_chapter_in_digits_before_its_word_reads_that_chapter():
    narrative = load_bundled_book("ottsy_i_deti.ru")
    named, missing = chapters_named(narrative.chapters, "Что Базаров говорит в 9 главе и с 3-й по 5-ю главу?")
    assert [c.label for c in named] == ["9", "3", "4", "5"] and missing == []


def test_a_danish_or_norwegian_part_is_named_after_its_own_ordinals():
    """A book whose source marks its parts "FØRSTE DEL", "ANDEN DEL" (ELTeC's Psyche, NOR0072) has its parts named
    in a question ("i anden del"); Spanish "el segundo del grupo" (of the group) names none, so "del" is a part only
    after a Norwegian or Danish ordinal. A plain text's "FØRSTE DEL" heads no part: the word stays Spanish's."""
    prose = "Det var en kold Vinteraften, og Sneen laa tæt over Byen, da han endelig kom hjem fra Rejsen."
    heads = ("FØRSTE DEL", "ANDEN DEL")
    parts = [t for part in heads for t in (part, *(x for n in ("I", "II", "III") for x in (n, prose)))]
    book = from_paragraphs(parts, title="t", part_headings=frozenset(heads))
    assert [(c.label, c.part) for c in book.chapters][2:4] == [("1.3", "FØRSTE DEL"), ("2.1", "ANDEN DEL")]

    def named(text):
        return [c.label for c in chapters_named(book.chapters, text)[0]]

    assert named("Hvad sker der i anden del?") == ["2.1", "2.2", "2.3"]
    assert named("Hvad sker der i tredje kapitel af anden del?") == ["2.3"]
    assert chapter_mentions("¿Quién es el segundo del grupo?") == []


def test_a_dutch_novel_s_parts_and_ordinals_are_read():
    """ "DEEL I" over "Eerste hoofdstuk": parts and chapters as the book numbers them, named in Dutch ("het tweede
    hoofdstuk van het tweede deel"); a book is a part only before its number or where the book heads one so."""
    lorem = "Het regende al de hele dag, en niemand in het dorp had de vreemdeling zien aankomen."
    heads = ("Eerste hoofdstuk", "Tweede hoofdstuk", "Laatste hoofdstuk")
    book = from_paragraphs(
        [t for part in ("DEEL I", "DEEL II") for t in (part, *(x for h in heads for x in (h, lorem)))], title="t"
    )
    assert [(c.label, c.part) for c in book.chapters][2:4] == [("1.3", "DEEL I"), ("2.1", "DEEL II")]

    def named(text):
        return [c.label for c in chapters_named(book.chapters, text)[0]]

    assert named("Wie komt er in het tweede hoofdstuk van het tweede deel?") == ["2.2"]
    assert named("Wat gebeurt er in deel 1?") == ["1.1", "1.2", "1.3"] and named("in het laatste hoofdstuk") == ["2.3"]
    assert [(m.text, m.numbers) for m in chapter_mentions("in boek 2 en het eerste boek")] == [
        ("boek 2", (2,)),
        ("eerste boek", (1,)),
    ]
    assert named("Welk boek las hij het eerst?") == []


def test_the_patterns_built_on_a_units_word_compile_only_for_a_text_that_has_one():
    """A question that names no chapter or part in letters is read without compiling the patterns built on those
    words (most of a second at a command's start), and finds what the others find: 第五回 still."""
    _patterns_by_unit.cache_clear()
    assert [m.numbers for m in chapter_mentions("第五回中，谁点亮了灯？ Who lit the lantern?")] == [(5,)]
    assert chapter_mentions("Who lit the lantern in the fifth year?") == []
    assert _patterns_by_unit.cache_info().currsize == 1  # without the worded patterns
    assert [m.numbers for m in chapter_mentions("Who lit it in the fifth chapter?")] == [(5,)]
    assert [m.numbers for m in chapter_mentions("Кто зажёг его во второй части?")] == [(2,)]
    assert _patterns_by_unit.cache_info().currsize == 2


def test_a_chapter_is_named_by_its_own_heading_when_its_label_counts_a_collection_in_reading_order():
    """A collection whose first story is cut into bare "一" to "四" and whose second is headed "第一章" to "第四章"
    (its stories' titles no headings: labels 1-8 in reading order): "第三章" and "in chapter 3" name the chapter
    headed 第三章, not the first story's third section; "第三节" (a section) still names label 3."""
    line = "{}的第{}段：海鸥在港口上空盘旋，一切都很安静，风从东边吹来。"
    paragraphs = ["狂人日记"]
    for number in "一二三四":
        paragraphs += [number, *(line.format("狂人日记" + number, k) for k in range(3))]
    paragraphs.append("阿Q正传")
    for number, title in zip("一二三四", ["序", "优胜记略", "续优胜记略", "恋爱的悲剧"]):
        paragraphs += [f"第{number}章　{title}", *(line.format("阿Q正传" + number, k) for k in range(3))]
    chapters = from_text("\n\n".join(paragraphs), title="呐喊", gutenberg=False).chapters

    def named(text):
        return [(c.label, c.title) for c in chapters_named(chapters, text)[0]]

    assert [c.label for c in chapters] == [str(n) for n in range(1, 9)]
    assert named("第三章里阿Q做了什么？") == [("7", "第三章 续优胜记略")]
    assert named("In chapter 3, what does Ah Q do?") == [("7", "第三章 续优胜记略")]
    assert named("第三节里写了什么？") == [("3", "三")]
    assert named("In chapter 7, what does Ah Q do?") == [("7", "第三章 续优胜记略")]  # the label still names it


def test_an_epilogue_is_named_only_where_the_book_heads_one():
    text = "\n\n".join(
        ["Глава I", "Текст первой главы.", "Глава II", "Текст второй главы.", "Эпилог", "Текст эпилога."]
    )
    chapters = from_text(text, title="t").chapters
    assert [c.label for c in chapters] == ["1", "2", "3"]
    assert chapters_named(chapters, "Что стало с ним в эпилоге?")[0] == [chapters[2]]
    assert chapters_named(chapters, "Что стало с ним во второй главе?")[0] == [chapters[1]]
    headless = from_text("\n\n".join(["Глава I", "Текст.", "Глава II", "Текст."]), title="t").chapters
    assert chapters_named(headless, "Что стало с ним в эпилоге?") == ([], [])  # a last chapter is no epilogue


@pytest.mark.parametrize(
    ("text", "mentions", "kind"),
    [
        ("In Act II, scene 3, who speaks?", [("Act II", (2,), True), ("scene 3", (3,), False)], "act"),
        ("à la scène 2 de l'acte III", [("scène 2", (2,), False), ("acte III", (3,), True)], "scene"),
        ("im zweiten Akt, im dritten Auftritt", [("zweiten Akt", (2,), True), ("dritten Auftritt", (3,), False)],
         "act"),
        ("en el segundo acto", [("segundo acto", (2,), True)], "act"),
        ("nel secondo atto", [("secondo atto", (2,), True)], "act"),
        ("В первом явлении второго действия", [("первом явлении", (1,), False), ("второго действия", (2,), True)],
         "scene"),
        ("第二幕第三场中", [("第二幕", (2,), True), ("第三场", (3,), False)], "act"),
        ("제2막에서", [("제2막에서", (2,), True)], "act"),
        ("In Letter 4, whom does Walton meet?", [("Letter 4", (4,), False)], "letter"),
        ("dans la lettre XII et la seconde lettre", [("lettre XII", (12,), False), ("seconde lettre", (2,), False)],
         "letter"),
        ("im dritten Brief", [("dritten Brief", (3,), False)], "letter"),
        ("в третьем письме", [("третьем письме", (3,), False)], "letter"),
        ("In Canto V, whom does Dante meet?", [("Canto V", (5,), False)], "canto"),
        ("nel quinto canto", [("quinto canto", (5,), False)], "canto"),
        ("Que dit Virgile au chant II ?", [("chant II", (2,), False)], "canto"),
        ("im fünften Gesang", [("fünften Gesang", (5,), False)], "canto"),
        ("во второй песни", [("второй песни", (2,), False)], "canto"),
        ("In the second stave", [("second stave", (2,), False)], "stave"),
        ("In the third adventure and in episode 2", [("third adventure", (3,), False), ("episode 2", (2,), False)],
         "adventure"),
    ],
)  # fmt: skip
def test_units_named_by_everyday_words_are_read_as_chapters_and_parts(text, mentions, kind):
    """A play's acts and scenes, an epistolary novel's letters, an epic's cantos: marked ``headed_only``."""
    found = chapter_mentions(text)
    assert [(m.text, m.numbers, m.part) for m in found] == mentions and all(m.headed_only for m in found)
    assert unit_kind(found[0].text) == kind


def test_a_play_s_act_and_scene_are_read_first_and_a_novel_s_are_no_mention():
    """Hamlet's acts are its parts and its scenes its chapters ("2.1"): "Act II, scene 1" is the one scene, "Act
    II" its scenes, "scene 2" every act's second; Gogol's Ревизор is named in Russian, or in English across
    languages. A play of acts alone has them as chapters; an epic's "BOOK II" is named by "Book 2"."""

    def named(book, text):
        return [c.label for c in chapters_named(book.chapters, text)[0]]

    lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore."
    scenes = ["ACT I", "SCENE I. Elsinore.", lorem, "SCENE II. A room of state.", lorem, "ACT II", "SCENE I. A room."]
    hamlet = from_paragraphs([*scenes, lorem], title="Hamlet")
    assert [c.label for c in hamlet.chapters] == ["1.1", "1.2", "2.1"]
    assert named(hamlet, "In Act II, scene 1, what does Polonius ask?") == ["2.1"]
    assert named(hamlet, "In the first act, who sees the ghost?") == ["1.1", "1.2"]
    assert named(hamlet, "In scene 2, who speaks?") == ["1.2"] and named(hamlet, "in the last act") == ["2.1"]
    revizor = load_narrative(Path(__file__).parent / "fixtures" / "books_multilingual" / "revizor_excerpt.ru.txt")
    assert named(revizor, "Что говорит городничий во втором действии?") == ["2.1", "2.2"]
    assert named(revizor, "Кто входит в первом явлении второго действия?") == ["2.1"]
    assert named(revizor, "In Act 2, scene 2, who speaks?") == ["2.2"]
    index = build_index(revizor, None, use_cache=False)
    asked = SourceRequest(
        revizor, Question.open("Кто входит в первом явлении второго действия?"), get_preset("focused"), index
    )
    assert candidate_segments(asked).read_first == ["2.1"]  # the trace names the scene read first
    acts = from_paragraphs([t for h in ("Действие первое", "Действие второе") for t in (h, lorem)], title="t")
    assert named(acts, "во втором действии") == ["2"] and named(acts, "In Act 2?") == ["2"]
    epic = from_paragraphs([t for h in ("BOOK I", "BOOK II", "BOOK III") for t in (h, lorem)], title="t")
    assert chapters_named(epic.chapters, "In Book 2, who falls?") == ([epic.chapters[1]], [])  # was "no part 2"
    assert chapters_named(epic.chapters, "In Book 4, who falls?") == ([], ["part 4"])
    letters = ["Letter 1", "Letter 2", "Chapter 1", "Chapter 2"]  # Frankenstein: labels in reading order
    frankenstein = from_paragraphs([t for h in letters for t in (h, lorem)], title="t")
    assert named(frankenstein, "In Letter 2, who writes?") == ["2"] and named(frankenstein, "in chapter 2") == ["4"]
    assert named(frankenstein, "In the last letter?") == ["2"] and named(frankenstein, "the last chapter") == ["4"]
    assert named(frankenstein, "dans la deuxième lettre") == ["2"]  # a letter in another language
    inferno = from_paragraphs([t for h in ("CANTO I", "CANTO II") for t in (h, lorem)], title="t")
    assert named(inferno, "In Canto II, who speaks?") == ["2"] and named(inferno, "in the second letter") == []
