"""Each benchmark as its public release lays it out (fixtures under tests/fixtures in the exact
file names and fields of the real data), and the rule that no loader returns 0 items in silence."""

from __future__ import annotations

import csv
import json
import pickle
import shutil
from pathlib import Path

import pytest

from clueweaver.benchmarks import BenchmarkError, load_benchmark
from clueweaver.books.narrative import MAX_PARAGRAPH_CHARS
from clueweaver.cli import main
from clueweaver.protocol.text import token_f1

FIXTURES = Path(__file__).parent / "fixtures"
PUMP_UP = "0025577043f5090cd603c6aea60f26e236195594"
LAMPLIGHTER = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"


# --- 1. NarrativeQA's official release -------------------------------------------------------------


def test_narrativeqa_release_cuts_stories_at_their_markers_and_strips_script_html():
    benchmark = load_benchmark("narrativeqa", FIXTURES / "narrativeqa_release")
    assert [item.item_id for item in benchmark] == [
        f"narrativeqa:{PUMP_UP}:1",
        f"narrativeqa:{PUMP_UP}:2",
        f"narrativeqa:{LAMPLIGHTER}:1",
        f"narrativeqa:{LAMPLIGHTER}:2",
    ]
    first = benchmark.items[0]
    assert first.question.text == "Who is Mark Hunter?" and first.question.is_open
    assert first.references == (
        "He is a high school student in Phoenix.",
        "A loner and outsider student with a radio station.",
    )
    assert benchmark.items[1].references == ("It takes place in Mark's parents basement.", "Phoenix, Arizona")
    assert first.metadata["set"] == "test" and first.metadata["kind"] == "movie" and first.metadata["html_stripped"]

    script = benchmark.narratives[PUMP_UP]
    texts = [p.text for p in script.paragraphs]
    assert script.title == "Pump Up the Volume (film)"
    assert texts[0].startswith("PUMP UP THE VOLUME") and texts[-1] == "THE END"
    assert "on the air from somewhere in Phoenix & you are listening" in " ".join(texts)  # &amp; decoded
    page_furniture = ("<", "IMSDb", "navigation", "background", "Writers", "Drama")
    assert not any(word in text for text in texts for word in page_furniture)

    book = benchmark.narratives[LAMPLIGHTER]
    texts = [p.text for p in book.paragraphs]
    assert texts[0] == "THE LAMPLIGHTER'S ERRAND" and texts[-1] == "THE END"
    assert not any("Gutenberg" in text or "Produced by" in text for text in texts)
    assert [c.title for c in book.chapters] == ["CHAPTER I", "CHAPTER II"]


