"""Narrative features the benchmark loaders rely on: texts without blank lines between
paragraphs (CJK ones too), over-long paragraphs cut at sentence ends, single HTML documents, and
the normalization used to find strings in paragraphs."""

import json

from clueweaver.books.narrative import (
    MAX_PARAGRAPH_CHARS,
    from_html,
    from_paragraphs,
    from_text,
    load_narrative,
    normalize_text,
)
from clueweaver.books.sentences import split_long_paragraph

WRAPPED = """THE QUIET HARBOUR
By A. N. Author
Nell had kept the light on Gull Point for eleven years, and in all that
time no ship had foundered on the reef below her tower. She trimmed the
wick at dusk and again at midnight.
"You will ruin your eyes," the harbourmaster told her.
She laughed at him. The lamp was brighter than any star, she said, and a
star had never yet ruined anybody's eyes, though it had guided a great
many sailors home across the dark water of the bay.
That winter the supply boat did not come for three weeks, and the oil
ran low.
"""


def test_hard_wrapped_text_without_blank_lines_is_cut_at_paragraph_ends():
    narrative = from_text(WRAPPED * 3, title="harbour")  # many lines, no blank line between paragraphs
    texts = [p.text for p in narrative.paragraphs]
    assert texts[0] == "THE QUIET HARBOUR By A. N. Author"  # short lines with no wider line before them stay joined
    assert texts[1] == (
        "Nell had kept the light on Gull Point for eleven years, and in all that time no ship had "
        "foundered on the reef below her tower. She trimmed the wick at dusk and again at midnight."
    )
    assert texts[2] == '"You will ruin your eyes," the harbourmaster told her.'
    assert texts[3].startswith("She laughed at him.") and texts[3].endswith("dark water of the bay.")
    assert texts[4] == "That winter the supply boat did not come for three weeks, and the oil ran low."
    # after a wide line the short title lines stand alone
    assert texts[5:7] == ["THE QUIET HARBOUR", "By A. N. Author"] and texts[7:11] == texts[1:5]
    assert len(narrative) == 17


def test_one_paragraph_per_line_text_keeps_every_line():
    long_line = "The inspector read the letter twice, " * 10
    text = "\n".join([long_line + "first.", '"Well?" said Holmes.', long_line + "second."])
    assert [p.text for p in from_text(text, title="t").paragraphs] == [
        normalize_text(long_line + "first."),
        '"Well?" said Holmes.',
        normalize_text(long_line + "second."),
    ]


def test_blank_line_paragraphs_are_left_alone():
    text = "CHAPTER I\n\nA short\nwrapped paragraph.\n\nContents\nChapter 1. The Sea\nChapter 2. The Shore"
    assert [p.text for p in from_text(text, title="t").paragraphs] == [
        "CHAPTER I",
        "A short wrapped paragraph.",
        "Contents Chapter 1. The Sea Chapter 2. The Shore",
    ]


def test_a_chapter_numeral_typed_right_under_the_text_before_it_is_a_heading_of_its_own():
    """RusLit's Записки из подполья: part II's epigraph, its attribution, then "     I" with no blank
    line between them; the numeral was lost in the epigraph's paragraph and chapter 2.1 with it. A
    QuALITY story (L-Eval's copy) sets its "   II" so after a paragraph. A wrapped line at the same
    indent ("King Henry", "IV.") goes on."""
    poem = "      Когда из мрака заблужденья\n      Горячим словом убеждения\n          Из поэзии Н. А. Некрасова"
    body = "    В то время мне было всего двадцать четыре года. Жизнь моя была уж и тогда угрюма."
    text = "\n\n".join(["    Часть I", "     I", body, "    Часть II", poem + "\n     I", body, "     II", body])
    book = from_text(text, title="t")
    assert [c.label for c in book.chapters] == ["1.1", "2.1", "2.2"]
    assert book.paragraphs[4].text.endswith("Некрасова") and book.paragraphs[5].text == "I"
    story = 'you live to\n tell the tale."  \n   II\n\n They came at dawn.'
    assert [p.text for p in from_text(story, title="t").paragraphs] == [
        'you live to tell the tale."', "II", "They came at dawn."
    ]  # fmt: skip
    wrapped = "The crown passed at last to the old man's son, King Henry\nIV.\n\nAnd then the wars began."
    assert [p.text for p in from_text(wrapped, title="t").paragraphs][0].endswith("King Henry IV.")


