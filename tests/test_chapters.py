"""Chapters as the book names them: parts and stories folded into their first chapter, labels a
reader uses, and the same numbers in ``clueweaver chapters``, --max-chapter, --as-of and the API,
on the shared Holmes collection and Little Women."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clueweaver.books.centred_titles import centred_titles, story_name
from clueweaver.books.chapter_labels import chapters_text, labels
from clueweaver.books.chapter_structure import units_from_titles
from clueweaver.books.chapters import Heading, heads_its_block, is_heading, is_rule
from clueweaver.books.front_sections import front_sections
from clueweaver.books.named_chapters import chapters_named
from clueweaver.books.narrative import NarrativeError, from_paragraphs, from_text, load_narrative, normalize_text
from clueweaver.books.numerals import chinese_numeral, number_value, numeral_word_value
from clueweaver.cli import main
from tests.conftest import shared_path
from tests.nwm_helpers import FIXTURE, HOLMES

LITTLE_WOMEN = "little_women_louisa_may_alcott"


@pytest.fixture(scope="module")
def books():
    texts = json.loads(shared_path("nocha", "data_sample", "classic_books.json").read_text(encoding="utf-8"))
    return {name: from_text(texts[name], title=name) for name in (HOLMES, LITTLE_WOMEN)}


@pytest.fixture
def book_file(tmp_path):
    def write(name: str) -> str:
        texts = json.loads(shared_path("nocha", "data_sample", "classic_books.json").read_text(encoding="utf-8"))
        path = tmp_path / f"{name}.txt"
        path.write_text(texts[name], encoding="utf-8")
        return str(path)

    return write


def test_holmes_stories_hold_their_own_chapters(books):
    holmes = books[HOLMES]
    rows = [(c.label, c.title, c.part, c.first_paragraph, c.last_paragraph) for c in holmes.chapters[:5]]
    story = "I. A SCANDAL IN BOHEMIA"
    assert rows == [
        ("1.1", "I.", story, 1, 123),  # the story's title opens its first chapter: no chapter of two headings
        ("1.2", "II.", story, 124, 219),
        ("1.3", "III.", story, 220, 264),
        ("2", "II. THE RED-HEADED LEAGUE", None, 265, 481),
        ("3", "III. A CASE OF IDENTITY", None, 482, 620),
    ]
    assert [c.label for c in holmes.chapters[3:]] == [str(n) for n in range(2, 13)]
    assert holmes.chapters[-1].title == "XII. THE ADVENTURE OF THE COPPER BEECHES"
    assert holmes.chapters[1].full_title == "I. A SCANDAL IN BOHEMIA — II."
    # a reader's "up to story II" reads A Scandal in Bohemia and The Red-Headed League, nothing after
    assert holmes.last_paragraph_of_chapter(holmes.chapter_limit("2")) == 481
    assert holmes.chapter_limit("1") == 3 and holmes.chapter_limit("1.2") == 2 and holmes.chapter_span("1") == (1, 3)
    assert holmes.chapter_limit("0") == 0 and holmes.chapter_limit(None) is None


def test_little_women_part_2_shifts_no_chapter(books):
    little_women = books[LITTLE_WOMEN]
    assert len(little_women.chapters) == 47
    assert [c.label for c in little_women.chapters] == [str(n) for n in range(1, 48)]
    assert all(c.title.startswith("CHAPTER ") or c.title.startswith("PART 1 CHAPTER") for c in little_women.chapters)
    chapter_24 = little_women.chapters[23]
    assert (chapter_24.title, chapter_24.part, chapter_24.first_paragraph) == (
        "CHAPTER TWENTY-FOUR GOSSIP",
        "PART 2",
        2233,
    )
    assert little_women[2233].text == "PART 2" and little_women[2233].chapter == 24  # the part opens chapter 24
    assert little_women.chapters[22].last_paragraph == 2232  # chapter 23 ends where part 1 does
    assert (
        little_women.chapters[0].part == "PART 1"
        and little_women.chapters[-1].title == "CHAPTER FORTY-SEVEN HARVEST TIME"
    )
    assert little_women.last_paragraph_of_chapter(little_women.chapter_limit("24")) == 2319
    with pytest.raises(NarrativeError, match=r"no chapter 48 \(the book's chapters are 1-47; 'clueweaver chapters"):
        little_women.chapter_limit("48")
    # the limit as a question names it: the chapter's word and number, in the book's words or another language's
    for limit in (
        "chapter 24",
        "Chapter XXIV",
        "the twenty-fourth chapter",
        "第二十四章",
        "im 24. Kapitel",
        "Part 2, chapter 24",
    ):
        assert little_women.chapter_limit(limit) == 24
    assert little_women.chapter_limit("before chapter 25") == 24 and little_women.chapter_limit("Part 1") == 23
    for lacking in ("chapter 48", "chapters 3 and 5"):  # one the book lacks; two chapters apart are no limit
        with pytest.raises(NarrativeError, match=f"no chapter {lacking}"):
            little_women.chapter_limit(lacking)


def test_headings_numbers_and_labels():
    assert [number_value(t) for t in ("12", "XIV", "twenty-four", "FORTY SEVEN", "the first", "mild", "")] == [
        12,
        14,
        24,
        47,
        1,
        None,
        None,
    ]
    # "Book the Second" (A Tale of Two Cities), "CHAPTER THE THIRD": "the" before any English ordinal
    assert [Heading.parse(t).components for t in ("Book the Second—the Golden Thread", "CHAPTER THE THIRD")] == [
        (("book", 2),),
        (("chapter", 3),),
    ]
    heading = Heading.parse("VOLUME II. CHAPTER III. The Ball")
    assert (heading.part, heading.unit, heading.name) == (("volume", 2), ("chapter", 3), "The Ball")
    assert Heading.parse("Mild Days").components == ()  # a word made of roman letters is not a number
    # an English ordinal after the word, as older English editions number (Hapgood's Les Misérables)
    assert [Heading.parse(t) for t in ("BOOK FIRST—A JUST MAN", "BOOK EIGHTH—A COUNTER-BLOW", "CHAPTER TWELFTH.")] == [
        Heading((("book", 1),), 11, "A JUST MAN"),
        Heading((("book", 8),), 12, "A COUNTER-BLOW"),
        Heading((("chapter", 12),), 0, ""),
    ]
    assert is_heading("BOOK FIRST—A JUST MAN") and not is_heading("Book first of the series, a treatise on duties.")
    # volumes that restart their chapter numbers are qualified by the volume, as a reader cites them
    units = units_from_titles({0: "VOLUME I. CHAPTER I", 5: "VOLUME I. CHAPTER II", 9: "VOLUME II. CHAPTER I"})
    assert labels(units) == ["1.1", "1.2", "2.1"] and units[2].part == "VOLUME II"
    # chapters without numbers are counted in reading order
    assert labels(units_from_titles({0: "The Storm", 3: "Chapter 2"})) == ["1", "2"]
    # qualified labels only where each part's chapters stand together: "1" would name chapter 1 and,
    # after chapter 2, an appendix's part 1, and --max-chapter 1 would read chapter 2 as well
    titles = {0: "1. Deuterium", 4: "2. Nitrogen", 8: "PART 1 CHAPTER 1", 9: "PART 1 CHAPTER 2"}
    assert labels(units_from_titles(titles)) == ["1", "2", "3", "4"]
    assert labels(units_from_titles({**titles, 0: "3. Deuterium"})) == ["3", "2", "1.1", "1.2"]
    # chapters before a "second part" heading are the first part's, left unheaded (ELTeC's Los inadaptados)
    unheaded = {0: "CAPÍTULO I", 3: "CAPÍTULO II", 6: "PARTE SEGUNDA CAPÍTULO I", 9: "PARTE SEGUNDA CAPÍTULO II"}
    assert labels(units_from_titles(unheaded)) == ["1.1", "1.2", "2.1", "2.2"]
    # a part with no chapter after it is a chapter itself; a table of contents opens no chapter nor story
    book = from_paragraphs(["BOOK I", "Text one.", "BOOK II", "Text two."], title="t")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "BOOK I"), ("2", "BOOK II")]
    contents = from_paragraphs(
        ["CHAPTER I. ONE", "CHAPTER II. TWO", "CHAPTER I. ONE", "Text.", "CHAPTER II. TWO", "More."], title="t"
    )
    assert [(c.label, c.first_paragraph) for c in contents.chapters] == [("1", 2), ("2", 4)]
    assert not any(c.part for c in contents.chapters) and contents[1].chapter == 0  # the contents are front matter


def test_chapters_command_lists_the_numbers_a_reader_uses(book_file, capsys):
    assert main(["chapters", book_file(HOLMES)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{HOLMES}: 14 chapters, 2560 paragraphs (5 longer than 2000 characters cut at sentence ends)"
    assert lines[1].split() == ["0", "(front", "matter)", "paragraphs", "0-0"]
    assert (
        lines[2].split()[0] == "1.1"
        and lines[2].endswith("paragraphs 1-123")
        and "A SCANDAL IN BOHEMIA — I." in lines[2]
    )
    assert lines[5].split()[:2] == ["2", "II."] and lines[5].endswith("paragraphs 265-481")
    assert main(["chapters", book_file(LITTLE_WOMEN), "--json"]) == 0
    chapters = {row["label"]: row for row in json.loads(capsys.readouterr().out)["chapters"]}
    assert chapters["0"]["title"] == "(front matter)" and chapters["0"]["first_paragraph"] == 0  # as in the text
    assert chapters["24"] == {
        "label": "24", "number": 24, "title": "CHAPTER TWENTY-FOUR GOSSIP", "part": "PART 2", "volume": None,
        "first_paragraph": 2233, "last_paragraph": 2319,
    }  # fmt: skip


def test_chapters_lists_a_volume_and_the_preface_a_question_may_name(capsys):
    les_miserables = str(Path(__file__).parent / "fixtures" / "books_multilingual" / "les_miserables_excerpt.en.txt")
    assert main(["chapters", les_miserables]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["0", "(front", "matter)", "paragraphs", "0-30"]
    assert lines[2].split() == ["its", "preface:", "PREFACE", "paragraphs", "30-30"]
    assert lines[3].startswith(" 1.1.1  VOLUME I FANTINE — BOOK FIRST—A JUST MAN — CHAPTER I—M. MYRIEL")
    assert main(["chapters", les_miserables, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["chapters"]
    assert rows[0]["sections"] == {"preface": [30, 30]} and rows[1]["volume"] == "VOLUME I FANTINE"


def test_max_chapter_and_as_of_cut_where_the_reader_thinks(book_file, tmp_path, capsys):
    holmes = book_file(HOLMES)
    claim = ["--claim", "Irene Adler kept the photograph.", "--encoder", "none", "--json"]
    assert main(["segment", holmes, *claim, "--max-chapter", "1.2"]) == 0
    assert max(s["span"][1] for s in json.loads(capsys.readouterr().out)["segments"]) <= 219
    assert main(["segment", holmes, *claim, "--max-chapter", "2"]) == 0
    ends = [s["span"][1] for s in json.loads(capsys.readouterr().out)["segments"]]
    assert max(ends) <= 481 and any(e > 264 for e in ends)  # The Red-Headed League is read, A Case of Identity not
    assert main(["segment", holmes, *claim, "--max-chapter", "13"]) == 2
    assert "no chapter 13 (the book's chapters are 1.1, 1.2, 1.3, 2, ..., 11, 12" in capsys.readouterr().err

    data = ["--data-dir", str(tmp_path / "stores")]
    assert main(["nwm", "import", holmes, str(FIXTURE), *data]) == 0
    assert capsys.readouterr().out == "chapter 1.1: 12 records\nchapter 1.2: 10 records\nchapter 1.3: 12 records\n"
    assert main(["nwm", "state", holmes, "--as-of", "1.2", "--entity", "the photograph", "--json", *data]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["as_of"] == 2 and view["published_chapters"] == [1, 2]
    assert main(["nwm", "state", holmes, "--as-of", "1", "--entity", "the photograph", "--json", *data]) == 0
    assert json.loads(capsys.readouterr().out)["as_of"] == 3  # story I: all three of its chapters


def test_the_reading_room_api_gives_each_chapter_its_label(books, tmp_path):
    import httpx
    from serve_helpers import running_server, scripted_room, upload

    room = scripted_room(tmp_path / "data")
    texts = json.loads(shared_path("nocha", "data_sample", "classic_books.json").read_text(encoding="utf-8"))
    with running_server(room) as url, httpx.Client(base_url=url, timeout=60) as http:
        book = upload(http, name="holmes.txt", content=texts[HOLMES].encode("utf-8")).json()
        chapters = http.get(f"/api/books/{book['book_id']}/chapters").json()["chapters"]
    holmes = books[HOLMES]
    assert [(c["number"], c["label"], c["part"], c["full_title"]) for c in chapters] == [
        (c.number, c.label, c.part, c.full_title) for c in holmes.chapters
    ]  # "A SCANDAL IN BOHEMIA — I.": the page shows the server's title
    assert chapters[3] == {
        "number": 4, "label": "2", "title": "II. THE RED-HEADED LEAGUE", "part": None, "volume": None,
        "full_title": "II. THE RED-HEADED LEAGUE", "first_paragraph": 265, "last_paragraph": 481,
    }  # fmt: skip


@pytest.mark.slow  # a fresh interpreter (or a second indexing process) starts: seconds
def test_a_listing_whose_reader_left_ends_without_a_traceback():
    import subprocess
    import sys
    from importlib.resources import files

    book = files("clueweaver") / "data" / "demo_mystery.md"
    command = [sys.executable, "-m", "clueweaver", "chapters", str(book)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader leaves before the listing is written, like `| head` does
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0 and "Traceback" not in stderr, stderr


CHINESE_NUMBERS = "一 二 三 四 五 六 七 八 九 十 十一 十二 一百零五 一百二十".split()
CHINESE_TITLES = {number: f"甄士隐梦幻第{number}景　贾雨村风尘第{number}怀" for number in CHINESE_NUMBERS}


def chinese_novel() -> str:
    """A Chinese e-text as such files come: a table of contents, then each 回 headed by its number
    and title on one line, one paragraph per line indented with full-width spaces, no blank line
    anywhere; the heading of 第三回 duplicated, as a scan leaves it."""
    lines = ["红楼梦", "目录", *(f"第{n}回　{title}" for n, title in CHINESE_TITLES.items())]
    for n, title in CHINESE_TITLES.items():
        lines += [f"第{n}回　{title}"] * (2 if n == "三" else 1)
        lines += [f"　　此回中甄士隐梦见一僧一道，谈论第{n}件事。", "　　“你去罢。”那道人说。众人听了，都笑了。"]
    return "\n".join(lines)


def test_a_chinese_novel_keeps_the_numbers_of_its_hui():
    book = from_text(chinese_novel(), title="红楼梦")
    assert [c.label for c in book.chapters] == [*map(str, range(1, 13)), "105", "120"]
    first = book.chapters[0]
    assert first.title == "第一回 甄士隐梦幻第一景 贾雨村风尘第一怀" and first.first_paragraph == 16
    assert book[0].text == "红楼梦" and book[15].chapter == 0  # the table of contents is front matter
    # one paragraph per line; the scan's duplicate heading is one chapter, opening at the first copy
    assert [p.text for p in book.paragraphs[16:19]] == [
        first.title,
        "此回中甄士隐梦见一僧一道，谈论第一件事。",
        "“你去罢。”那道人说。众人听了，都笑了。",
    ]
    third = book.chapters[2]
    assert (third.first_paragraph, third.last_paragraph) == (22, 25) and book[23].text == book[22].text
    assert book.last_paragraph_of_chapter(book.chapter_limit("105")) == book.chapters[12].last_paragraph
    assert book.chapter_limit("120") == 14
    with pytest.raises(NarrativeError, match="no chapter 13 .*1, 2, 3, 4, ..., 105, 120"):
        book.chapter_limit("13")


@given(st.integers(min_value=1, max_value=9_999))
def test_chinese_numerals_written_read_back_as_their_value(value):
    assert number_value(chinese_numeral(value)) == value  # the heading reader is the oracle


@given(st.integers(min_value=1, max_value=99_999_999))
def test_words_of_chinese_numerals_read_back_as_their_value_with_ten_thousands(value):
    assert numeral_word_value(chinese_numeral(value)) == value


def test_chinese_numerals_written_as_a_novel_writes_them():
    written = [chinese_numeral(n) for n in (10, 12, 105, 110, 1005, 1010, 10_500, 20_000, 123_456)]
    assert written == [
        "十",
        "十二",
        "一百零五",
        "一百一十",
        "一千零五",
        "一千零一十",
        "一万零五百",
        "二万",
        "十二万三千四百五十六",
    ]


def test_chinese_numerals_and_headings_that_are_prose():
    assert [number_value(n) for n in ("十一", "二十", "一百零五", "一百二十", "两百", "一二〇", "１２")] == [
        11, 20, 105, 120, 200, 120, 12,
    ]  # fmt: skip
    assert Heading.parse("第１２章 雨").components == (("章", 12),)
    # zero typed as a white circle, as Project Gutenberg's 三國演義 heads its hundredth chapter
    assert Heading.parse("第一○○回：漢兵劫寨破曹真，武侯鬥陣辱仲達").components == (("回", 100),)
    assert number_value("一二○") == 120 and not is_heading("○")
    # the formal numerals of older editions, after 第 only (破戒 heads "第壱章" to "第弐拾参章"; "第廿一回")
    formal = ["第壱章", "第弐拾参章", "第拾章", "第廿一回 甄士隱", "第參佰回"]
    assert [Heading.parse(t).unit for t in formal] == [("章", 1), ("章", 23), ("章", 10), ("回", 21), ("回", 300)]
    assert not any(map(is_heading, ["参", "陸", "参加者一同", "卷拾遺記"]))  # elsewhere they are words (拾遺)
    book = from_paragraphs(["第一回合，他就输了。", "第二章里写道，他来了。", "第一章", "正文。"], title="t")
    assert [c.title for c in book.chapters] == ["第一章"]  # a round (回合) and a sentence are no headings
    # a numeral alone on its line numbers a Japanese or Chinese chapter; "〇" alone is a scene break
    book = from_paragraphs(["一", "正文。", "〇", "正文。", "（十二）", "正文。", "一日", "正文。"], title="t")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "一"), ("12", "（十二）")]
    # Japanese "part" before the numeral ("その一", "其の二"); in prose, "その一言" is "that one word"
    book = from_paragraphs(["その一", "正文。", "其の二", "その一言が胸に残った。", "その3", "正文。"], title="t")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "その一"), ("2", "其の二"), ("3", "その3")]


def test_a_part_heading_of_one_line_keeps_its_name_which_a_question_may_name_it_by():
    """A web serial's "第二卷 江湖远" over its chapters: the part is "第二卷 江湖远", not "第二卷" (the name had been
    dropped, so "《江湖远》" named nothing); so are "Book IV. Lacerations" (tests/test_books_multilingual.py)."""
    prose = "他走进了房间，看见桌上放着一封信。信上写着：明日午时，城东老槐树下见。他想了想，把信收好。"
    texts = ["第一卷 风起云涌", "第1章 少年", prose, "第2章 出山", prose, "第二卷 江湖远", "第3章 入城", prose]
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.part) for c in book.chapters] == [
        ("1", "第一卷 风起云涌"), ("2", "第一卷 风起云涌"), ("3", "第二卷 江湖远"),
    ]  # fmt: skip
    assert [c.label for c in chapters_named(book.chapters, "在《江湖远》这一卷里，他进了哪座城？")[0]] == ["3"]


def test_an_epilogue_and_an_extra_after_a_book_s_volumes_are_numbered_past_them_one_after_the_other():
    """A web novel's volumes each number their chapters from 1, and "尾声" and "番外一" close it: 3 and 4 after volumes
    1 and 2. Both had been 3, and the labels, no longer unique, fell to reading order ("4" for volume 2's first
    chapter, which "第二卷第一章" then named as "4" and "第4章" too)."""
    prose = "他走进了房间，看见桌上放着一封信。信上写着：明日午时，城东老槐树下见。他想了想，把信收好。"
    texts = ["第一卷 风起", "第1章 少年", prose, "第2章 出山", prose, "第二卷 云涌", "第1章 入城", prose,
             "第2章 夜雨", prose, "尾声", prose, "番外一 旧事", prose]  # fmt: skip
    book = from_paragraphs(texts, title="t")
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "2.1", "2.2", "3", "4"]
    assert [c.label for c in chapters_named(book.chapters, "第二卷第一章里他进了哪座城？")[0]] == ["2.1"]
    assert [c.label for c in chapters_named(book.chapters, "番外里讲了什么旧事？")[0]] == ["4"]
    # no volume has a third chapter: "第3章" named the epilogue, labelled 3, and "第4章" the extra
    assert chapters_named(book.chapters, "第3章里他做了什么？") == ([], ["chapter 3"])
    assert chapters_named(book.chapters, "第4章里他做了什么？") == ([], ["chapter 4"])
    english = ["BOOK I", "CHAPTER I", "Prose of the first book.", "BOOK II", "CHAPTER I", "Prose of the second.",
               "EPILOGUE", "Prose of the end.", "POSTSCRIPT", "Prose after the end."]  # fmt: skip
    english_book = from_paragraphs(english, title="t")
    assert [c.label for c in english_book.chapters] == ["1.1", "2.1", "3", "4"]
    assert chapters_named(english_book.chapters, "In chapter 3, who writes?") == ([], ["chapter 3"])
    # a collection whose first story is cut into sections: the later stories' labels are their headings' numbers
    prose = "Holmes looked at the letter and said nothing for a long while, then he lit his pipe."
    stories = ["I. A SCANDAL IN BOHEMIA", "I.", prose, "II.", prose, "II. THE RED-HEADED LEAGUE", prose,
               "III. A CASE OF IDENTITY", prose]  # fmt: skip
    collection = from_paragraphs(stories, title="t").chapters
    assert [c.label for c in collection] == ["1.1", "1.2", "2", "3"]
    assert chapters_named(collection, "In chapter 3, who writes?") == ([collection[3]], [])


def test_a_chinese_heading_copied_from_the_web_is_read_past_its_lead():
    """ "正文 第一章" and 西游记's web copies' "《》目录 第一回 …" are chapters; the lead alone is none."""
    texts = [
        "正文 第一章 风起",
        "他来了。",
        "《》目录 第二回　悟彻菩提真妙理",
        "他走了。",
        "正文",
        "目录",
        "《》目录 他走了。",
    ]
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "正文 第一章 风起"), ("2", normalize_text(texts[2]))]
    assert Heading.parse(texts[2]).components == (("回", 2),) and Heading.parse(texts[2]).name == "悟彻菩提真妙理"


def test_a_chinese_text_that_lost_every_line_break_is_cut_at_its_headings():
    """A corpus that joined each book into one line (a Project Gutenberg collection's 三國志演義: 590,000 characters,
    no line break) still heads its chapters inline, after a sentence's end: "…且看下文分解。第二回：張翼德…". They had
    been no headings: 0 chapters, every question read without its chapter. A cross-reference ("詳見第二回") or a bout
    ("第三回合") is none, nor is a number out of order; and a count that stops short of half the unit's numbers
    cuts nothing, since every later chapter would stand in the last one found."""
    prose = "話說天下大勢，分久必合，合久必分。二人戰了兩回合。第三回合，不分勝負。且看下文分解。"
    titles = ("宴桃園此事詳見第二回。", "怒鞭督郵", "議溫明")
    line = "三國志演義" + "".join(f"第{n}回：{title}{prose}" for n, title in zip("一二三", titles))
    book = from_text(line + "第七回：錯亂。" + prose, title="t", gutenberg=False)
    assert [(c.label, c.title) for c in book.chapters] == [("1", "第一回："), ("2", "第二回："), ("3", "第三回：")]
    assert book[book.chapters[1].first_paragraph + 1].text.startswith("怒鞭督郵話說天下大勢")
    assert "第七回：錯亂。" in book[len(book.paragraphs) - 1].text  # out of order: the third chapter's text
    wrapped = from_text(line.replace("合久必分。", "合久必分。\n"), title="t", gutenberg=False)
    assert wrapped.chapters == []  # a text with its line breaks is read by them, its headings inside lines none
    lost_fourth = line + "".join(f"第{n}回：{prose}" for n in "五六七八九十")  # 3 of 9 counted
    assert from_text(lost_fourth, title="t", gutenberg=False).chapters == []


def test_a_heading_given_again_after_a_web_page_s_lines_is_one_chapter_whatever_its_spacing():
    """A copy of 红楼梦 (GitHub tennessine/corpus) gives 第三十八回's heading again after the site's menu, notice and
    page links, its name run together and a rule's dashes after it: one chapter, opening at the first copy. The
    notice ends a sentence, so only the same name, its letters compared, makes the two one; they had been two
    chapters, and every later label one too many."""
    prose = "话说宝钗湘云二人计议已妥，一宿无话．湘云次日便请贾母等赏桂花．贾母等都说道：“是他有兴头。”"
    texts = [
        "第三十七回  秋爽斋偶结海棠社　蘅芜苑夜拟菊花题", prose,
        "第三十八回  林潇湘魁夺菊花诗　薛蘅芜讽和螃蟹咏",
        "首页|原创书库|现代|言情|武侠|科幻|侦探|港台|外国|军事|纪实|历史|名著|古典|儿童|排行|论坛",
        "本站长期招收作品更新管理员，欢迎有时间及兴趣的书友报名加入，点此察看详情！",
        "后一页", "前一页", "回目录", "回首页",
        "第三十八回林潇湘魁夺菊花诗薛蘅芜讽和螃蟹咏——", prose,
        "第三十九回  村姥姥是信口开合　情哥哥偏寻根究底", prose,
    ]  # fmt: skip
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.first_paragraph) for c in book.chapters] == [("37", 0), ("38", 2), ("39", 11)]
    notice_between = [*texts[:9], "第三十八回  别的回目", *texts[10:]]  # another name after the notice: not a copy
    assert [c.first_paragraph for c in from_paragraphs(notice_between, title="t").chapters] == [0, 2, 9, 11]


def test_a_chinese_web_serial_heads_each_chapter_with_its_volume_and_the_volume_s_name():
    """Downloads of Chinese web serials head each chapter "第一卷 风起 第一章 开端": the volume, its name, then the
    chapter's number, after the volume of free or paid chapters ("正文卷", "VIP卷"). The volume's name had hidden the
    chapter's number: every line was volume 1's heading, named "风起 第一章 开端"."""
    prose = "他走进院子，看见老槐树下站着一个人，手里提着一盏灯笼，灯光在风里摇晃。"
    headings = ["正文卷 第一卷 风起 第一章 开端", "第一卷 风起 第二章 夜雨", "VIP卷 第二卷 江湖远 第三章 决战"]
    book = from_paragraphs([text for heading in headings for text in (heading, prose)], title="t")
    assert [c.label for c in book.chapters] == ["1", "2", "3"]
    assert [c.part for c in book.chapters] == ["第一卷 风起", "第一卷 风起", "第二卷 江湖远"]  # without the lead
    volume_and_chapter = Heading.parse(headings[2])
    assert volume_and_chapter.components == (("卷", 2), ("章", 3)) and volume_and_chapter.name == "决战"
    assert Heading.parse("第一卷 他说 第一次").components == (("卷", 1),)  # 第 opens no chapter's number there


@pytest.mark.parametrize(
    ("headings", "labels_wanted"),
    [
        (["第１章　出会い", "第２章　別れ", "第三話"], ["1", "2", "3"]),  # Japanese, full-width digits
        (["Chapitre premier", "Chapitre II", "CHAPITRE III. Le départ"], ["1", "2", "3"]),
        (["Erstes Kapitel", "Zweites Kapitel", "Kapitel 3", "4. Kapitel"], ["1", "2", "3", "4"]),
        # German novels spell out their chapters' numbers past twelve (Effi Briest has 36)
        (["Dreizehntes Kapitel", "Einundzwanzigstes Kapitel", "DREISSIGSTES KAPITEL"], ["13", "21", "30"]),
        (["Siebenundzwanzigstes Kapitel", "Sechsunddreißigstes Kapitel"], ["27", "36"]),
        (["Erstes Capitel", "Siebzehntes Capitel.", "Capitel XVIII."], ["1", "17", "18"]),  # the 19th century's
        (["Глава 1", "ГЛАВА II", "Глава третья"], ["1", "2", "3"]),
        (["Глава IX", "Глава Х", "ГЛАВА ХI"], ["9", "10", "11"]),  # Х: Cyrillic, as e-texts type it
        (["Capítulo primero", "CAPÍTULO II", "Capítulo 3"], ["1", "2", "3"]),
        (["Capitolo I", "Capitolo secondo", "CAPITOLO TERZO"], ["1", "2", "3"]),
        (["-I-", "-II-", "— XXII —"], ["1", "2", "22"]),  # a roman numeral between dashes (Marianela)
        # letters of an epistolary novel (Les Liaisons dangereuses, Werther's "Brief", Бедные люди)
        (["LETTRE PREMIÈRE", "Lettre II", "Dritter Brief", "Brief 4"], ["1", "2", "3", "4"]),
        (["Письмо первое", "ПИСЬМО II", "Carta tercera", "Lettera quarta", "ΕΠΙΣΤΟΛΗ Ε'"], ["1", "2", "3", "4", "5"]),
        # Greek numerals with the keraia typed four ways (Project Gutenberg's Φόνισσα: "Α'" ... "ΙΖ'.")
        (["Α'", "Β΄", "ΣΤ\u0374", "ΙΖ'."], ["1", "2", "6", "17"]),
        (
            ["ΚΕΦΑΛΑΙΟΝ ΠΡΩΤΟΝ", "Κεφάλαιο δεύτερο", "ΚΕΦΑΛΑΙΟ Γ΄", "Κεφάλαιο 4", "ΚΕΦ. ΡΚΓ'"],
            ["1", "2", "3", "4", "123"],
        ),
        (["【第一章】初入江湖", "〖第二章〗", "［第三章］ 重逢"], ["1", "2", "3"]),  # a web novel's brackets
        (["제1장 만남", "제2화", "제 3 장"], ["1", "2", "3"]),  # Korean
        (["제일장", "제이장 봄", "제이십삼장"], ["1", "2", "23"]),  # Sino-Korean numerals
        (["1장", "2장 여름", "3장"], ["1", "2", "3"]),  # without 제
        (
            ["Rozdział pierwszy", "Rozdział drugi", "ROZDZIAŁ III.", "Rozdział dwudziesty pierwszy"],
            ["1", "2", "3", "21"],
        ),
        # ELTeC's Swedish novels head chapters so, some in the spelling before 1906 ("FJERDE", today's "FJÄRDE")
        (["FÖRSTA KAPITLET.", "ANDRA KAPITLET.", "FJERDE KAPITLET.", "Kap. V."], ["1", "2", "4", "5"]),
        (["Kapitola první", "Kapitola druhá", "KAPITOLA III.", "Kapitola dvacátá první"], ["1", "2", "3", "21"]),
        (["Első fejezet", "Második fejezet", "III. fejezet", "Huszonegyedik fejezet"], ["1", "2", "3", "21"]),
        # Norwegian and Danish ordinals, in digits as ELTeC's En Professor writes them, and in words
        (
            ["1ste Kapitel.", "2det Kapitel.", "3dje Kapitel.", "6te Kapitel.", "Tyvende Kapitel"],
            ["1", "2", "3", "6", "20"],
        ),
        (["Capitolul întâi", "Capitolul al doilea", "CAPITOLUL III", "Capitolul al zecelea"], ["1", "2", "3", "10"]),
        # books read as plain words (und) still have chapters: Dutch, Czech, Norwegian, Ukrainian,
        # Romanian, Catalan, Turkish (and Polish's "Rozdział" in any book)
        (["Hoofdstuk 1", "Rozdział II", "Kapitola 3", "Kapittel 4"], ["1", "2", "3", "4"]),
        (["Розділ 1", "Capitolul II", "Capítol 3", "4. Bölüm"], ["1", "2", "3", "4"]),
    ],
)
def test_chapter_headings_in_other_languages(headings, labels_wanted):
    texts = [t for heading in headings for t in (heading, "Lorem ipsum dolor sit amet.")]
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.title) for c in book.chapters] == list(zip(labels_wanted, map(normalize_text, headings)))


def test_greek_letters_that_are_no_numeral_open_no_chapter():
    """A Greek numeral has one letter per order, largest first, and a bare one needs its keraia."""
    assert [number_value(token) for token in ("ιβ'", "ρκγ", "στ", "ϛ", "κι'", "αβ", "ιι")] == [
        12,
        123,
        6,
        6,
        None,
        None,
        None,
    ]
    assert not any(map(is_heading, ["Α", "Η ΦΟΝΙΣΣΑ", "Κεφάλαιο και τέλος της ιστορίας.", "αβ'"]))


def test_a_mixed_case_name_line_after_a_bare_heading_joins_the_title_and_stays_a_paragraph():
    texts = [
        "CHAPTER I.", "Mrs. Rachel Lynde is Surprised", "Mrs. Rachel Lynde lived just where the road dipped.",
        "-II-", "Guiado", "Text.", "CHAPTER III", "Who was there?", "Text.", "CHAPTER IV", "Lorem ipsum",
    ]  # fmt: skip
    book = from_paragraphs(texts, title="t")
    assert [c.title for c in book.chapters] == [
        "CHAPTER I. Mrs. Rachel Lynde is Surprised", "-II- Guiado", "CHAPTER III", "CHAPTER IV",
    ]  # a question opens a chapter's text; a last line is the chapter's text, not its name  # fmt: skip
    assert not book[1].is_heading and not book[4].is_heading  # read like any paragraph, by retrieval too


def test_a_name_in_capitals_wrapped_over_two_lines_is_the_chapters_name():
    # Le Tour du monde as Project Gutenberg publishes it: a bare numeral, then the name in a block of two lines
    text = (
        "XI\n\nOÙ PHILEAS FOGG ACHÈTE UNE MONTURE À UN PRIX FABULEUX\n\nLe guide partit.\n\n"
        "XII\n\nOÙ PHILEAS FOGG ET SES COMPAGNONS S'AVENTURENT À TRAVERS LES FORÊTS DE\n"
        "L'INDE ET CE QUI S'ENSUIT\n\nLe guide, afin d'abréger la distance à parcourir, laissa la voie.\n\n"
        "XIII\n\n" + "UN TÉLÉGRAMME EN CAPITALES, " * 7 + "\n\nLe Parsi revint."
    )
    book = from_text(text, title="tour", gutenberg=False)
    assert [c.title for c in book.chapters] == [
        "XI OÙ PHILEAS FOGG ACHÈTE UNE MONTURE À UN PRIX FABULEUX",
        "XII OÙ PHILEAS FOGG ET SES COMPAGNONS S'AVENTURENT À TRAVERS LES FORÊTS DE L'INDE ET CE QUI S'ENSUIT",
        "XIII",  # over two lines' worth of capitals is text, not a name
    ]
    assert [p.text[:3] for p in book.paragraphs if not p.is_heading] == ["Le ", "Le ", "UN ", "Le "]


def test_names_ending_with_a_mark_are_names_in_a_book_that_names_every_chapter_so():
    # Dom Casmurro as Project Gutenberg publishes it: a bare numeral, then a one-sentence name
    text = (
        "I\n\nDo titulo.\n\nUma noite destas, vindo da cidade para o Engenho Novo, encontrei no trem.\n\n"
        "II.\n\nDo livro.\n\nAgora que expliquei o titulo, passo a escrever o livro.\n\n"
        "III\n\nA denuncia.\n\nIa a entrar na sala de visitas, quando ouvi proferir o meu nome.\n\n"
        "IV\n\nUm dever amarissimo!\n\nJosé Dias amava os superlativos.\n\n"
        "VII\n\nD. Gloria.\n\nMinha mãe era boa creatura. Quando lhe morreu o marido, ficou só."
    )
    book = from_text(text, title="casmurro", gutenberg=False)
    assert [c.title for c in book.chapters] == [
        "I Do titulo.", "II. Do livro.", "III A denuncia.", "IV Um dever amarissimo!", "VII D. Gloria.",
    ]  # fmt: skip
    assert not any(p.is_heading for p in book.paragraphs if p.text.startswith(("Do ", "A ", "Um ", "D. ")))
    once = "I\n\nIt rained.\n\nThe long day began.\n\nII\n\nThe morning came over the hills, slowly and grey."
    assert [c.title for c in from_text(once, title="t", gutenberg=False).chapters] == ["I", "II"]  # one is prose


def test_numbered_endnotes_after_the_chapters_open_none():
    book = from_paragraphs(
        ["I", "Текст.", "II", "Текст.", "Примечания", "1", "Спокойно (фр.).", "2", "Ложитесь."], title="t"
    )
    assert [(c.label, c.first_paragraph, c.last_paragraph) for c in book.chapters] == [("1", 0, 1), ("2", 2, 8)]
    # a "Notes" page before the first chapter takes nothing away; a worded heading after notes still counts
    book = from_paragraphs(
        ["NOTES", "I", "Text.", "II", "Text.", "Notes", "1", "A note.", "CHAPTER III", "Text."], title="t"
    )
    assert [c.label for c in book.chapters] == ["1", "2", "3"]


def test_notes_under_each_chapter_end_at_the_next_heading():
    # Pushkin's История Пугачёва: notes after every chapter, headed "Примечания к главе …", and the
    # older spelling of the ordinals ("третия", "осьмая")
    texts = ["Глава первая", "Текст.", "Примечания к главе первой", "1", "Заметка.", "2", "Заметка.",
             "Глава третия", "Текст.", "Глава осьмая", "Текст."]  # fmt: skip
    assert [c.label for c in from_paragraphs(texts, title="t").chapters] == ["1", "3", "8"]
    # Подросток: the first part ends in its notes; the second part's sections are numbered again
    texts = [
        "ЧАСТЬ ПЕРВАЯ",
        "I",
        "Текст.",
        "Примечания",
        "1",
        "Заметка.",
        "ЧАСТЬ ВТОРАЯ",
        "I",
        "Текст.",
        "II",
        "Текст.",
    ]
    assert [c.label for c in from_paragraphs(texts, title="t").chapters] == ["1.1", "2.1", "2.2"]


def test_chapters_numbered_from_1_again_after_notes_are_chapters():
    """ELTeC's Fantasmas ends its first volume in notes numbered I to V; the second volume's chapters are
    numbered from I again, under no heading of their own. Notes numbered on stay notes."""
    first = ["I", "Texto.", "II", "Texto.", "FIM DO PRIMEIRO VOLUME", "NOTAS AO PRIMEIRO VOLUME", "I", "Nota.", "II"]
    second = ["Nota.", "I", "Texto.", "II", "Texto.", "NOTAS AO SEGUNDO VOLUME", "I", "Nota.", "II", "Nota."]
    texts = first + second
    book = from_paragraphs(texts, title="t")
    assert [(c.first_paragraph, c.last_paragraph) for c in book.chapters] == [(0, 1), (2, 9), (10, 11), (12, 18)]


def test_notes_a_chapter_ends_with_open_none():
    """RusLit's Смерть Ивана Ильича ends chapter II with its notes, "1" to "5", each a phrase
    translated, without a notes heading; a story's one note at its end ("После бала"). Bare numbers
    that each head one short paragraph and go on counting into the next heading are chapters."""
    prose = "Прасковья Федоровна во всех случавшихся невзгодах в этом новом месте жительства упрекала мужа. " * 3
    notes = ["1", "гордость семьи (франц.).", "2", "предвидь конец (лат.).", "3", "добрый малый (франц.)."]
    book = from_paragraphs(["I", prose, prose, "II", prose, *notes, "III", prose], title="t")
    assert [(c.label, c.first_paragraph) for c in book.chapters] == [("1", 0), ("2", 3), ("3", 11)]
    assert not any(book[i].is_heading for i in range(5, 11))
    assert from_paragraphs(["ПОСЛЕ БАЛА", prose, prose, "1", "Еще (франц.)."], title="t").chapters == []
    short = ["1", "Он пришёл.", "2", "Он ушёл.", "3", prose, prose]  # short chapters, counting on
    assert [c.label for c in from_paragraphs(short, title="t").chapters] == ["1", "2", "3"]


def test_page_numbers_among_the_paragraphs_open_no_chapter():
    # RusLit's Хозяйка: a scan's page number cuts a sentence in two, or leaps far past the chapters
    texts = ["I", "Он с жадностью, широко стал", "337", "вдыхать в себя холодный воздух.", "Конец страницы.",
             "341", "Новая страница.", "II", "Текст.", "3", "Текст."]  # fmt: skip
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.first_paragraph) for c in book.chapters] == [("1", 0), ("2", 7), ("3", 9)]


def test_numbers_that_count_nothing_open_no_chapter():
    """海野十三's 虫喰い算大会 (Aozora Bunko) works its puzzles through line by line: a division's last
    remainder "０" under a rule, an answer "１３" twice; 53 chapters numbered 0 and 13 had come of them.
    A zero numbers only a book's first heading (Aozora's "０００", "００１" …), and a number does not
    number the chapter after its own unless another heading comes between."""
    rule, prose = "――――", "なおよく見るのに、肝腎の除数が全然不明である。"
    puzzle = [rule, "０", prose, "１３", "□３）９４９", rule, "０", prose, "１３", prose, rule, "０", prose]
    assert [c.title for c in from_paragraphs([prose, *puzzle], title="t").chapters] == ["０", "１３"]
    counted = ["０００", prose * 30, "００１", prose * 30, "００２", prose * 30, "００２", prose * 30]
    assert [c.label for c in from_paragraphs(counted, title="t").chapters] == ["0", "1", "2"]
    # after a title, "１" numbers its essay's first section, though the essay before had only "１"
    essays = ["老樹", "１", prose * 30, "台所のしめじ茸", "１", prose * 30, "２", prose * 30]
    titles = frozenset({"老樹", "台所のしめじ茸"})  # Aozora's heading notes mark them
    assert [c.label for c in from_paragraphs(essays, title="t", headings=titles).chapters] == ["1.1", "2.1", "2.2"]


def test_numbers_between_dashes_that_are_no_chapters():
    """Only a roman numeral between dashes opens a chapter: "- 12 -" is as often a page number."""
    assert not any(map(is_heading, ["- 12 -", "-I- Perdido", "-ii-", "--"]))


def test_parts_in_other_languages_group_their_chapters():
    texts = [
        "Erster Teil",
        "Erstes Kapitel",
        "Text.",
        "Zweites Kapitel",
        "Text.",
        "Zweiter Teil",
        "Erstes Kapitel",
        "Text.",
    ]
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.part, c.first_paragraph) for c in book.chapters] == [
        ("1.1", "Erster Teil", 0), ("1.2", "Erster Teil", 3), ("2.1", "Zweiter Teil", 5),
    ]  # fmt: skip
    # the 19th century's spelling, "Theil" and "Capitel" (ELTeC's German novels)
    old_spelling = [t.replace("Teil", "Theil").replace("Kapitel", "Capitel.") for t in texts]
    assert [c.label for c in from_paragraphs(old_spelling, title="t").chapters] == ["1.1", "1.2", "2.1"]
    book = from_paragraphs(["第一卷", "第一章 风雪", "正文。", "第二章", "正文。"], title="t")
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1", "第一卷 第一章 风雪", "第一卷"),
        ("2", "第二章", "第一卷"),
    ]
    assert not any(from_paragraphs(["Chapitre premier de sa vie, il partit.", "Text."], title="t").chapters)


def test_a_long_title_follows_its_number_after_a_full_stop():
    title = "Capítulo XXXVI. Que trata de la brava y descomunal batalla que don Quijote tuvo con unos cueros de vino"
    assert is_heading(title) and Heading.parse(title).unit == ("capítulo", 36)
    prose = "Chapter three of the report, which nobody in the village had read to the end, said that the mill"
    assert len(prose) > 80 and not is_heading(prose)  # a long run on from the number is a sentence


def test_a_contents_list_naming_parts_between_titles_opens_no_chapter():
    texts = ["Contents", "PART TWO The Return", "The homecoming", "PART ONE The Voyage", "CHAPTER I", "Text.",
             "PART TWO The Return", "CHAPTER I", "Text."]  # fmt: skip
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.first_paragraph) for c in book.chapters] == [("1.1", 3), ("2.1", 6)]
    assert book[1].chapter == 0  # the contents' entry stays in the front matter


def test_a_part_then_a_bare_numeral_is_the_parts_first_chapter():
    book = from_paragraphs(["PART ONE", "I", "Text.", "II", "Text.", "PART TWO", "I", "Text."], title="t")
    assert [(c.label, c.title, c.first_paragraph) for c in book.chapters] == [
        ("1.1", "PART ONE I", 0), ("1.2", "II", 3), ("2.1", "PART TWO I", 5),
    ]  # fmt: skip
    # a name line after a part is no numeral, though it starts with the article "I" (I promessi sposi)
    texts = ["Vol. I.", "I PROMESSI SPOSI", "Storia milanese.", "CAPITOLO PRIMO.", "Text.", "CAPITOLO II.", "Text."]
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.part, c.first_paragraph) for c in book.chapters] == [("1", "Vol. I", 0), ("2", "Vol. I", 5)]


def test_a_wrapped_chinese_line_that_opens_with_a_chapter_number_is_prose():
    # a sentence ends inside it: Project Gutenberg's 紅樓夢 wraps 第五回's first paragraph so
    assert not is_heading("第四回中既將薛家母子在榮府內寄居等事略已表明，此回則暫不能寫矣．如")
    assert is_heading("第五回") and is_heading("第一回　甄士隱夢幻識通靈　賈雨村風塵怀閨秀")
    # the number runs straight into words that go on past a comma: a line broken mid-sentence (社戏, 热风)
    assert not is_heading("第一回是民国元年我初到北京的时候，当时一个朋友对我说，北京戏最好，你")
    assert not is_heading("第五卷第三号的《随感录二十五》开始，到一九一九年十一月该刊第六卷第六号的《六十六")
    # a title after a space may hold a comma, and one set without a space holds none
    assert is_heading("第一章 你好，世界") and is_heading("第一回甄士隐梦幻识通灵")
    assert is_heading("第一章：你好，世界") and is_heading("【第一章】你好，世界")  # after a mark or a bracket too


def test_rules_are_lines_of_marks_and_a_repeated_heading_under_rules_is_one_chapter():
    assert is_rule("-----") and is_rule("* * *") and is_rule("＊＊＊")
    assert not is_rule("。”") and not is_rule("第五回") and not is_rule("III")
    rule = "-" * 40
    book = from_paragraphs(
        ["第一回 甲", rule, "正文一。", "第二回 乙", rule, "第二回 乙", rule, "正文二。"], title="t", source="t"
    )
    assert [(c.title, c.first_paragraph) for c in book.chapters] == [("第一回 甲", 0), ("第二回 乙", 3)]


def test_a_line_of_han_characters_after_a_bare_chinese_heading_names_the_chapter():
    rule = "-" * 40
    texts = ["第一回", rule, "甄士隱夢幻識通靈　賈雨村風塵怀閨秀", "此開卷第一回也。", "第二回", "話說士隱。"]
    book = from_paragraphs(texts, title="t", source="t")
    assert [c.title for c in book.chapters] == ["第一回 甄士隱夢幻識通靈 賈雨村風塵怀閨秀", "第二回"]
    assert len(book) == 6  # the name stays a paragraph


def test_korean_parts_group_their_chapters_and_a_heading_word_in_prose_opens_none():
    """ "제1부" (part one) then "제1장" groups as "第一卷" does; "제3장에서" (in chapter 3) is prose."""
    body = "그날 밤 서울은 몹시 추웠다. 철수는 편지를 두 번 읽었다."
    parts = ["제1부", "제1장 만남", body, "제2장 이별", body, "제2부", "제1장 재회", body]
    assert [(c.label, c.part) for c in from_text("\n\n".join(parts), title="k").chapters] == [
        ("1.1", "제1부"), ("1.2", "제1부"), ("2.1", "제2부"),
    ]  # fmt: skip
    assert not any(is_heading(t) for t in ("제3장에서 말했듯이 그는 떠났다.", "제1장에서", "【正文】"))


def test_a_chinese_volume_written_juan_then_its_number_is_a_part():
    """Classical collections and web novels number volumes "卷一", "卷之三" (not only "第一卷"),
    alone or before the chapter on one line; "卷" as a verb opens nothing."""
    assert all(is_heading(h) for h in ("卷一", "卷之三", "卷十二", "卷一 第三章 夜雨"))
    assert not any(is_heading(h) for h in ("卷起袖子", "卷一卷书，他就走了。"))
    text = "\n\n".join(
        ["卷一", "第一章 少年", "他走了。", "第二章 夜雨", "雨下了一夜。", "卷二 第一章 归来", "他回来了。"]
    )
    book = from_text(text, title="卷")
    assert [(c.label, c.part) for c in book.chapters] == [("1.1", "卷一"), ("1.2", "卷一"), ("2.1", "卷二")]


def _chapters(parts: list[str]) -> list[tuple[str, str]]:
    return [(c.label, c.full_title) for c in from_text("\n\n".join(parts), title="sections").chapters]


def test_an_epilogue_with_chapters_of_its_own_is_a_part_numbered_after_the_last():
    """Преступление и наказание: six parts, then "ЭПИЛОГ" and its chapters "I", "II". They had run
    into the last part, and every label had fallen back to reading positions."""
    body = "Текст главы, который идёт дальше и дальше."
    parts = []
    for part in ("ЧАСТЬ ПЕРВАЯ", "ЧАСТЬ ВТОРАЯ"):
        parts += [part, "I", body, "II", body]
    parts += ["ЭПИЛОГ", "I", body, "II", body]
    assert [label for label, _ in _chapters(parts)] == ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]
    assert _chapters(parts)[4][1] == "ЭПИЛОГ — I"
    chapters_only = ["ГЛАВА I", body, "ГЛАВА II", body, "ЭПИЛОГ", "I", body, "II", body]
    assert [label for label, _ in _chapters(chapters_only)] == ["1", "2", "3.1", "3.2"]
    # Война и мир: an epilogue of two parts, "Часть первая" and "Часть вторая" again, numbered on from it
    with_parts = [*parts[:10], "Эпилог", "Часть первая", "I", body, "Часть вторая", "I", body]
    book = from_paragraphs(with_parts, title="t")
    assert [(c.label, c.part) for c in book.chapters[4:]] == [
        ("3.1", "Эпилог. Часть первая"),
        ("4.1", "Эпилог. Часть вторая"),
    ]
    assert book.chapters[4].first_paragraph == 10  # the epilogue's heading opens its first chapter
    # its first chapter's title names the epilogue and shows its part once, as the book's own first chapter does
    assert [c.full_title for c in book.chapters[:5:4]] == ["ЧАСТЬ ПЕРВАЯ I", "Эпилог. Часть первая I"]


def test_parts_over_books_over_chapters_in_russian():
    """Братья Карамазовы as RusLit sets it: "Часть первая" over "Книга первая" and its name, books numbered on
    across the parts, chapters "I", "II" in each, then "Эпилог". The part's heading and the book's had read as one
    part heading: the second part's chapters were labelled by book, but each part's first book stood under the
    part's name and its other books under their own, so "во второй части" named the fourth book alone."""
    body = "Текст главы, который идёт дальше и дальше."
    parts: list[str] = []
    for part, books in (("Часть первая", (1, 2)), ("Часть вторая", (4, 5, 6)), ("Часть третья", (7,))):
        parts.append(part)
        for book in books:
            parts += [f"Книга {_RUSSIAN_ORDINALS[book]}", "Название книги", "I", "Имя главы", body, "II", "Имя", body]
    parts += ["Эпилог", "I", "Проекты спасти Митю", body, "II", "Имя", body]
    book = from_text("\n\n".join(parts), title="Братья Карамазовы")
    assert [c.label for c in book.chapters] == [
        *("1.1", "1.2", "2.1", "2.2", "4.1", "4.2", "5.1", "5.2", "6.1", "6.2", "7.1", "7.2", "8.1", "8.2")
    ]
    assert [(c.volume, c.part) for c in book.chapters[4:6]] == [("Часть вторая", "Книга четвертая")] * 2
    assert book.chapters[-1].volume is None  # the epilogue is in no part
    named = [c.label for c in chapters_named(book.chapters, "Что происходит во второй части?")[0]]
    assert named == ["4.1", "4.2", "5.1", "5.2", "6.1", "6.2"]
    last = chapters_named(book.chapters, "Что в последней главе второй части?")[0]
    assert [c.label for c in last] == ["6.2"]


