"""Shared material for the NWM tests: a small synthetic book, a scripted backend, a record
strategy, and the Sherlock Holmes book of the shared data with its hand-made records."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.books.narrative import from_text
from clueweaver.nwm.records import record_from_dict

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


def scripted(*replies, **options) -> ScriptedBackend:
    """The engine's scripted backend answering conversations with ``replies`` in order; a reply is
    a text or a function of the conversation."""
    queue = list(replies)

    def answer(messages, adapter):
        reply = queue.pop(0)
        return reply(messages) if callable(reply) else reply

    return ScriptedBackend(script=answer, **options)


def record_json(kind: str, ids, quote: str, confidence: float = 0.9, **fields) -> dict:
    return {"kind": kind, "evidence": {"paragraph_ids": list(ids), "quote": quote}, "confidence": confidence, **fields}


SMALL_BOOK = small_book()
CONTENT_IDS = [p.id for p in SMALL_BOOK.paragraphs if not p.is_heading]


@st.composite
def records(draw):
    """A valid record of SMALL_BOOK: a random chapter, evidence from that chapter or an earlier
    one, and names from a small pool, so that edges of different chapters share slots."""
    chapter = draw(st.integers(1, len(SMALL_BOOK.chapters)))
    pid = draw(st.sampled_from([i for i in CONTENT_IDS if SMALL_BOOK.paragraphs[i].chapter <= chapter]))
    text = SMALL_BOOK.paragraphs[pid].text
    start = draw(st.integers(0, len(text) - 12))
    who, other, where = draw(st.sampled_from(NAMES)), draw(st.sampled_from(NAMES)), draw(st.sampled_from(PLACES))
    kind = draw(
        st.sampled_from(
            [
                "character_state",
                "epistemic_state",
                "object_state",
                "relationship_delta",
                "thread",
                "scene_beat",
                "object_delta",
                "revelation",
            ]
        )
    )
    fields = {
        "character_state": dict(character=who, aspect="status", state="waiting", location=where),
        "epistemic_state": dict(character=who, proposition=f"the key is at {where}", knows=draw(st.booleans())),
        "object_state": dict(object="the key", description="a key", location=where, owner=who),
        "relationship_delta": dict(source=who, target=other, relation="trust", polarity="negative", change="doubt"),
        "thread": dict(
            thread="the lost key", description="who has it", status="resolved", resolution=f"{who} found it"
        ),
        "scene_beat": dict(
            summary="a meeting", focalizer=other, function="clue", participants=[who, other], location=where
        ),
        "object_delta": dict(target="the key", after="moved", cause=f"{who} took it"),
        "revelation": dict(
            revealed=f"{who} hid the key",
            subject=who,
            revealed_to=[other],
            event_chapter=draw(st.integers(0, chapter)),
        ),
    }[kind]
    return record_from_dict(
        {**record_json(kind, [pid], text[start : start + 12], draw(st.floats(0, 1)), **fields), "chapter": chapter}
    )


def by_chapter(drawn) -> dict:
    grouped = {}
    for record in drawn:
        grouped.setdefault(record.chapter, []).append(record)
    return grouped
