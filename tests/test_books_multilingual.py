"""Real books in the languages ClueWeaver claims, cut to a few pages in their real layout
(``tests/fixtures/books_multilingual``, sources in its README): each is loaded as a user's file
would be, and gives its encoding, its language, its chapters as the book numbers them, and the
paragraph that answers a question in its language as the best match."""

from __future__ import annotations

import re
from pathlib import Path

from clueweaver.books.aozora import is_aozora, strip_aozora
from clueweaver.books.front_sections import front_sections
from clueweaver.books.language import detect_language
from clueweaver.books.named_chapters import chapters_named
from clueweaver.books.narrative import Narrative, from_text, load_narrative
from clueweaver.books.text_paragraphs import without_margins
from clueweaver.retrieval import build_index

FIXTURES = Path(__file__).parent / "fixtures" / "books_multilingual"


def best_match(narrative: Narrative, question: str) -> str:
    """The text of the paragraph retrieval ranks first for ``question`` (BM25, the book's analyzer)."""
    index = build_index(narrative, None, use_cache=False)
    return narrative[index.rank([question])[0][0]].text


def test_effi_briest_numbers_its_chapters_in_german_words_past_twelve():
    book = load_narrative(FIXTURES / "effi_briest_excerpt.de.txt")
    # its Gutenberg file's ISO-8859-1, read by Latin-1's superset, as the German of its cp1252 reading asks
    assert (book.encoding, book.encoding_detected, book.title) == ("cp1252", True, "Effi Briest")
    assert [c.label for c in book.chapters] == ["1", "2", "12", "13", "21", "27", "28", "29", "30", "36"]
    assert [c.title for c in book.chapters][3:6] == [
        "Dreizehntes Kapitel",
        "Einundzwanzigstes Kapitel",
        "Siebenundzwanzigstes Kapitel",
    ]
    assert book.chapters[-1].title == "Sechsunddreißigstes Kapitel" and book.chapter_span("29") == (8, 8)
    index = build_index(book, None, use_cache=False)
    assert index.language == "de"
    assert "Major von Crampas fiel." in best_match(book, "Wer fiel im Duell mit Innstetten?")


def test_don_quijote_chapters_carry_their_long_titles_and_the_contents_open_none():
    book = load_narrative(FIXTURES / "don_quijote_excerpt.es.txt")
    assert (book.encoding, book.title) == ("utf-8-sig", "Don Quijote")
    # the chapters of the 1605 part and of the 1615 Segunda parte, each with its title of two lines
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "1.8", "2.1"]
    assert book.chapters[2].title == (
        "Capítulo VIII. Del buen suceso que el valeroso don Quijote tuvo en la espantable y jamás imaginada "
        "aventura de los molinos de viento, con otros sucesos dignos de felice recordación"
    )
    # a part heading of one line keeps its name ("Primera parte del ingenioso hidalgo…")
    assert book.chapters[0].part == "Primera parte del ingenioso hidalgo don Quijote de la Mancha"
    assert book.chapters[3].part == "Segunda parte"
    # the contents name the Segunda parte among the chapters' titles: front matter, not a chapter
    contents_entry = next(p for p in book.paragraphs if p.text.startswith("Segunda parte del ingenioso"))
    assert contents_entry.chapter == 0 and contents_entry.id < book.chapters[0].first_paragraph
    assert build_index(book, None, use_cache=False).language == "es"
    assert "no son gigantes, sino molinos de viento" in best_match(
        book, "¿Qué creía don Quijote que eran los molinos de viento?"
    )


def test_a_prologue_in_the_front_matter_is_read_when_a_question_names_it():
    """Don Quijote's "Prólogo" stands before chapter 1, in the front matter no label reaches: "en el prólogo"
    had named nothing, and retrieval read the whole book's best paragraphs. It names the front section now, from
    after its heading to the first chapter, as a chapter labelled "0"; a section the book lacks is named as
    missing."""
    book = load_narrative(FIXTURES / "don_quijote_excerpt.es.txt")
    front = front_sections(book)
    assert list(front) == ["prologue"] and (front["prologue"].title, front["prologue"].label) == ("Prólogo", "0")
    assert (front["prologue"].first_paragraph, front["prologue"].last_paragraph) == (8, 21)  # after "Prólogo"
    named, missing = chapters_named(book.chapters, "¿Qué pide el autor al lector en el prólogo?", front)
    assert named == [front["prologue"]] and missing == []
    assert chapters_named(book.chapters, "¿Qué dice el prefacio?", front) == ([], ["preface"])
    # said with a chapter, both are read; a caller that gives no front sections names none
    named, _ = chapters_named(book.chapters, "¿Cumple el capítulo VIII lo que promete el prólogo?", front)
    assert [c.label for c in named] == ["0", "1.8"]
    assert chapters_named(book.chapters, "¿Qué pide el autor en el prólogo?") == ([], [])


def test_anna_karenina_parts_open_their_first_chapter_without_swallowing_it():
    book = load_narrative(FIXTURES / "anna_karenina_excerpt.ru.txt")
    # ЧАСТЬ ПЕРВАЯ, then I, II: each part's chapter I is a chapter of its own, numbered within its part
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "2.1", "2.2", "7.1", "7.31"]
    first = book.chapters[0]
    assert (first.title, first.part) == ("ЧАСТЬ ПЕРВАЯ I", "ЧАСТЬ ПЕРВАЯ") and book[first.first_paragraph].text == (
        "ЧАСТЬ ПЕРВАЯ"
    )
    assert book[first.first_paragraph + 2].text.startswith("Все счастливые семьи похожи друг на друга")
    assert book.chapters[1].title == "II" and book.chapter_span("7") == (5, 6)
    assert build_index(book, None, use_cache=False).language == "ru"
    assert "упала под вагон" in best_match(book, "Под какой вагон упала Анна на станции?")
    # "the seventh part" is the part headed so, though the excerpt holds three: before, "no part 7"
    assert [c.label for c in chapters_named(book.chapters, "Что происходит в седьмой части?")[0]] == ["7.1", "7.31"]
    assert chapters_named(book.chapters, "в последней главе седьмой части") == ([book.chapters[-1]], [])