@settings(deadline=None, max_examples=60)  # the heading patterns compile on the first example
@given(
    st.lists(st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=3), min_size=2, max_size=3),
    st.booleans(),
)
def test_volumes_label_and_name_their_chapters_however_many_books_and_chapters(volumes, books_anew):
    """Volumes of books of chapters, the books counted anew in each volume or on across them: every chapter is
    labelled by volume, book and chapter, or by book and chapter, records its volume, and "Volume k" names
    exactly the chapters under "VOLUME k"."""
    roman = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    parts, expected, book_number = [], [], 0
    for v, books in enumerate(volumes, start=1):
        parts.append(f"VOLUME {roman[v]}")
        for b, chapters in enumerate(books, start=1):
            book_number = b if books_anew else book_number + 1
            parts.append(f"BOOK {roman[book_number]}")
            for c in range(1, chapters + 1):
                parts += [f"CHAPTER {roman[c]}", f"The text of chapter {c}, told at some length and plainly."]
                expected.append((v, book_number, c))
    book = from_paragraphs(parts, title="t")
    qualified = [f"{v}.{b}.{c}" if books_anew else f"{b}.{c}" for v, b, c in expected]
    unique_books = len({(v, b) for v, b, _ in expected}) == len({b for _, b, _ in expected})
    assert [c.label for c in book.chapters] == (qualified if books_anew and not unique_books else
                                                [f"{b}.{c}" for _, b, c in expected])  # fmt: skip
    assert [c.volume for c in book.chapters] == [f"VOLUME {roman[v]}" for v, _, _ in expected]
    for v in range(1, len(volumes) + 1):
        named = chapters_named(book.chapters, f"What happens in Volume {v}?")[0]
        assert [book.chapters.index(c) for c in named] == [k for k, (w, _, _) in enumerate(expected) if w == v]


