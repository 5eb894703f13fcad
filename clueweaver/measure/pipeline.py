"""``clueweaver bench pipeline``: each stage of the pipeline against the direct reader on the same
backend and device, with random-weight models of a real shape and forced output lengths."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import statistics
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

from tqdm.auto import tqdm

from clueweaver import retrieval
from clueweaver.backends import SamplingConfig, load_backend
from clueweaver.backends.stand_ins import QWEN3_4B_SHAPE, build_tiny_qwen3
from clueweaver.books.narrative import Narrative, from_paragraphs
from clueweaver.pipeline import ClueWeaver, DirectReader, PipelineConfig
from clueweaver.protocol.prompts import finder_messages, interpreter_messages
from clueweaver.protocol.question import Question
from clueweaver.segments.segmenter import Segment, get_preset, segment_narrative

MODEL_SHAPES = {"qwen3-4b": QWEN3_4B_SHAPE, "tiny": {}}
# Reference numbers of issue 4 (H200, plain ``generate`` with a dynamic cache), in seconds.
REFERENCE_H200 = {
    "finder_16_serial_calls": 34.9,
    "finder_one_batch": 5.8,
    "interpret": 12.1,
    "calibrate": 11.8,
    "direct": 10.1,
    "direct_prefill": 1.0,
    "ratio_batched": 2.9,
    "ratio_serial": 5.8,
    "paper_pipeline_per_question": "8.6-9.8",
    "paper_direct": 2.8,
}


@dataclass(frozen=True)
class BenchShape:
    """Prompt tokens (chat template included) and forced output tokens of each generation."""

    segments: int
    finder_prompt_tokens: int
    finder_new_tokens: int
    interpreter_prompt_tokens: int
    interpreter_new_tokens: int
    direct_prompt_tokens: int
    direct_new_tokens: int


BENCH_SHAPES = {
    "detectiveqa": BenchShape(16, 2300, 64, 4300, 192, 30592, 128),
    "tiny": BenchShape(4, 500, 8, 700, 8, 1500, 8),
}
# Worded with the synthetic book's vocabulary, so segmentation ranks real matches; "why" fires tau(q).
BENCH_QUESTION = Question(
    "Why would the man who was first at the time not say what he had been doing there?",
    {"A": "He had no time", "B": "She said so", "C": "They were out", "D": "It was new"},
)
# Common words that are one Qwen3 token each with their leading space: token counts of the
# synthetic book follow its word counts, so segment and packet sizes can be set in tokens.
_BENCH_WORDS = (
    "the of and to in was he that it his her with as had for on at by not be this but from which they or one "
    "all were she an there been would their we him when who will more no if out so said what up its about into "
    "than them can only other new some time could these two may then do first any my now such like our over man"
).split()


class _WellFormedReplies:
    """A backend wrapper for random-weight benchmarks: the real generation runs (its time and token
    counts are kept) and a well-formed reply replaces its noise, so the pipeline takes a trained
    model's path (every segment kept with a citation, a legal provisional answer, one
    self-calibration pass) instead of retries and fallbacks. Records each call's batch size."""

    def __init__(self, inner, role: str):
        self.inner, self.role = inner, role
        self.kind, self.model = inner.kind, inner.model
        self.calls: list[dict] = []

    @property
    def max_model_len(self) -> int:
        return self.inner.max_model_len

    def count_tokens(self, messages) -> int:
        return self.inner.count_tokens(messages)

    def check_counting(self) -> None:
        self.inner.check_counting()

    def _reply(self, messages) -> str:
        found = re.search(r"^\[(\d+)\]", messages[-1]["content"], re.MULTILINE)
        cited = found.group(1) if found else "0"
        if self.role == "finder":
            return f"<reason>[{cited}] holds a clue.</reason><answer>YES</answer>"
        return f"<reason>[{cited}] decides it.</reason><answer>A</answer>"

    def generate(self, conversations, sampling=None, *, adapter=None):
        generations = self.inner.generate(conversations, sampling, adapter=adapter)
        self.calls.append({
            "batch": len(conversations),
            "prompt_tokens": [g.prompt_tokens for g in generations],
            "completion_tokens": [g.completion_tokens for g in generations],
        })  # fmt: skip
        return [dataclasses.replace(g, text=self._reply(m)) for m, g in zip(conversations, generations)]

    def close(self) -> None:
        self.inner.close()


def _synthetic_book(paragraphs: int, words_per_paragraph: int = 60, seed: int = 0) -> Narrative:
    rng = random.Random(seed)
    texts = [
        " ".join(rng.choice(_BENCH_WORDS) for _ in range(words_per_paragraph)).capitalize() + "."
        for _ in range(paragraphs)
    ]
    return from_paragraphs(texts, title="synthetic bench book", detect_headings=False)


