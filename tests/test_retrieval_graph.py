"""The graph of names (clueweaver.retrieval.graph): which entities link paragraphs in a cased and in a
Chinese text, personalized PageRank from the best lexical hits, the disk cache, and the signal in
``rank_question``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from clueweaver.books.narrative import from_paragraphs, load_narrative
from clueweaver.protocol.question import Question
from clueweaver.retrieval import build_index
from clueweaver.retrieval.graph import EntityGraph, max_paragraphs

FILLER = [f"the harbour was quiet on day {n} and the gulls circled the boats." for n in range(40)]
QUESTION = "Where was the brass key hidden?"


def book(extra: dict[int, str], filler=FILLER):
    texts = list(filler)
    for position, text in extra.items():
        texts[position] = text
    return from_paragraphs(texts, title="graph", detect_headings=False)


def key_book():
    """The key's paragraph names Quillan; a later one names her and her mill but shares no word with
    the question, and an earlier one names the mill; two others name only each other's people."""
    return book({
        5: "The brass key was hidden in the green shawl that Quillan had knitted for the winter.",
        30: "Quillan never let anyone near her basket at the Marrowby mill.",
        12: "At dusk the miller of Marrowby counted his sacks.",
        20: "Pellow mended his nets by the slipway while Tamsin sang.",
        25: "Old Pellow and Tamsin walked along the cliffs.",
    })  # fmt: skip


def test_names_in_an_english_text_are_the_words_it_capitalizes_inside_sentences():
    narrative = book({
        2: "The wedding of Godfrey Norton was quick, and Holmes stood as witness.",
        9: "\u201cCome in,\u201d said Holmes, and Godfrey Norton entered.",
        14: "Later that day the cab stopped at the church of Saint Monica.",
        22: "Later, they said, the cab had waited by Saint Monica for an hour.",
        27: "Holmes said Come here twice; come now, and come quickly.",
    })  # fmt: skip
    graph = EntityGraph.from_texts([p.text for p in narrative.paragraphs], "en")
    assert {"holmes", "godfrey norton", "godfrey", "norton", "saint monica", "monica"} <= set(graph.entities)
    # "Come" is capitalized inside a sentence once but written lowercase more often; "Later" only opens
    # sentences
    assert "come" not in graph.entities and "later" not in graph.entities
    assert "godfrey norton" in graph.entities_of(9) and "holmes" in graph.entities_of(27)
    assert graph.entities_of(0) == []


def test_a_german_book_links_its_names_not_its_capitalized_nouns():
    """Every German noun is capitalized: the one a determiner precedes ("den Brief") is no name."""
    filler = [f"es war still am {n}. tag, und die möwen kreisten über den booten." for n in range(40)]
    narrative = book({
        3: "Dann las Effi den Brief noch einmal, und Innstetten sah ihr zu.",
        11: "Später fand Crampas den Brief auf dem Tisch in Kessin.",
        19: "Effi legte einen Brief in die Schublade, ehe Crampas kam.",
        26: "Innstetten schrieb aus Kessin, dass er bald komme.",
        33: "Auf dem Tisch lag nichts, und Effi schwieg.",
    }, filler)  # fmt: skip
    graph = EntityGraph.from_texts([p.text for p in narrative.paragraphs], "de")
    assert {"effi", "innstetten", "crampas", "kessin"} <= set(graph.entities)
    assert "brief" not in graph.entities and "tisch" not in graph.entities
    english = EntityGraph.from_texts([p.text for p in narrative.paragraphs], "en")
    assert "brief" in english.entities  # the determiner test is German's alone