def test_volumes_over_books_counted_anew_in_french_and_chinese():
    """ "TOME I" over "LIVRE PREMIER", "LIVRE DEUXIÈME", then "TOME II" over "LIVRE PREMIER" again (Les Misérables'
    layout in French), and 第一部 over 第一卷, 第二卷: labelled by volume, book and chapter."""
    french = (("TOME I", ("LIVRE PREMIER", "LIVRE DEUXIÈME")), ("TOME II", ("LIVRE PREMIER",)))
    chinese = (("第一部", ("第一卷", "第二卷")), ("第二部", ("第一卷",)))
    for volumes, unit, question, wanted in (
        (french, "Chapitre {}", "Que se passe-t-il dans le livre deuxième du tome I ?", ["1.2.1", "1.2.2"]),
        (chinese, "第{}章", "第二部中发生了什么？", ["2.1.1", "2.1.2"]),
    ):
        parts: list[str] = []
        for volume, books in volumes:
            parts.append(volume)
            for book in books:
                parts += [book, unit.format(1), "Texte du chapitre.", unit.format(2), "Texte du chapitre."]
        book = from_paragraphs(parts, title="t")
        assert [c.label for c in book.chapters] == ["1.1.1", "1.1.2", "1.2.1", "1.2.2", "2.1.1", "2.1.2"]
        assert (book.chapters[4].volume, book.chapters[4].part) == (volumes[1][0], volumes[1][1][0])
        assert [c.label for c in chapters_named(book.chapters, question)[0]] == wanted, question