def test_an_aozora_bunko_text_reads_without_its_markup_and_finds_its_chapters():
    book = load_narrative(FIXTURES / "kokoro_excerpt.ja.txt")
    assert (book.encoding, book.encoding_detected, book.title) == ("cp932", True, "こころ")
    assert build_index(book, None, use_cache=False).language == "ja"
    # no ruby readings, ruby starts, typists' notes, legend of markup nor colophon are left
    for markup in ("《", "》", "｜", "［＃", "【テキスト中に現れる記号について】", "底本", "入力："):
        assert markup not in book.text
    assert [p.text for p in book.paragraphs[:2]] == ["こころ", "夏目漱石"]
    assert "（奥さんの名は静といった）" in book.text  # was "静《しず》"
    assert "若い柔らかい葉を挘ぎ取って" in book.text  # a character outside Shift_JIS, by its JIS X 0213 place
    # the heading notes give the chapters, 一 二 九 二十六 of 上 and 一 of 中; the large headings (大見出し)
    # head the parts, which number their chapters as Anna Karenina's part words do, and open their first one
    assert [c.title for c in book.chapters] == ["一", "二", "九", "二十六", "一"]
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "1.9", "1.26", "2.1"]
    assert [c.part for c in book.chapters] == ["上 先生と私"] * 4 + ["中 両親と私"]
    parts = [book[c.first_paragraph].text for c in (book.chapters[0], book.chapters[4])]
    assert parts == ["上 先生と私", "中 両親と私"]
    assert book.chapter_span("1") == (1, 4) and book.chapter_span("2.1") == (5, 5)
    assert "静といった" in best_match(book, "先生の奥さんの名前は何といいますか？")
    # a part named by its title between a title's marks, as readers cite こころ's: 「先生と私」, 『両親と私』
    assert [c.label for c in chapters_named(book.chapters, "「先生と私」で、私は先生とどこで会ったか")[0]] == [
        "1.1",
        "1.2",
        "1.9",
        "1.26",
    ]
    assert [c.label for c in chapters_named(book.chapters, "『両親と私』の父は")[0]] == ["2.1"]
    assert chapters_named(book.chapters, "先生と私は鎌倉で会った")[0] == []  # unmarked, the words of a sentence


def test_an_aozora_note_that_places_its_character_in_jis_x_0213_gives_that_character():
    """Most of Aozora's notes for characters Shift_JIS lacks name no code point but a plane, row and cell."""
    line = (
        "森※［＃「區＋鳥」、第3水準1-94-69］外の時※［＃二の字点、1-2-22］、"
        "※［＃「廴＋囘」、第4水準2-12-11］と※［＃「骨＋昜」、144-3］"
    )
    assert strip_aozora(f"題\n作者\n\n{line}\n\n底本：「題」\n").text.split("\n")[3] == "森鷗外の時〻、𢌞と※"


def test_aozora_notes_that_nest_or_name_a_code_point_and_chinese_titles_kept():
    line = "前［＃「※［＃「口＋世」、第3水準1-15-1］」に傍点］後、※［＃「木＋世」、U+67BB、123-4］と｜書《か》く"
    heading = "［＃３字下げ］第一章［＃「第一章」は中見出し］"
    part = "［＃５字下げ］上　先生と私［＃「上　先生と私」は大見出し］"
    text, headings, parts = strip_aozora(f"題\n作者\n\n{part}\n{heading}\n{line}\n\n底本：「題」\n")
    assert text.split("\n")[3:6] == ["上　先生と私", "第一章", "前後、枻と書く"]
    assert headings == {"上　先生と私", "第一章"} and parts == {"上　先生と私"}
    assert not is_aozora("《红楼梦》\n\n第一回\n\n他读了《石头记》。")  # Chinese book titles are no ruby
    assert from_text("《红楼梦》\n\n第一回\n\n他读了《石头记》。", title="t")[2].text == "他读了《石头记》。"


def test_a_novel_laid_out_one_line_a_paragraph_keeps_its_short_dialogue_lines_apart():
    """Отцы и дети as its source gives it (one line a paragraph, blank lines only around the chapter
    numerals: the lib.ru layout) reads into the paragraphs of the bundled copy, which has a blank line
    after each: chapter IX's short lines of dialogue are not joined as if hard-wrapped."""
    import gzip
    import re

    from clueweaver.benchmarks.checks import BOOKS_DIR, load_bundled_book

    bundled = load_bundled_book("ottsy_i_deti.ru")
    stored = gzip.decompress((BOOKS_DIR / "ottsy_i_deti.ru.txt.gz").read_bytes()).decode("utf-8")
    one_line = re.sub(r"\n[ \t]*\n", "\n", stored.replace("\r\n", "\n"))
    as_published = re.sub(r"\n([IVXLC]+)\n", r"\n\n\1\n\n", one_line)
    book = from_text(as_published, title="Отцы и дети")
    assert [p.text for p in book.paragraphs] == [p.text for p in bundled.paragraphs]
    assert "Базаров вдруг расхохотался." in [p.text for p in book.paragraphs]
    assert len(book.chapters) == 28
    # the source's endnotes (dropped from the bundled copy), numbered like chapters, open none
    notes = "\n\nПримечания\n\n134\n\nСпокойно, спокойно (фр.).\n\n135\n\nКреозот – пахучая жидкость.\n"
    with_notes = from_text(as_published + notes, title="Отцы и дети")
    assert len(with_notes.chapters) == 28 and with_notes.paragraphs[-2].text == "135"


def test_a_greek_novel_numbers_its_chapters_in_greek_numerals_and_answers_in_capitals():
    """Η Φόνισσα as Project Gutenberg gives it: hard-wrapped katharevousa, dialogue lines opening with
    a dash, chapters headed by a Greek numeral and its keraia ("Α'"). A question typed in capitals,
    which drop the accents, still finds the paragraph that answers it."""
    book = load_narrative(FIXTURES / "fonissa_excerpt.el.txt")
    assert (book.encoding, book.title) == ("utf-8", "The murderess")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "Α'"), ("2", "Β'")]
    assert "— Πώς πάει, μάνα;" in [p.text for p in book.paragraphs]  # a dialogue line stays a paragraph
    assert build_index(book, None, use_cache=False).language == "el"
    assert "κατέρρευσεν ο γίγας" in best_match(book, "ΠΟΤΕ ΕΠΕΣΕ Ο ΠΕΥΚΟΣ ΤΟΥ ΜΟΡΑΪΤΗ;")
    assert "εξηκοντούτις" in best_match(book, "Ποιους υπηρετούσε η Χαδούλα όταν ήταν παιδίσκη;")


