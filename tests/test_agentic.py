"""The agentic baselines (ReAct, IRCoT, Self-Ask, Chain-of-Agents) end to end on the scripted
backend over the Gull Point story: what each step does with the model's reply, the limits and the
forced final answers they lead to, token accounting against the backend's own counts, legal and
illegal endings, and the reading limit. Runs of several systems in one report are in
test_agentic_eval.py."""

from __future__ import annotations

import pytest

from clueweaver.backends import SamplingConfig
from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.books.narrative import from_paragraphs
from clueweaver.evaluation.predictions import read_predictions
from clueweaver.evaluation.runner import EvalConfig, run_evaluation
from clueweaver.protocol import agentic_prompts as prompts
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index
from clueweaver.systems.agentic import AgentError, AgentModel, AgentReader, agent_limits
from clueweaver.systems.agentic.chain import chunk_spans
from clueweaver.systems.agentic.reader import retrieval_label
from tests.test_evaluation_runner import ITEMS, PARAGRAPHS, write_benchmark

BOOK = from_paragraphs(PARAGRAPHS, title="The Lantern at Gull Point")
QUESTION = Question(
    "Who darkened the lantern?", {"A": "Mrs. Hale", "B": "Tobias", "C": "The constable", "D": "The tavern keeper"}
)
FINAL_B = "<reason>The key was in Tobias's sea coat [14].</reason><answer>B</answer>"
FAMILIES = {
    "react": prompts.REACT_SYSTEM,
    "ircot": prompts.IRCOT_SYSTEM,
    "self-ask": prompts.SELF_ASK_SYSTEM,
    "intermediate": prompts.INTERMEDIATE_SYSTEM,
    "worker": prompts.WORKER_SYSTEM,
    "manager": prompts.MANAGER_SYSTEM,
}


def family(messages) -> str:
    """Which agentic prompt a conversation is (by its system message)."""
    system = messages[0]["content"]
    return next(name for name, template in FAMILIES.items() if system.startswith(template.split("{")[0]))


def scripted(window: int = 32768, **replies) -> ScriptedBackend:
    """Replies per prompt family, taken in order (the last one repeats); a callable reply gets the
    conversation. ``window`` is the model's window in (whitespace) tokens."""
    queues = {name: list(reply) if isinstance(reply, list) else [reply] for name, reply in replies.items()}

    def script(messages, adapter):
        queue = queues[family(messages)]
        reply = queue.pop(0) if len(queue) > 1 else queue[0]
        return reply(messages) if callable(reply) else reply

    return ScriptedBackend(script=script, max_model_len=window)


def reader(system: str, backend: ScriptedBackend, **limits) -> AgentReader:
    model = AgentModel(backend, None, SamplingConfig(max_new_tokens=320))

    def index(narrative):
        return get_index(narrative, None)

    return AgentReader(system, model, agent_limits(system, limits), index, retrieval=retrieval_label(None))


def words(messages) -> int:
    """The scripted backend's prompt tokens: whitespace words of the joined messages."""
    return len("\n".join(m["content"] for m in messages).split())


def last_user(call) -> str:
    return call.conversations[0][-1]["content"]


def forced(text: str):
    """A reply that answers only when the final output is forced, and searches otherwise."""
    return lambda messages: FINAL_B if "Give the final output now" in messages[-1]["content"] else text


# --- ReAct -----------------------------------------------------------------------------------------


def test_react_searches_then_answers_from_what_it_was_shown():
    backend = scripted(react=["Thought: where was the key?\nAction: search[brass key coat]", FINAL_B])
    output = reader("react", backend)(BOOK, QUESTION)
    agent = output.details["agent"]
    [search] = agent["searches"]
    assert search["query"] == "brass key coat" and search["step"] == 1
    assert len(search["ids"]) == 4 and 14 in search["ids"]  # top_k paragraphs, the coat among them
    assert output.packet_ids == tuple(sorted(search["ids"]))  # the packet is what the searches showed
    assert (output.prediction, output.cited_ids, output.invalid_ids) == ("B", (14,), ())
    assert (agent["steps"], agent["ending"], agent["forced_final"]) == (2, "answered", False)
    observation = last_user(backend.calls[1])
    assert observation.startswith('Observation: paragraphs for "brass key coat":') and "Turns left: 7." in observation
    assert f"[14] {PARAGRAPHS[14]}" in observation
    assert output.outputs == {"final": FINAL_B} and output.details["warnings"] == []
    assert set(output.timings) == {"retrieve", "reason", "answer"} and output.timings["answer"] == 0.0
    assert agent["retrieval"].startswith("BM25 alone (no dense encoder in this run")


