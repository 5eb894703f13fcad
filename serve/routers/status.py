"""Status routes: the server's health and the reading presets and limits the page offers."""

from __future__ import annotations

from fastapi import APIRouter

from clueweaver.library import BOOK_SUFFIXES
from clueweaver.segment import PRESETS
from serve.deps import Config, Room
from serve.errors import ERROR_RESPONSES
from serve.models import Health, Settings

router = APIRouter(tags=["status"], responses=ERROR_RESPONSES)


@router.get("/health", response_model=Health)
def health(room: Room):
    return room.health()


@router.get("/api/presets", response_model=Settings)
def presets(room: Room, config: Config):
    default = room.pipeline_config
    return {
        "presets": {name: {k: v for k, v in vars(p).items() if k != "name"} for name, p in PRESETS.items()},
        "default_preset": default.preset.name,
        "self_calibration": default.self_calibration,
        "limits": {
            "max_upload_mb": config.limits.max_upload_mb,
            "max_question_chars": config.limits.max_question_chars,
            "max_option_chars": config.limits.max_option_chars,
            "formats": list(BOOK_SUFFIXES),
        },
        "models": room.agents.notes,
    }
