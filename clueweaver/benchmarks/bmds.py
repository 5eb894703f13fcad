"""BMDS: detective stories with clue annotations and the sentence where the solution is revealed."""

from __future__ import annotations

from pathlib import Path

from clueweaver.benchmarks.loading import (
    _book_file,
    _Builder,
    _check_split,
    _csv_rows,
    _NotShipped,
    _paragraphs_containing,
    _raw_fields,
    _text,
    _words,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkItem
from clueweaver.books.narrative import Narrative
from clueweaver.protocol.question import Question

_BMDS_FIELDS = {
    "essential_clue": "Essential clue",
    "essential_clue_type": "Type of essential clue",
    "most_salient_clue": "Most salient clue",
    "most_salient_clue_type": "Type of most salient clue",
    "red_herring": "Red herring description",
    "reveal_border_sentence": "Reveal border sentence",
    "sufficient_clues_to_solve": "Sufficient clues to solve?",
}


def _reveal_paragraph(narrative: Narrative, sentence: str) -> tuple[int | None, str]:
    """The paragraph holding the reveal's first sentence: verbatim, else compared by words only,
    the whole sentence and then its first eight words (annotators often shortened or retyped it)."""
    words = _words(sentence)
    if not words:
        return None, "not annotated"
    verbatim = _paragraphs_containing(narrative, sentence)
    if len(verbatim) == 1:
        return verbatim[0], "found"
    paragraphs = [f" {' '.join(_words(p.text))} " for p in narrative.paragraphs]
    for needle in (words, words[:8]):
        matches = [i for i, text in enumerate(paragraphs) if f" {' '.join(needle)} " in text]
        if len(matches) == 1:
            return matches[0], "found"
        if len(matches) > 1:
            return None, "ambiguous"
    return None, "not found"


def load_bmds(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """BMDS detective stories (``texts/{Story Code}.txt`` and ``BMDS_story_annotations.csv``):
    one open-question item per story with an "Essential clue", carrying the clue annotations in
    metadata for weak evidence labels, and ``position`` at the paragraph of the "Reveal border
    sentence" when it is found (``metadata["reveal"]`` says whether it was).

    The release names story texts it does not ship (7 files missing, and a Story Code used for two
    stories whose one file holds the first): those rows are passed over and listed in
    ``Benchmark.skipped`` with their reason, by default, since the rest of the data is good."""
    _check_split("bmds", split, (None,))
    folder = path if path.is_dir() else path.parent
    table = folder / "BMDS_story_annotations.csv"
    builder = _Builder("bmds", limit=limit, skip_bad=skip_bad)
    titles: dict[str, tuple[str, str]] = {}  # story code -> (title, row) of the story its file holds

    def story(where: str, row: dict) -> None:
        code, title = _text(row, "Story Code"), _text(row, "Story Title")
        annotations = {key: (row.get(column) or "").strip() for key, column in _BMDS_FIELDS.items()}
        if not annotations["essential_clue"]:
            return
        text_file = folder / "texts" / f"{code}.txt"
        if not text_file.is_file():
            raise _NotShipped(f"story text {text_file} is missing from the release")
        first_title, first_row = titles.setdefault(code, (title, where))
        if first_title != title:
            raise _NotShipped(
                f"Story Code {code} also names {first_title!r} ({first_row}), whose text {text_file.name} holds; "
                f"the text of {title!r} is missing from the release"
            )
        narrative = _book_file(text_file, title=title)
        position, reveal = _reveal_paragraph(narrative, annotations["reveal_border_sentence"])
        item = BenchmarkItem(
            item_id=f"bmds:{code}",
            benchmark="bmds",
            book_id=code,
            question=Question.open(f'What is the essential clue to solving the mystery in "{title}"?'),
            position=position,
            metadata={**annotations, "reveal": reveal, "annotations": _raw_fields(row, ())},
        )
        builder.add(item, narrative)

    builder.each(table, _csv_rows(table), story)
    return builder.build()