def _bench_inputs(backend, shape: BenchShape):
    """The synthetic book, ``shape.segments`` contiguous segments spread over it whose Finder
    prompts hold about ``finder_prompt_tokens``, and a preset whose character budget makes the
    Interpreter prompt about ``interpreter_prompt_tokens``."""
    probe = _synthetic_book(10)
    finder_overhead = backend.count_tokens(finder_messages(BENCH_QUESTION, "x"))
    sample = probe.render(range(10))
    per_paragraph = (backend.count_tokens(finder_messages(BENCH_QUESTION, sample)) - finder_overhead) / 10
    chars_per_token = len(sample) / (per_paragraph * 10)
    per_segment = max(1, round((shape.finder_prompt_tokens - finder_overhead) / per_paragraph))
    needed = max(shape.segments * per_segment, math.ceil(1.2 * shape.direct_prompt_tokens / per_paragraph))
    narrative = _synthetic_book(needed + shape.segments)
    stride = len(narrative) // shape.segments
    segments = [
        Segment.span(n * stride, n * stride + per_segment - 1, "window", 1.0 - n / 100, (n * stride,))
        for n in range(shape.segments)
    ]
    interpreter_overhead = backend.count_tokens(interpreter_messages(BENCH_QUESTION, "x"))
    char_budget = int((shape.interpreter_prompt_tokens - interpreter_overhead) * chars_per_token)
    preset = get_preset("detectiveqa").with_overrides(max_selected=shape.segments, char_budget=char_budget)
    return narrative, segments, preset


def _median_stages(runs: list[dict]) -> dict:
    return {stage: round(statistics.median(run[stage] for run in runs), 4) for stage in runs[0]}


def _finder_rounds(runs: list[dict]) -> list[dict]:
    """Each Finder round on its own (the second one with ``--hops 2``): segments, median seconds
    (round 2's with its retrieval), and the Finder tokens of the last run."""
    last = runs[-1]["finder_rounds"]
    return [
        {
            "round": r["round"],
            "segments": r["segments"],
            "seconds": round(statistics.median(run["finder_rounds"][n]["seconds"] for run in runs), 4),
            "tokens": r["tokens"],
        }
        for n, r in enumerate(last)
    ]


def _token_summary(values: list[int]) -> dict:
    return {"min": min(values), "mean": round(statistics.mean(values), 1), "max": max(values)}