_RUSSIAN_ORDINALS = {1: "первая", 2: "вторая", 4: "четвертая", 5: "пятая", 6: "шестая", 7: "седьмая"}


def test_an_epilogue_without_chapters_is_the_last_chapter_and_a_prologue_stays_front_matter():
    parts = ["PROLOGUE", "It began long ago, in the rain.", "CHAPTER I", "One.", "CHAPTER II", "Two."]
    book = from_text("\n\n".join([*parts, "Epilogue: Ten Years Later", "It ended."]), title="sections")
    assert [(c.label, c.title) for c in book.chapters] == [
        ("1", "CHAPTER I"), ("2", "CHAPTER II"), ("3", "Epilogue: Ten Years Later")
    ]  # fmt: skip
    assert book.chapters[0].first_paragraph == 2 and book.chapter_span("0") == (0, 0)  # "0": up to chapter 1
    water_margin = ["第一回 王教头私走延安府", "且说那人走了。", "尾声", "话说宋江死后，众人哀悼不已。"]
    assert [label for label, _ in _chapters(water_margin)] == ["1", "2"]
    # a play's epilogue after its last act, though its stage direction ends in 〕, not in a full stop (雷雨's 尾声)
    direction = "〔十年后，一个冬天的下午，教堂附属医院的一间特别客厅内。〕"
    play = ["第一幕", direction, "第二幕", direction, "第三幕", direction, "尾声", direction]
    assert [c.title for c in from_paragraphs(play, title="t").chapters][-1] == "尾声"
    web_novel = ["序章", "开始。", "第一章", "甲。", "第二章", "乙。", "终章", "他们终于回到了长安。"]
    assert [(c.label, c.title) for c in from_text("\n\n".join(web_novel), title="zh").chapters][-1] == ("3", "终章")
    light_novel = ["プロローグ", "始まり。", "第一章", "甲。", "第二章", "乙。", "エピローグ", "二人はまた会った。"]
    assert [c.title for c in from_text("\n\n".join(light_novel), title="ja").chapters] == [
        "第一章",
        "第二章",
        "エピローグ",
    ]