def test_a_traditional_chinese_text_wrapped_at_many_widths_reads_as_whole_paragraphs():
    """Project Gutenberg's 紅樓夢 in traditional characters: hard-wrapped, each chapter at the width
    of whoever typed it in (66, 54, 76 columns here; paragraphs open with two full-width spaces),
    rules under the headings, a heading its source repeats, and a wrapped line that happens to open
    with "第四回". A question in simplified characters finds the paragraph that answers it."""
    book = load_narrative(FIXTURES / "hongloumeng_traditional_excerpt.zh.txt")
    assert [(c.label, c.first_paragraph) for c in book.chapters] == [("1", 0), ("5", 7), ("45", 15)]
    # 第五回's 回目 stands on its own line, under a rule: it names the chapter and stays a paragraph
    assert book.chapters[1].title == "第五回 游幻境指迷十二釵 飲仙醪曲演紅樓夢"
    texts = [p.text for p in book.paragraphs]
    assert not any(text.startswith("第四回中") for text in (c.title for c in book.chapters))
    # each paragraph is whole, in the 66-column chapter, the 54-column one and the 76-column one
    assert any(t.startswith("原來女媧氏煉石補天之時") and t.endswith("日夜悲號慚愧．") for t in texts)
    assert any(t.startswith("第四回中既將薛家母子") and "如今且說林黛玉" in t for t in texts)
    assert any(t.startswith("這日正是端陽佳節") and t.endswith("大家坐了一坐就散了．") for t in texts)
    assert any(t.startswith("話說鳳姐儿正撫恤平儿") and "我們起了個詩社" in t for t in texts)
    assert len(book) == 20
    # a wrap that pushed a sentence's last mark onto a line of its own keeps it in its sentence
    assert "此回中凡用“夢”用“幻”等字，是提醒閱者眼目，亦是此書立意本旨．" in texts
    index = build_index(book, None, use_cache=False)
    assert index.language == "zh"
    # simplified characters meet traditional ones (女娲 and 女媧, 炼石 and 煉石): BM25 alone, since in
    # a book this short the fused ranking lends the neighbouring paragraphs as much
    scores = index.bm25_scores("女娲炼石补天剩下的那块石头被丢在哪座山峰下？")
    assert texts[int(scores.argmax())].startswith("原來女媧氏煉石補天") and scores.max() > 2 * sorted(scores)[-2]
    # and a question typed in simplified names a 回 by its traditional name ("十二钗" for "十二釵")
    named = chapters_named(book.chapters, "在“游幻境指迷十二钗”那一回中，宝玉梦见了谁？")[0]
    assert [c.label for c in named] == ["5"] and chapters_named(book.chapters, "在“金兰契”中")[0] == []


def test_a_numeral_left_alone_by_the_wrap_and_a_heading_running_into_its_text_open_no_false_chapter():
    """Three stretches of the same 紅樓夢 file as published: "一" left alone on a line by the wrap, in
    the middle of "將系小衣儿一條大紅汗巾子" (it had read as a chapter "一"), and two 回目 headings
    that run on into their chapters' first words ("…因麒麟伏白首雙星　話" / "說襲人見了自己吐", and
    "…痴公子余痛触前情 話說賈雨村剛欲過渡，", whose chapter was lost)."""
    book = load_narrative(FIXTURES / "hongloumeng_traditional_strays.zh.txt")
    assert [(c.label, c.title) for c in book.chapters] == [
        ("31", "第三十一回 撕扇子作千金一笑 因麒麟伏白首雙星"),
        ("104", "第一零四回 醉金剛小鰍生大浪 痴公子余痛触前情"),
    ]
    texts = [p.text for p in book.paragraphs]
    assert "一" not in texts and any("將系小衣儿一條大紅汗巾子解了下來" in text for text in texts)
    assert texts[book.chapters[0].first_paragraph + 1] == "話說襲人見了自己吐"
    assert texts[book.chapters[1].first_paragraph + 1] == "話說賈雨村剛欲過渡，"


def test_an_editions_back_matter_repeats_the_chapter_headings_and_opens_no_chapter():
    """Война и мир, volume 2, as RusLit gives it: after the novel, its printed variants ("ПЕЧАТНЫЕ
    ВАРИАНТЫ"), a summary of the volume by chapter ("ЧАСТЬ 1-я.", "Глава I. Приезд Николая Ростова…")
    and its footnotes' translations numbered "1", "2", "3" (the whole file read 282 chapters, of 97)."""
    book = load_narrative(FIXTURES / "voina_i_mir_2_back_matter.ru.txt")
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1", "ЧАСТЬ ПЕРВАЯ. I.", "ЧАСТЬ ПЕРВАЯ"),
        ("2", "II.", "ЧАСТЬ ПЕРВАЯ"),
    ]
    assert book.chapters[-1].last_paragraph == len(book) - 1  # the back matter is read, in the last chapter


def test_the_back_matter_ends_where_the_files_next_volume_begins():
    chapter = "He walked to the window and looked out at the rain for a long while.\n\n" * 50
    volume_one = "VOLUME I\n\nCHAPTER I\n\n" + chapter + "CHAPTER II\n\n" + chapter
    contents = "CONTENTS\n\nCHAPTER I. The rain\n\nCHAPTER II. The window\n\n"
    volume_two = "VOLUME II\n\nCHAPTER I\n\n" + chapter + "CHAPTER II\n\n" + chapter
    book = from_text(volume_one + contents + volume_two + contents, title="two volumes")
    assert [(c.title, c.part) for c in book.chapters] == [
        ("VOLUME I CHAPTER I", "VOLUME I"),
        ("CHAPTER II", "VOLUME I"),
        ("VOLUME II CHAPTER I", "VOLUME II"),
        ("CHAPTER II", "VOLUME II"),
    ]
    # a table of contents after the part heading, before the chapters (I promessi sposi's "Vol. I.", then
    # "INDICE DEI CAPITOLI…", then "CAPITOLO PRIMO."): the first heading that tells a chapter ends it
    front = "VOLUME I\n\nCONTENTS\n\nCHAPTER I. The rain\n\nCHAPTER II. The window\n\n"
    book = from_text(front + "CHAPTER I\n\n" + chapter + "CHAPTER II\n\n" + chapter, title="contents first")
    assert [(c.title, c.part) for c in book.chapters] == [("CHAPTER I", "VOLUME I"), ("CHAPTER II", "VOLUME I")]


