"""FictionBook 2 (.fb2, .fb2.zip), the format Russian and Eastern European libraries serve books in:
its sections are the chapters, a section of sections a part, its notes endnotes, its declared
encoding honoured; a broken file is an error that names it.

The main fixture is the bundled Игрок's first three chapters and first six endnotes written out as
a library's FictionBook is (note references as links, the notes in a body of their own, windows-1251
declared, a cover in <binary>): RusLit's plain text, which the bundled file is, was made from such a
file, and the loader must give back the same paragraphs from it."""

from __future__ import annotations

import re
import zipfile
from xml.sax.saxutils import escape

import pytest

from clueweaver.benchmarks.checks import load_bundled_book
from clueweaver.books.language import detect_language
from clueweaver.books.narrative import NarrativeError, from_text, load_narrative
from clueweaver.retrieval import build_index
from clueweaver.serving.library import Library

FB2_HEAD = (
    '<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">'
    "<description><title-info><genre>prose_rus_classic</genre><author><first-name>Федор</first-name>"
    "<middle-name>Михайлович</middle-name><last-name>Достоевский</last-name></author>"
    "<book-title>{title}</book-title><lang>ru</lang></title-info>"
    "<document-info><program-used>test</program-used><id>igrok-test</id><version>1.0</version></document-info>"
    "</description>"
)
NOTE_REFERENCE = re.compile(r"\[(\d+)\]")


@pytest.fixture(scope="module")
def igrok():
    return load_bundled_book("igrok.ru")


def _linked(text: str) -> str:
    """A paragraph with its "[1]" note references as a FictionBook writes them."""
    return NOTE_REFERENCE.sub(r'<a l:href="#n_\1" type="note">[\1]</a>', escape(text))


def igrok_fb2(igrok, chapters: int = 3, notes: int = 6, parts: bool = False) -> str:
    """The first ``chapters`` chapters and ``notes`` endnotes of the bundled Игрок as a FictionBook;
    with ``parts``, the first two chapters in one part and the rest in another."""
    sections = []
    for chapter in igrok.chapters[:chapters]:
        body = "".join(f"<p>{_linked(igrok[i].text)}</p>" for i in chapter.paragraph_ids[1:])
        sections.append(f"<section><title><p>{escape(chapter.title)}</p></title>{body}</section>")
    if parts:
        sections = [
            f"<section><title><p>Часть первая</p></title>{''.join(sections[:2])}</section>",
            f"<section><title><p>Часть вторая</p></title>{''.join(sections[2:])}</section>",
        ]
    notes_start = next(i for i in range(len(igrok)) if igrok[i].text == "Примечания")
    numbered = [igrok[i].text for i in range(notes_start + 1, notes_start + 1 + 2 * notes)]
    note_sections = "".join(
        f'<section id="n_{number}"><title><p>{number}</p></title><p>{escape(text)}</p></section>'
        for number, text in zip(numbered[::2], numbered[1::2])
    )
    return (
        '<?xml version="1.0" encoding="windows-1251"?>\n'
        + FB2_HEAD.format(title="Игрок")
        + "<body><title><p>Федор Михайлович Достоевский</p><p>Игрок</p></title>"
        + "<epigraph><p>(Из записок молодого человека)</p></epigraph>"
        + "".join(sections)
        + "</body>"
        + f'<body name="notes"><title><p>Примечания</p></title>{note_sections}</body>'
        + '<binary id="cover.jpg" content-type="image/jpeg">/9j/4AAQSkZJRgABAQ==</binary></FictionBook>'
    )