def test_names_in_greek_and_in_russian_spelled_before_1918_are_found():
    """Greek capitals (Project Gutenberg's Η Φόνισσα, monotonic) and polytonic ones, and the Cyrillic
    letters Russian wrote before 1918 ("Аркадій"), are letters of a name like any other."""
    fonissa = load_narrative(Path(__file__).parent / "fixtures" / "books_multilingual" / "fonissa_excerpt.el.txt")
    greek = EntityGraph.from_texts([p.text for p in fonissa.paragraphs], "el")
    assert {"φραγκογιαννού", "χαδούλα"} <= set(greek.entities)
    polytonic = book({
        4: "Τότε ὁ Ὀδυσσεὺς εἶπε πρὸς τὸν Ἀλκίνοον τὰ λόγια ταῦτα.",
        18: "Ἔπειτα ὁ Ὀδυσσεὺς ἐκάθισε παρὰ τὸν Ἀλκίνοον.",
    })  # fmt: skip
    assert {"ἀλκίνοον", "ὀδυσσεὺς"} <= set(
        EntityGraph.from_texts([p.text for p in polytonic.paragraphs], "el").entities_of(4)
    )
    old_russian = book({
        3: "Тогда Аркадій обернулся къ Базарову и сказалъ.",
        21: "Въ тотъ вечеръ Аркадій и Базаровъ долго молчали.",
    })  # fmt: skip
    entities = EntityGraph.from_texts([p.text for p in old_russian.paragraphs], "ru").entities
    assert "аркадій" in entities


def test_an_entity_in_too_many_paragraphs_links_nothing():
    filler = [f"Day {n}: Marrowby harbour was quiet, and Quillan counted the boats." for n in range(200)]
    narrative = book({50: "The storm reached Tamsin at the Lantern Inn.", 90: "Tamsin left the Lantern Inn."}, filler)
    graph = EntityGraph.from_texts([p.text for p in narrative.paragraphs], "en")
    assert max_paragraphs(200) < 198
    assert "quillan" not in graph.entities and "marrowby" not in graph.entities
    assert {"tamsin", "lantern inn"} <= set(graph.entities)


def test_repeated_character_ngrams_of_a_chinese_text_are_its_entities():
    filler = [f"第{n}天，他们在河边慢慢地走着，说了很多话。" for n in range(60)]
    texts = list(filler)
    texts[3] = "宝玉走进潇湘馆，看见黛玉正在读书。"
    texts[20] = "潇湘馆外的竹子被风吹得沙沙作响，宝玉听了很久。"
    texts[41] = "夜里，紫鹃从潇湘馆出来，遇见了宝玉。"
    texts[50] = "薛蟠喝醉了酒，在街上大喊。"
    graph = EntityGraph.from_texts(texts, "zh")
    assert {"潇湘馆", "潇湘", "湘馆", "宝玉"} <= set(graph.entities)  # in three paragraphs
    assert "薛蟠" not in graph.entities and "黛玉" not in graph.entities  # in one paragraph
    assert not any("的" in entity or "了" in entity for entity in graph.entities)  # function characters
    assert "河边" not in graph.entities  # in every filler paragraph: too common
    assert "潇湘馆" in graph.entities_of(41)


def test_pagerank_from_a_seed_reaches_a_paragraph_that_shares_its_name_but_no_word_with_the_query():
    narrative = key_book()
    index = build_index(narrative, None, use_cache=False, graph_weight=1.0)
    lexical = index.bm25_scores(QUESTION)
    assert lexical[30] == 0 and lexical[20] == 0  # no word of the question
    scores = index.graph_scores(lexical)
    assert scores[30] > 0 and scores[20] == 0  # Quillan's other paragraph; not Pellow's
    assert scores[5] > scores[30]  # the seed itself keeps the most
    # Marrowby links the mill's paragraphs: a second step reaches the miller, below the first step
    assert scores[30] > scores[12] > 0


def test_pagerank_never_enters_paragraphs_past_the_limit():
    graph = EntityGraph.from_texts([p.text for p in key_book().paragraphs], "en")
    assert len(graph.personalized_pagerank({5: 1.0}, 0.5, limit=25)) == 25
    assert graph.personalized_pagerank({5: 1.0}, 0.5, limit=31)[30] > 0
    # the miller's paragraph is reached only through paragraph 30
    assert graph.personalized_pagerank({5: 1.0}, 0.5)[12] > 0
    assert graph.personalized_pagerank({5: 1.0}, 0.5, limit=25)[12] == 0
    assert not graph.personalized_pagerank({30: 1.0}, 0.5, limit=25).any()  # the seed is past the limit