def test_a_prologue_or_preface_before_the_first_chapter_is_named_in_any_language_read():
    """The front matter's sections a reader names, each from after its heading up to the next section or the first
    chapter (Les Misérables' preface, after its contents list's entry: tests/test_books_multilingual.py); a chapter
    titled so is that one instead."""
    cases = [
        (["Предисловие", "Автор просит прощения.", "Глава первая", "Текст."], "Что говорит автор в предисловии?", 0),
        (["楔子 一元复始", "话说天下大势。", "第一回 王冕", "且说王冕。"], "楔子中讲了什么？", 0),
        (["プロローグ", "雨が降っていた。", "第一章", "朝が来た。"], "プロローグで何が起きたか", 0),
        (
            ["雷雨", "序幕", "〔教堂附属医院的一间特别客厅内。〕", "第一幕", "〔周公馆的客厅。〕"],
            "序幕中发生了什么？",
            1,
        ),
        (["自序", "余少时读书。", "第一回", "且说。"], "自序中作者说了什么？", 0),
    ]
    for parts, question, first in cases:
        book = from_paragraphs(parts, title="t")
        named, missing = chapters_named(book.chapters, question, front_sections(book))
        assert [(c.label, c.title, c.first_paragraph, c.last_paragraph) for c in named] == [
            ("0", parts[first], first + 1, first + 1)
        ] and missing == [], question
    # a preface and a prologue each end where the next begins; a chapter titled as a prologue is the one named
    both = from_paragraphs(["Preface", "Why.", "Prologue", "Long ago.", "CHAPTER I", "One."], title="t")
    assert {k: (c.first_paragraph, c.last_paragraph) for k, c in front_sections(both).items()} == {
        "preface": (1, 1),
        "prologue": (3, 3),
    }
    # 楔子 is also a wedge, 引子 a remedy's guide and 前言 what was said before: named only where the question
    # places it in the book
    plain = from_paragraphs(["第一回 王冕", "且说王冕。", "第二回 周进", "周进来了。"], title="t")
    for everyday in ("凶手用什么楔子卡住了门？", "他说话前言不搭后语，为什么？", "药引子里放了什么？"):
        assert chapters_named(plain.chapters, everyday, front_sections(plain)) == ([], []), everyday
    assert chapters_named(plain.chapters, "在楔子里，王冕做了什么？", front_sections(plain)) == ([], ["prologue"])
    titled = from_paragraphs(["CHAPTER I. PROLOGUE", "Long ago.", "CHAPTER II. THE STORM", "Rain."], title="t")
    assert [c.label for c in chapters_named(titled.chapters, "In the prologue?", front_sections(titled))[0]] == ["1"]
    assert chapters_text(["0"]) == "the front matter" and chapters_text(["0", "3", "4"]) == (
        "the front matter and chapters 3, 4"
    )


def test_an_epilogue_or_a_part_without_chapters_after_parts_is_numbered_as_a_part_not_within_one():
    """An epilogue with prose after two parts, or a part with no chapters after one that had some, is a
    chapter numbered after the parts ("3", "2"), not the last part's next chapter ("2.3", which
    --max-chapter 2 read as part 2's); one after the stories of a collection is numbered after them."""
    body = "It was a long day and nothing at all happened in it, they said."
    two_parts = ["PART I", "CHAPTER I", body, "CHAPTER II", body, "PART II", "CHAPTER I", body, "CHAPTER II", body]
    assert [label for label, _ in _chapters([*two_parts, "EPILOGUE", body])] == ["1.1", "1.2", "2.1", "2.2", "3"]
    assert [label for label, _ in _chapters([*two_parts[:5], "PART II", body])] == ["1.1", "1.2", "2"]
    # Униженные и оскорблённые: "ЭПИЛОГ", its name on the next line, then prose: a chapter, with its name
    named = [*two_parts, "ЭПИЛОГ", "Последние воспоминания", body]
    assert _chapters(named)[-1] == ("3", "ЭПИЛОГ Последние воспоминания")
    # Война и мир's second volume: "ЧАСТЬ ВТОРАЯ.", prose, "II.": the part heading opens its chapter 1
    numeral_left_out = [*two_parts[:5], "PART II.", body, "CHAPTER II", body]
    assert [label for label, _ in _chapters(numeral_left_out)] == ["1.1", "1.2", "2.1", "2.2"]
    stories = ["I. THE FIRST TALE", "I.", body, "II.", body, "II. THE SECOND TALE", "I.", body, "II.", body]
    assert [label for label, _ in _chapters([*stories, "EPILOGUE", body])] == ["1.1", "1.2", "2.1", "2.2", "3"]


def test_a_closing_section_named_as_one_is_the_last_chapter_only_where_no_numbered_chapter_follows():
    """Middlemarch's "FINALE.", Silas Marner's "CONCLUSION.", "Schluß.", "Conclusión" (eight of ELTeC's
    Spanish novels) ran into the last chapter. As a chapter's name ("CHAPTER XXX. CONCLUSION") or
    before the next numbered chapter (a scholar's "Conclusion" to an argument) it opens none."""
    body = "It was a long day and nothing at all happened in it, they said."
    chapters = ["CHAPTER I", body, "CHAPTER II", body]
    for closing in ("FINALE.", "CONCLUSION.", "Schluß.", "Conclusión", "Заключение"):
        assert _chapters([*chapters, closing, body])[-1] == ("3", closing)
    assert _chapters([*chapters, "CHAPTER III. CONCLUSION", body])[-1] == ("3", "CHAPTER III. CONCLUSION")
    # Middlemarch: its chapters run on across its books, so "FINALE." follows chapter 4 here, not book 2
    books = ["BOOK I", "CHAPTER I", body, "CHAPTER II", body, "BOOK II", "CHAPTER III", body, "CHAPTER IV", body]
    assert [label for label, _ in _chapters([*books, "FINALE.", body])] == ["1", "2", "3", "4", "5"]
    # La Colonia Felice's "FINALE" and its name; Der Golem's "Schluß", then a quotation: prose
    assert _chapters([*chapters, "FINALE", "La Patria", body])[-1] == ("3", "FINALE La Patria")
    assert _chapters([*chapters, "Schluß", "»– – – wie ein Stück Fett!«", body])[-1] == ("3", "Schluß")
    argued = ["CHAPTER I", body, "Conclusion", body, "CHAPTER II", body]
    assert [label for label, _ in _chapters(argued)] == ["1", "2"]
    assert not is_heading("Conclusion of the matter") and not is_heading("Finale, at last, the storm broke.")


def test_a_contents_list_naming_an_epilogue_opens_no_chapter():
    """A standalone epilogue must open with prose, and an epilogue holds chapters only from its
    first one on: a contents list names it among short entries."""
    contents = ["CONTENTS", "Chapter I", "Chapter II", "Epilogue"]
    body = ["CHAPTER I", "One.", "CHAPTER II", "Two.", "EPILOGUE", "It ended, as all things do."]
    chapters = from_text("\n\n".join(contents + body), title="contents").chapters
    assert [(c.label, c.title, c.first_paragraph) for c in chapters] == [
        ("1", "CHAPTER I", 4), ("2", "CHAPTER II", 6), ("3", "EPILOGUE", 8)
    ]  # fmt: skip
    assert not is_heading("Epilogue of the tale was long, and he said so.")


HAMLET = """The Project Gutenberg eBook of Hamlet, Prince of Denmark

Title: Hamlet, Prince of Denmark

*** START OF THE PROJECT GUTENBERG EBOOK HAMLET, PRINCE OF DENMARK ***

Contents

ACT I
Scene I. Elsinore. A platform before the Castle.
Scene II. Elsinore. A room of state in the Castle.
ACT II
Scene I. A room in Polonius's house.

ACT I

SCENE I. Elsinore. A platform before the Castle.

Enter Francisco and Barnardo, two sentinels.

BARNARDO.
Who's there?

SCENE II. Elsinore. A room of state in the Castle.

Enter the King, Queen, Hamlet, Polonius, Laertes, Voltemand, Cornelius, Lords and Attendant.

KING.
Though yet of Hamlet our dear brother's death the memory be green.

ACT II

SCENE I. A room in Polonius's house.

Enter Polonius and Reynaldo.

POLONIUS.
Give him this money and these notes, Reynaldo.

*** END OF THE PROJECT GUTENBERG EBOOK HAMLET, PRINCE OF DENMARK ***
"""


def test_a_play_s_acts_are_its_parts_and_its_scenes_its_chapters():
    """A scene is cited as Act I, Scene II: "1.2"; its place, a sentence after the scene's number,
    is its name; the contents list at the top opens no chapter."""
    book = from_text(HAMLET, title="Hamlet")
    assert [(c.label, c.part, c.title) for c in book.chapters] == [
        ("1.1", "ACT I", "ACT I SCENE I. Elsinore. A platform before the Castle."),
        ("1.2", "ACT I", "SCENE II. Elsinore. A room of state in the Castle."),
        ("2.1", "ACT II", "ACT II SCENE I. A room in Polonius's house."),
    ]
    contents = book.paragraphs[book.chapters[0].first_paragraph - 1]
    assert contents.text.startswith("ACT I Scene I.") and contents.chapter == 0  # front matter


@pytest.mark.parametrize(
    ("headings", "labels_wanted"),
    [
        (["ACTE PREMIER", "SCÈNE PREMIÈRE", "Scène II", "ACTE II", "SCÈNE PREMIÈRE"], ["1.1", "1.2", "2.1"]),
        (["ERSTER AUFZUG", "Erster Auftritt", "Zweiter Auftritt", "Zweiter Akt", "Szene 1"], ["1.1", "1.2", "2.1"]),
        (["ACTO PRIMERO", "Escena I", "Escena II", "JORNADA SEGUNDA", "Escena primera"], ["1.1", "1.2", "2.1"]),
        (["ATTO PRIMO", "Scena prima", "Scena II", "Atto secondo", "Scena I"], ["1.1", "1.2", "2.1"]),
        (["Ato primeiro", "Cena I", "Cena II", "Acto segundo", "Cena primeira"], ["1.1", "1.2", "2.1"]),
        (["Действие первое", "Явление I", "Явление II", "АКТ ВТОРОЙ", "Сцена первая"], ["1.1", "1.2", "2.1"]),
        (["ΠΡΑΞΙΣ ΠΡΩΤΗ", "Σκηνή Α'", "ΣΚΗΝΗ Β'", "Πράξη δεύτερη", "Σκηνή πρώτη"], ["1.1", "1.2", "2.1"]),
        (["第一幕", "第一场", "第二场", "第二幕", "第一場"], ["1.1", "1.2", "2.1"]),
        (["제1막", "제1장", "제2장", "제2막", "제1장"], ["1.1", "1.2", "2.1"]),
        # a Japanese or Chinese part (編, 编, 篇) over its chapters, as 第一編 heads a Meiji novel's first part
        (["第一編", "第一章", "第二章", "第二編", "第一章"], ["1.1", "1.2", "2.1"]),
        (["第一篇　总论", "第一章", "第二章", "第二篇　分论", "第一章"], ["1.1", "1.2", "2.1"]),
        (["Действие первое", "Действие второе", "Действие третье"], ["1", "2", "3"]),  # acts alone: chapters
    ],
)
def test_plays_in_other_languages(headings, labels_wanted):
    texts = [t for heading in headings for t in (heading, "Lorem ipsum dolor sit amet, consectetur.")]
    book = from_paragraphs(texts, title="t")
    assert [c.label for c in book.chapters] == labels_wanted


