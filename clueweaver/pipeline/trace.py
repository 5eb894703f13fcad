"""What every trace shares: the stage timings (reported to a progress callback as each stage
starts and ends), the head (what was asked of which book, read up to where) and the warnings about
the Interpreter's passes. Prompts that do not fit the model's window come back flagged by the
backend and are reported in ``trace["warnings"]``, never truncated."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import contextmanager

from clueweaver.books.narrative import Narrative
from clueweaver.pipeline.results import Interpretation
from clueweaver.protocol.question import Question

TRACE_VERSION = 1

ProgressCallback = Callable[[str, dict], None]


class Stages:
    """Per-stage wall-clock timings, reported to the progress callback as each stage starts and ends."""

    def __init__(self, names: tuple[str, ...], callback: ProgressCallback | None):
        self.timings = {name: 0.0 for name in names}
        self.callback = callback
        self.started = time.perf_counter()

    @contextmanager
    def stage(self, name: str):
        info: dict = {}
        if self.callback:
            self.callback(name, {"status": "started"})
        began = time.perf_counter()
        yield info
        self.timings[name] = time.perf_counter() - began
        if self.callback:
            self.callback(name, {"status": "done", "seconds": round(self.timings[name], 4), **info})

    def progress(self, name: str, done: int, total: int, unit: str) -> None:
        """Progress inside a running stage (the Finder's segments read so far), for a stage long
        enough that a reader should see it move."""
        if self.callback:
            self.callback(name, {"status": "progress", "done": done, "total": total, "unit": unit})

    def finish(self) -> dict:
        timings = {name: round(seconds, 6) for name, seconds in self.timings.items()}
        timings["total"] = round(time.perf_counter() - self.started, 6)
        if self.callback:
            self.callback("done", {"status": "done", "seconds": timings["total"]})
        return timings


def trace_head(
    system: str, narrative: Narrative, question: Question, limits: tuple[int | None, int | None], last: int
) -> dict:
    """The fields every trace starts with: what was asked of which book, read up to where."""
    return {
        "version": TRACE_VERSION,
        "system": system,
        "question": {"text": question.text, "kind": question.kind, "options": dict(question.options)},
        "book": {
            "title": narrative.title,
            "book_id": narrative.book_id,
            "paragraphs": len(narrative),
            "chapters": len(narrative.chapters),
        },
        "reading_limit": {
            "max_chapter": limits[0],  # the chapter's position; its label is how the book numbers it
            "max_chapter_label": None if limits[0] is None else narrative.chapter_label(limits[0]),
            "max_paragraph": limits[1],
            "last_paragraph": last,
        },
    }


def warnings_for(interpretation: Interpretation) -> list[str]:
    """What a reader should know about the Interpreter's passes: prompts that did not fit, retries
    with a format reminder, a skipped self-calibration, a flagged fallback answer."""
    notes = []
    passes = [("interpreter", interpretation.provisional), ("self-calibration", interpretation.calibration)]
    for name, stage in passes:
        if stage is None:
            continue
        for attempt in stage.attempts:
            if not attempt.generation.ok:
                notes.append(f"{name}: {attempt.generation.error}")
        if len(stage.attempts) > 1:
            outcome = "read" if stage.legal else "still unreadable"
            notes.append(f"{name}: output had no legal answer; retried with a format reminder ({outcome})")
    if interpretation.calibration_skipped:
        notes.append(f"self-calibration skipped: {interpretation.calibration_skipped}")
    if interpretation.fallback:
        fallback = f"fallback answer {interpretation.answer}" if interpretation.answer else "no answer"
        notes.append(f"no Interpreter output could be read: {fallback} (flagged)")
    return notes