def test_a_school_editions_page_and_line_numbers_open_no_chapter_and_leave_no_trace():
    """Doña Perfecta as Project Gutenberg transcribed a school edition: page numbers flush right, alone
    ("4", which opened a chapter) or after the page's last words ("…con impaciencia.   3"), the next
    page's "73" on the line above the chapter numeral "XI" (they read as one heading, "73 XI"), and line
    numbers in the margin ("[25] cada vez mas lejanos")."""
    book = load_narrative(FIXTURES / "dona_perfecta_margins.es.txt")
    assert [(c.label, c.title) for c in book.chapters] == [("2", "II"), ("11", "XI")]
    texts = [p.text for p in book.paragraphs]
    assert "--?Por donde se sale?--dijo el viajero con impaciencia." in texts
    assert not any(re.search(r"\[\d+\]|^\d+$", text) for text in texts)
    assert any("bajo tierra. Al entrar en el tunel" in text for text in texts)  # "[25] tierra" joined clean


def test_margin_numbers_go_only_where_they_sit_in_the_margin():
    body = "\n".join(f"     line {n} of a page of prose that runs on to the right edge here" for n in range(30))
    centred = "\n\n                                 12\n\n"
    kept = body + centred + "[1] A note that begins at the left edge.\n" + "Counting: 1 2 3\n" + body
    assert without_margins(kept) == kept  # a centred number, a footnote mark at the left edge, a single space
    printed = body + "\n" + " " * 66 + "7\n" + "[5]  line 31 of a page   8\n" + body
    assert without_margins(printed) == body + "\n\n     line 31 of a page\n" + body


def test_an_aozora_text_in_the_old_spelling_with_ruby_on_every_word_is_read_in_todays_kanji():
    """夏目漱石『門』as Aozora Bunko publishes it: Shift_JIS, the old spelling (氣樂, 雜誌), ruby on
    nearly every word. charset-normalizer's default finds no encoding for it, and at a raised ceiling
    a Chinese codepage scores better than Shift_JIS; the hiragana of Japanese prose decide. A question
    in today's kanji finds the paragraph in the old ones."""
    book = load_narrative(FIXTURES / "mon_excerpt.ja.txt")
    assert (book.encoding, book.encoding_detected, book.title) == ("cp932", True, "門")
    assert [c.title for c in book.chapters] == ["一"]
    assert not any("《" in p.text for p in book.paragraphs)  # the ruby readings are gone
    index = build_index(book, None, use_cache=False)
    scores = index.bm25_scores("宗助が放り出した雑誌")  # the text has 雜誌
    assert book[int(scores.argmax())].text.startswith("宗助は先刻から縁側へ坐蒲團を持ち出して")


def test_an_aozora_text_whose_puzzles_set_full_width_letters_is_read_as_shift_jis():
    """海野十三's 虫喰い算大会 (Aozora Bunko, Shift_JIS) sets its puzzles in full-width letters and rules:
    charset-normalizer offers gb18030 alone for it, which reads every kana as a Han character (one of
    aozorabunko_text's 1,694 texts of 60 KB and more in four, each detected as Chinese). Shift_JIS is
    tried whether or not it is guessed, and its reading, Japanese prose, goes first."""
    book = load_narrative(FIXTURES / "mushikui_zan_excerpt.ja.txt")
    assert (book.encoding, book.encoding_detected, book.title) == ("cp932", True, "虫喰い算大会")
    assert detect_language(book.text) == "ja"
    assert any(p.text.startswith("名探偵が、第一に目をつけたところは") for p in book.paragraphs)


def test_a_russian_play_numbers_its_scenes_within_its_acts():
    """Гоголь's Ревизор as RusLit gives it: "Действие первое", a line naming the place, then "Явление I":
    the acts are parts and the scenes chapters, cited as a reader cites them (act 2, scene 1: "2.1")."""
    book = load_narrative(FIXTURES / "revizor_excerpt.ru.txt")
    assert [(c.label, c.part) for c in book.chapters] == [
        ("1.1", "Действие первое"), ("1.2", "Действие первое"), ("2.1", "Действие второе"), ("2.2", "Действие второе"),
    ]  # fmt: skip
    second_act = book.chapters[2]
    assert book[second_act.first_paragraph].text == "Действие второе"


def test_an_aozora_heading_set_as_a_block_is_one_heading_however_many_lines_it_wraps_over():
    """吉川英治『新・水滸伝』(Aozora Bunko card 56146) heads its 104 chapters with blocks between
    "［＃ここから中見出し］" and "［＃ここで中見出し終わり］", a long one over two lines: lines of the
    file as published, read with no chapter before; a large heading's block heads a part."""
    block = [
        "［＃ここから３字下げ］",
        "［＃ここから中見出し］",
        "［＃ここで中見出し終わり］",
        "［＃ここで字下げ終わり］",
    ]
    first = "序曲、百八の星、人間界《にんげんかい》に宿命すること"
    second = [
        "蘭花《らんか》の瞼《まぶた》は恩人に会って涙《なんだ》し、",
        "五台山の剃刀《かみそり》は魯《ろ》を坊主とすること",
    ]
    lines = [
        "新・水滸伝",
        "吉川英治",
        "",
        *block[:2],
        first,
        *block[2:],
        "",
        "　その嘉祐《かゆう》三年の三月三日のことである。",
    ]
    lines += [
        "",
        *block[:2],
        *second,
        *block[2:],
        "",
        "　食う箸《はし》には腕力の要がない。",
        "",
        "底本：「新・水滸伝（一）」",
    ]
    text = "\n".join(lines)
    book = from_text(text, title="t")
    assert [c.title for c in book.chapters] == [
        "序曲、百八の星、人間界に宿命すること", "蘭花の瞼は恩人に会って涙し、五台山の剃刀は魯を坊主とすること",
    ]  # fmt: skip
    _, headings, parts = strip_aozora(text.replace("ここから中見出し", "ここから大見出し", 1))
    assert parts == {"序曲、百八の星、人間界に宿命すること"} and len(headings) == 2


