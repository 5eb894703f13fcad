"""Packed books: a .zip holding one book file, as Aozora Bunko serves every text and Project
Gutenberg its older and HTML editions, and a gzip-compressed file (the bundled books' form). The
archives are built here in those layouts around real excerpts (``tests/fixtures/books_multilingual``):
an Aozora Bunko card's zip holds its Shift_JIS text (and a figure where the book has one), a
Gutenberg ``-8.zip`` its Latin-1 text, a ``-h.zip`` a folder with the HTML and its images."""

from __future__ import annotations

import gzip
import struct
import zipfile
from pathlib import Path

import pytest

from clueweaver.benchmarks.checks import load_bundled_book
from clueweaver.books import archives
from clueweaver.books.archives import book_suffix
from clueweaver.books.narrative import NarrativeError, load_narrative
from clueweaver.cli import main
from clueweaver.serving.library import Library, UnsupportedFormat, safe_filename

FIXTURES = Path(__file__).parent / "fixtures" / "books_multilingual"
BOOKS = Path(__file__).parent.parent / "clueweaver" / "data" / "books"


def zipped(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def texts(narrative) -> list[str]:
    return [p.text for p in narrative.paragraphs]


def test_an_aozora_bunko_zip_reads_as_its_shift_jis_text(tmp_path):
    raw = (FIXTURES / "kokoro_excerpt.ja.txt").read_bytes()
    plain = load_narrative(FIXTURES / "kokoro_excerpt.ja.txt")
    archive = zipped(tmp_path / "773_ruby_5968.zip", {"kokoro.txt": raw, "fig773_01.png": b"\x89PNG\r\n\x1a\n"})
    book = load_narrative(archive)
    assert texts(book) == texts(plain) and book.chapters == plain.chapters and book.title == "こころ"
    assert (book.encoding, book.encoding_detected) == ("cp932", True)
    assert book.archive_note == "read kokoro.txt, the one book file in 773_ruby_5968.zip; not read: fig773_01.png"
    assert book.source == str(archive)  # the file a reader gave, which a world model's store is keyed by
    assert plain.archive_note is None


def test_gutenberg_zips_read_as_their_texts(tmp_path):
    latin1 = (FIXTURES / "effi_briest_excerpt.de.txt").read_bytes()
    book = load_narrative(zipped(tmp_path / "5323-8.zip", {"5323-8.txt": latin1}))
    plain = load_narrative(FIXTURES / "effi_briest_excerpt.de.txt")
    assert texts(book) == texts(plain) and book.title == plain.title == "Effi Briest"
    assert book.encoding == plain.encoding and book.archive_note.endswith("in 5323-8.zip")
    html = "<html><head><title>The Quiet Harbour</title></head><body><h2>CHAPTER I</h2><p>Nell kept the light.</p>"
    html += '<p><img src="images/cover.jpg"/></p><h2>CHAPTER II</h2><p>The ship came in.</p></body></html>'
    members = {"2600-h/2600-h.htm": html.encode(), "2600-h/images/cover.jpg": b"\xff\xd8\xff", "2600-h/": b""}
    book = load_narrative(zipped(tmp_path / "2600-h.zip", members))
    assert book.title == "The Quiet Harbour" and [c.title for c in book.chapters] == ["CHAPTER I", "CHAPTER II"]
    assert book.archive_note.endswith("not read: 2600-h/images/cover.jpg")


def zipped_unmarked(path: Path, members: dict[bytes, bytes]) -> Path:
    """A zip whose names are stored as given, without the zip's mark for UTF-8 (as a Windows zip tool
    stores them, in the system's codepage): written under ASCII names of the same length, then renamed
    in place, which no checksum covers."""
    placeholders = {f"{n:0{len(name) - 4}d}.txt".encode(): name for n, name in enumerate(members)}
    zipped(path, {placeholder.decode(): members[name] for placeholder, name in placeholders.items()})
    data = path.read_bytes()
    for placeholder, name in placeholders.items():
        data = data.replace(placeholder, name)
    return path.write_bytes(data) and path


def test_a_zip_from_a_chinese_or_russian_windows_system_names_its_files_readably(tmp_path):
    chapters = "第一回　土不制水\n\n话说山东登州府东门外有一座大山。\n\n第二回　历山山下\n\n到了济南府。\n"
    archive = zipped_unmarked(tmp_path / "laocan.zip", {"老残游记.txt".encode("gbk"): chapters.encode("gbk")})
    book = load_narrative(archive)
    assert (book.encoding, book.title, len(book.chapters)) == ("gb18030", "老残游记", 2)
    assert book.archive_note == "read 老残游记.txt, the one book file in laocan.zip"
    text = "Глава первая\n\nЯ воротился наконец из моей двухнедельной отлучки.\n".encode("cp1251")
    names = {"Игрок.txt".encode("cp866"): text, "Обложка.txt".encode("cp866")[:-4] + b".jpg": b"\xff\xd8"}
    book = load_narrative(zipped_unmarked(tmp_path / "igrok.zip", names), encoding="cp1251")
    assert book.title == "Игрок" and book.archive_note.endswith("igrok.zip; not read: Обложка.jpg")
    linux = zipped_unmarked(tmp_path / "linux.zip", {"こころ.txt".encode(): "一\n\n先生と私。\n".encode()})
    book = load_narrative(linux)
    assert book.title == "こころ"  # unmarked UTF-8, as Info-ZIP writes it


def test_a_gzipped_text_reads_as_the_text_the_package_bundles():
    book = load_narrative(BOOKS / "kokoro.ja.txt.gz")
    assert texts(book) == texts(load_bundled_book("kokoro.ja")) and book.title == "こころ"
    assert book.archive_note is None and book_suffix("kokoro.ja.txt.gz") == ".txt.gz"


def test_a_zip_is_read_with_the_encoding_given_for_its_text(tmp_path):
    text = "Глава первая\n\nАлексей Иванович проиграл всё в рулетку.\n\nГлава вторая\n\nБабушка приехала.\n"
    archive = zipped(tmp_path / "igrok.zip", {"igrok.txt": text.encode("koi8-r")})
    book = load_narrative(archive, encoding="koi8-r")
    assert book.encoding == "koi8-r" and "рулетку" in book.paragraphs[1].text and len(book.chapters) == 2


def test_an_epub_under_a_zip_name_reads_as_an_epub(tmp_path):
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("id1")
    book.set_title("Packed")
    chapter = epub.EpubHtml(title="1", file_name="c1.xhtml")
    chapter.content = "<html><body><h2>Chapter I</h2><p>First paragraph.</p></body></html>"
    book.add_item(chapter)
    book.spine = [chapter]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    path = tmp_path / "download.zip"
    epub.write_epub(str(path), book)
    narrative = load_narrative(path)
    assert narrative.title == "Packed" and texts(narrative) == ["Chapter I", "First paragraph."]
    with pytest.raises(NarrativeError, match="an EPUB's documents declare their own"):
        load_narrative(path, encoding="cp1252")


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"a.txt": b"One.", "b/b.html": b"<p>Two.</p>"}, r"exactly one book file .* holds a.txt, b/b.html; unpack it"),
        ({"cover.jpg": b"\xff\xd8", "book.epub": b"PK"}, r"exactly one book file .* holds cover.jpg, book.epub$"),
        ({}, "holds nothing"),
        ({f"{n}.txt": b"x" for n in range(7)}, r"holds 0.txt, 1.txt, 2.txt, 3.txt, 4.txt and 2 more"),
    ],
)
def test_a_zip_without_exactly_one_book_file_is_an_error_that_lists_it(tmp_path, members, message):
    with pytest.raises(NarrativeError, match=message):
        load_narrative(zipped(tmp_path / "books.zip", members))


