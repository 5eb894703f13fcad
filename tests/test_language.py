"""A text's language from its script and its function words (clueweaver.books.language)."""

from __future__ import annotations

import time

import pytest

from clueweaver.books.language import (
    SUPPORTED_LANGUAGES,
    UNDETERMINED,
    detect_language,
    guess_language,
    sample,
    script_of,
)

SNIPPETS = {
    "en": "Jo sold her hair to pay for the journey, and when she came home with the money nobody knew what "
    "she had done.",
    "zh": "王掌柜说，案发当晚他亲眼看见李四从后门溜了出去，手里还拿着一个布包。",
    "ja": "ホームズは静かにパイプをくゆらせながら、ワトソンの話に耳を傾けていた。",
    "fr": "Hélène regarda la mer pendant que son frère attendait dans la voiture. Elle ne savait pas pourquoi il "
    "était venu.",
    "de": "Der alte Müller wohnte in der Straße am Fluss, und niemand wusste, warum er nicht mehr mit den Leuten "
    "sprach.",
    "es": "El capitán miró el mar mientras su hermano esperaba en el coche. No sabía por qué había venido.",
    "it": "Il capitano guardava il mare mentre suo fratello aspettava nella carrozza. Non sapeva perché era venuto.",
    "ru": "Старый мельник жил на улице у реки, и никто не знал, почему он больше не говорил с людьми.",
    "pt": "O capitão olhava o mar enquanto o seu irmão esperava na carruagem. Não sabia porque ele tinha vindo.",
}


def test_the_snippets_cover_every_supported_language():
    assert set(SNIPPETS) == set(SUPPORTED_LANGUAGES)


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_each_language_is_detected_from_a_short_passage(language):
    assert detect_language(SNIPPETS[language]) == language


def test_scripts_kana_makes_japanese_and_han_without_kana_chinese():
    assert script_of(SNIPPETS["zh"]) == "han" and script_of(SNIPPETS["ja"]) == "kana"
    assert script_of(SNIPPETS["ru"]) == "cyrillic" and script_of(SNIPPETS["fr"]) == "latin"
    assert script_of("１２３ ... !!") == "none" and script_of("Καλημέρα κόσμε") == "other"
    # a Chinese novel with a stray kana and some English names stays Chinese
    assert script_of(SNIPPETS["zh"] * 40 + "の Holmes Watson") == "han"
    # a Japanese question written mostly in kanji is still Japanese
    assert detect_language("犯人は誰か") == "ja"


def test_a_text_that_shows_no_language_says_so():
    assert guess_language("Holmes Watson") is None  # names only: no function word
    assert detect_language("Holmes Watson") == "en"  # Latin without evidence reads as before
    assert guess_language("la casa") is None  # one shared function word decides nothing
    assert detect_language("Καλημέρα κόσμε, τι κάνεις;") == UNDETERMINED
    assert detect_language("") == "en"


def test_a_novel_is_sampled_across_its_length_and_cheaply():
    front_matter = "The Project Gutenberg eBook of this book, and the licence that goes with it. " * 200
    novel = front_matter + SNIPPETS["fr"] * 5000  # about 600,000 characters, English only at the start
    assert len(sample(novel)) <= 32_000 + 8
    started = time.perf_counter()
    assert detect_language(novel) == "fr"
    assert time.perf_counter() - started < 0.5  # a few milliseconds here; generous for a busy machine
