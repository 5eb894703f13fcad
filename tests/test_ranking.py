"""The ranking's optional signals, off by default (docs/retrieval.md: measured on the tuning set and
not taken) but kept working: the per-option reserve, aspect sub-queries of options and claim
clauses, and the entity second hop through the names in the best hits."""

from __future__ import annotations

from clueweaver.books.narrative import from_paragraphs
from clueweaver.protocol.question import Question
from clueweaver.retrieval import build_index
from clueweaver.retrieval.ranking import aspect_queries, claim_clauses, names_in, reserve_first

FILLER = [f"The harbour was quiet on day {n} and the gulls circled the boats." for n in range(40)]


def book(extra: dict[int, str]):
    texts = list(FILLER)
    for position, text in extra.items():
        texts[position] = text
    return from_paragraphs(texts, title="ranking", detect_headings=False)


def test_reserve_first_takes_each_lists_best_in_turn_then_the_rest_of_the_ranking():
    ranking = [(5, 0.9), (3, 0.8), (7, 0.5), (1, 0.2)]
    assert reserve_first(ranking, [[7, 1], [3]]) == [(7, 0.5), (3, 0.8), (1, 0.2), (5, 0.9)]
    assert reserve_first(ranking, []) == ranking
    # a reserved paragraph the fused ranking lacks takes the top score
    assert reserve_first(ranking, [[9]])[0] == (9, 0.9)


def test_option_reserve_brings_each_options_best_paragraph_to_the_front():
    question = Question(
        "Who owned the lantern found on the quay?",
        {"A": "the lantern keeper of the quay", "B": "a sailor named Orrin"},
    )
    narrative = book({
        3: "The lantern found on the quay was cracked; the lantern keeper of the quay denied it was his lantern.",
        4: "The lantern on the quay burned all night by the lantern keeper's door.",
        30: "Orrin, a sailor named in the ledger, owned a lantern once.",
    })  # fmt: skip
    plain = build_index(narrative, None, use_cache=False).rank_question(question)
    reserved = build_index(narrative, None, use_cache=False, option_reserve=1).rank_question(question)
    assert 30 not in [i for i, _ in plain][:2]
    first, second = [i for i, _ in reserved][:2]
    assert first in (3, 4) and second == 30  # option A's best, then option B's best
    assert sorted(i for i, _ in reserved) == sorted(i for i, _ in plain)  # the same paragraphs, reordered


def test_claim_clauses_cut_at_commas_and_clause_words_and_keep_at_least_three_words():
    claim = "Jo sold her hair, and later she bought a train ticket because Marmee needed the money in Washington"
    assert claim_clauses(claim) == [
        "Jo sold her hair",
        "later she bought a train ticket",
        "Marmee needed the money in Washington",
    ]
    assert claim_clauses("Meg wed John, then") == ["Meg wed John then"]  # a short tail joins the clause before
    assert claim_clauses("Beth played the piano") == ["Beth played the piano"]


def test_aspect_queries_are_the_options_alone_or_the_claims_clauses():
    mcq = Question("Who hid it?", {"A": "the vicar", "B": "the widow"})
    assert aspect_queries(mcq) == ["the vicar", "the widow"]
    assert aspect_queries(Question.claim("Jo sold her hair, because Marmee needed money")) == [
        "Jo sold her hair",
        "Marmee needed money",
    ]
    assert aspect_queries(Question.claim("Beth played the piano")) == []  # one part: nothing to add


def test_aspect_weight_adds_one_signal_per_aspect_sharing_the_weight(monkeypatch):
    from clueweaver.retrieval.index import RetrievalIndex

    fused, original = [], RetrievalIndex._fuse

    def recording(index, signals):
        fused.append(signals)
        return original(index, signals)

    monkeypatch.setattr(RetrievalIndex, "_fuse", recording)
    claim = Question.claim("The gulls circled the boats, while the widow buried the brass key in the garden")
    narrative = book({25: "The widow buried the brass key under the chapel step."})
    build_index(narrative, None, use_cache=False, feedback_docs=0).rank_question(claim)
    build_index(narrative, None, use_cache=False, feedback_docs=0, aspect_weight=0.5).rank_question(claim)
    off, on = ([weight for _, weight, _ in signals] for signals in fused)
    assert off == [1.0] and on == [1.0, 0.25, 0.25]  # the claim's two clauses share the weight
    assert int(fused[1][2][0].argmax()) == 25  # the clause about the widow, asked alone


def test_names_in_are_capitalized_words_inside_sentences_that_the_question_lacks_most_frequent_first():
    texts = ["Then Laurie met Meg at the ball, and Laurie danced.", "Meg smiled at Brooke. Brooke bowed."]
    assert names_in(texts, "Whom did Meg meet?") == ["Laurie", "Brooke"]
    assert names_in(["Then they left. Later it rained."], "anything") == []  # words opening sentences


def test_the_entity_hop_asks_for_the_names_of_the_best_hits():
    question = Question.claim("The brass key was hidden in the green shawl")
    narrative = book({
        10: "The brass key was hidden in the green shawl that Mrs Quillan had knitted.",
        33: "Quillan never let anyone near her basket.",
    })  # fmt: skip
    index = build_index(narrative, None, use_cache=False, feedback_docs=0, entity_hop_weight=1.0)
    lexical = index.bm25_scores("The brass key was hidden in the green shawl")
    assert "quillan" in index.entity_hop_terms(lexical, question)
    hop = [i for i, _ in index.rank_question(question)]
    plain = [i for i, _ in build_index(narrative, None, use_cache=False, feedback_docs=0).rank_question(question)]
    assert 33 in hop and (33 not in plain or hop.index(33) < plain.index(33))
