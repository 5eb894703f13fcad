"""Shared material for the NWM tests: a small synthetic book, a scripted backend and the
Sherlock Holmes book of the shared data with its hand-made records."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from clueweaver.narrative import from_text

FIXTURE = Path(__file__).parent / "fixtures" / "nwm_scandal_in_bohemia.jsonl"
HOLMES = "the_adventures_of_sherlock_holmes_arthur_conan_doyle"
NAMES = ("Ada", "Bram", "Cleo", "Dov")
PLACES = ("the mill", "the harbour", "the tower")


def small_book(chapters: int = 5, paragraphs: int = 4, edits: dict | None = None):
    """A book whose every paragraph names people and places, so any record can quote it.
    ``edits`` maps (chapter, index) to replacement text, or to a list to insert several."""
    blocks = []
    for c in range(1, chapters + 1):
        blocks.append(f"CHAPTER {c}")
        for i in range(paragraphs):
            who, other, where = NAMES[(c + i) % 4], NAMES[(c + i + 1) % 4], PLACES[(c * i) % 3]
            text = f"In chapter {c}, {who} met {other} at {where} and spoke of the lost key number {i}."
            replacement = (edits or {}).get((c, i), text)
            blocks.extend(replacement if isinstance(replacement, list) else [replacement])
    return from_text("\n\n".join(blocks), title="small book", source="small.txt")


def holmes_book(shared_path):
    books = json.loads(shared_path("nocha", "data_sample", "classic_books.json").read_text(encoding="utf-8"))
    return from_text(books[HOLMES], title=HOLMES)


@dataclass
class ScriptedGeneration:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = "stop"


class ScriptedBackend:
    """Answers each conversation with the next scripted item (a text, or a function of the
    conversation); records what it was asked."""

    def __init__(self, script):
        self.script = list(script)
        self.calls = []

    def generate(self, conversations, sampling=None, *, adapter=None):
        self.calls.append((conversations, sampling))
        outputs = []
        for conversation in conversations:
            item = self.script.pop(0)
            outputs.append(ScriptedGeneration(item(conversation) if callable(item) else item))
        return outputs


def record_json(kind: str, ids, quote: str, confidence: float = 0.9, **fields) -> dict:
    return {"kind": kind, "evidence": {"paragraph_ids": list(ids), "quote": quote}, "confidence": confidence, **fields}