def test_the_agents_ranking_is_named_for_the_machine():
    assert retrieval_label("bge-m3") == "BM25 and bge-m3 fused (the pipeline's ranking)"
    assert retrieval_label("none").startswith("BM25 alone") and "BGE-M3" in retrieval_label(None)


def test_every_call_is_counted_as_the_backend_counts_it():
    replies = ["Thought: the key.\nAction: search[brass key]", "Action: search[schooner rocks]", FINAL_B]
    backend = scripted(react=list(replies))
    output = reader("react", backend)(BOOK, QUESTION)
    calls = output.details["agent"]["calls"]
    assert len(calls) == len(backend.calls) == 3
    for record, call in zip(calls, backend.calls):
        assert record["prompt_tokens"] == words(call.conversations[0])
    assert [c["completion_tokens"] for c in calls] == [len(reply.split()) for reply in replies]
    assert output.details["tokens"] == {
        "prompt": sum(c["prompt_tokens"] for c in calls),
        "completion": sum(c["completion_tokens"] for c in calls),
    }
    assert all(c["role"] == "step" and c["finish_reason"] == "stop" for c in calls)
    # the conversation grows by each turn and its observation, so every prompt is longer than the last
    assert calls[0]["prompt_tokens"] < calls[1]["prompt_tokens"] < calls[2]["prompt_tokens"]


def test_react_at_its_step_limit_gets_a_forced_and_flagged_final_answer():
    backend = scripted(react=forced("Thought: more.\nAction: search[lantern key]"))
    output = reader("react", backend, max_steps=3)(BOOK, QUESTION)
    agent = output.details["agent"]
    assert (agent["steps"], agent["ending"], agent["forced_final"]) == (3, "step_limit", True)
    assert [c["role"] for c in agent["calls"]] == ["step", "step", "step", "final"]
    assert last_user(backend.calls[-1]).endswith(prompts.forced_closing(QUESTION, "step_limit"))
    assert output.prediction == "B"  # the forced answer is kept, and flagged
    assert "stopped at the step limit: the final answer was forced (flagged)" in output.details["warnings"]
    shown = [i for s in agent["searches"] for i in s["ids"]]
    assert len(shown) == len(set(shown))  # each search returned only paragraphs not shown before


def test_react_stops_at_its_token_limit():
    backend = scripted(react=forced("Action: search[lantern]"))
    output = reader("react", backend, max_tokens=1)(BOOK, QUESTION)
    agent = output.details["agent"]
    assert (agent["steps"], agent["ending"]) == (1, "token_limit")
    assert last_user(backend.calls[-1]).endswith(prompts.forced_closing(QUESTION, "token_limit"))
    assert output.prediction == "B" and agent["forced_final"]


def test_an_illegal_answer_in_a_step_is_said_back_and_the_agent_goes_on():
    backend = scripted(react=["<reason>It was someone.</reason><answer>E</answer>", FINAL_B])
    output = reader("react", backend)(BOOK, QUESTION)
    said = last_user(backend.calls[1])
    assert prompts.illegal_answer(QUESTION) in said and "<answer>A/B/C/D</answer>" in said
    assert output.prediction == "B" and output.details["agent"]["ending"] == "answered"
    assert output.details["warnings"] == ["step 1: a final output without a legal answer"]


def test_a_step_without_an_action_is_said_back():
    backend = scripted(react=["I wonder about the lantern.", FINAL_B])
    output = reader("react", backend)(BOOK, QUESTION)
    assert prompts.NO_ACTION in last_user(backend.calls[1])
    assert output.details["warnings"] == ["step 1: neither a search action nor a final output"]
    assert output.packet_ids == () and output.invalid_ids == (14,)  # it cited a paragraph it was never shown


# --- IRCoT -----------------------------------------------------------------------------------------


def test_ircot_retrieves_with_each_new_sentence_of_its_reasoning():
    first = "The brass key hung on a nail beside the kitchen door [4]."
    backend = scripted(
        ircot=[f"Thought: {first} Then more text.", "The key was missing when the constable arrived.", FINAL_B]
    )
    output = reader("ircot", backend)(BOOK, QUESTION)
    searches = output.details["agent"]["searches"]
    assert [s["query"] for s in searches] == [QUESTION.text, first, "The key was missing when the constable arrived."]
    assert [s["step"] for s in searches] == [0, 1, 2]
    ids = [i for s in searches for i in s["ids"]]
    assert len(ids) == len(set(ids)) and output.packet_ids == tuple(sorted(ids))
    second_prompt = last_user(backend.calls[1])
    assert f"Reasoning so far:\n{first}\n" in second_prompt
    assert all(f"[{i}] {PARAGRAPHS[i]}" in second_prompt for i in searches[0]["ids"] + searches[1]["ids"])
    assert output.prediction == "B" and output.details["agent"]["steps"] == 3


