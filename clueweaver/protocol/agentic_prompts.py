"""Prompts of the agentic baselines (ReAct, IRCoT, Self-Ask, Chain-of-Agents) and the readers of
their step outputs, in one place beside the agents' own prompts.

Every agent ends in the protocol's final output, ``<reason>...</reason>`` then the question's
answer line (``answer_format``), read by ``parse_interpreter`` like the Interpreter's; the steps
before it have their own small formats, read here: a ReAct search action, an IRCoT reasoning
sentence, a Self-Ask follow-up question. Paragraphs are always shown as ``[id] text`` lines, so
the final reason cites them like every other system's. The wording is this project's own; the
methods follow Yao et al. 2023 (ReAct), Trivedi et al. 2023 (IRCoT), Press et al. 2023
(Self-Ask) and Zhang et al. 2024 (Chain-of-Agents). Like the agents' prompts they are in English
whatever the book's language, and say two things about language: the steps that become searches
are written in the narrative's language (retrieval is lexical, in the book's words), and an open
answer in the question's (it is scored against references in that language).
"""

from __future__ import annotations

import re

from clueweaver.protocol.prompts import answer_format, render_case
from clueweaver.protocol.question import Question

_TASK = {
    "mcq": "answer a multiple-choice question about it",
    "claim": "decide whether a claim about it is TRUE or FALSE",
    "open": "answer an open question about it in a few words or one short sentence",
}
_SUBJECT = {"mcq": "question", "claim": "claim", "open": "question"}
_ANSWER_RULE = {
    "mcq": "Pick the option the evidence supports best; for a NOT or EXCEPT question, pick the one that does not hold.",
    "claim": "The claim is TRUE only if all of it holds; one contradicted detail (who, what, when, where, why, the "
    "order of events) makes it FALSE.",
    "open": "Put only the short answer in the answer field, in the language of the question, without paragraph "
    "IDs; the reason explains it.",
}
_FINAL_RULES = """Rules for the final output:
- Use only {source}, not outside knowledge of the work.
- In the reason, cite the IDs of the paragraphs you rely on, like [12] or [12, 14], and name the detail that decides the answer.
- {answer_rule}
- Always commit to one answer; never reply that the evidence is insufficient."""
_FINAL_FORMAT = "<reason>...</reason>\n{answer_format}"
_NARRATIVE = "a long narrative (a novel, story, script or archive)"
_IDS = "each paragraph starting with its ID in square brackets, like [12]"

REACT_SYSTEM = f"""You are a search agent working on {_NARRATIVE} that is too long to read whole. You {{task}} by searching the narrative and reading the paragraphs each search returns, {_IDS}.

Each turn, do exactly one of two things.
A. Search. Write one thought and one search action, then stop:
Thought: <what you still need to find out>
Action: search[<a short query: names, places, objects, events>]
Write the query in the language of the narrative: the search matches its words. The search returns the {{top_k}} best-matching paragraphs you have not been shown yet.
B. Answer, once the paragraphs shown so far settle it, in exactly this format:
{_FINAL_FORMAT}

You have {{max_steps}} turns. When a search brings nothing useful, search again with other words.

{_FINAL_RULES}"""

IRCOT_SYSTEM = f"""You reason about {_NARRATIVE} one sentence at a time. You {{task}}. You see paragraphs retrieved from the narrative, in narrative order, {_IDS}; after each sentence you write, the paragraphs that best match that sentence are added.

Each turn, write exactly one of:
A. The next single sentence of your reasoning: a fact from the paragraphs with its ID, like [12], or what follows from the sentences before. Let it name what is still missing, so that the next retrieval can find it, in the language of the narrative, whose words retrieval matches. One sentence only.
B. When the reasoning settles the answer, the final output, in exactly this format:
{_FINAL_FORMAT}

{_FINAL_RULES}"""

SELF_ASK_SYSTEM = f"""You work on {_NARRATIVE} by first asking yourself simpler follow-up questions. You {{task}}. Each follow-up question is answered from the paragraphs of the narrative that best match it; the paragraphs retrieved so far are shown in narrative order, {_IDS}.

Each turn, write exactly one of:
A. The next follow-up question, on one line:
Follow up: <a short question about one person, place, object or event, in the language of the narrative, whose words retrieval matches>
B. When the intermediate answers settle it, the final output, in exactly this format:
{_FINAL_FORMAT}

{_FINAL_RULES}"""

INTERMEDIATE_SYSTEM = f"""You answer one short question about {_NARRATIVE} from the paragraphs retrieved for it, {_IDS}.

Reply with one sentence that answers the question and cites the IDs of the paragraphs it relies on, like [12]. If the paragraphs do not answer it, say so in one sentence. Use only the paragraphs."""

