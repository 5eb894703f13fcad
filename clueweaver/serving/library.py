"""A persistent library of books and past questions under one data directory: files plus SQLite.

Layout of the data directory::

    library.sqlite                 books and questions (schema in ``_SCHEMA``)
    books/<book_id>/source.<ext>   each book's file, exactly as uploaded
    index-cache/                   retrieval indexes (``clueweaver.retrieval``'s disk cache)
    nwm/                           Narrative World Model stores, one per book
    tmp/                           uploads being received; emptied at every start

A book is identified by its content hash (``Narrative.book_id``), so adding the same book twice
returns the first copy. Adding is atomic: the upload is written and parsed inside ``tmp/``, moved
into ``books/<id>`` with one rename, and only then registered by one INSERT. At start, folders
without a row (a crash between the rename and the INSERT) and ``tmp/`` are removed, so a crash
leaves a whole book or none. Books are indexed one at a time, with progress, in a separate
low-priority process (``clueweaver.serving.indexing``: questions never wait on it); deleting a book stops
its indexing, and books not finished at a stop are indexed after the next start.

One SQLite connection, guarded by a lock, serves every thread (sqlite3 connections belong to one
thread by default; the lock makes the shared one safe).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import re
import shutil
import sqlite3
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import asdict, dataclass
from pathlib import Path

from clueweaver.books.archives import GZIP_SUFFIX, book_suffix
from clueweaver.books.language import SUPPORTED_LANGUAGES, detect_language
from clueweaver.books.narrative import SUPPORTED_SUFFIXES, Narrative, NarrativeError, load_narrative
from clueweaver.core.errors import ClueWeaverError
from clueweaver.retrieval import book_cache_dir, build_index
from clueweaver.serving.indexing import IndexerProcess, IndexingCancelled, IndexingFailed, IndexJob
from clueweaver.serving.shared_encoder import SharedEncoder

log = logging.getLogger(__name__)

# load_narrative's, less benchmark JSONL and gzip-compressed files (a browser uploads a .zip, not a .gz)
BOOK_SUFFIXES = tuple(s for s in SUPPORTED_SUFFIXES if s != ".jsonl" and not s.endswith(GZIP_SUFFIX))
DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024
SCHEMA_VERSION = 3  # 2 added books.encoding, 3 books.language (an older database gains the columns at start)

# Index statuses of a book.
QUEUED, INDEXING, READY, FAILED = "queued", "indexing", "ready", "failed"
# Question statuses. INTERRUPTED: the server stopped before the answer was written.
RUNNING, DONE, INTERRUPTED = "running", "done", "interrupted"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS books (
    book_id        TEXT PRIMARY KEY,    -- first 16 hex digits of content_hash
    content_hash   TEXT NOT NULL,       -- SHA-256 of the canonical text (Narrative.content_hash)
    title          TEXT NOT NULL,
    filename       TEXT NOT NULL,       -- as uploaded (base name)
    format         TEXT NOT NULL,       -- the file's suffix (BOOK_SUFFIXES: .txt ... .xml, .epub, .docx, .odt, .zip)
    encoding       TEXT,                -- the codec a text file was read with (given or detected); NULL: EPUB
    language       TEXT,                -- ISO 639-1, retrieval's analyzer (given or detected); NULL: detect
    bytes          INTEGER NOT NULL,
    paragraphs     INTEGER NOT NULL,
    chapters       INTEGER NOT NULL,
    characters     INTEGER NOT NULL,
    added_at       REAL NOT NULL,       -- Unix time
    index_status   TEXT NOT NULL,       -- queued | indexing | ready | failed
    index_message  TEXT NOT NULL DEFAULT '',
    indexed_at     REAL
);
CREATE TABLE IF NOT EXISTS questions (
    question_id    TEXT PRIMARY KEY,
    book_id        TEXT NOT NULL REFERENCES books(book_id) ON DELETE CASCADE,
    asked_at       REAL NOT NULL,
    started_at     REAL,
    finished_at    REAL,
    status         TEXT NOT NULL,       -- queued | running | done | failed | interrupted
    request        TEXT NOT NULL,       -- JSON: what was asked, with which settings
    result         TEXT,                -- JSON: clueweaver.pipeline.Result.to_dict()
    error          TEXT
);
CREATE INDEX IF NOT EXISTS questions_by_book ON questions(book_id, asked_at);
"""