def test_aozora_closing_chapter_marked_as_the_stories_are_comes_after_the_last_story():
    """山本周五郎『五瓣の椿』(card 57625): "序章", "第一話" … "第六話" and "終章" marked 大見出し, each 話
    numbering its sections "一", "二" … as 中見出し. "終章" was labelled "8.7": the eighth large heading,
    numbered one past the last story's last section."""
    large, middle = "［＃３字下げ］{0}［＃「{0}」は大見出し］", "［＃６字下げ］{0}［＃「{0}」は中見出し］"
    lines = ["五瓣の椿", "山本周五郎", "", large.format("序章"), "　その夜のことであった。"]
    for story in ("第一話", "第二話"):
        lines += [large.format(story), middle.format("一"), "　雨が降った。", middle.format("二"), "　風が吹いた。"]
    lines += [large.format("終章"), "　すべては終わった。", "", "底本：「五瓣の椿」"]
    book = from_text("\n".join(lines), title="t")
    assert [(c.label, c.full_title) for c in book.chapters] == [
        ("1.1", "第一話 — 一"), ("1.2", "第一話 — 二"), ("2.1", "第二話 — 一"), ("2.2", "第二話 — 二"), ("3", "終章")
    ]  # fmt: skip
    assert book.chapter_span("2")[1] < book.chapter_span("3")[0]  # --max-chapter 2 stops before it


def test_aozora_sections_under_a_marked_chapter_take_the_chapter_s_own_number():
    """『共産黨宣言』 (card 47057): prefaces and "第三章 …" marked 大見出し, the third chapter's sections "一",
    "二", "三" marked 中見出し. Its sections were labelled "6.2", "6.3": the sixth large heading's."""
    large, middle = "［＃３字下げ］{0}［＃「{0}」は大見出し］", "［＃５字下げ］{0}［＃「{0}」は中見出し］"
    lines = ["共産黨宣言", "", large.format("序文"), "　序文の本文。"]
    for n in ("第一章", "第二章"):
        lines += [large.format(f"{n} 題"), "　本文。"]
    lines += [large.format("第三章 文書"), middle.format("一 反動"), "　甲。", middle.format("二 保守"), "　乙。"]
    lines += [large.format("第四章 地位"), "　丙。", "", "底本：「共産黨宣言」"]
    book = from_text("\n".join(lines), title="t")
    assert [c.label for c in book.chapters] == ["1", "2", "3", "3.2", "4"]
    assert book.chapter_span("3") == (3, 4)  # the chapter with its sections


def test_aozora_volumes_marked_as_parts_are_numbered_as_the_book_numbers_them():
    """ディケンズ『二都物語』(card 43702, 佐々木直次郎訳): "序", "緒言", "第一巻　甦る", "第二巻　黄金の糸"
    marked 大見出し over chapters "第一章 …" (中見出し), a line under each volume's heading. 巻 is no part
    word (it heads volumes and sections alike), but the source marks these as parts: their chapters are
    "1.2", "2.1", not "3.2", "4.1" (the third and fourth large headings)."""
    large, middle = "［＃４字下げ］{0}［＃「{0}」は大見出し］", "［＃４字下げ］{0}［＃「{0}」は中見出し］"
    lines = ["二都物語", "ディケンズ", "", large.format("序"), "　序の本文。", large.format("緒言"), "　緒言の本文。"]
    for volume in ("第一巻　甦る", "第二巻　黄金の糸"):  # each on a page of its own, a line under it
        chapters = (t for n in ("一", "二") for t in (middle.format(f"第{n}章　題"), "　本文。"))
        lines += [large.format(volume), "　巻頭の辞。", *chapters]
    book = from_text("\n".join([*lines, "", "底本：「二都物語」"]), title="t")
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "2.1", "2.2"]


def test_aozora_chapter_without_sections_among_sectioned_ones_keeps_its_own_number():
    """阿部次郎『三太郎の日記』 (card 50422): "自序", "斷片" and "三太郎の日記" marked 大見出し, then its
    chapters "一　痴者の歌" … (中見出し), most of them in numbered sections "１", "２" (小見出し). "十
    蚊帳", which has none, was put under the marked heading as "3.10", and "3" named chapters 三 to 十."""
    large, middle = "{0}［＃「{0}」は大見出し］", "［＃２字下げ］{0}［＃「{0}」は中見出し］"
    small = "［＃７字下げ］{0}［＃「{0}」は小見出し］"
    lines = ["三太郎の日記", "阿部次郎", "", large.format("自序"), "　序の本文。", large.format("三太郎の日記")]
    for chapter, sections in (("一　痴者の歌", "１２"), ("二　蚊帳", ""), ("三　別れの時", "１２")):
        lines += [middle.format(chapter)] + ([] if sections else ["　本文。"])
        for n in sections:
            lines += [small.format(n), "　本文。", "　続き。"]
    book = from_text("\n".join([*lines, "", "底本：「三太郎の日記」"]), title="t")
    assert [c.label for c in book.chapters] == ["1.1", "1.2", "2", "3.1", "3.2"]


def test_aozora_headings_numbered_before_their_names_open_chapters():
    """下村湖人『次郎物語』(card 3026): "一　お猿さん", "二　お玉杓子" marked 中見出し under a title block
    that says "第一部". The number before the name numbers the chapter: before, "第一部" was the one
    numbered heading, and every marked one was dropped as unnumbered. Under a marked part ("第一部"
    as a 大見出し) the first chapter is not folded into the part's name either."""
    heading = "［＃４字下げ］{0}［＃「{0}」は中見出し］"
    chapters = [
        heading.format("一　お猿さん"),
        "　次郎は乳母の家で育った。",
        heading.format("二　お玉杓子"),
        "　捕まえた。",
    ]
    book = from_text("\n".join(["次郎物語", "第一部", "下村湖人", "", *chapters, "", "底本：「次郎物語」"]), title="t")
    assert [(c.label, c.title) for c in book.chapters] == [("1", "一 お猿さん"), ("2", "二 お玉杓子")]
    part = "［＃３字下げ］第一部［＃「第一部」は大見出し］"
    book = from_text("\n".join(["次郎物語", "下村湖人", "", part, *chapters, "", "底本：「次郎物語」"]), title="t")
    assert [(c.label, c.part) for c in book.chapters] == [("1", "第一部"), ("2", "第一部")]