def bench_pipeline(
    *,
    shape: str = "detectiveqa",
    model_shape: str = "qwen3-4b",
    device: str = "auto",
    agents: str = "separate",
    repeats: int = 3,
    warmup: int = 1,
    fast_decode: bool | None = None,
    max_batch_size: int = 16,
    model_dir: str | None = None,
    hops: int = 1,
) -> dict:
    """Each stage of the pipeline and the direct reader on the same backend and device, with a
    random-weight model and forced output lengths (``ignore_eos``); median seconds of ``repeats``
    runs after ``warmup`` runs, peak GPU memory with both agents loaded, the ratio pipeline /
    direct. Segmentation is timed on the same book with BM25 (the Finder reads synthetic segments
    of the target size, which retrieval over a synthetic book would not produce). ``hops=2`` adds
    the second retrieval round and its Finder call (seeded by the paragraph each first-round
    segment cites), whose time is part of the ``finder`` stage and, with its tokens, on its own in
    ``finder_rounds``."""
    import torch

    if shape not in BENCH_SHAPES or model_shape not in MODEL_SHAPES or agents not in ("separate", "shared"):
        raise ValueError(
            f"bench pipeline: shape in {list(BENCH_SHAPES)}, model shape in {list(MODEL_SHAPES)}, agents "
            "separate|shared"
        )
    if repeats < 1 or warmup < 0:
        raise ValueError("bench pipeline: repeats >= 1 and warmup >= 0")
    target = BENCH_SHAPES[shape]
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    on_gpu = device.startswith("cuda")
    if model_shape == "qwen3-4b" and not on_gpu:
        warnings.warn(
            "bench pipeline: a Qwen3-4B-shaped model on CPU takes hours; --model-shape tiny --shape tiny is the CPU "
            "wiring check"
        )
    dtype = "bfloat16" if model_shape == "qwen3-4b" else "float32"
    folder = Path(model_dir) if model_dir else retrieval.default_cache_dir() / "bench-models" / model_shape
    started = time.perf_counter()
    path = str(build_tiny_qwen3(folder, dtype=dtype, **MODEL_SHAPES[model_shape]))
    build_s = time.perf_counter() - started

    options = {"device": device, "dtype": "bfloat16" if on_gpu else dtype, "max_batch_size": max_batch_size}
    if fast_decode is not None:
        options["fast_decode"] = fast_decode
    started = time.perf_counter()
    finder_inner = load_backend("hf", path, **options)
    interpreter_inner = finder_inner if agents == "shared" else load_backend("hf", path, **options)
    load_s = time.perf_counter() - started
    weights_bytes = torch.cuda.memory_allocated() if on_gpu else None
    try:
        narrative, segments, preset = _bench_inputs(finder_inner, target)
        index = retrieval.get_index(narrative, None)
        finder = _WellFormedReplies(finder_inner, "finder")
        interpreter = _WellFormedReplies(interpreter_inner, "interpreter")
        direct_backend = _WellFormedReplies(interpreter_inner, "interpreter")
        config = PipelineConfig(
            preset=preset, encoder=None, hops=hops,
            finder_sampling=SamplingConfig(max_new_tokens=target.finder_new_tokens, ignore_eos=True),
            interpreter_sampling=SamplingConfig(max_new_tokens=target.interpreter_new_tokens, ignore_eos=True),
        )  # fmt: skip
        pipeline = ClueWeaver(finder, interpreter, config=config)
        direct = DirectReader(
            direct_backend, budget=target.direct_prompt_tokens,
            sampling=SamplingConfig(max_new_tokens=target.direct_new_tokens, ignore_eos=True),
        )  # fmt: skip
        runs = []
        for number in tqdm(range(warmup + repeats), desc="bench pipeline", disable=warmup + repeats < 2):
            t = time.perf_counter()
            segment_narrative(narrative, BENCH_QUESTION, preset, index=index)
            segment_s = time.perf_counter() - t
            result = pipeline.answer(narrative, BENCH_QUESTION, index=index, segments=segments)
            direct_result = direct.answer(narrative, BENCH_QUESTION)
            timings = result.trace["timings"]
            stages = {name: timings[name] for name in ("finder", "pack", "interpret", "calibrate")}
            pipeline_run = {"segment": segment_s, **stages, "total": segment_s + timings["total"]}
            direct_run = {name: direct_result.trace["timings"][name] for name in ("truncate", "interpret", "total")}
            rounds = [
                {key: r[key] for key in ("round", "segments", "seconds", "tokens")}
                for r in result.trace["finder"]["rounds"]
            ]
            if number >= warmup:
                runs.append({"pipeline": pipeline_run, "direct": direct_run, "finder_rounds": rounds})
        peak_bytes = torch.cuda.max_memory_allocated() if on_gpu else None
    finally:
        finder_inner.close()
        if interpreter_inner is not finder_inner:
            interpreter_inner.close()

    pipeline_s = _median_stages([run["pipeline"] for run in runs])
    direct_s = _median_stages([run["direct"] for run in runs])
    last = len(finder.calls) // (warmup + repeats)  # Finder calls per question
    finder_calls = finder.calls[-last:]
    interpreter_calls = interpreter.calls[-2:]  # provisional and self-calibration of the last run
    model_s = pipeline_s["finder"] + pipeline_s["interpret"] + pipeline_s["calibrate"]
    gib = 1024**3
    return {
        "benchmark": "pipeline",
        "command": f"clueweaver bench pipeline --shape {shape} --model-shape {model_shape} --device {device} "
        f"--agents {agents} --repeats {repeats} --warmup {warmup} --max-batch-size {max_batch_size}"
        + (" --dynamic-cache" if fast_decode is False else "")
        + (f" --hops {hops}" if hops != 1 else ""),
        "device": torch.cuda.get_device_name(torch.device(device)) if on_gpu else "cpu",
        "torch": torch.__version__,
        "backend": "hf",
        "fast_decode": finder_inner.fast_decode,
        "max_batch_size": max_batch_size,
        "dtype": options["dtype"],
        "model_shape": model_shape,
        "model_config": {**json.loads((Path(path) / "config.json").read_text())},
        "agents": agents,
        "target_shape": dataclasses.asdict(target),
        "measured_shape": {
            "finder_generate_calls_per_question": len(finder_calls),
            "finder_batch": finder_calls[0]["batch"],
            "second_round_batch": finder_calls[1]["batch"] if len(finder_calls) > 1 else 0,
            "finder_prompt_tokens": _token_summary(finder_calls[0]["prompt_tokens"]),
            "finder_new_tokens": _token_summary(finder_calls[0]["completion_tokens"]),
            "interpreter_prompt_tokens": interpreter_calls[0]["prompt_tokens"][0],
            "interpreter_new_tokens": interpreter_calls[0]["completion_tokens"][0],
            "calibration_prompt_tokens": interpreter_calls[1]["prompt_tokens"][0],
            "calibration_new_tokens": interpreter_calls[1]["completion_tokens"][0],
            "interpreter_calls_per_question": len(interpreter.calls) // (warmup + repeats),
            "direct_prompt_tokens": direct_backend.calls[-1]["prompt_tokens"][0],
            "direct_new_tokens": direct_backend.calls[-1]["completion_tokens"][0],
            "book_paragraphs": len(narrative),
        },
        "repeats": repeats,
        "warmup": warmup,
        "pipeline_s": pipeline_s,
        "direct_s": direct_s,
        "finder_rounds": _finder_rounds(runs),
        "ratio": round(pipeline_s["total"] / direct_s["total"], 3),
        "ratio_model_only": round(model_s / direct_s["interpret"], 3),
        "memory_gib": None
        if not on_gpu
        else {"weights": round(weights_bytes / gib, 2), "peak": round(peak_bytes / gib, 2)},
        "build_s": round(build_s, 2),
        "load_s": round(load_s, 2),
        "runs": runs,
        "reference_h200_dynamic_cache_s": REFERENCE_H200,
    }
