"""What the routes read from the application: the reading room and the server's configuration,
which ``create_app`` keeps on ``app.state``. The readers are async because they only read (no
thread is needed)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from clueweaver.serving.config import ServeConfig
from clueweaver.serving.reading_room import ReadingRoom


async def reading_room(request: Request) -> ReadingRoom:
    return request.app.state.room


async def serve_config(request: Request) -> ServeConfig:
    return request.app.state.config


Room = Annotated[ReadingRoom, Depends(reading_room)]
Config = Annotated[ServeConfig, Depends(serve_config)]