WORKER_SYSTEM = f"""You are one reader in a chain of readers going through {_NARRATIVE} in order, one part each, so that a manager can {{task}} from the last reader's notes alone. You receive the notes of the readers before you and the next part of the narrative, {_IDS}.

Rules:
1. Rewrite the notes: keep what the earlier notes found, add every fact, event, name or detail of your part that bears on the {{subject}}, and change an earlier note only where your part contradicts it.
2. Give each fact the ID of the paragraph it comes from, like [12]: the manager never sees the narrative.
3. Write only the updated notes, as short sentences, at most about {{words}} words. If your part adds nothing, repeat the earlier notes unchanged."""

MANAGER_SYSTEM = f"""You are the manager of a chain of readers who read {_NARRATIVE} in order and left notes, each fact with the ID of the paragraph it comes from, like [12]. You {{task}} using only these notes.

{_FINAL_RULES}

Output format, exactly (nothing before or after):
{_FINAL_FORMAT}"""

# What the agent is told after a step it could not use, and when its turns or budget run out.
NO_ACTION = "Your last reply had neither an Action: search[...] line nor a final output. Search, or answer."
NO_SENTENCE = "Your last reply had no sentence of reasoning. Write one sentence, or the final output."
NO_FOLLOW_UP = "Your last reply had neither a 'Follow up:' line nor a final output. Ask one, or answer."
ILLEGAL_ANSWER = "Your last final output could not be read: the answer field must hold {answer_format}."
_FORCED = {
    "step_limit": "You have used all your turns.",
    "token_limit": "The reading budget is spent.",
    "prompt_too_long": "The reading no longer fits the model's window.",
}
_FORCED_CLOSING = "{why} Give the final output now, from what you have read, in exactly this format:\n" + _FINAL_FORMAT
_NOTHING_YET = "(none yet)"


_ANSWER_TAG = re.compile(r"<\s*answer\s*>", re.IGNORECASE)


def gives_answer(text: str) -> bool:
    """A step output that opens an answer field is the agent's final output."""
    return bool(_ANSWER_TAG.search(text))


def _fields(question: Question, source: str = "the paragraphs shown to you") -> dict[str, str]:
    return {
        "task": _TASK[question.kind],
        "answer_format": answer_format(question),
        "source": source,
        "answer_rule": _ANSWER_RULE[question.kind],
    }