def test_a_text_without_entities_gives_no_signal_and_no_error():
    narrative = book({5: "the brass key was hidden in the green shawl by the door."})
    graph = EntityGraph.from_texts([p.text for p in narrative.paragraphs], "en")
    assert graph.entities == [] and len(graph) == len(narrative)
    assert not graph.personalized_pagerank({5: 1.0}).any()
    question = Question.open(QUESTION)
    with_graph = build_index(narrative, None, use_cache=False).rank_question(question)
    assert with_graph == build_index(narrative, None, use_cache=False, graph_weight=0.0).rank_question(question)
    assert not EntityGraph.from_texts([], "en").personalized_pagerank({0: 1.0}).any()


def ids(index, question) -> list[int]:
    return [i for i, _ in index.rank_question(question)]


def test_the_signal_reorders_rank_question_when_on_and_not_at_weight_zero():
    narrative = key_book()
    question = Question.open(QUESTION)
    off_index = build_index(narrative, None, use_cache=False, feedback_docs=0, graph_weight=0.0)
    assert off_index.graph is None  # weight 0: the graph is not even built
    plain = ids(off_index, question)
    on_index = build_index(narrative, None, use_cache=False, feedback_docs=0)  # on by default for open questions
    assert on_index.graph_weight == 0.6 and on_index.graph is not None
    on = ids(on_index, question)
    assert on != plain
    assert 30 in on and 30 not in plain  # Quillan's other paragraph, ranked only through the graph
    assert 20 not in on or on.index(30) < on.index(20)  # above an unrelated one


def test_by_default_the_graph_serves_open_questions_only():
    narrative = key_book()
    choice = Question(QUESTION, {"A": "in the green shawl", "B": "in the cellar"})
    claim = Question.claim("The brass key was hidden in the green shawl.")
    off_index = build_index(narrative, None, use_cache=False, feedback_docs=0, graph_weight=0.0)
    default = build_index(narrative, None, use_cache=False, feedback_docs=0)
    every = build_index(narrative, None, use_cache=False, feedback_docs=0, graph_questions="all")
    for question in (choice, claim):
        assert ids(default, question) == ids(off_index, question)
        assert 30 in ids(every, question) and 30 not in ids(off_index, question)


def two_clue_book(filler: str, first_clue: str, second_clue: str):
    """Forty lines of ``filler`` (formatted with the line's number), the first clue at line 5 and the second, which
    shares only a name with it, at line 30."""
    texts = [filler.format(n) for n in range(40)]
    texts[5], texts[30] = first_clue, second_clue
    return from_paragraphs(texts, title="clues", detect_headings=False)


def test_a_russian_book_is_read_unsmoothed_with_the_graph_for_every_question_unless_told_otherwise():
    """The settings RankingConfig leaves unset are the book language's (``LANGUAGE_SETTINGS``): chosen on the
    two Russian tuning sets; an explicit setting wins, and an English book keeps the defaults."""
    narrative = two_clue_book(
        "В тот день, {}-го числа, над гаванью кружили чайки и было тихо.",
        "Медный ключ был спрятан в зелёной шали, которую связала Маргарита Павловна.",
        "Маргарита Павловна никого не подпускала к своей корзине на мельнице.",
    )
    claim = Question.claim("Медный ключ был спрятан в зелёной шали.")
    russian = build_index(narrative, None, use_cache=False, feedback_docs=0)
    assert russian.language == "ru"
    assert (russian.config.smoothing, russian.config.graph_questions, russian.graph_weight) == (0.0, "all", 0.6)
    assert 30 in ids(russian, claim)  # through the name alone: the graph serves a claim too
    told = build_index(narrative, None, use_cache=False, feedback_docs=0, smoothing=0.15, graph_questions="open")
    assert (told.config.smoothing, told.config.graph_questions) == (0.15, "open") and 30 not in ids(told, claim)
    english = build_index(key_book(), None, use_cache=False)
    assert (english.config.smoothing, english.config.graph_questions) == (0.15, "open")


