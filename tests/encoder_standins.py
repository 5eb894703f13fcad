"""Dense encoders for tests of indexing: picklable (the library indexes in a separate process, which
receives the encoder) and light to import there.

- ``GatedEncoder`` waits, while embedding passages that contain its marker, until its gate file
  exists, so a test sees a book in the middle of indexing for as long as it needs.
- ``BusyEncoder`` holds the CPU (and the GIL) for a fixed time per text, like a real encoder on a
  CPU, so a test sees whether questions wait on another book's indexing.
"""

from __future__ import annotations

import time
import zlib
from pathlib import Path

import numpy as np

DIMENSIONS = 16


def word_vectors(texts) -> np.ndarray:
    """Bag-of-words vectors hashed into a few dimensions (the same in every process)."""
    vectors = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            vectors[row, zlib.crc32(word.encode()) % DIMENSIONS] += 1.0
    vectors[:, 0] += 1e-3  # no all-zero row
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


class GatedEncoder:
    name = "gated-test-encoder"

    def __init__(self, gate: Path, *, marker: str = "", pause_s: float = 0.0, timeout_s: float = 60.0):
        self.gate, self.marker, self.pause_s, self.timeout_s = str(gate), marker, pause_s, timeout_s

    def encode(self, texts, *, is_query=False, show_progress=False):
        if not is_query and any(self.marker in text for text in texts):
            deadline = time.monotonic() + self.timeout_s
            while not Path(self.gate).exists():
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the test never opened the gate {self.gate}")
                time.sleep(0.01)
            time.sleep(self.pause_s)
        return word_vectors(texts)


class BusyEncoder:
    name = "busy-test-encoder"

    def __init__(self, seconds_per_text: float):
        self.seconds_per_text = seconds_per_text

    def encode(self, texts, *, is_query=False, show_progress=False):
        for _ in texts:
            deadline = time.perf_counter() + self.seconds_per_text
            while time.perf_counter() < deadline:  # pure Python: holds the GIL like tokenizing does
                pass
        return word_vectors(texts)


class SlowLoadingEncoder:
    """Loads its "weights" on its first query in each process, which takes until its gate file
    exists: a server's encoder loading at start-up while the test asks. Passages (the indexing
    process) need no loading, so books get indexed meanwhile."""

    name = "slow-loading-test-encoder"

    def __init__(self, gate: Path, *, timeout_s: float = 60.0):
        self.gate, self.timeout_s, self.loaded = str(gate), timeout_s, False

    def encode(self, texts, *, is_query=False, show_progress=False):
        deadline = time.monotonic() + self.timeout_s
        while is_query and not self.loaded and not Path(self.gate).exists():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the test never opened the gate {self.gate}")
            time.sleep(0.01)
        self.loaded = self.loaded or is_query
        return word_vectors(texts)