def _conversation(system: str, user: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def forced_closing(question: Question, ending: str) -> str:
    """The instruction that ends a reading at a limit: give the final output now."""
    return _FORCED_CLOSING.format(why=_FORCED[ending], answer_format=answer_format(question))


def illegal_answer(question: Question) -> str:
    return ILLEGAL_ANSWER.format(answer_format=answer_format(question))


def with_closing(messages: list[dict[str, str]], text: str) -> list[dict[str, str]]:
    """The conversation with ``text`` closing its last (user) message."""
    return [*messages[:-1], {**messages[-1], "content": f"{messages[-1]['content']}\n\n{text}"}]


# --- ReAct -------------------------------------------------------------------------------------


def react_messages(question: Question, top_k: int, max_steps: int) -> list[dict[str, str]]:
    """The opening of a ReAct conversation; turns and observations are appended to it."""
    system = REACT_SYSTEM.format(top_k=top_k, max_steps=max_steps, **_fields(question))
    return _conversation(system, f"{render_case(question)}\n\nSearch the narrative, then answer.")


def observation(query: str, found: str | None, turns_left: int) -> str:
    """What a search returned (``found``: ``[id] text`` lines, None when nothing new matched)."""
    head = (
        f'Observation: paragraphs for "{query}":\n{found}'
        if found
        else f'Observation: no paragraph you have not seen matches "{query}". Search with other words.'
    )
    return f"{head}\n\nTurns left: {turns_left}."


def notice(text: str, turns_left: int) -> str:
    """A step the agent could not use, said back as its observation."""
    return f"Observation: {text}\n\nTurns left: {turns_left}."


_SEARCH_ACTION = re.compile(r"\bsearch\s*(?:\[([^\]\n]*)\]|:\s*([^\n]*))", re.IGNORECASE)


def search_query(text: str) -> str | None:
    """The query of a ReAct step's first ``search[...]`` (or ``search: ...``) action, or None."""
    found = _SEARCH_ACTION.search(text)
    query = " ".join((found.group(1) or found.group(2) or "").split()).strip("\"'") if found else ""
    return query or None


# --- IRCoT -------------------------------------------------------------------------------------


def ircot_messages(
    question: Question, evidence: str, sentences: list[str], closing: str | None = None
) -> list[dict[str, str]]:
    """One IRCoT step: the paragraphs retrieved so far and the reasoning so far; ``closing``
    replaces the request for the next sentence (a notice before it, or the forced final)."""
    reasoning = " ".join(sentences) or _NOTHING_YET
    closing = closing or "Write the next sentence of the reasoning, or the final output."
    user = (
        f"{render_case(question)}\n\nParagraphs retrieved so far:\n{evidence or _NOTHING_YET}\n\n"
        f"Reasoning so far:\n{reasoning}\n\n{closing}"
    )
    return _conversation(IRCOT_SYSTEM.format(**_fields(question)), user)


_THOUGHT_PREFIX = re.compile(
    r"^\s*(?:(?:thought|reasoning|next sentence|step \d+)\s*:|\d+[.)]|[-*])\s*", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'\u201d\u2019)\]]*\s")


def next_sentence(text: str) -> str | None:
    """The first sentence of an IRCoT step (a label such as "Thought:" dropped), or None."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return None
    first = _THOUGHT_PREFIX.sub("", lines[0]).strip()
    sentence = _SENTENCE_END.split(first, maxsplit=1)[0].strip()
    return sentence or None


# --- Self-Ask ----------------------------------------------------------------------------------


def self_ask_messages(
    question: Question, evidence: str, exchanges: list[tuple[str, str]], closing: str | None = None
) -> list[dict[str, str]]:
    """One Self-Ask step: the paragraphs retrieved so far and the follow-up questions with their
    intermediate answers; ``closing`` as in ``ircot_messages``."""
    asked = "\n".join(f"Follow up: {q}\nIntermediate answer: {a}" for q, a in exchanges) or _NOTHING_YET
    closing = closing or "Are more follow-up questions needed? Ask the next one, or give the final output."
    user = (
        f"{render_case(question)}\n\nParagraphs retrieved so far:\n{evidence or _NOTHING_YET}\n\n"
        f"Follow-up questions so far:\n{asked}\n\n{closing}"
    )
    return _conversation(SELF_ASK_SYSTEM.format(**_fields(question)), user)


def intermediate_messages(follow_up: str, paragraphs: str) -> list[dict[str, str]]:
    """A follow-up question answered from the paragraphs retrieved for it."""
    return _conversation(
        INTERMEDIATE_SYSTEM, f"Question: {follow_up}\n\nParagraphs:\n{paragraphs}\n\nAnswer in one sentence."
    )


NO_MATCH = "No paragraph of the narrative matches this question."
_FOLLOW_UP = re.compile(r"follow[\s-]*up(?:\s+question)?\s*:\s*([^\n]+)", re.IGNORECASE)


def follow_up(text: str) -> str | None:
    """The question of a Self-Ask step's first ``Follow up:`` line, or None."""
    found = _FOLLOW_UP.search(text)
    question = " ".join(found.group(1).split()) if found else ""
    return question or None


def first_line(text: str) -> str:
    """An intermediate answer kept to its first line (the model may run on)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else ""


# --- Chain-of-Agents ---------------------------------------------------------------------------


def worker_messages(
    question: Question, notes: str, part: str, position: tuple[int, int], span: tuple[int, int], words: int
) -> list[dict[str, str]]:
    """A worker's prompt: the notes so far and part ``position[0]`` of ``position[1]`` (the
    paragraphs ``span``), rendered as ``[id] text`` lines."""
    system = WORKER_SYSTEM.format(task=_TASK[question.kind], subject=_SUBJECT[question.kind], words=words)
    user = (
        f"{render_case(question)}\n\nNotes so far:\n{notes or '(none yet: you read the first part)'}\n\n"
        f"Part {position[0]} of {position[1]} (paragraphs {span[0]}-{span[1]}):\n{part}\n\nWrite the updated notes."
    )
    return _conversation(system, user)


def manager_messages(question: Question, notes: str, stopped_after: int | None = None) -> list[dict[str, str]]:
    """The manager's prompt over the last notes; ``stopped_after``: the last paragraph the chain
    read when it stopped at a limit before the end of the reading."""
    system = MANAGER_SYSTEM.format(**_fields(question, source="the readers' notes"))
    early = (
        f"\n\nThe readers stopped at a limit: their notes cover paragraphs up to {stopped_after} only."
        if stopped_after is not None
        else ""
    )
    user = f"{render_case(question)}\n\nThe readers' notes:\n{notes or '(the readers noted nothing)'}{early}\n\n"
    return _conversation(system, user + "Give the final output from the notes.")