def test_html_document_blocks_become_paragraphs_and_headings_chapters():
    html = (
        "<html><body><h1>THE TIDE</h1><p>Belgian<br/>politics were <i>dull</i>.</p>"
        "<div><p>Second.</p></div><h2>Part Two</h2><p>Third.</p></body></html>"
    )
    narrative = from_html(html, title="The Tide", source="x.html")
    assert [p.text for p in narrative.paragraphs] == [
        "THE TIDE",
        "Belgian politics were dull.",  # no space where the inline <i> ends
        "Second.",
        "Part Two",
        "Third.",
    ]
    # the title heading, before the first numbered one, is front matter; "Part Two" opens the chapter
    assert [(c.title, c.first_paragraph) for c in narrative.chapters] == [("Part Two", 3)]
    assert [p.chapter for p in narrative.paragraphs] == [0, 0, 0, 1, 1]


def test_html_headings_are_read_as_a_texts_headings_parts_names_and_front_matter():
    """A Tale of Two Cities as an EPUB marks it: a title and a contents heading, parts in h2, and
    each chapter's number and name in two h3s. Every heading had been a chapter in reading order."""
    body = "<p>It was the best of times, it was the worst of times.</p>" * 3
    html = (
        "<h1>A TALE OF TWO CITIES</h1><p>by Charles Dickens</p><h2>Contents</h2><p>CHAPTER I. The Period</p>"
        f"<h2>Book the First—Recalled to Life</h2><h3>CHAPTER I.</h3><h3>The Period</h3>{body}"
        f"<h3>CHAPTER II.</h3><h3>The Mail</h3>{body}"
        f"<h2>Book the Second—the Golden Thread</h2><h3>CHAPTER I.</h3><h3>Five Years Later</h3>{body}"
    )
    narrative = from_html(f"<html><body>{html}</body></html>", title="A Tale of Two Cities")
    assert [(c.label, c.title, c.part, c.first_paragraph) for c in narrative.chapters] == [
        ("1.1", "CHAPTER I. The Period", "Book the First—Recalled to Life", 4),
        ("1.2", "CHAPTER II. The Mail", "Book the First—Recalled to Life", 10),
        ("2.1", "CHAPTER I. Five Years Later", "Book the Second—the Golden Thread", 15),
    ]
    assert {p.chapter for p in narrative.paragraphs[:4]} == {0}  # title page and contents: front matter


def test_unnumbered_headings_in_a_numbered_book_open_no_chapter_of_their_own():
    """Standard Ebooks' layout: title page, imprint, a prologue, chapters "I"-"III" with an
    interlude between, then endnotes, colophon and licence, each under its own h2. Any of them as a
    chapter would have numbered every chapter by position."""
    body = "<p>The diamond was gone by morning, and the household knew it before breakfast.</p>" * 3
    sections = ["<h1>The Moonstone</h1><p>By Wilkie Collins.</p>", "<h2>Imprint</h2><p>A volunteer's ebook.</p>",
                f"<h2>Prologue</h2>{body}", f"<h2>I</h2>{body}", f"<h2>II</h2>{body}", f"<h2>Interlude</h2>{body}",
                f"<h2>III</h2>{body}", "<h2>Endnotes</h2><ol><li><p>1 See chapter two.</p></li></ol>",
                "<h2>Colophon</h2><p>Published in 1868.</p>", "<h2>Uncopyright</h2><p>Do good.</p>"]  # fmt: skip
    narrative = from_html(f"<html><body>{''.join(sections)}</body></html>", title="The Moonstone")
    assert [(c.label, c.first_paragraph, c.last_paragraph) for c in narrative.chapters] == [
        ("1", 8, 11), ("2", 12, 19), ("3", 20, 29),
    ]  # fmt: skip
    assert narrative.paragraphs[16].text == "Interlude" and narrative.paragraphs[16].chapter == 2