def test_what_an_archiver_adds_beside_the_book_is_not_a_book(tmp_path):
    members = {"kokoro.txt": "一\n\n先生と私。\n".encode(), "__MACOSX/._kokoro.txt": b"\x00\x05", ".DS_Store": b"\x00"}
    book = load_narrative(zipped(tmp_path / "kokoro.zip", members))
    assert texts(book)[-1] == "先生と私。" and book.archive_note.endswith("in kokoro.zip")  # nothing else named


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("broken.zip", b"PK\x03\x04 not really a zip", "broken.zip: not a readable zip archive"),
        ("broken.txt.gz", b"\x1f\x8b\x08 not really gzip", "broken.txt.gz: not a readable gzip file"),
        ("plain.txt.gz", b"not gzip at all", "plain.txt.gz: not a readable gzip file"),
        ("book.tar.gz", gzip.compress(b"x"), r"unsupported file type \.tar\.gz; use one of .*\.zip, \.txt\.gz"),
    ],
)
def test_an_unreadable_archive_is_an_error_that_names_it(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(NarrativeError, match=message):
        load_narrative(path)


def _patched_zip(tmp_path, patch) -> Path:
    """A one-book zip whose local header and central directory entry ``patch(data, local, central)`` edits."""
    path = zipped(tmp_path / "book.zip", {"book.txt": b"Chapter 1\n\nThe tide came in."})
    data = bytearray(path.read_bytes())
    patch(data, 0, data.find(b"PK\x01\x02"))
    path.write_bytes(bytes(data))
    return path


def _encrypted(data, local, central):
    data[local + 6] |= 1  # general purpose flag, bit 0: encrypted
    data[central + 8] |= 1


def _deflate64(data, local, central):
    struct.pack_into("<H", data, local + 8, 9)  # method 9, Deflate64: Windows' archives of large files
    struct.pack_into("<H", data, central + 10, 9)


def _before_the_start(data, local, central):
    end = data.find(b"PK\x05\x06")  # the directory's own offset, 9 bytes too far: the member's header at -9
    struct.pack_into("<I", data, end + 16, struct.unpack_from("<I", data, end + 16)[0] + 9)


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        (_encrypted, r"book.zip: the book file is encrypted; unpack it with its password"),
        (_deflate64, r"book.zip: the book file is packed with a compression method Python cannot unpack"),
        (_before_the_start, r"book.zip: not a readable zip archive"),
    ],
)
def test_a_zip_python_cannot_unpack_is_an_error_that_says_why_not_a_traceback(tmp_path, patch, message):
    with pytest.raises(NarrativeError, match=message):
        load_narrative(_patched_zip(tmp_path, patch))


