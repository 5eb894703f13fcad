"""The Interpreter's GRPO dataset: a question or claim, its answer space, and an evidence packet.

Each packet is assembled the way inference assembles one, through the same segmenter and packer:
the segments holding the case's evidence (a span around any evidence paragraph the segmenter
missed), then the top-ranked segments without evidence as distractors up to the preset's N_E,
packed in narrative order within its character budget with the evidence paragraphs cited. Without
evidence labels (no gold, no teacher) the packet is the retrieval packet inference would build.

Examples come from the sources' own multiple-choice questions and claims, and from synthetic
claims (see ``synthetic``: grounded FALSE edits, none of claims the book only does not contradict),
which reuse the packet of the item they were made from, so a TRUE claim and its edited FALSE twin
read the same evidence. The mixture first splits ``num_samples`` between multiple-choice questions
and claims by ``mcq_share`` (default: the paper's test distribution, 199 of 310 items), then each
kind's share among its sources by their weights (``synthetic_claims`` is one more claim source); a
source or kind with too few items gives its share to the others, and the card shows target and
realized mixes. Hard examples make up ``hard_share`` of every source's quota where enough exist:
items failed by the base model, asked through the evaluation harness (``hard_cases``: one flag,
``--hard-cases.model MODEL``), or failed in given predictions files (``predictions``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field

from tqdm.auto import tqdm

from clueweaver.protocol.prompts import interpreter_messages
from clueweaver.protocol.question import OPTION_LABELS, Question
from clueweaver.segments.packing import Packet, pack
from clueweaver.segments.segmenter import Segment
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
from clueweaver.training_data.hard_cases import HardCaseConfig, HardCaseMiner, read_hard_items
from clueweaver.training_data.labels import TeacherLabeler, TeacherRequest
from clueweaver.training_data.synthetic import (
    EDIT_KINDS,
    TRUE_MEANS_NOT_CONTRADICTED,
    SyntheticClaim,
    false_claims,
    option_claims,
)

SYNTHETIC_SOURCE = "synthetic_claims"
KINDS = ("mcq", "claim")
PAPER_TEST_MCQ_SHARE = round(199 / 310, 4)  # the paper's test set: 199 multiple-choice items of 310

INTERPRETER_SCHEMA = {
    "prompt": [{"role": "string", "content": "string"}],  # the protocol's Interpreter prompt
    "question": "string",  # the question or claim
    "answer": "string",  # gold: an option letter or TRUE/FALSE
    "answer_kind": "string",  # mcq | claim
    "options": {label: "string" for label in OPTION_LABELS},  # null for absent options and claims
    "allowed_ids": ["int64"],  # the packet's paragraph IDs
    "evidence": "string",  # the packet text
    "hard": "bool",
    "gold_ids": ["int64"],  # evidence paragraphs inside the packet (empty when unknown)
    "item_id": "string",  # this question's ID: the benchmark item's, or "<item>#synthetic-<edit>-<n>"
    "source_item_id": "string",  # the benchmark item it comes from
    "benchmark": "string",
    "source": "string",  # mixture source: the benchmark, or synthetic_claims
    "book_id": "string",
    "book_key": "string",
    "label_source": "string",  # benchmark | synthetic
    "synthetic_edit": "string",  # "" | statement | option | entity | number
    "edit_original": "string",
    "edit_replacement": "string",
    "evidence_source": "string",  # gold | silver_teacher | retrieval
    "preset": "string",
    "packet_chars": "int64",
    "prompt_tokens": "int64",
}


@dataclass
class SyntheticConfig:
    weight: float = 0.25  # mixture weight of the synthetic_claims source
    seed_benchmarks: list[str] | None = None  # benchmarks whose items seed synthetic claims (None: all sources)
    edits: list[str] = field(default_factory=lambda: list(EDIT_KINDS))
    false_per_true: int = 1

    def __post_init__(self) -> None:
        unknown = set(self.edits) - set(EDIT_KINDS)
        if unknown:
            raise ValueError(
                f"synthetic.edits: unknown edit(s) {', '.join(sorted(unknown))}; use {', '.join(EDIT_KINDS)}"
            )
        if self.weight < 0 or self.false_per_true < 1:
            raise ValueError("synthetic.weight cannot be negative and synthetic.false_per_true must be at least 1")


def _default_sources() -> list[SourceConfig]:
    return [
        SourceConfig("quality_leval", weight=0.45),
        SourceConfig("nocha", weight=0.15),
        SourceConfig("kdsh", weight=0.10, preset="nocha"),
        SourceConfig("leval_scifi", weight=0.05),
        SourceConfig("gutenqa", weight=0.0),
    ]


@dataclass
class InterpreterDataConfig(DataBuildConfig):
    output_dir: str = "data/interpreter"
    sources: list[SourceConfig] = field(default_factory=_default_sources)
    num_samples: int = 1000
    synthetic: SyntheticConfig = field(default_factory=SyntheticConfig)
    predictions: list[str] = field(default_factory=list)  # evaluation predictions.jsonl files of the model to train
    hard_share: float = 0.275
    # The share of multiple-choice questions: the paper's test distribution (199 of its 310 test items);
    # null: no kind constraint, the source weights alone.
    mcq_share: float | None = PAPER_TEST_MCQ_SHARE
    # The base model whose failures are the hard cases (--hard-cases.model MODEL), asked through the
    # evaluation harness; combines with predictions files.
    hard_cases: HardCaseConfig = field(default_factory=HardCaseConfig)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.num_samples < 1:
            raise ValueError("num_samples must be at least 1")
        for name in ("hard_share", "mcq_share"):
            if getattr(self, name) is not None and not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1")
        if SYNTHETIC_SOURCE in {s.name for s in self.sources}:
            raise ValueError(f"{SYNTHETIC_SOURCE} is set by synthetic.weight, not listed as a source")


def allocate(total: int, weights: dict[str, float], capacity: dict[str, int]) -> dict[str, int]:
    """Shares of ``total`` proportional to ``weights`` (largest remainders), none above its
    capacity; what a full source cannot take is shared among the others by weight."""
    allocation = {name: 0 for name in weights}
    active = {name for name, w in weights.items() if w > 0 and capacity.get(name, 0) > 0}
    remaining = total
    while remaining > 0 and active:
        weight_sum = sum(weights[n] for n in active)
        exact = {n: remaining * weights[n] / weight_sum for n in active}
        share = {n: math.floor(exact[n]) for n in active}
        for name in sorted(active, key=lambda n: (share[n] - exact[n], n))[: remaining - sum(share.values())]:
            share[name] += 1
        for name in active:
            take = min(share[name], capacity[name] - allocation[name])
            allocation[name] += take
            remaining -= take
        active = {n for n in active if allocation[n] < capacity[n]}
    return allocation


def evidence_packet(case: ReadingCase, segments: list[Segment]) -> Packet:
    """The case's evidence-bearing segments plus top-ranked distractors, packed like inference."""
    gold = set(case.evidence)
    if not gold:
        return pack(case.narrative, segments, case.preset)
    bearing = [s for s in segments if gold.intersection(s.paragraph_ids)]
    covered = {i for s in bearing for i in s.paragraph_ids}
    top_score = max((s.score for s in segments), default=0.0)
    last, length = len(case.narrative) - 1, case.preset.retrieval_paragraphs
    for paragraph_id in sorted(gold - covered):
        if paragraph_id in covered:
            continue
        start = min(max(0, paragraph_id - (length - 1) // 2), max(0, last - length + 1))
        segment = Segment.span(start, min(last, start + length - 1), "retrieval", top_score, (paragraph_id,))
        bearing.append(segment)
        covered.update(segment.paragraph_ids)
    distractors = sorted(
        (s for s in segments if not gold.intersection(s.paragraph_ids)), key=lambda s: (-s.score, s.start)
    )
    room = max(0, case.preset.max_selected - len(bearing))
    return pack(case.narrative, bearing + distractors[:room], case.preset, cited_ids=gold)


@dataclass
class InterpreterExample:
    case: ReadingCase
    question: Question
    answer: str
    item_id: str
    source: str
    claim: SyntheticClaim | None = None
    packet: Packet | None = None
    prompt: list[dict] = field(default_factory=list)
    tokens: int = 0
    hard: bool = False


def _synthetic_examples(
    case: ReadingCase, config: InterpreterDataConfig, packet_text: str, drops: Counter
) -> list[InterpreterExample]:
    """Synthetic claims of one case (see ``synthetic``): option claims of an MCQ; a stated TRUE claim
    and its grounded FALSE edits, never edits of a claim the book only does not contradict."""
    rng = random.Random(f"{config.seed}:synthetic:{case.case_id}")
    edits = tuple(config.synthetic.edits)
    claims: list[SyntheticClaim] = []
    if case.question.kind == "mcq" and "option" in edits:
        claims = option_claims(case.question, case.answer, rng, config.synthetic.false_per_true)
    elif case.question.is_claim and case.answer == "TRUE" and case.benchmark in TRUE_MEANS_NOT_CONTRADICTED:
        drops[f"no FALSE edits: {TRUE_MEANS_NOT_CONTRADICTED[case.benchmark]}"] += 1
    elif case.question.is_claim and case.answer == "TRUE":
        if case.item.question.kind == "open":  # a reference answer stated as a claim is itself synthetic
            claims.append(SyntheticClaim(case.question.text, "TRUE", "statement"))
        edited = false_claims(
            case.question.text,
            case.narrative,
            rng,
            edits=edits,
            count=config.synthetic.false_per_true,
            grounding=packet_text,
        )
        if not edited:
            drops["no grounded FALSE edit (no name or number of the claim in its evidence packet)"] += 1
        claims += edited
    return [
        InterpreterExample(
            case, Question.claim(c.text), c.label, f"{case.case_id}#synthetic-{c.edit}-{n}", SYNTHETIC_SOURCE, c
        )
        for n, c in enumerate(claims)
    ]


def _silver_evidence(cases_segments: list[tuple[ReadingCase, list[Segment]]], teacher: TeacherLabeler) -> None:
    requests, owners = [], []
    for case, segments in cases_segments:
        for segment in segments:
            requests.append(
                TeacherRequest(case.question, case.answer, segment.render(case.narrative), segment.paragraph_ids)
            )
            owners.append(case)
    evidence: dict[str, set[int]] = {}
    for case, parsed in zip(owners, teacher.label(requests)):
        if parsed is not None and parsed.answer == "YES":
            evidence.setdefault(case.case_id, set()).update(parsed.cited_ids)
    for case, _ in cases_segments:
        if evidence.get(case.case_id):
            case.evidence, case.evidence_source = tuple(sorted(evidence[case.case_id])), "silver_teacher"


def _row(example: InterpreterExample) -> dict:
    case, packet, claim = example.case, example.packet, example.claim
    return {
        "prompt": example.prompt,
        "question": example.question.text,
        "answer": example.answer,
        "answer_kind": example.question.kind,
        "options": {label: example.question.options.get(label) for label in OPTION_LABELS},
        "allowed_ids": list(packet.paragraph_ids),
        "evidence": packet.text,
        "hard": example.hard,
        "gold_ids": sorted(set(case.evidence).intersection(packet.paragraph_ids)),
        "item_id": example.item_id,
        "source_item_id": case.item.item_id,
        "benchmark": case.benchmark,
        "source": example.source,
        "book_id": case.item.book_id,
        "book_key": case.book_key,
        "label_source": "synthetic" if claim else "benchmark",
        "synthetic_edit": claim.edit if claim else "",
        "edit_original": claim.original if claim else "",
        "edit_replacement": claim.replacement if claim else "",
        "evidence_source": case.evidence_source,
        "preset": case.preset.name,
        "packet_chars": packet.chars,
        "prompt_tokens": example.tokens,
    }


def _take(examples: list[InterpreterExample], count: int, rng: random.Random) -> list[InterpreterExample]:
    """``count`` examples drawn by case: the claims made from one item (a TRUE claim and its edited
    FALSE twins) are taken together, so minimal pairs stay pairs."""
    groups: dict[str, list[InterpreterExample]] = {}
    for example in examples:
        groups.setdefault(example.case.case_id, []).append(example)
    order = list(groups.values())
    rng.shuffle(order)
    return [e for group in order for e in group][:count]


def _sample_sources(
    pools: dict[str, list[InterpreterExample]], weights: dict[str, float], total: int, hard_share: float, rng, mine
) -> tuple[list[InterpreterExample], dict]:
    """``total`` examples: per-source quotas by weight, within them hard examples up to ``hard_share``
    (``mine(pool, needed)`` first marks more of a source's candidates hard where too few are)."""
    quotas = allocate(total, weights, {s: len(p) for s, p in pools.items()})
    hard_target = round(hard_share * sum(quotas.values()))
    if mine is not None:
        wanted = allocate(hard_target, {s: float(q) for s, q in quotas.items()}, quotas)
        for source in sorted(pools):
            if sum(e.hard for e in pools[source]) < wanted[source]:
                mine(pools[source], wanted[source])
    hard_pools = {s: [e for e in pool if e.hard] for s, pool in pools.items()}
    hard_quotas = allocate(
        hard_target, {s: float(q) for s, q in quotas.items()}, {s: min(quotas[s], len(hard_pools[s])) for s in pools}
    )
    chosen = []
    for source in sorted(pools):
        easy = [e for e in pools[source] if not e.hard]
        n_easy = min(quotas[source] - hard_quotas[source], len(easy))
        chosen += _take(hard_pools[source], quotas[source] - n_easy, rng) + _take(easy, n_easy, rng)
    return chosen, {
        "quotas": quotas,
        "hard_available": {s: len(p) for s, p in hard_pools.items()},
        "hard_target": hard_target,
    }


def _sample(
    pools: dict[str, list[InterpreterExample]], weights: dict[str, float], config: InterpreterDataConfig, mine=None
) -> tuple[list[InterpreterExample], dict]:
    """The mixture: ``num_samples`` split between multiple-choice questions and claims by
    ``mcq_share`` (the test distribution's), each kind's share split among its sources by weight,
    and within each source hard examples up to ``hard_share``."""
    rng = random.Random(f"{config.seed}:interpreter:sample")
    groups = {"all": pools}
    totals = {"all": config.num_samples}
    if config.mcq_share is not None:
        groups = {kind: {s: [e for e in p if e.question.kind == kind] for s, p in pools.items()} for kind in KINDS}
        capacity = {kind: sum(map(len, group.values())) for kind, group in groups.items()}
        shares = {"mcq": config.mcq_share, "claim": 1.0 - config.mcq_share}
        totals = allocate(config.num_samples, shares, capacity)
    chosen, plan = [], {"target_weights": weights, "available": {s: len(p) for s, p in pools.items()}}
    plan.update(quotas=Counter(), hard_available=Counter(), hard_target=0, kind_quotas=totals)
    for kind, group in groups.items():
        picked, part = _sample_sources(group, weights, totals[kind], config.hard_share, rng, mine)
        chosen += picked
        plan["quotas"].update(part["quotas"])
        plan["hard_available"].update(part["hard_available"])
        plan["hard_target"] += part["hard_target"]
    plan.update(quotas=dict(plan["quotas"]), hard_available=dict(plan["hard_available"]))
    return chosen, plan


def build_interpreter_rows(
    config: InterpreterDataConfig,
    *,
    teacher: TeacherLabeler | None = None,
    token_counter: PromptTokenCounter | None = None,
    miner: HardCaseMiner | None = None,
) -> DatasetBuild:
    """The Interpreter examples of every split and how they were made (nothing is written except the
    hard-case miner's predictions log). ``teacher`` / ``miner`` override ``config.teacher`` /
    ``config.hard_cases``."""
    teacher = teacher if teacher is not None else TeacherLabeler.from_config(config.teacher)
    miner = (
        miner if miner is not None else HardCaseMiner.from_config(config.hard_cases, config.output_dir, config.seed)
    )
    try:
        return _build_rows(config, teacher, token_counter, miner)
    finally:
        if miner is not None:
            miner.close()


def _build_rows(
    config: InterpreterDataConfig,
    teacher: TeacherLabeler | None,
    token_counter: PromptTokenCounter | None,
    miner: HardCaseMiner | None,
) -> DatasetBuild:
    hard_items, skipped_predictions = read_hard_items(config.predictions, skip_bad=config.skip_bad)
    drops: Counter = Counter()
    loaded = load_sources(config.sources, skip_bad=config.skip_bad)
    seeds = (
        set(config.synthetic.seed_benchmarks or [s.benchmark.name for s in loaded])
        if config.synthetic.weight > 0
        else set()
    )
    book_groups: dict[str, str] = {}
    wanted: list[tuple[ReadingCase, bool, bool]] = []  # case, real example, synthetic seed
    for source in loaded:
        for item in source.benchmark:
            narrative = source.benchmark.narrative(item)
            book_groups.setdefault(narrative.book_id, source.benchmark.name)
            for case in reading_cases(item, narrative, source.config.segment_preset, drops=drops):
                real = source.config.weight > 0 and item.question.kind in ("mcq", "claim") and case.answer is not None
                seed = source.benchmark.name in seeds and case.answer is not None
                if real or seed:
                    wanted.append((case, real, seed))
                else:
                    drops["item neither sampled nor seeding synthetic claims (weight 0, no answer)"] += 1

    segmented = [
        (case, case_segments(case, encoder=config.encoder, index_cache_dir=config.index_cache_dir))
        for case, _, _ in tqdm(wanted, desc="segmenting cases", unit="case")
    ]
    if teacher is not None:
        _silver_evidence(
            [(case, segments) for case, segments in segmented if not case.evidence and case.answer], teacher
        )
    examples: list[InterpreterExample] = []
    for (case, real, seed), (_, segments) in zip(wanted, tqdm(segmented, desc="packing evidence", unit="case")):
        if not case.evidence:
            case.evidence_source = "retrieval"
        packet = evidence_packet(case, segments)
        made = (
            [InterpreterExample(case, case.question, case.answer, case.item.item_id, case.benchmark)] if real else []
        )
        made += _synthetic_examples(case, config, packet.text, drops) if seed else []
        for example in made:
            example.packet = packet
            example.prompt = interpreter_messages(example.question, packet.text)
            example.hard = hard_items.get(example.item_id, False)
        examples += made

    counter = token_counter or PromptTokenCounter(config.tokenizer)
    for example, tokens in zip(
        examples, counter.count([e.prompt for e in examples], desc="Interpreter prompt tokens")
    ):
        example.tokens = tokens
    overflow = sum(e.tokens > config.max_prompt_tokens for e in examples)
    # an identical prompt has identical tokens, so leaving out the overflow first changes no verdict
    fitting = [e for e in examples if e.tokens <= config.max_prompt_tokens]
    pools: dict[str, list[InterpreterExample]] = {}
    for example in unique_prompts(fitting, lambda e: e.answer, drops, "identical prompt with conflicting answers"):
        pools.setdefault(example.source, []).append(example)

    weights = {s.benchmark.name: s.config.weight for s in loaded if s.config.weight > 0}
    if config.synthetic.weight > 0:
        weights[SYNTHETIC_SOURCE] = config.synthetic.weight
    for name in weights:
        pools.setdefault(name, [])
    mine = miner.mark if miner is not None else None
    chosen, plan = _sample({s: p for s, p in pools.items() if s in weights}, weights, config, mine)

    splits = assign_splits(book_groups, config.split_fractions, config.seed)
    rows_by_split: dict[str, list[dict]] = {split: [] for split in SPLITS}
    for example in sorted(chosen, key=lambda e: e.item_id):
        rows_by_split[splits[example.case.book_key]].append(_row(example))

    all_rows = [r for rows in rows_by_split.values() for r in rows]
    stats = {
        "dataset": "interpreter",
        **provenance_stats(loaded, teacher, counter),
        "cases": len(wanted),
        "candidates": len(examples),
        "max_prompt_tokens": config.max_prompt_tokens,
        "overflow": overflow,
        "dropped": dict(sorted(drops.items())),
        "mixture": {**plan, "realized": dict(Counter(r["source"] for r in all_rows))},
        "num_samples": config.num_samples,
        "examples": len(all_rows),
        "hard": {
            "predictions_files": list(config.predictions),
            "items_failed": sum(hard_items.values()),
            "base_model": None if miner is None else {"model": config.hard_cases.model, **miner.summary()},
            "target_share": config.hard_share,
            "realized_share": round(sum(r["hard"] for r in all_rows) / len(all_rows), 4) if all_rows else 0.0,
        },
        "splits": {
            split: {
                "examples": len(rows),
                "books": len({r["book_key"] for r in rows}),
                "hard": sum(r["hard"] for r in rows),
            }
            for split, rows in rows_by_split.items()
        },
        "tokens": length_summary([r["prompt_tokens"] for r in all_rows]),
    }
    if skipped_predictions:
        stats["skipped_rows"]["predictions"] = [list(r) for r in skipped_predictions]
    return DatasetBuild(rows_by_split, stats)


def _kind_note(rows_by_split: dict[str, list[dict]], config: InterpreterDataConfig) -> str:
    counts = Counter(row["answer_kind"] for rows in rows_by_split.values() for row in rows)
    realized = counts["mcq"] / max(1, sum(counts.values()))
    if config.mcq_share is None:
        return f"No question-kind target (`mcq_share: null`); realized multiple-choice share {realized:.3f}.\n\n"
    return (
        f"Question kinds: target multiple-choice share {config.mcq_share} (the paper's test distribution: 199 of 310 "
        f"items), realized {realized:.3f} ({counts['mcq']} multiple-choice, {counts['claim']} claims).\n\n"
    )


def _hard_note(hard: dict) -> str:
    sources = []
    if hard["base_model"]:
        miner = hard["base_model"]
        sources.append(
            f"the base model `{miner['model']}` answered {miner['answered']} candidates through the evaluation "
            f"harness ({miner['asked']} asked in this build; log `{miner['log']}`) and failed {miner['failed']}"
        )
    if hard["predictions_files"]:
        sources.append(f"{hard['items_failed']} items failed in {', '.join(hard['predictions_files'])}")
    how = "; ".join(sources) if sources else "no base model and no predictions file were given, so none is hard"
    return f"Hard examples: {how}. Target share {hard['target_share']}, realized {hard['realized_share']}."


def interpreter_card(build: DatasetBuild, config: InterpreterDataConfig) -> str:
    stats, rows = build.stats, build.rows_by_split
    mixture = stats["mixture"]
    total_weight = sum(mixture["target_weights"].values()) or 1.0
    mixture_table = {
        "target share": {s: f"{w / total_weight:.3f}" for s, w in mixture["target_weights"].items()},
        "available": mixture["available"],
        "realized": mixture["realized"],
    }
    return (
        card_front_matter("ClueWeaver Interpreter GRPO data") + "# ClueWeaver Interpreter GRPO data\n\n"
        "Evidence packets for training the Interpreter with GRPO (TRL conversational format: `prompt` is the "
        "protocol's Interpreter prompt; the reward reads `answer`, `answer_kind`, `options`, `question`, "
        "`allowed_ids`, `hard`, `evidence`). Packets hold the segments with the case's evidence plus "
        "top-ranked distractor segments, packed in narrative order within the preset's budget by the "
        "inference packer. Books never cross splits.\n\n"
        f"{stats['examples']} examples (asked for {stats['num_samples']}).\n\n"
        "## Splits\n\n" + markdown_table(stats["splits"], first="count") + "\n\n"
        "## Source mixture\n\n"
        + markdown_table(mixture_table, first="source")
        + "\n\n"
        + _kind_note(rows, config)
        + "## Answers\n\n"
        + markdown_table(crosstab(rows, "answer"), first="answer")
        + "\n\n"
        + markdown_table(crosstab(rows, "answer_kind"), first="answer_kind")
        + "\n\n"
        "## Label provenance\n\n"
        "`benchmark`: the benchmark's gold answer; `synthetic`: a claim made from a gold answer "
        "(`statement`, TRUE) or by one minimal edit of one (`option`, `entity`, `number`: FALSE). Entity and "
        "number edits start only from TRUE claims the book states (never a KDSH 'consistent' backstory, which "
        "is only not contradicted) and replace a name or number that the packet holds, so every FALSE claim "
        "contradicts the evidence it is read with.\n\n"
        + markdown_table(crosstab(rows, "label_source"), first="label_source")
        + "\n\n"
        + markdown_table(crosstab(rows, "synthetic_edit"), first="synthetic_edit (empty: none)")
        + "\n\n"
        "Evidence in the packet: `gold` (benchmark paragraph labels), `silver_teacher` (teacher-labelled "
        "segments), `retrieval` (no evidence labels: the retrieval packet inference would build).\n\n"
        + markdown_table(crosstab(rows, "evidence_source"), first="evidence_source")
        + "\n\n"
        "## Hard items\n\n" + _hard_note(stats["hard"]) + "\n\n"
        "## Token lengths\n\n" + token_section(stats["tokens"], stats["max_prompt_tokens"], stats["overflow"]) + "\n\n"
        "## Dropped along the way\n\n" + markdown_counts(stats["dropped"], first="reason") + "\n\n"
        f"Teacher: {stats['teacher'] or 'none'}.\n\n" + config_section(config)
    )


def build_interpreter_dataset(config: InterpreterDataConfig, *, teacher: TeacherLabeler | None = None) -> DatasetBuild:
    """Build the Interpreter dataset and write it to ``config.output_dir``."""
    build = build_interpreter_rows(config, teacher=teacher)
    build.paths = write_dataset(
        build.rows_by_split,
        INTERPRETER_SCHEMA,
        config.output_dir,
        card=interpreter_card(build, config),
        stats=build.stats,
        config=config,
    )
    return build