def test_a_japanese_epub_s_chapters_under_h4_and_its_unnumbered_parts():
    """An Aozora Bunko EPUB heads こころ's parts in h3 ("上　先生と私") and its sections in h4 ("一"):
    h4 is read as a heading since it numbers the chapters, and the parts group them ("2.1")."""
    body = "<p>私はその人を常に先生と呼んでいた。だから此所でもただ先生と書くだけで本名は打ち明けない。</p>"
    html = (
        "<h1>こころ</h1><p>夏目漱石</p>"
        f"<h3>上　先生と私</h3><h4>一</h4>{body}<h4>二</h4>{body}<h3>中　両親と私</h3><h4>一</h4>{body}"
    )
    narrative = from_html(f"<html><body>{html}</body></html>", title="こころ")
    assert [(c.label, c.part, c.first_paragraph) for c in narrative.chapters] == [
        ("1.1", "上 先生と私", 2), ("1.2", "上 先生と私", 5), ("2.1", "中 両親と私", 7),
    ]  # fmt: skip
    # a chapter's subsection under h4 stays a paragraph when h4 numbers nothing
    sections = "<h2>Chapter 1</h2><p>One.</p><h4>A subsection</h4><p>More.</p><h2>Chapter 2</h2><p>Two.</p>"
    narrative = from_html(f"<html><body>{sections}</body></html>", title="t")
    assert [(c.label, c.first_paragraph) for c in narrative.chapters] == [("1", 0), ("2", 4)]
    assert not narrative.paragraphs[2].is_heading


def test_html_in_chinese_or_japanese_keeps_its_characters_together_and_leaves_ruby_readings_out():
    html = (
        "<html><body><h1>第一章</h1><p>私は<ruby>先生<rp>（</rp><rt>せんせい</rt><rp>）</rp></ruby>と\n"
        "<ruby><rb>鎌倉</rb><rt>かまくら</rt></ruby>で出会った。</p>"
        "<p>宝玉<span class='n'>笑道</span>：“好。”</p></body></html>"
    )
    texts = [p.text for p in from_html(html, title="t", source="x.html").paragraphs]
    assert texts == ["第一章", "私は先生と鎌倉で出会った。", "宝玉笑道：“好。”"]
    # a space the text itself has between two characters stays: only the markup's line breaks go
    heading = from_html("<html><body><h1>第一回　甄士隱夢幻識通靈</h1><p>話說。</p></body></html>", title="t")
    assert heading.paragraphs[0].text == "第一回 甄士隱夢幻識通靈"


def test_normalize_text_matches_stored_paragraphs():
    assert normalize_text("  bell\n rang\t twice ") == "bell rang twice"
    assert normalize_text("cafe\u0301") == "caf\u00e9"


def test_a_paragraph_over_the_limit_is_cut_between_sentences_by_every_loader(tmp_path):
    sentences = [f"Sentence number {i} tells of the lighthouse and the reef below it." for i in range(80)]
    long = " ".join(sentences)  # 5,400 characters, no blank line
    narrative = from_text(f"CHAPTER I\n\n{long}\n\nThe end.", title="long")
    pieces = [p.text for p in narrative.paragraphs[1:-1]]
    assert len(pieces) == 3 and all(len(p) <= MAX_PARAGRAPH_CHARS for p in pieces)
    assert " ".join(pieces) == long and all(p.endswith("below it.") for p in pieces)  # whole sentences
    assert narrative.split_paragraphs == 1 and [p.chapter for p in narrative.paragraphs] == [1] * 5
    # the same cut, so the same paragraph IDs, whatever file the book comes in
    (tmp_path / "b.md").write_text(f"# CHAPTER I\n\n{long}\n\nThe end.", encoding="utf-8")
    (tmp_path / "b.jsonl").write_text(
        "\n".join(json.dumps({"chapter": "CHAPTER I", "text": t}) for t in ("CHAPTER I", long, "The end.")),
        encoding="utf-8",
    )
    html = from_html(f"<h1>CHAPTER I</h1><p>{long}</p><p>The end.</p>", title="long")
    for other in (load_narrative(tmp_path / "b.md"), load_narrative(tmp_path / "b.jsonl"), html):
        assert [p.text for p in other.paragraphs] == [p.text for p in narrative.paragraphs]
        assert other.split_paragraphs == 1
    # a JSONL that numbers its paragraphs keeps them whole: its labels count them
    (tmp_path / "n.jsonl").write_text(json.dumps({"paragraph": 0, "text": long}), encoding="utf-8")
    numbered = load_narrative(tmp_path / "n.jsonl")
    assert len(numbered) == 1 and numbered.split_paragraphs == 0
    assert from_paragraphs([long], title="as given")[0].text == long  # callers that count paragraphs themselves