def test_a_scene_word_in_prose_opens_no_scene():
    assert not any(map(is_heading, ["第一场雪落在院子里。", "第一场雪", "Chapter one was the best of the book."]))
    assert not any(map(is_heading, ["第一篇文章写得好", "第一编辑室"]))  # the first article, an editors' room
    assert not any(map(is_heading, ["Der Brief war lang.", "Carta de amor", "Письмо от матери."]))
    assert is_heading("Scène III. Le salon de Célimène.") and is_heading("CHAPTER IV. In which Mr. Pickwick arrives.")


def test_headings_as_russian_e_texts_set_them():
    """RusLit's layouts: Бесы sets a chapter's name on the line under "Глава первая" in one block
    (joined, the name's length and full stop would read as prose); Гоголь heads "Глава II," with a
    comma before the summary in capitals; Кто виноват? numbers its chapters "I. ОТСТАВНОЙ ГЕНЕРАЛ…"."""
    prose = "    Приступая к описанию недавних и столь странных событий, происшедших в нашем городе. " * 3
    name = "     Вместо введения: несколько подробностей из биографии многочтимого Степана Трофимовича Верховенского."
    besy = [
        "    Часть первая",
        f"     Глава первая\n{name}",
        prose,
        "     Глава вторая\n     Принц Гарри. Сватовство",
        prose,
    ]
    book = from_paragraphs(besy, title="Бесы")
    assert [(c.label, c.part) for c in book.chapters] == [("1", "Часть первая"), ("2", "Часть первая")]
    assert book.chapters[0].title.startswith("Часть первая Глава первая Вместо введения")
    summary = "ИЗ КОТОРОЙ МОЖНО УЗНАТЬ, ЧЕГО ЗАХОТЕЛОСЬ ИВАНУ ИВАНОВИЧУ, О ЧЕМ ПРОИЗОШЕЛ РАЗГОВОР МЕЖДУ НИМИ"
    gogol = ["Глава I\nИВАН ИВАНОВИЧ И ИВАН НИКИФОРОВИЧ", prose, f"Глава II,\n{summary}", prose]
    assert [c.label for c in from_paragraphs(gogol, title="t").chapters] == ["1", "2"]
    herzen = ["I. ОТСТАВНОЙ ГЕНЕРАЛ И УЧИТЕЛЬ, ОПРЕДЕЛЯЮЩИЙСЯ К МЕСТУ", prose, "II. БИОГРАФИЯ", prose]
    assert [c.label for c in from_paragraphs(herzen, title="t").chapters] == ["1", "2"]


def test_a_numeral_before_a_line_of_prose_or_an_author_s_initial_is_no_heading():
    not_headings = ["C. COLLODI", "M. DE SAINT-ÉVREMOND", "I. Went home.", "Chapter 2, he said, was long."]
    assert not any(map(is_heading, not_headings))
    # an elided article is no Roman numeral: "L'" is not 50, "D'" not 500
    assert [Heading.parse(t).unit for t in ("L'ÉTOILE AUX CHEVEUX D'OR", "D’ARTAGNAN", "L. — Le départ")] == [
        None, None, ("", 50),
    ]  # fmt: skip
    # Italian's plural article and English's pronoun are no numeral I: Barbieri's Lucifero titles its chapters
    # "L'Ergastolo", "I condannati della Corsia", and the second had taken the first's title for its own
    words_or_numerals = ("I condannati della Corsia", "I went home", "I Élan", "I. la partenza")
    assert [Heading.parse(t).unit for t in words_or_numerals] == [None, None, ("", 1), ("", 1)]
    prose = "Erano scorsi trecento e più mila anni dacchè il mondo non era più. " * 3
    texts = ["L'Ergastolo", prose, "I condannati della Corsia", prose]
    book = from_paragraphs(texts, title="t", marked_headings=[True, False, True, False])
    assert [(c.title, c.first_paragraph) for c in book.chapters] == [
        ("L'Ergastolo", 0), ("I condannati della Corsia", 2),
    ]  # fmt: skip
    # four digits are a year that titles a chapter, no chapter 1806 and no page number (DEU018, Anna)
    prose = "Es war im Herbste des Jahres, als die Truppen durch das kleine Städtchen zogen. " * 3
    texts = ["Vorrede", prose, "1806", prose, "1822", prose]
    book = from_paragraphs(texts, title="Anna", marked_headings=[True, False] * 3)
    assert [(c.label, c.title, c.first_paragraph) for c in book.chapters] == [
        ("1", "Vorrede", 0), ("2", "1806", 2), ("3", "1822", 4),
    ]  # fmt: skip
    block = "IV\nThe next morning John rose early and went down\nto the kitchen."
    assert from_paragraphs([block, "More prose."], title="t").chapters == []  # a numeral and the prose under it


def test_a_marked_title_opening_with_a_roman_letter_is_not_a_numbered_chapter():
    """Project Gutenberg's HTML I promessi sposi marks its title "I Promessi Sposi" as a heading before
    "I.", "II.": the "I" is a word, so the title stays front matter; "一　お猿さん" is numbered."""
    prose = "Quel ramo del lago di Como, che volge a mezzogiorno, tra due catene non interrotte di monti."
    texts = ["I Promessi Sposi", "Storia milanese", "I.", prose, "II.", prose]
    book = from_paragraphs(texts, title="t", marked_headings=[True, False, True, False, True, False])
    assert [(c.label, c.title) for c in book.chapters] == [("1", "I."), ("2", "II.")]
    texts = ["次郎物語", "一　お猿さん", "次郎は乳母の家で育った。", "二　お玉杓子", "捕まえた。"]
    book = from_paragraphs(texts, title="t", marked_headings=[True, True, False, True, False])
    assert [c.label for c in book.chapters] == ["1", "2"] and book.chapters[0].title == "一 お猿さん"


def test_parts_named_by_their_place_head_their_sections_in_a_plain_text():
    """こころ without Aozora's markup: "上　先生と私", "中　両親と私", "下　先生と遺書", each over sections "一", "二"
    …, are its parts (1.1 to 3.56; they had been 110 chapters in reading order, the parts' titles lost, unless a
    contents page named them). A 上 alone, or places out of order, are no parts."""
    raw = gzip.decompress((Path(__file__).parent.parent / "clueweaver/data/books/kokoro.ja.txt.gz").read_bytes())
    body = raw.decode("utf-8").split("-" * 55)[2]
    plain = re.sub(r"《[^》]*》", "", re.sub(r"［＃[^］]*］", "", body)).replace("｜", "")
    contents = "こころ\n\n上　先生と私\n\n中　両親と私\n\n下　先生と遺書\n\n"
    for text in (plain, contents + plain):  # with a contents page, its entries name the parts too
        labels_by_part: dict = {}
        for chapter in from_text(text, title="こころ").chapters:
            labels_by_part.setdefault(chapter.part, []).append(chapter.label)
        assert {part: (labels[0], labels[-1]) for part, labels in labels_by_part.items()} == {
            "上 先生と私": ("1.1", "1.36"), "中 両親と私": ("2.1", "2.18"), "下 先生と遺書": ("3.1", "3.56"),
        }  # fmt: skip
    prose = "私はその人を常に先生と呼んでいた。だから此所でもただ先生と書くだけで本名は打ち明けない。"
    halves = ["前編", "一", prose, "二", prose, "後編", "一", prose]
    assert [(c.label, c.part) for c in from_paragraphs(halves, title="t").chapters] == [
        ("1.1", "前編"), ("1.2", "前編"), ("2.1", "後編"),
    ]  # fmt: skip
    for not_parts in (["上", "一", prose, "二", prose], ["下", "一", prose, "上", "二", prose]):
        assert all(c.part is None for c in from_paragraphs(not_parts, title="t").chapters)
    # a question names such a part by its place and word unquoted, and a chapter said with it is that part's
    volumes = ["上巻", "第一章", prose, "第二章", prose, "下巻　帰郷", "第一章", prose, "第二章", prose]
    chapters = from_paragraphs(volumes, title="t").chapters
    named = {q: [c.label for c in chapters_named(chapters, q)[0]] for q in ("下巻では", "上巻の第二章で", "下の方に")}
    assert named == {"下巻では": ["2.1", "2.2"], "上巻の第二章で": ["1.2"], "下の方に": []}
    kokoro = from_text(plain, title="こころ").chapters
    assert [c.label for c in chapters_named(kokoro, "「先生と遺書」の第三十五章で")[0]] == ["3.35"]
    # a part headed by its place alone is named so right before a chapter of it; "以上" and "下の方" are words
    questions = ("上の第三章で", "下第二章と中の最後の章で", "以上第三章で", "下の方で")
    named = {q: [c.label for c in chapters_named(kokoro, q)[0]] for q in questions}
    assert named == {
        "上の第三章で": ["1.3"], "下第二章と中の最後の章で": ["3.2", "2.18"], "以上第三章で": ["1.3", "2.3", "3.3"],
        "下の方で": [],
    }  # fmt: skip


def test_a_word_the_book_numbers_in_order_heads_its_sections():
    """Белые ночи's "Ночь первая" to "Ночь четвертая", 夢十夜's "第一夜", a Decameron's "Giornata
    prima": no chapter word names them, but one word with the numbers 1, 2, 3 in order on lines of
    their own numbers the book's sections, a contents list of them before the text aside."""
    prose = "Была чудная ночь, такая ночь, которая разве только и может быть тогда, когда мы молоды. " * 2
    nights = ["Ночь первая", "Ночь вторая", "Ночь третья", "Ночь четвертая"]
    book = from_paragraphs(["Белые ночи", *nights] + [t for night in nights for t in (night, prose)], title="t")
    assert [(c.label, c.title, c.first_paragraph) for c in book.chapters] == [
        ("1", "Ночь первая", 5), ("2", "Ночь вторая", 7), ("3", "Ночь третья", 9), ("4", "Ночь четвертая", 11)
    ]  # fmt: skip
    dream = "こんな夢を見た。腕組をして枕元に坐っていると、女が静かな声で言った。"
    yume = [t for n in "一二三四" for t in (f"第{n}夜", dream)]
    assert [c.title for c in from_paragraphs(yume, title="t").chapters] == ["第一夜", "第二夜", "第三夜", "第四夜"]
    giornate = [t for g in ("prima", "seconda", "terza") for t in (f"Giornata {g}", "Comincia la giornata.")]
    assert len(from_paragraphs(giornate, title="t").chapters) == 3


def test_numbered_titles_in_mixed_case_head_sections_when_they_count_up():
    """Вечный муж as RusLit sets it: "I. Вельчанинов", "II. Господин с крепом на шляпе". Alone, a
    numeral and a title in mixed case could open a sentence; in order 1, 2, 3 they head sections. A
    list (one line after another) or a numbered sentence stays text."""
    prose = "Пришло лето – и Вельчанинов, сверх ожидания, остался в Петербурге. " * 3
    titles = [
        "I. Вельчанинов",
        "II. Господин с крепом на шляпе",
        "III. Павел Павлович Трусоцкий",
        "IV. Жена, муж и любовник",
    ]
    book = from_paragraphs([t for title in titles for t in (title, prose)], title="t")
    assert [(c.label, c.title) for c in book.chapters] == [(str(n), t) for n, t in enumerate(titles, start=1)]
    listed = [prose, "1. Купить хлеба", "2. Зайти к Лизе", "3. Написать письмо", prose]
    assert from_paragraphs(listed, title="t").chapters == []
    sentences = [t for n in ("I", "II", "III") for t in (f"{n}. Went home.", prose)]
    assert from_paragraphs(sentences, title="t").chapters == []


def test_numbered_chinese_titles_head_sections_when_they_count_up():
    """A modern Chinese book's "一、两兄弟", "（二）雨夜", "三　来信", "4．别离": a number and a title,
    numbered 1, 2, 3 in order, head its sections, however the number is set. A list (one line after
    another), items that do not count up, prose that opens with a numeral ("一个人"), and a run set
    two ways at once stay text."""
    prose = "他走进屋里，看见桌上放着一封信。信是他的老朋友写来的，说下个月要来北京。"
    titles = ["两兄弟", "雨夜", "来信", "别离"]
    set_so = ("一、 二、 三、 四、", "（一） （二） （三） （四）", "一\u3000 二\u3000 三\u3000 四\u3000")
    for numbers in (*set_so, "1、 2、 3、 4、", "１． ２． ３． ４．"):
        heads = [n + t for n, t in zip(numbers.split(" "), titles)]
        book = from_paragraphs([p for head in heads for p in (head, prose)], title="t")
        wanted = [(str(n), h.replace("\u3000", " ")) for n, h in enumerate(heads, 1)]  # a title's spaces are one
        assert [(c.label, c.title) for c in book.chapters] == wanted, numbers
    listed = [prose, "一、不准吸烟", "二、不准喧哗", "三、不准随地吐痰", prose]
    assert from_paragraphs(listed, title="t").chapters == []
    unordered = [p for head in ("一、两兄弟", "三、雨夜", "二、来信") for p in (head, prose)]
    assert from_paragraphs(unordered, title="t").chapters == []
    sentences = [p for n in "一二三" for p in (f"{n}个人走了", prose)]
    assert from_paragraphs(sentences, title="t").chapters == []
    mixed = [p for head in ("一、两兄弟", "（二）雨夜", "三　来信") for p in (head, prose)]
    assert from_paragraphs(mixed, title="t").chapters == []
    # a bare number set in full-width forms, alone on its line ("１２．", "（12）"), heads a section as "12." does
    wide = str.maketrans("0123456789", "０１２３４５６７８９")
    for style in ("{}．", "（{}）", "{}."):
        heads = [style.format(str(n).translate(wide) if "．" in style else n) for n in range(1, 13)]
        book = from_paragraphs([p for head in heads for p in (head, prose, prose, prose)], title="t")
        assert [c.label for c in book.chapters] == [str(n) for n in range(1, 13)], style


