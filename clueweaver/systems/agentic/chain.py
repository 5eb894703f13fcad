"""Chain-of-Agents (Zhang et al. 2024): workers read the book in narrative order, one chunk of
whole paragraphs each (up to the reading limit), each rewriting the running notes it got from the
worker before; a manager answers from the last notes in the protocol.

The manager sees the notes, not the book, so its packet (what its citations are checked against)
is the set of paragraphs the notes cite. A chain stopped at a limit hands the notes it has to the
manager, whose answer is then flagged; so is one given after a part did not fit the model's
window (ending ``prompt_too_long``), since the notes then miss that part of the book."""

from __future__ import annotations

from clueweaver.books.narrative import Narrative
from clueweaver.protocol.agentic_prompts import manager_messages, worker_messages
from clueweaver.protocol.citations import paragraph_references
from clueweaver.systems.agentic.run import ANSWERED, AgentRun
from clueweaver.systems.base import ReaderOutput


def chunk_spans(narrative: Narrative, last: int, chunk_chars: int) -> list[tuple[int, int]]:
    """Paragraphs 0..``last`` cut into runs of at most ``chunk_chars`` characters, in narrative
    order; a paragraph longer than that is a chunk of its own (paragraphs are never split, so
    every ID a worker cites is whole)."""
    spans, start, size = [], 0, 0
    for i in range(last + 1):
        length = len(narrative[i].text) + 1
        if i > start and size + length > chunk_chars:
            spans.append((start, i - 1))
            start, size = i, 0
        size += length
    spans.append((start, last))
    return spans


def chain_of_agents(run: AgentRun) -> ReaderOutput:
    question, limits = run.question, run.limits
    spans = chunk_spans(run.narrative, run.last, limits.chunk_chars)
    words = max(1, limits.step_tokens * 2 // 3)  # the notes' length the workers are asked for
    read: list[list[int]] = []
    run.extra["parts"] = {"total": len(spans), "read": read}
    notes, ending, unread = "", None, 0
    for number, (first, last) in enumerate(spans, 1):
        ending = run.limit_reached()
        if ending:
            break
        run.next_step()
        part = run.render(range(first, last + 1))
        generation = run.ask(
            worker_messages(question, notes, part, (number, len(spans)), (first, last), words), "worker"
        )
        if not generation.ok:  # the run warned: this part did not fit the window and stays unread
            unread += 1
            continue
        run.shown.update(range(first, last + 1))
        read.append([first, last])
        if generation.text.strip():
            notes = generation.text.strip()
        else:
            run.warnings.append(f"worker {number}: empty notes; the earlier notes were kept")
    stopped_after = spans[run.steps - 1][1] if ending else None
    if ending:
        run.warnings.append(f"the chain stopped after {run.steps} of {len(spans)} parts")
    elif unread:  # the manager answers without part of the book: a forced, flagged ending
        run.warnings.append(f"{unread} of {len(spans)} parts did not fit the model's window and were not read")
        ending = "prompt_too_long"
    packet, _ = paragraph_references(notes, run.shown)
    return run.final(manager_messages(question, notes, stopped_after), ending or ANSWERED, packet)