def test_panghuang_stories_are_the_titles_it_sets_centred():
    """魯迅《彷徨》as a plain-text e-text lays it out: each story's title alone, indented far past the
    paragraphs ("                        祝    福", "肥　　皂〔１〕"), no chapter numbers but 孤独者's
    sections "一", "二". Before, 彷徨 had five chapters, 孤独者's sections, and every other story in the
    front matter; now each story is a chapter, 孤独者's sections under it, and a question that quotes a
    story's name between title marks reads that story."""
    book = load_narrative(FIXTURES / "panghuang_excerpt.zh.txt")
    assert [(c.label, c.title, c.part) for c in book.chapters] == [
        ("1", "伤逝", None),  # its subtitle "——涓生的手记" on the next line
        ("2", "肥皂", None),
        ("3", "祝福", None),
        ("4.1", "一", "孤独者"),
        ("4.2", "二", "孤独者"),
        ("5", "示众", None),
        ("6", "离婚", None),
    ]
    # the story's notes and the date under it stay its own, and the next story's title opens the next
    date = next(p for p in book.paragraphs if p.text.startswith("一九二五年十月二十一日毕"))
    assert date.chapter == 1 and not date.is_heading
    assert book[book.chapters[1].first_paragraph].text == "肥 皂〔１〕"
    named, missing = chapters_named(book.chapters, "在《祝福》中，“我”回到鲁镇时暂寓在谁的宅子里？")
    assert [c.label for c in named] == ["3"] and missing == []
    assert chapters_named(book.chapters, "鲁镇年终的祝福是怎样的大典？")[0] == []  # a word, not a title
    assert [c.label for c in chapters_named(book.chapters, "《孤独者》里的魏连殳是谁？")[0]] == ["4.1", "4.2"]


def test_war_and_peace_two_epilogues_are_parts_numbered_after_its_fifteen_books():
    """Project Gutenberg's War and Peace (Maude): fifteen "BOOK …" parts, then "FIRST EPILOGUE: 1813 - 20" and
    "SECOND EPILOGUE", each with its own CHAPTER I, II…. Before, neither epilogue read as a heading: their
    chapters stood under BOOK FIFTEEN, whose chapter numbers then repeated, and every label fell back to
    reading order (1 to 365 over the whole book)."""
    book = load_narrative(FIXTURES / "war_and_peace_epilogues_excerpt.en.txt")
    assert [(c.label, c.part) for c in book.chapters] == [
        ("14.1", "BOOK FOURTEEN: 1812"),
        ("15.1", "BOOK FIFTEEN: 1812 - 13"),
        ("15.20", "BOOK FIFTEEN: 1812 - 13"),
        ("16.1", "FIRST EPILOGUE: 1813 - 20"),
        ("16.2", "FIRST EPILOGUE: 1813 - 20"),
        ("17.1", "SECOND EPILOGUE"),
    ]
    assert book.chapters[3].full_title == "FIRST EPILOGUE: 1813 - 20 — CHAPTER I"
    second = book.chapters[5].first_paragraph  # the part's heading opens its first chapter
    assert book.chapter_span("16") == (4, 5) and book[second + 2].text.startswith("History is the life of nations")
    # a question that names an epilogue reads its chapters first; one counted, the n-th
    assert labels_named(book, "In the second epilogue, what does Tolstoy say of history?") == ["17.1"]
    assert labels_named(book, "Что Толстой говорит об истории во втором эпилоге?") == ["17.1"]  # declined
    assert labels_named(book, "Кто женат в первом эпилоге?") == ["16.1", "16.2"]
    assert labels_named(book, "Whom has Natásha married by the epilogue?") == ["16.1", "16.2", "17.1"]
    assert labels_named(book, "In the third epilogue?") == [] and labels_named(book, "Who is Pierre?") == []
    # a chapter said with its epilogue is that epilogue's; said apart, each names what it names alone
    assert labels_named(book, "In chapter 2 of the first epilogue, whom has Natásha married?") == ["16.2"]
    assert labels_named(book, "В первой главе второго эпилога что Толстой говорит об истории?") == ["17.1"]
    assert labels_named(book, "Does Pierre keep in the epilogue what he promised in chapter 1?") == [
        "14.1",
        "15.1",
        "16.1",
        "17.1",
        "16.2",
    ]
    # a part is named by its heading's number, though the file holds only two books before the epilogues
    assert labels_named(book, "In Book Fourteen, who leads the partisans?") == ["14.1"]


def labels_named(book: Narrative, question: str) -> list[str]:
    return [chapter.label for chapter in chapters_named(book.chapters, question)[0]]


def test_brothers_karamazov_four_parts_over_twelve_books():
    """Project Gutenberg's The Brothers Karamazov (Garnett): "PART I" to "PART IV", each over books numbered on
    across them ("Book IV. Lacerations" opens Part II), chapters counted anew in each book, then an "EPILOGUE".
    Before, each part's heading and its first book's were read as one part heading: Book IV's chapters stood under
    "PART II" and Book V's under no part, so "Part 2" named Book IV alone and "the last chapter of Part 3" Book VII's
    first."""
    book = load_narrative(FIXTURES / "karamazov_excerpt.en.txt")
    assert [(c.label, c.volume, c.part) for c in book.chapters][2:6] == [
        ("2.1", "PART I", "Book II. An Unfortunate Gathering"),
        ("4.1", "PART II", "Book IV. Lacerations"),
        ("4.2", "PART II", "Book IV. Lacerations"),
        ("5.1", "PART II", "Book V. Pro And Contra"),
    ]
    assert [c.label for c in book.chapters] == [
        *(
            "1.1",
            "1.2",
            "2.1",
            "4.1",
            "4.2",
            "5.1",
            "5.5",
            "6.1",
            "7.1",
            "9.1",
            "10.1",
            "12.1",
            "12.14",
            "13.1",
            "13.2",
        )
    ]  # the books number the labels, as readers cite them ("Book V, chapter 5")
    assert book.chapters[3].full_title == "PART II — Book IV. Lacerations — Chapter I. Father Ferapont"
    assert book[book.chapters[3].first_paragraph].text == "PART II"  # the part's heading opens its first chapter
    assert [c.volume for c in book.chapters[-2:]] == [None, None]  # the epilogue is in no part
    assert labels_named(book, "In Part 2, what does Father Zossima teach?") == ["4.1", "4.2", "5.1", "5.5", "6.1"]
    assert book.chapter_span("Part 2") == (4, 8)
    assert labels_named(book, "What happens in the last chapter of Part 3?") == ["9.1"]
    assert labels_named(book, "In the last part, who is tried?") == ["10.1", "12.1", "12.14"]
    assert labels_named(book, "In Book V, chapter 5, what does Ivan tell Alyosha?") == ["5.5"]
    assert labels_named(book, "In Book XII of Part IV, what do the peasants decide?") == ["12.1", "12.14"]
    assert labels_named(book, "In the epilogue, what is planned for Mitya?") == ["13.1", "13.2"]


