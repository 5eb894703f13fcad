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


def test_a_question_or_option_holding_half_a_character_is_refused_saying_where():
    # "\udcff" is how Python keeps a byte that is not UTF-8 in a command line's arguments
    refused = r'the question holds a lone surrogate \(U\+DCFF, character 2: "K\ufffd宝"\)'
    with pytest.raises(QuestionError, match=refused):
        Question.open("K\udcff宝")
    with pytest.raises(QuestionError, match=r"option B holds a lone surrogate \(U\+D800, character 3"):
        Question("Who?", {"A": "Nell", "B": "To\ud800m"})
    assert Question.open("K😀宝").text == "K😀宝"  # a character outside the BMP is one character, not a pair


@pytest.mark.slow  # a fresh interpreter (or a second indexing process) starts: seconds
def test_a_command_line_question_with_a_byte_that_is_not_utf_8_is_an_error_not_a_traceback():
    import subprocess
    import sys
    from importlib.resources import files

    book = files("clueweaver") / "data" / "books" / "kokoro.ja.txt.gz"  # MeCab could not encode the byte
    command = [sys.executable, "-m", "clueweaver", "segment", str(book), "--question", "先生".encode() + b"\xff"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "the question holds a lone surrogate (U+DCFF, character 3" in result.stderr
