"""The "open" question kind (free-text benchmarks such as GutenQA) beside mcq and claim."""

import pytest

from clueweaver.protocol.question import Question, QuestionError


def test_open_question_has_no_answer_space_and_queries_its_text():
    question = Question.open("Why does Mr. Woodhouse feel fortunate?")
    assert question.is_open and not question.is_claim
    assert question.labels == ()
    assert question.queries() == ["Why does Mr. Woodhouse feel fortunate?"]
    assert hash(question) == hash(Question.open("Why does Mr. Woodhouse feel fortunate?"))


def test_open_question_takes_no_options_and_other_kinds_are_unchanged():
    with pytest.raises(QuestionError, match="an open question takes no options"):
        Question("Why?", {"A": "x", "B": "y"}, kind="open")
    with pytest.raises(QuestionError, match="a claim takes no options"):
        Question("It rained.", {"A": "x"}, kind="claim")
    with pytest.raises(QuestionError, match="unknown question kind 'essay'"):
        Question("Why?", kind="essay")
    claim = Question.claim("It rained.")
    assert claim.labels == ("TRUE", "FALSE") and claim.queries() == ["It rained."] and not claim.is_open
    mcq = Question("Who?", {"B": "Tom", "A": "Nell"})
    assert mcq.labels == ("A", "B") and mcq.queries() == ["Who?", "Who? Nell", "Who? Tom"]