def test_ircot_at_its_step_limit_is_forced_to_answer_from_its_reasoning():
    backend = scripted(ircot=forced("The lantern went dark at nine o'clock [7]."))
    output = reader("ircot", backend, max_steps=2)(BOOK, QUESTION)
    final_prompt = last_user(backend.calls[-1])
    assert "Reasoning so far:\nThe lantern went dark at nine o'clock [7]. The lantern went dark" in final_prompt
    assert final_prompt.endswith(prompts.forced_closing(QUESTION, "step_limit"))
    assert output.details["agent"]["ending"] == "step_limit" and output.prediction == "B"


# --- Self-Ask --------------------------------------------------------------------------------------


def test_self_ask_answers_its_follow_up_questions_by_retrieval_and_the_model():
    backend = scripted(
        **{
            "self-ask": ["Follow up: Where was the brass key found?\nIntermediate answer: guessed", FINAL_B],
            "intermediate": "It was in the pocket of Tobias's sea coat [14].\nMore.",
        }
    )
    output = reader("self-ask", backend)(BOOK, QUESTION)
    agent = output.details["agent"]
    assert [c["role"] for c in agent["calls"]] == ["step", "intermediate", "step"]
    [search] = agent["searches"]
    assert search["query"] == "Where was the brass key found?" and 14 in search["ids"]
    assert f"[14] {PARAGRAPHS[14]}" in last_user(backend.calls[1])  # the intermediate answer read the paragraphs
    assert (
        "Follow up: Where was the brass key found?\nIntermediate answer: It was in the pocket of Tobias's sea coat "
        "[14]." in last_user(backend.calls[2])
    )
    assert output.prediction == "B" and output.packet_ids == tuple(sorted(search["ids"]))


def test_a_follow_up_nothing_matches_is_answered_without_the_model():
    backend = scripted(**{"self-ask": ["Follow up: Zebras?", FINAL_B], "intermediate": "unused"})
    output = reader("self-ask", backend)(BOOK, QUESTION)
    assert [c["role"] for c in output.details["agent"]["calls"]] == ["step", "step"]
    assert f"Intermediate answer: {prompts.NO_MATCH}" in last_user(backend.calls[1])


# --- Chain-of-Agents -------------------------------------------------------------------------------


def _note_the_key(messages) -> str:
    """A worker that keeps the notes and adds every paragraph of its part about the key or the coat."""
    user = messages[-1]["content"]
    notes = user.split("Notes so far:\n")[1].split("\n\nPart ")[0]
    notes = "" if notes.startswith("(none yet") else notes
    part = user.split("):\n", 1)[1]
    found = [line.split("]")[0] + "]" for line in part.splitlines() if "key" in line or "coat" in line]
    return " ".join([notes, *(f"The key is in {ref}." for ref in found)]).strip() or "Nothing yet."


def test_chain_of_agents_reads_every_part_in_order_passing_its_notes():
    backend = scripted(worker=_note_the_key, manager="<reason>Key in [14], also [99].</reason><answer>B</answer>")
    output = reader("chain-of-agents", backend, chunk_chars=150)(BOOK, QUESTION)
    spans = chunk_spans(BOOK, len(BOOK) - 1, 150)
    assert len(spans) > 3
    agent = output.details["agent"]
    assert agent["parts"] == {"total": len(spans), "read": [list(s) for s in spans]}
    assert [s[0] for s in spans[1:]] == [s[1] + 1 for s in spans[:-1]] and spans[-1][1] == len(BOOK) - 1
    workers = backend.calls[:-1]
    for number, (call, (first, last)) in enumerate(zip(workers, spans), 1):
        assert f"Part {number} of {len(spans)} (paragraphs {first}-{last}):" in last_user(call)
    for before, after in zip(workers, workers[1:]):  # each worker gets the notes the one before wrote
        assert f"Notes so far:\n{_note_the_key(before.conversations[0])}\n" in last_user(after)
    notes = _note_the_key(workers[-1].conversations[0])
    assert f"The readers' notes:\n{notes}" in last_user(backend.calls[-1])
    assert output.packet_ids == (4, 13, 14)  # the manager's packet: the paragraphs the notes cite
    assert (output.prediction, output.cited_ids, output.invalid_ids) == ("B", (14,), (99,))
    assert (agent["steps"], agent["ending"], agent["forced_final"]) == (len(spans), "answered", False)


