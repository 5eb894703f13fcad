import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clueweaver.benchmarks.checks import load_bundled_book
from clueweaver.books.encoding import decode_text, detect_encoding
from clueweaver.books.headers import strip_gutenberg
from clueweaver.books.language import SUPPORTED_LANGUAGES, UNDETERMINED
from clueweaver.books.narrative import NarrativeError, from_paragraphs, from_text, load_narrative
from clueweaver.books.sentences import split_sentences
from clueweaver.core.surrogates import LONE_SURROGATE
from clueweaver.retrieval.analyzers import analyzer_for
from tests.conftest import shared_path

BOOK = """The Project Gutenberg eBook of A Test

*** START OF THE PROJECT GUTENBERG EBOOK A TEST ***

VOLUME I. CHAPTER I

It was a dark night,
and the rain fell.

“Who’s there?” asked Ann.

CHAPTER II.
THE VISITOR

A man stood at the door.

ADVENTURE III. THE RED-HEADED LEAGUE

He had red hair.

*** END OF THE PROJECT GUTENBERG EBOOK A TEST ***

Licence text that must not be read.
"""


def test_text_paragraphs_offsets_and_chapters():
    n = from_text(BOOK, title="test")
    texts = [p.text for p in n.paragraphs]
    assert "Licence text that must not be read." not in texts
    assert texts[1] == "It was a dark night, and the rain fell."  # wrapped lines joined
    assert [p.id for p in n.paragraphs] == list(range(len(n)))
    for p in n.paragraphs:
        assert n.text[p.start : p.end] == p.text
    assert [c.title for c in n.chapters] == [
        "VOLUME I. CHAPTER I",
        "CHAPTER II. THE VISITOR",
        "ADVENTURE III. THE RED-HEADED LEAGUE",
    ]
    assert [p.chapter for p in n.paragraphs] == [1, 1, 1, 2, 2, 3, 3]
    assert [p.is_heading for p in n.paragraphs] == [True, False, False, True, False, True, False]
    assert n.last_paragraph_of_chapter(2) == n.chapters[1].last_paragraph
    assert n.render([1, 2], gap_markers=False).startswith("[1] It was a dark night")
    assert n.render([1, 2]).splitlines() == [
        "[… 1 paragraph omitted …]",
        "[1] It was a dark night, and the rain fell.",
        "[2] “Who’s there?” asked Ann.",
        "[… 4 paragraphs omitted …]",
    ]
    assert "[… 3 paragraphs omitted …]" in n.render([0, 4])


def test_headings_in_common_styles_and_prose_that_is_not_a_heading():
    n = from_paragraphs(
        [
            "Front matter.",
            "CHAPTER IV",
            "Text.",
            "Chapter 12: The Storm",
            "Text.",
            "XIV.",
            "Text.",
            "Chapter one was the best of the book, she said.",
            "CHAPTER FORTY-SEVEN",
            "HARVEST TIME",
            "End.",
        ],
        title="t",
    )
    assert [c.title for c in n.chapters] == [
        "CHAPTER IV",
        "Chapter 12: The Storm",
        "XIV.",
        "CHAPTER FORTY-SEVEN HARVEST TIME",
    ]
    assert n.paragraphs[0].chapter == 0
    assert n.last_paragraph_of_chapter(0) == 0


def test_content_hash_identifies_the_text_not_the_file_format(tmp_path):
    a = from_text("One.\n\nTwo.", title="a")
    b = from_paragraphs(["One.", "Two."], title="b")
    c = from_paragraphs(["One.", "Two!"], title="c")
    assert a.content_hash == b.content_hash != c.content_hash
    path = tmp_path / "book.jsonl"
    a.to_jsonl(path)
    assert load_narrative(path).content_hash == a.content_hash


