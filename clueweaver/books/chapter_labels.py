"""Each chapter's **label**, the number a reader uses: the book's own chapter numbers when they are all
given and unique ("24" in Little Women, whose chapters run on across its parts); else qualified by
the part or story where that makes them unique ("1.2": story I, chapter II; "2.3": volume II,
chapter III), else by volume and part too ("1.2.3": Les Misérables' volume I, book second, chapter III,
``clueweaver.books.part_levels``); else the chapter's position in reading order. A label that names a part or story
("1") reaches to its last chapter: the chapters a reader's label names, for --max-chapter and --as-of."""

from __future__ import annotations

import dataclasses

from clueweaver.books.chapter_structure import Unit


def labels(units: list[Unit]) -> list[str]:
    """The number a reader uses for each chapter: the book's own when given and unique, else
    qualified by part or story ("1.2") when that makes them unique and each part's chapters follow
    one another (a chapter "1" before a part 1 elsewhere would make "1" name both), else the
    reading position."""
    if units and all(u.number is not None for u in units):
        own = [str(u.number) for u in units]
        if len(set(own)) == len(own):
            return own
        units = _with_unheaded_first_part(units)
        for numbers in (
            [[u.part_number, u.number] for u in units],
            [[u.volume_number, u.part_number, u.number] for u in units],
        ):
            qualified = [".".join(str(n) for n in unit if n is not None) for unit in numbers]
            tops = [next(n for n in unit if n is not None) for unit in numbers]
            runs = [top for k, top in enumerate(tops) if k == 0 or top != tops[k - 1]]  # "1" must name one stretch
            if len(set(qualified)) == len(qualified) and len(set(runs)) == len(runs):
                return qualified
    return [str(n) for n in range(1, len(units) + 1)]


def _with_unheaded_first_part(units: list[Unit]) -> list[Unit]:
    """The chapters before a book's first part heading in part 1 when that heading names the second
    part ("SEGUNDA PARTE" after chapters I-V: ELTeC's Los inadaptados), which leaves the first unheaded;
    not a first act without scenes, nor a part's own opening (its title the part's heading)."""
    first = next((k for k, unit in enumerate(units) if unit.part_number is not None), 0)
    before, part = units[:first], units[first].part
    if first < 2 or [u.number for u in before] != list(range(1, first + 1)) or units[first].part_number != 2:
        return units
    if part and before[-1].title.startswith(part):
        return units
    return [dataclasses.replace(unit, part_number=1) for unit in before] + units[first:]


def label_span(label: str, chapter_labels: list[str]) -> tuple[int, int] | None:
    """The first and last position (1-based) of the chapters ``label`` names: one chapter, or
    every chapter of the part or story it names ("1" for "1.1".."1.3"); None when it names none."""
    wanted = label.strip().rstrip(".")
    hits = [n for n, name in enumerate(chapter_labels, start=1) if name == wanted or name.startswith(wanted + ".")]
    return (hits[0], hits[-1]) if hits else None


def describe_labels(chapter_labels: list[str]) -> str:
    """The labels in brief, for a message: "1-47", "31-120" (a run of numbers), or the first and last few."""
    if not chapter_labels:
        return "none"
    first = chapter_labels[0]
    run = first.isdigit() and chapter_labels == [str(int(first) + k) for k in range(len(chapter_labels))]
    # a book's chapters from 1 are a run as they always were ("1-2"); another needs three ("2, 3" stays a list)
    if run and len(chapter_labels) > (1 if first == "1" else 2):
        return f"{first}-{chapter_labels[-1]}"
    if len(chapter_labels) <= 8:
        return ", ".join(chapter_labels)
    return ", ".join(chapter_labels[:4]) + ", ..., " + ", ".join(chapter_labels[-2:])


def chapters_text(chapter_labels: list[str]) -> str:
    """ "chapter 5", or "chapters 1-9" and "chapters 2, 5" (``describe_labels``), for a note or a warning; "0", a
    prologue or preface, is "the front matter"."""
    chapters = [label for label in chapter_labels if label != "0"]
    named = [f"chapter{'s' if len(chapters) > 1 else ''} {describe_labels(chapters)}"] if chapters else []
    return " and ".join(["the front matter"] * ("0" in chapter_labels) + named)