def test_chain_of_agents_stopped_at_its_step_limit_hands_its_notes_to_the_manager():
    backend = scripted(worker=_note_the_key, manager=FINAL_B)
    output = reader("chain-of-agents", backend, chunk_chars=150, max_steps=2)(BOOK, QUESTION)
    spans = chunk_spans(BOOK, len(BOOK) - 1, 150)
    agent = output.details["agent"]
    assert agent["parts"]["read"] == [list(s) for s in spans[:2]] and agent["ending"] == "step_limit"
    assert f"their notes cover paragraphs up to {spans[1][1]} only" in last_user(backend.calls[-1])
    assert output.details["warnings"][0] == f"the chain stopped after 2 of {len(spans)} parts"
    assert output.prediction == "B" and agent["forced_final"]


def test_chain_of_agents_that_could_not_read_a_part_ends_flagged():
    backend = scripted(window=700, worker="Notes.", manager=FINAL_B)  # the book does not fit, the notes do
    output = reader("chain-of-agents", backend, chunk_chars=10**6)(BOOK, QUESTION)
    agent = output.details["agent"]
    assert [c["role"] for c in agent["calls"]] == ["worker", "final"]
    assert agent["parts"] == {"total": 1, "read": []}
    assert (agent["ending"], agent["forced_final"]) == ("prompt_too_long", True)
    assert "1 of 1 parts did not fit the model's window and were not read" in output.details["warnings"]
    assert output.packet_ids == () and output.prediction == "B"  # the manager answered from its notes


def test_chunks_hold_whole_paragraphs_and_a_long_one_alone():
    assert chunk_spans(BOOK, 16, 10**6) == [(0, 16)]
    assert chunk_spans(BOOK, 16, 1) == [(i, i) for i in range(17)]
    spans = chunk_spans(BOOK, 9, 120)
    assert spans[-1][1] == 9
    for first, last in spans:
        assert last == first or sum(len(BOOK[i].text) + 1 for i in range(first, last + 1)) <= 120


# --- every agent ----------------------------------------------------------------------------------

NEVER_ANSWERS = {
    "react": "I cannot tell.",
    "ircot": "<reason>Unclear.</reason><answer>maybe</answer>",
    "self-ask": "Hmm.",
    "intermediate": "unused",
    "worker": "Nothing.",
    "manager": "I cannot tell.",
}


@pytest.mark.parametrize("system", ["react", "ircot", "self-ask", "chain-of-agents"])
def test_an_agent_that_never_answers_legally_is_recorded_without_a_prediction(system, tmp_path):
    bench = write_benchmark(tmp_path, ITEMS[:2])
    backend = scripted(**NEVER_ANSWERS)
    config = EvalConfig(benchmark="jsonl", system=system, path=str(bench), output=str(tmp_path / "run"), encoder=None)
    run_evaluation(config, reader(system, backend, max_steps=2), progress=False)
    records = read_predictions(tmp_path / "run")
    assert [r["item_id"] for r in records] == ["q1", "q2"]
    for record in records:
        assert record["prediction"] is None and not record["correct"] and not record["answer_legal"]
        final_calls = [c for c in record["details"]["agent"]["calls"] if c["role"] == "final"]
        assert len(final_calls) == 2  # one retry with a format reminder, as the Interpreter gets
        warnings = record["details"]["warnings"]
        assert "no legal final answer: recorded without a prediction (flagged)" in warnings
        assert record["details"]["agent"]["ending"] == ("answered" if system == "chain-of-agents" else "step_limit")
        assert record["outputs"]["final"] == NEVER_ANSWERS["manager" if system == "chain-of-agents" else system]


def _far_searcher(messages) -> str:
    """Every step looks for what only lies past paragraph 9 (the coat, the arrest)."""
    last = messages[-1]["content"]
    if "Give the final output now" in last:
        return FINAL_B
    return {
        "react": "Action: search[brass key sea coat handkerchief arrested]",
        "ircot": "The brass key was found in the sea coat pocket and Tobias was arrested.",
        "self-ask": "Follow up: Who was arrested for the brass key in the sea coat pocket?",
    }[family(messages)]