def test_les_miserables_five_volumes_count_their_books_anew():
    """Project Gutenberg's Les Misérables (Hapgood): "VOLUME I" and its name "FANTINE", then "BOOK FIRST—A JUST
    MAN", "BOOK SECOND—THE FALL" …, and in "VOLUME II" / "COSETTE" "BOOK FIRST—WATERLOO" again, chapters counted
    anew in each book, after a contents list of them all. Before, "BOOK FIRST" did not read as a heading, and a
    later volume's "BOOK SECOND" made volume I's read as a contents entry: the chapters were labelled in reading
    order, all of volume I's under "VOLUME I", and "Volume II" named two of its three."""
    book = load_narrative(FIXTURES / "les_miserables_excerpt.en.txt")
    assert [c.label for c in book.chapters] == ["1.1.1", "1.1.2", "1.2.1", "1.2.2", "1.3.1", "2.1.1", "2.1.2", "2.2.1"]
    first, waterloo = book.chapters[0], book.chapters[5]
    assert (first.volume, first.part) == ("VOLUME I FANTINE", "BOOK FIRST—A JUST MAN")
    assert waterloo.full_title == (
        "VOLUME II COSETTE — BOOK FIRST—WATERLOO — CHAPTER I—WHAT IS MET WITH ON THE WAY FROM NIVELLES"
    )
    # the volume's heading opens its first chapter, a book's heading its own; the contents list opens none
    assert [book[c.first_paragraph].text for c in book.chapters[:3]] == [
        "VOLUME I FANTINE",
        "CHAPTER II—M. MYRIEL BECOMES M. WELCOME",
        "BOOK SECOND—THE FALL",
    ]
    assert book.chapter_span("1.2") == (3, 4) and book.chapter_span("2") == (6, 8)
    assert labels_named(book, "In Volume II, what happens at Waterloo?") == ["2.1.1", "2.1.2", "2.2.1"]
    assert labels_named(book, "In Volume 1, Book 2, what does Valjean take?") == ["1.2.1", "1.2.2"]
    assert labels_named(book, "In the second book of the first volume?") == ["1.2.1", "1.2.2"]
    assert labels_named(book, "In volume 2, book 1, chapter 2, what is Hougomont?") == ["2.1.2"]
    assert labels_named(book, "What does the bishop do in I.2.2?") == ["1.2.2"]
    assert labels_named(book, "In chapter 1.2.1, who arrives?") == ["1.2.1"]
    assert labels_named(book, "What happens in I.2?") == ["1.2.1", "1.2.2"] and book.chapter_span("I.2") == (3, 4)
    # the preface, after the contents list's entry for it: the last heading before the first chapter
    preface = front_sections(book)["preface"]
    assert [p.text[:25] for p in book.paragraphs[preface.first_paragraph : preface.last_paragraph + 1]] == [
        "So long as there shall ex"
    ]
    assert [p.text for p in book.paragraphs[: preface.first_paragraph]].count("PREFACE") == 2  # and the contents entry
    question = "Why does Hugo say, in the preface, that such books are of use?"
    assert chapters_named(book.chapters, question, front_sections(book))[0] == [preface]


def test_ulysses_eighteen_episodes_under_its_three_parts():
    """Project Gutenberg's Ulysses: three parts "— I —" to "— III —", eighteen episodes "[ 1 ]" to "[ 18 ]"
    numbered on across them (Aeolus' "[ 7 ]" under its first headline), all listed in a contents block of
    bare numerals one a line. Before: 7 chapters, the contents' parts among them, no episode, and Bloom's
    "I." in the sand (Nausicaa) a chapter of its own."""
    book = load_narrative(FIXTURES / "ulysses_excerpt.en.txt")
    assert [c.label for c in book.chapters] == [str(n) for n in range(1, 19)]
    assert [c.part for c in book.chapters[:4]] == ["— I —"] * 3 + ["— II —"] and book.chapters[-1].part == "— III —"
    assert book.chapters[6].title == "[ 7 ] IN THE HEART OF THE HIBERNIAN METROPOLIS"
    contents = next(p for p in book.paragraphs if p.text == "Contents")
    assert book.chapters[0].first_paragraph > contents.id + 20  # the contents' 21 lines open nothing
    sand = next(p for p in book.paragraphs if p.text == "I.")
    assert not sand.is_heading and sand.chapter == 13


def test_the_iliad_s_books_after_a_contents_list_joined_in_one_paragraph():
    """Samuel Butler's Iliad as Project Gutenberg's mirror lays it out: its contents' "BOOK I." to "BOOK XXIV."
    indented one space, no blank line between them, so one paragraph. It had read as BOOK I's heading, titling
    chapter 1 "BOOK I. BOOK II. … BOOK XXIV. BOOK I."; a heading never names its unit twice, so it stays in the
    front matter. Its books are its chapters, and "Book 9" or "the ninth book" names BOOK IX (it had warned "no part
    9", and "the ninth book" was no mention)."""
    book = load_narrative(FIXTURES / "iliad_contents_excerpt.en.txt")
    assert [(c.label, c.title) for c in book.chapters] == [
        ("1", "BOOK I."), ("2", "BOOK II."), ("9", "BOOK IX."), ("24", "BOOK XXIV.")
    ]  # fmt: skip
    contents = book[book.chapters[0].first_paragraph - 1]
    assert contents.text.startswith("BOOK I. BOOK II. BOOK III.") and contents.chapter == 0 and not contents.is_heading
    assert labels_named(book, "In Book 9, what does Achilles answer the embassy?") == ["9"]
    assert labels_named(book, "In Book IX?") == ["9"] and labels_named(book, "In the ninth book?") == ["9"]
    assert labels_named(book, "In the last book, who ransoms Hector?") == ["24"]


