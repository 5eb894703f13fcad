"""A PDF's text layer read as a book (``clueweaver.books.pdf``): paragraphs where the layout begins them,
running heads and page numbers left out, words hyphenated at a line's end made whole, and the files it
cannot read refused with what to do. The PDFs are written here, each line of text at the place a
typesetter would set it, in Helvetica (a font every PDF reader has)."""

import io
import zipfile

import pytest
from pypdf import PdfReader, PdfWriter

from clueweaver.books.errors import NarrativeError
from clueweaver.books.narrative import load_narrative
from clueweaver.books.pdf import read_pdf

# points: the body's left edge, a first line's, the first line, line to line
LEFT, INDENT, TOP, LEADING = 72, 90, 720, 14


def _escaped(text: str) -> bytes:
    return text.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def pdf_bytes(pages: list[list[tuple[float, float, str]]], title: str | None = None) -> bytes:
    """A PDF whose pages set each (x, y, text) in 11-point Helvetica; a page of no lines has no text."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
               b"/Encoding /WinAnsiEncoding >>"]  # fmt: skip
    kids = []
    for lines in pages:
        stream = b"".join(b"BT /F1 11 Tf %.1f %.1f Td (%s) Tj ET\n" % (x, y, _escaped(text)) for x, y, text in lines)
        objects.append(b"<< /Length %d >>\nstream\n%sendstream" % (len(stream), stream))
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents %d 0 R >>" % len(objects)
        )
        kids.append(b"%d 0 R" % len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    if title:
        objects.append(b"<< /Title (%s) >>" % _escaped(title))
    out, offsets = io.BytesIO(b"%PDF-1.4\n"), []
    out.seek(0, 2)
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    info = b" /Info %d 0 R" % len(objects) if title else b""
    out.write(b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, info, xref))
    return out.getvalue()


def page(lines: list[tuple[float, str]], number: int | None, head: str | None = "THE SILENT HOUSE") -> list:
    """A page: a running head, the lines (x, text) from the top, the page's number at its foot."""
    placed = [(230, 760, head)] if head else []
    placed += [(x, TOP - i * LEADING, text) for i, (x, text) in enumerate(lines)]
    return placed + ([(300, 40, str(number))] if number is not None else [])


INDENTED_BOOK = [
    page([(280, "CHAPTER I"), (LEFT, ""), (INDENT, "The house on Saville-row had stood empty for a year, and"),
          (LEFT, "nobody in the village would say why. Its windows were shuttered and its"),
          (LEFT, "garden had run wild."),
          (INDENT, "Martha Hale, who kept the shop across the road, had seen a light there on"),
          (LEFT, "the night of the storm, moving from room to room as if someone were remar-")], 7),
    page([(LEFT, "kably patient in looking for something they had lost; she told the constable"),
          (LEFT, "so the next morning, and he wrote it down."),
          (INDENT, "He did nothing else with it.")], 8),
    page([(280, "CHAPTER II"), (LEFT, ""),
          (INDENT, "In the spring a buyer came from the city, a thin man with a Saville-"),
          (LEFT, "row address on his card.")], 9),
]  # fmt: skip


def test_paragraphs_are_read_whole_across_pages_without_running_heads_or_page_numbers():
    title, text = read_pdf(pdf_bytes(INDENTED_BOOK, title="The Silent House"), "house.pdf")
    assert title == "The Silent House"
    assert text.split("\n\n") == [
        "CHAPTER I",
        "The house on Saville-row had stood empty for a year, and nobody in the village would say why. Its "
        "windows were shuttered and its garden had run wild.",
        "Martha Hale, who kept the shop across the road, had seen a light there on the night of the storm, moving "
        "from room to room as if someone were remarkably patient in looking for something they had lost; she told "
        "the constable so the next morning, and he wrote it down.",  # across the page, "remar-" "kably" whole
        "He did nothing else with it.",
        "CHAPTER II",
        "In the spring a buyer came from the city, a thin man with a Saville-row address on his card.",  # kept
    ]


