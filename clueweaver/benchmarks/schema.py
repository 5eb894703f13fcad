"""The one schema every benchmark loads into, and the common JSONL format that writes it to disk.

A :class:`Benchmark` holds ``narratives`` (``book_id`` -> :class:`Narrative`), ``items``
(:class:`BenchmarkItem`) and ``skipped`` (bad rows passed over with ``skip_bad=True``). An item's
gold evidence, ``position`` and ``chapter`` are paragraph IDs / chapter numbers of *its* narrative,
checked against it when loading: an index outside the book is an error naming the file and row,
never a silently wrong label.

The common schema on disk ("clueweaver-benchmark/1", loader name ``jsonl``) is one JSONL file whose
lines are records told apart by ``"record"``:

* ``{"record": "benchmark", "name": ..., "format": "clueweaver-benchmark/1"}``: optional header;
* ``{"record": "narrative", "book_id": ..., "path": ...}``: a book file read with
  :func:`~clueweaver.books.narrative.load_narrative` (.txt, .md, .html, .epub, .fb2, .jsonl); a relative path is
  relative to the JSONL file's folder;
* ``{"record": "narrative", "book_id": ..., "title": ..., "paragraphs": [text, ...],
  "chapter_titles": [title or null per paragraph] (optional)}``: a book given inline, paragraph
  ``i`` of the list being paragraph ID ``i``;
* ``{"record": "item", ...}``: :meth:`BenchmarkItem.to_dict`.

A narrative record may carry ``content_hash`` (:attr:`Narrative.content_hash`); when it does, the
loaded book must match it, because gold paragraph IDs only mean something for the exact paragraphs
they were written against. :meth:`Benchmark.to_jsonl` writes this format (inline books with their
hash by default), so any benchmark converts to it; :mod:`clueweaver.benchmarks.jsonl` reads it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from clueweaver.books.narrative import Narrative
from clueweaver.core.errors import ClueWeaverError
from clueweaver.protocol.question import Question

COMMON_FORMAT = "clueweaver-benchmark/1"


class BenchmarkError(ClueWeaverError, ValueError):
    """A benchmark file or row that cannot be used; the message names the file, the row and why."""


class SkippedRow(NamedTuple):
    file: str
    row: str
    reason: str


def _paragraph_index(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BenchmarkError(f"{what} must be a paragraph ID (an integer >= 0), got {value!r}")
    return value


@dataclass
class BenchmarkItem:
    """One question or claim about one narrative.

    ``answer`` is an option letter for a multiple-choice question, TRUE/FALSE for a claim, and None
    when the benchmark gives no label (KDSH test rows, open questions). ``references`` are an open
    question's reference answers (free text, one or several), against which evaluation scores a
    free-text answer; only open questions have them. ``gold_evidence`` lists the
    paragraph IDs that hold the evidence when the benchmark marks them. ``position`` is the
    paragraph ID where the answer is revealed (DetectiveQA ``answer_position``, the BMDS reveal): a
    reader answering as the detective reads only paragraphs before it. ``chapter`` is the last
    chapter a reader may read, when a benchmark sets one. ``pair_id`` joins NoCha's minimal pairs.
    ``hard`` is the benchmark's own hard-subset flag (QuALITY ``difficult``, LongBench v2
    ``difficulty == "hard"``); data builders may re-flag it. ``metadata`` keeps raw fields.
    """

    item_id: str
    benchmark: str
    book_id: str
    question: Question
    answer: str | None = None
    gold_evidence: tuple[int, ...] = ()
    position: int | None = None
    chapter: int | None = None
    pair_id: str | None = None
    hard: bool = False
    metadata: dict = field(default_factory=dict)
    references: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("item_id", "benchmark", "book_id"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise BenchmarkError(f"item {self.item_id!r}: {name} must be a non-empty string")
        self._check_answer_kind()
        self.gold_evidence = tuple(
            sorted({_paragraph_index(i, "a gold evidence paragraph") for i in self.gold_evidence})
        )
        if self.position is not None:
            _paragraph_index(self.position, "position")
        if self.chapter is not None and (
            isinstance(self.chapter, bool) or not isinstance(self.chapter, int) or self.chapter < 0
        ):
            raise BenchmarkError(f"item {self.item_id}: chapter must be an integer >= 0, got {self.chapter!r}")

    def _check_answer_kind(self) -> None:
        """A label for a multiple-choice question or a claim, reference answers for an open one."""
        if isinstance(self.references, (str, bytes)) or not all(
            isinstance(r, str) and r.strip() for r in self.references
        ):
            raise BenchmarkError(f"item {self.item_id}: references must be a list of non-empty answer texts")
        self.references = tuple(r.strip() for r in self.references)
        if self.question.is_open and self.answer is not None:
            raise BenchmarkError(
                f"item {self.item_id}: an open question is scored against reference answers ('references'), "
                f"not an answer label; got answer {self.answer!r}"
            )
        if self.references and not self.question.is_open:
            raise BenchmarkError(
                f"item {self.item_id}: reference answers are for open questions; this item is a "
                f"{self.question.kind} question (give its answer label instead)"
            )
        if self.answer is not None and self.answer not in self.question.labels:
            legal = ", ".join(self.question.labels) or "none: it is an open question"
            raise BenchmarkError(f"item {self.item_id}: answer {self.answer!r} is not a legal answer ({legal})")

    @property
    def labelled(self) -> bool:
        """An answer to score against: a label, or an open question's reference answers."""
        return self.answer is not None or bool(self.references)

    def check(self, narrative: Narrative) -> None:
        """Every paragraph ID and chapter of the item exists in its narrative."""
        last = len(narrative) - 1
        outside = [i for i in self.gold_evidence if i > last]
        if outside:
            raise BenchmarkError(
                f"gold evidence paragraph(s) {outside} outside the narrative {narrative.title!r} (paragraphs 0-{last})"
            )
        if self.position is not None and self.position > last:
            raise BenchmarkError(
                f"position {self.position} outside the narrative {narrative.title!r} (paragraphs 0-{last})"
            )
        if self.chapter is not None and self.chapter > len(narrative.chapters):
            raise BenchmarkError(
                f"chapter {self.chapter} beyond the {len(narrative.chapters)} chapters of {narrative.title!r}"
            )

    def reading_limit(self, narrative: Narrative) -> int | None:
        """The last paragraph ID a reader may use (before ``position``, within ``chapter``); None
        when the whole book may be read."""
        limits = []
        if self.position is not None:
            limits.append(self.position - 1)
        if self.chapter is not None:
            limits.append(narrative.last_paragraph_of_chapter(self.chapter))
        return min(limits) if limits else None

    def to_dict(self) -> dict:
        return {
            "item_id": self.item_id,
            "benchmark": self.benchmark,
            "book_id": self.book_id,
            "question": {
                "text": self.question.text,
                "kind": self.question.kind,
                "options": dict(self.question.options),
            },
            "answer": self.answer,
            "references": list(self.references),
            "gold_evidence": list(self.gold_evidence),
            "position": self.position,
            "chapter": self.chapter,
            "pair_id": self.pair_id,
            "hard": self.hard,
            "metadata": self.metadata,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "BenchmarkItem":
        """The inverse of :meth:`to_dict`; a missing or mistyped field is a BenchmarkError."""
        if not isinstance(data, dict):
            raise BenchmarkError(f"an item must be a JSON object, got {type(data).__name__}")
        missing = [key for key in ("item_id", "benchmark", "book_id", "question") if key not in data]
        if missing:
            raise BenchmarkError(f"item is missing field(s) {', '.join(missing)}")
        question = data["question"]
        if not isinstance(question, dict) or not isinstance(question.get("text"), str):
            raise BenchmarkError("item field 'question' must be an object with a string 'text'")
        options = question.get("options") or {}
        gold = data.get("gold_evidence") or []
        metadata = data.get("metadata") or {}
        references = data.get("references") or []
        if not isinstance(options, dict) or not isinstance(gold, list) or not isinstance(metadata, dict):
            raise BenchmarkError(
                "item fields 'question.options' and 'metadata' must be objects, 'gold_evidence' a list"
            )
        if not isinstance(references, list):
            raise BenchmarkError(f"item {data['item_id']}: field 'references' must be a list of answer texts")
        return cls(
            item_id=data["item_id"],
            benchmark=data["benchmark"],
            book_id=data["book_id"],
            question=Question(text=question["text"], options=options, kind=question.get("kind", "mcq")),
            answer=data.get("answer"),
            gold_evidence=tuple(gold),
            position=data.get("position"),
            chapter=data.get("chapter"),
            pair_id=data.get("pair_id"),
            hard=bool(data.get("hard", False)),
            metadata=metadata,
            references=tuple(references),
        )


@dataclass
class Benchmark:
    """Items with the narratives they refer to; ``skipped`` holds (file, row, reason) of bad rows
    passed over with ``skip_bad=True``."""

    name: str
    narratives: dict[str, Narrative]
    items: list[BenchmarkItem]
    skipped: list[SkippedRow] = field(default_factory=list)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for item in self.items:
            if item.item_id in seen:
                raise BenchmarkError(f"{self.name}: duplicate item id {item.item_id!r}")
            seen.add(item.item_id)
            if item.book_id not in self.narratives:
                raise BenchmarkError(f"{self.name}: item {item.item_id} refers to unknown book {item.book_id!r}")
            item.check(self.narratives[item.book_id])

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[BenchmarkItem]:
        return iter(self.items)

    def narrative(self, item: BenchmarkItem) -> Narrative:
        return self.narratives[item.book_id]

    def summary(self) -> dict:
        """Counts for a quick look and for dataset cards."""
        return {
            "benchmark": self.name,
            "items": len(self.items),
            "narratives": len(self.narratives),
            "kinds": dict(Counter(item.question.kind for item in self.items)),
            "answers": dict(Counter(item.answer or "unlabelled" for item in self.items if not item.references)),
            "with_references": sum(bool(item.references) for item in self.items),
            "with_gold_evidence": sum(bool(item.gold_evidence) for item in self.items),
            "with_position": sum(item.position is not None for item in self.items),
            "pairs": len({item.pair_id for item in self.items if item.pair_id is not None}),
            "hard": sum(item.hard for item in self.items),
            "skipped": len(self.skipped),
        }

    def to_jsonl(self, path: str | Path, *, narrative_paths: dict[str, str | Path] | None = None) -> Path:
        """Write the common schema: a header, one narrative record per book (a path from
        ``narrative_paths`` when given, else the paragraphs inline) and one record per item."""
        path = Path(path)
        narrative_paths = narrative_paths or {}
        with open(path, "w", encoding="utf-8") as f:

            def write(record: dict) -> None:
                f.write(json.dumps(record, ensure_ascii=False) + "\n")

            write({"record": "benchmark", "name": self.name, "format": COMMON_FORMAT})
            for book_id, narrative in self.narratives.items():
                record = {"record": "narrative", "book_id": book_id, "content_hash": narrative.content_hash}
                if book_id in narrative_paths:
                    record["path"] = str(narrative_paths[book_id])
                else:
                    record.update(title=narrative.title, paragraphs=[p.text for p in narrative.paragraphs])
                    if narrative.chapters:
                        record["chapter_titles"] = [
                            narrative.chapters[p.chapter - 1].title if p.chapter else None
                            for p in narrative.paragraphs
                        ]
                write(record)
            for item in self.items:
                write({"record": "item", **item.to_dict()})
        return path
