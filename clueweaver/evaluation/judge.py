"""An LLM judge of free-text answers through any OpenAI-compatible endpoint (``vllm serve``,
llama.cpp, Ollama, a hosted API), as ChronoRAG runs it: one fixed prompt holding the question,
the gold passage (the item's gold evidence paragraphs, when it has any; the paper gives the
passage or the summary the question was written from), the reference answers and the candidate
answer, and a verdict of exactly one of two labels, Correct or Wrong. Off by default; a run turns
it on with ``--judge-url`` and ``--judge-model``.

Verdicts are cached on disk (one JSON line per verdict, keyed by a hash of the judge model and
the exact messages), so a resumed or repeated evaluation asks the judge nothing twice. A reply that
names neither label, or both, is kept as unreadable (score None), never guessed; a reply that was
not generated (a prompt too long for the judge) or came back empty is not cached, so a resumed run
asks again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from clueweaver.backends import SamplingConfig, load_backend
from clueweaver.core.errors import ClueWeaverError
from clueweaver.core.jsonl import jsonl_lines

JUDGE_SAMPLING = SamplingConfig(temperature=0.0, max_new_tokens=8)
JUDGE_SYSTEM = (
    "You grade answers to questions about a story. You are given a question, the passage of the story it was "
    "written from (when there is one), one or more reference answers written by people who read the story, and a "
    "candidate answer. The candidate is CORRECT when it gives the same information as a reference answer, in any "
    "wording, agrees with the passage and contradicts none of the references; a partial answer that leaves out "
    "what the question asks for, a different answer, or an evasive one is WRONG. Judge the content only, not the "
    "style, the length or the language: the story and the answers may be in any language, and a candidate in "
    "another language than the references is judged by what it says. Reply with exactly one word: CORRECT or WRONG."
)
NO_GOLD_PASSAGE = "(none given)"
_LABEL_WORD = re.compile(r"\b(WRONG|CORRECT)\b", re.IGNORECASE)


class JudgeError(ClueWeaverError, ValueError):
    """A judge that cannot be set up as asked (the message names the setting)."""


def judge_messages(question: str, references: Sequence[str], answer: str, gold: str = "") -> list[dict[str, str]]:
    """The judge's fixed prompt for one answer; ``gold``: the gold passage ("" when the item has none)."""
    listed = "\n".join(f"- {' '.join(reference.split())}" for reference in references)
    user = (
        f"Question: {' '.join(question.split())}\n\nGold passage:\n{gold.strip() or NO_GOLD_PASSAGE}\n\n"
        f"Reference answers:\n{listed}\n\nCandidate answer: {' '.join(answer.split()) or '(no answer)'}\n\n"
        "Is the candidate answer CORRECT or WRONG?"
    )
    return [{"role": "system", "content": JUDGE_SYSTEM}, {"role": "user", "content": user}]


def parse_verdict(text: str) -> str | None:
    """CORRECT or WRONG when the reply names exactly one of them; None otherwise."""
    found = {match.upper() for match in _LABEL_WORD.findall(text or "")}
    return found.pop() if len(found) == 1 else None


@dataclass(frozen=True)
class JudgeConfig:
    """Where the judge runs: ``base_url`` (ending in /v1) and ``model``; ``cache`` is the verdict
    file (default: ``judge_cache.jsonl`` in the run folder); the API key comes from
    ``$OPENAI_API_KEY`` when the endpoint needs one."""

    base_url: str
    model: str
    cache: str | None = None

    @classmethod
    def from_dict(cls, values: dict) -> "JudgeConfig | None":
        """None when no judge is asked for; a JudgeError for half a setting."""
        if not values:
            return None
        unknown = sorted(set(values) - {"base_url", "model", "cache"})
        if unknown:
            raise JudgeError(f"judge settings {unknown} are unknown; use base_url, model and cache")
        if not values.get("base_url") or not values.get("model"):
            raise JudgeError("the LLM judge needs both --judge-url (an OpenAI-compatible /v1 URL) and --judge-model")
        return cls(values["base_url"], values["model"], values.get("cache"))


class Judge:
    """Verdicts of one judge model, cached in a JSONL file."""

    def __init__(self, config: JudgeConfig, cache_path: str | Path, *, backend=None) -> None:
        self.config = config
        self.cache_path = Path(config.cache or cache_path)
        self._backend = backend
        self._lock = threading.Lock()
        self._cache = self._read_cache()

    def _read_cache(self) -> dict[str, dict]:
        if not self.cache_path.is_file():
            return {}
        cache = {}
        for line in jsonl_lines(self.cache_path.read_text(encoding="utf-8")):
            try:
                entry = json.loads(line)
                cache[entry["key"]] = entry
            except (json.JSONDecodeError, KeyError, TypeError):
                continue  # a line torn by an interrupted run: that verdict is asked again
        return cache

    @property
    def backend(self):
        if self._backend is None:
            self._backend = load_backend("openai", self.config.model, base_url=self.config.base_url)
        return self._backend

    def key(self, messages: list[dict]) -> str:
        payload = json.dumps({"model": self.config.model, "messages": messages}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def __call__(self, question: str, references: Sequence[str], answer: str, gold: str = "") -> dict:
        """``{"verdict": CORRECT|WRONG|None, "score": 1|0|None, "cached": bool, "reply": ...}``."""
        messages = judge_messages(question, references, answer, gold)
        key = self.key(messages)
        with self._lock:
            entry, cached = self._cache.get(key), True
            if entry is None:
                generation = self.backend.generate([messages], JUDGE_SAMPLING)[0]
                entry, cached = {"key": key, "model": self.config.model, "reply": generation.text}, False
                if generation.ok and generation.text.strip():
                    self._append(entry)  # a failed or empty reply is asked again on resume, never cached
        verdict = parse_verdict(entry["reply"])
        score = None if verdict is None else int(verdict == "CORRECT")
        return {"verdict": verdict, "score": score, "cached": cached, "reply": entry["reply"]}

    def _append(self, entry: dict) -> None:
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.cache_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self._cache[entry["key"]] = entry

    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
