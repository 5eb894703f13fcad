"""Rule-based rewards of the Finder (the paper's Table 5) and the Interpreter (Table 6).

Rewards are unnormalized (GRPO normalizes within each group). Each agent's reward is a sum of
named components; ``finder_reward_components`` / ``interpreter_reward_components`` score one
reply, and ``build_reward_funcs`` makes TRL-signature functions (``f(prompts, completions, **columns)
-> list[float]``), one per component and one for the total (the registry recipes name them from is
``clueweaver.protocol.reward_registry.REWARD_FUNCS``). Give GRPOTrainer either the total or
all components of an agent (their sum is the total), never both, or the reward counts twice; a
component given with weight 0 is only logged. No model output makes a reward raise; a malformed
dataset column raises a ValueError naming the column and the row.

Format (both tables, rows "Format" and "Unparseable output"): a reply earns anything only in the
strict format of ``clueweaver.protocol.parse.strict_format_problem``: exactly ``<reason>...</reason>``
then ``<answer>...</answer>``, each tag once and closed, nothing but whitespace around them. A reply
cut before ``</answer>``, with chat around the tags, in a code fence or with a tag twice earns 0
everywhere. (Inference stays tolerant and records off-format replies; training pays only the format
it asks for.)

Answer field (both tables, rows "Gold-bearing segment: YES", "Non-evidence segment: NO" and
"Correct answer"): the verdict or answer is paid when the field is the label the prompt asks for
(``clueweaver.protocol.parse.strict_label``): YES/NO, the question's option letter, TRUE/FALSE, in
any letter case or width, with whitespace around. "Yes, this segment is relevant.", "**YES**",
"The answer is B", an option's own text and "yes" for a TRUE claim are not the field as asked and
earn 0 everywhere, as an unparseable output does. A ``<think>`` block anywhere (inside ``<reason>``
too) breaks the strict format: the agents are asked to answer without thinking, and a reasoning
block the parser strips would otherwise be paid for text no reward looked at.

Languages: a reply in any language of ``clueweaver.protocol.cues`` (English, French, German,
Spanish, Italian, Portuguese, Russian, Greek, Chinese, Japanese, Korean, Polish, Swedish, Czech,
Hungarian, Norwegian, Romanian) earns what its English translation earns. Cue phrases of every
language are matched together (``clueweaver.protocol.text.find_phrases``), so no rule needs the
reply's language; word counts count a Chinese or Japanese character as 1/1.5 of a word
(``clueweaver.protocol.text.word_count``). The labels (YES/NO, TRUE/FALSE, option letters) stay the
protocol's, as the prompts ask for them.

Cost: TRL calls one function per component, each with the whole batch. The functions of one
registry share a cache of scored (completion, row) pairs, so each completion is parsed and scored
once per step whichever functions ask, and what is extracted from an evidence text is computed once
per text (``clueweaver.protocol.details``). ``python train/experiments/reward_cost.py`` measures it.

Finder, precisely:
- A gold-bearing row (label YES) must carry its ``gold_ids``, inside the segment's ``allowed_ids``
  when those are given; without them a correct YES could earn at most 2.75, less than the 3.25 of
  a correct NO, and the reward would favour NO: such a row raises a ValueError naming it (and
  ``clueweaver.training`` refuses such data before training, naming every row).
- Negative-rationale quality (verdict NO on a non-evidence segment): nothing when the rationale
  cites any paragraph ID; otherwise it must be non-trivial (``negative_min_words`` words,
  ``negative_min_distinct_words`` of them distinct) to earn anything; a non-trivial rationale earns
  ``1 - negative_cue_share`` of the credit, and all of it when it also states why the segment is
  irrelevant (a phrase of ``negative_cue_phrases``: "does not mention", "unrelated", "sans rapport",
  "无关", ...; whole words, "doesn't" counts as "does not").
- ID F1 counts cited IDs outside the segment as cited (false positives); the compact-ID bonus
  needs every gold ID cited, at most ``compact_max_extra_ids`` other IDs and none outside the
  segment (when the segment's ``allowed_ids`` are given): an ID the segment does not have is not
  a compact citation.
- Length calibration ("up to" 0.25): a piecewise-linear score of the rationale's word count, rising
  from 0 words to the band's ``full_from``, 1 up to ``full_to``, falling to 0 at ``zero_at``.

Interpreter, precisely, with our choices where Table 6 is ambiguous:
- Bonuses (hard case, ID use, length, specificity) pay only with a correct answer.
- Penalties (invalid ID, hedging) apply whatever the answer: a wrong answer that also cites
  paragraphs outside the packet or hedges is worse than a plain wrong answer. Every well-formed
  reply still scores above an unparseable one (floor 1.0 - 0.3 - 0.4 = 0.3 > 0).
- Paragraph-ID use (+0.3) needs a known allowed set (the packet's ``allowed_ids``): at least one
  cited ID, all inside it. A rationale that mixes valid and invalid IDs earns no ID-use bonus and
  takes the invalid-ID penalty. Without an allowed set neither the bonus nor the penalty applies
  (nothing can be checked).
- Rationale length is a flat +0.2 ("+0.2" in the table, where the Finder's row says "up to"): paid
  when the rationale has ``length_min_words`` to ``length_max_words`` words.
- Hedging: a phrase of ``hedging_phrases`` anywhere in the rationale.
- Specificity: the rationale contains a quoted phrase, a number or a name that the evidence
  contains (see ``clueweaver.protocol.details``: names in running text, after a title or at a
  sentence start).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Hashable, Iterable

from clueweaver.protocol.cues import HEDGING_CUES, NEGATIVE_RATIONALE_CUES, every_language
from clueweaver.protocol.details import specific_details
from clueweaver.protocol.parse import (
    FINDER_LABELS,
    ParseResult,
    normalize_answer,
    parse_finder_strict,
    parse_interpreter_strict,
)
from clueweaver.protocol.question import OPTION_LABELS, Question
from clueweaver.protocol.text import find_phrases, word_count, word_equivalents, words


@dataclass(frozen=True)
class LengthBand:
    """A word-count band: score 0 at 0 words rising to 1 at ``full_from``, 1 up to ``full_to``,
    falling to 0 at ``zero_at``: neither an empty template nor a long summary pays."""

    full_from: int
    full_to: int
    zero_at: int

    def __post_init__(self) -> None:
        if not 0 < self.full_from <= self.full_to < self.zero_at:
            raise ValueError(f"length band needs 0 < full_from <= full_to < zero_at, got {self}")

    def score(self, word_count: int) -> float:
        if word_count <= 0 or word_count >= self.zero_at:
            return 0.0
        if word_count < self.full_from:
            return word_count / self.full_from
        if word_count <= self.full_to:
            return 1.0
        return (self.zero_at - word_count) / (self.zero_at - self.full_to)


UNPARSEABLE_REWARD = 0.0  # Tables 5 and 6, row "Unparseable output": no component pays.

# The phrases of every language of ``clueweaver.protocol.cues``, matched together.
NEGATIVE_CUE_PHRASES = every_language(NEGATIVE_RATIONALE_CUES)
HEDGING_PHRASES = every_language(HEDGING_CUES)


@dataclass(frozen=True)
class FinderRewardConfig:
    """Every constant of the Finder reward (the paper's Table 5); the row is named per field.
    Maximum: 4.5 on a gold-bearing segment, 3.25 on a non-evidence one."""

    format_valid: float = 1.0  # row "Format validity"
    positive_yes: float = 1.5  # row "Gold-bearing segment: YES"
    id_f1_weight: float = 1.5  # row "Gold-bearing segment: paragraph-ID F1 x 1.5"
    compact_ids: float = 0.25  # row "Compact-ID bonus"
    compact_max_extra_ids: int = 2  # row "Compact-ID bonus": our reading of "without many extra IDs"
    negative_no: float = 1.25  # row "Non-evidence segment: NO"
    negative_rationale: float = 0.75  # row "Negative-rationale quality" (up to)
    negative_min_words: int = 6  # row "Negative-rationale quality": non-trivial
    negative_min_distinct_words: int = 4  # row "Negative-rationale quality": non-trivial
    negative_cue_share: float = 0.5  # row "Negative-rationale quality": share for stating why
    negative_cue_phrases: tuple[str, ...] = NEGATIVE_CUE_PHRASES  # row "Negative-rationale quality"
    length: float = 0.25  # row "Length calibration" (up to)
    length_band: LengthBand = field(default_factory=lambda: LengthBand(full_from=8, full_to=60, zero_at=150))

    @property
    def max_total(self) -> float:
        positive = self.format_valid + self.positive_yes + self.id_f1_weight + self.compact_ids + self.length
        negative = self.format_valid + self.negative_no + self.negative_rationale + self.length
        return max(positive, negative)


@dataclass(frozen=True)
class InterpreterRewardConfig:
    """Every constant of the Interpreter reward (the paper's Table 6); the row is named per field.
    Bonuses after ``correct_*`` pay only with a correct answer; penalties apply whatever the answer."""

    format_valid: float = 1.0  # row "Format"
    correct_mcq: float = 2.5  # row "Correct answer (multiple choice)"
    correct_claim: float = 1.5  # row "Correct answer (claim)"
    hard: float = 0.5  # row "Hard-case bonus" (items flagged hard)
    id_use: float = 0.3  # row "Paragraph-ID use" (cites IDs, all from the supplied evidence, which must be known)
    length: float = 0.2  # row "Rationale length" (+0.2, flat)
    length_min_words: int = 15  # row "Rationale length": our reading of a concise rationale (two to five sentences)
    length_max_words: int = 120
    specificity: float = 0.3  # row "Specificity"
    specificity_min_quote_chars: int = 4  # row "Specificity": shortest quoted phrase that counts
    invalid_id_penalty: float = -0.3  # row "Invalid paragraph ID" (when the allowed set is known)
    hedging_penalty: float = -0.4  # row "Hedging"
    hedging_phrases: tuple[str, ...] = HEDGING_PHRASES  # row "Hedging"

    def __post_init__(self) -> None:
        if not 0 < self.length_min_words <= self.length_max_words:
            raise ValueError(f"length needs 0 < length_min_words <= length_max_words, got {self}")

    @property
    def max_total(self) -> float:
        bonuses = self.hard + self.id_use + self.length + self.specificity
        return self.format_valid + max(self.correct_mcq, self.correct_claim) + bonuses

    @property
    def min_total(self) -> float:
        return min(UNPARSEABLE_REWARD, self.format_valid + self.invalid_id_penalty + self.hedging_penalty)


FINDER_COMPONENTS = ("format", "verdict", "id_f1", "compact_ids", "negative_rationale", "length")
INTERPRETER_COMPONENTS = ("format", "correct", "hard", "id_use", "length", "specificity", "invalid_id", "hedging")


# --- one reply ----------------------------------------------------------------------------------


def _usable(parsed: ParseResult) -> bool:
    return parsed.format_valid and parsed.answer_legal


def id_f1(cited: Iterable[int], gold: Iterable[int]) -> float:
    """F1 between cited and gold paragraph IDs (0 when either is empty)."""
    cited, gold = set(cited), set(gold)
    hits = len(cited & gold)
    return 0.0 if hits == 0 else 2 * hits / (len(cited) + len(gold))


def negative_rationale_quality(parsed: ParseResult, config: FinderRewardConfig) -> float:
    """The share (0..1) of the negative-rationale credit that ``parsed`` earns (see module doc)."""
    if parsed.cited_ids or parsed.invalid_ids:
        return 0.0
    rationale_words = [w.casefold() for w in words(parsed.rationale)]
    too_short = word_equivalents(rationale_words) < config.negative_min_words
    if too_short or word_equivalents(set(rationale_words)) < config.negative_min_distinct_words:
        return 0.0
    states_why = bool(find_phrases(parsed.rationale, config.negative_cue_phrases))
    return (1 - config.negative_cue_share) + config.negative_cue_share * states_why


def check_finder_gold(label: str, gold_ids: Iterable[int], allowed_ids: Iterable[int] | None) -> str | None:
    """Why a Finder row's gold IDs cannot pay its reward (None when they can): a YES row needs its
    gold IDs, inside the segment when the segment's IDs are known; a NO row has none (its segment
    holds no evidence, so gold IDs there mean a mislabelled row)."""
    gold = set(gold_ids)
    if label != "YES":
        return f"a NO row carries gold_ids {sorted(gold)}: a NO segment holds no evidence" if gold else None
    if not gold:
        return "a YES row needs its gold_ids (the evidence paragraphs in the segment)"
    outside = sorted(gold - set(allowed_ids)) if allowed_ids is not None else []
    if outside:
        return f"gold_ids {outside} are outside the segment's allowed_ids"
    return None


def finder_reward_components(
    completion: str,
    *,
    label: str,
    gold_ids: Iterable[int] = (),
    allowed_ids: Iterable[int] | None = None,
    config: FinderRewardConfig = FinderRewardConfig(),
) -> dict[str, float]:
    """The Finder reward of one reply, by component. ``label``: YES for a gold-bearing segment, NO
    for a non-evidence one; ``gold_ids``: the gold paragraphs (required with YES); ``allowed_ids``:
    the segment's."""
    if label not in FINDER_LABELS:
        raise ValueError(f"a Finder label is YES or NO, got {label!r}")
    gold = set(gold_ids)
    allowed = None if allowed_ids is None else list(allowed_ids)
    problem = check_finder_gold(label, gold, allowed)
    if problem:
        raise ValueError(problem)
    scores = dict.fromkeys(FINDER_COMPONENTS, UNPARSEABLE_REWARD)
    parsed = parse_finder_strict(completion, allowed)
    if not _usable(parsed):
        return scores
    scores["format"] = config.format_valid
    if parsed.answer != label:  # a missed positive or a YES on a negative: format reward only
        return scores
    if label == "YES":
        cited = set(parsed.cited_ids) | set(parsed.invalid_ids)
        scores["verdict"] = config.positive_yes
        scores["id_f1"] = config.id_f1_weight * id_f1(cited, gold)
        # an ID outside the segment is no part of a compact citation, whatever else is cited
        compact = not parsed.invalid_ids and gold <= cited and len(cited - gold) <= config.compact_max_extra_ids
        scores["compact_ids"] = config.compact_ids * compact
    else:
        scores["verdict"] = config.negative_no
        scores["negative_rationale"] = config.negative_rationale * negative_rationale_quality(parsed, config)
    scores["length"] = config.length * config.length_band.score(word_count(parsed.rationale))
    return scores


def interpreter_reward_components(
    completion: str,
    *,
    question: Question,
    answer: str,
    allowed_ids: Iterable[int] | None = None,
    hard: bool = False,
    evidence: str = "",
    config: InterpreterRewardConfig = InterpreterRewardConfig(),
) -> dict[str, float]:
    """The Interpreter reward of one reply, by component. ``answer``: the gold answer in any form
    the parser reads ("B", "(B)", "TRUE"); ``evidence``: the packet text (for specificity)."""
    gold = normalize_answer(str(answer), question)
    if gold is None:
        raise ValueError(f"gold answer {answer!r} is not a legal answer of a {question.kind} question")
    scores = dict.fromkeys(INTERPRETER_COMPONENTS, UNPARSEABLE_REWARD)
    allowed = None if allowed_ids is None else list(allowed_ids)
    parsed = parse_interpreter_strict(completion, question, allowed)
    if not _usable(parsed):
        return scores
    scores["format"] = config.format_valid
    if allowed is not None and parsed.invalid_ids:
        scores["invalid_id"] = config.invalid_id_penalty
    if find_phrases(parsed.rationale, config.hedging_phrases):
        scores["hedging"] = config.hedging_penalty
    if parsed.answer != gold:
        return scores
    scores["correct"] = config.correct_claim if question.is_claim else config.correct_mcq
    scores["hard"] = config.hard * bool(hard)
    scores["id_use"] = config.id_use * bool(allowed is not None and parsed.cited_ids and not parsed.invalid_ids)
    rationale_words = word_count(parsed.rationale)
    scores["length"] = config.length * (config.length_min_words <= rationale_words <= config.length_max_words)
    details = specific_details(parsed.rationale, evidence, config.specificity_min_quote_chars)
    scores["specificity"] = config.specificity * bool(details)
    return scores


# --- TRL batches ----------------------------------------------------------------------------------


def completion_text(completion: Any) -> str:
    """The reply text of a TRL completion: a plain string, or a conversation (list of message
    dicts, content a string or a list of text parts) whose assistant messages are joined."""
    if completion is None:
        return ""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if not isinstance(completion, (list, tuple)):
        return str(completion)
    messages = [m for m in completion if isinstance(m, dict)]
    replies = [m for m in messages if m.get("role", "assistant") == "assistant"] or messages
    return "\n".join(_content_text(m.get("content")) for m in replies)


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "".join((part.get("text") or "") if isinstance(part, dict) else str(part) for part in content)
    return str(content)


def _prompt_text(prompt: Any) -> str:
    """The case of a prompt: its last user message, or the prompt string itself."""
    if isinstance(prompt, (list, tuple)):
        users = [m for m in prompt if isinstance(m, dict) and m.get("role") == "user"]
        return _content_text(users[-1].get("content")) if users else ""
    return _content_text(prompt)


_REQUIRED = object()


def _column(columns: dict, name: str, size: int, default: Any = _REQUIRED) -> list:
    values = columns.get(name)
    if values is None:
        if default is _REQUIRED:
            raise ValueError(f"the reward needs the dataset column {name!r}; the batch has {sorted(columns)}")
        return [default] * size
    if len(values) != size:
        raise ValueError(f"dataset column {name!r} has {len(values)} values for {size} completions")
    return list(values)


def finder_label(value: Any, row: int) -> str:
    """A dataset row's Finder label as YES or NO (from YES/NO in any case, or a bool)."""
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, str) and value.strip().upper() in ("YES", "NO"):
        return value.strip().upper()
    raise ValueError(f"row {row}: column 'label' must be YES or NO (or a bool), got {value!r}")


