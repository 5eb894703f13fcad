"""The reading room: a persistent library, one shared generation engine, and questions answered
concurrently with stage-by-stage progress. The local web server (``serve/``) is a thin HTTP shell
over it; anything else that answers many questions at once can use it the same way.

Questions run on a pool of worker threads through the ordinary pipeline (``ClueWeaver.answer``);
their model calls all go to one ``GenerationEngine``, which merges the calls of concurrent
questions into shared batches (``clueweaver.backends.batching``). Every question is recorded in the library
before it runs and its answer (the whole ``Result.to_dict()``, trace included) when it ends, so
past questions survive a restart; a question cut off by a stop is marked interrupted.

Its configuration is ``clueweaver.serving.config.ServeConfig`` (``configs/serve.yaml``, docs/serving.md).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from clueweaver import __version__
from clueweaver.backends import BackendError
from clueweaver.backends.batching import GenerationEngine, engine_tag
from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.books.language import SUPPORTED_LANGUAGES
from clueweaver.books.narrative import Narrative, NarrativeError, reading_limit
from clueweaver.core.config import ConfigError
from clueweaver.core.surrogates import lone_surrogate_at
from clueweaver.pipeline import ClueWeaver, PipelineConfig
from clueweaver.pipeline.models import Agents, load_agents
from clueweaver.protocol.question import Question, QuestionError
from clueweaver.segments.segmenter import get_preset
from clueweaver.serving.config import LimitsConfig, ModelsConfig, ServeConfig
from clueweaver.serving.library import Library, LibraryError

log = logging.getLogger(__name__)


# Pipeline settings the reading room decides itself (from the top-level config and the data dir).
_OWNED_PIPELINE_SETTINGS = ("encoder", "language", "cache_dir", "nwm_dir", "finder_adapter", "interpreter_adapter")


def load_models(models: ModelsConfig) -> Agents:
    """The agents' backends for a models configuration (``ModelUnavailable`` names what is missing)."""
    if models.backend == "scripted":
        unknown = sorted(set(models.options) - {"calibration"})
        if unknown:
            raise ConfigError(
                f"models.options {unknown} do not apply to the scripted backend (it takes calibration: keep or switch)"
            )
        backend = scripted_reader_backend(**models.options)
        return Agents(
            backend, backend, notes=["both agents: the scripted reader (no model; its answers mean nothing)"]
        )
    return load_agents(
        models.finder, models.interpreter, backend=models.backend, finder_adapter=models.finder_adapter,
        interpreter_adapter=models.interpreter_adapter, options=models.options,
        role_options={"finder": models.finder_options, "interpreter": models.interpreter_options},
        sequential=models.sequential, smoke_fallback=models.smoke_fallback,
    )  # fmt: skip


@dataclass(frozen=True)
class AskRequest:
    """A question with options (``kind="mcq"``), a claim (``kind="claim"``) or an open question
    (``kind="open"``, a free-text answer), and how to read."""

    text: str
    options: dict[str, str] = field(default_factory=dict)
    kind: str = "mcq"
    preset: str | None = None  # default: the server's pipeline preset
    # read up to this chapter only (spoiler-free): its position 1..N, or its label as the book
    # numbers it ("24", "1.2"; Narrative.chapter_limit); "0" or 0 is the front matter
    max_chapter: int | str | None = None
    self_calibration: bool | None = None  # default: the server's setting

    def question(self, limits: LimitsConfig) -> Question:
        """The ``Question``; anything a person must fix raises ``QuestionError`` saying what."""
        what = {"claim": "claim", "open": "open question"}.get(self.kind, "question")
        self._check_characters(what)
        text = (self.text or "").strip()
        if not text:
            raise QuestionError(f"the {what} is empty: write it first")
        if len(text) > limits.max_question_chars:
            raise QuestionError(
                f"the {what} is {len(text)} characters long; the limit is {limits.max_question_chars}: shorten it"
            )
        options = {str(label).strip().upper(): str(value).strip() for label, value in self.options.items()}
        for label, value in options.items():
            if len(value) > limits.max_option_chars:
                raise QuestionError(
                    f"option {label} is {len(value)} characters long; the limit is {limits.max_option_chars}"
                )
        if self.kind == "claim":
            if options:
                raise QuestionError("a claim takes no options; send kind 'mcq' for a question with options")
            return Question.claim(text)
        if self.kind == "open":
            if options:
                raise QuestionError(
                    f"an open question takes no options (got {', '.join(options)}); send kind 'mcq' to choose "
                    "between options"
                )
            return Question.open(text)
        if self.kind != "mcq":
            raise QuestionError(
                f"unknown kind {self.kind!r}; use 'mcq' (a question with options A-D), 'claim' or 'open'"
            )
        return Question(text, options)

    def _check_characters(self, what: str) -> None:
        """A lone surrogate ("\\ud800" is valid JSON) is half of a character: no text can hold
        it, nor SQLite store it, so it is refused before anything is recorded."""
        fields = [(f"the {what}", self.text), ("the preset", self.preset), ("the chapter limit", self.max_chapter)]
        for label, value in self.options.items():
            fields += [("an option's label", label), (f"option {label!r}", value)]
        for name, value in fields:
            where = lone_surrogate_at(value) if isinstance(value, str) else None
            if where:
                raise QuestionError(
                    f"{name} holds a lone surrogate ({where}), half of a character that no text can hold (a broken "
                    "emoji or a bad copy?); remove it and ask again"
                )

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def chapter_position(narrative: Narrative, max_chapter: int | str | None) -> int | None:
    """The position of the last chapter a reading limit lets a reader read: a number is already
    a position (what the API always took); a string is a label as the book numbers it, as on the
    command line."""
    return narrative.chapter_limit(max_chapter) if isinstance(max_chapter, str) else max_chapter


