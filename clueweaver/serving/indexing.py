"""Indexing books in a separate, low-priority process, so that questions never wait on it.

Why a process: on a 2-core CPU with the offline MiniLM encoder, a question on a short book took
0.1 s alone and 0.4-18 s while Monte Cristo was indexed by a thread of the server's process. That
thread held the shared dense encoder (and its lock) for 256 paragraphs at a time, so a question's
query encoding waited behind a whole chunk, and its tokenizing competed with the questions for the
GIL and both cores. The indexing process has its own copy of the encoder, runs at the lowest CPU
priority (nice 19, so questions come first when the cores are busy), writes the index into the disk
cache (``clueweaver.retrieval.build_index``), from which the server then loads it in milliseconds,
and is killed at once when its book is deleted or the library closes. The same questions then took
0.08-0.10 s while Monte Cristo was indexed.

The cost: while a book is indexed, a second copy of the encoder is in memory (2.1 GiB of GPU memory
for BGE-M3; docs/serving.md counts it).
"""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Callable

from clueweaver.books.narrative import load_narrative
from clueweaver.core.errors import ClueWeaverError
from clueweaver.retrieval import build_index, load_encoder

log = logging.getLogger(__name__)

POLL_S = 0.05  # how often the server checks for a deletion or a stop while a book is indexed
_NICENESS = 19
_PARENT_CHECK_S = 0.5  # how often the indexing process checks that the server is still there


class IndexingFailed(ClueWeaverError):
    """The book could not be indexed; the message says why (it becomes the book's status)."""


class IndexingCancelled(ClueWeaverError):
    """The book was deleted, or the library closed, while it was being indexed."""


@dataclass(frozen=True)
class IndexJob:
    """What the indexing process needs to read one book exactly as the library reads it."""

    source: str
    title: str
    encoding: str | None
    content_hash: str
    cache_dir: str
    language: str | None = None  # None: detected from the book


def _index_one(conn, job: IndexJob, encoder) -> None:
    narrative = load_narrative(job.source, encoding=job.encoding, title=job.title)
    if narrative.content_hash != job.content_hash:
        raise IndexingFailed("the book's file no longer holds the text it was added with; upload it again")
    build_index(
        narrative,
        encoder,
        cache_dir=job.cache_dir,
        language=job.language,
        show_progress=False,
        progress=lambda done, total: conn.send(("progress", done / max(total, 1))),
    )


def _lower_priority() -> None:
    try:
        os.nice(_NICENESS - os.nice(0))
    except (AttributeError, OSError):  # not on this system: indexing still runs apart from questions
        log.warning("could not lower the indexing process's CPU priority")


def _exit_with_parent(parent: int) -> None:
    """End this process as soon as the server that started it is gone (a server killed by a
    signal cannot stop it), rather than when the next progress message finds no reader."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def serve_jobs(jobs: Connection, results: Connection) -> None:
    """The indexing process: the encoder spec first, then each job it receives until None."""
    _lower_priority()
    _exit_with_parent(os.getppid())
    try:
        _serve(jobs, results)
    except (EOFError, BrokenPipeError):  # the server is gone: nothing to report to
        return


def _serve(jobs: Connection, results: Connection) -> None:
    encoder_spec = jobs.recv()
    encoder, loaded = None, False
    while (job := jobs.recv()) is not None:
        try:
            if not loaded:
                encoder, loaded = load_encoder(encoder_spec), True
            _index_one(results, job, encoder)
            results.send(("done", None))
        except BrokenPipeError:
            raise
        except Exception as exc:  # the book's failure, reported; the process lives on
            message = str(exc) if isinstance(exc, IndexingFailed) else f"{type(exc).__name__}: {exc}"
            results.send(("failed", message))


# The child runs this: a plain interpreter (no re-import of the server's main module, as
# multiprocessing's spawn would do), talking over two pipes given by number.
_CHILD_CODE = (
    "import sys; from multiprocessing.connection import Connection; "
    "from clueweaver.serving.indexing import serve_jobs; "
    "serve_jobs(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))"
)


class IndexerProcess:
    """The server's side of the indexing process: started on first use, one book at a time,
    killed when a book is cancelled (and started afresh for the next one).

    ``encoder_spec``: what ``load_encoder`` takes (a name, or a picklable encoder object whose
    class the child can import: it gets this process's ``sys.path``).
    """

    def __init__(self, encoder_spec) -> None:
        self.encoder_spec = encoder_spec
        self._process: subprocess.Popen | None = None
        self._jobs: Connection | None = None
        self._results: Connection | None = None

    def _start(self) -> None:
        job_read, job_write = os.pipe()
        result_read, result_write = os.pipe()
        self._jobs = Connection(job_write, readable=False)
        self._results = Connection(result_read, writable=False)
        environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path for path in sys.path if path)}
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _CHILD_CODE, str(job_read), str(result_write)],
                pass_fds=(job_read, result_write),
                env=environment,
            )
        finally:
            os.close(job_read)
            os.close(result_write)
        try:
            self._jobs.send(self.encoder_spec)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            raise IndexingFailed(
                f"the dense encoder cannot be handed to the indexing process ({exc}); give the library an encoder "
                "name (e.g. minilm, bge-m3) instead of an encoder object"
            ) from None

    def index(self, job: IndexJob, *, progress: Callable[[float], None], cancelled: Callable[[], bool]) -> None:
        """Index one book into the disk cache. ``progress(fraction)`` hears how far it got;
        ``cancelled()`` is asked every ``POLL_S``: when it turns true the process is killed and
        ``IndexingCancelled`` raised. A failure raises ``IndexingFailed`` with the reason."""
        if self._process is None or self._process.poll() is not None:
            self.kill()
            try:
                self._start()
            except (OSError, IndexingFailed) as exc:
                self.kill()
                if isinstance(exc, IndexingFailed):
                    raise
                raise IndexingFailed(f"the indexing process could not start ({exc})") from None
        self._jobs.send(job)
        while True:
            if cancelled():
                self.kill()
                raise IndexingCancelled(job.source)
            if not self._results.poll(POLL_S):
                if self._process.poll() is not None:
                    raise IndexingFailed(self._died())
                continue
            try:
                kind, value = self._results.recv()
            except EOFError:
                raise IndexingFailed(self._died()) from None
            if kind == "progress":
                progress(value)
            elif kind == "done":
                return
            else:
                raise IndexingFailed(value)

    def _died(self) -> str:
        code = self._process.wait()
        self.kill()
        return (
            f"the indexing process ended unexpectedly (exit code {code}); out of memory? The server log may say "
            "more; delete the book and upload it again"
        )

    def kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
        for connection in (self._jobs, self._results):
            if connection is not None:
                connection.close()
        self._process = self._jobs = self._results = None

    def stop(self, timeout: float = 5.0) -> None:
        """Let an idle process end by itself; kill it when it does not within ``timeout``."""
        if self._process is None:
            return
        try:
            self._jobs.send(None)
            self._process.wait(timeout)
        except (OSError, subprocess.TimeoutExpired):  # gone already, or stuck
            pass
        self.kill()