def _ids(value: Any, name: str, row: int) -> list[int] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        raise ValueError(f"row {row}: column {name!r} must be a list of paragraph IDs, got the string {value!r}")
    try:
        return [int(i) for i in value]
    except (TypeError, ValueError):
        raise ValueError(f"row {row}: column {name!r} must be a list of paragraph IDs, got {value!r}") from None


def _flag(value: Any, name: str, row: int) -> bool:
    if value is None or isinstance(value, (bool, int)):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "1", "0", ""):
        return value.strip().lower() in ("true", "yes", "1")
    raise ValueError(f"row {row}: column {name!r} must be a boolean, got {value!r}")


def _options(value: Any, row: int) -> dict[str, str]:
    """Options from a dict (labels to texts; None values dropped, as datasets pads structs) or a list."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return {label: str(text) for label, text in zip(OPTION_LABELS, value) if text is not None}
    raise ValueError(f"row {row}: column 'options' must be a dict or a list of option texts, got {value!r}")


def _interpreter_question(question_text: Any, options: Any, kind: Any, row: int) -> Question:
    options = _options(options, row)
    kind = str(kind).lower() if kind else ("mcq" if options else "claim")
    try:
        return Question(text=str(question_text or "(question)"), options=options if kind == "mcq" else {}, kind=kind)
    except ValueError as exc:
        raise ValueError(f"row {row}: columns 'answer_kind'/'options' do not make a question: {exc}") from None


class ScoreCache:
    """Component scores of recently scored replies, keyed by the reply and every column its score
    reads; the least recently used go first beyond ``size``. The functions of one registry share
    one, so each completion of a step is scored once whichever functions TRL calls.

    TRL passes the very same batch (the same list objects) to every reward function of a step, so
    ``batch`` also hands back the previous call's rows when a call brings the same objects and the
    same completion texts, without building a key per row."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self.scored = 0  # replies actually scored (cache misses)
        self._scores: OrderedDict[Hashable, dict[str, float]] = OrderedDict()
        self._last_batch: tuple[tuple, list[str], list[dict[str, float]]] | None = None

    def batch(
        self, objects: tuple, texts: list[str], compute: Callable[[], list[dict[str, float]]]
    ) -> list[dict[str, float]]:
        """The rows of the previous call when ``objects`` (the prompts and the columns read) are the
        same objects and ``texts`` the same completion texts; otherwise ``compute()``."""
        last = self._last_batch
        if last is not None and len(last[0]) == len(objects) and all(a is b for a, b in zip(last[0], objects)):
            if last[1] == texts:
                return last[2]
        rows = compute()
        self._last_batch = (objects, texts, rows)
        return rows

    def score(self, key: Hashable, compute: Callable[[], dict[str, float]]) -> dict[str, float]:
        try:
            scores = self._scores.get(key)
        except TypeError:  # a malformed column (a list in a list): scoring names it
            return compute()
        if scores is not None:
            self._scores.move_to_end(key)
            return scores
        scores = compute()
        self.scored += 1
        self._scores[key] = scores
        if len(self._scores) > self.size:
            self._scores.popitem(last=False)
        return scores