def write(tmp_path, name: str, text: str, encoding: str = "windows-1251"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_a_library_fb2_reads_as_the_plain_text_it_was_made_into(igrok, tmp_path):
    book = load_narrative(write(tmp_path, "igrok.fb2", igrok_fb2(igrok)))
    assert book.title == "Игрок" and detect_language(book.text) == "ru"
    assert [(c.label, c.title) for c in book.chapters] == [("1", "Глава I"), ("2", "Глава II"), ("3", "Глава III")]
    for ours, theirs in zip(book.chapters, igrok.chapters):  # every paragraph as the plain text has it
        assert [book[i].text for i in ours.paragraph_ids][: len(theirs.paragraph_ids)] == [
            igrok[i].text for i in theirs.paragraph_ids
        ]
    assert any("«m-r le comte[1]»" in book[i].text for i in book.chapters[0].paragraph_ids)  # the note's link
    # before chapter I: the book's title line and its epigraph; after chapter III: the endnotes, in it
    assert [p.text for p in book.paragraphs[:2]] == [
        "Федор Михайлович Достоевский Игрок",
        "(Из записок молодого человека)",
    ]
    assert [p.text for p in book.paragraphs[-7:]] == [
        "Примечания", "1 г-н граф (франц.).", "2 г-жа графиня (франц.).", *[p.text for p in book.paragraphs[-4:]],
    ]  # fmt: skip
    assert book.paragraphs[-1].text.startswith("6 ") and book.paragraphs[-1].chapter == 3
    assert not any(p.is_heading for p in book.paragraphs[-7:])


def test_a_file_named_with_dots_and_no_book_title_is_titled_by_its_name(tmp_path):
    text = "<FictionBook><body><section><title><p>Глава I</p></title><p>Текст.</p></section></body></FictionBook>"
    assert load_narrative(write(tmp_path, "Dostoevsky. Igrok.fb2", text, "utf-8")).title == "Dostoevsky. Igrok"


def test_a_zipped_fb2_and_a_utf8_one_read_the_same(igrok, tmp_path):
    plain = load_narrative(write(tmp_path, "igrok.fb2", igrok_fb2(igrok)))
    utf8 = load_narrative(write(tmp_path, "utf8.fb2", igrok_fb2(igrok).replace("windows-1251", "utf-8"), "utf-8"))
    archive = tmp_path / "Dostoevskiy_Igrok.fb2.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("Dostoevskiy_Igrok.fb2", igrok_fb2(igrok).encode("windows-1251"))
    zipped_book = load_narrative(archive)
    assert (
        [p.text for p in zipped_book.paragraphs]
        == [p.text for p in plain.paragraphs]
        == [p.text for p in utf8.paragraphs]
    )
    assert zipped_book.book_id == plain.book_id and zipped_book.chapters == plain.chapters


def test_sections_of_sections_are_parts_read_as_the_plain_text_reads_its_part_headings(igrok, tmp_path):
    book = load_narrative(write(tmp_path, "parts.fb2", igrok_fb2(igrok, parts=True)))
    assert [(c.label, c.part, c.full_title) for c in book.chapters] == [
        ("1", "Часть первая", "Часть первая Глава I"),
        ("2", "Часть первая", "Часть первая — Глава II"),
        ("3", "Часть вторая", "Часть вторая Глава III"),
    ]
    plain = from_text("\n\n".join(p.text for p in book.paragraphs), title="Игрок")
    assert [(c.label, c.title, c.part, c.first_paragraph) for c in plain.chapters] == [
        (c.label, c.title, c.part, c.first_paragraph) for c in book.chapters
    ]


def test_verse_epigraphs_citations_and_scene_breaks_are_paragraphs_of_their_chapter(tmp_path):
    text = (
        '<?xml version="1.0" encoding="utf-8"?>'
        + FB2_HEAD.format(title="Стихи")
        + "<body><section><title><p>Глава первая</p><p>Дорога</p></title>"
        + "<epigraph><poem><stanza><v>Мороз и солнце;</v><v>день чудесный!</v></stanza></poem>"
        + "<text-author>А. Пушкин</text-author></epigraph>"
        + "<p>Мы выехали <emphasis>затемно</emphasis>.</p><empty-line/><subtitle>* * *</subtitle>"
        + '<image l:href="#pic.png"/><cite><p>«Приезжай скорее».</p><text-author>Н.</text-author></cite>'
        + "<poem><title><p>Песня</p></title><stanza><v>Вот мчится тройка</v><v>удалая</v></stanza>"
        + "<stanza><v>Вдоль по дороге</v></stanza></poem>"
        + "<table><tr><th>Станция</th><td>Тверь</td></tr></table></section>"
        + "<section><title><p>Глава вторая</p></title><p>Приехали.</p></section></body></FictionBook>"
    )
    book = load_narrative(write(tmp_path, "verse.fb2", text, "utf-8"))
    assert [c.title for c in book.chapters] == ["Глава первая Дорога", "Глава вторая"]
    assert [p.text for p in book.paragraphs if p.chapter == 1] == [
        "Глава первая Дорога", "Мороз и солнце; день чудесный!", "А. Пушкин", "Мы выехали затемно.", "* * *",
        "«Приезжай скорее».", "Н.", "Песня", "Вот мчится тройка удалая", "Вдоль по дороге", "Станция Тверь",
    ]  # fmt: skip


def test_chapters_written_as_subtitles_of_one_section_are_chapters(tmp_path):
    """How converters of plain texts write a book: one untitled section, its chapter headings as
    <subtitle>s; a subtitle that is a bare numeral (a stanza's "I") stays a paragraph."""
    text = (
        '<?xml version="1.0" encoding="utf-8"?>'
        + FB2_HEAD.format(title="Игрок")
        + "<body><title><p>Игрок</p></title><section><subtitle>Глава первая</subtitle><p>Наконец я вернулся.</p>"
        + "<subtitle>I</subtitle><p>Стихи.</p><subtitle>Глава вторая</subtitle><p>Бабушка приехала.</p>"
        + "</section></body></FictionBook>"
    )
    book = load_narrative(write(tmp_path, "subtitles.fb2", text, "utf-8"))
    assert [(c.label, c.title) for c in book.chapters] == [("1", "Глава первая"), ("2", "Глава вторая")]
    first = ["Глава первая", "Наконец я вернулся.", "I", "Стихи."]
    assert [p.text for p in book.paragraphs if p.chapter == 1] == first


def test_an_fb2_book_is_ranked_by_its_russian_words(igrok, tmp_path):
    book = load_narrative(write(tmp_path, "igrok.fb2", igrok_fb2(igrok)))
    index = build_index(book, encoder=None, cache_dir=tmp_path / "cache")
    best = index.rank(["Мистер Астлей англичанин"])[0][0]
    assert index.language == "ru" and "Астле" in book[best].text


@pytest.mark.parametrize(
    "name, content, message",
    [
        (
            "broken.fb2",
            '<?xml version="1.0"?><FictionBook><body><p>Текст</body></FictionBook>'.encode(),
            "(the XML: mismatched tag: line 1",
        ),
        ("page.fb2", b"<html><body><p>not a book</p></body></html>", "root element is <html>"),
        ("empty.fb2", FB2_HEAD.format(title="x").encode() + b"<body/></FictionBook>", "no text paragraphs"),
        ("bad.fb2.zip", b"PK\x03\x04 not really a zip", "not a readable zip"),
    ],
)
def test_a_broken_fb2_is_an_error_that_names_the_file(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(NarrativeError, match=re.escape(message)) as caught:
        load_narrative(path)
    assert name in str(caught.value)


def test_a_fb2_declaring_the_wrong_encoding_is_an_error_that_names_encoding_and_reads_with_it(igrok, tmp_path):
    path = write(tmp_path, "mislabelled.fb2", igrok_fb2(igrok).replace("windows-1251", "utf-8"))
    with pytest.raises(
        NarrativeError, match=r"mislabelled.fb2: not a readable FictionBook \(the XML: not well-formed"
    ):
        load_narrative(path)
    with pytest.raises(NarrativeError, match="pass --encoding"):
        load_narrative(path)
    read = load_narrative(path, encoding="cp1251")
    assert read.encoding == "cp1251" and read.title == "Игрок" and len(read.chapters) == 3
    assert [p.text for p in read.paragraphs] == [
        p.text for p in load_narrative(write(tmp_path, "ok.fb2", igrok_fb2(igrok))).paragraphs
    ]
    with pytest.raises(NarrativeError, match="cannot decode as utf-8"):
        load_narrative(path, encoding="utf-8")


def test_a_zip_must_hold_exactly_one_fb2(tmp_path):
    path = tmp_path / "two.fb2.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.fb2", "<FictionBook/>")
        archive.writestr("b.fb2", "<FictionBook/>")
    with pytest.raises(NarrativeError, match="holds a.fb2, b.fb2; unpack it"):
        load_narrative(path)


def test_the_reading_room_library_takes_a_zipped_fb2(igrok, tmp_path):
    archive = tmp_path / "upload.fb2.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("igrok.fb2", igrok_fb2(igrok).encode("windows-1251"))
    library = Library(tmp_path / "data", encoder=None)
    try:
        with library.receive("Достоевский — Игрок.fb2.zip") as upload:
            upload.write(archive.read_bytes())
            record, created = upload.register()
        assert created and (record.format, record.title, record.chapters, record.language) == (
            ".zip", "Игрок", 3, "ru",
        )  # fmt: skip
        assert library.narrative(record.book_id).book_id == load_narrative(archive).book_id
    finally:
        library.close()
