"""The local server's configuration (``clueweaver serve --config configs/serve.yaml``), as data.

Kept apart from ``clueweaver.serving.reading_room`` so the command line can build its flags (one per
field, ``clueweaver.core.config.add_config_arguments``) without importing the pipeline. The fields and
the one-GPU and two-GPU layouts are explained in docs/serving.md.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clueweaver.serving.library import DEFAULT_MAX_UPLOAD_BYTES


@dataclass
class ModelsConfig:
    """Which models answer, on which backend (see ``clueweaver.pipeline.models.load_agents``)."""

    backend: str = "hf"  # hf | vllm | openai | scripted (the deterministic ScriptedReader: no model)
    finder: str | None = None  # checkpoint folder or hub id; default Qwen/Qwen3-4B-Instruct-2507
    interpreter: str | None = None
    finder_adapter: str | None = None  # LoRA adapter folders over one base (multi-LoRA)
    interpreter_adapter: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # backend options for both agents
    finder_options: dict[str, Any] = field(default_factory=dict)  # on top of options (device, base_url)
    interpreter_options: dict[str, Any] = field(default_factory=dict)
    sequential: bool = False  # two separate models take turns on one GPU (offload / restore)
    smoke_fallback: bool = False  # the offline Gemma-3-270M smoke model stands in for unloadable ones


@dataclass
class BatchingConfig:
    max_batch_conversations: int = 64  # most conversations in one merged generate call
    max_wait_ms: float = 10.0  # how long the engine waits for other questions' calls to join


@dataclass
class LimitsConfig:
    max_upload_mb: float = DEFAULT_MAX_UPLOAD_BYTES / 2**20
    max_question_chars: int = 2000
    max_option_chars: int = 500
    question_workers: int = 16  # questions in progress at once (their model calls share the engine)
    max_pending_questions: int = 256  # queued and running; more are refused until some finish


def default_data_dir() -> Path:
    return Path(os.environ.get("CLUEWEAVER_DATA") or Path.home() / ".local" / "share" / "clueweaver")


@dataclass
class ServeConfig:
    """The local server: where it listens, where it keeps its data, which models it runs."""

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None  # bearer token for /api; $CLUEWEAVER_TOKEN when unset; required off loopback
    data_dir: str | None = None  # default $CLUEWEAVER_DATA or ~/.local/share/clueweaver
    encoder: str | None = "auto"  # dense encoder of the indexes: auto, none, bge-m3[:PATH], minilm, ...
    language: str | None = None  # every uploaded book's language (ISO 639-1) unless its upload names one; None: detect
    log_level: str = "info"
    models: ModelsConfig = field(default_factory=ModelsConfig)
    pipeline: dict[str, Any] = field(default_factory=dict)  # PipelineConfig settings (configs/pipeline.yaml)
    batching: BatchingConfig = field(default_factory=BatchingConfig)
    limits: LimitsConfig = field(default_factory=LimitsConfig)

    def resolved_data_dir(self) -> Path:
        return Path(self.data_dir).expanduser() if self.data_dir else default_data_dir()

    def resolved_token(self) -> str | None:
        return self.token or os.environ.get("CLUEWEAVER_TOKEN") or None