class LibraryError(ClueWeaverError):
    """A request the library cannot serve; the message says what to do."""


class BookNotFound(LibraryError, LookupError):
    pass


class QuestionNotFound(LibraryError, LookupError):
    pass


class UnsupportedFormat(LibraryError, ValueError):
    pass


class UploadTooLarge(LibraryError, ValueError):
    pass


class BookNotReady(LibraryError):
    pass


class UnsupportedLanguage(LibraryError, ValueError):
    pass


@dataclass(frozen=True)
class BookRecord:
    book_id: str
    content_hash: str
    title: str
    filename: str
    format: str
    encoding: str | None
    language: str | None  # the language retrieval reads the book in; None (added before version 3): detected
    bytes: int
    paragraphs: int
    chapters: int
    characters: int
    added_at: float
    index_status: str
    index_message: str
    indexed_at: float | None
    index_progress: float = 0.0  # 0..1 while indexing; 1 when ready

    def to_dict(self) -> dict:
        return asdict(self)


def safe_filename(filename: str) -> str:
    """The base name of an uploaded file, without path parts or control characters."""
    name = re.split(r"[\\/]", filename or "")[-1]
    name = re.sub(r"[\x00-\x1f\x7f]", "", name).strip().strip(".") or "book"
    if len(name) > 120:
        suffix = name[len(name) - len(book_suffix(name)) :]  # as written: the stem is cut, not the type
        name = name[: 120 - len(suffix)] + suffix
    return name


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # directories cannot be opened on some systems; the rename is still atomic
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Upload:
    """A book file being received: ``write`` chunks (the size limit is enforced as they come),
    then ``register``. Leaving the ``with`` block without registering deletes what was written."""

    def __init__(self, library: Library, filename: str) -> None:
        self.library = library
        self.filename = safe_filename(filename)
        self.suffix = book_suffix(self.filename)
        if self.suffix not in BOOK_SUFFIXES:
            shown = self.suffix or "(no extension)"
            raise UnsupportedFormat(
                f"{self.filename}: unsupported file type {shown}; upload a .txt, .md, .html, .epub, FictionBook .fb2, "
                "TEI .xml or .pdf file or a .zip of one, or a Word .docx or OpenDocument .odt"
            )
        self.folder = library.tmp_dir / uuid.uuid4().hex
        self.folder.mkdir(parents=True)
        self.path = self.folder / self.filename
        self.size = 0
        self.warnings: list[str] = []  # what the upload's answer says about how the file was read
        self._file = open(self.path, "wb")

    def write(self, chunk: bytes) -> None:
        self.size += len(chunk)
        limit = self.library.max_upload_bytes
        if self.size > limit:
            raise UploadTooLarge(
                f"{self.filename} is larger than the upload limit of {limit / 2**20:g} MB; split the book or raise "
                "limits.max_upload_mb in the server's configuration"
            )
        self._file.write(chunk)

    def register(self, *, encoding: str | None = None, language: str | None = None) -> tuple[BookRecord, bool]:
        """Parse the file and add the book: ``(record, True)``, or ``(existing record, False)`` when the library
        already holds this text. ``encoding``, ``language``: the file's and the book's (default: UTF-8 and the
        library's, else detected). An unreadable file raises ``NarrativeError``, an unknown language
        ``UnsupportedLanguage``; ``warnings`` names bytes replaced, or another language than a text there has."""
        if language and language not in SUPPORTED_LANGUAGES:
            raise UnsupportedLanguage(
                f"unknown language {language!r}; give one of {', '.join(SUPPORTED_LANGUAGES)}, or none to detect it"
            )
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        if self.size == 0:
            raise NarrativeError(f"{self.filename}: the file is empty")
        try:
            narrative = load_narrative(self.path, encoding=encoding or None)
        except NarrativeError as exc:
            raise NarrativeError(str(exc).replace(str(self.folder) + os.sep, "")) from None
        except ValueError as exc:  # e.g. a UTF-16 mark in front of bytes that are not UTF-16
            raise NarrativeError(f"{self.filename}: cannot be read as text ({exc})") from None
        if narrative.archive_note:
            self.warnings.append(narrative.archive_note)
        for said in filter(None, (narrative.encoding_note, narrative.encoding_warning)):
            self.warnings.append(said.replace(str(self.path), self.filename))
            log.warning("%s", self.warnings[-1])
        record, created = self.library._register(self, narrative, language)
        if not created and language and record.language != language:  # a text is read in one language
            self.warnings.append(f"already here, read in {record.language}: delete it to read it in {language}")
        return record, created

    def discard(self) -> None:
        if not self._file.closed:
            self._file.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Upload:
        return self

    def __exit__(self, *exc_info) -> None:
        self.discard()


