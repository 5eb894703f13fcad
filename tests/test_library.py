"""The persistent library: atomic, idempotent adds; bad files refused with nothing left behind;
recovery after a crash; background indexing with progress; past questions."""

from __future__ import annotations

import sqlite3
import time
import zipfile

import pytest
from encoder_standins import GatedEncoder

from clueweaver.books.narrative import NarrativeError, load_narrative
from clueweaver.retrieval import book_cache_dir
from clueweaver.serving.library import (
    BookNotFound,
    BookNotReady,
    Library,
    QuestionNotFound,
    UnsupportedFormat,
    UploadTooLarge,
)

BOOK = (
    "# Chapter 1: Arrival\n\nThe lantern hung by the door.\n\nMara lit it at dusk.\n\n# Chapter 2: Departure\n\nBy "
    "morning the lantern was gone.\n"
)


def add(library, content, name="book.md", chunk=7, encoding=None):
    with library.receive(name) as upload:
        for start in range(0, len(content), chunk):
            upload.write(content[start : start + chunk])
        return upload.register(encoding=encoding)


def leftovers(library):
    """Files outside registered books: what a failed add must not leave."""
    registered = {record.book_id for record in library.books()}
    return [p for p in library.tmp_dir.iterdir()] + [
        p for p in library.books_dir.iterdir() if p.name not in registered
    ]


@pytest.fixture
def library(tmp_path):
    library = Library(tmp_path / "data", encoder=None)
    yield library
    library.close()


def test_a_book_is_added_once_indexed_and_read_back(library):
    record, created = add(library, BOOK.encode())
    assert created and record.title == "book" and record.paragraphs == 5 and record.chapters == 2
    assert record.book_id == load_narrative(library.books_dir / record.book_id / "source.md").book_id
    assert library.wait_until_indexed(record.book_id).index_status == "ready"
    again, created = add(library, BOOK.encode(), name="a copy.md")
    assert not created and again.book_id == record.book_id and again.filename == "book.md"
    assert [b.book_id for b in library.books()] == [record.book_id]
    assert library.narrative(record.book_id)[2].text == "Mara lit it at dusk."
    assert library.index(record.book_id).rank(["lantern"])[0][0] in (1, 4)
    assert (book_cache_dir(record.content_hash, library.index_dir) / "bm25_terms_en.npz").is_file()
    assert record.language == "en"  # detected when the book was added
    assert leftovers(library) == []


@pytest.mark.parametrize(
    "name, content, error, message",
    [
        ("empty.txt", b"", NarrativeError, "empty"),
        ("blank.txt", b"  \n\n  ", NarrativeError, "empty"),
        ("image.txt", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, NarrativeError, "binary"),
        ("utf16.txt", b"\xff\xfeA\x00B", NarrativeError, "cannot be read"),
        ("broken.epub", b"PK\x03\x04 not really a zip", NarrativeError, "EPUB"),
        ("paper.pdf", b"%PDF-1.4", NarrativeError, "not a readable PDF"),
        ("book.mobi", b"BOOKMOBI", UnsupportedFormat, ".mobi"),
        ("noextension", b"text", UnsupportedFormat, "no extension"),
    ],
)
def test_bad_files_are_refused_by_name_and_leave_nothing(library, name, content, error, message):
    with pytest.raises(error, match=message) as caught:
        add(library, content, name=name)
    assert name in str(caught.value) and str(library.tmp_dir) not in str(caught.value)
    assert library.books() == [] and leftovers(library) == []


def test_an_epub_without_text_is_refused(library, tmp_path):
    path = tmp_path / "empty.epub"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip")
    with pytest.raises(NarrativeError, match="empty.epub"):
        add(library, path.read_bytes(), name="empty.epub")
    assert leftovers(library) == []


def test_a_word_document_is_added_titled_by_its_properties_and_read_again_from_the_library(library, tmp_path):
    from test_office_documents import CASE_FILE, CORE, STYLES, word_document, write_zip

    parts = {"word/document.xml": word_document(CASE_FILE), "word/styles.xml": STYLES, "docProps/core.xml": CORE}
    record, created = add(library, write_zip(tmp_path / "akte.docx", parts).read_bytes(), name="akte.docx")
    assert created and (record.title, record.format) == ("Akte Müller", ".docx")
    assert library.narrative(record.book_id).paragraphs[2].text == "Er rief sofort die Polizei. Dann wartete er."


