"""A text's language from its script and its function words (clueweaver.books.language)."""

from __future__ import annotations

import time

import pytest

from clueweaver.books.language import (
    SUPPORTED_LANGUAGES,
    UNDETERMINED,
    detect_language,
    function_word_counts,
    guess_language,
    prose_language,
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
    "el": "Η γριά Χαδούλα ξενυχτούσε κοντά στο τζάκι, και κανείς δεν ήξερε γιατί δεν μιλούσε πια στους γείτονες.",
    "ko": "늙은 방앗간 주인은 강가의 거리에 살았는데, 그가 왜 더 이상 사람들과 말하지 않는지 아무도 몰랐다.",
    "pl": "Stary młynarz mieszkał przy ulicy nad rzeką i nikt nie wiedział, dlaczego już nie rozmawiał z ludźmi.",
    "sv": "Den gamle mjölnaren bodde på gatan vid ån, och ingen visste varför han inte längre talade med folk.",
    "cs": "Starý mlynář bydlel v ulici u řeky a nikdo nevěděl, proč už s lidmi nemluví, když přišel domů.",
    "hu": "Az öreg molnár a folyó melletti utcában lakott, és senki sem tudta, miért nem beszél már az emberekkel.",
    "no": "Den gamle mølleren bodde i gata ved elva, og ingen visste hvorfor han ikke lenger snakket med folk.",
    "ro": "Bătrânul morar locuia pe strada de lângă râu și nimeni nu știa de ce nu mai vorbea cu oamenii.",
}


def test_the_snippets_cover_every_supported_language():
    assert set(SNIPPETS) == set(SUPPORTED_LANGUAGES)


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_each_language_is_detected_from_a_short_passage(language):
    assert detect_language(SNIPPETS[language]) == language


def test_scripts_kana_makes_japanese_and_han_without_kana_chinese():
    assert script_of(SNIPPETS["zh"]) == "han" and script_of(SNIPPETS["ja"]) == "kana"
    assert script_of(SNIPPETS["ru"]) == "cyrillic" and script_of(SNIPPETS["fr"]) == "latin"
    assert script_of("１２３ ... !!") == "none" and script_of("שלום עולם") == "other"
    assert script_of("Καλημέρα κόσμε") == script_of("Ἡ γραῖα ἐκάθητο παρὰ τὴν ἑστίαν") == "greek"  # polytonic too
    # a Chinese novel with a stray kana and some English names stays Chinese
    assert script_of(SNIPPETS["zh"] * 40 + "の Holmes Watson") == "han"
    # a Japanese question written mostly in kanji is still Japanese
    assert detect_language("犯人は誰か") == "ja"


def test_hangul_makes_korean_with_han_among_it_or_not():
    """Korean in Hangul, or in the mixed script of older texts (its nouns in Han, its particles and endings
    in Hangul), is Korean; a Chinese text that quotes a Korean name stays Chinese."""
    assert script_of(SNIPPETS["ko"]) == "hangul" and detect_language(SNIPPETS["ko"]) == "ko"
    assert detect_language("安東은 慶尙北道의 都會이다. 洛東江이 그 앞을 흐른다.") == "ko"
    assert detect_language(SNIPPETS["zh"] * 20 + "김정희") == "zh"


def test_a_text_that_shows_no_language_says_so():
    assert guess_language("Holmes Watson") is None  # names only: no function word
    assert detect_language("Holmes Watson") == "en"  # Latin without evidence reads as before
    assert guess_language("la casa") is None  # one shared function word decides nothing
    assert detect_language("שלום עולם, מה שלומך?") == UNDETERMINED
    assert detect_language("") == "en"


def test_beside_a_book_a_short_question_shows_its_language_with_one_function_word():
    """A question of three words holds one function word ("Warum"): too few alone, enough beside a book."""
    assert guess_language("Warum stirbt Effi?") is None
    assert guess_language("Warum stirbt Effi?", beside="en") == "de"
    assert guess_language("Warum stirbt Effi?", beside="de") == "de"
    assert guess_language("Who kills Fogg?", beside="fr") == "en"
    # any function word of the book's language names it; a word two others share names neither
    assert guess_language("Pourquoi Fogg parie-t-il?", beside="fr") == "fr"
    assert guess_language("la casa", beside="es") == "es" and guess_language("la casa", beside="en") is None
    assert guess_language("Was sagt Effi?", beside="de") == "de"  # "was" is German as well as English
    assert guess_language("Holmes Watson", beside="fr") is None  # names show nothing, beside a book or not
    assert guess_language("宝玉", beside="en") == "zh"  # the script decides before function words


DUTCH = (
    "De oude molenaar woonde in de straat bij de rivier, en niemand wist waarom hij niet meer met de mensen "
    "sprak. Het was een koude winter en hij had geen geld voor brandhout. "
)


