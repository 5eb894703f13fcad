"""One generation engine shared by every question: many callers, merged calls, one owner.

A server answers many questions at once, each in its own thread through the ordinary pipeline,
but the models are one resource. ``GenerationEngine`` runs one thread that is the only caller of
the model backends; callers get ``EngineBackend`` proxies with the backend interface, whose
``generate`` enqueues the conversations and waits for its own results.

The engine takes the oldest pending request, waits up to ``max_wait_s`` for company, and merges
every pending request for the same backend, sampling settings and adapter into ONE ``generate``
call (up to ``max_batch_conversations`` conversations; a larger request goes alone). So the
Finder segments of twenty questions asked together go out as one batch, and so do their
Interpreter calls. Answers cannot mix: each caller gets back exactly the slice it submitted. When
a merged call raises (say one caller sent a malformed conversation), each request is retried on
its own so the error reaches only the caller that caused it.

``sequential``: the backends are separate models that do not fit on the device together. Before a
call the engine offloads every other backend (``offload()``: weights to host memory) and restores
the one it needs (``restore()``), so one model is on the GPU at a time; since calls are merged
across questions, a batch of questions costs one swap per phase, not one per question.

Callers may tag their requests (``engine_tag.set(question_id)`` in their thread); the engine's
``stats`` and ``recent_calls`` record which tags shared each call.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from clueweaver.backends.base import BackendError, Conversation, Generation, GenerationBackend, SamplingConfig

log = logging.getLogger(__name__)

# Who is asking (a question ID), set by the caller's thread; recorded with each merged call.
engine_tag: ContextVar[str | None] = ContextVar("clueweaver_engine_tag", default=None)


@dataclass
class _Request:
    backend: GenerationBackend | None  # None: an exclusive job (``fn``)
    conversations: list[Conversation]
    sampling: SamplingConfig | None
    adapter: str | None
    tag: str | None
    future: Future = field(default_factory=Future)
    enqueued: float = field(default_factory=time.monotonic)
    fn: Callable[[], Any] | None = None

    @property
    def key(self) -> tuple | None:
        """Requests with equal keys can share one generate call."""
        return None if self.fn else (id(self.backend), self.sampling, self.adapter)


@dataclass
class EngineStats:
    calls: int = 0  # generate calls made on the backends
    requests: int = 0  # generate requests served
    conversations: int = 0
    merged_calls: int = 0  # calls that served more than one request
    largest_call: int = 0  # most conversations in one call
    most_requests_in_a_call: int = 0
    swaps: int = 0  # sequential mode: models brought back onto the device
    errors: int = 0

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class CallRecord:
    """One generate call the engine made: whose requests it merged and how big it was."""

    backend: str
    adapter: str | None
    tags: tuple[str | None, ...]  # one per merged request, in order
    conversations: int
    seconds: float


class GenerationEngine:
    """The single owner of the model backends (see the module docstring)."""

    def __init__(
        self,
        *,
        max_batch_conversations: int = 64,
        max_wait_s: float = 0.01,
        sequential: bool = False,
        history: int = 200,
    ) -> None:
        if max_batch_conversations < 1:
            raise ValueError(f"max_batch_conversations must be >= 1, got {max_batch_conversations}")
        if max_wait_s < 0:
            raise ValueError(f"max_wait_s must be >= 0, got {max_wait_s}")
        self.max_batch_conversations = max_batch_conversations
        self.max_wait_s = max_wait_s
        self.sequential = sequential
        self.stats = EngineStats()
        self.recent_calls: deque[CallRecord] = deque(maxlen=history)
        self._backends: list[GenerationBackend] = []
        self._resident: GenerationBackend | None = None
        self._queue: list[_Request] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="generation-engine", daemon=True)
        self._thread.start()

    # -- callers ---------------------------------------------------------------------------------

    def backend(self, backend: GenerationBackend) -> EngineBackend:
        """A proxy whose calls go through this engine; the engine now owns ``backend``."""
        if not any(known is backend for known in self._backends):
            self._backends.append(backend)
        return EngineBackend(self, backend)

    def _submit(self, request: _Request) -> Any:
        with self._cond:
            if self._closed:
                raise BackendError("the generation engine is shut down")
            self._queue.append(request)
            self._cond.notify_all()
        return request.future.result()

    def generate(
        self,
        backend: GenerationBackend,
        conversations: list[Conversation],
        sampling: SamplingConfig | None = None,
        adapter: str | None = None,
    ) -> list[Generation]:
        """``backend.generate`` run by the engine, possibly merged with other callers' requests."""
        request = _Request(backend, list(conversations), sampling or SamplingConfig(), adapter, engine_tag.get())
        return self._submit(request)

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the engine thread, alone (token counting, anything touching a model)."""
        return self._submit(_Request(None, [], None, None, engine_tag.get(), fn=fn))

    @property
    def pending(self) -> int:
        with self._cond:
            return len(self._queue)

    def close(self, timeout: float | None = 30.0) -> None:
        """Finish the call in progress, fail the requests still queued, stop the thread. The
        backends are not closed (their owner closes them)."""
        with self._cond:
            self._closed = True
            abandoned, self._queue = self._queue, []
            self._cond.notify_all()
        for request in abandoned:
            request.future.set_exception(BackendError("the generation engine was shut down before this request ran"))
        self._thread.join(timeout)

    # -- the engine thread -----------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                first = self._queue[0]
                if first.fn is None:
                    deadline = first.enqueued + self.max_wait_s
                    while not self._closed and self._mergeable(first) < self.max_batch_conversations:
                        remaining = deadline - time.monotonic()
                        if remaining <= 0:
                            break
                        self._cond.wait(remaining)
                    if self._closed:
                        return
                batch = self._take(first)
            if first.fn is not None:
                self._run_exclusive(first)
            else:
                self._run(batch)

    def _mergeable(self, first: _Request) -> int:
        return sum(len(r.conversations) for r in self._queue if r.key == first.key)

    def _take(self, first: _Request) -> list[_Request]:
        """The oldest request and the later ones that can share its call, within the size cap."""
        batch, size, rest = [first], len(first.conversations), []
        for request in self._queue[1:]:
            if (
                first.fn is None
                and request.key == first.key
                and size + len(request.conversations) <= self.max_batch_conversations
            ):
                batch.append(request)
                size += len(request.conversations)
            else:
                rest.append(request)
        self._queue = rest
        return batch

    def _run_exclusive(self, request: _Request) -> None:
        try:
            request.future.set_result(request.fn())
        except BaseException as exc:  # delivered to the caller, who decides
            request.future.set_exception(exc)

    def _make_resident(self, backend: GenerationBackend) -> None:
        if not self.sequential or self._resident is backend:
            return
        for other in self._backends:
            if other is not backend:
                other.offload()
        backend.restore()
        if self._resident is not None:
            self.stats.swaps += 1
        self._resident = backend

    def _run(self, batch: list[_Request]) -> None:
        first = batch[0]
        conversations = [c for request in batch for c in request.conversations]
        started = time.perf_counter()
        try:
            self._make_resident(first.backend)
            generations = first.backend.generate(conversations, first.sampling, adapter=first.adapter)
        except Exception as exc:
            if len(batch) > 1:
                log.warning(
                    "a merged generate call of %d requests failed (%s); retrying them one by one", len(batch), exc
                )
                for request in batch:
                    self._run([request])
                return
            self.stats.errors += 1
            first.future.set_exception(exc)
            return
        seconds = time.perf_counter() - started
        self.stats.calls += 1
        self.stats.requests += len(batch)
        self.stats.conversations += len(conversations)
        self.stats.merged_calls += len(batch) > 1
        self.stats.largest_call = max(self.stats.largest_call, len(conversations))
        self.stats.most_requests_in_a_call = max(self.stats.most_requests_in_a_call, len(batch))
        self.recent_calls.append(
            CallRecord(
                first.backend.model, first.adapter, tuple(r.tag for r in batch), len(conversations), round(seconds, 4)
            )
        )
        offset = 0
        for request in batch:
            request.future.set_result(generations[offset : offset + len(request.conversations)])
            offset += len(request.conversations)


class EngineBackend:
    """A backend's interface, served by a ``GenerationEngine``: safe to call from any thread."""

    def __init__(self, engine: GenerationEngine, backend: GenerationBackend) -> None:
        self.engine = engine
        self.inner = backend

    @property
    def kind(self) -> str:
        return self.inner.kind

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def max_model_len(self) -> int:
        return self.inner.max_model_len

    @property
    def adapters(self) -> tuple[str, ...]:
        return self.inner.adapters

    @property
    def stand_in(self) -> str | None:
        return self.inner.stand_in

    def generate(
        self, conversations: list[Conversation], sampling: SamplingConfig | None = None, *, adapter: str | None = None
    ) -> list[Generation]:
        return self.engine.generate(self.inner, conversations, sampling, adapter)

    def count_tokens(self, messages: Conversation) -> int:
        return self.engine.call(lambda: self.inner.count_tokens(messages))

    def check_counting(self) -> None:
        """Whether tokens can be counted is the real backend's to say (nothing runs on the model)."""
        self.inner.check_counting()

    def close(self) -> None:
        """The engine's owner closes the real backend; a proxy has nothing of its own to release."""