def test_an_upload_over_the_limit_stops_while_it_arrives(tmp_path):
    library = Library(tmp_path / "data", encoder=None, max_upload_bytes=100)
    try:
        with pytest.raises(UploadTooLarge, match="big.txt is larger than the upload limit"):
            add(library, b"word " * 40, name="big.txt", chunk=30)
        assert library.books() == [] and leftovers(library) == []
    finally:
        library.close()


def test_deleting_a_book_removes_its_files_index_and_questions(library):
    record, _ = add(library, BOOK.encode())
    library.wait_until_indexed(record.book_id)
    question_id = library.add_question(record.book_id, {"text": "Who lit it?"})
    (library.nwm_dir / f"{record.book_id}.sqlite").write_bytes(b"store")
    library.delete(record.book_id)
    assert library.books() == []
    assert not (library.books_dir / record.book_id).exists()
    assert not book_cache_dir(record.content_hash, library.index_dir).exists()
    assert not (library.nwm_dir / f"{record.book_id}.sqlite").exists()
    with pytest.raises(QuestionNotFound):
        library.question(question_id)
    with pytest.raises(BookNotFound, match=record.book_id):
        library.delete(record.book_id)
    assert leftovers(library) == []


def test_questions_are_recorded_and_listed_newest_first(library):
    record, _ = add(library, BOOK.encode())
    first = library.add_question(record.book_id, {"text": "first"})
    second = library.add_question(record.book_id, {"text": "second"})
    library.question_started(first)
    library.finish_question(first, result={"answer": "A", "calibration_changed": True})
    library.finish_question(second, error="the model is down")
    assert [q["request"]["text"] for q in library.questions(record.book_id)] == ["second", "first"]
    summary = library.questions(record.book_id)[1]
    assert summary["answer"] == "A" and summary["calibration_changed"] and "result" not in summary
    assert library.question(first)["result"] == {"answer": "A", "calibration_changed": True}
    assert library.question(second)["status"] == "failed" and library.question(second)["error"] == "the model is down"


def test_a_restart_after_a_crash_keeps_whole_books_only(tmp_path):
    data = tmp_path / "data"
    library = Library(data, encoder=None)
    record, _ = add(library, BOOK.encode())
    library.wait_until_indexed(record.book_id)
    asked = library.add_question(record.book_id, {"text": "cut off"})
    library.question_started(asked)
    library.close()
    # A crash between the rename into books/ and the INSERT, and one in the middle of receiving:
    (data / "books" / "0123456789abcdef").mkdir()
    (data / "books" / "0123456789abcdef" / "source.txt").write_text("half registered")
    (data / "tmp" / "upload").mkdir()
    (data / "tmp" / "upload" / "partial.txt").write_text("half received")

    reopened = Library(data, encoder=None)
    try:
        assert [b.book_id for b in reopened.books()] == [record.book_id]
        assert reopened.book(record.book_id).index_status == "ready"
        assert sorted(p.name for p in (data / "books").iterdir()) == [record.book_id]
        assert list((data / "tmp").iterdir()) == []
        interrupted = reopened.question(asked)
        assert interrupted["status"] == "interrupted" and "ask it again" in interrupted["error"]
    finally:
        reopened.close()


def wait_for_status(library, book_id, status, timeout=30.0):
    deadline = time.monotonic() + timeout
    while (record := library.book(book_id)).index_status != status:
        assert time.monotonic() < deadline, f"{book_id} never became {status}: {record}"
        time.sleep(0.01)
    return record


def test_indexing_runs_in_the_background_with_progress_and_resumes_after_a_restart(tmp_path):
    data = tmp_path / "data"
    encoder = GatedEncoder(tmp_path / "gate", pause_s=0.3)
    library = Library(data, encoder=encoder)
    paragraphs = "\n\n".join(f"Paragraph {n} about the lantern." for n in range(600))
    record, _ = add(library, paragraphs.encode(), name="long.txt", chunk=4096)
    try:
        wait_for_status(library, record.book_id, "indexing")
        with pytest.raises(BookNotReady, match="still being indexed"):
            library.index(record.book_id)
    finally:
        library.close(timeout=10)  # stops the book in progress: it stays unfinished
    (tmp_path / "gate").touch()
    reopened = Library(data, encoder=encoder)
    try:
        progress_seen = []
        deadline = time.monotonic() + 60
        while (book := reopened.book(record.book_id)).index_status != "ready":
            assert time.monotonic() < deadline, book
            progress_seen.append(book.index_progress)
        assert reopened.book(record.book_id).index_progress == 1.0
        # 600 paragraphs embedded in chunks, with progress in between
        assert len({p for p in progress_seen if 0 < p < 1}) >= 2 and progress_seen == sorted(progress_seen)
        assert reopened.index(record.book_id).embeddings.shape == (600, 16)
    finally:
        reopened.close()


