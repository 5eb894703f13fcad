"""Open questions (free-text answers with cited paragraphs) through the protocol, the pipeline and
the command line: the Finder's prompt unchanged, the open-answer Interpreter and its
self-calibration pass, the reader's answer over HTTP from a stand-in OpenAI server, and the bad
inputs named."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from clueweaver.backends.base import evidence_tokens
from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.benchmarks.demo import load_demo
from clueweaver.cli import main
from clueweaver.pipeline import ClueWeaver, DirectReader, format_result
from clueweaver.protocol.calibration import needs_self_calibration
from clueweaver.protocol.parse import parse_interpreter
from clueweaver.protocol.prompts import TEMPLATES, calibration_messages, finder_messages, interpreter_messages
from clueweaver.protocol.question import Question
from tests.openai_standin import OpenAIStandIn

BOOK_FILE = str(files("clueweaver").joinpath("data", "demo_mystery.md"))
BOOK, _ = load_demo()
OPEN = Question.open("Why did Hester doubt Silas Garrow's account of the storm night?")
PLAIN_OPEN = Question.open("Who keeps the lamps on the quay?")
SEGMENT = "[6] Hester put out her lamp a little after midnight.\n[7] The storm rattled the shutters."


def test_the_finder_reads_an_open_question_with_the_multiple_choice_prompt_word_for_word():
    mcq = Question(PLAIN_OPEN.text, {"A": "Tobias Wren", "B": "Silas Garrow"})
    open_system, open_user = finder_messages(PLAIN_OPEN, SEGMENT)
    assert open_system == finder_messages(mcq, SEGMENT)[0]
    assert open_user["content"] == f"Question: {PLAIN_OPEN.text}\n\nSegment:\n{SEGMENT}"
    assert TEMPLATES["finder", "open"] is TEMPLATES["finder", "mcq"]


def test_open_interpreter_and_calibration_prompts_ask_for_a_short_cited_answer():
    system, user = interpreter_messages(OPEN, SEGMENT)
    assert system["content"].rstrip().endswith("<reason>...</reason>\n<answer>a short free-text answer</answer>")
    assert "a few words or one short sentence" in system["content"] and "cite the IDs" in system["content"]
    assert user["content"].startswith(f"Question: {OPEN.text}\n\nEvidence packet:\n{SEGMENT}") and "(A)" not in user
    provisional = "<reason>[6] her lamp</reason><answer>She saw his wet umbrella</answer>"
    recheck = calibration_messages(OPEN, SEGMENT, provisional)
    assert "Check each paragraph the provisional reason cites" in recheck[0]["content"]
    assert "Drop every citation of a paragraph that does not support the answer" in recheck[0]["content"]
    assert recheck[1]["content"].endswith(
        f"Provisional output:\n{provisional}\n\nRe-check the provisional answer and give the final output."
    )


@pytest.mark.parametrize(
    ("reply", "answer", "cited"),
    [
        (
            "<reason>See [6] and [7].</reason><answer>Hester put out her lamp.</answer>",
            "Hester put out her lamp.",
            (6, 7),
        ),
        ("<reason>[6]</reason><answer>**Answer: after midnight**</answer>", "after midnight", (6,)),
        ('<reason>[6]</reason><answer>"Silas Garrow"</answer>', "Silas Garrow", (6,)),
        ("<reason>[6]</reason><answer>...</answer>", None, (6,)),
        ("<reason>[6]</reason><answer>a short free-text answer</answer>", None, (6,)),
        ("<reason>[6] and [99]</reason><answer>the vicar", "the vicar", (6,)),
    ],
)
def test_open_answers_are_parsed_like_any_interpreter_reply(reply, answer, cited):
    parsed = parse_interpreter(reply, OPEN, allowed_ids=[6, 7])
    assert parsed.answer == answer and parsed.answer_legal == (answer is not None)
    assert parsed.cited_ids == cited
    assert parsed.invalid_ids == ((99,) if "[99]" in reply else ())


def test_tau_fires_on_an_open_question_by_its_cues_or_always_when_configured():
    assert needs_self_calibration(OPEN)  # "why" is a causal cue
    assert not needs_self_calibration(PLAIN_OPEN)
    assert needs_self_calibration(PLAIN_OPEN, always_kinds=("claim", "open"))


def test_the_pipeline_answers_an_open_question_and_self_calibration_drops_unsupporting_citations():
    backend = scripted_reader_backend()
    result = ClueWeaver(backend, encoder=None).answer(BOOK, OPEN)
    assert result.answer_legal and not result.fallback and result.answer_source == "calibration"
    provisional = result.trace["interpreter"]["provisional"]["attempts"][0]
    dropped = result.trace["interpreter"]["calibration_dropped_ids"]
    assert dropped and set(dropped) <= set(provisional["cited_ids"])
    assert set(result.citations) == set(provisional["cited_ids"]) - set(dropped)
    assert result.answer == provisional["answer"] and result.answer in result.packet.text.replace("\n", " ")
    assert backend.calls[0].conversations[0][0] == finder_messages(OPEN, "x")[0]  # the Finder's own prompt
    text = format_result(result, BOOK)
    assert f"Answer: {result.answer}  (confirmed by self-calibration)" in text
    assert f"Self-calibration dropped citations that do not support the answer: {dropped}" in text


def test_switching_calibration_revises_an_open_answer_and_a_plain_one_is_not_rechecked():
    switched = ClueWeaver(scripted_reader_backend("switch"), encoder=None).answer(BOOK, OPEN)
    assert switched.calibration_changed and switched.answer != switched.trace["interpreter"]["provisional"]["answer"]
    plain = ClueWeaver(scripted_reader_backend(), encoder=None).answer(BOOK, PLAIN_OPEN)
    assert plain.trace["interpreter"]["calibration"] is None and plain.answer_source == "provisional"
    always = ClueWeaver(scripted_reader_backend(), encoder=None, always_calibrate=("claim", "open"))
    assert always.answer(BOOK, PLAIN_OPEN).trace["interpreter"]["calibration_triggered"]


def test_an_unreadable_open_answer_is_a_flagged_empty_fallback():
    backend = scripted_reader_backend()
    backend._script = lambda messages, adapter: (
        "<reason>Words recur in [6].</reason><answer>YES</answer>" if "Finder" in messages[0]["content"] else "no tags"
    )
    result = ClueWeaver(backend, encoder=None).answer(BOOK, PLAIN_OPEN)
    assert result.fallback and result.answer == "" and not result.answer_legal
    assert "no Interpreter output could be read: no answer (flagged)" in result.trace["warnings"]


def test_a_context_budget_in_tokens_bounds_the_packet_and_the_direct_readers_text():
    backend = scripted_reader_backend()  # tokens are words
    count = evidence_tokens(backend)
    packet = ClueWeaver(backend, encoder=None, context_tokens=150).answer(BOOK, OPEN).packet
    assert 0 < count(packet.text) <= 150 < count(ClueWeaver(backend, encoder=None).answer(BOOK, OPEN).packet.text)
    direct = DirectReader(backend, budget=30_000, evidence_tokens=120).answer(BOOK, OPEN)
    cut = direct.trace["truncation"]
    overhead = backend.count_tokens(interpreter_messages(OPEN, "(nothing)"))
    assert cut["prompt_tokens"] <= overhead + 120 and direct.answer_legal
    assert direct.trace["config"]["evidence_tokens"] == 120


def ask_args(*question: str, base_url: str) -> list[str]:
    return ["ask", BOOK_FILE, *question, "--encoder", "none", "--backend", "openai", "--model", "scripted",
            "--base-url", base_url]  # fmt: skip


def test_ask_answers_an_open_question_through_an_openai_server(capsys):
    with OpenAIStandIn() as server:
        assert main([*ask_args("--question", OPEN.text, base_url=server.base_url), "--json"]) == 0
        payload = json.loads(capsys.readouterr().out)
        assert main(ask_args("--question", OPEN.text, base_url=server.base_url)) == 0
        text = capsys.readouterr().out
    assert payload["trace"]["question"] == {"text": OPEN.text, "kind": "open", "options": {}}
    assert payload["answer"] and payload["citations"] and payload["answer_source"] == "calibration"
    system_prompts = {request["messages"][0]["content"] for request in server.requests}
    assert (
        TEMPLATES["interpreter", "open"].system.format(answer_format="<answer>a short free-text answer</answer>")
        in system_prompts
    )
    assert f"Question: {OPEN.text}" in text and f"Answer: {payload['answer']}" in text


def test_segment_takes_an_open_question(capsys):
    assert main(["segment", BOOK_FILE, "--question", PLAIN_OPEN.text, "--encoder", "none", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["kind"] == "open" and payload["segments"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--question", "Who?", "--open", "--option", "A=Tom"], "an open question takes no --option (got A)"),
        (["--question", "Who?", "--option", "A=Tom"], "one --option (A) makes no multiple-choice question"),
        (["--question", "   "], "--question is empty"),
        (["--claim", " "], "--claim is empty"),
        (["--claim", "It rained.", "--open"], "give either --claim TEXT or --question"),
    ],
)
def test_bad_open_questions_are_named_on_the_command_line(arguments, message, capsys):
    assert main(["segment", BOOK_FILE, *arguments, "--encoder", "none"]) == 2
    assert message in capsys.readouterr().err
