"""KDSH: claims about characters' backstories, consistent with or contradicted by a novel."""

from __future__ import annotations

from pathlib import Path

from clueweaver.benchmarks.loading import _book_file, _Builder, _check_split, _csv_rows, _raw_fields, _text, _words
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.protocol.question import Question

_KDSH_LABELS = {"consistent": "TRUE", "contradict": "FALSE"}


def _kdsh_book_file(folder: Path, book_name: str) -> Path:
    """The novel whose file name's words all occur in the book name ("monte_cristo.txt" for
    "The Count of Monte Cristo")."""
    name_words = set(_words(book_name))
    found = [f for f in sorted(folder.glob("*.txt")) if set(_words(f.stem)) <= name_words]
    if len(found) != 1:
        raise BenchmarkError(
            f"no single novel file in {folder} matches book {book_name!r} (found {[f.name for f in found]})"
        )
    return found[0]


def load_kdsh(path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False) -> Benchmark:
    """KDSH backstory claims: ``train.csv`` (labelled) or ``test.csv`` (``split="test"``, no
    labels: answer None) with id, book_name, char, caption, content[, label]; the novels are the
    folder's .txt files. The claim reads "Backstory of {char} ({caption}): {content}";
    "consistent" (not contradicted by the novel) is TRUE and "contradict" FALSE."""
    split = split or "train"
    _check_split("kdsh", split, ("train", "test"))
    folder = path if path.is_dir() else path.parent
    table = folder / f"{split}.csv"
    builder = _Builder("kdsh", limit=limit, skip_bad=skip_bad)

    def backstory(where: str, row: dict) -> None:
        char, content, caption = _text(row, "char"), _text(row, "content"), (row.get("caption") or "").strip()
        answer = None
        if split == "train":
            label = (row.get("label") or "").strip().lower()
            if label not in _KDSH_LABELS:
                raise BenchmarkError(f"label {row.get('label')!r} is not consistent or contradict")
            answer = _KDSH_LABELS[label]
        book_name = _text(row, "book_name")
        book = _kdsh_book_file(folder, book_name)
        item = BenchmarkItem(
            item_id=f"kdsh:{split}:{_text(row, 'id')}",
            benchmark="kdsh",
            book_id=book.stem,
            question=Question.claim(f"Backstory of {char}{f' ({caption})' if caption else ''}: {content}"),
            answer=answer,
            metadata={"split": split, **_raw_fields(row, ("id",))},
        )
        builder.add(item, _book_file(book, title=book_name))

    builder.each(table, _csv_rows(table), backstory)
    return builder.build()