def test_a_sentence_over_the_limit_is_cut_in_its_quotation_then_at_a_clause_mark_then_anywhere():
    speech = "“" + " ".join(f"I saw the ship number {i} go down." for i in range(90)) + "”"
    first, second = split_long_paragraph(speech, MAX_PARAGRAPH_CHARS)  # cut at a sentence end inside the quotation
    assert len(first) <= MAX_PARAGRAPH_CHARS and first.endswith("go down.") and f"{first} {second}" == speech
    clauses = "，".join(f"他走过第{i}座桥" for i in range(400)) + "。"
    pieces = split_long_paragraph(clauses, MAX_PARAGRAPH_CHARS)
    assert all(len(p) <= MAX_PARAGRAPH_CHARS and p.endswith(("，", "。")) for p in pieces)
    assert "".join(pieces) == clauses
    pieces = split_long_paragraph("x" * 4500, MAX_PARAGRAPH_CHARS)
    assert [len(p) for p in pieces] == [2000, 2000, 500]  # no mark, no space
    assert split_long_paragraph("Short.", MAX_PARAGRAPH_CHARS) == ["Short."]


CJK_LINES = [
    "第一章　雨夜",
    "　　那天夜里下着大雨，街上一个人也没有。",
    "　　“谁在外面？”老人问道。",
    "　　没有人回答。他披上衣服，提着灯走到门口，看见台阶上放着一只湿透的木箱。",
    "第二章　木箱",
    "　　木箱里是一封信。",
]


def test_a_cjk_text_with_one_paragraph_per_line_and_no_blank_lines():
    narrative = from_text("\n".join(CJK_LINES), title="雨夜")
    assert [p.text for p in narrative.paragraphs] == [line.strip().replace("\u3000", " ") for line in CJK_LINES]
    assert [(c.label, c.first_paragraph) for c in narrative.chapters] == [("1", 0), ("2", 4)]
    long = "\n".join(CJK_LINES * 30)  # a longer book reads the same way
    assert len(from_text(long, title="雨夜")) == len(CJK_LINES) * 30


def test_a_hard_wrapped_cjk_text_joins_its_lines_without_spaces():
    paragraph = "那天夜里下着大雨街上一个人也没有老人听见敲门声便披上衣服提着灯走到门口看见台阶上放着一只湿透的木箱。"
    wrapped = [paragraph[i : i + 20] for i in range(0, len(paragraph), 20)]  # 40 columns
    text = "\n".join(["第一章　雨夜", *(["　　" + wrapped[0], *wrapped[1:]] * 3)])
    narrative = from_text(text, title="雨夜")
    assert [p.text for p in narrative.paragraphs] == ["第一章 雨夜", paragraph, paragraph, paragraph]