def test_a_queued_book_says_so_and_deleting_a_book_stops_its_indexing(tmp_path):
    """The first book's indexing never ends by itself (its gate stays closed): deleting it must
    stop it, so that the queued book behind it gets indexed."""
    library = Library(tmp_path / "data", encoder=GatedEncoder(tmp_path / "never-opened", marker="lantern"))
    try:
        stuck, _ = add(library, b"The lantern hung by the door.\n\nMara lit it at dusk.", name="stuck.txt")
        wait_for_status(library, stuck.book_id, "indexing")
        queued, _ = add(library, b"The boat left at dawn.\n\nNobody saw it go.", name="queued.txt")
        assert library.book(queued.book_id).index_status == "queued"
        assert library.book(queued.book_id).index_progress == 0.0
        with pytest.raises(BookNotReady, match="waiting to be indexed"):
            library.index(queued.book_id)
        library.delete(stuck.book_id)
        assert wait_for_status(library, queued.book_id, "ready", timeout=30).index_progress == 1.0
        assert library.index(queued.book_id).rank(["boat"])[0][0] == 0
        assert not book_cache_dir(stuck.content_hash, library.index_dir).exists()
        assert [b.book_id for b in library.books()] == [queued.book_id] and leftovers(library) == []
    finally:
        library.close(timeout=10)


LATIN_1_BOOK = (
    "CHAPTER I\n\nMonsieur Dantès came into Marseilles on the Pharaon; Mercédès waited at the Catalans.\n\n"
    "CHAPTER II\n\nAt the café on the quay the señor spoke of the Château d'If, and of the naïve émigrés."
)


def test_a_latin_1_book_is_read_with_its_detected_encoding_and_again_after_a_restart(tmp_path):
    library = Library(tmp_path / "data", encoder=None)
    try:
        record, created = add(library, LATIN_1_BOOK.encode("latin-1"), name="dantes.txt")
        assert created and record.encoding == "cp1252"
        assert "Dantès" in library.narrative(record.book_id)[1].text
    finally:
        library.close()
    reopened = Library(tmp_path / "data", encoder=None)
    try:
        assert reopened.wait_until_indexed(record.book_id).index_status == "ready"
        assert "Château d'If" in reopened.narrative(record.book_id)[3].text
        assert reopened.index(record.book_id).rank(["café"])[0][0] == 3
        # an encoding named by the uploader wins over detection, and is kept for reading it again
        koi8, _ = add(reopened, "Пролог\n\nФонарь висел у двери.".encode("koi8-r"), name="ru.txt", encoding="koi8-r")
        assert koi8.encoding == "koi8-r" and reopened.narrative(koi8.book_id)[1].text == "Фонарь висел у двери."
    finally:
        reopened.close()


@pytest.mark.parametrize("version, added", [(1, ("encoding", "language")), (2, ("language",))])
def test_an_older_library_gains_the_columns_added_since(tmp_path, version, added):
    data = tmp_path / "data"
    old = Library(data, encoder=None)
    kept, _ = add(old, b"# The lamp\n\nMara lit the lamp at dusk.", name="kept.md")
    old.wait_until_indexed(kept.book_id)
    old.close()
    with sqlite3.connect(data / "library.sqlite") as db:  # back to that schema
        for column in added:
            db.execute(f"ALTER TABLE books DROP COLUMN {column}")
        db.execute(f"PRAGMA user_version={version}")
    db.close()
    library = Library(data, encoder=None)
    try:
        record, _ = add(library, BOOK.encode())
        assert record.encoding == "utf-8" and library.narrative(record.book_id)[2].text == "Mara lit it at dusk."
        assert record.language == "en"
        assert library.book(kept.book_id).language is None  # added before languages: detected when indexed
        assert library.index(kept.book_id).language == "en"
    finally:
        library.close()


class UnpicklableEncoder:
    name = "unpicklable-test-encoder"

    def __init__(self):
        self.encode = lambda texts, **options: None  # a lambda cannot be pickled


def test_an_encoder_the_indexing_process_cannot_receive_fails_the_book_with_a_reason(tmp_path):
    library = Library(tmp_path / "data", encoder=UnpicklableEncoder())
    try:
        for name in ("one.md", "two.md"):  # the indexer lives on after a failure
            record, _ = add(library, BOOK.replace("lantern", name).encode(), name=name)
            failed = library.wait_until_indexed(record.book_id, timeout=30)
            assert failed.index_status == "failed" and "instead of an encoder object" in failed.index_message
    finally:
        library.close()
