"""The local server's configuration (``clueweaver serve --config configs/serve.yaml``), as data.

Kept apart from ``clueweaver.serving.reading_room`` so the command line can build its flags (one per
field, ``clueweaver.core.config.add_config_arguments``) without importing the pipeline. The fields and
the one-GPU and two-GPU layouts are explained in docs/serving.md.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clueweaver.core.validation import described
from clueweaver.serving.library import DEFAULT_MAX_UPLOAD_BYTES


@dataclass
class ModelsConfig:
    """Which models answer, on which backend (see ``clueweaver.pipeline.models.load_agents``)."""

    backend: str = described("hf | vllm | openai | scripted (the deterministic ScriptedReader: no model)", "hf")
    finder: str | None = described("Finder checkpoint folder or hub id; default Qwen/Qwen3-4B-Instruct-2507", None)
    interpreter: str | None = described("Interpreter checkpoint folder or hub id; default as the Finder", None)
    finder_adapter: str | None = described("Finder LoRA adapter folder over one shared base (multi-LoRA)", None)
    interpreter_adapter: str | None = described("Interpreter LoRA adapter folder over the same base", None)
    options: dict[str, Any] = described("backend options for both agents", factory=dict)
    finder_options: dict[str, Any] = described("the Finder's on top of options (device, base_url)", factory=dict)
    interpreter_options: dict[str, Any] = described("the Interpreter's on top of options", factory=dict)
    sequential: bool = described("two separate models take turns on one GPU (offload / restore)", False)
    smoke_fallback: bool = described("the offline Gemma-3-270M smoke model stands in for unloadable ones", False)


@dataclass
class BatchingConfig:
    max_batch_conversations: int = described("most conversations in one merged generate call", 64)
    max_wait_ms: float = described("how long the engine waits for other questions' calls to join", 10.0)


@dataclass
class LimitsConfig:
    max_upload_mb: float = described("largest book upload, in MiB", DEFAULT_MAX_UPLOAD_BYTES / 2**20)
    max_question_chars: int = described("longest question, in characters", 2000)
    max_option_chars: int = described("longest answer option, in characters", 500)
    question_workers: int = described("questions in progress at once (their model calls share the engine)", 16)
    max_pending_questions: int = described("questions queued and running; more are refused until some finish", 256)


def default_data_dir() -> Path:
    return Path(os.environ.get("CLUEWEAVER_DATA") or Path.home() / ".local" / "share" / "clueweaver")


@dataclass
class ServeConfig:
    """The local server: where it listens, where it keeps its data, which models it runs."""

    host: str = described("address to listen on", "127.0.0.1")
    port: int = described("port to listen on", 8000)
    token: str | None = described("bearer token for /api; $CLUEWEAVER_TOKEN when unset; required off loopback", None)
    data_dir: str | None = described("books and indexes; default $CLUEWEAVER_DATA or ~/.local/share/clueweaver", None)
    encoder: str | None = described("dense encoder of the indexes: auto, none, bge-m3[:PATH], minilm, e5, ...", "auto")
    language: str | None = described(
        "every uploaded book's language (ISO 639-1) unless its upload names one; none: detect it", None
    )
    log_level: str = described("the server's log level: debug, info, warning or error", "info")
    models: ModelsConfig = described("which models answer, on which backend", factory=ModelsConfig)
    pipeline: dict[str, Any] = described("PipelineConfig settings (as in configs/pipeline.yaml)", factory=dict)
    batching: BatchingConfig = described("how model calls of several questions are merged", factory=BatchingConfig)
    limits: LimitsConfig = described("sizes and loads the server refuses beyond", factory=LimitsConfig)

    def resolved_data_dir(self) -> Path:
        return Path(self.data_dir).expanduser() if self.data_dir else default_data_dir()

    def resolved_token(self) -> str | None:
        return self.token or os.environ.get("CLUEWEAVER_TOKEN") or None