def test_numbered_lines_that_are_no_sections_open_no_chapter():
    """A list of numbered lines one after another (an army's divisions), a dialogue's speakers
    taking turns ("Голос первый", "Голос второй"; Macbeth's three witches), a figure's caption and a
    verse line opening with "第三囘に" are no headings."""
    prose = "その日の戦は朝から始まった。兵は川を渡り、山の麓に陣を敷いた。"
    divisions = ["第一隊 池田勝入ノ兵六千", "第二隊 森武蔵守ノ兵三千", "第三隊 堀秀政ノ兵三千"]
    assert from_paragraphs([prose, *divisions, prose], title="t").chapters == []
    voices = [t for n in ("первый", "второй") * 3 for t in (f"Голос {n}", "Я здесь, я жду тебя.")]
    assert from_paragraphs(voices, title="t").chapters == []
    witches = [t for _ in range(4) for n in ("First", "Second", "Third") for t in (f"{n} Witch.", "Fair is foul.")]
    assert from_paragraphs(witches, title="t").chapters == []
    figures = [t for n in "一二三" for t in (f"第{n}図", prose)]
    assert from_paragraphs(figures, title="t").chapters == []
    captions = ["第１章図２ Epidaurian Aesculapius", "第３章 図３ Portrait of an unknown Physician", "第三章 表一"]
    assert not any(map(is_heading, captions)) and is_heading("第三章 表と裏")  # a figure's caption; a title
    assert not is_heading("第三囘に抛げ飛ばし先の二人の標超す、") and is_heading("第三囘 賈雨村夤緣復舊職")
    assert is_heading("第一幕の二") and not is_heading("第一回の発作")  # act 1, scene 2; "the first seizure"


@pytest.mark.parametrize(
    ("first", "second", "last"),
    [
        ("Capítulo I", "Capítulo II", "Capítulo último"),
        ("CAPITULO I", "CAPITULO II", "CAPITULO ULTIMO"),
        ("Erstes Kapitel", "Zweites Kapitel", "Letztes Kapitel"),
        ("Chapitre I", "Chapitre II", "Dernier chapitre"),
        ("Явление I", "Явление II", "Явление последнее"),
        ("Chapter I", "Chapter II", "Chapter the Last"),
        ("Chapter I", "Chapter II", "The Last Chapter."),
    ],
)
def test_the_last_chapter_named_so_is_numbered_after_the_one_before(first, second, last):
    prose = "Il était une fois un homme qui marchait dans la rue et pensait à sa femme."
    book = from_paragraphs([first, prose, second, prose, last, prose], title="t")
    assert [(c.label, c.title) for c in book.chapters] == [("1", first), ("2", second), ("3", last)]


def test_a_last_word_before_a_chapter_word_in_prose_opens_no_chapter():
    assert not is_heading("Последняя глава «Евгения Онегина» издана")
    assert is_heading("Последняя глава") and is_heading("Dernier chapitre.")


def test_a_contents_list_ending_before_a_preface_opens_no_chapter():
    """殆知阁's 儒林外史 lists its 回 under the title, then a preface, then the text: the list's last
    entry, followed by the preface's heading and not by another entry, is an entry still."""
    names = ("说楔子敷陈大义", "王孝廉村学识同科", "周学道校士拔真才", "荐亡斋和尚吃官司")
    hui = [f"第{n}回 {name}" for n, name in zip("一二三四", names)]
    prose = "这一首词，也是个老生长谈。不过说：人生富贵功名，是身外之物。"
    texts = [
        "《儒林外史》作者：清·吴敬梓",
        *hui,
        "前言",
        "中国的白话长篇小说。",
        *[t for h in hui for t in (h, prose)],
    ]
    book = from_paragraphs(texts, title="t")
    assert [(c.label, c.first_paragraph) for c in book.chapters] == [("1", 7), ("2", 9), ("3", 11), ("4", 13)]


def test_titles_a_contents_list_names_head_the_sections_it_lists():
    """三国志通俗演义's 嘉靖本 and 戸坂潤's 社会時評 head their sections with titles alone, no number
    and no chapter word, and list them first ("目次"): the titles the text repeats in the list's order
    on lines of their own open its chapters, the first one too when it follows the list directly."""
    titles = ["思想問題恐怖症", "自由主義の悲劇面", "転向万歳", "倫理化時代"]
    prose = "満州国が独立したのを一等喜んだものの内に、満州の娘子軍があると云うことである。"
    texts = ["社会時評", "戸坂潤", "目次", *titles, *[t for title in titles for t in (title, prose, prose)]]
    book = from_paragraphs(texts, title="t")
    assert [(c.title, c.first_paragraph) for c in book.chapters] == list(zip(titles, [7, 10, 13, 16]))
    volume_1 = [
        "祭天地桃园结义",
        "刘玄德斩寇立功",
        "安喜张飞鞭督邮",
        "何进谋杀十常侍",
        "董卓议立陈留王",
        "吕布刺杀丁建阳",
    ]
    volume_2 = [
        "董卓火烧长乐宫",
        "袁绍孙坚夺玉玺",
        "赵子龙磐河大战",
        "孙坚跨江战刘表",
        "司徒王允说貂蝉",
        "凤仪亭布戏貂蝉",
    ]
    prose = "后汉桓帝崩，灵帝即位，时年十二岁。朝廷有大将军窦武、太傅陈蕃、司徒胡广共相辅佐。"
    jiajing = ["三国志通俗演义", "明 罗贯中 嘉靖壬午本", "卷之一", *volume_1, "卷之二", *volume_2, "序", prose]
    jiajing += [t for title in volume_1 + volume_2 for t in (title, prose)]
    assert [c.title for c in from_paragraphs(jiajing, title="t").chapters][-12:] == volume_1 + volume_2


def test_short_lines_repeated_in_order_are_no_contents_list():
    """A song quoted twice repeats its lines one after another, and a play's speakers recur in
    order far into the book: neither makes headings."""
    prose = "She sang it again that evening, more slowly, while the others listened in silence."
    song = ["Over the hills and far away", "The wind is in the willow", "My love is gone to sea"]
    book = from_paragraphs(["A Song", *song, prose, prose, *song, prose], title="t")
    assert book.chapters == []
    play = [prose] * 40 + [
        t for _ in range(3) for t in ("FAUST", "Habe nun, ach!", "MEPHISTOPHELES", "Ich bin der Geist")
    ]
    assert from_paragraphs(play, title="t").chapters == []


def test_a_cast_list_and_its_speakers_are_no_contents_list():
    """A play lists its persons first and names each speaker on a line of its own, in the list's
    order the first time round: a name the text repeats is no title."""
    cast = ["HAMLET", "HORATIO", "MARCELLUS", "BERNARDO"]
    speech = "Long live the king! He comes most carefully upon his hour."
    play = ["THE PERSONS", *cast, "Elsinore. A platform before the castle."]
    play += [t for _ in range(2) for name in cast for t in (name, speech)]
    assert from_paragraphs(play, title="t").chapters == []


def test_a_book_without_headings_is_told_how_to_give_its_chapters(tmp_path, capsys):
    """No heading found: `chapters` and a chapter limit say which headings ClueWeaver reads and that
    a Markdown file's '# ' lines give them, and such a file does."""
    prose = "他走进屋里，看见桌上放着一封信。信上写着几个字，他读了很久，终于明白了其中的意思。"
    titles = ["楔子", "风雪山神庙", "智取生辰纲"]
    plain, marked = tmp_path / "novel.txt", tmp_path / "novel.md"
    plain.write_text("\n\n".join(t for title in titles for t in (title, prose)), encoding="utf-8")
    marked.write_text("\n\n".join(t for title in titles for t in (f"# {title}", prose)), encoding="utf-8")
    assert main(["chapters", str(plain)]) == 0
    assert "note: no chapter headings were found" in capsys.readouterr().err
    with pytest.raises(NarrativeError, match="no chapter limit applies: no chapter headings were found.*Markdown"):
        load_narrative(plain).chapter_span("2")
    assert [c.title for c in load_narrative(marked).chapters] == titles


def test_sections_a_book_numbers_within_its_chapters():
    """Подросток as RusLit sets it: "* ЧАСТЬ ПЕРВАЯ *", "Глава первая", then sections "I.", "II." in
    every chapter; a Japanese novel's "第一章", then "一", "二". In a book with parts the chapters
    are its chapter headings (a label has two levels); without parts each chapter holds its sections
    ("2.1"). Read as chapters, "Глава первая" was a contents entry and the sections were numbered in
    reading order, so that chapter 3 was the first chapter's third section."""
    prose = "Не утерпев, я сел записывать эту историю моих первых шагов на жизненном поприще. " * 3

    def sectioned(heads: list[str], sections: list[str]) -> list[str]:
        return [t for head in heads for t in (head, *(t for s in sections for t in (s, prose)))]

    podrostok = ["* ЧАСТЬ ПЕРВАЯ *", *sectioned(["Глава первая", "Глава вторая"], ["I.", "II.", "III."])]
    podrostok += ["* ЧАСТЬ ВТОРАЯ *", *sectioned(["Глава первая", "Глава вторая"], ["I.", "II."])]
    book = from_text("\n\n".join(podrostok), title="Подросток")
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1.1", "* ЧАСТЬ ПЕРВАЯ * Глава первая", "ЧАСТЬ ПЕРВАЯ"), ("1.2", "Глава вторая", "ЧАСТЬ ПЕРВАЯ"),
        ("2.1", "* ЧАСТЬ ВТОРАЯ * Глава первая", "ЧАСТЬ ВТОРАЯ"), ("2.2", "Глава вторая", "ЧАСТЬ ВТОРАЯ"),
    ]  # fmt: skip
    assert book.paragraphs[book.chapters[1].first_paragraph + 1].is_heading  # a section's heading stays one
    assert [c.full_title for c in book.chapters[:2]] == [
        "* ЧАСТЬ ПЕРВАЯ * Глава первая",
        "ЧАСТЬ ПЕРВАЯ — Глава вторая",
    ]
    japanese = sectioned(["第一章", "第二章 存在の歴史性"], ["一", "二"])
    book = from_paragraphs(japanese, title="t")
    assert [(c.label, c.part) for c in book.chapters[1:3]] == [("1.2", "第一章"), ("2.1", "第二章 存在の歴史性")]
    named = ["第一章 歴史の概念", "第二章 存在の歴史性"]  # Aozora Bunko marks these large headings: its parts
    marked = from_paragraphs(sectioned(named, ["一", "二"]), title="t", part_headings=frozenset(named))
    assert [(c.label, c.part) for c in marked.chapters[1:3]] == [("1.2", named[0]), ("2.1", named[1])]
    once = sectioned(["第一章"], ["一", "二"]) + sectioned(["第二章"], [])
    assert [c.label for c in from_paragraphs(once, title="t").chapters] == ["1.1", "1.2", "2"]
    bare = ["Глава первая", prose, *(t for n in ("I.", "II.", "III.") for t in (n, prose))]  # not right under it
    assert [c.label for c in from_paragraphs(bare, title="t").chapters] == ["1", "2", "3", "4"]


def test_sections_in_a_sections_word_under_chapters_and_parts():
    """A Chinese or Japanese book of three levels, "第一部" over "第一章" over "第一節": the sections lie within
    their chapters, as bare "一", "二" do, and a question names a chapter by its part and number, with a section
    of it or not. Read as
    chapters, each 節 had been a chapter numbered in reading order, most under the wrong chapter's heading."""
    prose = "彼はその日、町へ出て、古い友人に会った。二人は長いあいだ話をした。"
    for part_word, chapter_word, section_word in (("部", "章", "節"), ("卷", "章", "节")):
        paragraphs = [
            t
            for p in "一二"
            for t in (
                f"第{p}{part_word}　旅",
                *(
                    t
                    for c in "一二"
                    for t in (f"第{c}{chapter_word}", *(t for s in "一二" for t in (f"第{s}{section_word}", prose)))
                ),
            )
        ]
        chapters = from_paragraphs(paragraphs, title="t").chapters
        assert [(c.label, c.part) for c in chapters] == [
            ("1.1", f"第一{part_word} 旅"), ("1.2", f"第一{part_word} 旅"),
            ("2.1", f"第二{part_word} 旅"), ("2.2", f"第二{part_word} 旅"),
        ]  # fmt: skip
        for question in (
            f"第二{part_word}第二{chapter_word}で",
            f"第二{part_word}第二{chapter_word}第一{section_word}で",
        ):
            assert [c.label for c in chapters_named(chapters, question)[0]] == ["2.2"], question


@pytest.mark.parametrize(
    ("heading", "components"),
    [
        ("2ª PARTE", (("parte", 2),)),  # a Portuguese novel's parts (CLiGS's rp0023)
        ("1.ª Parte", (("parte", 1),)),
        ("Capítulo 1.º", (("capítulo", 1),)),
        ("Capitolo 3°", (("capitolo", 3),)),  # a degree sign typed for º
        ("Cap. IV.", (("cap.", 4),)),  # CLiGS's cuentos españoles
        ("CAPITOLO VENTESIMOPRIMO", (("capitolo", 21),)),  # Nievo's Le confessioni d'un Italiano (ELTeC)
        ("Capitolo ventesimo terzo", (("capitolo", 23),)),
    ],
)
def test_ordinal_indicators_abbreviations_and_older_italian_ordinals_number_a_heading(heading, components):
    assert is_heading(heading) and Heading.parse(heading).components == components


def test_an_ordinal_indicator_or_an_abbreviation_in_prose_heads_nothing():
    assert not is_heading("Tenía la 2ª parte de la casa alquilada a un sastre.")
    assert not is_heading("Cap. Smith went home.")