GUTENBERG_HTML = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>The Project Gutenberg eBook of A Tale of Two Cities, by Charles Dickens</title></head><body>
<section class="pg-boilerplate pgheader" id="pg-header"><h2>The Project Gutenberg eBook of A Tale of Two Cities</h2>
<p>This ebook is for the use of anyone anywhere.</p></section>
<h1>A TALE OF TWO CITIES</h1><p>By Charles Dickens</p><h2>CONTENTS</h2>
<table><tr><td><a href="#c1">CHAPTER I. The Period</a></td></tr></table>
<h2>Book the First—Recalled to Life</h2><h3 id="c1">CHAPTER I.<br/>The Period</h3>
<p>It was the best of times, it was the worst of times.</p><h3>CHAPTER II.<br/>The Mail</h3>
<p>It was the Dover road that lay, on a Friday night late in November, before the first of the persons.</p>
<section class="pg-boilerplate" id="pg-footer"><h2>THE FULL PROJECT GUTENBERG LICENSE</h2><p>Licence.</p></section>
</body></html>"""


def test_a_gutenberg_html_edition_loads_with_its_title_chapters_and_no_licence(tmp_path):
    """A researcher's copy is often the HTML edition: its <title> without Project Gutenberg's words,
    its h1-h3 headings as chapters ("CHAPTER I.<br/>The Period" one line), its licence left out."""
    path = tmp_path / "98-h.htm"
    path.write_text(GUTENBERG_HTML, encoding="utf-8")
    book = load_narrative(path)
    assert book.title == "A Tale of Two Cities" and book.encoding == "utf-8"
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1", "CHAPTER I. The Period", "Book the First—Recalled to Life"),
        ("2", "CHAPTER II. The Mail", "Book the First—Recalled to Life"),
    ]
    assert not any("Gutenberg" in p.text or "Licence" in p.text for p in book.paragraphs)


def test_a_chinese_html_page_in_gbk_is_read_and_its_chapters_listed(tmp_path, capsys):
    """A saved Chinese web page (GBK, as many are): the encoding is detected and named, 第N回 found."""
    from clueweaver.cli import main

    body = "<p>" + "却说那老残在济南府游历，看见大明湖的风景，心中十分欢喜，便在湖边住了几日。" * 3 + "</p>"
    html = "<html><head><title>老残游记</title></head><body><h1>老残游记</h1>"
    html += "".join(f"<h2>第{n}回 {name}</h2>{body}{body}" for n, name in (("一", "土不制水"), ("二", "历山山下")))
    path = tmp_path / "laocan.html"
    path.write_bytes((html + "</body></html>").encode("gbk"))
    book = load_narrative(path)
    assert book.title == "老残游记" and book.encoding_detected and book.encoding in ("gb18030", "gbk", "gb2312")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "第一回 土不制水"), ("2", "第二回 历山山下")]
    assert main(["chapters", str(path)]) == 0
    assert "第二回 历山山下" in capsys.readouterr().out


def _aozora_xhtml() -> str:
    """An Aozora Bunko XHTML file's layout: a metadata block, the text as lines ended by <br /> in
    div.main_text with ruby, an editor's note and midashi headings, then the colophon."""
    line = (
        "　私はその人を常に<ruby><rb>先生</rb><rp>（</rp><rt>せんせい</rt><rp>）</rp></ruby>と呼んでいた。"
        "だから<span class='notes'>［＃「だから」に傍点］</span>本名は打ち明けない。<br />\n"
    )

    def section(number: str) -> str:
        return f"<h4 class='naka-midashi'><a class='midashi_anchor'>{number}</a></h4><br />\n{line * 2}"

    return (
        '<?xml version="1.0" encoding="Shift_JIS"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="ja">'
        "<head><title>夏目漱石 こころ</title></head><body>\n<div class='metadata'><h1 class='title'>こころ</h1>"
        "<h2 class='author'>夏目漱石</h2></div>\n<div class='main_text'><br />\n"
        f"<h3 class='o-midashi'>上　先生と私</h3><br />\n{section('一')}{section('二')}"
        f"<h3 class='o-midashi'>中　両親と私</h3><br />\n{section('一')}</div>\n"
        "<div class='bibliographical_information'><hr /><br />底本：「こゝろ」角川文庫<br />入力：高野彰<br /></div>"
        "</body></html>"
    )


def test_an_aozora_bunko_xhtml_file_reads_its_lines_parts_and_sections(tmp_path):
    """The text is loose lines in a <div>, not <p> elements: each line is a paragraph. Ruby readings,
    editor's notes and the colophon are left out, as the text path leaves them out."""
    path = tmp_path / "773_14560.html"
    path.write_bytes(_aozora_xhtml().encode("shift_jis"))
    book = load_narrative(path)
    assert book.title == "こころ" and book.encoding == "shift_jis"
    assert [(c.label, c.part, c.first_paragraph) for c in book.chapters] == [
        ("1.1", "上 先生と私", 2), ("1.2", "上 先生と私", 6), ("2.1", "中 両親と私", 9),
    ]  # fmt: skip
    assert book.paragraphs[4].text == "私はその人を常に先生と呼んでいた。だから本名は打ち明けない。"
    assert not any(word in book.text for word in ("せんせい", "［＃", "底本", "入力"))


def test_an_aozora_bunko_xhtml_files_gaiji_images_are_read_as_their_characters():
    """A character Shift_JIS lacks is an image whose alt text describes it; its text had been dropped, the ※ too."""
    line = (
        '森<img src="../../../gaiji/1-94/1-94-69.png" alt="※(「區＋鳥」、第3水準1-94-69)" class="gaiji" />外は'
        '<img src="../../../gaiji/2-12/2-12-11.png" alt="※(「廴＋囘」、第4水準2-12-11)" class="gaiji" />り、'
        '<img src="x.png" alt="※(「骨＋昜」、144-3)" class="gaiji" />を見た。<br />'
    )
    html = f"<html><body><div class='main_text'>{line}</div></body></html>"
    assert [p.text for p in from_html(html, title="t").paragraphs] == ["森鷗外は𢌞り、※を見た。"]


