"""The Finder's GRPO dataset: per-segment keep/drop decisions, balanced 50/50, split by book.

For every reading case the inference segmenter proposes segments; a few random spans elsewhere in
the readable text are added. Each segment is labelled from the case's evidence: YES with the gold
IDs inside its span when it holds an evidence paragraph, NO otherwise (gold labels from the
benchmark, weak ones matched from BMDS clue descriptions, silver ones from a teacher). Every
labelled segment becomes the protocol's Finder prompt; prompts over the token limit are dropped
and counted, identical prompts are kept once (and dropped when their labels disagree). Each case
then contributes k positives and k negatives (the top-ranked retrieval segments without evidence
first, then random spans), so the data set and every split of it are exactly balanced. When more
pairs exist than ``target_samples`` allows, pairs are sampled.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter
from dataclasses import dataclass, field

from tqdm.auto import tqdm

from clueweaver.protocol.prompts import finder_messages
from clueweaver.protocol.question import OPTION_LABELS
from clueweaver.segments.segmenter import Segment
from clueweaver.training_data.audit import (
    WEAK_LABEL_AUDIT,
    audit_section,
    audit_summary,
    audit_warning,
    load_audit,
    resolve_audit,
)
from clueweaver.training_data.common import (
    SPLITS,
    DataBuildConfig,
    DatasetBuild,
    PromptTokenCounter,
    ReadingCase,
    SourceConfig,
    assign_splits,
    card_front_matter,
    case_segments,
    config_section,
    crosstab,
    length_summary,
    load_sources,
    markdown_counts,
    markdown_table,
    provenance_stats,
    reading_cases,
    token_section,
    unique_prompts,
    write_dataset,
)
from clueweaver.training_data.labels import WEAK_IGNORE_WORDS, ClueMatch, TeacherLabeler, TeacherRequest, match_clue

FINDER_SCHEMA = {
    "prompt": [{"role": "string", "content": "string"}],  # the protocol's Finder prompt (TRL conversational)
    "label": "string",  # YES / NO: the reward's gold verdict
    "gold_ids": ["int64"],  # evidence paragraph IDs inside the segment (empty for NO)
    "allowed_ids": ["int64"],  # the segment's paragraph IDs
    "example_id": "string",
    "case_id": "string",
    "item_id": "string",
    "benchmark": "string",
    "book_id": "string",
    "book_key": "string",
    "question": "string",
    "answer_kind": "string",
    "options": {label: "string" for label in OPTION_LABELS},
    "answer": "string",
    "label_source": "string",  # gold | weak_bmds | silver_teacher
    "segment_kind": "string",  # retrieval | window | random
    "negative_kind": "string",  # hard | random ("" for positives)
    "segment_start": "int64",
    "segment_end": "int64",
    "segment_score": "float64",
    "preset": "string",
    "prompt_tokens": "int64",
}


@dataclass
class FinderDataConfig(DataBuildConfig):
    output_dir: str = "data/finder"
    sources: list[SourceConfig] = field(
        default_factory=lambda: [SourceConfig("bmds", skip_bad=True), SourceConfig("gutenqa")]
    )
    target_samples: int = 12_000
    max_positives_per_case: int = 3
    hard_negative_share: float = 0.5  # of the negatives: top-ranked retrieval segments; the rest random spans
    random_negatives_per_case: int = 3  # random spans proposed per case
    random_negative_margin: int = 2  # random spans keep this many paragraphs away from any evidence
    bmds_clue_fields: list[str] = field(default_factory=lambda: ["essential_clue", "most_salient_clue"])
    # Weak labels, tightened after a hand check (docs/finder_weak_labels.md): a BMDS clue matches a paragraph
    # holding this share of its words (IDF-weighted); 0.5 let abstract clues match on names alone, and of the
    # hand-checked positives 0.6 keeps 13 of 95 are wrong (0.75 keeps 61, 5 of them wrong).
    weak_min_coverage: float = 0.75
    weak_max_paragraphs: int = 3  # the evidence of one clue; a clue matching more paragraphs is dropped as generic
    # A weak negative may hold no paragraph sharing this much of the clue's words; 0.35 let paraphrased clues
    # through as negatives.
    weak_negative_max_coverage: float = 0.15
    # Weak negatives are random spans only: top-ranked retrieval segments without a matched paragraph held
    # the clue in other words in 10 of 43 hand-checked hard negatives (random spans: 2 of 69).
    weak_hard_negatives: bool = False
    # Clue words that only say the clue was found; matched in another sense they made wrong positives.
    weak_ignore_words: list[str] = field(default_factory=lambda: list(WEAK_IGNORE_WORDS))
    weak_label_audit: str | None = WEAK_LABEL_AUDIT  # hand-checked weak rows, reported in the card (null: none)

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("target_samples", "max_positives_per_case", "weak_max_paragraphs"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        for name in ("hard_negative_share", "weak_min_coverage", "weak_negative_max_coverage"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")
        if self.random_negatives_per_case < 0 or self.random_negative_margin < 0:
            raise ValueError("random_negatives_per_case and random_negative_margin cannot be negative")


@dataclass
class FinderCandidate:
    case: ReadingCase
    segment: Segment
    origin: str  # retrieval | window | random
    label: str | None = None  # YES / NO; None: unusable
    gold_ids: tuple[int, ...] = ()
    prompt: list[dict] = field(default_factory=list)
    tokens: int = 0

    @property
    def example_id(self) -> str:
        return f"{self.case.case_id}@{self.segment.start}-{self.segment.end}"


def random_spans(
    case: ReadingCase, segments: list[Segment], count: int, margin: int, rng: random.Random
) -> list[Segment]:
    """Up to ``count`` spans shaped like the case's segments, placed at random where no candidate
    segment, no evidence paragraph (within ``margin``) and no earlier random span lies."""
    last = len(case.narrative) - 1
    lengths = [len(s) for s in segments] or [case.preset.window_paragraphs]
    blocked = {i for s in segments for i in s.paragraph_ids}
    blocked.update(g + d for g in case.evidence for d in range(-margin, margin + 1))
    spans: list[Segment] = []
    for _ in range(count * 20):
        if len(spans) >= count:
            break
        length = min(rng.choice(lengths), last + 1)
        start = rng.randint(0, last - length + 1)
        ids = range(start, start + length)
        if any(i in blocked for i in ids):
            continue
        spans.append(Segment.span(start, start + length - 1, "window"))
        blocked.update(ids)
    return spans


def _label_from_evidence(
    candidate: FinderCandidate, match: ClueMatch | None, config: FinderDataConfig, drops: Counter
) -> None:
    case, ids = candidate.case, candidate.segment.paragraph_ids
    inside = tuple(i for i in case.evidence if i in set(ids))
    if inside:
        candidate.label, candidate.gold_ids = "YES", inside
    elif match is not None and match.ambiguous(ids, case.evidence, config.weak_negative_max_coverage):
        drops["weak label: segment partly matches the clue (ambiguous)"] += 1
    else:
        candidate.label = "NO"


def _prepare_case(
    case: ReadingCase, config: FinderDataConfig, teacher: TeacherLabeler | None, drops: Counter
) -> ClueMatch | None | bool:
    """Settle where the case's labels come from; False when it cannot be labelled."""
    if case.gold_after_limit:
        drops["gold paragraphs after the reading limit (left out)"] += case.gold_after_limit
    if case.evidence:
        return None
    if case.clue is not None:
        match = match_clue(case.narrative, case.clue, config.weak_ignore_words)
        case.evidence = match.evidence(
            min_coverage=config.weak_min_coverage, max_paragraphs=config.weak_max_paragraphs
        )
        if not case.evidence:
            generic = len(match.passing(config.weak_min_coverage)) > config.weak_max_paragraphs
            drops[
                "bmds clue matches more paragraphs than weak_max_paragraphs (too generic to locate)"
                if generic
                else "bmds clue matched no paragraph before the reveal"
            ] += 1
            return False
        case.evidence_source = "weak_bmds"
        return match
    if teacher is not None and case.answer is not None:
        case.evidence_source = "silver_teacher"
        return None
    drops["no evidence labels (no gold, clue or teacher)" if case.answer else "no answer to label against"] += 1
    return False


