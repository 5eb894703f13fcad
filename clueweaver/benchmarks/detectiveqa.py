"""DetectiveQA, its English and its Chinese half: multiple-choice questions over detective novels
with numbered paragraphs, the clue paragraphs as gold evidence and the paragraph where the answer
is revealed as position."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path
from typing import Any

from clueweaver.benchmarks.loading import (
    _as_read,
    _Builder,
    _cached,
    _check_split,
    _decoded,
    _file_key,
    _integer,
    _object,
    _option_letter,
    _raw_fields,
    _read_json,
    _text,
)
from clueweaver.benchmarks.schema import Benchmark, BenchmarkError, BenchmarkItem
from clueweaver.books.chapters import is_heading
from clueweaver.books.narrative import Narrative, NarrativeError, from_paragraphs, normalize_text
from clueweaver.books.sentences import CJK_CHARACTERS
from clueweaver.protocol.question import Question

_NUMBERED_PARAGRAPH = re.compile(r"^\[(\d+)\][ \t]?(.*)$")
_CJK = re.compile(f"[{CJK_CHARACTERS}]")
_SENTENCE_END = (".", "!", "?", '"', "\u201d", ",", ";", ":", "。", "！", "？", "，", "；", "：")

_TITLE_FIELDS = ("title", "novel_title", "novel_name", "book_name")
_LANGUAGES = {"en": "English", "zh": "Chinese"}  # the release's folder suffix -> the language of its half


def _novel_title(novel_file: Path, opening: str, annotated: str | None, language: str) -> str:
    """The novel's title in the language of its text. The release names every novel's file after
    the Chinese edition (``117-阳光下的罪恶-阿加莎克里斯蒂.txt``: title and author), the English
    novels' too, so an English novel's title is the annotation's when it gives one that is not
    Chinese, else the text's opening line when that is a title (short, no chapter heading, no
    sentence end), else the file name's when it is not Chinese; a Chinese novel's is the
    annotation's, else the file name's title, else the opening line when that is a title; failing
    all, "DetectiveQA novel {id}"."""
    novel_id, _, named = novel_file.stem.partition("-")
    line = (opening.strip().splitlines() or [""])[0].strip()
    opening_title = line if len(line) <= 100 and not is_heading(line) and not line.endswith(_SENTENCE_END) else None
    if language == "zh":
        candidates = (annotated, named.partition("-")[0], opening_title)
    else:  # a Chinese title there names the Chinese edition, not this text
        annotated, named = (None if title and _CJK.search(title) else title for title in (annotated, named))
        candidates = (annotated, opening_title, named)
    return next((title.strip() for title in candidates if title and title.strip()), f"DetectiveQA novel {novel_id}")


def _detectiveqa_novel(
    novel_file: Path, annotated_title: str | None, language: str
) -> tuple[Narrative, dict[int, int]]:
    """A DetectiveQA novel (lines "[n] text" start paragraph n; other lines continue it) and the
    map from its paragraph numbers to paragraph IDs, which annotation positions refer to."""

    def build() -> tuple[Narrative, dict[int, int]]:
        numbers: list[int | None] = []
        texts: list[str] = []
        text, reading = _decoded(novel_file)
        for line in io.StringIO(text, newline=None):  # lines as a text file gives them
            match = _NUMBERED_PARAGRAPH.match(line.rstrip("\n"))
            if match:
                numbers.append(int(match.group(1)))
                texts.append(match.group(2))
            elif texts:
                texts[-1] += "\n" + line
            elif line.strip():  # text before the first numbered paragraph
                numbers.append(None)
                texts.append(line)
        if not any(n is not None for n in numbers):
            raise NarrativeError(f"{novel_file}: no numbered paragraphs ('[0] text' lines)")
        kept = [(n, t) for n, t in zip(numbers, texts) if normalize_text(t)]
        seen = [n for n, _ in kept if n is not None]
        if len(seen) != len(set(seen)):
            raise NarrativeError(f"{novel_file}: a paragraph number occurs twice")
        title = _novel_title(novel_file, kept[0][1], annotated_title, language)
        narrative = _as_read(from_paragraphs([t for _, t in kept], title=title, source=str(novel_file)), reading)
        return narrative, {n: i for i, (n, _) in enumerate(kept) if n is not None}

    return _cached(("detectiveqa", *_file_key(novel_file), annotated_title, language), build)


def _detectiveqa_position(value: Any, numbers: dict[int, int], what: str) -> int | None:
    """A paragraph number of the novel -> paragraph ID; null, a negative number or 0 means "not
    given". Paragraph [0] opens the novel (its title line), where no clue or answer lies, and
    readers of the released data count only positions above 0 as clues; so 0 is the annotators'
    "no position", like -1, and is counted in ``clues_without_position`` rather than made gold."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BenchmarkError(f"{what} must be a paragraph number, got {value!r}")
    if value <= 0:
        return None
    if value not in numbers:
        raise BenchmarkError(f"{what} {value} is not a paragraph of the novel (numbers {min(numbers)}-{max(numbers)})")
    return numbers[value]