class QuestionJob:
    """One question in flight: its events (for progress streams) and, at the end, its record."""

    def __init__(self, question_id: str, book_id: str, request: AskRequest, question: Question) -> None:
        self.id = question_id
        self.book_id = book_id
        self.request = request
        self.question = question
        self.events: list[dict] = []
        self.finished = threading.Event()
        self._lock = threading.Lock()

    def emit(self, event: str, data: dict) -> None:
        with self._lock:
            self.events.append({"seq": len(self.events), "event": event, "data": data, "time": time.time()})

    def stage(self, stage: str, info: dict) -> None:
        """The pipeline's progress callback."""
        self.emit("stage", {"stage": stage, **info})

    def events_after(self, seq: int) -> list[dict]:
        with self._lock:
            return self.events[seq + 1 :]


class ReadingRoom:
    """The library, the engine and the question workers, built from a ``ServeConfig``.

    ``agents``: already loaded backends (tests pass a scripted one); by default the models of
    ``config.models`` are loaded. Close it to stop the workers, the engine and the models.
    """

    def __init__(self, config: ServeConfig, *, agents: Agents | None = None) -> None:
        owned = sorted(set(config.pipeline) & set(_OWNED_PIPELINE_SETTINGS))
        if owned:
            raise ConfigError(
                f"pipeline: {', '.join(owned)} are set by the server (encoder and language at the top level, a book's "
                "language also at its upload, caches under data_dir, adapters under models); remove them from the "
                "pipeline section"
            )
        try:
            base = PipelineConfig.from_dict(dict(config.pipeline))
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"pipeline: {exc}") from None
        if config.language is not None and config.language not in SUPPORTED_LANGUAGES:
            raise ConfigError(f"language: unknown {config.language!r}; use one of {', '.join(SUPPORTED_LANGUAGES)}")
        self.config = config
        self.library = Library(
            config.resolved_data_dir(),
            encoder=config.encoder,
            language=config.language,
            max_upload_bytes=int(config.limits.max_upload_mb * 2**20),
        )
        self.library.load_encoder_in_background()
        try:
            self.agents = agents or load_models(config.models)
        except BaseException:
            self.library.close()
            raise
        self.engine = GenerationEngine(
            max_batch_conversations=config.batching.max_batch_conversations,
            max_wait_s=config.batching.max_wait_ms / 1000,
            sequential=config.models.sequential,
        )
        self.finder = self.engine.backend(self.agents.finder)
        self.interpreter = (
            self.finder
            if self.agents.interpreter is self.agents.finder
            else self.engine.backend(self.agents.interpreter)
        )
        self.pipeline_config = dataclasses.replace(
            base,
            encoder=self.library.encoder(),
            cache_dir=str(self.library.index_dir),
            nwm_dir=str(self.library.nwm_dir),
            finder_adapter=self.agents.finder_adapter,
            interpreter_adapter=self.agents.interpreter_adapter,
        )
        self._workers = ThreadPoolExecutor(config.limits.question_workers, thread_name_prefix="question")
        self._jobs: OrderedDict[str, QuestionJob] = OrderedDict()
        self._jobs_lock = threading.Lock()
        self._closed = False
        self.started_at = time.time()

    # -- asking --------------------------------------------------------------------------------

    def active_questions(self) -> int:
        with self._jobs_lock:
            return sum(not job.finished.is_set() for job in self._jobs.values())

    def ask(self, book_id: str, request: AskRequest) -> QuestionJob:
        """Check the request, record it and queue it; the job reports progress and the answer.
        Bad input raises before anything is recorded: ``BookNotFound``, ``BookNotReady``,
        ``QuestionError`` (the question or its settings), ``NarrativeError`` (chapter limit),
        ``TooBusy``."""
        record = self.library.book(book_id)
        question = request.question(self.config.limits)
        if request.preset is not None:
            try:
                get_preset(request.preset)
            except ValueError as exc:
                raise QuestionError(str(exc)) from None
        if request.max_chapter is not None and record.chapters == 0:
            raise NarrativeError(
                f"{record.title!r} has no chapters that ClueWeaver could detect, so it cannot be read up to a "
                "chapter; leave the chapter limit empty"
            )
        narrative = self.library.narrative(book_id)
        request = dataclasses.replace(request, max_chapter=chapter_position(narrative, request.max_chapter))
        reading_limit(narrative, request.max_chapter, None)
        self.library.index(book_id)  # BookNotReady while indexing
        if self.active_questions() >= self.config.limits.max_pending_questions:
            raise TooBusy(
                f"{self.config.limits.max_pending_questions} questions are already waiting or running; ask again in "
                "a moment"
            )
        label = None if request.max_chapter is None else narrative.chapter_label(request.max_chapter)
        recorded = {**request.to_dict(), "text": question.text, "options": question.options}
        recorded["max_chapter_label"] = label
        question_id = self.library.add_question(book_id, recorded)
        job = QuestionJob(question_id, book_id, request, question)
        with self._jobs_lock:
            self._jobs[question_id] = job
            finished = [key for key, old in self._jobs.items() if old.finished.is_set()]
            for key in finished[: max(0, len(finished) - 500)]:
                del self._jobs[key]
        job.emit("queued", {"question_id": question_id, "book_id": book_id, "waiting": self.active_questions() - 1})
        self._workers.submit(self._answer, job)
        return job

    def _pipeline(self, request: AskRequest) -> ClueWeaver:
        changes = {}
        if request.preset is not None:
            changes["preset"] = get_preset(request.preset)
        if request.self_calibration is not None:
            changes["self_calibration"] = request.self_calibration
        return ClueWeaver(self.finder, self.interpreter, config=dataclasses.replace(self.pipeline_config, **changes))

    def _answer(self, job: QuestionJob) -> None:
        tag = engine_tag.set(job.id)
        try:
            self.library.question_started(job.id)
            job.emit("running", {})
            self._wait_for_encoder(job)
            narrative, index = self.library.narrative(job.book_id), self.library.index(job.book_id)
            result = self._pipeline(job.request).answer(
                narrative, job.question, max_chapter=job.request.max_chapter, index=index, progress_callback=job.stage
            )
            self.library.finish_question(job.id, result=result.to_dict())
            job.emit("done", {"question_id": job.id, "answer": result.answer})
        except Exception as exc:  # recorded as the question's failure; the worker lives on
            if isinstance(exc, (BackendError, LibraryError, NarrativeError, QuestionError)):
                message = str(exc)
            else:
                log.exception("question %s failed", job.id)
                message = f"internal error ({type(exc).__name__}: {exc}); the server log has the details"
            self.library.finish_question(job.id, error=message)
            job.emit("failed", {"question_id": job.id, "error": message})
        finally:
            engine_tag.reset(tag)
            job.finished.set()

    def _wait_for_encoder(self, job: QuestionJob) -> None:
        """A question asked while the encoder loads waits for it, in a stage of its own."""
        if self.library.encoder_status()["status"] != "loading":
            return
        job.stage("encoder", {"status": "started", "note": "the retrieval encoder is still loading"})
        began = time.perf_counter()
        self.library.wait_for_encoder()
        job.stage("encoder", {"status": "done", "seconds": round(time.perf_counter() - began, 4)})

    def job(self, question_id: str) -> QuestionJob | None:
        """The question's live job while this process knows it (None after a restart)."""
        with self._jobs_lock:
            return self._jobs.get(question_id)

    # -- status and shutdown -------------------------------------------------------------------

    def health(self, *, counts: bool = True) -> dict:
        """The server's state; ``counts``: with the library's and the engine's counts (which say
        how the library is used, so a server with a token shows them only to its holders)."""
        health = {
            "status": "ok",
            "version": __version__,
            "models": self.agents.notes,
            "smoke_model": self.agents.smoke,
            "backend": self.agents.finder.kind,
            "encoder": self.library.encoder_status(),
        }
        if counts:
            health["books"] = len(self.library.books())
            health["questions_active"] = self.active_questions()
            health["engine"] = {**self.engine.stats.to_dict(), "pending": self.engine.pending}
        return {**health, "uptime_s": round(time.time() - self.started_at, 1)}

    def close(self) -> None:
        """Stop taking questions, let running ones finish, then stop the engine, models and library."""
        if self._closed:
            return
        self._closed = True
        self._workers.shutdown(wait=True, cancel_futures=True)
        with self._jobs_lock:
            never_started = [job for job in self._jobs.values() if not job.finished.is_set()]
        for job in never_started:  # recorded as queued: the next start marks them interrupted
            job.emit(
                "failed",
                {"question_id": job.id, "error": "the server stopped before this question was answered; ask it again"},
            )
            job.finished.set()
        self.engine.close()
        self.agents.close()
        self.library.close()


class TooBusy(LibraryError):
    """Too many questions are waiting; the client should retry later."""