def test_narrativeqa_release_splits_and_what_it_cannot_read(tmp_path):
    release = FIXTURES / "narrativeqa_release"
    assert [item.metadata["set"] for item in load_benchmark("narrativeqa", release, split="test")] == ["test"] * 2
    with pytest.raises(BenchmarkError, match=r"no items for split 'valid'; the data has 'test', 'train'"):
        load_benchmark("narrativeqa", release, split="valid")

    copy = tmp_path / "narrativeqa"
    shutil.copytree(release, copy)
    (copy / "tmp" / f"{LAMPLIGHTER}.content").unlink()
    with pytest.raises(
        BenchmarkError, match=r"qaps\.csv, line 4: story file .* is missing: run .*download_stories\.sh"
    ):
        load_benchmark("narrativeqa", copy)
    assert len(load_benchmark("narrativeqa", copy, skip_bad=True)) == 2

    rows = list(csv.DictReader((release / "documents.csv").open(encoding="utf-8")))
    rows[1]["story_start"] = "A LINE THAT IS NOT IN THE STORY"
    with open(copy / "documents.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    shutil.copy(release / "tmp" / f"{LAMPLIGHTER}.content", copy / "tmp")
    uncut = load_benchmark("narrativeqa", copy, split="train")
    assert uncut.items[0].metadata["story_markers_missing"] == ["story_start"]

    qaps = (release / "qaps.csv").read_bytes().split(b"\n")
    qaps[2] = qaps[2].replace(b"e", b"\xe9", 1)  # a Latin-1 "é" typed into the UTF-8 table
    (copy / "qaps.csv").write_bytes(b"\n".join(qaps))
    with pytest.raises(BenchmarkError, match=r"qaps\.csv, line 3: not UTF-8 text \(byte \d+: invalid continuation"):
        load_benchmark("narrativeqa", copy)


def test_narrativeqa_script_page_keeps_only_the_script_whatever_the_markers(tmp_path):
    copy = tmp_path / "narrativeqa"
    shutil.copytree(FIXTURES / "narrativeqa_release", copy)
    rows = list(csv.DictReader((copy / "documents.csv").open(encoding="utf-8")))
    rows[0].update(story_start="<html>", story_end="</html>")  # markers holding markup, found in the page only
    with open(copy / "documents.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    benchmark = load_benchmark("narrativeqa", copy, split="test")
    texts = [p.text for p in benchmark.narratives[PUMP_UP].paragraphs]
    assert texts[0].startswith("PUMP UP THE VOLUME") and texts[-1] == "THE END"
    assert benchmark.items[0].metadata["story_markers_missing"] == []


# --- 2. NarrativeQA as Hugging Face exports it; no empty selection in silence -----------------------


def test_narrativeqa_hf_export_takes_the_split_from_the_file_name():
    export = FIXTURES / "narrativeqa_hf"
    benchmark = load_benchmark("narrativeqa", export / "test.jsonl", split="test")
    assert [item.references[0] for item in benchmark] == [
        "He is a high school student in Phoenix.",
        "It takes place in Mark's parents basement.",
    ]
    assert all(item.metadata["set"] == "test" and item.book_id == PUMP_UP for item in benchmark)
    script = benchmark.narratives[PUMP_UP]
    assert script.title == "Pump Up the Volume (film)" and script[0].text.startswith("PUMP UP THE VOLUME")
    assert not any("<" in p.text or "IMSDb" in p.text for p in script.paragraphs)
    assert len(load_benchmark("narrativeqa", export)) == 2
    for split in ("validation", "valid", "train"):
        with pytest.raises(BenchmarkError, match=rf"no items for split '{split}'; the data has 'test'"):
            load_benchmark("narrativeqa", export, split=split)


def test_narrativeqa_hf_parquet_shards_load_like_the_jsonl(tmp_path):
    pyarrow = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    rows = [json.loads(line) for line in (FIXTURES / "narrativeqa_hf" / "test.jsonl").open(encoding="utf-8")]
    (tmp_path / "data").mkdir()
    parquet.write_table(pyarrow.Table.from_pylist(rows), tmp_path / "data" / "test-00000-of-00001.parquet")
    from_parquet = load_benchmark("narrativeqa", tmp_path, split="test")
    from_jsonl = load_benchmark("narrativeqa", FIXTURES / "narrativeqa_hf" / "test.jsonl")
    assert [i.references for i in from_parquet] == [i.references for i in from_jsonl]
    assert from_parquet.narratives[PUMP_UP].content_hash == from_jsonl.narratives[PUMP_UP].content_hash


def test_rows_naming_no_split_say_so(tmp_path):
    rows = [json.loads(line) for line in (FIXTURES / "narrativeqa_hf" / "test.jsonl").open(encoding="utf-8")]
    file = tmp_path / "narrativeqa_export.jsonl"
    file.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert len(load_benchmark("narrativeqa", file)) == 2
    with pytest.raises(BenchmarkError, match="no items for split 'test'; the rows name no split"):
        load_benchmark("narrativeqa", file, split="test")


def test_a_filter_that_keeps_nothing_names_what_exists():
    with pytest.raises(BenchmarkError, match=r"longbench_v2: no items for split 'poetry'; the data has .*'Detective'"):
        load_benchmark("longbench_v2", FIXTURES / "longbench_v2" / "data.json", split="poetry")


# --- 3. NoCha's pickle, read as plain data only ---------------------------------------------------------

CALLS: list[str] = []


def _record_call(what: str) -> None:
    """What a hostile pickle would run; recording the call shows whether it ran."""
    CALLS.append(what)


class _Hostile:
    def __reduce__(self):
        return (_record_call, ("the pickle ran code",))


def test_nocha_reads_the_repository_pickle():
    benchmark = load_benchmark("nocha", FIXTURES / "nocha")
    assert [(item.item_id, item.answer) for item in benchmark] == [
        ("nocha:181:TRUE", "TRUE"),
        ("nocha:181:FALSE", "FALSE"),
    ]
    assert benchmark.items[0].question.text.startswith("Hatty Doran, an American heiress, attempts to please")
    book = benchmark.narratives["the_adventures_of_sherlock_holmes_arthur_conan_doyle"]
    assert book.title == "The Adventures of Sherlock Holmes"
    assert any(p.text.startswith("To Sherlock Holmes she is always the woman") for p in book.paragraphs)


def test_a_pickle_that_would_run_code_is_refused_without_running_it(tmp_path):
    folder = tmp_path / "data_sample"
    shutil.copytree(FIXTURES / "nocha" / "data_sample", folder)
    hostile = pickle.dumps({"the_adventures_of_sherlock_holmes_arthur_conan_doyle": _Hostile()})
    pickle.loads(hostile)  # an ordinary unpickler runs it: the pickle is really hostile
    assert CALLS == ["the pickle ran code"]
    CALLS.clear()
    (folder / "classic_books.pkl").write_bytes(hostile)
    with pytest.raises(BenchmarkError, match=r"classic_books\.pkl: refused .*names [\w.]*_record_call; only plain"):
        load_benchmark("nocha", folder)
    assert CALLS == []
    with pytest.raises(BenchmarkError, match=r"Only if you trust where the file came from, convert it .*json\.dump"):
        load_benchmark("nocha", folder)
    assert CALLS == []


def test_a_pickle_of_other_plain_data_is_refused(tmp_path):
    folder = tmp_path / "data_sample"
    shutil.copytree(FIXTURES / "nocha" / "data_sample", folder)
    (folder / "classic_books.pkl").write_bytes(pickle.dumps(["not", "a", "dict"]))
    with pytest.raises(BenchmarkError, match=r"classic_books\.pkl: expected \{book title: text\}"):
        load_benchmark("nocha", folder)


# --- 4. GutenQA's published table -------------------------------------------------------------------------


def test_gutenqa_table_loads_every_book_with_gold_in_the_questions_chunk():
    pytest.importorskip("pyarrow")
    benchmark = load_benchmark("gutenqa", FIXTURES / "gutenqa")
    emma, holmes = benchmark.items
    assert emma.item_id == "gutenqa:Emma_-_Jane_Austen:4" and emma.question.is_open
    assert emma.question.text == "Why does Mr. Woodhouse feel fortunate for thinking of Hannah?"
    assert emma.references[0].startswith("Mr. Woodhouse feels fortunate for thinking of Hannah")
    book = benchmark.narratives["Emma_-_Jane_Austen"]
    assert book.title == "Emma" and book.chapters[0].title == "VOLUME I. CHAPTER I"
    # chunk 2 is longer than a paragraph may be and was cut in two, so chunk 4 is paragraph 5
    assert book.split_paragraphs == 1 and emma.gold_evidence == (5,)
    assert emma.metadata["must_contain"] in book[5].text and emma.metadata["Chunk ID"] == 4
    assert all(len(p.text) <= MAX_PARAGRAPH_CHARS for p in book.paragraphs)
    assert holmes.book_id == "The_Adventures_of_Sherlock_Holmes_-_Arthur_Conan_Doyle" and holmes.gold_evidence == (3,)
    one = load_benchmark("gutenqa", FIXTURES / "gutenqa" / "GutenQA.parquet", split="emma_-_jane_austen")
    assert [item.item_id for item in one] == [emma.item_id]
    with pytest.raises(BenchmarkError, match=r"no items for split 'emma'; the data has 'Emma_-_Jane_Austen', 'The_"):
        load_benchmark("gutenqa", FIXTURES / "gutenqa", split="emma")


def test_gutenqa_string_in_several_chunks_is_gold_in_the_questions_own(tmp_path):
    parquet = pytest.importorskip("pyarrow.parquet")
    rows = parquet.read_table(FIXTURES / "gutenqa" / "GutenQA.parquet").to_pylist()
    holmes = [row for row in rows if row["Book ID"] == 48]
    holmes[2]["Chunk Must Contain"] = "Watson"  # in chunks 1, 2 and 3
    export = tmp_path / "gutenqa.jsonl"
    export.write_text("".join(json.dumps(row) + "\n" for row in holmes), encoding="utf-8")
    (item,) = load_benchmark("gutenqa", export).items
    assert item.gold_evidence == (3,) and item.metadata["gold_match"] == "unique"


def test_gutenqa_chunks_and_questions_files_join_on_book_and_chunk(tmp_path):
    pyarrow = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    rows = parquet.read_table(FIXTURES / "gutenqa" / "GutenQA.parquet").to_pylist()
    chunk_columns = ("Book Name", "Book ID", "Chunk ID", "Chapter", "Chunk")
    question_columns = ("Book Name", "Book ID", "Chunk ID", "Question", "Answer", "Chunk Must Contain")
    chunks = [{key: row[key] for key in chunk_columns} for row in rows]
    questions = [{key: row[key] for key in question_columns} for row in rows if row["Question"]]
    parquet.write_table(pyarrow.Table.from_pylist(chunks), tmp_path / "gutenqa_chunks.parquet")
    with pytest.raises(BenchmarkError, match=r"gutenqa_chunks\.parquet: the chunks need questions\.parquet"):
        load_benchmark("gutenqa", tmp_path)
    parquet.write_table(pyarrow.Table.from_pylist(questions), tmp_path / "questions.parquet")
    joined = load_benchmark("gutenqa", tmp_path)
    published = load_benchmark("gutenqa", FIXTURES / "gutenqa")
    assert [(i.item_id, i.gold_evidence, i.references) for i in joined] == [
        (i.item_id, i.gold_evidence, i.references) for i in published
    ]


# --- 5. QuALITY's release folder --------------------------------------------------------------------------


def test_quality_release_folder_reads_every_split_without_a_suffix():
    release = FIXTURES / "quality_release"
    benchmark = load_benchmark("quality", release)
    assert [(item.item_id, item.metadata["split"], item.answer) for item in benchmark] == [
        ("quality:90001_WRITER01_1", "train", "B"),
        ("quality:52845_YLZPNNYD_1", "dev", "B"),
        ("quality:52845_YLZPNNYD_2", "dev", "C"),
        ("quality:90002_WRITER01_1", "test", None),  # the test split has no gold labels
    ]
    article = benchmark.narratives["52845"]
    assert article.title == "The Girl in His Mind" and article[0].text == "THE GIRL IN HIS MIND"
    assert not any("<" in p.text for p in article.paragraphs)  # the raw-HTML file, read as HTML
    assert [item.metadata["split"] for item in load_benchmark("quality", release, split="dev")] == ["dev", "dev"]
    with pytest.raises(BenchmarkError, match=r"QuALITY\.v1\.0\.1\.test is the 'test' split, not 'dev'"):
        load_benchmark("quality", release / "QuALITY.v1.0.1.test", split="dev")


def test_quality_htmlstripped_files_alone_are_read(tmp_path):
    shutil.copy(FIXTURES / "quality_release" / "QuALITY.v1.0.1.htmlstripped.dev", tmp_path)
    benchmark = load_benchmark("quality", tmp_path)
    assert [item.answer for item in benchmark] == ["B", "C"]
    assert benchmark.narratives["52845"][0].text == "THE GIRL IN HIS MIND"
    with pytest.raises(BenchmarkError, match=r"no QuALITY file for split 'train'; this folder has 'dev'"):
        load_benchmark("quality", tmp_path, split="train")


# --- 6. BMDS: rows whose story text the release lacks --------------------------------------------------


def test_bmds_passes_over_stories_the_release_lacks_and_says_why(tmp_path):
    columns = ["Story Code", "Story Title", "Essential clue", "Reveal border sentence"]
    rows = [
        ["AB01", "The Tin Box", "the dented lid", "It was the lid that hanged him."],
        ["AB02", "The Lost Story", "a torn ticket", ""],
        ["AB01", "Another Tale", "a wet boot", ""],
    ]
    with open(tmp_path / "BMDS_story_annotations.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([columns, *rows])
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "AB01.txt").write_text(
        "The box was found at dawn.\n\nIt was the lid that hanged him.", encoding="utf-8"
    )
    benchmark = load_benchmark("bmds", tmp_path)
    (item,) = benchmark.items
    assert item.item_id == "bmds:AB01" and item.position == 1 and item.metadata["essential_clue"] == "the dented lid"
    assert [(row.row, row.reason.split(":")[0]) for row in benchmark.skipped] == [
        ("line 3", f"story text {tmp_path / 'texts' / 'AB02.txt'} is missing from the release"),
        ("line 4", "Story Code AB01 also names 'The Tin Box' (line 2), whose text AB01.txt holds; the text of "
         "'Another Tale' is missing from the release"),
    ]  # fmt: skip


def test_bmds_without_its_texts_is_an_error_not_an_empty_benchmark(tmp_path):
    with open(tmp_path / "BMDS_story_annotations.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["Story Code", "Story Title", "Essential clue"], ["AB01", "The Tin Box", "the lid"]])
    with pytest.raises(BenchmarkError, match=r"bmds: no items: all 1 row\(s\) were passed over \(first: .*AB01"):
        load_benchmark("bmds", tmp_path)


# --- 7. DetectiveQA: English titles and clue position 0; the Chinese half ---------------------------------


def test_detectiveqa_english_title_from_the_text_and_clue_zero_is_no_position():
    benchmark = load_benchmark("detectiveqa", FIXTURES / "detectiveqa_release")
    novel = benchmark.narratives["18"]
    assert novel.title == "Footprints by the Sea"  # not the Chinese title of the file name
    (item,) = benchmark.items
    assert item.metadata["novel_file"] == "18-海边的脚印-无名氏.txt"
    assert item.gold_evidence == (3, 5) and item.metadata["clues_without_position"] == 1
    assert item.metadata["clue_position"] == [3, 5, 0] and item.position == 8 and item.answer == "B"


def test_detectiveqa_title_from_the_annotation_else_never_the_chinese_file_name(tmp_path):
    root = tmp_path / "detectiveqa"
    shutil.copytree(FIXTURES / "detectiveqa_release", root)
    novel = next((root / "novel_data_en").glob("18-*.txt"))
    novel.write_text(novel.read_text(encoding="utf-8").replace("[0] Footprints by the Sea\n", ""), encoding="utf-8")
    assert load_benchmark("detectiveqa", root).narratives["18"].title == "DetectiveQA novel 18"
    annotation = root / "anno_data_en" / "human_anno" / "18.json"
    samples = json.loads(annotation.read_text(encoding="utf-8"))
    samples[0]["novel_name"] = "Footprints by the Sea"  # an annotation naming the novel in English wins
    annotation.write_text(json.dumps(samples), encoding="utf-8")
    assert load_benchmark("detectiveqa", root).narratives["18"].title == "Footprints by the Sea"


def test_detectiveqa_chinese_half_is_its_own_benchmark_beside_the_english_one():
    release = FIXTURES / "detectiveqa_release"
    benchmark = load_benchmark("detectiveqa_zh", release)
    assert [item.item_id for item in benchmark] == ["detectiveqa_zh:18:human:1", "detectiveqa_zh:18:human:2"]
    novel = benchmark.narratives["18"]
    assert novel.title == "海边的脚印" and len(novel) == 15  # the file name's title, not its author
    assert [c.title for c in novel.chapters] == ["第一章 退潮", "第二章 证词", "第三章 倒着走的人"]
    assert novel[8].text.endswith("就没有起来看。")  # a paragraph continued on a second line stays one
    liar, footprints = benchmark.items
    assert liar.benchmark == "detectiveqa_zh" and liar.metadata["annotation"] == "human"
    assert liar.answer == "B" and liar.question.options["B"] == "园丁老周"  # the answer given as the option text
    assert liar.gold_evidence == (3, 6, 11) and liar.position == 13 and liar.reading_limit(novel) == 12
    assert footprints.answer == "C" and footprints.gold_evidence == (11, 12)
    assert footprints.metadata["clues_without_position"] == 1
    assert len(load_benchmark("detectiveqa_zh", release, split="human")) == 2
    with pytest.raises(BenchmarkError, match=r"detectiveqa_zh: no items for split 'ai'; the data has 'human'"):
        load_benchmark("detectiveqa_zh", release, split="ai")
    english = load_benchmark("detectiveqa", release)  # the same folder: the English half only
    assert [item.item_id for item in english] == ["detectiveqa:18:human:1"]
    assert english.narratives["18"].title == "Footprints by the Sea"
    with pytest.raises(
        BenchmarkError, match=r"expected the folders novel_data_zh/ and anno_data_zh/ of DetectiveQA \(Chinese\)"
    ):
        load_benchmark("detectiveqa_zh", FIXTURES / "detectiveqa")


def test_a_detectiveqa_novel_saved_in_gbk_or_with_a_stray_byte_is_read_as_every_book_is(tmp_path, caplog):
    release = tmp_path / "detectiveqa_release"
    shutil.copytree(FIXTURES / "detectiveqa_release", release)
    novel = release / "novel_data_zh" / "18-海边的脚印-无名氏.txt"
    text = novel.read_text(encoding="utf-8")
    expected = [p.text for p in load_benchmark("detectiveqa_zh", FIXTURES / "detectiveqa_release").narratives["18"]]
    novel.write_bytes(text.encode("gbk"))  # a copy saved by a Chinese Windows editor
    assert [p.text for p in load_benchmark("detectiveqa_zh", release).narratives["18"]] == expected
    assert f"{novel} is not UTF-8; read as gb18030 (detected)" in caplog.text
    data = text.encode("utf-8")
    stray = data.index("园丁".encode()) - 1
    novel.write_bytes(data[:stray] + b"\xff" + data[stray + 1 :])  # one byte of the UTF-8 file damaged
    benchmark = load_benchmark("detectiveqa_zh", release)
    changed = [a for a, b in zip((p.text for p in benchmark.narratives["18"]), expected) if a != b]
    assert len(benchmark) == 2 and len(changed) == 1 and "\ufffd园丁" in changed[0]
    assert "1 byte is not UTF-8" in caplog.text and novel.name in caplog.text


def test_a_benchmark_book_file_read_in_a_detected_encoding_is_named_when_it_loads(tmp_path, caplog):
    book = tmp_path / "fathers.txt"
    book.write_bytes("Глава I\n\nБазаров приехал с Аркадием.\n\nГлава II\n\nОтец встретил их.\n".encode("cp1251"))
    rows = [
        {"record": "narrative", "book_id": "ru", "path": "fathers.txt"},
        {"record": "item", "benchmark": "b", "book_id": "ru", "item_id": "q1", "answer": "TRUE",
         "question": {"text": "Базаров приехал с Аркадием.", "kind": "claim"}},
    ]  # fmt: skip
    file = tmp_path / "b.jsonl"
    file.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    benchmark = load_benchmark("jsonl", file)
    assert benchmark.narratives["ru"].paragraphs[1].text == "Базаров приехал с Аркадием."
    assert f"{book} is not UTF-8; read as cp1251 (detected)" in caplog.text


def test_detectiveqa_chinese_title_from_the_annotation_the_file_name_or_the_opening_line(tmp_path):
    root = tmp_path / "detectiveqa"
    shutil.copytree(FIXTURES / "detectiveqa_release", root)
    novel = next((root / "novel_data_zh").glob("18-*.txt"))
    annotation = root / "anno_data_zh" / "human_anno" / "18.json"
    samples = json.loads(annotation.read_text(encoding="utf-8"))
    samples[0]["title"] = "海滨足迹"
    annotation.write_text(json.dumps(samples, ensure_ascii=False), encoding="utf-8")
    assert load_benchmark("detectiveqa_zh", root).narratives["18"].title == "海滨足迹"
    del samples[0]["title"]
    annotation.write_text(json.dumps(samples, ensure_ascii=False), encoding="utf-8")
    unnamed = novel.rename(novel.with_name("18.txt"))
    text = unnamed.read_text(encoding="utf-8").replace("[0] 海边的脚印\n", "[0] 潮水之后\n")
    unnamed.write_text(text, encoding="utf-8")
    assert load_benchmark("detectiveqa_zh", root).narratives["18"].title == "潮水之后"
    unnamed.write_text(text.replace("[0] 潮水之后\n", ""), encoding="utf-8")
    assert load_benchmark("detectiveqa_zh", root).narratives["18"].title == "DetectiveQA novel 18"


# --- 8. InfiniteBench's open questions over novels (En.QA, Zh.QA) --------------------------------------------


def test_infinitebench_open_questions_in_english_and_chinese_share_their_book():
    english = load_benchmark("infinitebench_qa", FIXTURES / "infinitebench")
    assert [item.item_id for item in english] == [f"infinitebench_qa:{n}" for n in range(3)]
    first = english.items[0]
    assert first.question.is_open and first.answer is None
    assert first.references == ("A small glass apple tied on with red thread", "a glass apple")
    assert len(english.narratives) == 1 and {item.book_id for item in english} == {first.book_id}
    assert english.narrative(first).title == "THE GLASS ORCHARD"
    chinese = load_benchmark("infinitebench_qa_zh", FIXTURES / "infinitebench" / "longbook_qa_chn.jsonl")
    assert [(item.item_id, item.references) for item in chinese] == [
        ("infinitebench_qa_zh:0", ("一把铜钥匙",)),
        ("infinitebench_qa_zh:1", ("钟楼的小门", "镇上钟楼的门")),
    ]
    assert chinese.items[0].benchmark == "infinitebench_qa_zh" and len(chinese.narratives) == 1
    assert [c.title for c in chinese.narrative(chinese.items[0]).chapters] == ["第一章", "第二章", "第三章"]
    # scored as InfiniteBench scores Zh.QA, by character: 3 of 5 characters, all of them right
    assert token_f1("铜钥匙", chinese.items[0].references) == pytest.approx(0.75)


def test_infinitebench_open_question_without_reference_texts_is_a_bad_row(tmp_path):
    rows = [json.loads(line) for line in (FIXTURES / "infinitebench" / "longbook_qa_eng.jsonl").open()]
    rows[1]["answer"] = "Tobin Reed"  # a string, not the list of references
    rows[2]["answer"] = [None]
    file = tmp_path / "longbook_qa_eng.jsonl"
    file.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"longbook_qa_eng\.jsonl, line 2: no reference answers: field 'answer'"):
        load_benchmark("infinitebench_qa", tmp_path)
    benchmark = load_benchmark("infinitebench_qa", file, skip_bad=True)
    assert [item.item_id for item in benchmark] == ["infinitebench_qa:0"]
    assert [row.row for row in benchmark.skipped] == ["line 2", "line 3"]
    with pytest.raises(BenchmarkError, match=r"no longbook_qa_chn\.jsonl in this folder"):
        load_benchmark("infinitebench_qa_zh", tmp_path)


def test_a_context_holding_half_a_character_loads_with_it_replaced_and_named(tmp_path, caplog):
    rows = [json.loads(line) for line in (FIXTURES / "infinitebench" / "longbook_qa_chn.jsonl").open()]
    rows[0]["context"] = rows[0]["context"].replace("纸船", "纸\ud800船", 1)  # a broken escape in a release row
    rows[1]["input"] += "\udcff"
    file = tmp_path / "longbook_qa_chn.jsonl"
    file.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"line 2: the question holds a lone surrogate \(U\+DCFF"):
        load_benchmark("infinitebench_qa_zh", file)
    benchmark = load_benchmark("infinitebench_qa_zh", file, skip_bad=True)
    assert [row.row for row in benchmark.skipped] == ["line 2"]
    narrative = benchmark.narrative(benchmark.items[0])
    assert narrative.paragraphs[0].text == "桥下的纸\ufffd船" and len(narrative.content_hash) == 64
    assert "1 lone surrogate, half of a character" in caplog.text and "U+D800" in caplog.text


# --- 9. NovelQA: Books/, Data/ and bookmeta.json; answers withheld by the public copy ------------------------

NOVELQA = FIXTURES / "novelqa_release"


def test_novelqa_release_reads_both_collections_and_keeps_aspect_and_complexity():
    benchmark = load_benchmark("novelqa", NOVELQA)
    assert [item.item_id for item in benchmark] == [
        *(f"novelqa:B00:Q000{n}" for n in range(1, 6)),  # a list of questions
        "novelqa:B02:Q0001",
        "novelqa:B02:Q0002",
        *(f"novelqa:B51:Q000{n}" for n in range(1, 4)),  # an object keyed by QID
    ]
    assert {book: novel.title for book, novel in benchmark.narratives.items()} == {
        "B00": "The Miller of Hollow Ford",
        "B02": "A Lantern for the North Road",
        "B51": "The Glasshouse at Kestrel End",
    }
    assert [c.title for c in benchmark.narratives["B00"].chapters] == ["CHAPTER I", "CHAPTER II", "CHAPTER III"]
    items = {item.item_id: item for item in benchmark}
    times = items["novelqa:B00:Q0002"]
    assert times.book_id == "B00" and times.question.kind == "mcq" and times.answer == "C"  # from "Answer"
    assert times.question.options["C"] == "Three times"
    assert times.metadata == {"QID": "Q0002", "Aspect": "times", "Complexity": "mh", "collection": "PublicDomain"}
    yes_no = items["novelqa:B00:Q0004"]
    assert yes_no.question.options == {"A": "Yes", "B": "No"} and yes_no.answer == "A"
    gold = items["novelqa:B51:Q0003"]
    assert gold.answer == "D" and gold.metadata["collection"] == "CopyrightProtected"  # from "Gold"
    withheld = items["novelqa:B02:Q0001"]  # "Complex", as the release README's example spells it
    assert withheld.answer is None and not withheld.labelled and withheld.metadata["Complexity"] == "mh"
    assert {item.metadata["Complexity"] for item in benchmark} == {"mh", "sh", "dtl"}
    assert len({item.metadata["Aspect"] for item in benchmark}) == 7
    assert benchmark.summary()["answers"]["unlabelled"] == 2
    public = load_benchmark("novelqa", NOVELQA, split="PublicDomain")
    assert len(public) == 7 and set(public.narratives) == {"B00", "B02"}
    assert [item.item_id for item in load_benchmark("novelqa", NOVELQA, split="CopyrightProtected", limit=1)] == [
        "novelqa:B51:Q0001"
    ]
    with pytest.raises(BenchmarkError, match=r"novelqa: unknown split 'public'; use none, 'PublicDomain'"):
        load_benchmark("novelqa", NOVELQA, split="public")


def test_novelqa_titles_come_from_bookmeta_else_the_book_id(tmp_path):
    root = tmp_path / "NovelQA"
    shutil.copytree(NOVELQA, root)
    meta = json.loads((root / "bookmeta.json").read_text(encoding="utf-8"))
    del meta["B02"], meta["B51"]["title"]
    (root / "bookmeta.json").write_text(json.dumps(meta), encoding="utf-8")
    titles = {book: novel.title for book, novel in load_benchmark("novelqa", root).narratives.items()}
    assert titles == {"B00": "The Miller of Hollow Ford", "B02": "B02", "B51": "B51"}
    (root / "bookmeta.json").unlink()
    assert load_benchmark("novelqa", root).narratives["B00"].title == "B00"
    (root / "bookmeta.json").write_text('["B00"]', encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"bookmeta\.json: expected an object keyed by book id, got list"):
        load_benchmark("novelqa", root)
    shutil.rmtree(root / "Data")
    with pytest.raises(BenchmarkError, match=r"expected NovelQA's folders Books/ and Data/"):
        load_benchmark("novelqa", root)


def test_novelqa_bad_input_names_the_data_file_and_the_question(tmp_path):
    root = tmp_path / "NovelQA"
    shutil.copytree(NOVELQA, root)
    data = root / "Data" / "PublicDomain"
    (root / "Books" / "PublicDomain" / "B02.txt").unlink()
    with pytest.raises(
        BenchmarkError, match=r"B02\.json, entry 1: no text for book B02: expected .*Books/PublicDomain/B02\.txt"
    ):
        load_benchmark("novelqa", root)
    shutil.copy(NOVELQA / "Books" / "PublicDomain" / "B02.txt", root / "Books" / "PublicDomain")
    questions = json.loads((data / "B00.json").read_text(encoding="utf-8"))
    del questions[2]["Options"]
    questions[3]["Gold"] = "B"  # disagrees with its "Answer"
    (data / "B00.json").write_text(json.dumps(questions), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"B00\.json, entry 3: field 'Options' must be an object"):
        load_benchmark("novelqa", root)
    benchmark = load_benchmark("novelqa", root, skip_bad=True)
    assert len(benchmark) == 8 and [(Path(row.file).name, row.row) for row in benchmark.skipped] == [
        ("B00.json", "entry 3"),
        ("B00.json", "entry 4"),
    ]
    assert "fields 'Answer' and 'Gold' disagree ('A', 'B')" in benchmark.skipped[1].reason
    keyed = json.loads((root / "Data" / "CopyrightProtected" / "B51.json").read_text(encoding="utf-8"))
    keyed["Q0002"]["QID"] = "Q0009"
    (root / "Data" / "CopyrightProtected" / "B51.json").write_text(json.dumps(keyed), encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"B51\.json, question Q0002: QID 'Q0009' differs from the key 'Q0002'"):
        load_benchmark("novelqa", root, split="CopyrightProtected")
    (data / "B00.json").write_text('[{"QID": "Q0001",', encoding="utf-8")
    with pytest.raises(BenchmarkError, match=r"B00\.json: not valid JSON"):
        load_benchmark("novelqa", root, skip_bad=True)


def test_the_benchmark_command_reads_novelqa_and_counts_its_unlabelled_questions(capsys):
    assert main(["benchmark", "novelqa", "--path", str(NOVELQA)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["benchmark"], summary["items"], summary["narratives"]) == ("novelqa", 10, 3)
    assert summary["answers"]["unlabelled"] == 2 and summary["skipped_rows"] == []


def test_the_benchmark_command_fails_on_an_empty_selection_and_lists_passed_over_rows(tmp_path, capsys):
    release = str(FIXTURES / "narrativeqa_release")
    assert main(["benchmark", "narrativeqa", "--path", release, "--split", "valid"]) == 2
    assert "no items for split 'valid'; the data has 'test', 'train'" in capsys.readouterr().err
    copy = tmp_path / "narrativeqa"
    shutil.copytree(FIXTURES / "narrativeqa_release", copy)
    (copy / "tmp" / f"{PUMP_UP}.content").unlink()
    assert main(["benchmark", "narrativeqa", "--path", str(copy), "--skip-bad"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["items"] == 2 and [row["row"] for row in summary["skipped_rows"]] == ["line 2", "line 3"]
