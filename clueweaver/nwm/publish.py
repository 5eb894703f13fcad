"""Publishing chapters: a language model extracts typed records, which are validated and merged.

The extractor runs on any ``GenerationBackend``. Its output is constrained to the records' JSON
schema where the backend supports structured output, and is validated in every case: parsed,
checked field by field against the record types, and grounded in the paragraphs it was shown
(IDs exist, quote verbatim). An invalid output is sent back with the reason, a bounded number of
times; if a chapter still has an invalid part, nothing of that chapter is merged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tqdm import tqdm

from clueweaver.backends import GenerationBackend, SamplingConfig
from clueweaver.backends.structured import constrained
from clueweaver.books.narrative import Narrative
from clueweaver.core.errors import ClueWeaverError
from clueweaver.nwm.records import (
    Record,
    WorldRecordError,
    check_grounding,
    extraction_schema,
    record_from_dict,
    record_guide,
)
from clueweaver.nwm.retrieval import serialize_state
from clueweaver.nwm.store import NarrativeStore, chapter_paragraph_ids
from clueweaver.protocol.json_output import OutputRejected, json_object


class ExtractionError(ClueWeaverError, RuntimeError):
    """The model gave no valid output for part of a chapter within the allowed attempts."""

    def __init__(self, chapter: int, failures: list[tuple[range, list[str]]]) -> None:
        self.chapter = chapter
        self.failures = failures
        detail = "; ".join(
            f"paragraphs {ids.start}-{ids.stop - 1}: {len(errors)} attempt(s), last error: {errors[-1]}"
            for ids, errors in failures
        )
        super().__init__(f"chapter {chapter}: no valid extraction ({detail}); nothing of the chapter was merged")


@dataclass
class ExtractionConfig:
    max_attempts: int = 3  # per window: the first try plus retries with the error shown
    window_chars: int = 12000  # a chapter longer than this is read in several windows, batched
    max_records: int = 40  # per window
    max_new_tokens: int = 3072
    prior_state_chars: int = 3000  # the state as of the previous chapter, so names stay consistent


@dataclass
class ExtractionResult:
    records: list[Record]
    attempts: int  # generation calls made
    rejected: list[str] = field(default_factory=list)  # why outputs were sent back


SYSTEM_PROMPT = """You maintain a narrative world model of a book. From the excerpt of one chapter, \
extract typed records of what the text establishes. Record kinds:
{guide}
Rules: state only what the excerpt says or clearly implies; cite the [n] paragraph numbers shown; \
copy each quote exactly from those paragraphs (a short phrase); reuse the names of the known state \
for the same characters, objects, places and threads; write every field in the language of the \
excerpt (records are searched with the book's own words); confidence is 0 to 1.
Reply with one JSON object {{"records": [...]}} and nothing else; every field of a kind must be \
present, null where unknown."""


def extraction_messages(narrative: Narrative, chapter: int, paragraph_ids: range, prior_state: str) -> list[dict]:
    title = narrative.chapters[chapter - 1].title if chapter else "front matter"
    known = prior_state.strip() or "(nothing yet)"
    user = (
        f"Book: {narrative.title}\nChapter {chapter}: {title}\n\n"
        f"Known state before this chapter:\n{known}\n\n"
        f"Excerpt (paragraphs {paragraph_ids.start}-{paragraph_ids.stop - 1}):\n"
        f"{narrative.render(paragraph_ids, gap_markers=False)}"
    )
    return [
        {"role": "system", "content": SYSTEM_PROMPT.format(guide=record_guide())},
        {"role": "user", "content": user},
    ]


def windows(narrative: Narrative, chapter: int, max_chars: int) -> list[range]:
    """Consecutive paragraph ranges of a chapter, each within ``max_chars`` unless one paragraph
    alone is longer."""
    ids = chapter_paragraph_ids(narrative, chapter)
    out, start, size = [], ids.start, 0
    for i in ids:
        length = len(narrative.paragraphs[i].text) + 8
        if size and size + length > max_chars:
            out.append(range(start, i))
            start, size = i, 0
        size += length
    if ids:
        out.append(range(start, ids.stop))
    return out


def parse_extraction(
    text: str, narrative: Narrative, chapter: int, paragraph_ids: range, max_records: int
) -> list[Record]:
    """Records from one model output, or a WorldRecordError saying what is wrong with it."""
    try:
        data = json_object(text)
    except OutputRejected as exc:
        raise WorldRecordError(str(exc)) from None
    if not isinstance(data, dict) or set(data) != {"records"} or not isinstance(data["records"], list):
        raise WorldRecordError('the output must be an object with exactly one key, "records", holding a list')
    if len(data["records"]) > max_records:
        raise WorldRecordError(f"at most {max_records} records, got {len(data['records'])}")
    records = []
    for index, item in enumerate(data["records"]):
        record = record_from_dict(item, chapter=chapter, path=f"records[{index}]")
        check_grounding(record, narrative, allowed_ids=paragraph_ids, path=f"records[{index}]")
        records.append(record)
    return records


class Extractor:
    """Chapter -> validated records, through any generation backend (batched over windows)."""

    def __init__(
        self,
        backend: GenerationBackend,
        *,
        sampling: SamplingConfig | None = None,
        config: ExtractionConfig | None = None,
        origin: str | None = None,
    ) -> None:
        self.backend = backend
        self.config = config or ExtractionConfig()
        self.sampling = sampling or SamplingConfig(max_new_tokens=self.config.max_new_tokens)  # greedy
        self.origin = origin or f"extractor:{backend.kind}:{backend.model}"

    def extract(self, narrative: Narrative, chapter: int, *, prior_state: str = "") -> ExtractionResult:
        parts = windows(narrative, chapter, self.config.window_chars)
        conversations = {i: extraction_messages(narrative, chapter, ids, prior_state) for i, ids in enumerate(parts)}
        results: dict[int, list[Record]] = {}
        errors: dict[int, list[str]] = {i: [] for i in conversations}
        calls = 0
        while conversations:
            pending = sorted(conversations)
            # One schema per call: windows of one chapter share it, so the ID range spans the chapter.
            chapter_ids = range(parts[pending[0]].start, parts[pending[-1]].stop)
            schema = extraction_schema(paragraph_ids=chapter_ids, chapter=chapter, max_records=self.config.max_records)
            outputs = self.backend.generate(
                [conversations[i] for i in pending], constrained(self.backend, self.sampling, schema)
            )
            calls += 1
            for i, output in zip(pending, outputs):
                try:
                    results[i] = parse_extraction(output.text, narrative, chapter, parts[i], self.config.max_records)
                    del conversations[i]
                except WorldRecordError as exc:
                    errors[i].append(str(exc))
                    if len(errors[i]) >= self.config.max_attempts:
                        raise ExtractionError(
                            chapter, [(parts[j], errors[j]) for j in errors if errors[j] and j not in results]
                        ) from None
                    conversations[i] = conversations[i] + [
                        {"role": "assistant", "content": output.text},
                        {
                            "role": "user",
                            "content": (
                                f"That output was rejected: {exc}. Reply again with the complete JSON object only."
                            ),
                        },
                    ]
        records = [record for i in sorted(results) for record in results[i]]
        return ExtractionResult(records, calls, [e for i in sorted(errors) for e in errors[i]])


def publish_chapters(
    store: NarrativeStore, narrative: Narrative, chapters: list[int], extractor: Extractor
) -> dict[int, int]:
    """Extract and merge chapters in narrative order, each in its own transaction. The extractor
    sees the state as of the previous chapter only. Stops at the first chapter that cannot be extracted
    (raising ExtractionError); chapters merged before it stay merged."""
    counts = {}
    for chapter in tqdm(sorted(chapters), desc="publishing chapters", unit="chapter", disable=len(chapters) < 2):
        prior = (
            serialize_state(store, chapter - 1, max_chars=extractor.config.prior_state_chars) if chapter > 0 else ""
        )
        result = extractor.extract(narrative, chapter, prior_state=prior)
        counts.update(store.replace_chapters(narrative, {chapter: result.records}, origin=extractor.origin))
    return counts
