"""Word (.docx) and OpenDocument (.odt) files, the form typed transcriptions and case files take: read as
a reader sees them, headings as chapters. The files are built here part by part as Word and LibreOffice
write them (their namespaces, a German Word's localized style ID, a drawing's fallback copy, tracked
deletions, field codes, footnotes), since no office suite runs in the tests."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from clueweaver.books.narrative import NarrativeError, load_narrative

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
MC = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
STYLES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles {W}>
  <w:style w:type="paragraph" w:default="1" w:styleId="Standard"><w:name w:val="Normal"/></w:style>
  <w:style w:type="paragraph" w:styleId="Titel"><w:name w:val="Title"/></w:style>
  <w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>
  <w:style w:type="paragraph" w:styleId="Verzeichnis1"><w:name w:val="toc 1"/></w:style>
  <w:style w:type="paragraph" w:styleId="Kapitel"><w:name w:val="Kapitel"/>
    <w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
</w:styles>"""
CORE = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
 xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Akte Müller</dc:title></cp:coreProperties>"""
FOOTNOTES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes {W}>
  <w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
  <w:footnote w:id="1"><w:p><w:r><w:t>Polizeibericht, S. 4.</w:t></w:r></w:p></w:footnote>
</w:footnotes>"""


def paragraph(text: str, style: str | None = None) -> str:
    properties = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{properties}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def word_document(body: str) -> str:
    declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    return f"{declaration}<w:document {W} {MC}><w:body>{body}</w:body></w:document>"


