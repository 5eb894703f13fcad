"""Ordinal words past ten, as French, Spanish, Portuguese, Italian and Russian novels number their
chapters in words: each reads as its value, opens its chapter, and the trie pattern matches exactly
the listed spellings (checked against a plain alternation of them)."""

from __future__ import annotations

import random
import re

import pytest

from clueweaver.books import ordinals
from clueweaver.books.chapters import is_heading
from clueweaver.books.narrative import from_text
from clueweaver.books.numerals import number_value
from clueweaver.books.ordinals import ORDINAL_PATTERN, ORDINAL_WORDS, ordinal_value

HEADINGS = [
    ("Chapitre onzième", 11), ("CHAPITRE TREIZIÈME", 13), ("Chapitre vingt et unième", 21),
    ("Chapitre vingt-et-unième", 21), ("Chapitre soixante-douzième", 72), ("Chapitre soixante et onzième", 71),
    ("CHAPITRE QUATRE-VINGTIÈME", 80), ("Chapitre quatre-vingt-dix-neuvième", 99), ("Chapitre trente-cinquième", 35),
    ("Capítulo undécimo", 11), ("Capítulo décimo tercero", 13), ("CAPITULO DECIMOTERCERO", 13),
    ("Capítulo decimonono", 19), ("Capítulo vigésimo primero", 21), ("Capítulo vigesimoséptimo", 27),
    ("Capítulo décimo primeiro", 11), ("CAPÍTULO VIGÉSIMO TERCEIRO", 23), ("Capítulo quadragésimo", 40),
    ("Capitolo undicesimo", 11), ("Capitolo ventunesimo", 21), ("CAPITOLO VENTITREESIMO", 23),
    ("Capitolo trentottesimo", 38), ("Capitolo decimoterzo", 13), ("Capitolo vigesimo primo", 21),
    ("Глава одиннадцатая", 11), ("ГЛАВА ДВЕНАДЦАТАЯ", 12), ("Глава двадцать первая", 21),
    ("Глава сороковая", 40), ("Глава девяносто девятая", 99), ("Часть четырнадцатая", 14), ("Том двадцатый", 20),
    ("Dreizehntes Kapitel", 13), ("Sechsunddreißigstes Kapitel", 36), ("Segunda parte", 2), ("Глава первая", 1),
]  # fmt: skip


@pytest.mark.parametrize(("heading", "value"), HEADINGS)
def test_an_ordinal_heading_is_a_heading_and_reads_as_its_value(heading, value):
    assert is_heading(heading)
    number = re.split(r"\s+", heading, maxsplit=1)
    words = number[1] if number[0].lower() in {"chapitre", "capítulo", "capitulo", "capitolo", "глава", "часть",
                                                 "том"} else number[0]  # fmt: skip
    assert number_value(words) == value and ordinal_value(words.replace(" ", "-")) == value


def test_chapters_past_ten_open_in_words_and_keep_their_numbers():
    """Before, every chapter past the tenth of a Russian novel numbered in words ran into the tenth."""
    body = "Текст главы, который идёт дальше и дальше."
    heads = ["ГЛАВА ДЕВЯТАЯ", "ГЛАВА ДЕСЯТАЯ", "ГЛАВА ОДИННАДЦАТАЯ", "ГЛАВА ДВЕНАДЦАТАЯ", "Глава двадцать первая"]
    book = from_text("\n\n".join(f"{h}\n\n{body}" for h in heads), title="Главы")
    assert [c.label for c in book.chapters] == ["9", "10", "11", "12", "21"]
    french = ["CHAPITRE DIXIÈME", "CHAPITRE ONZIÈME", "CHAPITRE VINGT ET UNIÈME", "Chapitre quatre-vingt-dix-neuvième"]
    book = from_text("\n\n".join(f"{h}\n\nLe texte du chapitre." for h in french), title="Chapitres")
    assert [c.label for c in book.chapters] == ["10", "11", "21", "99"]


@pytest.mark.parametrize(
    "table", ["_french", "_spanish", "_portuguese", "_italian", "_russian", "_german", "_english", "_greek"]
)
def test_every_value_from_thirteen_to_ninety_nine_has_a_spelling_that_reads_back(table):
    forms = getattr(ordinals, table)()
    assert set(range(13, 100)) <= set(forms.values())
    assert all(ordinal_value(form) == value for form, value in forms.items())


def test_the_pattern_matches_exactly_the_words_a_plain_alternation_matches():
    words = list(ORDINAL_WORDS)
    plain = re.compile("(?:" + "|".join(re.escape(w).replace(r"\ ", r"[\s-]+") for w in words) + ")", re.IGNORECASE)
    pattern = re.compile(f"(?:{ORDINAL_PATTERN})", re.IGNORECASE)
    rng = random.Random(29)
    probes = [*words, *(w.upper() for w in rng.sample(words, 200)), *(w.replace(" ", "-") for w in words if " " in w)]
    probes += [w[: rng.randrange(1, len(w))] for w in rng.sample(words, 300)] + [
        w + "x" for w in rng.sample(words, 100)
    ]
    probes += ["".join(rng.sample(w, len(w))) for w in rng.sample(words, 300)]
    for probe in probes:
        assert bool(pattern.fullmatch(probe)) == bool(plain.fullmatch(probe)), probe
    assert all(pattern.fullmatch(w) for w in words)