def test_an_archive_that_would_unpack_past_any_book_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(archives, "MAX_UNPACKED_BYTES", 1_000)
    big = b"The tide came in over the flats. " * 100
    with pytest.raises(NarrativeError, match=r"big.txt would unpack to 3,300 bytes, more than any book"):
        load_narrative(zipped(tmp_path / "big.zip", {"big.txt": big}))
    (tmp_path / "big.txt.gz").write_bytes(gzip.compress(big))
    with pytest.raises(NarrativeError, match="big.txt.gz: unpacks to more than 1,000 bytes"):
        load_narrative(tmp_path / "big.txt.gz")


def test_the_command_line_says_which_file_of_a_zip_it_read(tmp_path, capsys):
    raw = (FIXTURES / "kokoro_excerpt.ja.txt").read_bytes()
    archive = zipped(tmp_path / "773_ruby_5968.zip", {"kokoro.txt": raw, "fig773_01.png": b"\x89PNG"})
    assert main(["chapters", str(archive)]) == 0
    out, err = capsys.readouterr()
    assert "note: read kokoro.txt, the one book file in 773_ruby_5968.zip; not read: fig773_01.png" in err
    assert out.startswith("こころ:")


def test_the_reading_room_takes_a_zip_and_says_what_it_read(tmp_path):
    raw = (FIXTURES / "kokoro_excerpt.ja.txt").read_bytes()
    archive = zipped(tmp_path / "773_ruby_5968.zip", {"kokoro.txt": raw})
    library = Library(tmp_path / "data", encoder=None)
    try:
        with library.receive("773_ruby_5968.zip") as upload:
            upload.write(archive.read_bytes())
            record, created = upload.register()
            assert upload.warnings == [
                "read kokoro.txt, the one book file in 773_ruby_5968.zip",
                "773_ruby_5968.zip is not UTF-8; read as cp932 (detected)",
            ]
        read = (record.format, record.title, record.language, record.encoding)
        assert created and read == (".zip", "こころ", "ja", "cp932")
        with pytest.raises(UnsupportedFormat, match=r"kokoro.txt.gz: unsupported file type \.txt\.gz"):
            library.receive("kokoro.txt.gz")
    finally:
        library.close()


def test_a_long_name_keeps_its_whole_type():
    assert safe_filename("Natsume " * 20 + "kokoro.txt.gz") == ("Natsume " * 20)[:113] + ".txt.gz"  # 120 characters
    assert safe_filename("Достоевский " * 20 + "Игрок.fb2.zip") == ("Достоевский " * 20)[:116] + ".zip"