def test_loose_text_in_html_is_kept_and_read_as_a_plain_texts_lines():
    """Text outside <p> (a <div> of lines, a table cell) had been dropped; a <br> wraps a line, a blank
    line (two <br>) ends a paragraph, as in a plain text."""
    html = (
        "<html><body><div>First line<br>second <i>line</i><br><br>Another one.</div>"
        "<table><tr><td>A cell.</td></tr></table></body></html>"
    )
    assert [p.text for p in from_html(html, title="t").paragraphs] == [
        "First line second line", "Another one.", "A cell."
    ]  # fmt: skip


def test_a_western_book_written_as_lines_ended_by_br_keeps_its_paragraphs():
    """Hard-wrapped lines each ended by <br>, a blank line between paragraphs: one paragraph a block,
    not one a line (read as the text loader reads such a text)."""
    wrapped = "The dance was over before\nthe lamps were lit, and Nell\nwalked home alone.\n\nShe did not look back."
    html = "<html><body><div>" + wrapped.replace("\n", "<br/>\n  ") + "</div></body></html>"
    assert [p.text for p in from_html(html, title="t").paragraphs] == [
        "The dance was over before the lamps were lit, and Nell walked home alone.", "She did not look back."
    ]  # fmt: skip


def test_a_chinese_web_novel_and_a_french_page_written_with_br_keep_their_paragraphs():
    """A Chinese web novel's chapter is a <div> of indented paragraphs between <br /><br />; a French
    page breaks a <p> the same way and wraps inside a paragraph with a lone <br/>."""
    chinese = (
        "<html><body><div id='content'>&nbsp;&nbsp;&nbsp;&nbsp;王掌柜说，案发当晚他亲眼看见李四。<br /><br />"
        "&nbsp;&nbsp;&nbsp;&nbsp;李四却说那晚他在城外。<br /><br /></div></body></html>"
    )
    assert [p.text for p in from_html(chinese, title="t").paragraphs] == [
        "王掌柜说，案发当晚他亲眼看见李四。", "李四却说那晚他在城外。"
    ]  # fmt: skip
    french = "<html><body><p>Hélène attendait<br/>sur le quai.<br/><br/>Le train n'arriva jamais.</p></body></html>"
    assert [p.text for p in from_html(french, title="t").paragraphs] == [
        "Hélène attendait sur le quai.", "Le train n'arriva jamais."
    ]  # fmt: skip


def test_a_quality_article_s_blank_br_line_inside_a_p_ends_a_paragraph():
    """QuALITY's raw articles break paragraphs with <br/><br/> inside one <p> (its release notes), pretty-
    printed over several lines; a lone <br/> inside a <p> is a wrapped line; a heading stays one line."""
    html = (
        "<html>\n <h1>\n  THE TIDE<br/>\n  A STORY\n </h1>\n <p>\n  Nell kept the lighthouse\n  <br/>\n"
        "  for nine years.\n  <br/>\n  <br/>\n  The sea rose in\nMarch.\n </p>\n</html>"
    )
    paragraphs = from_html(html, title="t").paragraphs
    assert [p.text for p in paragraphs] == [
        "THE TIDE A STORY", "Nell kept the lighthouse for nine years.", "The sea rose in March."
    ]  # fmt: skip
    assert [p.is_heading for p in paragraphs] == [True, False, False]


def test_an_html_book_that_marks_only_its_title_has_its_chapters_read_from_its_text():
    """A hand-made or saved HTML book: its title an <h1>, its chapters "<p>CHAPTER I</p>"."""
    html = (
        "<html><body><h1>Emma</h1><p>CHAPTER I</p><p>Emma Woodhouse, handsome, clever, and rich.</p>"
        "<p>CHAPTER II</p><p>Mr. Weston was a native of Highbury.</p></body></html>"
    )
    book = from_html(html, title="Emma")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "CHAPTER I"), ("2", "CHAPTER II")]
    assert book.paragraphs[0].text == "Emma" and book.paragraphs[0].chapter == 0
