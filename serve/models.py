"""The API's request and response bodies as pydantic models, so that ``/openapi.json`` and
``/docs`` describe every response.

Response models declare their fields in the order the library writes them (the JSON bodies are
the library's records, unchanged) and allow extra fields: a field the library adds reaches the
clients instead of being dropped silently. The free-form parts (an answer's ``trace``, written by
the pipeline, and the engine's counters) stay mappings.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from clueweaver.serving.reading_room import AskRequest

# -- requests ------------------------------------------------------------------------------------


class AskBody(BaseModel):
    """A question with options, a claim to check, or an open question."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["mcq", "claim", "open"] = Field(
        "mcq",
        description="mcq: a question with options A-D; claim: a TRUE/FALSE claim; open: a free-text answer",
    )
    question: str = Field(..., description="the question, or the claim's text")
    options: dict[str, str] = Field(
        default_factory=dict, description='for mcq: {"A": "...", "B": "..."}, two to four of A-D'
    )
    preset: str | None = Field(None, description="reading preset (GET /api/presets); default: the server's")
    max_chapter: Annotated[int, Field(ge=0)] | str | None = Field(
        None,
        description="read up to this chapter only (spoiler-free): a number is the chapter's position (number in "
        "/chapters), a string its label as the book numbers it ('24', '1.2'; label in /chapters), as on the command "
        "line; 0 or '0': the front matter; default: the whole book",
    )
    self_calibration: bool | None = Field(None, description="re-check risky answers; default: the server's setting")

    def request(self) -> AskRequest:
        return AskRequest(
            self.question, dict(self.options), self.kind, self.preset, self.max_chapter, self.self_calibration
        )


# -- responses -----------------------------------------------------------------------------------


class Body(BaseModel):
    """A response body (see the module docstring for why extra fields are allowed)."""

    model_config = ConfigDict(extra="allow")


class ApiErrorBody(Body):
    error: str = Field(..., description="a stable code, e.g. book_not_found, too_busy, invalid_request")
    detail: str = Field(..., description="what went wrong and what to do, for a person")


class PresetSettings(Body):
    """A reading preset's settings (``clueweaver.segments.segmenter.Preset``)."""

    max_selected: int = Field(..., description="segments the Finder may keep (N_E)")
    retrieval_paragraphs: int = Field(..., description="paragraphs retrieved per question (P_r)")
    window_paragraphs: int = Field(..., description="paragraphs per segment (P_w)")
    char_budget: int = Field(..., description="characters of evidence the Interpreter reads (B_c)")
    num_anchors: int
    num_windows: int
    neighbours: int


class Limits(Body):
    max_upload_mb: float
    max_question_chars: int
    max_option_chars: int
    formats: list[str] = Field(..., description="the file suffixes an upload may have")


class Settings(Body):
    presets: dict[str, PresetSettings]
    default_preset: str
    self_calibration: bool = Field(..., description="whether risky answers are re-checked by default")
    limits: Limits
    models: list[str] = Field(..., description="notes on the models the server runs")
    languages: list[str] = Field(
        ..., description="the languages (ISO 639-1) an upload may name for its book, in the upload form's picker"
    )
    default_language: str | None = Field(
        ..., description="the language every upload is read in unless it names one (none: detected from the book)"
    )


class Health(Body):
    status: str = Field(..., description='"ok"')
    version: str
    models: list[str]
    smoke_model: bool = Field(..., description="the offline smoke model stands in for unavailable models")
    backend: str
    encoder: dict[str, Any] = Field(
        ...,
        description="the retrieval encoder: name, status (none, loading with its seconds so far, ready, failed "
        "with its error, lazy) ; questions asked while it loads wait for it",
    )
    books: int | None = Field(None, description="books in the library (with the token, when the server has one)")
    questions_active: int | None = Field(None, description="questions queued or running (the same)")
    engine: dict[str, int] | None = Field(
        None, description="the generation engine's counters and its pending requests (the same)"
    )
    uptime_s: float