def _score_row(cache: ScoreCache | None, key: Hashable, compute: Callable[[], dict[str, float]]) -> dict[str, float]:
    return compute() if cache is None else cache.score(key, compute)


def _key_part(value: Any) -> Hashable:
    """A hashable stand-in of a flat column value (a list or a dict as a tuple)."""
    if isinstance(value, dict):
        return tuple(value.items())
    return tuple(value) if isinstance(value, list) else value


def _naming_row(row: int, score: Callable[..., dict[str, float]], *args, **kwargs) -> dict[str, float]:
    try:
        return score(*args, **kwargs)
    except ValueError as exc:  # a bad gold label or answer: name the row
        raise ValueError(f"row {row}: {exc}") from None


def _finder_row(row: int, text: str, label: Any, gold: Any, allowed: Any, config) -> dict[str, float]:
    """One row's scores from its raw columns (checked here, so a cached row is not checked again)."""
    return _naming_row(
        row,
        finder_reward_components,
        text,
        label=finder_label(label, row),
        gold_ids=_ids(gold, "gold_ids", row) or (),
        allowed_ids=_ids(allowed, "allowed_ids", row),
        config=config,
    )


def finder_batch_components(
    prompts, completions, config: FinderRewardConfig, columns: dict, cache: ScoreCache | None = None
) -> list[dict[str, float]]:
    """Component scores of a TRL batch; columns ``label`` (YES/NO), ``gold_ids`` (required with
    YES), optional ``allowed_ids``."""
    size = len(completions)
    labels = _column(columns, "label", size)
    gold = _column(columns, "gold_ids", size, None)
    allowed = _column(columns, "allowed_ids", size, None)
    rows = []
    for row, completion in enumerate(completions):
        text = completion_text(completion)
        key = (text, labels[row], _key_part(gold[row]), _key_part(allowed[row]))
        compute = partial(_finder_row, row, text, labels[row], gold[row], allowed[row], config)
        rows.append(_score_row(cache, key, compute))
    return rows


