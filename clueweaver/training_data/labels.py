"""Evidence labels where a benchmark gives no paragraph IDs: weak labels matched from BMDS clue
descriptions, and silver labels from a teacher model.

Weak labels: a BMDS clue description ("The hair discovered in the drawer") is matched to the
paragraphs of the story before its reveal by word overlap: a paragraph's *coverage* is the
IDF-weighted share of the clue's content words (stemmed, stop words dropped, as retrieval
tokenizes) it contains; the words that only say a clue was found ("The pendant found", "The hair
found in the drawer") are not among them, since "found" in a paragraph is as often someone finding
something else ("you've found it, eh?", "He found Herndon"). The paragraphs at or above a
threshold are the evidence, unless more of them pass than a citation may hold (the clue is too
generic to locate, and the case is dropped); a paragraph that matches partly but not enough makes
its segment ambiguous, so it is used neither as a positive nor as a negative. The thresholds were
set by reading weak rows against their stories (docs/finder_weak_labels.md).

Silver labels: the teacher reads the Finder's own prompt for a segment, told the known answer, and
answers in the Finder's format (parsed by the protocol's parser): YES with the paragraph IDs that
support the answer, or NO. Replies are cached on disk (one JSONL line per prompt, keyed by a hash
of the teacher model, sampling and prompt) and appended as they arrive, so an interrupted run
resumes where it stopped and a rebuild asks nothing twice.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from tqdm.auto import tqdm

from clueweaver.backends import SamplingConfig, load_backend
from clueweaver.books.language import detect_language
from clueweaver.books.narrative import Narrative
from clueweaver.core.jsonl import complete_lines
from clueweaver.protocol.parse import ParseResult, parse_finder
from clueweaver.protocol.prompts import finder_messages
from clueweaver.protocol.question import Question
from clueweaver.retrieval import tokenize
from clueweaver.training_data.common import TeacherConfig

# --- weak labels from clue descriptions --------------------------------------------------------

# Clue words left out of the match: they tell how the clue came to light, not what it is. With
# them, 2 of the 22 weak positives of the fourth hand-checked round matched on "found" in another
# sense (docs/finder_weak_labels.md).
WEAK_IGNORE_WORDS = ("found", "find")


@dataclass
class ClueMatch:
    """How well each paragraph of a readable narrative matches one clue description."""

    terms: tuple[str, ...]  # the clue's content words
    coverage: np.ndarray  # per paragraph: IDF-weighted share of ``terms`` it contains, 0..1
    matched: np.ndarray  # per paragraph: how many distinct terms it contains

    def passing(self, min_coverage: float) -> list[int]:
        """The paragraphs with coverage >= ``min_coverage`` and at least two clue words (one when
        the clue has a single content word), best covered first."""
        needed = min(2, len(self.terms))
        found = [
            i for i in range(len(self.coverage)) if self.coverage[i] >= min_coverage and self.matched[i] >= needed
        ]
        return sorted(found, key=lambda i: (-self.coverage[i], i))

    def evidence(self, *, min_coverage: float, max_paragraphs: int) -> tuple[int, ...]:
        """The passing paragraphs, ascending; empty when none passes, or when more than
        ``max_paragraphs`` do: a clue that matches that many places ("The telegram", "The
        letter") does not say which one it means."""
        passing = self.passing(min_coverage)
        return tuple(sorted(passing)) if len(passing) <= max_paragraphs else ()

    def ambiguous(self, paragraph_ids: Sequence[int], evidence: Sequence[int], threshold: float) -> bool:
        """Whether a span without the evidence still holds a paragraph matching the clue at
        ``threshold`` or more: too uncertain for a negative."""
        chosen = set(evidence)
        return any(self.coverage[i] >= threshold for i in paragraph_ids if i not in chosen)


def match_clue(narrative: Narrative, clue: str, ignore_words: Sequence[str] = WEAK_IGNORE_WORDS) -> ClueMatch:
    """Coverage of ``clue`` in every paragraph of ``narrative`` (see the module docstring), the
    ``ignore_words`` (as tokenized) left out of the clue's words."""
    language = detect_language(narrative.text)  # one analyzer for the book and its clue
    paragraphs = [set(tokenize(p.text, language)) for p in narrative.paragraphs]
    ignored = set(tokenize(" ".join(ignore_words), language))
    terms = tuple(sorted(set(tokenize(clue, language)) - ignored))
    if not terms:
        zeros = np.zeros(len(paragraphs))
        return ClueMatch((), zeros, zeros.astype(int))
    document_frequency = Counter(t for words in paragraphs for t in words if t in terms)
    idf = {t: math.log(1 + len(paragraphs) / (1 + document_frequency[t])) for t in terms}
    total = sum(idf.values())
    coverage = np.array([sum(idf[t] for t in terms if t in words) / total for words in paragraphs])
    matched = np.array([sum(t in words for t in terms) for words in paragraphs])
    return ClueMatch(terms, coverage, matched)


# --- silver labels from a teacher --------------------------------------------------------------

TEACHER_NOTE = (
    "\n\nYou are labelling training data, so the correct answer is known: {known}. Rule 3 does not "
    "apply here. Answer YES only if the segment itself contains evidence for this answer (for a "
    "FALSE claim: evidence that contradicts the claim), and cite every paragraph that carries it. "
    "Otherwise answer NO, even when the segment is on the same topic."
)


def known_answer_statement(question: Question, answer: str) -> str:
    """The known answer as the teacher is told it."""
    if question.is_claim:
        return f"the claim is {answer}"
    return f"option ({answer}) {question.options[answer]}"


def teacher_messages(question: Question, answer: str, segment_text: str) -> list[dict[str, str]]:
    """The Finder's prompt for the segment, with the known answer added to its instructions; the
    teacher answers in the Finder's own format."""
    messages = finder_messages(question, segment_text)
    system = messages[0]["content"] + TEACHER_NOTE.format(known=known_answer_statement(question, answer))
    return [{"role": "system", "content": system}, *messages[1:]]


@dataclass(frozen=True)
class TeacherRequest:
    question: Question
    answer: str
    segment_text: str
    allowed_ids: tuple[int, ...]


class TeacherLabeler:
    """Labels segments with a generation backend (anything with ``generate(conversations,
    sampling) -> [Generation(text, ...)]``), through a resumable on-disk cache.

    ``generated`` counts the conversations actually sent to the backend (cache misses).
    """

    CACHE_FILE = "teacher_labels.jsonl"

    def __init__(
        self,
        backend: Any,
        *,
        model: str,
        cache_dir: str | Path,
        sampling: Any = None,
        sampling_key: dict | None = None,
        batch_size: int = 32,
    ) -> None:
        self.backend, self.model, self.sampling, self.batch_size = backend, model, sampling, batch_size
        self._sampling_key = sampling_key or {}
        self.cache_path = Path(cache_dir) / self.CACHE_FILE
        self.generated = 0
        self.failed = 0
        self._cache: dict[str, str] = {}
        if self.cache_path.is_file():
            for number, line in enumerate(complete_lines(self.cache_path), start=1):
                try:
                    record = json.loads(line)
                    self._cache[record["key"]] = record["text"]
                except (json.JSONDecodeError, KeyError, TypeError):
                    raise ValueError(f"{self.cache_path}, line {number}: not a teacher cache record") from None

    @classmethod
    def from_config(cls, config: TeacherConfig) -> "TeacherLabeler | None":
        """The configured teacher (None when ``config.backend`` is null)."""
        if config.backend is None:
            return None
        backend = load_backend(config.backend, config.model, **config.options)
        return cls(
            backend,
            model=config.model,
            cache_dir=config.cache_dir,
            sampling=SamplingConfig.from_dict(config.sampling),
            sampling_key=config.sampling,
            batch_size=config.batch_size,
        )

    def __len__(self) -> int:
        return len(self._cache)

    def key(self, messages: list[dict]) -> str:
        payload = {"model": self.model, "sampling": self._sampling_key, "messages": messages}
        return hashlib.sha256(json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()

    def complete(self, conversations: list[list[dict]]) -> list[str | None]:
        """The teacher's reply to each conversation, from the cache or the backend; None where the
        backend flagged a failure (not cached, so a later run retries it)."""
        keys = [self.key(messages) for messages in conversations]
        missing = list(dict.fromkeys(k for k in keys if k not in self._cache))
        by_key = dict(zip(keys, conversations))
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        with (
            open(self.cache_path, "a", encoding="utf-8") as cache,
            tqdm(total=len(missing), desc="teacher labels", unit="segment") as bar,
        ):
            for start in range(0, len(missing), self.batch_size):
                batch = missing[start : start + self.batch_size]
                generations = self.backend.generate([by_key[k] for k in batch], self.sampling)
                if len(generations) != len(batch):
                    raise RuntimeError(
                        f"the teacher backend returned {len(generations)} replies for {len(batch)} prompts"
                    )
                self.generated += len(batch)
                for key, generation in zip(batch, generations):
                    if getattr(generation, "error", None):
                        self.failed += 1
                        continue
                    self._cache[key] = generation.text
                    cache.write(json.dumps({"key": key, "text": generation.text}, ensure_ascii=False) + "\n")
                cache.flush()
                bar.update(len(batch))
        return [self._cache.get(k) for k in keys]

    def label(self, requests: list[TeacherRequest]) -> list[ParseResult | None]:
        """The teacher's verdict on each segment, parsed with the segment's IDs as the allowed
        set; None when it failed or its reply has no legal YES/NO."""
        conversations = [teacher_messages(r.question, r.answer, r.segment_text) for r in requests]
        results = []
        for request, text in zip(requests, self.complete(conversations)):
            parsed = None if text is None else parse_finder(text, request.allowed_ids)
            results.append(parsed if parsed is not None and parsed.answer_legal else None)
        return results
