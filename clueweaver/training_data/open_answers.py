"""Rows for the Interpreter's optional open-answer GRPO recipe (``configs/interpreter_open/``),
from benchmarks of open questions with reference answers (GutenQA-style: a question, its reference
answer and, where known, its gold paragraph).

Each row's evidence packet is built as for the paper's Interpreter data (``evidence_packet``):
the segments that hold the gold paragraphs plus the best-ranked distractors, packed by inference's
packer, so the model learns to answer from what it will be shown. Rows hold what the open-answer
rewards read (:mod:`clueweaver.protocol.open_rewards`): the references in ``answer``, the gold
paragraphs inside the packet in ``gold_ids``, the packet's IDs and text.
"""

from __future__ import annotations

import json
from pathlib import Path

from clueweaver.benchmarks import load_benchmark
from clueweaver.protocol.prompts import interpreter_messages
from clueweaver.segments.segmenter import get_preset
from clueweaver.training_data.common import ReadingCase, case_segments, readable_part
from clueweaver.training_data.interpreter import evidence_packet


def open_answer_rows(
    benchmark: str,
    path: str | None = None,
    *,
    split: str | None = None,
    limit: int | None = None,
    preset: str = "detectiveqa",
    encoder: str | None = None,
) -> list[dict]:
    """One training row per open question with reference answers (other items are left out)."""
    loaded = load_benchmark(benchmark, path, split=split, limit=limit)
    rows = []
    for item in loaded.items:
        if not (item.question.is_open and item.references):
            continue
        whole = loaded.narrative(item)
        narrative = readable_part(whole, item.reading_limit(whole))
        gold = tuple(i for i in item.gold_evidence if i < len(narrative))
        case = ReadingCase(
            item.item_id, item=item, book_key=whole.book_id, narrative=narrative, question=item.question,
            answer=None, preset=get_preset(preset), evidence=gold, evidence_source="gold" if gold else "none",
        )  # fmt: skip
        packet = evidence_packet(case, case_segments(case, encoder=encoder))
        rows.append(
            {
                "prompt": interpreter_messages(item.question, packet.text),
                "question": item.question.text,
                "answer": list(item.references),
                "answer_kind": "open",
                "gold_ids": [i for i in gold if i in packet.paragraph_ids],
                "allowed_ids": list(packet.paragraph_ids),
                "evidence": packet.text,
                "item_id": item.item_id,
                "book_id": item.book_id,
            }
        )
    return rows


def write_open_answer_data(rows: list[dict], output: str | Path) -> Path:
    """The rows as JSONL (what the recipe's ``dataset_name`` reads)."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return output