def _interpreter_row(row: int, text: str, columns: dict[str, Any], evidence: str, config) -> dict[str, float]:
    """One row's scores from its raw columns (checked here, so a cached row is not checked again)."""
    return _naming_row(
        row,
        interpreter_reward_components,
        text,
        question=_interpreter_question(columns["question"], columns["options"], columns["answer_kind"], row),
        answer=columns["answer"],
        allowed_ids=_ids(columns["allowed_ids"], "allowed_ids", row),
        hard=_flag(columns["hard"], "hard", row),
        evidence=evidence,
        config=config,
    )


_INTERPRETER_COLUMNS = {"answer": _REQUIRED, "answer_kind": None, "options": None, "question": None}
_INTERPRETER_COLUMNS.update({"allowed_ids": None, "hard": False, "evidence": None})


def interpreter_batch_components(
    prompts, completions, config: InterpreterRewardConfig, columns: dict, cache: ScoreCache | None = None
) -> list[dict[str, float]]:
    """Component scores of a TRL batch; columns ``answer``, ``answer_kind`` (mcq/claim; inferred
    from ``options`` when absent), ``options``, optional ``question``, ``allowed_ids``, ``hard``,
    ``evidence`` (the packet text; the prompt's last user message when absent)."""
    size = len(completions)
    values = {name: _column(columns, name, size, default) for name, default in _INTERPRETER_COLUMNS.items()}
    prompts = list(prompts) if prompts is not None and len(prompts) == size else [None] * size
    rows = []
    for row, completion in enumerate(completions):
        text = completion_text(completion)
        row_columns = {name: column[row] for name, column in values.items()}
        evidence = row_columns.pop("evidence")
        packet = evidence if evidence is not None else _prompt_text(prompts[row])
        key = (text, packet, *(_key_part(v) for v in row_columns.values()))
        rows.append(_score_row(cache, key, partial(_interpreter_row, row, text, row_columns, packet, config)))
    return rows


