"""Book routes: the library (upload, list, get, delete) and each book's text, by chapters and
by numbered paragraphs (what the page shows around a citation)."""

from __future__ import annotations

from fastapi import APIRouter, File, Form, Query, Response, UploadFile

from clueweaver.books.language import SUPPORTED_LANGUAGES
from clueweaver.books.narrative import Narrative, NarrativeError
from clueweaver.serving.library import Library
from serve.deps import Room
from serve.errors import ERROR_RESPONSES, ApiError
from serve.models import Book, BookList, Chapters, Deleted, Paragraphs, UploadedBook

MAX_PARAGRAPHS_PER_REQUEST = 500

router = APIRouter(prefix="/api/books", responses=ERROR_RESPONSES)


@router.get("", tags=["books"], response_model=BookList)
def list_books(room: Room):
    return {"books": [book.to_dict() for book in room.library.books()]}


@router.post(
    "",
    status_code=201,
    tags=["books"],
    response_model=UploadedBook,
    responses={200: {"model": UploadedBook, "description": "the book was already in the library"}},
)
def upload_book(
    room: Room,
    response: Response,
    file: UploadFile = File(
        ..., description="a .txt, .md, .html, .epub, .fb2, TEI .xml, .docx, .odt or .pdf file, or a .zip of one"
    ),
    encoding: str | None = Form(
        None, description="a text file's encoding, e.g. latin-1 or cp1252 (default: UTF-8, else detected)"
    ),
    language: str | None = Form(
        None,
        description=f"the book's language, which retrieval reads it in: one of {', '.join(SUPPORTED_LANGUAGES)} "
        "(default: the server's language setting, else detected from the book)",
    ),
):
    """Add a book. The same text uploaded again returns the book already there (200), with a warning
    when the upload names another language than the one it is read in. A text file
    that is not UTF-8 is read with the encoding given, or else the one detected (the book's
    ``encoding`` says which) when one reads it cleanly; a UTF-8 file with a few stray bytes is read
    as UTF-8 with them replaced, and ``warnings`` says where they were. The book's ``language`` is the one
    given, or else detected."""
    with room.library.receive(file.filename or "") as upload:
        while chunk := file.file.read(1 << 20):
            upload.write(chunk)
        try:
            record, created = upload.register(encoding=encoding, language=language)
        except NarrativeError as exc:
            raise ApiError(422, "unreadable_book", f"{exc}; upload a text, Markdown or EPUB file") from None
    response.status_code = 201 if created else 200
    return {**record.to_dict(), "created": created, "warnings": upload.warnings}


@router.get("/{book_id}", tags=["books"], response_model=Book)
def get_book(room: Room, book_id: str):
    return room.library.book(book_id).to_dict()


@router.delete("/{book_id}", tags=["books"], response_model=Deleted)
def delete_book(room: Room, book_id: str):
    room.library.delete(book_id)
    return {"deleted": book_id}


def _narrative(library: Library, book_id: str) -> Narrative:
    try:
        return library.narrative(book_id)
    except NarrativeError as exc:
        raise ApiError(409, "unreadable_book", f"{exc}; delete the book and upload it again") from None


@router.get("/{book_id}/chapters", tags=["reading"], response_model=Chapters)
def chapters(room: Room, book_id: str):
    book = _narrative(room.library, book_id)
    return {
        "book_id": book_id,
        "chapters": [
            {
                "number": c.number,
                "label": c.label,
                "title": c.title,
                "part": c.part,
                "volume": c.volume,
                "full_title": c.full_title,
                "first_paragraph": c.first_paragraph,
                "last_paragraph": c.last_paragraph,
            }
            for c in book.chapters
        ],
    }


@router.get("/{book_id}/paragraphs", tags=["reading"], response_model=Paragraphs)
def paragraphs(
    room: Room,
    book_id: str,
    start: int = Query(0, ge=0, description="first paragraph ID"),
    end: int | None = Query(
        None,
        ge=0,
        description=f"last paragraph ID (inclusive; default start + 99; at most {MAX_PARAGRAPHS_PER_REQUEST} at once)",
    ),
):
    book = _narrative(room.library, book_id)
    last = len(book) - 1
    if start > last:
        raise ApiError(
            422, "bad_range", f"the book has {len(book)} paragraphs (IDs 0-{last}); start {start} is beyond them"
        )
    end = min(last, start + 99 if end is None else end)
    if end < start:
        raise ApiError(422, "bad_range", f"end {end} is before start {start}")
    if end - start + 1 > MAX_PARAGRAPHS_PER_REQUEST:
        raise ApiError(
            422,
            "bad_range",
            f"ask for at most {MAX_PARAGRAPHS_PER_REQUEST} paragraphs at a time (asked {end - start + 1})",
        )
    return {
        "book_id": book_id,
        "total": len(book),
        "start": start,
        "end": end,
        "paragraphs": [
            {"id": p.id, "text": p.text, "chapter": p.chapter, "is_heading": p.is_heading, "offset": p.start}
            for p in book.paragraphs[start : end + 1]
        ],
    }