class Book(Body):
    """A book of the library (``clueweaver.serving.library.BookRecord``)."""

    book_id: str = Field(..., description="the first 16 hex digits of content_hash")
    content_hash: str = Field(..., description="SHA-256 of the canonical text")
    title: str
    filename: str = Field(..., description="as uploaded")
    format: str = Field(
        ...,
        description="the file's suffix: .txt, .md, .markdown, .html, .htm, .xhtml, .fb2, .xml, .tei, .epub, .docx, "
        ".odt, .pdf or .zip",
    )
    encoding: str | None = Field(
        None, description="the encoding a text file was read with: UTF-8, the one given, or the one detected"
    )
    language: str | None = Field(
        None,
        description="the language retrieval reads the book in (ISO 639-1; 'und': a script ClueWeaver has no "
        "analyzer for): the one given at upload, else detected from its script and stop words",
    )
    bytes: int
    paragraphs: int
    chapters: int
    characters: int
    added_at: float = Field(..., description="Unix time")
    index_status: str = Field(..., description="queued (waiting for the books before it), indexing, ready or failed")
    index_message: str = Field(..., description="why indexing failed")
    indexed_at: float | None
    index_progress: float = Field(..., description="0 while queued; 0..1 while indexing; 1 when ready")


class UploadedBook(Book):
    created: bool = Field(..., description="false when the library already held this text")
    warnings: list[str] = Field(
        default_factory=list, description="how the file was read, e.g. where bytes that were not UTF-8 were replaced"
    )


class BookList(Body):
    books: list[Book] = Field(..., description="oldest first")


class Deleted(Body):
    deleted: str = Field(..., description="the deleted book's ID")


class Chapter(Body):
    number: int = Field(..., description="1-based position in reading order: what max_chapter takes")
    label: str = Field(
        ...,
        description="the number a reader uses, as the book numbers it: '24', '1.2' for chapter II of story I, "
        "'1.2.3' for chapter III of volume I's book 2",
    )
    title: str
    part: str | None = Field(..., description="the heading of the part or story the chapter belongs to")
    volume: str | None = Field(..., description="the heading of the volume over that part ('VOLUME I FANTINE')")
    full_title: str = Field(..., description="the title with its volume, part or story, as the reading room shows it")
    first_paragraph: int
    last_paragraph: int


class Chapters(Body):
    book_id: str
    chapters: list[Chapter]


class Paragraph(Body):
    id: int
    text: str
    chapter: int = Field(..., description="1-based; 0 for front matter before the first heading")
    is_heading: bool
    offset: int = Field(..., description="the first character's offset in the book's text")


class Paragraphs(Body):
    book_id: str
    total: int = Field(..., description="paragraphs in the book")
    start: int
    end: int = Field(..., description="inclusive")
    paragraphs: list[Paragraph]


class AskedRequest(Body):
    """What was asked, with which settings (null: the server's default)."""

    text: str
    options: dict[str, str]
    kind: str
    preset: str | None
    max_chapter: int | None = Field(..., description="the chapter's position, whether given by position or label")
    max_chapter_label: str | None = Field(None, description="how the book numbers that chapter")
    self_calibration: bool | None


class Answer(Body):
    """An answer (``clueweaver.pipeline.Result.to_dict()``)."""

    system: str
    answer: str = Field(
        ..., description="an option's label, TRUE/FALSE for a claim, or an open question's free-text answer"
    )
    rationale: str = Field(..., description="cites paragraphs as [N]")
    citations: list[int] = Field(..., description="the cited paragraph IDs that are in the evidence packet")
    invalid_citations: list[int]
    format_valid: bool
    answer_legal: bool
    fallback: bool = Field(..., description="no Interpreter output could be read; the answer is the fallback")
    answer_source: str = Field(..., description="calibration, provisional or fallback")
    calibration_changed: bool
    trace: dict[str, Any] = Field(..., description="segments, Finder decisions, packet, Interpreter, timings")


class QuestionQueued(Body):
    question_id: str
    book_id: str
    status: str = Field(..., description='"queued"')
    url: str = Field(..., description="where the answer will be")
    events_url: str = Field(..., description="the progress stream")


class _QuestionFields(Body):
    question_id: str
    book_id: str
    asked_at: float
    started_at: float | None
    finished_at: float | None
    status: str = Field(..., description="queued, running, done, failed or interrupted")
    error: str | None
    request: AskedRequest


class QuestionRecord(_QuestionFields):
    """A question with its whole answer."""

    result: Answer | None


class PastQuestion(_QuestionFields):
    """A past question without its whole answer."""

    answer: str | None
    calibration_changed: bool


class PastQuestions(Body):
    book_id: str
    questions: list[PastQuestion] = Field(..., description="newest first")
