"""The query writer (``query_writer: keywords | passage``, off by default): one short generation
before retrieval, whose text retrieval ranks with beside the question (the prompts and the reading
of the reply are ``clueweaver.protocol.query_writer``'s).

It runs on the Finder's backend with no adapter: neither agent's adapter was trained to write
queries, and the base model's guess is what the method asks for. It needs a model: a stand-in
backend (the scripted test double, the offline smoke model) is refused when the reader is built,
naming it, rather than searching with replies that mean nothing. A reply with nothing usable in it
(or a prompt that did not fit) is a warning in the trace, and retrieval uses the question alone.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from clueweaver.backends.base import BackendError, Generation, GenerationBackend, SamplingConfig
from clueweaver.protocol.query_writer import QUERY_WRITER_OFF, query_writer_messages, read_written_query
from clueweaver.protocol.question import Question

# Greedy, as evaluation decodes; 128 tokens hold the 80-word cap of an English passage (about 105
# tokens) and stop a rambling reply early. A list of keywords ends well before.
QUERY_SAMPLING = SamplingConfig(max_new_tokens=128)
NO_QUERY_TOKENS = {"calls": 0, "prompt": 0, "completion": 0}


def check_query_writer(mode: str, backend: GenerationBackend) -> None:
    """Refuse a query writer whose backend only stands in for a model (a BackendError a person can
    act on); nothing to check when it is off."""
    if mode == QUERY_WRITER_OFF or backend.stand_in is None:
        return
    raise BackendError(
        f"--query-writer {mode} (query_writer: {mode}) needs a generating model to write the query, and the "
        f"Finder's backend is {backend.stand_in}, which only stands in for one: name a model (--model or --finder), "
        "or leave the query writer off"
    )


@dataclass(frozen=True)
class WrittenQuery:
    """What the query writer wrote and what retrieval adds to the question (``text``, "" when the
    reply held nothing usable), its cost, and the warning when it could not be used."""

    mode: str
    text: str = ""
    output: str = ""  # the reply as the model wrote it
    generation: dict = field(default_factory=dict)  # its tokens, finish reason and error
    warning: str | None = None

    @classmethod
    def read(cls, mode: str, generation: Generation) -> WrittenQuery:
        fields = {
            "prompt_tokens": generation.prompt_tokens,
            "completion_tokens": generation.completion_tokens,
            "finish_reason": generation.finish_reason,
            "error": generation.error,
        }
        if not generation.ok:
            return cls(mode, "", "", fields, f"query writer: {generation.error}; retrieval used the question alone")
        text = read_written_query(generation.text)
        shown = " ".join(generation.text.split())[:80]
        warning = (
            None
            if text
            else f"query writer: no usable query in its reply {shown!r}; retrieval used the question alone"
        )
        return cls(mode, text, generation.text, fields, warning)

    @classmethod
    def not_run(cls, mode: str, why: str) -> WrittenQuery:
        return cls(mode, warning=f"query writer: not run, {why}")

    def retrieval_question(self, question: Question) -> Question:
        """The question retrieval ranks with: its text followed by the written text, the options
        and kind unchanged (each option's query then carries the written words too)."""
        return dataclasses.replace(question, text=f"{question.text}\n{self.text}") if self.text else question

    def tokens(self) -> dict:
        if not self.generation:
            return dict(NO_QUERY_TOKENS)
        return {
            "calls": 1,
            "prompt": self.generation["prompt_tokens"],
            "completion": self.generation["completion_tokens"],
        }

    def to_dict(self) -> dict:
        return {"mode": self.mode, "text": self.text, "output": self.output, "generation": self.generation}


def write_query(backend: GenerationBackend, question: Question, mode: str, book_language: str) -> WrittenQuery:
    """One generation of the query writer's prompt on ``backend``'s base model, in the book's
    language (retrieval matches its words), read back."""
    generation = backend.generate([query_writer_messages(question, mode, book_language)], QUERY_SAMPLING)[0]
    return WrittenQuery.read(mode, generation)
