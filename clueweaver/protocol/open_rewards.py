"""Rule-based rewards of the Interpreter on open questions (free-text answers): an optional
recipe beside the paper's multiple-choice and claim rewards (Table 6), which stay as they are.

Components (unnormalized; GRPO normalizes within each group), in the protocol's one registry
(``clueweaver.protocol.reward_registry.REWARD_FUNCS``) as ``interpreter_open_<component>`` and
``interpreter_open_total``:

- ``format``: both tags, and an answer with text (Table 6's "Format");
- ``citation_f1``: F1 between the paragraphs the reason cites and the gold paragraphs (Table 5's
  paragraph-ID F1, here for the Interpreter); 0 for a row without gold paragraphs;
- ``reference_overlap``: the best token F1 of the answer against the reference answers, the
  graded counterpart of Table 6's "Correct answer" (``clueweaver.protocol.text.token_f1``: SQuAD's
  for English, character F1 for Chinese and Japanese, accents and case folded);
- ``length`` and ``specificity``: Table 6's rationale-length band and specific detail (a quoted
  phrase, number or name the evidence contains); like Table 6's bonuses they pay only when the
  answer overlaps a reference at all (``reference_overlap`` > 0);
- ``hedging``: Table 6's penalty, for a hedging phrase in the reason or the answer.

A reply that is not exactly ``<reason>...</reason><answer>...</answer>`` earns nothing (Table 6's
"Unparseable output"; the strict training format of ``parse_interpreter_strict``). Batch columns: ``answer``
(the reference answers: one text or a list), optional ``gold_ids``, ``evidence`` (the packet;
the prompt's last user message when absent) and ``question``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Iterable

from clueweaver.protocol.parse import parse_interpreter_strict
from clueweaver.protocol.question import Question
from clueweaver.protocol.rewards import (
    _REQUIRED,
    HEDGING_PHRASES,
    UNPARSEABLE_REWARD,
    LengthBand,
    ScoreCache,
    _column,
    _ids,
    _key_part,
    _prompt_text,
    _reward_func,
    _score_row,
    completion_text,
    id_f1,
    specific_details,
)
from clueweaver.protocol.text import find_phrases, token_f1, word_count

OPEN_REWARD_PREFIX = "interpreter_open_"
OPEN_COMPONENTS = ("format", "citation_f1", "reference_overlap", "length", "specificity", "hedging")


@dataclass(frozen=True)
class OpenAnswerRewardConfig:
    """Every constant of the open-answer reward; Table 6's values where it has the row."""

    format_valid: float = 1.0  # Table 6 "Format"
    citation_f1: float = 1.0  # cited vs gold paragraphs, F1 x this
    reference_overlap: float = 2.5  # best token F1 against the references x this (Table 6's MCQ credit)
    length: float = 0.2  # Table 6 "Rationale length"
    length_band: LengthBand = field(default_factory=lambda: LengthBand(full_from=15, full_to=120, zero_at=220))
    specificity: float = 0.3  # Table 6 "Specificity"
    specificity_min_quote_chars: int = 4
    hedging_penalty: float = -0.4  # Table 6 "Hedging"
    hedging_phrases: tuple[str, ...] = HEDGING_PHRASES

    @property
    def max_total(self) -> float:
        return self.format_valid + self.citation_f1 + self.reference_overlap + self.length + self.specificity


def open_answer_reward_components(
    completion: str,
    *,
    references: Iterable[str],
    gold_ids: Iterable[int] = (),
    allowed_ids: Iterable[int] | None = None,
    evidence: str = "",
    question: str = "(question)",
    config: OpenAnswerRewardConfig = OpenAnswerRewardConfig(),
) -> dict[str, float]:
    """The open-answer reward of one reply, by component (see the module docstring)."""
    references = [r for r in references if str(r).strip()]
    if not references:
        raise ValueError("an open-answer reward needs at least one reference answer")
    scores = dict.fromkeys(OPEN_COMPONENTS, UNPARSEABLE_REWARD)
    parsed = parse_interpreter_strict(completion, Question.open(question), allowed_ids)
    if not (parsed.format_valid and parsed.answer_legal):
        return scores
    scores["format"] = config.format_valid
    cited = set(parsed.cited_ids) | set(parsed.invalid_ids)
    scores["citation_f1"] = config.citation_f1 * id_f1(cited, gold_ids)
    overlap = token_f1(parsed.answer, references)
    scores["reference_overlap"] = config.reference_overlap * overlap
    if find_phrases(f"{parsed.rationale} {parsed.answer}", config.hedging_phrases):
        scores["hedging"] = config.hedging_penalty
    if overlap > 0:
        scores["length"] = config.length * config.length_band.score(word_count(parsed.rationale))
        details = specific_details(parsed.rationale, evidence, config.specificity_min_quote_chars)
        scores["specificity"] = config.specificity * bool(details)
    return scores


def _references(value: Any, row: int) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not any(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"row {row}: column 'answer' must hold the reference answer(s) of an open question")
    return [v for v in value if isinstance(v, str)]


def _open_row(row: int, text: str, references: Any, gold: Any, allowed: Any, evidence: str, question: Any, config):
    """One row's scores from its raw columns (checked here, so a cached row is not checked again)."""
    return open_answer_reward_components(
        text,
        references=_references(references, row),
        gold_ids=_ids(gold, "gold_ids", row) or (),
        allowed_ids=_ids(allowed, "allowed_ids", row),
        evidence=evidence,
        question=str(question or "(question)"),
        config=config,
    )


def open_answer_batch_components(
    prompts, completions, config: OpenAnswerRewardConfig, columns: dict, cache: ScoreCache | None = None
) -> list[dict[str, float]]:
    """Component scores of a TRL batch (columns in the module docstring), each reply scored once
    per ``cache``."""
    size = len(completions)
    values = [_column(columns, name, size, default) for name, default in _OPEN_COLUMNS.items()]
    prompts = list(prompts) if prompts is not None and len(prompts) == size else [None] * size
    rows = []
    for row, completion in enumerate(completions):
        text = completion_text(completion)
        answers, gold, allowed, evidence, question = (column[row] for column in values)
        packet = evidence if evidence is not None else _prompt_text(prompts[row])
        key = (text, packet, *(_key_part(v) for v in (answers, gold, allowed, question)))
        compute = partial(_open_row, row, text, answers, gold, allowed, packet, question, config)
        rows.append(_score_row(cache, key, compute))
    return rows


_OPEN_COLUMNS = {"answer": _REQUIRED, "gold_ids": None, "allowed_ids": None, "evidence": None, "question": None}


def build_open_reward_funcs(config: OpenAnswerRewardConfig = OpenAnswerRewardConfig()) -> dict:
    """TRL reward functions ``interpreter_open_<component>`` and ``interpreter_open_total``, sharing
    one ``ScoreCache``."""
    cache = ScoreCache()
    funcs = {}
    for component in (*OPEN_COMPONENTS, None):
        name = f"{OPEN_REWARD_PREFIX}{component or 'total'}"
        funcs[name] = _reward_func(name, open_answer_batch_components, _OPEN_COLUMNS, config, cache, component)
    return funcs


def open_component_names() -> list[str]:
    """Registry names of the open-answer components, whose sum is ``interpreter_open_total``."""
    return [f"{OPEN_REWARD_PREFIX}{component}" for component in OPEN_COMPONENTS]