def _teacher_labels(candidates: list[FinderCandidate], teacher: TeacherLabeler, drops: Counter) -> None:
    requests = [
        TeacherRequest(c.case.question, c.case.answer, c.segment.render(c.case.narrative), c.segment.paragraph_ids)
        for c in candidates
    ]
    for candidate, parsed in zip(candidates, teacher.label(requests)):
        if parsed is None:
            drops["teacher: failed or no legal YES/NO"] += 1
        elif parsed.answer == "NO":
            candidate.label = "NO"
        elif parsed.cited_ids:
            candidate.label, candidate.gold_ids = "YES", parsed.cited_ids
        else:
            drops["teacher: YES without a valid paragraph ID"] += 1


def _select_pairs(
    candidates: list[FinderCandidate], config: FinderDataConfig, tally: Counter, drops: Counter
) -> list[tuple[FinderCandidate, FinderCandidate]]:
    """k positives and k negatives of one case. Hard negatives (top-ranked retrieval segments
    without evidence) and random spans are mixed so that the running totals in ``tally`` stay at
    ``hard_negative_share``: with k = 1 in most cases, rounding per case would never mix them. A
    weak-labelled case takes random spans only unless ``weak_hard_negatives`` (its retrieval
    segments without a matched paragraph often hold the clue in other words), and stays out of
    the running totals."""
    by_rank = lambda c: (-c.segment.score, c.segment.start)  # noqa: E731
    positives = sorted((c for c in candidates if c.label == "YES"), key=by_rank)
    hard = sorted((c for c in candidates if c.label == "NO" and c.origin != "random"), key=by_rank)
    spare = [c for c in candidates if c.label == "NO" and c.origin == "random"]
    weak = bool(candidates) and candidates[0].case.evidence_source == "weak_bmds"
    random_only = weak and not config.weak_hard_negatives
    if random_only:
        hard = []
    k = min(len(positives), config.max_positives_per_case, len(hard) + len(spare))
    if k == 0:
        drops["case without a positive" if not positives else "case without a negative"] += 1
        return []
    if random_only:
        return list(zip(positives[:k], spare[:k]))
    wanted_hard = math.floor(config.hard_negative_share * (tally["negatives"] + k) + 0.5) - tally["hard"]
    n_hard = min(len(hard), max(0, min(k, wanted_hard)))
    n_random = min(len(spare), k - n_hard)
    n_hard = k - n_random
    tally["negatives"] += k
    tally["hard"] += n_hard
    return list(zip(positives[:k], hard[:n_hard] + spare[:n_random]))