def test_paradise_lost_s_twelve_books_after_its_contents_in_a_text_of_long_verse_blocks():
    """Project Gutenberg's Paradise Lost: its verse paragraphs run to hundreds of lines without a blank one, so its
    lines are read as a text that lost its blank lines, and the contents' short lines ("Introduction", "Paradise
    Lost", "BOOK I" to "BOOK XII") had been joined where they fit: "BOOK II" a chapter and "BOOK III BOOK IV" its
    name, Book I labelled 2. A heading is a paragraph of its own there, and a part's heading right before the next
    one in its word ("BOOK I", "BOOK II") is a contents list's entry, not a part over its first chapter."""
    book = load_narrative(FIXTURES / "paradise_lost_contents_excerpt.en.txt")
    books = [f"Book {r}" for r in "I II III IV V VI VII VIII IX X XI XII".split()]
    assert [" ".join(c.title.split()[:2]) for c in book.chapters] == books  # Book VII's name: its first line
    assert [c.label for c in book.chapters] == [str(n) for n in range(1, 13)]
    contents = [p.text for p in book.paragraphs if p.chapter == 0 and p.text.startswith("BOOK")]
    assert contents == [f"BOOK {r}" for r in "I II III IV V VI VII VIII IX X XI XII".split()]  # front matter
    assert labels_named(book, "In Book 9, who tempts Eve?") == ["9"]


def test_the_divine_comedy_s_cantos_headed_with_their_part_s_name():
    """Longfellow's Divine Comedy as Project Gutenberg sets it: "INFERNO", then "Inferno: Canto I"; the part's
    name before the unit's word had hidden every canto (the poem was one chapter, opened by a contents entry).
    Each canto is a chapter, under the part its heading names: "2.1" is Purgatorio's first; the appendix after the
    parts is one more ("4.1", Longfellow's first sonnet), so the labels stay the parts' (they were reading order).
    Each part's heading opens its first canto, as a numbered part's does: "PURGATORIO" had ended Inferno's last."""
    book = load_narrative(FIXTURES / "divine_comedy_excerpt.en.txt")
    assert [(c.label, c.part, c.title) for c in book.chapters] == [
        ("1.1", "INFERNO", "Inferno: Canto I"), ("1.2", "INFERNO", "Inferno: Canto II"),
        ("2.1", "PURGATORIO", "Purgatorio: Canto I"), ("2.2", "PURGATORIO", "Purgatorio: Canto II"),
        ("3.1", "PARADISO", "Paradiso: Canto I"), ("3.2", "PARADISO", "Paradiso: Canto II"),
        ("4.1", "APPENDIX", "I"), ("4.2", "APPENDIX", "II"),
    ]  # fmt: skip
    assert book[book.chapters[0].first_paragraph + 2].text.startswith("Midway upon the journey of our life")
    for chapter in book.chapters[::2]:  # each part's first canto opens at the part's heading
        assert book[chapter.first_paragraph].text == chapter.part
    assert book[book.chapters[2].first_paragraph - 1].text.startswith("O Muses, O high genius")  # Inferno ends
    assert labels_named(book, "In Canto II, whom do the three ladies send?") == ["1.2", "2.2", "3.2"]


def test_shiji_in_gbk_with_its_rare_characters_and_bulleted_juan():
    """An older e-text of 史记 as published: GBK, its rare characters in the font's user-defined rows (read as
    Unicode's private use area), each 卷 headed after a bullet ("●卷二十六·历书第四"), and 历书's calendar setting a
    month "十二" on a line of its own, year after year. Before, the private-use characters made gb18030's reading
    implausible, so the book was read as cp1252 (mojibake, no chapters); and once read, every "十二" was a chapter,
    so that 卷二十七 was labelled 32 in the whole book."""
    book = load_narrative(FIXTURES / "shiji_excerpt.zh.txt")
    assert (book.encoding, book.encoding_detected) == ("gb18030", True)
    assert "命舜摄行天子之政" in book[7].text and re.search("[\ue000-\uf8ff]", book[7].text)  # kept, not replaced
    assert [c.label for c in book.chapters] == ["1", "2", "26", "27", "130"]
    assert [c.title for c in book.chapters][2:4] == ["●卷二十六·历书第四", "●卷二十七·天官书第五"]
    calendar = [p for p in book.paragraphs if p.text.strip() == "十二"]
    assert len(calendar) == 5 and {book.chapter_label(p.chapter) for p in calendar} == {"26"}
    assert labels_named(book, "卷二十七里司马迁怎样描述天象？") == ["27"]
    assert build_index(book, None, use_cache=False).language == "zh"


def test_hongloumeng_as_a_web_copy_sets_it_half_before_each_hui_and_headings_given_twice():
    """A web copy of 红楼梦 (GBK, 2007): each 回 headed with the book's half ("上卷 第一回 …", "下卷 第八十一回 …"),
    and some headed twice, the site's update time, menu, notice and page links between the copies. Before, the
    half hid every heading but the two given again bare, so the book had two chapters; read both, 第三十八回 would
    have been two, and every later label one too many."""
    book = load_narrative(FIXTURES / "hongloumeng_web_copy_excerpt.zh.txt")
    assert (book.encoding, book.encoding_detected) == ("gb18030", True)
    assert [c.label for c in book.chapters] == ["1", "37", "38", "39", "81", "119", "120"]
    twice = book.chapters[2]  # opens at the first copy, with the site's lines
    assert book[twice.first_paragraph].text == "上卷 第三十八回 林潇湘魁夺菊花诗 薛蘅芜讽和螃蟹咏"
    assert book[twice.first_paragraph + 1].text.startswith("更新时间:2007-1-12")
    assert labels_named(book, "第一一九回中宝玉去了哪里？") == labels_named(book, "下卷第一百一十九回") == ["119"]


def test_shijing_s_poems_are_its_chapters_by_their_titles_on_lines_of_their_own():
    """A 诗经 as a download site set it (GBK, CRLF): each poem's title alone on its line, not centred and not
    numbered ("关雎", "葛覃"), then its stanzas. It had no chapters, so "《桃夭》里" named nothing; the titles,
    a fifth of its lines and no novel's share (红楼梦: under 2%), are its pieces now."""
    book = load_narrative(FIXTURES / "shijing_excerpt.zh.txt")
    assert (book.encoding, len(book.chapters)) == ("gb18030", 24)
    assert [c.title for c in book.chapters[:4]] == ["关雎", "葛覃", "卷耳", "樛木"]
    assert [c.label for c in book.chapters] == [str(n) for n in range(1, 25)]
    peach = book.chapters[5]
    assert peach.title == "桃夭" and book[peach.first_paragraph + 1].text.startswith("桃之夭夭，灼灼其华")
    assert labels_named(book, "《桃夭》里把新娘比作什么？") == ["6"]
    two_titles = "关雎\n\n葛覃\n\n" + "关关雎鸠，在河之洲。\n\n" * 3  # too few to be an anthology's
    assert from_text(two_titles, title="t", gutenberg=False).chapters == []