SLOVAK = (
    "Starý mlynár býval na ulici pri rieke a nikto nevedel, prečo už s ľuďmi nehovorí. Keď prišla jeseň, chodil "
    "každý deň do lesa a vracal sa až večer. Jeho žena zomrela pred mnohými rokmi a deti odišli do mesta, kde mali "
    "prácu. To ráno, keď ho našli, bolo ticho a nad vodou ležala hmla. Susedia hovorili, že je to tak lepšie, ale "
    "nikto tomu neveril. Bol to dobrý človek a pomáhal každému, kto ho o to požiadal. "
)
DANISH = (
    "Den gamle møller boede på gaden ved åen, og ingen vidste, hvorfor han ikke længere talte med folk. Når "
    "efteråret kom, gik han hver dag ud i skoven og kom først hjem om aftenen. Hans kone døde for mange år siden, og "
    "børnene flyttede til byen, hvor de havde arbejde. "
)


def test_polish_czech_and_swedish_are_told_from_the_neighbours_that_share_their_function_words():
    """Slovak prose shows Czech's function words ("že", "je", "to", "ale") without ř ě ů, and with ä ô ľ: it is
    undetermined, not read with Czech's stemmer. Danish shows Swedish's with æ and ø where Swedish writes ä and ö,
    and Norwegian's, whose reading it takes; Czech, which shares some of Polish's, is Czech."""
    assert function_word_counts(SLOVAK).most_common(1)[0][0] == "cs"
    assert detect_language(SLOVAK * 10) == UNDETERMINED
    assert detect_language(DANISH * 10) == "no"  # Danish shares Norwegian's words, read with its stemmer
    assert detect_language(SNIPPETS["cs"] * 40) == "cs" and detect_language(SNIPPETS["hu"] * 40) == "hu"
    assert detect_language(SNIPPETS["pl"] * 40) == "pl" and detect_language(SNIPPETS["sv"] * 40) == "sv"
    assert guess_language("Dlaczego Jaśko został w zamku?") == "pl" and guess_language("Varför slutade Baby?") is None
    assert guess_language("Varför slutade Baby?", beside="sv") == "sv"
    # the later languages' lists leave out what the others write often outside their own lists: English "I", "a",
    # "do", "on", Spanish and French "en", Italian "se" and "tu"
    assert guess_language("What do I owe to him, and why do I go on?") == "en"
    assert guess_language("Is a man on a horse in the story?") == "en"
    assert guess_language("El hombre en la casa") == "es" and guess_language("Miért nem ment el a lány?") == "hu"
    assert guess_language("De ce a plecat Berta din casă?") == "ro"  # "de", "ce" are French's too
    assert (
        guess_language("Hvorfor reiste de til byen?") == "no" and guess_language("Où est la maison de Fogg?") == "fr"
    )


def test_a_book_in_a_latin_language_clueweaver_does_not_know_is_undetermined_not_english():
    """A question shows too few words to judge (None, as names do); a book of Dutch shows a third as
    few function words of any supported language as a book in one of them, and is named ``und``."""
    assert guess_language(DUTCH) is None and detect_language(DUTCH) == "en"
    assert detect_language(DUTCH * 30) == UNDETERMINED
    assert detect_language(SNIPPETS["en"] * 30) == "en" and detect_language(SNIPPETS["pt"] * 30) == "pt"


def test_a_cyrillic_book_without_russian_s_letters_is_undetermined_not_russian():
    ukrainian = "Старий мельник жив на вулиці біля річки, і ніхто не знав, чому він більше не розмовляв з людьми. "
    assert detect_language(ukrainian) == UNDETERMINED  # short, its і without ы, э, ъ, ё or ѣ tells
    assert detect_language(ukrainian * 40) == UNDETERMINED and detect_language(SNIPPETS["ru"] * 40) == "ru"


@pytest.mark.parametrize("name", ["le_tour_du_monde.fr", "effi_briest.de", "marianela.es", "pinocchio.it",
                                  "dom_casmurro.pt", "ottsy_i_deti.ru", "igrok.ru", "kokoro.ja", "sanshiro.ja",
                                  "laocan_youji.zh", "madame_bovary.fr", "cheongchun.ko", "wilcze_gniazdo.pl",
                                  "norrtullsligan.sv", "karbanik.cs", "egy_magyar_amazon.hu",
                                  "en_professor.no", "pacatul_rabinului.ro"])  # fmt: skip
def test_every_bundled_novel_is_detected_as_its_language(name):
    from clueweaver.benchmarks.checks import load_bundled_book

    assert detect_language(load_bundled_book(name).text) == name.rsplit(".", 1)[1]


def test_a_novel_is_sampled_across_its_length_and_cheaply():
    front_matter = "The Project Gutenberg eBook of this book, and the licence that goes with it. " * 200
    novel = front_matter + SNIPPETS["fr"] * 5000  # about 600,000 characters, English only at the start
    assert len(sample(novel)) <= 32_000 + 8
    started = time.perf_counter()
    assert detect_language(novel) == "fr"
    assert time.perf_counter() - started < 0.5  # a few milliseconds here; generous for a busy machine


def test_prose_language_names_prose_not_a_codepage_s_stray_letters():
    """What ``detect_encoding`` asks of a cp1252 reading: a Chinese text's GBK bytes read in cp1252 make
    Latin "words", some of them function words ("à", "é"), but few beside the rest."""
    for language in ("en", "fr", "de", "es", "it", "pt"):
        assert prose_language(SNIPPETS[language]) == language
    misread = (SNIPPETS["zh"] * 20).encode("gbk").decode("cp1252", "replace")
    assert prose_language(misread) is None and prose_language("") is None