class Library:
    """Books and past questions under ``data_dir`` (see the module docstring).

    ``encoder``: the dense encoder of the retrieval indexes (a ``load_encoder`` spec; None for
    BM25 alone). ``language``: every added book's language unless its upload names one (None: each
    book's own, detected). ``memory_books``: how many books (text and index) stay loaded in memory.
    """

    def __init__(
        self,
        data_dir: str | Path,
        *,
        encoder: str | None = "auto",
        language: str | None = None,
        max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES,
        memory_books: int = 8,
    ) -> None:
        self.data_dir = Path(data_dir).expanduser()
        self.books_dir = self.data_dir / "books"
        self.tmp_dir = self.data_dir / "tmp"
        self.index_dir = self.data_dir / "index-cache"
        self.nwm_dir = self.data_dir / "nwm"
        self.max_upload_bytes = max_upload_bytes
        self.memory_books = memory_books
        self.shared_encoder = SharedEncoder(encoder)
        self.language = language
        for folder in (self.books_dir, self.index_dir, self.nwm_dir):
            folder.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.tmp_dir, ignore_errors=True)
        self.tmp_dir.mkdir(parents=True)

        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.data_dir / "library.sqlite", check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._open_schema()

        self._loaded: OrderedDict[str, tuple[Narrative, object | None]] = OrderedDict()
        self._progress: dict[str, float] = {}
        self._index_queue: queue.Queue[str | None] = queue.Queue()
        self._closing = threading.Event()
        self._recover()
        self._indexer = threading.Thread(target=self._index_loop, name="library-indexer", daemon=True)
        self._indexer.start()

    # -- start-up ----------------------------------------------------------------------------------

    def _open_schema(self) -> None:
        with self._lock, self._db:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version not in range(SCHEMA_VERSION + 1):  # 0: a new file; older versions gain their columns
                raise LibraryError(
                    f"{self.data_dir / 'library.sqlite'} has schema version {version}; this ClueWeaver reads version "
                    f"{SCHEMA_VERSION}. Use a matching ClueWeaver or another data directory."
                )
            self._db.executescript(_SCHEMA)
            if version == 1:  # NULL: read as before (UTF-8, or UTF-16 with its mark)
                self._db.execute("ALTER TABLE books ADD COLUMN encoding TEXT")
            if version in (1, 2):  # NULL: the language is detected when the book is indexed, as before
                self._db.execute("ALTER TABLE books ADD COLUMN language TEXT")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _recover(self) -> None:
        """Make the files and the database agree after any stop, and resume unfinished work."""
        with self._lock:
            rows = {row["book_id"]: row for row in self._db.execute("SELECT * FROM books")}
            for folder in self.books_dir.iterdir():
                if folder.name not in rows:
                    log.warning("removing %s: a book folder that was never registered (interrupted upload)", folder)
                    shutil.rmtree(folder, ignore_errors=True)
            with self._db:
                for book_id, row in rows.items():
                    if not self._source(book_id, row["format"]).is_file():
                        self._db.execute(
                            "UPDATE books SET index_status=?, index_message=? WHERE book_id=?",
                            (
                                FAILED,
                                f"the book's file is missing from {self.books_dir / book_id}; delete the book and "
                                "upload it again",
                                book_id,
                            ),
                        )
                    elif row["index_status"] in (QUEUED, INDEXING):
                        self._db.execute("UPDATE books SET index_status=? WHERE book_id=?", (QUEUED, book_id))
                        self._index_queue.put(book_id)
                self._db.execute(
                    "UPDATE questions SET status=?, error=?, finished_at=? WHERE status IN ('queued', 'running')",
                    (INTERRUPTED, "the server stopped before this question was answered; ask it again", time.time()),
                )

    def _source(self, book_id: str, suffix: str) -> Path:
        return self.books_dir / book_id / f"source{suffix}"

    # -- books ---------------------------------------------------------------------------------

    def receive(self, filename: str) -> Upload:
        """Start receiving a book file (see ``Upload``); unsupported types fail here."""
        return Upload(self, filename)

    def _register(self, upload: Upload, narrative: Narrative, language: str | None) -> tuple[BookRecord, bool]:
        book_id = narrative.book_id
        language = language or self.language or detect_language(narrative.text)
        with self._lock:
            existing = self._row(book_id)
            if existing is not None:
                return self._record(existing), False
            folder = self.books_dir / book_id
            if folder.exists():  # left by a crash before its INSERT
                shutil.rmtree(folder)
            upload.path.rename(upload.folder / f"source{upload.suffix}")
            os.replace(upload.folder, folder)
            _fsync_dir(self.books_dir)
            with self._db:
                self._db.execute(
                    "INSERT INTO books (book_id, content_hash, title, filename, format, encoding, language, bytes,"
                    " paragraphs, chapters, characters, added_at, index_status) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        book_id, narrative.content_hash, narrative.title or upload.filename, upload.filename,
                        upload.suffix, narrative.encoding, language, upload.size, len(narrative),
                        len(narrative.chapters), narrative.num_chars, time.time(), QUEUED,
                    ),
                )  # fmt: skip
            self._remember(book_id, narrative, None)
        self._index_queue.put(book_id)
        log.info("added %s (%s, %d paragraphs) as %s", upload.filename, narrative.title, len(narrative), book_id)
        return self.book(book_id), True

    def _row(self, book_id: str) -> sqlite3.Row | None:
        with self._lock:
            return self._db.execute("SELECT * FROM books WHERE book_id=?", (book_id,)).fetchone()

    def _record(self, row: sqlite3.Row) -> BookRecord:
        status = row["index_status"]
        progress = 1.0 if status == READY else self._progress.get(row["book_id"], 0.0) if status == INDEXING else 0.0
        return BookRecord(**dict(row), index_progress=round(progress, 3))

    def books(self) -> list[BookRecord]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM books ORDER BY added_at").fetchall()
        return [self._record(row) for row in rows]

    def book(self, book_id: str) -> BookRecord:
        row = self._row(book_id)
        if row is None:
            raise BookNotFound(f"no book with ID {book_id!r} in the library; the book list shows the IDs")
        return self._record(row)

    def delete(self, book_id: str) -> None:
        """Remove the book, its past questions, its indexes and its world-model store; a book being
        indexed stops being indexed."""
        with self._lock:
            record = self.book(book_id)
            with self._db:
                self._db.execute("DELETE FROM books WHERE book_id=?", (book_id,))
            self._loaded.pop(book_id, None)
            trash = self.tmp_dir / f"deleted-{uuid.uuid4().hex}"
            os.replace(self.books_dir / book_id, trash)
        shutil.rmtree(trash, ignore_errors=True)
        self._forget_derived(record.content_hash, book_id)
        log.info("deleted %s (%s)", book_id, record.title)

    def _forget_derived(self, content_hash: str, book_id: str) -> None:
        shutil.rmtree(book_cache_dir(content_hash, self.index_dir), ignore_errors=True)
        (self.nwm_dir / f"{book_id}.sqlite").unlink(missing_ok=True)

    def _remember(self, book_id: str, narrative: Narrative, index) -> None:
        with self._lock:
            self._loaded[book_id] = (narrative, index)
            self._loaded.move_to_end(book_id)
            while len(self._loaded) > self.memory_books:
                self._loaded.popitem(last=False)

    def narrative(self, book_id: str) -> Narrative:
        """The book's text as numbered paragraphs (kept in memory for the last few books)."""
        with self._lock:
            if book_id in self._loaded:
                self._loaded.move_to_end(book_id)
                return self._loaded[book_id][0]
            record = self.book(book_id)
        narrative = load_narrative(self._source(book_id, record.format), encoding=record.encoding, title=record.title)
        self._remember(book_id, narrative, None)
        return narrative

    def index(self, book_id: str):
        """The book's retrieval index; ``BookNotReady`` until indexing has finished."""
        record = self.book(book_id)
        if record.index_status != READY:
            if record.index_status == FAILED:
                raise BookNotReady(
                    f"indexing {record.title!r} failed ({record.index_message}); delete the book and upload it again"
                )
            if record.index_status == QUEUED:
                raise BookNotReady(f"{record.title!r} is waiting to be indexed; ask again when it is ready")
            raise BookNotReady(
                f"{record.title!r} is still being indexed ({record.index_progress:.0%} done); ask again when it is "
                "ready"
            )
        with self._lock:
            loaded = self._loaded.get(book_id)
            if loaded is not None and loaded[1] is not None:
                return loaded[1]
        return self._build_index(book_id)

    # -- indexing ------------------------------------------------------------------------------

    def encoder(self):
        """The dense encoder shared by indexing and questions (loaded on first use), or None."""
        return self.shared_encoder.get()

    def load_encoder_in_background(self) -> None:
        self.shared_encoder.load_in_background()

    def encoder_status(self) -> dict:
        return self.shared_encoder.status()

    def wait_for_encoder(self) -> None:
        self.shared_encoder.wait()

    def _build_index(self, book_id: str):
        """The book's index from the disk cache, where the indexing process left it."""
        narrative, language, cache = self.narrative(book_id), self.book(book_id).language, self.index_dir
        index = build_index(narrative, self.encoder(), cache_dir=cache, language=language, show_progress=False)
        self._remember(book_id, narrative, index)
        return index

    def _set_status(self, book_id: str, status: str, message: str = "") -> None:
        with self._lock, self._db:
            self._db.execute(
                "UPDATE books SET index_status=?, index_message=?, indexed_at=? WHERE book_id=?",
                (status, message, time.time() if status == READY else None, book_id),
            )

    def _index_loop(self) -> None:
        indexer = IndexerProcess(self.shared_encoder.spec)
        try:
            while (book_id := self._index_queue.get()) is not None and not self._closing.is_set():
                self._index_book(indexer, book_id)
        except IndexingCancelled:  # closing: the book stays unfinished and is indexed after the next start
            pass
        finally:
            indexer.stop()

    def _index_book(self, indexer: IndexerProcess, book_id: str) -> None:
        row = self._row(book_id)
        if row is None or row["index_status"] not in (QUEUED, INDEXING):
            return
        self._progress[book_id] = 0.05
        self._set_status(book_id, INDEXING)
        started = time.perf_counter()
        job = IndexJob(
            str(self._source(book_id, row["format"])), row["title"], row["encoding"], row["content_hash"],
            str(self.index_dir), row["language"],
        )  # fmt: skip
        try:
            outcome = self._run_indexer(indexer, book_id, job)
            with self._lock:  # close() sets _closing before it takes the lock to close the database
                if self._closing.is_set():
                    raise IndexingCancelled(book_id)
                if outcome is None or self._row(book_id) is None:  # deleted: what the indexer wrote goes too
                    self._forget_derived(row["content_hash"], book_id)
                    log.info("stopped indexing %s: the book was deleted", book_id)
                    return
                self._set_status(book_id, *outcome)
        finally:
            self._progress.pop(book_id, None)
        log.info("indexed %s in %.1f s: %s", book_id, time.perf_counter() - started, outcome[0])

    def _run_indexer(self, indexer: IndexerProcess, book_id: str, job: IndexJob) -> tuple[str, str] | None:
        """The book's new status and message, or None when it was deleted meanwhile."""
        try:
            indexer.index(
                job,
                progress=lambda fraction: self._progress.__setitem__(book_id, 0.1 + 0.9 * fraction),
                cancelled=lambda: self._closing.is_set() or self._row(book_id) is None,
            )
            return READY, ""
        except IndexingFailed as exc:
            log.error("indexing %s failed: %s", book_id, exc)
            return FAILED, str(exc)
        except IndexingCancelled:
            if self._closing.is_set():
                raise
            return None

    def wait_until_indexed(self, book_id: str, timeout: float = 60.0) -> BookRecord:
        """Block until the book is ready or failed (for scripts and tests)."""
        deadline = time.monotonic() + timeout
        while True:
            record = self.book(book_id)
            if record.index_status in (READY, FAILED):
                return record
            if time.monotonic() > deadline:
                raise TimeoutError(f"{book_id} was not indexed within {timeout} s (status {record.index_status})")
            time.sleep(0.02)

    # -- questions -----------------------------------------------------------------------------

    def add_question(self, book_id: str, request: dict) -> str:
        question_id = uuid.uuid4().hex
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO questions (question_id, book_id, asked_at, status, request) VALUES (?,?,?,?,?)",
                (question_id, book_id, time.time(), QUEUED, json.dumps(request, ensure_ascii=False)),
            )
        return question_id

    def question_started(self, question_id: str) -> None:
        with self._lock, self._db:
            self._db.execute(
                "UPDATE questions SET status=?, started_at=? WHERE question_id=?", (RUNNING, time.time(), question_id)
            )

    def finish_question(self, question_id: str, *, result: dict | None = None, error: str | None = None) -> None:
        """Store the answer (or why there is none). A question whose book was deleted meanwhile
        is gone with it; nothing is written then."""
        status = DONE if error is None else FAILED
        payload = json.dumps(result, ensure_ascii=False) if result is not None else None
        with self._lock, self._db:
            self._db.execute(
                "UPDATE questions SET status=?, result=?, error=?, finished_at=? WHERE question_id=?",
                (status, payload, error, time.time(), question_id),
            )

    @staticmethod
    def _question_dict(row: sqlite3.Row, *, full: bool) -> dict:
        record = {
            key: row[key]
            for key in ("question_id", "book_id", "asked_at", "started_at", "finished_at", "status", "error")
        }
        record["request"] = json.loads(row["request"])
        result = json.loads(row["result"]) if row["result"] else None
        if full:
            record["result"] = result
        else:
            record["answer"] = result["answer"] if result else None
            record["calibration_changed"] = result["calibration_changed"] if result else False
        return record

    def question(self, question_id: str) -> dict:
        with self._lock:
            row = self._db.execute("SELECT * FROM questions WHERE question_id=?", (question_id,)).fetchone()
        if row is None:
            raise QuestionNotFound(f"no question with ID {question_id!r}; a book's past questions list their IDs")
        return self._question_dict(row, full=True)

    def questions(self, book_id: str) -> list[dict]:
        """The book's past questions, newest first, without their full results."""
        self.book(book_id)
        with self._lock:
            query = "SELECT * FROM questions WHERE book_id=? ORDER BY asked_at DESC"
            rows = self._db.execute(query, (book_id,)).fetchall()
        return [self._question_dict(row, full=False) for row in rows]

    # -- shutting down -------------------------------------------------------------------------

    def close(self, timeout: float = 30.0) -> None:
        """Stop indexing (a book in progress stays unfinished and is indexed after the next start)
        and close the database."""
        self._closing.set()
        self._index_queue.put(None)
        self._indexer.join(timeout)
        with self._lock:
            self._db.close()
