"""Building a ChronoRAG index once per book: Layer 0, then each group's summary and relations
through any generation backend, cached and resumable.

Tokens are counted by the backend's own tokenizer (``evidence_tokens``); a backend that cannot
count here is a ChronoError saying what to pass, never an approximation. Groups go to the model
``batch_groups`` at a time, in one generation call per step, each try at most ``summary_tokens`` or
``extraction_tokens`` new tokens: the summaries, then the extractions
from them (from the chunks' own text in the no-summarization ablation). Every output is read
against its JSON schema, which is also attached where the backend constrains decoding; a rejected
output goes back to the model with the reason, up to ``max_attempts`` tries in all, and a group
still without a valid output is recorded as failed (no node of it in Layer 1) while the build goes
on; ``BuildReport.failed_too_often`` says when the failed share makes the index unusable (the
command then exits non-zero). ``plan`` counts what a build would spend before it spends anything
(``chrono build --dry-run``). Each group is written to the index folder as soon as it is done
(``clueweaver.chrono.store``), so a second build of the same book, model, prompts and settings
makes no call at all, and an interrupted one makes only the calls it had not made.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from clueweaver.backends import BackendError, GenerationBackend, SamplingConfig
from clueweaver.backends.base import evidence_tokens
from clueweaver.backends.structured import constrained
from clueweaver.books.narrative import Narrative
from clueweaver.chrono.chunks import chunk_groups, chunk_narrative, piece_text
from clueweaver.chrono.config import ChronoConfig, ChronoError
from clueweaver.chrono.graph import ChronoGraph
from clueweaver.chrono.store import IndexFolder
from clueweaver.protocol.chrono_prompts import (
    EXTRACTION_SCHEMA,
    SUMMARY_SCHEMA,
    Extraction,
    extraction_messages,
    read_extraction,
    read_summary,
    retry_messages,
    summary_messages,
)
from clueweaver.protocol.json_output import OutputRejected


def token_counter(backend: GenerationBackend) -> Callable[[str], int]:
    """The backend's own count of a text's tokens, or a ChronoError saying how to get one."""
    try:
        backend.check_counting()
    except BackendError as exc:
        raise ChronoError(f"ChronoRAG counts chunk and budget tokens with the model's tokenizer: {exc}") from None
    return evidence_tokens(backend)


@dataclass
class BuildReport:
    """What a build did: the index's size, the groups made now and before, the failed ones and why,
    and the model calls it cost."""

    folder: Path
    model: str
    chunks: int
    groups: int
    nodes: int = 0
    built: int = 0
    resumed: int = 0
    failures: list[dict] = field(default_factory=list)
    main_failure: str | None = None  # the commonest reason of the failed groups (``ChronoGraph.main_failure``)
    calls: int = 0  # generation calls (each a batch)
    generations: int = 0  # conversations generated
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        return len(self.failures)

    def failed_too_often(self, max_share: float) -> bool:
        """Every group failed, or more than ``max_share`` of them: an index not worth reading."""
        return self.failed > 0 and (self.failed == self.groups or self.failed > max_share * self.groups)

    def to_dict(self) -> dict:
        return {
            "folder": str(self.folder),
            "model": self.model,
            "chunks": self.chunks,
            "groups": self.groups,
            "nodes": self.nodes,
            "built": self.built,
            "resumed": self.resumed,
            "failed": self.failed,
            "failures": self.failures,
            "main_failure": self.main_failure,
            "calls": self.calls,
            "generations": self.generations,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class _Step:
    """One generation step over several groups: its prompts, how an output is read, its sampling."""

    conversations: dict[int, list[dict]]
    read: Callable[[str], object]
    sampling: SamplingConfig


class ChronoBuilder:
    """Builds (or finds) the ChronoRAG index of a book with one backend."""

    def __init__(
        self,
        backend: GenerationBackend,
        config: ChronoConfig | None = None,
        *,
        cache_dir: str | Path | None = None,
        progress: bool = True,
    ) -> None:
        self.backend, self.config = backend, config or ChronoConfig()
        self.count = token_counter(backend)
        self.cache_dir, self.progress = cache_dir, progress

    def folder(self, narrative: Narrative) -> IndexFolder:
        return IndexFolder.for_model(narrative, self.backend.model, self.config, self.cache_dir)

    def _layer0(self, narrative: Narrative, folder: IndexFolder) -> tuple[list, list[range]]:
        """Layer 0 as the folder holds it, else cut now (and not saved: the build saves it)."""
        if folder.exists():
            return folder.layer0()
        chunks = chunk_narrative(narrative, self.count, self.config.chunk_tokens)
        return chunks, chunk_groups(narrative, chunks, self.config.group_chunks)

    def _pending(self, narrative: Narrative, folder: IndexFolder) -> tuple[list, list[range], dict, dict[int, str]]:
        """Layer 0, the finished groups, and the text of each group still to build."""
        chunks, groups = self._layer0(narrative, folder)
        done = folder.records() if folder.exists() else {}
        texts = {
            g: piece_text(narrative, [p for c in groups[g] for p in chunks[c].pieces])
            for g in range(len(groups))
            if g not in done
        }
        return chunks, groups, done, texts

    def plan(self, narrative: Narrative) -> dict:
        """What building (or resuming) the index would spend, counted without a model call:
        generations (one conversation each), batched calls and the new tokens the caps allow, on the
        first tries and at most (every output retried to ``max_attempts``), and the prompt tokens of
        the first tries (the summaries' exactly; the extractions' with each summary at its cap)."""
        folder = self.folder(narrative)
        chunks, groups, done, texts = self._pending(narrative, folder)
        steps = 2 if self.config.summarize else 1
        cap = self.config.summary_tokens
        prompts = sum(
            self._prompt_tokens(summary_messages(narrative.title, text)) if self.config.summarize else 0
            for text in texts.values()
        )
        extraction_base = self._prompt_tokens(extraction_messages(narrative.title, ""))
        prompts += sum(
            extraction_base + (cap if self.config.summarize else self.count(text)) for text in texts.values()
        )
        first = steps * len(texts)
        batches = -(-len(texts) // self.config.batch_groups)
        new_tokens = len(texts) * (self.config.extraction_tokens + (cap if self.config.summarize else 0))
        return {
            "folder": str(folder.path),
            "model": self.backend.model,
            "chunks": len(chunks),
            "groups": len(groups),
            "done": len(done),
            "pending": len(texts),
            "generations": first,
            "generations_at_most": first * self.config.max_attempts,
            "calls": steps * batches,
            "calls_at_most": steps * batches * self.config.max_attempts,
            "prompt_tokens": prompts,
            "new_tokens": new_tokens,
            "new_tokens_at_most": new_tokens * self.config.max_attempts,
            "caps": {
                name: getattr(self.config, name)
                for name in ("summary_tokens", "extraction_tokens", "max_attempts", "batch_groups")
            },
        }

    def _prompt_tokens(self, messages: list[dict]) -> int:
        return self.count("\n\n".join(m["content"] for m in messages))

    def build(self, narrative: Narrative) -> tuple[ChronoGraph, BuildReport]:
        """The book's index, made where the cache lacks it; with the report of what was done."""
        started = time.perf_counter()
        folder = self.folder(narrative)
        if not folder.exists():
            chunks, groups = self._layer0(narrative, folder)
            folder.save_layer0(narrative, chunks, groups)
        chunks, groups, done, texts = self._pending(narrative, folder)
        report = BuildReport(folder.path, self.backend.model, len(chunks), len(groups), resumed=len(done))
        pending = sorted(texts)
        with tqdm(
            total=len(groups), initial=len(done), desc=f"ChronoRAG index of {narrative.title}", unit="group",
            disable=not self.progress or not pending,
        ) as bar:  # fmt: skip
            for start in range(0, len(pending), self.config.batch_groups):
                batch = pending[start : start + self.config.batch_groups]
                for record in self._groups(narrative.title, {g: texts[g] for g in batch}, report):
                    folder.append(record)
                    report.built += 1
                    bar.update()
        graph = ChronoGraph.load(narrative, folder)
        report.nodes, report.main_failure = len(graph.relations), graph.main_failure
        report.failures = [
            {"group": r["group"], "stage": r["stage"], "errors": r["errors"]}
            for _, r in sorted(folder.records().items())
            if r["status"] == "failed"
        ]
        report.seconds = time.perf_counter() - started
        return graph, report

    def _sampling(self, max_new_tokens: int, schema: dict) -> SamplingConfig:
        return constrained(self.backend, SamplingConfig(max_new_tokens=max_new_tokens), schema)

    def _groups(self, title: str, texts: dict[int, str], report: BuildReport) -> Iterator[dict]:
        """A record for each group of ``texts`` as it is finished: summarized (unless the ablation
        says not), then its relations extracted from the summary (or the text)."""
        inputs, earlier = dict(texts), {g: (None, 0, []) for g in texts}
        if self.config.summarize:
            inputs = {}
            step = _Step(
                {g: summary_messages(title, text) for g, text in texts.items()},
                read_summary,
                self._sampling(self.config.summary_tokens, SUMMARY_SCHEMA),
            )
            for group, summary, attempts, errors in self._generate(step, report):
                if summary is None:
                    yield _record(group, "failed", "summary", None, None, attempts, errors)
                else:
                    inputs[group], earlier[group] = summary, (summary, attempts, errors)
        step = _Step(
            {g: extraction_messages(title, text) for g, text in inputs.items()},
            read_extraction,
            self._sampling(self.config.extraction_tokens, EXTRACTION_SCHEMA),
        )
        for group, extraction, attempts, errors in self._generate(step, report):
            summary, before, rejected = earlier[group]
            status = "failed" if extraction is None else "ok"
            yield _record(group, status, "extraction", summary, extraction, before + attempts, rejected + errors)

    def _generate(self, step: _Step, report: BuildReport) -> Iterator[tuple[int, object, int, list[str]]]:
        """(group, value or None, attempts, errors of the rejected outputs) for each conversation as
        it ends: read, or out of attempts, or its prompt did not fit the model's window (no retry
        can make it fit)."""
        pending, errors = dict(step.conversations), {g: [] for g in step.conversations}
        while pending:
            keys = sorted(pending)
            outputs = self.backend.generate([pending[g] for g in keys], step.sampling)
            report.calls += 1
            report.generations += len(keys)
            for group, output in zip(keys, outputs):
                value, error = _read(step, output)
                if error is not None:
                    errors[group].append(error)
                    if output.ok and len(errors[group]) < self.config.max_attempts:
                        pending[group] = retry_messages(pending[group], output.text, error)
                        continue
                del pending[group]
                yield group, value, len(errors[group]) + (error is None), errors[group]


def _read(step: _Step, output) -> tuple[object, str | None]:
    """The output's value, or the reason it was rejected."""
    if not output.ok:
        return None, output.error
    try:
        return step.read(output.text), None
    except OutputRejected as exc:
        return None, str(exc)


def _record(
    group: int, status: str, stage: str, summary, extraction: Extraction | None, attempts: int, errors: list[str]
) -> dict:
    """A finished group's line: relations as [source, target, description, strength], entities as
    [name, type, description], and the entities added because a relation named them unlisted."""
    return {
        "group": group,
        "status": status,
        "stage": stage,
        "summary": summary,
        "relations": [list(r) for r in extraction.relations] if extraction else [],
        "entities": [list(e) for e in extraction.entities] if extraction else [],
        "added_entities": extraction.added if extraction else [],
        "attempts": attempts,
        "errors": errors,
    }