_DETECTIVEQA_SOURCES = {"human_anno": "human", "AIsup_anno": "ai"}


def load_detectiveqa(
    path: Path, *, split: str | None = None, limit: int | None = None, skip_bad: bool = False, language: str = "en"
) -> Benchmark:
    """One half of DetectiveQA as released, English (``language`` "en", benchmark "detectiveqa")
    or Chinese ("zh", benchmark "detectiveqa_zh"): ``novel_data_{language}/{novel_id}-{title}.txt``
    with numbered paragraphs, and ``anno_data_{language}/human_anno/{novel_id}.json`` /
    ``anno_data_{language}/AIsup_anno/...`` each a list of samples {novel_id, num_paragraphs,
    time_cost, questions: [{question, options {A-D}, answer, reasoning, clue_position [numbers],
    answer_position, distraction}]}.

    ``clue_position`` becomes gold evidence and ``answer_position`` the item's ``position`` (both
    mapped from the novel's paragraph numbers to IDs); ``split`` is "human" or "ai" annotations.
    """
    if language not in _LANGUAGES:
        raise BenchmarkError(f"detectiveqa: unknown language {language!r}; use {' or '.join(map(repr, _LANGUAGES))}")
    name = "detectiveqa" if language == "en" else f"detectiveqa_{language}"
    _check_split(name, split, (None, *_DETECTIVEQA_SOURCES.values()))
    novels_dir, annotations_dir = path / f"novel_data_{language}", path / f"anno_data_{language}"
    if not novels_dir.is_dir() or not annotations_dir.is_dir():
        raise BenchmarkError(
            f"{path}: expected the folders {novels_dir.name}/ and {annotations_dir.name}/ of DetectiveQA "
            f"({_LANGUAGES[language]})"
        )
    builder = _Builder(name, limit=limit, skip_bad=skip_bad)
    for folder_name, source in _DETECTIVEQA_SOURCES.items():
        if split not in (None, source):
            continue
        for anno_file in sorted((annotations_dir / folder_name).glob("*.json"), key=lambda f: (len(f.stem), f.stem)):
            samples = _read_json(anno_file)
            samples = samples if isinstance(samples, list) else [samples]
            numbered = ((f"sample {n}", sample) for n, sample in enumerate(samples, start=1))
            counter = itertools.count(1)  # question numbers run on across the samples of a file

            def questions_of(where: str, record: Any) -> list[tuple[str, Any]]:
                sample = _object(record)
                novel_id = _integer(sample, "novel_id")
                if not isinstance(sample.get("questions"), list):
                    raise BenchmarkError("field 'questions' must be a list")
                found = sorted(novels_dir.glob(f"{novel_id}-*.txt")) or sorted(novels_dir.glob(f"{novel_id}.txt"))
                if len(found) != 1:
                    raise BenchmarkError(
                        f"expected one novel file {novel_id}-*.txt in {novels_dir}, found {len(found)}"
                    )
                annotated_title = next((str(sample[key]) for key in _TITLE_FIELDS if sample.get(key)), None)
                novel = _detectiveqa_novel(found[0], annotated_title, language)
                return [
                    (f"{where}, question {number}", (sample, novel, number, raw))
                    for number, raw in zip(counter, sample["questions"])
                ]

            def question(where: str, payload: tuple) -> None:
                sample, (narrative, numbers), number, raw = payload
                raw = _object(raw)
                options = raw.get("options")
                if not isinstance(options, dict):
                    raise BenchmarkError("field 'options' must be an object {A: ..., B: ...}")
                mcq = Question(_text(raw, "question"), {k: str(v).strip() for k, v in options.items()})
                clues = raw.get("clue_position", [])
                clues = clues if isinstance(clues, list) else [clues]
                gold = [_detectiveqa_position(c, numbers, "clue_position") for c in clues]
                item = BenchmarkItem(
                    item_id=f"{name}:{sample['novel_id']}:{source}:{number}",
                    benchmark=name,
                    book_id=str(sample["novel_id"]),
                    question=mcq,
                    answer=_option_letter(_text(raw, "answer"), mcq.options),
                    gold_evidence=tuple(g for g in gold if g is not None),
                    position=_detectiveqa_position(raw.get("answer_position"), numbers, "answer_position"),
                    metadata={
                        "novel_id": sample["novel_id"],
                        "novel_file": Path(narrative.source).name,
                        "annotation": source,
                        "clue_position": clues,
                        "answer_position": raw.get("answer_position"),
                        "clues_without_position": sum(g is None for g in gold),
                        **_raw_fields(raw, ("question", "options", "answer", "clue_position", "answer_position")),
                        **_raw_fields(sample, ("novel_id", "questions")),
                    },
                )
                builder.add(item, narrative)

            builder.each(anno_file, builder.nested(anno_file, numbered, questions_of), question)
    annotated = [source for name, source in _DETECTIVEQA_SOURCES.items() if any((annotations_dir / name).glob("*"))]
    return builder.build(split=split, splits=annotated)