RewardFunc = Callable[..., list[float]]


def _reward_func(
    name: str, batch: Callable, reads: Iterable[str], config: Any, cache: ScoreCache, component: str | None
) -> RewardFunc:
    """A TRL reward function named ``name`` (TRL logs it under that name): one component of
    ``batch``'s scores, or their sum when ``component`` is None; scored through ``cache``, which
    knows a repeated batch by its prompts and the dataset columns ``batch`` ``reads``."""

    def reward(prompts=None, completions=(), **columns) -> list[float]:
        objects = (prompts, *(columns.get(name) for name in reads))
        texts = [completion_text(c) for c in completions]
        rows = cache.batch(objects, texts, lambda: batch(prompts, completions, config, columns, cache))
        return [sum(row.values()) if component is None else row[component] for row in rows]

    reward.__name__ = reward.__qualname__ = name
    what = "the total" if component is None else f"the {component!r} component"
    reward.__doc__ = f"TRL reward: {what} of the {name.split('_')[0]} reward."
    return reward


def build_reward_funcs(
    finder: FinderRewardConfig = FinderRewardConfig(), interpreter: InterpreterRewardConfig = InterpreterRewardConfig()
) -> dict[str, RewardFunc]:
    """TRL reward functions of the paper's rewards for the given configs: ``finder_<component>``,
    ``finder_total``, ``interpreter_<component>``, ``interpreter_total``; an agent's functions
    share one ``ScoreCache``. The registry of every reward function is
    ``clueweaver.protocol.reward_registry``."""
    funcs = {}
    for agent, batch, reads, config, components in (
        ("finder", finder_batch_components, ("label", "gold_ids", "allowed_ids"), finder, FINDER_COMPONENTS),
        ("interpreter", interpreter_batch_components, _INTERPRETER_COLUMNS, interpreter, INTERPRETER_COMPONENTS),
    ):
        cache = ScoreCache()
        for component in (*components, None):
            name = f"{agent}_{component or 'total'}"
            funcs[name] = _reward_func(name, batch, reads, config, cache, component)
    return funcs


def component_names(agent: str) -> list[str]:
    """Registry names of an agent's components ("finder" or "interpreter"), whose sum is its total."""
    components = {"finder": FINDER_COMPONENTS, "interpreter": INTERPRETER_COMPONENTS}
    if agent not in components:
        raise ValueError(f"unknown agent {agent!r}; use 'finder' or 'interpreter'")
    return [f"{agent}_{component}" for component in components[agent]]
