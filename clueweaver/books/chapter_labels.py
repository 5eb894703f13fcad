"""The numbers a reader uses for a book's chapters: the book's own where they tell its chapters
apart, qualified by part or story where they repeat ("1.2"), else the reading position; and the
chapters a reader's label names, for --max-chapter and --as-of."""

from __future__ import annotations

from clueweaver.books.chapters import Unit


def labels(units: list[Unit]) -> list[str]:
    """The number a reader uses for each chapter: the book's own when given and unique, else
    qualified by part or story ("1.2") when that makes them unique, else the reading position."""
    if units and all(u.number is not None for u in units):
        own = [str(u.number) for u in units]
        if len(set(own)) == len(own):
            return own
        qualified = [f"{u.part_number}.{u.number}" if u.part_number is not None else str(u.number) for u in units]
        if len(set(qualified)) == len(qualified):
            return qualified
    return [str(n) for n in range(1, len(units) + 1)]


def label_span(label: str, chapter_labels: list[str]) -> tuple[int, int] | None:
    """The first and last position (1-based) of the chapters ``label`` names: one chapter, or
    every chapter of the part or story it names ("1" for "1.1".."1.3"); None when it names none."""
    wanted = label.strip().rstrip(".")
    hits = [n for n, name in enumerate(chapter_labels, start=1) if name == wanted or name.startswith(wanted + ".")]
    return (hits[0], hits[-1]) if hits else None


def describe_labels(chapter_labels: list[str]) -> str:
    """The labels in brief, for an error message: "1-47", or the first and last few."""
    if chapter_labels == [str(n) for n in range(1, len(chapter_labels) + 1)]:
        return f"1-{len(chapter_labels)}" if chapter_labels else "none"
    if len(chapter_labels) <= 8:
        return ", ".join(chapter_labels)
    return ", ".join(chapter_labels[:4]) + ", ..., " + ", ".join(chapter_labels[-2:])