@pytest.mark.parametrize("system", ["react", "ircot", "self-ask", "chain-of-agents"])
def test_no_agent_reads_past_the_reading_limit(system):
    replies = {name: _far_searcher for name in ("react", "ircot", "self-ask")}
    backend = scripted(**replies, intermediate="Nobody yet [9].", worker="Tobias left early [10].", manager=FINAL_B)
    limits = {"chunk_chars": 150} if system == "chain-of-agents" else {"max_steps": 3}
    output = reader(system, backend, **limits)(BOOK, QUESTION, max_paragraph=9)
    prompts_seen = "\n".join(m["content"] for call in backend.calls for m in call.conversations[0])
    assert not any(PARAGRAPHS[i] in prompts_seen for i in range(10, len(PARAGRAPHS)))
    assert all(i <= 9 for s in output.details["agent"]["searches"] for i in s["ids"])
    assert all(i <= 9 for i in output.packet_ids) and 14 in output.invalid_ids
    if system == "chain-of-agents":
        assert output.details["agent"]["parts"]["read"][-1][1] == 9
        assert output.packet_ids == ()  # the notes cite [10], which no worker read
    else:
        assert output.details["agent"]["searches"]  # it did search, and found only what lies before the limit


@pytest.mark.parametrize("system", ["react", "ircot", "self-ask", "chain-of-agents"])
def test_every_agent_judges_claims_and_answers_open_questions_in_the_protocol(system):
    cases = [
        (Question.claim("The brass key was found in Tobias's sea coat."), "TRUE", "<answer>TRUE or FALSE</answer>"),
        (Question.open("Where was the key?"), "In Tobias's sea coat", "<answer>a short free-text answer</answer>"),
    ]
    for question, answer, format_line in cases:
        final = f"<reason>The pocket of his sea coat [14].</reason><answer>{answer}</answer>"
        first = {"react": "Action: search[brass key sea coat]", "ircot": "The key was in a coat.",
                 "self-ask": "Follow up: Where was the key?"}  # fmt: skip
        replies = {name: [reply, final] for name, reply in first.items()}
        backend = scripted(**replies, intermediate="In his coat [14].", worker="Key in the coat [14].", manager=final)
        limits = {"chunk_chars": 400} if system == "chain-of-agents" else {}
        output = reader(system, backend, **limits)(BOOK, question)
        assert (output.prediction, output.answer_legal, output.cited_ids) == (answer, True, (14,))
        system_prompt = backend.calls[-1].conversations[0][0]["content"]
        assert format_line in system_prompt
        # an open answer is scored against references in the question's language
        assert ("in the language of the question" in system_prompt) == question.is_open
        assert output.details["agent"]["ending"] == "answered"


@pytest.mark.parametrize("name", ["react", "ircot", "self-ask"])
def test_the_steps_that_become_searches_are_asked_in_the_books_language(name):
    """Retrieval is lexical, in the book's words: an English query finds nothing in a Chinese novel."""
    assert "in the language of the narrative" in FAMILIES[name]


# --- limits --------------------------------------------------------------------------------------


def test_limits_start_from_each_systems_defaults_and_bad_ones_are_named():
    assert agent_limits("react").max_steps == 8 and agent_limits("chain-of-agents").max_steps == 64
    assert agent_limits("ircot", {"max_steps": 2}).max_steps == 2
    with pytest.raises(AgentError, match="chunk_chars do not apply to react"):
        agent_limits("react", {"chunk_chars": 100})
    with pytest.raises(AgentError, match="top_k do not apply to chain-of-agents"):
        agent_limits("chain-of-agents", {"top_k": 3})
    with pytest.raises(AgentError, match="max_steps must be a whole number >= 1, got 0"):
        agent_limits("self-ask", {"max_steps": 0})
    with pytest.raises(AgentError, match="unknown agent limit"):
        agent_limits("react", {"steps": 3})
    with pytest.raises(AgentError, match="apply to the agentic systems only"):
        EvalConfig(benchmark="jsonl", system="rag-bm25", agent={"max_steps": 2})
    with pytest.raises(AgentError, match="--context-budget does not apply to ircot"):
        EvalConfig(benchmark="jsonl", system="ircot", pipeline={"context_tokens": 1500})
    with pytest.raises(AgentError, match="no self-calibration pass"):
        EvalConfig(benchmark="jsonl", system="react", self_calibration=False)
    labelled = EvalConfig(benchmark="jsonl", system="react", agent={"max_steps": 3, "top_k": 2})
    assert labelled.default_label() == "react max_steps=3 top_k=2"