def test_markdown_headings_start_chapters(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# The Storm\n\nFirst **bold** paragraph.\n\n## Homecoming\n\nSecond.\n", encoding="utf-8")
    n = load_narrative(path)
    assert [(c.label, c.title) for c in n.chapters] == [("1", "The Storm"), ("2", "Homecoming")]
    assert n.paragraphs[1].text == "First bold paragraph." and n.paragraphs[0].is_heading


def test_markdown_headings_are_numbered_as_the_book_numbers_them(tmp_path):
    """A Markdown file's # lines are read as a text's headings are: parts group their chapters, and
    a title or contents heading before the first numbered one is front matter (chapter 0)."""
    body = "The tide came in over the flats while the ferryman counted the crates. " * 5
    path = tmp_path / "novel.md"
    sections = ["# The Tide", "## Contents", "Part One, Part Two", "# Part One", "## Chapter 1", body,
                "## Chapter 2", body, "# Part Two", "## Chapter 1", body]  # fmt: skip
    path.write_text("\n\n".join(sections), encoding="utf-8")
    n = load_narrative(path)
    assert [(c.label, c.part) for c in n.chapters] == [("1.1", "Part One"), ("1.2", "Part One"), ("2.1", "Part Two")]
    assert [p.chapter for p in n.paragraphs[:4]] == [0, 0, 0, 1]  # the part heading opens its first chapter


def test_epub_spine_order_and_gutenberg_boilerplate(tmp_path):
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("id1")
    book.set_title("Epub Test")
    book.set_language("en")
    header = epub.EpubHtml(title="h", file_name="h.xhtml")
    header.content = '<html><body><section id="pg-header"><p>Project Gutenberg licence</p></section></body></html>'
    one = epub.EpubHtml(title="1", file_name="c1.xhtml")
    one.content = (
        "<html><body><h2>Chapter I</h2><p>First paragraph.</p><div><p>Nested <i>text</i>.</p></div></body></html>"
    )
    two = epub.EpubHtml(title="2", file_name="c2.xhtml")
    two.content = "<html><body><h2>Chapter II</h2><p>Second chapter.</p></body></html>"
    for item in (header, one, two):
        book.add_item(item)
    book.spine = [header, two, one][0:1] + [one, two]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    path = tmp_path / "test.epub"
    epub.write_epub(str(path), book)
    n = load_narrative(path)
    assert n.title == "Epub Test"
    assert [p.text for p in n.paragraphs] == [
        "Chapter I",
        "First paragraph.",
        "Nested text.",
        "Chapter II",
        "Second chapter.",
    ]
    assert [c.title for c in n.chapters] == ["Chapter I", "Chapter II"]


def write_navigated_epub(path, bodies: dict[str, str], entries: list[tuple[str, str]]):
    """An EPUB 3 of ``bodies`` (file name: body) in that order, its navigation (in the spine, as some books
    put it) listing ``entries`` (link, title)."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier(path.stem)
    book.set_title("The Tide Book")
    book.set_language("en")
    documents = []
    for name, body in bodies.items():
        document = epub.EpubHtml(title=name, file_name=name)
        document.content = f"<html><body>{body}</body></html>"
        book.add_item(document)
        documents.append(document)
    book.toc = [epub.Link(href, title, f"n{k}") for k, (href, title) in enumerate(entries)]
    book.spine = ["nav", *documents]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    epub.write_epub(str(path), book)
    return path


TIDE = "<p>The tide came in over the flats while the ferryman counted the crates.</p>" * 3


def test_an_epub_that_names_its_chapters_only_in_its_navigation_reads_them_and_not_the_navigation(tmp_path):
    """Converters' EPUBs set a chapter's title in a plain <p>, or leave it to the navigation, and EPUB 3 books
    may put the navigation document in the spine: such a book had one chapter, named by the navigation
    page's heading, and its contents lines as the first paragraphs."""
    bodies = {
        "text/arrival.xhtml": f'<p class="ct">The  Arrival</p>{TIDE}',  # its title in a plain paragraph, once
        "text/letter.xhtml": TIDE,  # no title in the text at all
        "text/letters.xhtml": f'<p id="a">From Bath.</p>{TIDE}<p id="b">From Dover.</p>{TIDE}',  # two entries
    }
    entries = [("text/arrival.xhtml", "The Arrival"), ("text/letter.xhtml", "A Letter from Bath")]
    entries += [("text/letters.xhtml#a", "Bath"), ("text/letters.xhtml#b", "Dover")]
    n = load_narrative(write_navigated_epub(tmp_path / "tide.epub", bodies, entries))
    assert [c.title for c in n.chapters] == ["The Arrival", "A Letter from Bath"]
    assert n.paragraphs[0].text == "The Arrival" and n.paragraphs[1].text.startswith("The tide came in")
    assert not any(p.text in ("Bath", "Dover") for p in n.paragraphs)  # one document, two entries: no title
    assert len(n) == 2 * 4 + 8  # two chapters of a heading and three paragraphs; the letters, eight paragraphs


def test_an_epub_that_marks_its_headings_keeps_them_alone_and_its_title_page_is_no_chapter(tmp_path):
    bodies = {
        "text/title.xhtml": "<p>The Tide Book</p><p>by A. Ferryman</p>",
        "text/one.xhtml": f"<h2>The Arrival</h2>{TIDE}",
        "text/two.xhtml": f"<h2>The Storm</h2>{TIDE}",
    }
    entries = [("text/title.xhtml", "Title Page"), ("text/one.xhtml", "The Arrival"), ("text/two.xhtml", "The Storm")]
    n = load_narrative(write_navigated_epub(tmp_path / "marked.epub", bodies, entries))
    assert [c.title for c in n.chapters] == ["The Arrival", "The Storm"]
    assert [p.text for p in n.paragraphs[:3]] == ["The Tide Book", "by A. Ferryman", "The Arrival"]


def test_an_epub_chapter_is_labelled_as_the_book_numbers_it_after_a_title_and_a_contents_page(tmp_path):
    """An EPUB's h1-h3 headings were each a chapter in reading order: with a title page and a
    contents page before it, 第一回 was chapter 3, and --max-chapter 1 read the title page. They are
    read as a text's headings are: unnumbered ones before the first chapter are front matter."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("hlm")
    book.set_title("红楼梦")
    book.set_language("zh")
    body = "".join(f"<p>{'他走进院子，看见一棵老槐树，树下站着一个穿青布衫的老人。' * 12}</p>" for _ in range(8))
    names = ["第一回 甄士隐梦幻识通灵", "第二回 贾夫人仙逝扬州城", "第三回 托内兄如海荐西宾"]
    sections = [
        "<h1>红楼梦</h1><p>曹雪芹 著</p>",
        "<h2>目录</h2>" + "".join(f"<p>{name}</p>" for name in names),
        *(f"<h2>{name}</h2>{body}" for name in names),
    ]
    documents = []
    for k, html in enumerate(sections):
        document = epub.EpubHtml(title=str(k), file_name=f"s{k}.xhtml", lang="zh")
        document.content = f"<html><body>{html}</body></html>"
        book.add_item(document)
        documents.append(document)
    book.spine = documents
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    path = tmp_path / "hlm.epub"
    epub.write_epub(str(path), book)
    n = load_narrative(path)
    assert [(c.label, c.title, c.first_paragraph) for c in n.chapters] == [
        ("1", names[0], 6), ("2", names[1], 15), ("3", names[2], 24),
    ]  # fmt: skip
    assert {p.chapter for p in n.paragraphs[:6]} == {0} and n.paragraphs[6].is_heading


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.txt", b"", "empty"),
        ("blank.txt", b"   \n\n  ", "empty"),
        ("binary.txt", bytes(range(256)) * 10, "binary"),
        ("book.pdf", b"%PDF-1.4", "not a readable PDF"),
        ("book.mobi", b"BOOKMOBI", "unsupported file type"),
        ("bad.jsonl", b'{"text": "a"}\n{oops\n', "line 2"),
        ("latin.jsonl", b'{"text": "a"}\n{"text": "caf\xe9"}\n', "line 2: not UTF-8 text (byte 27"),
        ("gap.jsonl", b'{"paragraph": 0, "text": "a"}\n{"paragraph": 5, "text": "b"}\n', "breaks the sequence"),
        ("bad.epub", b"PK\x03\x04 not really a zip", "not a readable EPUB"),
    ],
)
def test_bad_input_names_the_file_and_the_problem(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(NarrativeError) as excinfo:
        load_narrative(path)
    assert message in str(excinfo.value) and name in str(excinfo.value)


@pytest.mark.parametrize("name, message", [("book.epub", "declare their own"), ("book.jsonl", "is UTF-8")])
def test_an_encoding_given_for_a_file_that_names_its_own_is_an_error_not_ignored(tmp_path, name, message):
    path = tmp_path / name
    path.write_bytes(b"PK\x03\x04" if name.endswith(".epub") else b'{"text": "a"}\n')
    with pytest.raises(NarrativeError, match=f"{name}: an encoding \\(cp1251\\) applies to text.*{message}"):
        load_narrative(path, encoding="cp1251")


def test_explicit_encoding_and_missing_file(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes("caf\xe9 au lait".encode("latin-1"))
    assert load_narrative(path, encoding="latin-1").paragraphs[0].text == "café au lait"
    with pytest.raises(NarrativeError, match="latin.txt: cannot decode as ascii"):
        load_narrative(path, encoding="ascii")
    with pytest.raises(NarrativeError, match="no such file"):
        load_narrative(tmp_path / "missing.txt")


@pytest.mark.parametrize(
    "encoding, text",
    [
        ("latin-1", "Dantès met Mercédès at the café; 'Señor,' said he, 'the Château d'If.'"),
        ("cp1252", "Dantès met Mercédès at the café; “Señor,” said he, “the Château d’If.”"),
    ],
)
def test_a_file_that_is_not_utf_8_is_read_with_its_detected_encoding(tmp_path, encoding, text):
    path = tmp_path / "old.txt"
    path.write_bytes(text.encode(encoding))
    narrative = load_narrative(path)
    assert (narrative.encoding, narrative.encoding_detected) == ("cp1252", True)
    assert narrative.paragraphs[0].text == text
    path.write_text(text, encoding="utf-8")
    assert (load_narrative(path).encoding, load_narrative(path).encoding_detected) == ("utf-8", False)


def _without_gaiji(text: str) -> str:
    """A text without the characters JIS X 0208 lacks, which an Aozora file writes as ※ notes (the loader reads
    them back): the text a Shift_JIS or ISO-2022-JP file can hold."""
    return text.encode("iso2022_jp", "ignore").decode("iso2022_jp")


def test_a_whole_novel_in_latin_1_keeps_its_guillemets_and_accents():
    """Effi Briest in Latin-1, the encoding of its Project Gutenberg file: charset-normalizer ranks
    iso8859_10 (Nordic) first for the whole novel, which reads its 1,880 « » as Ŧ ŧ; the cp1252
    reading shows German's function words, so it is taken. A Japanese novel's Shift_JIS is not."""
    text = load_bundled_book("effi_briest.de").text
    for encoding in ("latin-1", "cp1252"):
        read, codec, detected, _ = decode_text(text.encode(encoding, "ignore"), "effi.txt")
        assert (codec, detected) == ("cp1252", True) and read == text.encode(encoding, "ignore").decode(encoding)
    assert read.count("«") > 1000
    kokoro = _without_gaiji(load_bundled_book("kokoro.ja").text)
    assert decode_text(kokoro.encode("cp932"), "kokoro.txt")[:2] == (kokoro, "cp932")


@pytest.mark.parametrize("book", ["effi_briest.de", "marianela.es", "le_tour_du_monde.fr"])
def test_a_novel_saved_on_an_old_mac_is_read_in_mac_roman(book):
    """Mac Roman files had been read as cp852 (Effi Briest: "Mädchen" as "MŐdchen") or cp1252 (Marianela: "niño"
    as "ni–o"), readings that decode cleanly and are still prose of their language; the reading whose letters are
    the language's own is taken, and of readings alike the codec's common name, not Mac Icelandic's."""
    text = load_bundled_book(book).text
    data = text.encode("mac_roman", "ignore")
    assert decode_text(data, "book.txt")[:3] == (data.decode("mac_roman"), "mac_roman", True)


@pytest.mark.parametrize("codec", ["iso8859_2", "cp1250"])
@pytest.mark.parametrize("book", ["wilcze_gniazdo.pl", "karbanik.cs", "egy_magyar_amazon.hu", "pacatul_rabinului.ro"])
def test_a_central_european_novel_in_a_central_european_codepage_is_read_in_it(book, codec):
    """Wilcze gniazdo in Latin-2 had been read as Latin-10 ("ą" as "ą"'s byte in iso8859_10, "ħ"): charset-normalizer
    did not guess Latin-2. Both Central European codepages are tried, and the reading whose letters are the
    language's (Polish, Czech, Hungarian, Romanian) is taken, as a Western language's is."""
    data = load_bundled_book(book).text.encode(codec, "ignore")
    for part in (data, data[:600]):  # Hungarian's letters are the same bytes in both: either reading is right
        read, read_in, detected, _ = decode_text(part, "book.txt")
        # Romanian's ş and ţ are bytes that Latin-10 (iso8859_16, made for Romanian) reads as ș and ț: the same letters
        assert read.translate(_COMMA_BELOW) == part.decode(codec).translate(_COMMA_BELOW) and detected
        assert read_in in ("cp1250", "iso8859_2") or book.endswith(".ro") and read_in == "iso8859_16"


_COMMA_BELOW = str.maketrans("şţŞŢ", "șțȘȚ")


def test_a_chinese_novel_in_gbk_keeps_the_rare_characters_its_font_drew():
    """GBK's user-defined rows hold the rare characters an older e-text's font drew, which gb18030 reads as
    private-use characters: they had made the right reading implausible, and the file was read as cp1252 mojibake
    (a 史记, ``tests/test_books_multilingual.py``). A reading mostly in Han may hold a few; a crowd of them is no
    Chinese text."""
    text = load_bundled_book("laocan_youji.zh").text
    rare = "".join(ch + ("\ue253" if k % 300 == 299 else "") for k, ch in enumerate(text))
    assert decode_text(rare.encode("gb18030"), "laocan.txt")[:3] == (rare, "gb18030", True)
    crowded = "".join(ch + ("\ue253" if k % 20 == 19 else "") for k, ch in enumerate(text[:20000]))
    assert "gb18030: U+E253 at line" in detect_encoding(crowded.encode("gb18030"))[2]


@pytest.mark.parametrize("text", ["а, даже и не взглянув на меня, и пошла по лестнице.", "— И вы надеетесь?\n\nНет."])
def test_a_few_lines_of_russian_in_cp1251_are_not_taken_for_western_prose(text):
    """Read in cp1252, these lines of Игрок are letters beyond ASCII with "a" and "e" among them, words
    enough to pass for Italian or Portuguese prose: a reading must also be written mostly in ASCII letters."""
    assert decode_text(text.encode("cp1251"), "lines.txt")[:2] == (text, "cp1251")


@pytest.mark.parametrize("book", ["kokoro.ja", "effi_briest.de"])
def test_a_novel_in_7_bit_jis_or_utf_16_without_a_byte_order_mark_is_read_not_taken_for_utf_8_or_binary(book):
    """ISO-2022-JP is all ASCII, so it decoded as UTF-8 into escapes and letters ("\x1b$B8cGZ$O" for
    吾輩は); UTF-16 without a byte-order mark has NUL bytes and was refused as binary."""
    text = _without_gaiji(load_bundled_book(book).text)
    codecs = ["utf-16-le", "utf-16-be"] + ["iso2022_jp"] * (book == "kokoro.ja")
    for codec in codecs:
        assert decode_text(text.encode(codec), "book.txt") == (text, codec, True, None)
    jis_extended = "ｱﾝﾅ 吾輩は猫である。\n" * 20  # half-width katakana: JIS's extension, which iso2022_jp refuses
    assert decode_text(jis_extended.encode("iso2022_jp_ext"), "book.txt")[:2] == (jis_extended, "iso2022_jp_ext")
    one_line = "吾輩は猫である。".encode("utf-16-le")  # no line break tells its byte order: refused, naming the fix
    with pytest.raises(NarrativeError, match="binary file, not text .*UTF-16 or UTF-32.*--encoding"):
        decode_text(one_line, "book.txt")
    assert decode_text(one_line, "book.txt", "utf-16-le")[0] == "吾輩は猫である。"


def test_strip_gutenberg_keeps_text_without_markers():
    assert strip_gutenberg("plain text") == "plain text"


def test_shared_novels_load_with_chapters():
    books = json.loads(shared_path("nocha", "data_sample", "classic_books.json").read_text(encoding="utf-8"))
    little_women = from_text(books["little_women_louisa_may_alcott"], title="Little Women")
    assert len(little_women) == 4181 and little_women.split_paragraphs == 3  # three over 2,000 characters
    assert little_women.chapters[0].title.startswith("PART 1 CHAPTER ONE")
    assert len(little_women.chapters) >= 47
    emma = load_narrative(shared_path("gutenqa_emma", "emma_paragraphs.jsonl"))
    assert len(emma) == 2287 and emma.chapters[0].title == "VOLUME I. CHAPTER I"
    assert emma.split_paragraphs == 0  # its rows number the paragraphs, so the long ones stay whole
    castaways = load_narrative(shared_path("kdsh_backstory", "castaways.txt"))
    assert castaways.chapters[0].title.startswith("CHAPTER I. THE SHARK")
    assert not any("START OF THE PROJECT GUTENBERG" in p.text.upper() for p in castaways.paragraphs)
    assert "END OF THE PROJECT GUTENBERG" not in castaways.text.upper()


# A Gutenberg file as they come: UTF-8 dashes and curly quotes, and one Latin-1 byte pasted in.
GUTENBERG_HEADER = (
    "The Project Gutenberg eBook of The Lantern at Marrow Quay\n\n"
    "Title: The Lantern at Marrow Quay\n        and Other Stories\n\nAuthor: A. N. Author\n\n"
    "*** START OF THE PROJECT GUTENBERG EBOOK THE LANTERN AT MARROW QUAY ***\n\n"
)
GUTENBERG_BODY = (
    "CHAPTER I\n\n“Come in,” said Mrs. Hale — and the clerk came in; it’s a cold night.\n\n"
    "He said “no” twice—then he left the caf\xe9 by the quay.\n\n"
    "*** END OF THE PROJECT GUTENBERG EBOOK THE LANTERN AT MARROW QUAY ***\n"
)


def stray_byte_book() -> bytes:
    """The Gutenberg text in UTF-8 but for its "é", a single Latin-1 byte."""
    body = GUTENBERG_BODY.encode("utf-8").replace("caf\xe9".encode(), b"caf\xe9")
    return GUTENBERG_HEADER.encode("utf-8") + body


def test_a_utf_8_file_with_a_stray_byte_keeps_its_dashes_and_quotes_and_says_where_the_byte_was(tmp_path):
    path = tmp_path / "pg-lantern.txt"
    data = stray_byte_book()
    path.write_bytes(data)
    narrative = load_narrative(path)
    assert (narrative.encoding, narrative.encoding_detected) == ("utf-8", False)
    texts = [p.text for p in narrative.paragraphs]
    assert texts[1] == "“Come in,” said Mrs. Hale — and the clerk came in; it’s a cold night."
    assert texts[2] == "He said “no” twice—then he left the caf\ufffd by the quay."
    offset = data.index(b"caf\xe9") + 3
    line = data[:offset].count(b"\n") + 1
    assert f"1 byte is not UTF-8 (byte {offset}, line {line})" in narrative.encoding_warning
    assert str(path) in narrative.encoding_warning
    # read again with the encoding the library records, the same text
    assert load_narrative(path, encoding="utf-8").content_hash == narrative.content_hash
    path.write_bytes(b"\xef\xbb\xbf" + data)  # with a byte-order mark: counted in the offset, not in the text
    marked = load_narrative(path)
    assert marked.encoding == "utf-8-sig" and marked.content_hash == narrative.content_hash
    assert f"(byte {offset + 3}, line {line})" in marked.encoding_warning


def test_another_encoding_is_taken_only_when_it_reads_the_file_cleanly(tmp_path):
    path = tmp_path / "noise.txt"
    path.write_bytes(bytes(range(128, 256)) * 4 + b" plain words here.\n")
    with pytest.raises(NarrativeError) as excinfo:
        load_narrative(path)
    message = str(excinfo.value)
    assert "512 bytes are not UTF-8: byte 0, line 1" in message and "no other encoding reads it cleanly" in message
    assert "--encoding" in message
    path.write_bytes("Ça va, déjà vu.".encode("latin-1"))  # no UTF-8 in it at all: not "mostly UTF-8"
    with pytest.raises(NarrativeError, match="cannot decode as utf-8: 3 bytes are not UTF-8"):
        load_narrative(path, encoding="utf-8")


def test_the_title_comes_from_the_book_when_it_has_one(tmp_path):
    gutenberg = tmp_path / "pg1234.txt"
    gutenberg.write_bytes(stray_byte_book())
    assert load_narrative(gutenberg).title == "The Lantern at Marrow Quay and Other Stories"
    assert load_narrative(gutenberg, title="Given").title == "Given"
    plain = tmp_path / "notes.txt"
    plain.write_text("CHAPTER I\n\nNo header here.", encoding="utf-8")
    assert load_narrative(plain).title == "notes"
    titled = tmp_path / "book.md"
    titled.write_text("# The Lantern\n\n## Chapter 1\n\nIt was late.\n\n## Chapter 2\n\nLater.", encoding="utf-8")
    assert load_narrative(titled).title == "The Lantern"
    front = tmp_path / "front.md"
    front.write_text('---\ntitle: "Marrow Quay"\n---\n\n# Chapter 1\n\nIt was late.\n\n# Chapter 2\n\nLater.')
    assert load_narrative(front).title == "Marrow Quay"
    chapters_only = tmp_path / "chapters.md"
    chapters_only.write_text("# Chapter 1\n\nIt was late.\n\n# Chapter 2\n\nLater.", encoding="utf-8")
    assert load_narrative(chapters_only).title == "chapters"


def test_half_a_character_in_a_json_lines_book_is_replaced_and_named_not_a_crash(tmp_path):
    path = tmp_path / "letters.jsonl"
    texts = ["第一回　甄士隐梦幻识通灵", "He wrote \ud83d and stopped.", "Then \udcff again."]
    rows = [{"text": text} for text in texts]
    path.write_text("\n".join(json.dumps(row) for row in rows), encoding="utf-8")  # json writes "\\ud83d"
    narrative = load_narrative(path)
    assert [p.text for p in narrative.paragraphs][1:] == ["He wrote \ufffd and stopped.", "Then \ufffd again."]
    assert narrative.encoding_warning.startswith(f"{path}: 2 lone surrogates, half of a character")
    assert '(U+D83D, character 10: "He wrote \ufffd and stopped.")' in narrative.encoding_warning
    assert len(narrative.content_hash) == 64 and len(narrative.chapters) == 1
    assert from_text("clean text", title="t").encoding_warning is None


# Pieces a book in any of the languages is made of (headings, quotation marks, sentence marks, Aozora's
# notes, names in every script), mixed with any characters, half characters (lone surrogates) included.
_PIECES = ["第一回", "第十二章", "Chapitre III", "Kapitel 4", "Глава V", "CHAPTER IX.", "ΚΕΦΑΛΑΙΟΝ Α'", "제1장",
           "一", "０", "「", "」", "『", "』", "“", "”", "'", "。", "！", "？", "…", ".", "\n", "\n\n", " ", "\u3000",
           "\r\n", "贾宝玉", "ありがとう", "ｶﾀｶﾅ", "Hélène", "Straße", "Базаровъ", "Ἀθῆναι", "τ'όνομα", "l'homme",
           "\u200b", "\ufeff", "\u2028", "\x85", "［＃「第一」は中見出し］", "｜漢字《かんじ》", "<p>", "[1]", "😀",
           "\ud800"]  # fmt: skip
_ANY_TEXT = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.text(st.characters(blacklist_categories=()), max_size=6)), max_size=50
).map("".join)


