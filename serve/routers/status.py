"""Status routes: the server's health and the reading presets and limits the page offers."""

from __future__ import annotations

from fastapi import APIRouter, Header

from clueweaver.books.language import SUPPORTED_LANGUAGES
from clueweaver.segments.segmenter import PRESETS
from clueweaver.serving.library import BOOK_SUFFIXES
from serve.deps import Config, Room
from serve.errors import ERROR_RESPONSES
from serve.guard import has_bearer_token
from serve.models import Health, Settings

router = APIRouter(tags=["status"], responses=ERROR_RESPONSES)


@router.get("/health", response_model=Health, response_model_exclude_unset=True)
def health(room: Room, config: Config, authorization: str | None = Header(None, include_in_schema=False)):
    """The server's state; the library's counts (books, questions, engine) only with the bearer
    token when the server has one."""
    return room.health(counts=has_bearer_token(authorization, config.resolved_token()))


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
        "languages": list(SUPPORTED_LANGUAGES),
        "default_language": room.library.language,
    }