def write_zip(path: Path, parts: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:  # as Word and LibreOffice pack them
        for name, content in parts.items():
            archive.writestr(name, content)
    return path


CASE_FILE = "".join(
    [
        paragraph("Akte Müller", "Titel"),
        '<w:sdt><w:sdtContent><w:p><w:pPr><w:pStyle w:val="Verzeichnis1"/></w:pPr><w:r><w:t>Der Fund</w:t></w:r>'
        "<w:r><w:tab/><w:t>3</w:t></w:r></w:p></w:sdtContent></w:sdt>",  # Word's table of contents: left out
        paragraph("Der Fund", "berschrift1"),  # German Word's ID for its "heading 1" style
        '<w:p><w:r><w:t xml:space="preserve">Er rief sofort die </w:t></w:r><w:r><w:rPr><w:b/></w:rPr>'
        "<w:t>Polizei</w:t></w:r><w:del><w:r><w:delText>nicht</w:delText></w:r></w:del><w:r><w:t>.</w:t></w:r>"
        '<w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:tab/><w:t>Dann wartete er.</w:t></w:r></w:p>',
        '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE '
        '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Seite drei.</w:t></w:r></w:p>',
        "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Zeuge</w:t></w:r></w:p></w:tc>"
        "<w:tc><w:p><w:r><w:t>Hans Brandt</w:t></w:r></w:p></w:tc></w:tr></w:tbl>",
        "<w:p><w:r><mc:AlternateContent><mc:Choice><w:drawing><w:txbxContent><w:p><w:r>"
        "<w:t>Notiz am Rand</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice><mc:Fallback><w:pict>"
        "<w:txbxContent><w:p><w:r><w:t>Notiz am Rand</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r></w:p>",
        paragraph("Die Befragung", "Kapitel"),  # a custom style that sets an outline level
        '<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Der Förster</w:t></w:r></w:p>',
        paragraph("Der Förster sagte aus, er habe niemanden gesehen."),
    ]
)


def test_a_word_case_file_reads_as_its_reader_sees_it_with_its_headings_as_chapters(tmp_path):
    parts = {
        "[Content_Types].xml": "<Types/>",
        "word/document.xml": word_document(CASE_FILE),
        "word/styles.xml": STYLES,
        "word/footnotes.xml": FOOTNOTES,
        "docProps/core.xml": CORE,
    }
    narrative = load_narrative(write_zip(tmp_path / "akte.docx", parts))
    assert narrative.title == "Akte Müller"
    assert [p.text for p in narrative.paragraphs] == [
        "Akte Müller",
        "Der Fund",
        "Er rief sofort die Polizei. Dann wartete er.",  # the deleted word and the note's mark are not read
        "Seite drei.",  # the field's code (PAGE) is not, its shown result is
        "Zeuge",
        "Hans Brandt",
        "Notiz am Rand",  # a text box once, not again from the drawing's fallback copy
        "Die Befragung",
        "Der Förster",
        "Der Förster sagte aus, er habe niemanden gesehen.",
        "Polizeibericht, S. 4.",  # the footnote follows the text; the separator rule is no paragraph
    ]
    assert [c.title for c in narrative.chapters] == ["Der Fund", "Die Befragung", "Der Förster"]
    assert [p.id for p in narrative.paragraphs if p.is_heading] == [1, 7, 8]
    del parts["docProps/core.xml"]  # Word leaves a document's title property empty unless it is filled in
    untitled = write_zip(
        tmp_path / "untitled.docx",
        {**parts, "word/document.xml": word_document(CASE_FILE.replace(paragraph("Akte Müller", "Titel"), ""))},
    )
    assert load_narrative(untitled).title == "untitled"  # no title property, no paragraph in the Title style
    assert load_narrative(write_zip(tmp_path / "styled.docx", parts)).title == "Akte Müller"  # its Title paragraph


ODF = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)
CONTENT = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {ODF}><office:body><office:text>
<text:tracked-changes><text:changed-region><text:deletion><text:p>supprimé</text:p></text:deletion>
</text:changed-region></text:tracked-changes>
<text:h text:outline-level="1">Chapitre premier</text:h>
<text:p>Le garde trouva le corps<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation>
<text:note-body><text:p>Rapport de police, p. 4.</text:p></text:note-body></text:note> au bord<text:s text:c="3"/>de la
<text:span>rivière.</text:span><text:line-break/>Il appela la police.</text:p>
<text:list><text:list-item><text:p>Témoin : Jean Brun</text:p></text:list-item></text:list>
<text:h text:outline-level="1">Chapitre II</text:h>
<text:p>Le garde déclara n'avoir vu personne.</text:p>
</office:text></office:body></office:document-content>"""
META = """<?xml version="1.0" encoding="UTF-8"?>
<office:document-meta xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta><dc:title>Le dossier Dupont</dc:title></office:meta>
</office:document-meta>"""


def test_an_opendocument_text_reads_its_headings_lists_and_notes(tmp_path):
    parts = {"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": CONTENT, "meta.xml": META}
    narrative = load_narrative(write_zip(tmp_path / "dossier.odt", parts))
    assert narrative.title == "Le dossier Dupont"
    assert [p.text for p in narrative.paragraphs] == [
        "Chapitre premier",
        "Le garde trouva le corps au bord de la rivière. Il appela la police.",
        "Témoin : Jean Brun",
        "Chapitre II",
        "Le garde déclara n'avoir vu personne.",
        "Rapport de police, p. 4.",
    ]
    assert [c.label for c in narrative.chapters] == ["1", "2"]


@pytest.mark.parametrize(
    "name, parts, message",
    [
        ("notes.docx", {"word/other.xml": "<x/>"}, r"holds no word/document.xml, so it is no Word document \(.docx\)"),
        ("notes.odt", {"meta.xml": META}, r"holds no content.xml, so it is no OpenDocument text \(.odt\)"),
        ("broken.docx", {"word/document.xml": "<w:document"}, "not a readable Word document"),
        ("empty.docx", {"word/document.xml": word_document("<w:p/>")}, "has no text paragraphs"),
    ],
)
def test_a_file_that_is_no_office_document_is_an_error_naming_it(tmp_path, name, parts, message):
    with pytest.raises(NarrativeError, match=message) as caught:
        load_narrative(write_zip(tmp_path / name, parts))
    assert name in str(caught.value)


def test_a_damaged_or_oversized_office_document_is_refused_saying_why(tmp_path, monkeypatch):
    path = write_zip(tmp_path / "akte.docx", {"word/document.xml": word_document(paragraph("Text. " * 200))})
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        start = archive.infolist()[0].header_offset + 30 + len("word/document.xml")
    data[start + 40 : start + 48] = b"\xff" * 8  # inside the compressed XML: zlib cannot inflate it
    damaged = tmp_path / "damaged.docx"
    damaged.write_bytes(bytes(data))
    with pytest.raises(NarrativeError, match="damaged.docx: not a readable Word document"):
        load_narrative(damaged)
    declared = word_document(paragraph("Text.")).replace('encoding="UTF-8"', 'encoding="klingon"')
    unknown = write_zip(tmp_path / "unknown.docx", {"word/document.xml": declared})
    with pytest.raises(NarrativeError, match=r"declares an unknown encoding: klingon\)$"):  # --encoding cannot help
        load_narrative(unknown)
    monkeypatch.setattr("clueweaver.books.office.MAX_UNPACKED_BYTES", 1000)
    with pytest.raises(NarrativeError, match="akte.docx: unpacks to more than 1,000 bytes of XML"):
        load_narrative(path)


def test_an_office_document_is_not_a_zip_of_any_kind_nor_read_in_a_given_encoding(tmp_path):
    path = tmp_path / "akte.docx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(NarrativeError, match="akte.docx: not a readable Word document"):
        load_narrative(path)
    write_zip(path, {"word/document.xml": word_document(paragraph("Text."))})
    with pytest.raises(NarrativeError, match="a Word or OpenDocument file's XML declares its own"):
        load_narrative(path, encoding="cp1252")