@settings(max_examples=120, deadline=None)
@given(_ANY_TEXT)
def test_any_text_is_a_book_or_refused_saying_why_and_every_analyzer_reads_its_paragraphs(text):
    try:
        narrative = from_text(text, title="any")
    except NarrativeError:
        return
    assert len(narrative.content_hash) == 64 and all(p.text.strip() for p in narrative.paragraphs)
    assert not any(LONE_SURROGATE.search(p.text) for p in narrative.paragraphs)
    for language in (*SUPPORTED_LANGUAGES, UNDETERMINED):
        analyzer = analyzer_for(language)
        for paragraph in narrative.paragraphs:
            assert all(term for term in analyzer.tokenize(paragraph.text))
        split_sentences(narrative.text)


def test_a_chinese_e_text_is_titled_by_its_first_line_in_book_title_marks_or_over_its_author(tmp_path):
    """A Chinese e-text opens with its name in 《》, or over its author's line, and no header: "红楼梦" is its title,
    not the file's name; a first line that only quotes a work among other words titles nothing."""
    path = tmp_path / "hlm.txt"
    path.write_text("《红楼梦》\n\n\n 第一回　甄士隐梦幻识通灵\n\n    此开卷第一回也。\n", encoding="utf-8")
    assert load_narrative(path).title == "红楼梦"
    path.write_text("《红楼梦》是一部小说。\n\n第一回\n\n此开卷第一回也。\n", encoding="utf-8")
    assert load_narrative(path).title == "hlm"
    path.write_text("老残游记\n\n[清]刘鹗\n\n第一回　土不制水\n\n话说山东登州府东门外有一座大山。\n", encoding="utf-8")
    assert load_narrative(path).title == "老残游记"  # a name over its author's line, the dynasty bracketed
    path.write_text("话说山东登州府东门外有一座大山\n\n（清）刘鹗曾游于此。\n", encoding="utf-8")
    assert load_narrative(path).title == "hlm"  # a sentence is no name, though an author's line follows
