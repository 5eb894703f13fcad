"""The direct reader's head truncation (exact and tight for any budget) and its one-pass answer,
with the scripted backend (a token is a word, so budgets are easy to reason about)."""

from __future__ import annotations

import pytest

from clueweaver.backends import load_backend
from clueweaver.benchmarks.demo import load_demo
from clueweaver.pipeline import DIRECT_INPUT_BUDGETS, DirectReader
from clueweaver.protocol.prompts import interpreter_messages

BOOK, DEMO = load_demo()
QUESTION = DEMO[0].question


def head_tokens(backend, paragraphs: int, chars: int = 0) -> int:
    """Tokens of the Interpreter prompt over the first ``paragraphs`` paragraphs and ``chars``
    characters of the next one, rendered independently of the reader."""
    ids = range(paragraphs + (1 if chars else 0))
    text = BOOK.render(ids, truncate={paragraphs: chars} if chars else None)
    return backend.count_tokens(interpreter_messages(QUESTION, text))


@pytest.mark.parametrize("budget", range(420, 2600, 97))
def test_truncation_is_the_longest_head_within_the_budget(budget):
    backend = load_backend("scripted", "s")
    cut = DirectReader(backend, budget=budget).truncate(BOOK, QUESTION)
    assert not cut.complete
    assert cut.prompt_tokens == backend.count_tokens(interpreter_messages(QUESTION, cut.packet.text))
    assert cut.prompt_tokens == head_tokens(backend, cut.paragraphs, cut.partial_chars) <= budget
    # one character more does not fit
    assert head_tokens(backend, cut.paragraphs, cut.partial_chars + 1) > budget
    assert head_tokens(backend, cut.paragraphs + 1) > budget
    assert cut.packet.paragraph_ids == tuple(range(cut.paragraphs + (1 if cut.partial_chars else 0)))
    assert cut.packet.truncated == ((cut.paragraphs,) if cut.partial_chars else ())


def test_a_book_that_fits_is_read_whole_and_limits_hold():
    backend = load_backend("scripted", "s")
    whole = DirectReader(backend, budget="32k").truncate(BOOK, QUESTION)
    assert whole.complete and whole.paragraphs == len(BOOK) and whole.partial_chars == 0
    assert whole.packet.text == BOOK.render(range(len(BOOK)))
    chapter_two = BOOK.last_paragraph_of_chapter(2)
    limited = DirectReader(backend, budget="32k").truncate(BOOK, QUESTION, max_paragraph=chapter_two)
    assert limited.complete and limited.packet.paragraph_ids == tuple(range(chapter_two + 1))


def test_the_budget_shrinks_to_the_window_and_must_leave_room_for_the_question():
    small_window = load_backend("scripted", "s", max_model_len=1000)
    reader = DirectReader(small_window, budget="128k")
    assert reader.requested_budget == DIRECT_INPUT_BUDGETS["128k"] == 126_976
    assert reader.input_budget == 1000 - 128
    assert reader.truncate(BOOK, QUESTION).prompt_tokens <= 872
    with pytest.raises(ValueError, match="prompt without any text takes"):
        DirectReader(load_backend("scripted", "s"), budget=50).truncate(BOOK, QUESTION)
    with pytest.raises(ValueError, match="unknown budget"):
        DirectReader(small_window, budget="64k")


def test_direct_answer_is_one_pass_with_the_same_parser():
    backend = load_backend("scripted", "s", default="<reason>[3] rain; [35] umbrella</reason><answer>(C)</answer>")
    result = DirectReader(backend, budget=1500).answer(BOOK, QUESTION)
    (call,) = backend.calls
    assert call.sampling.max_new_tokens == 128
    assert call.conversations == [interpreter_messages(QUESTION, result.packet.text)]
    assert (result.system, result.answer, result.fallback) == ("direct", "C", False)
    assert result.citations == (3,) and result.invalid_citations == (35,)  # 35 is past the head
    trace = result.trace
    assert set(trace["timings"]) == {"truncate", "interpret", "total"}
    assert trace["truncation"]["prompt_tokens"] <= 1500 and trace["interpreter"]["calibration"] is None

    unreadable = load_backend("scripted", "s", default="no idea")
    flagged = DirectReader(unreadable, budget=1500).answer(BOOK, DEMO[1].question, max_chapter=3)
    assert len(unreadable.calls) == 1  # no retry: a reminder would overrun the budget
    assert (flagged.answer, flagged.fallback) == ("TRUE", True)
    assert max(flagged.packet.paragraph_ids) <= BOOK.last_paragraph_of_chapter(3)
