"""Question routes: ask (queued, or answered in the response), a book's past questions, one
question with its answer, citations, packet and trace, and its progress as server-sent events."""

from __future__ import annotations

import asyncio
import json
import time

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse

from clueweaver.books.narrative import NarrativeError
from serve.deps import Room
from serve.errors import ERROR_RESPONSES, ApiError
from serve.models import AskBody, PastQuestions, QuestionQueued, QuestionRecord

_SSE_POLL_S = 0.05
_SSE_KEEPALIVE_S = 15.0
# The event stream's OpenAPI entry (FastAPI describes JSON bodies only).
_EVENTS_RESPONSE = {
    "description": "events named queued, running, stage, done or failed, each with one line of JSON data; "
    "comment lines keep the connection alive",
    "content": {
        "text/event-stream": {
            "schema": {"type": "string"},
            "example": 'event: done\ndata: {"question_id": "…", "answer": "C"}\n\n',
        }
    },
}

router = APIRouter(tags=["questions"], responses=ERROR_RESPONSES)


@router.get("/api/books/{book_id}/questions", response_model=PastQuestions)
def past_questions(room: Room, book_id: str):
    return {"book_id": book_id, "questions": room.library.questions(book_id)}


@router.post(
    "/api/books/{book_id}/questions",
    status_code=202,
    response_model=QuestionQueued,
    responses={200: {"model": QuestionRecord, "description": "answered (wait=true)"}},
)
async def ask(
    room: Room,
    book_id: str,
    body: AskBody,
    wait: bool = Query(False, description="answer in this response"),
):
    """Ask a question or check a claim. The answer comes in GET /api/questions/{id} (progress in
    its /events stream), or in this response with wait=true."""
    try:
        job = await run_in_threadpool(room.ask, book_id, body.request())
    except NarrativeError as exc:
        raise ApiError(422, "bad_chapter_limit", str(exc)) from None
    if not wait:
        return {
            "question_id": job.id,
            "book_id": book_id,
            "status": "queued",
            "url": f"/api/questions/{job.id}",
            "events_url": f"/api/questions/{job.id}/events",
        }
    while not job.finished.is_set():
        await asyncio.sleep(_SSE_POLL_S)
    record = await run_in_threadpool(room.library.question, job.id)
    # the answer is not the route's 202 model: it is checked against its own
    return JSONResponse(QuestionRecord.model_validate(record).model_dump(mode="json"))


@router.get("/api/questions/{question_id}", response_model=QuestionRecord)
def get_question(room: Room, question_id: str):
    return room.library.question(question_id)


@router.get("/api/questions/{question_id}/events", response_class=StreamingResponse, responses={200: _EVENTS_RESPONSE})
async def question_events(room: Room, question_id: str):
    """Server-sent events: queued, running, stage (each pipeline stage started/done, with
    timings), then done or failed. Past events are replayed first."""
    record = await run_in_threadpool(room.library.question, question_id)
    job = room.job(question_id)

    async def stream():
        if job is None:  # answered before this server started
            if record["status"] == "done":
                yield _sse("done", {"question_id": question_id, "answer": record["result"]["answer"]})
            else:
                yield _sse("failed", {"question_id": question_id, "error": record["error"] or record["status"]})
            return
        seq, beat = -1, time.monotonic()
        while True:
            for event in job.events_after(seq):
                seq = event["seq"]
                yield _sse(event["event"], event["data"])
                if event["event"] in ("done", "failed"):
                    return
            if time.monotonic() - beat > _SSE_KEEPALIVE_S:
                beat = time.monotonic()
                yield ": keep-alive\n\n"
            await asyncio.sleep(_SSE_POLL_S)

    return StreamingResponse(
        stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


def _sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