def test_a_compound_is_matched_whole_before_its_first_word():
    """A heading's number is the whole compound ("dwudziesty pierwszy rozdział": 21, not 20 and a word)."""
    pattern = re.compile(f"(?:{ORDINAL_PATTERN})", re.IGNORECASE)
    for word in (w for w in ORDINAL_WORDS if " " in w):
        assert pattern.match(f"{word} rozdział").group() == word, word


def test_compounds_are_written_once_for_all_the_first_words_they_follow():
    """Every tens' form before every units' form, each written out, had made a 51 KB pattern that each process
    compiled six times over inside the chapter patterns: four seconds before any command read a book."""
    trie_size = sum(len(w) for w in ORDINAL_WORDS if " " in w)
    assert len(ORDINAL_PATTERN) < 30_000 < trie_size


@pytest.mark.parametrize(
    ("spelling", "value"),
    [
        ("vingt-troisième", 23), ("trente-troisième", 33), ("quarante-troisième", 43), ("cinquante-troisième", 53),
        ("soixante-troisième", 63), ("quatre-vingt-troisième", 83), ("quatre-vingt-treizième", 93),
        ("quatre-vingtième", 80), ("vigésimo tercer", 23), ("vigésimo primer", 21), ("décimo tercer", 13),
        ("twenty-third", 23), ("thirteenth", 13), ("fortieth", 40), ("ninety-ninth", 99), ("Seventy First", 71),
        ("ενδέκατο", 11), ("δέκατο τρίτο", 13), ("εικοστό τρίτο", 23), ("ΕΙΚΟΣΤΟΝ ΤΡΙΤΟΝ", 23),
        ("τριακοστή πρώτη", 31), ("εικοστού τρίτου", 23),
    ],
)  # fmt: skip
def test_ordinals_read_as_grammars_spell_them(spelling, value):
    # French 23, 33 ... 93 had been generated as "vingt-troiième" (the s of "trois" was taken for the plural
    # of "quatre-vingts"), so "vingt-troisième" read as nothing; Spanish shortens 1 and 3 before a noun;
    # English and Greek stopped at twelve and ten
    assert ordinal_value(spelling) == value


def test_english_chapters_numbered_the_old_way_past_twelve_keep_their_numbers():
    heads = ["CHAPTER THE TWELFTH", "CHAPTER THE THIRTEENTH", "Chapter the Twenty-Third", "CHAPTER THE FORTIETH"]
    book = from_text("\n\n".join(f"{h}\n\nThe text of the chapter, which goes on." for h in heads), title="Old")
    assert [c.label for c in book.chapters] == ["12", "13", "23", "40"]
    french = ["CHAPITRE VINGT-DEUXIÈME", "CHAPITRE VINGT-TROISIÈME", "Chapitre quatre-vingt-troisième"]
    book = from_text("\n\n".join(f"{h}\n\nLe texte du chapitre." for h in french), title="Chapitres")
    assert [c.label for c in book.chapters] == ["22", "23", "83"]
    greek = ["ΚΕΦΑΛΑΙΟΝ ΔΩΔΕΚΑΤΟΝ", "ΚΕΦΑΛΑΙΟΝ ΔΕΚΑΤΟΝ ΤΡΙΤΟΝ", "ΚΕΦΑΛΑΙΟΝ ΕΙΚΟΣΤΟΝ ΤΡΙΤΟΝ"]
    book = from_text("\n\n".join(f"{h}\n\nΤο κείμενο του κεφαλαίου συνεχίζεται." for h in greek), title="Κεφάλαια")
    assert [c.label for c in book.chapters] == ["12", "13", "23"]


def test_french_chapters_numbered_ier_iie_keep_their_first_chapter():
    # "CHAPITRE Ier" was no heading: chapter 1 ran into the front matter
    body = "Le texte du chapitre continue ici, longuement."
    for heads, labels in (
        (["CHAPITRE Ier", "CHAPITRE II", "CHAPITRE III"], ["1", "2", "3"]),
        (["Chapitre 1er.", "Chapitre 2e.", "Chapitre 3e."], ["1", "2", "3"]),
        (["LIVRE Ier", "LIVRE IIe"], ["1", "2"]),
        (["Chapitre Le retour", "Chapitre De la vie"], []),  # articles, not numerals
    ):
        book = from_text("\n\n".join(f"{h}\n\n{body}\n\n{body}" for h in heads), title="Chapitres")
        assert [c.label for c in book.chapters] == labels, heads
    values = {"Ier": 1, "IIe": 2, "XXIIIème": 23, "1re": 1, "Le": None, "De": None, "Der": None, "vie": None}
    assert {token: number_value(token) for token in values} == values