def test_a_heading_an_edition_supplies_in_brackets_reads_as_its_own():
    """CLiGS's Ostorius heads two scenes the print left unheaded "[SCÈNE V].": the edition's bracket
    closes right after the number (their text had run on in the scene before); a bracket that closes
    later holds a note, not a heading."""
    scenes = ["ACTE II", "SCÈNE IV. Caractacus, Didius.", "Vers.", "[SCÈNE V].", "Vers.", "ACTE III", "SCÈNE I."]
    book = from_paragraphs(scenes, title="t", marked_headings=[t != "Vers." for t in scenes])
    assert [(c.label, c.title) for c in book.chapters] == [
        ("4", "ACTE II SCÈNE IV. Caractacus, Didius."), ("5", "[SCÈNE V]."), ("1", "ACTE III SCÈNE I."),
    ]  # fmt: skip
    assert Heading.parse("[CHAPTER XII] The Storm").components == (("chapter", 12),)
    assert not is_heading("[Chapter 3 is left out of this edition]") and not is_heading("[Illustration]")


def test_a_part_of_unnumbered_titles_keeps_them_as_its_chapters():
    """ELTeC's Le Captain Cap: a first part of titled sections, then a second of numbered chapters
    whose long summaries ("Chapitre II -- Où l'on apprend…") make them read as numbered: the first
    part's titles stay its chapters, where a book of numbered headings leaves an unnumbered one in the
    chapter before it."""
    prose = "Le Captain Cap se présentait aux électeurs de Paris avec un programme qui tenait en une ligne."
    texts = [
        "Première partie", "Le Captain Cap devant le suffrage universel", "Ville de Paris", prose,
        "Profession de foi du Captain Cap", prose,
        "Deuxième partie", prose, "Chapitre I", prose,
        "Chapitre II -- Où l'on apprend comment le Captain Cap acquitte ses dettes, et d'autres choses encore.", prose,
    ]  # fmt: skip
    marked = [text != prose for text in texts]
    book = from_paragraphs(texts, title="t", marked_headings=marked)
    assert [c.title for c in book.chapters][1:3] == ["Ville de Paris", "Profession de foi du Captain Cap"]
    assert [c.title for c in book.chapters][-2:] == ["Chapitre I", texts[-2]] and len(book.chapters) == 5


def test_titled_sections_after_the_last_chapter_are_chapters_only_in_a_book_s_body():
    """After chapter III, "Breuvages" and "Appendice" open prose: in a TEI or FictionBook body
    (``body_only``) each is a chapter, numbered on ("4", "5"); a notes heading stays in the chapter
    before it. Elsewhere (an EPUB, a plain text) such headings are back matter: a colophon, the notes
    an Aozora text sets after its chapters (宝島's "註"), all in the last chapter."""
    prose = "Le Captain Cap versa dans un grand verre un peu de chaque flacon qui se trouvait sur le comptoir."
    texts = ["Chapitre I", prose, "Chapitre II", prose, "Chapitre III", prose]
    texts += ["Breuvages", prose, prose, "Appendice", prose, "Notes", "(1) Glace pilée, quelques gouttes d'angustura."]
    marked = [text.startswith(("Chapitre", "Breuvages", "Appendice", "Notes")) for text in texts]
    body = from_paragraphs(texts, title="t", marked_headings=marked, body_only=True)
    assert [(c.label, c.title, c.first_paragraph, c.last_paragraph) for c in body.chapters][2:] == [
        ("3", "Chapitre III", 4, 5), ("4", "Breuvages", 6, 8), ("5", "Appendice", 9, 12),
    ]  # fmt: skip
    edition = from_paragraphs(texts, title="t", marked_headings=marked)
    assert [c.label for c in edition.chapters] == ["1", "2", "3"] and edition.chapters[-1].last_paragraph == 12


def test_a_date_under_a_marked_chapter_heading_is_its_name():
    """La petite Comtesse (ELTeC) heads its letters "Chapitre 2", then the date: the date names the
    chapter and opens none, though it opens with digits."""
    prose = "Je vous écris de ce château où la pluie tombe depuis trois jours sans relâche, mon ami."
    texts = ["Chapitre 1", "14 septembre.", prose, "Chapitre 2", "16 septembre.", prose]
    book = from_paragraphs(texts, title="t", marked_headings=[t != prose for t in texts])
    assert [c.title for c in book.chapters] == ["Chapitre 1 14 septembre.", "Chapitre 2 16 septembre."]


def test_the_last_chapter_named_so_after_a_part_heading_is_its_first():
    """Ginx's Baby (ELTeC): "PART V.", then "The Last Chapter." is 5.1, not the chapter after 4.6."""
    prose = "Ginx's Baby had grown into a boy who knew the streets of Westminster better than any policeman."
    texts = [
        "PART IV. WHAT THE CLUBS DID WITH HIM.", "I.—Moved on.", prose, "II.—Club Ideas.", prose,
        "PART V. WHAT GINX'S BABY DID WITH HIMSELF.", "The Last Chapter.", prose,
    ]  # fmt: skip
    book = from_paragraphs(texts, title="t", marked_headings=[t != prose for t in texts])
    assert [c.label for c in book.chapters] == ["4.1", "4.2", "5.1"]


def test_an_epilogue_named_after_a_chapter_number_is_the_chapter_name():
    """ "CHAPTER XL. EPILOGUE" is chapter 40, named Epilogue: no part (it had read the epilogue word
    as a second, part-like component, and the chapter's part as "")."""
    prose = "He walked home slowly through the rain, thinking of everything that had happened that year."
    book = from_paragraphs(["CHAPTER XXXIX. THE END", prose, "CHAPTER XL. EPILOGUE", prose], title="t")
    assert [(c.label, c.part) for c in book.chapters] == [("39", None), ("40", None)]
    assert Heading.parse("CHAPTER XL. EPILOGUE").name == "EPILOGUE" and Heading.parse("EPILOGUE").is_epilogue


def test_korean_chapters_epilogue_and_numbered_titles_but_not_prose():
    prose = "그는 방 안으로 들어가 책상 위에 놓인 편지를 보았다. 편지는 서울에서 온 것이었다."
    book = from_paragraphs(
        ["프롤로그", prose, "제1장", prose, "제2장", prose, "3장 남았다.", "제일 먼저 온 사람은 그였다."]
        + ["에필로그", prose],
        title="t",
    )
    assert [(c.label, c.title) for c in book.chapters] == [("1", "제1장"), ("2", "제2장"), ("3", "에필로그")]
    assert book.paragraphs[1].chapter == 0  # a prologue stays in the front matter, as in every language
    titled = from_paragraphs([t for n in "一二三" for t in (f"{n}. 인간기념물 {n}", prose)], title="t")
    assert [c.label for c in titled.chapters] == ["1", "2", "3"]


@pytest.mark.parametrize(
    "headings",
    [
        ("Część pierwsza", "Rozdział I", "Tom II", "Rozdział I", "Zakończenie"),
        ("Díl první", "Kapitola I.", "Díl druhý", "Kapitola I.", "Závěr"),
        ("Első rész", "I. fejezet", "Második rész", "I. fejezet", "Befejezés"),
        ("Partea întâi", "Capitolul I", "Partea a doua", "Capitolul I", "Epilog"),
    ],
)
def test_polish_czech_and_hungarian_parts_hold_their_chapters_and_a_closing_section_follows_them(headings):
    prose = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt."
    book = from_paragraphs([t for heading in headings for t in (heading, prose)], title="t")
    assert [(c.label, c.part) for c in book.chapters] == [("1.1", headings[0]), ("2.1", headings[2]), ("3", None)]


def _centred(line: str) -> str:
    return " " * 20 + line


def test_a_collection_s_centred_titles_open_its_stories():
    body = "　　{}的第一段，写了很多话。\n　　第二段。"
    stories = [_centred("孔乙己⑴"), "", _centred("鲁迅"), "", body.format("孔乙己"), "", _centred("药〔１〕"), ""]
    stories += [body.format("药"), "", _centred("一九一九年四月。"), "", _centred("（一九一九年四月二十五日）"), ""]
    stories += [_centred("明　　天"), "", body.format("明天")]
    stories += ["", _centred("一"), "", body.format("上半"), "", _centred("二"), "", body.format("下半")]
    text = "\n\n".join(["呐喊目录", "孔乙己⑴", "药〔１〕", "明　　天", "\n".join(stories)])  # a contents list first
    assert centred_titles(text) == {"孔乙己⑴", "鲁迅", "药〔１〕", "明　　天"}  # no date, bracketed or not, no section
    book = from_text(text, title="呐喊")
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1", "孔乙己", None),  # the author's name under it is its own, the contents list front matter
        ("2", "药", None),
        ("3.1", "一", "明天"),
        ("3.2", "二", "明天"),
    ]
    assert [p.chapter for p in book.paragraphs[:5]] == [0, 0, 0, 0, 1] and book[4].text == "孔乙己⑴"
    assert story_name("在 酒 楼 上") == "在酒楼上"


def test_centred_lines_that_are_no_collection_s_titles_open_nothing():
    poem = "\n".join(["", _centred("秋夜"), "", "　　正文。", "", _centred("影的告别"), "", "　　正文。"])
    assert centred_titles(poem) == frozenset()  # two: a title page and an epigraph look so too
    named = [
        [_centred(f"第{n}章"), "", _centred(name), "", "　　正文，很长的一段。"] for n, name in zip("一二三", "风雨山")
    ]
    novel = "\n".join(line for chapter in named for line in chapter)
    assert centred_titles(novel) == frozenset()  # each the name under a numbered heading
    assert [c.label for c in from_text(novel, title="t").chapters] == ["1", "2", "3"]
    chapters = [
        [f"第{n}回", "", "　　正文，很长的一段。", "", _centred(poem), "", "　　诗句。", ""]
        for n, poem in zip("一二三", ("咏菊", "问菊", "画菊"))
    ]
    novel = "\n".join(line for chapter in chapters for line in chapter)  # a poem's title set centred in each 回
    book = from_text(novel, title="t")
    assert len(centred_titles(novel)) == 3 and [c.title for c in book.chapters] == ["第一回", "第二回", "第三回"]
    assert not any(p.is_heading for p in book.paragraphs if p.text.endswith("菊"))
    english = "\n\n".join(["", _centred("THE END"), "Text.", _centred("A POEM"), "Text.", _centred("FIN")])
    assert centred_titles(english + "\n\n" + _centred("ENVOI")) == frozenset()  # no Chinese or Japanese


def test_numbered_epilogues_are_each_their_own():
    """ "Epilogue I", "Epilogue II" had parsed alike, as one epilogue without a number, and the second read as
    the source repeating the first, which it swallowed; "FIRST EPILOGUE" was no heading at all."""
    for first, second in (("Epilogue I", "Epilogue II"), ("FIRST EPILOGUE: 1813 - 20", "Second Epilogue")):
        assert Heading.parse(first).part[1] == 1 and Heading.parse(second).part[1] == 2
    assert not is_heading("First he said so.") and Heading.parse("Erster Epilog").part == ("epilog", 1)
    body = "Some long text of the chapter that goes on and on. " * 4
    text = "\n\n".join(f"{heading}\n\n{body}" for heading in ("CHAPTER I", "CHAPTER II", "Epilogue I", "Epilogue II"))
    book = from_text(text, title="t", gutenberg=False)
    assert [(c.label, c.title) for c in book.chapters][2:] == [("3", "Epilogue I"), ("4", "Epilogue II")]


def test_a_web_novel_s_extras_are_chapters_after_its_last():
    """A Chinese web novel ends with 番外 ("extras"), numbered or not, after its last 章 (and its 尾声): each
    is a chapter of its own, numbered on, not the last chapter's text; a question names them as 番外."""
    body = "　　正文，很长的一段话，说了很多事情。" * 4
    headings = ("第一章 开始", "第二章 大结局", "尾声", "番外一 春节", "番外二：中秋")
    book = from_text("\n\n".join(f"{heading}\n\n{body}" for heading in headings), title="t")
    assert [(c.label, c.title) for c in book.chapters][2:] == [
        ("3", "尾声"),
        ("4", "番外一 春节"),
        ("5", "番外二：中秋"),
    ]
    assert not is_heading("番外的故事很长，他说。")
    assert [c.label for c in chapters_named(book.chapters, "番外二里他们在哪里过中秋？")[0]] == ["5"]
    assert [c.label for c in chapters_named(book.chapters, "在尾声里他们怎样了？")[0]] == ["3"]


def test_a_heading_never_names_its_unit_twice():
    """Contents lines joined in one paragraph (Project Gutenberg's Iliad indents them one space) are no heading;
    a part and its chapter, an act and its scene, are."""
    assert not is_heading("BOOK I. BOOK II. BOOK III. BOOK IV.") and not is_heading("第一回 第二回 第三回")
    assert not is_heading("Letter 1 Letter 2 Letter 3 Chapter 1")
    assert is_heading("PART 2 CHAPTER I") and is_heading("ACT I SCENE I. Elsinore.") and is_heading("第一卷 第一回")


def test_a_part_s_name_before_the_unit_s_word_and_a_contents_list_s_next_entry():
    """ "Inferno: Canto I" (Project Gutenberg's Divine Comedy) is Canto I; "BOOK III" with "BOOK IV" on the next line
    is two contents entries, not a heading and its name (Paradise Lost's contents)."""
    assert is_heading("Inferno: Canto I") and Heading.parse("Purgatorio: Canto XXXIII").unit == ("canto", 33)
    assert not is_heading("Note: Chapter 5 was removed from the book.")
    assert not heads_its_block("BOOK III\nBOOK IV") and heads_its_block("Глава первая\nВместо введения")


def test_an_epic_s_cantos_in_french_german_and_russian():
    """ "Chant I" (La Divine Comédie), "Erster Gesang", "ПЕСНЬ ПЕРВАЯ" number their cantos as "Canto primo" does."""
    for heading, word in (("Chant I", "chant"), ("Erster Gesang", "gesang"), ("ПЕСНЬ ПЕРВАЯ", "песнь")):
        assert is_heading(heading) and Heading.parse(heading).unit == (word, 1)
    lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore."
    book = from_paragraphs([t for h in ("Chant I", "Chant II", "Chant III") for t in (h, lorem)], title="t")
    assert [c.label for c in book.chapters] == ["1", "2", "3"]  # "Chant I" had opened no chapter
    assert [c.label for c in chapters_named(book.chapters, "Que dit Virgile au chant II ?")[0]] == ["2"]