def test_a_book_in_a_language_without_an_analyzer_is_read_with_the_graph_for_every_question():
    """``und``'s settings, chosen on fourteen tuning sets read as ``und``: a tenth of each neighbour's score, and
    the graph of names for a claim too, which reaches the paragraph that shares only the name."""
    narrative = two_clue_book(
        "Op de {}de dag vlogen de meeuwen boven de haven en was alles stil.",
        "De koperen sleutel lag verstopt in de groene sjaal die Margriet Verhoeven had gebreid.",
        "Margriet Verhoeven liet niemand bij haar mand op de molen komen.",
    )
    claim = Question.claim("De koperen sleutel lag verstopt in de groene sjaal.")
    dutch = build_index(narrative, None, use_cache=False, language="und", feedback_docs=0)  # a Dutch novel is und
    assert (dutch.config.smoothing, dutch.config.graph_questions, dutch.graph_weight) == (0.1, "all", 0.6)
    told = build_index(narrative, None, use_cache=False, language="und", feedback_docs=0, graph_questions="open")
    # right after the first clue's ten neighbours (smoothing) with the graph; at index 39 without it
    assert ids(dutch, claim).index(30) == 11 and ids(told, claim).index(30) == 39


def test_a_chinese_book_gets_no_graph_unless_asked():
    texts = [f"第{n}天，他们在河边慢慢地走着。" for n in range(30)]
    texts[3], texts[20] = "宝玉走进潇湘馆，看见黛玉在读书。", "潇湘馆外，宝玉听见黛玉在哭。"
    texts[26] = "夜深了，潇湘馆里还亮着灯。"
    narrative = from_paragraphs(texts, title="红楼", detect_headings=False)
    default = build_index(narrative, None, use_cache=False)
    assert default.language == "zh" and default.graph_weight == 0 and default.graph is None
    asked = build_index(narrative, None, use_cache=False, graph_weight=0.6)
    assert "潇湘馆" in asked.graph.entities
    assert asked.graph_scores(asked.bm25_scores("宝玉走进潇湘馆"))[20] > 0


def test_the_graph_is_cached_with_the_index_and_a_corrupt_file_is_rebuilt(tmp_path, monkeypatch):
    narrative = key_book()
    first = build_index(narrative, None, cache_dir=tmp_path, graph_weight=1.0)
    [cached] = tmp_path.rglob("graph_en.npz")

    def no_building(*args, **kwargs):
        raise AssertionError("the cached graph was built again")

    monkeypatch.setattr(EntityGraph, "from_texts", no_building)
    second = build_index(narrative, None, cache_dir=tmp_path, graph_weight=1.0)
    assert second.graph.entities == first.graph.entities
    np.testing.assert_array_equal(second.graph.indices, first.graph.indices)
    monkeypatch.undo()

    cached.write_bytes(b"garbage")
    with pytest.warns(UserWarning, match="unreadable"):
        third = build_index(narrative, None, cache_dir=tmp_path, graph_weight=1.0)
    assert third.graph.entities == first.graph.entities
    assert build_index(narrative, None, cache_dir=tmp_path, graph_weight=1.0).graph.entities == first.graph.entities
    # without the signal nothing is written for the graph
    other = book({1: "A different book about Quillan."})
    build_index(other, None, cache_dir=tmp_path, graph_weight=0.0)
    assert len(list(tmp_path.rglob("graph_*.npz"))) == 1


def test_graph_settings_are_checked():
    with pytest.raises(ValueError):
        build_index(key_book(), None, use_cache=False, graph_damping=1.0)
    with pytest.raises(ValueError):
        build_index(key_book(), None, use_cache=False, graph_seeds=-1)
    with pytest.raises(ValueError):
        build_index(key_book(), None, use_cache=False, graph_questions="mcq")