def test_a_book_set_without_indents_ends_a_paragraph_at_a_short_line_that_ends_a_sentence():
    lines = [(LEFT, "The letter came on a Tuesday, folded twice and sealed with green wax, and"),
             (LEFT, "Martha read it standing at the window while the kettle boiled dry."),
             (LEFT, "It was not signed."),
             (LEFT, "She burned it that evening, though she had learned every word of it by heart"),
             (LEFT, "long before the candle was lit.")]  # fmt: skip
    more = ["Nobody asked her about it again.", "The winter was long.", "In March the road opened."]
    pages = [page(lines, 1)] + [page([(LEFT, line)], n) for n, line in enumerate(more, start=2)]
    _, text = read_pdf(pdf_bytes(pages), "x.pdf")
    assert text.split("\n\n") == [
        "The letter came on a Tuesday, folded twice and sealed with green wax, and Martha read it standing at the "
        "window while the kettle boiled dry.",
        "It was not signed.",
        "She burned it that evening, though she had learned every word of it by heart long before the candle was lit.",
        *more,
    ]


def test_a_number_at_a_pages_top_is_its_page_number_only_when_the_pages_count_on_from_it():
    def lines(n: int) -> list:
        story = [
            (INDENT, f"Paragraph {'ABCDE'[n]} of the story, filling the page from one side to the"),
            (LEFT, f"end of {'ABCDE'[n]}."),
        ]
        return page(story, None, head=None)

    pages = [[(300, 760, str(n + 11))] + lines(n) for n in range(4)]  # folios 11-14 at the top
    pages.append([(300, 760, "3")] + lines(4))  # a chapter's "3", not page 15
    paragraphs = read_pdf(pdf_bytes(pages), "x.pdf")[1].split("\n\n")
    assert paragraphs[4] == "3" and [p[:11] for p in paragraphs[:4] + paragraphs[5:]] == [
        f"Paragraph {letter}" for letter in "ABCDE"
    ]


def test_a_page_set_in_two_columns_is_read_one_column_after_the_other():
    columns = [
        ["The ferry left at dawn, and the", "river was grey with mist.", ">Nobody on board spoke of", "the house.",
         ">The boatman kept his eyes on", "the water and his hands on the", "rope, as he had done for forty",
         "years."],
        [">At noon the mist lifted and", "the far bank came into view,", "green and empty.",
         ">Martha was waiting there,", "her shawl pulled close against", "the wind, and she did not wave",
         "when she saw them, nor call out", "across the water."],
    ]  # fmt: skip
    placed = [
        (x + (18 if text.startswith(">") else 0), TOP - row * LEADING, text.lstrip(">"))
        for x, column in zip((LEFT, 320), columns)
        for row, text in enumerate(column)
    ]
    _, text = read_pdf(pdf_bytes([placed]), "x.pdf")
    assert text.split("\n\n") == [
        "The ferry left at dawn, and the river was grey with mist.",
        "Nobody on board spoke of the house.",
        "The boatman kept his eyes on the water and his hands on the rope, as he had done for forty years.",
        "At noon the mist lifted and the far bank came into view, green and empty.",
        "Martha was waiting there, her shawl pulled close against the wind, and she did not wave when she saw "
        "them, nor call out across the water.",
    ]


def test_the_file_reads_as_a_book_with_its_chapters_and_a_placeholder_title_names_nothing(tmp_path):
    book = tmp_path / "silent_house.pdf"
    book.write_bytes(pdf_bytes(INDENTED_BOOK, title="Microsoft Word - draft3.docx"))
    narrative = load_narrative(book)
    assert narrative.title == "silent_house" and [c.label for c in narrative.chapters] == ["1", "2"]
    packed = tmp_path / "silent_house.zip"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.write(book, "silent_house.pdf")
    assert [p.text for p in load_narrative(packed).paragraphs] == [p.text for p in narrative.paragraphs]


def test_files_it_cannot_read_are_refused_with_what_to_do(tmp_path):
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(pdf_bytes([[], []]))
    with pytest.raises(NarrativeError, match="no text layer .* 2 page images.*OCR"):
        load_narrative(scan)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes(INDENTED_BOOK))))
    writer.encrypt("secret", algorithm="RC4-128")
    locked = tmp_path / "locked.pdf"
    writer.write(locked)
    with pytest.raises(NarrativeError, match="encrypted; save an unprotected copy"):
        load_narrative(locked)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nnot a PDF at all")
    with pytest.raises(NarrativeError, match="broken.pdf: not a readable PDF"):
        load_narrative(broken)
    with pytest.raises(NarrativeError, match="an encoding \\(latin-1\\).*a PDF's text layer is Unicode"):
        load_narrative(scan, encoding="latin-1")
    packed = tmp_path / "scan.zip"
    with zipfile.ZipFile(packed, "w") as archive:
        archive.write(scan, "scan.pdf")
    with pytest.raises(NarrativeError, match="an encoding \\(latin-1\\).*a PDF's text layer is Unicode"):
        load_narrative(packed, encoding="latin-1")
