"""The dense encoder of a server's questions: one instance shared by the question threads (one call
at a time), loadable in the background at start-up so the first question does not wait 20 s for
its weights, with a status the page and ``/health`` show. Indexing has its own, in its own process.
"""

from __future__ import annotations

import logging
import threading
import time

from clueweaver.retrieval import load_encoder

log = logging.getLogger(__name__)


class _SerializedEncoder:
    """A dense encoder shared by the question threads, one call at a time (a fast tokenizer raises
    "Already borrowed" when two threads use it at once). Indexing has its own, in its own process."""

    def __init__(self, encoder) -> None:
        self._encoder = encoder
        self._lock = threading.Lock()
        self.name = encoder.name

    def encode(self, texts, *, is_query: bool = False, show_progress: bool = False):
        with self._lock:
            return self._encoder.encode(texts, is_query=is_query, show_progress=show_progress)


class SharedEncoder:
    """The encoder ``spec`` names (a ``load_encoder`` spec; None or "none" for BM25 alone)."""

    def __init__(self, spec: str | None) -> None:
        self.spec = spec
        self._encoder = None
        self._lock = threading.Lock()
        self._loading: dict = {}  # load_in_background's state: started, seconds, error
        self._loaded = threading.Event()

    def get(self):
        """The encoder (loaded on first use), or None when there is none."""
        if self.spec in (None, "none"):
            return None
        with self._lock:
            if self._encoder is None:
                loaded = load_encoder(self.spec)
                if loaded is None:  # "auto" found no encoder installed
                    self.spec = None
                    return None
                self._encoder = _SerializedEncoder(loaded)
            return self._encoder

    def load_in_background(self) -> None:
        """Load the encoder's weights now, in a thread, rather than in the first question (BGE-M3
        or MiniLM took 20-23 s there). ``encoder_status`` says how far it is; the log says when it
        starts and ends."""
        encoder = self.get()
        if encoder is None:
            return
        self._loading["started"] = time.monotonic()
        threading.Thread(target=self._load, args=(encoder,), name="encoder-loader", daemon=True).start()

    def _load(self, encoder) -> None:
        log.info("loading the dense encoder %s for questions (they wait for it until it is loaded) …", encoder.name)
        state = self._loading
        try:
            encoder.encode(["loading"], is_query=True)  # the encoders load their weights on first use
        except Exception as exc:  # the questions meet the same error; the page says it
            state["error"] = f"{type(exc).__name__}: {exc}"
            log.exception("loading the dense encoder %s failed", encoder.name)
        state["seconds"] = round(time.monotonic() - state["started"], 1)
        self._loaded.set()
        if "error" not in state:
            log.info("dense encoder %s loaded in %.1f s", encoder.name, state["seconds"])

    def status(self) -> dict:
        """The encoder's name and state: none, loading (with the seconds so far), ready, failed (with
        the error), or lazy (loaded by the first question: ``load_in_background`` was not called)."""
        loading = self._loading
        if self.spec in (None, "none"):  # "auto" that found no encoder is None by now
            return {"name": "none", "status": "none"}
        name = self._encoder.name if self._encoder is not None else str(self.spec)
        if "started" not in loading:
            return {"name": name, "status": "lazy"}
        if not self._loaded.is_set():
            return {"name": name, "status": "loading", "seconds": round(time.monotonic() - loading["started"], 1)}
        if "error" in loading:
            return {"name": name, "status": "failed", "error": loading["error"]}
        return {"name": name, "status": "ready", "seconds": loading["seconds"]}

    def wait(self) -> None:
        """Block until ``load_in_background`` has finished (at once when it was not called)."""
        if "started" in self._loading:
            self._loaded.wait()