def _row(candidate: FinderCandidate, negative_kind: str) -> dict:
    case, segment = candidate.case, candidate.segment
    return {
        "prompt": candidate.prompt,
        "label": candidate.label,
        "gold_ids": list(candidate.gold_ids),
        "allowed_ids": list(segment.paragraph_ids),
        "example_id": candidate.example_id,
        "case_id": case.case_id,
        "item_id": case.item.item_id,
        "benchmark": case.benchmark,
        "book_id": case.item.book_id,
        "book_key": case.book_key,
        "question": case.question.text,
        "answer_kind": case.question.kind,
        "options": {label: case.question.options.get(label) for label in OPTION_LABELS},
        "answer": case.answer or "",
        "label_source": case.evidence_source,
        "segment_kind": candidate.origin,
        "negative_kind": negative_kind,
        "segment_start": segment.start,
        "segment_end": segment.end,
        "segment_score": float(segment.score),
        "preset": case.preset.name,
        "prompt_tokens": candidate.tokens,
    }


def build_finder_rows(
    config: FinderDataConfig,
    *,
    teacher: TeacherLabeler | None = None,
    token_counter: PromptTokenCounter | None = None,
) -> DatasetBuild:
    """The Finder examples of every split, and the statistics of how they were made (nothing is
    written). ``teacher`` overrides ``config.teacher``."""
    teacher = teacher if teacher is not None else TeacherLabeler.from_config(config.teacher)
    drops: Counter = Counter()
    loaded = load_sources(config.sources, skip_bad=config.skip_bad)
    book_groups: dict[str, str] = {}
    cases: list[ReadingCase] = []
    for source in loaded:
        for item in source.benchmark:
            book_groups.setdefault(source.benchmark.narrative(item).book_id, source.benchmark.name)
            cases.extend(
                reading_cases(
                    item,
                    source.benchmark.narrative(item),
                    source.config.segment_preset,
                    bmds_clue_fields=config.bmds_clue_fields,
                    drops=drops,
                )
            )

    candidates_by_case: list[list[FinderCandidate]] = []
    silver: list[FinderCandidate] = []
    for case in tqdm(cases, desc="segmenting cases", unit="case"):
        match = _prepare_case(case, config, teacher, drops)
        if match is False:
            continue
        segments = case_segments(case, encoder=config.encoder, index_cache_dir=config.index_cache_dir)
        rng = random.Random(f"{config.seed}:finder:{case.case_id}")
        spans = random_spans(case, segments, config.random_negatives_per_case, config.random_negative_margin, rng)
        candidates = [FinderCandidate(case, s, s.kind) for s in segments] + [
            FinderCandidate(case, s, "random") for s in spans
        ]
        for candidate in candidates:
            if case.evidence_source == "silver_teacher":
                silver.append(candidate)
            else:
                _label_from_evidence(candidate, match, config, drops)
        candidates_by_case.append(candidates)
    if silver:
        _teacher_labels(silver, teacher, drops)

    labelled = [c for candidates in candidates_by_case for c in candidates if c.label is not None]
    candidate_labels = Counter(f"{c.case.evidence_source}:{c.label}" for c in labelled)
    for candidate in labelled:
        candidate.prompt = finder_messages(candidate.case.question, candidate.segment.render(candidate.case.narrative))
    counter = token_counter or PromptTokenCounter(config.tokenizer)
    for candidate, tokens in zip(labelled, counter.count([c.prompt for c in labelled], desc="Finder prompt tokens")):
        candidate.tokens = tokens
    overflow = [c for c in labelled if c.tokens > config.max_prompt_tokens]
    for candidate in overflow:
        candidate.label = None

    fitting = [c for c in labelled if c.label is not None]
    kept = {
        id(c) for c in unique_prompts(fitting, lambda c: c.label, drops, "identical prompt with conflicting labels")
    }
    for candidate in fitting:
        if id(candidate) not in kept:
            candidate.label = None

    tally: Counter = Counter()
    pairs = [pair for candidates in candidates_by_case for pair in _select_pairs(candidates, config, tally, drops)]
    available = len(pairs)
    if 2 * len(pairs) > config.target_samples:
        chosen = set(
            random.Random(f"{config.seed}:finder:target").sample(range(len(pairs)), config.target_samples // 2)
        )
        pairs = [pair for n, pair in enumerate(pairs) if n in chosen]

    # split the books that give rows: a book whose cases all drop out (e.g. weak labels too loose
    # to keep) would otherwise take a validation or test place and leave that split empty
    giving = {positive.case.book_key for positive, _ in pairs}
    splits = assign_splits({b: g for b, g in book_groups.items() if b in giving}, config.split_fractions, config.seed)
    rows_by_split: dict[str, list[dict]] = {split: [] for split in SPLITS}
    for positive, negative in pairs:
        rows = rows_by_split[splits[positive.case.book_key]]
        rows.append(_row(positive, ""))
        rows.append(_row(negative, "random" if negative.origin == "random" else "hard"))

    stats = {
        "dataset": "finder",
        **provenance_stats(loaded, teacher, counter),
        "cases": len(cases),
        "labelled_cases": dict(Counter(c[0].case.evidence_source for c in candidates_by_case if c)),
        "candidates": sum(len(c) for c in candidates_by_case),
        "candidate_labels": dict(sorted(candidate_labels.items())),
        "max_prompt_tokens": config.max_prompt_tokens,
        "overflow": len(overflow),
        "dropped": dict(sorted(drops.items())),
        "pairs_available": available,
        "target_samples": config.target_samples,
        "examples": sum(len(rows) for rows in rows_by_split.values()),
        "splits": {
            split: {
                "examples": len(rows),
                "books": len({r["book_key"] for r in rows}),
                "YES": sum(r["label"] == "YES" for r in rows),
                "NO": sum(r["label"] == "NO" for r in rows),
            }
            for split, rows in rows_by_split.items()
        },
        "tokens": length_summary([r["prompt_tokens"] for rows in rows_by_split.values() for r in rows]),
    }
    weak = [row for rows in rows_by_split.values() for row in rows if row["label_source"] == "weak_bmds"]
    stats["weak_label_audit"] = finder_weak_label_audit(weak, config.weak_label_audit)
    stats["weak_label_warning"] = audit_warning(stats["weak_label_audit"], len(weak))
    return DatasetBuild(rows_by_split, stats)


def finder_weak_label_audit(weak: list[dict], audit: str | None) -> dict | None:
    """The hand check's precision over this build's ``weak`` rows (see ``audit``)."""
    if audit is None:
        return None
    path = resolve_audit(audit)
    if not path.is_file():
        return {"audit": audit, "missing": True}
    return audit_summary(weak, load_audit(path), audit)


def finder_card(build: DatasetBuild, config: FinderDataConfig) -> str:
    stats, rows = build.stats, build.rows_by_split
    split_table = {split: {k: v for k, v in s.items()} for split, s in stats["splits"].items()}
    shortfall = (
        f"The target was {stats['target_samples']} examples; the data gave {2 * stats['pairs_available']} "
        f"balanced examples ({stats['pairs_available']} pairs)"
        + (
            ", so pairs were sampled."
            if 2 * stats["pairs_available"] > stats["target_samples"]
            else ", all of which are used."
        )
    )
    return (
        card_front_matter("ClueWeaver Finder GRPO data") + "# ClueWeaver Finder GRPO data\n\n"
        "Per-segment keep/drop decisions for training the Finder with GRPO (TRL conversational format: "
        "`prompt` is the protocol's Finder prompt; the reward reads `label`, `gold_ids`, `allowed_ids`). "
        "Segments come from the inference segmenter; a segment is YES when it holds an evidence paragraph "
        "(`gold_ids` = the evidence inside its span). Negatives are the top-ranked retrieval segments "
        "without evidence (`negative_kind: hard`) and random spans elsewhere in the readable text "
        "(`random`)"
        + (
            ""
            if config.weak_hard_negatives
            else "; a case with weak labels takes random spans only (`weak_hard_negatives: false`: its top-ranked "
            "segments without a matched paragraph often hold the clue in other words)"
        )
        + ". Every case contributes as many positives as negatives, so each split is balanced; "
        "books never cross splits.\n\n"
        f"{shortfall}\n\n"
        "## Splits and label balance\n\n" + markdown_table(split_table, first="count") + "\n\n"
        "## Sources (benchmark)\n\n" + markdown_table(crosstab(rows, "benchmark"), first="benchmark") + "\n\n"
        "## Label provenance\n\n"
        "`gold`: benchmark paragraph labels (DetectiveQA clue positions, GutenQA must-contain strings); "
        "`weak_bmds`: BMDS clue descriptions matched to paragraphs before the reveal; "
        "`silver_teacher`: a teacher model's verdict given the known answer.\n\n"
        + markdown_table(crosstab(rows, "label_source"), first="label_source")
        + "\n\n"
        + audit_section(stats["weak_label_audit"])
        + (f"\n\n**{stats['weak_label_warning']}**" if stats["weak_label_warning"] else "")
        + "\n\n"
        "## Question kinds\n\n"
        "Question-answering rows (`mcq`: DetectiveQA's gold clue positions when it is at hand, multiple-choice "
        "sources labelled by a teacher) and claim-verification rows (`claim`: BMDS clues, GutenQA reference "
        "answers, claim benchmarks labelled by a teacher), as the sources allow.\n\n"
        + markdown_table(crosstab(rows, "answer_kind"), first="answer_kind")
        + "\n\n"
        "## Negatives\n\n"
        + markdown_table(crosstab(rows, "negative_kind"), first="negative_kind (empty: positive)")
        + "\n\n"
        "## Token lengths\n\n" + token_section(stats["tokens"], stats["max_prompt_tokens"], stats["overflow"]) + "\n\n"
        "## Dropped along the way\n\n" + markdown_counts(stats["dropped"], first="reason") + "\n\n"
        f"Cases: {stats['cases']}; labelled cases by label source: {stats['labelled_cases']}; "
        f"candidate segments: {stats['candidates']}. Teacher: {stats['teacher'] or 'none'}.\n\n"
        + config_section(config)
    )


def build_finder_dataset(config: FinderDataConfig, *, teacher: TeacherLabeler | None = None) -> DatasetBuild:
    """Build the Finder dataset and write it to ``config.output_dir`` (see ``write_dataset``)."""
    build = build_finder_rows(config, teacher=teacher)
    if build.stats["weak_label_warning"]:  # also in the card; said here so that a build run by hand shows it
        print(build.stats["weak_label_warning"], file=sys.stderr)
    build.paths = write_dataset(
        build.rows_by_split,
        FINDER_SCHEMA,
        config.output_dir,
        card=finder_card(build, config),
        stats=build.stats,
        config=config,
    )
    return build
