"""``clueweaver nwm``: import, export, status and state on the shared Holmes book and the fixture."""

from __future__ import annotations

import json
import re

import pytest
from conftest import shared_path
from nwm_helpers import FIXTURE, HOLMES, SMALL_BOOK, record_json

from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.cli import main
from clueweaver.cli.nwm import parse_chapters


@pytest.fixture
def book(tmp_path):
    """The Holmes book as a .txt file, so the CLI loads it like a user's book."""
    books = json.loads(shared_path("nocha", "data_sample", "classic_books.json").read_text(encoding="utf-8"))
    path = tmp_path / f"{HOLMES}.txt"
    path.write_text(books[HOLMES], encoding="utf-8")
    return str(path)


def run(capsys, *argv):
    code = main(["nwm", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_import_state_export_status(book, tmp_path, capsys):
    data = ["--data-dir", str(tmp_path / "stores")]
    assert run(capsys, "import", book, str(FIXTURE), *data) == (
        0,
        "chapter 1.1: 12 records\nchapter 1.2: 10 records\nchapter 1.3: 12 records\n",
        "",
    )

    code, out, _ = run(capsys, "state", book, "--as-of", "1.2", "--entity", "Irene Adler", *data)
    assert code == 0 and "== entity: irene adler ==" in out
    assert "Irene Adler --located_at [present]--> Briony Lodge (from chapter 2)" in out
    assert "the Continent" not in out and "male costume" not in out  # chapter 1.3 stays unread

    code, out, _ = run(capsys, "state", book, "--as-of", "1.3", "--entity", "the photograph", "--json", *data)
    view = json.loads(out)
    (photo,) = [e for e in view["registries"] if e["key"] == "the photograph"]
    assert photo["history_size"] == 4
    assert [r["location"] for r in photo["current"] if r["kind"] == "object_state"] == ["with Irene Adler abroad"]
    superseded = [
        (e["target"], e["valid_from"], e["valid_to"]) for e in view["history"] if e["relation"] == "located_at"
    ]
    assert superseded == [("a recess behind a sliding panel above the right bell-pull in Briony Lodge", 2, 3)]

    code, out, _ = run(capsys, "state", book, "--as-of", "1.3", "--max-chars", "700", *data)
    assert len(out) <= 701 and "left out for the budget of 700 characters" in out

    exported = tmp_path / "out.jsonl"
    assert run(capsys, "export", book, str(exported), *data)[0] == 0
    assert len(exported.read_text(encoding="utf-8").splitlines()) == 34

    code, out, _ = run(capsys, "status", book, *data)
    lines = out.splitlines()
    assert lines[0] == "chapter 0: not published" and lines[1].startswith(
        "chapter 1.1: published, 12 records, import:"
    )


def test_query_and_state_memory(book, tmp_path, capsys):
    data = ["--data-dir", str(tmp_path / "stores")]
    run(capsys, "import", book, str(FIXTURE), *data)
    question = "Who was the slim youth who said good-night to Holmes?"
    code, out, _ = run(
        capsys, "query", book, question, "--as-of", "1.3", "--encoder", "none", "--top-k", "2", "--json", *data
    )
    packet = json.loads(out)
    assert code == 0 and packet["mode"] == "query" and packet["queries"] == [question]
    assert (packet["as_of"], packet["as_of_label"]) == (3, "1.3")
    assert {(h["chapter"], h["chapter_label"]) for h in packet["hits"]} <= {(1, "1.1"), (2, "1.2"), (3, "1.3")}
    assert {h["kind"] for h in packet["hits"] if h["via"] == "ranked"} == {"revelation", "scene_beat"}
    assert 249 in packet["paragraph_ids"] and len(packet["text"]) <= 6000
    code, out, _ = run(capsys, "query", book, question, "--as-of", "1.2", "--encoder", "none", *data)
    assert code == 0 and "a slim youth in an ulster" in out and "male costume" not in out
    code, out, _ = run(
        capsys, "query", book, question, "--as-of", "1.1", "--state-memory", "--max-chars", "900", *data
    )
    assert code == 0 and out.startswith("World model as of chapter 1.1 (published chapters: 1.1)\n")
    assert len(out) <= 901 and "ulster" not in out and "[ch 1.1;" in out  # the book's labels, not positions
    state = ["--as-of", "1.3", "--state-memory", "--max-chars", "900", "--json", *data]
    code, out, _ = run(capsys, "query", book, question, *state)
    packet = json.loads(out)
    shown = {int(i) for i in re.findall(r"#(\d+) \[", packet["text"])}
    assert packet["dropped"] > 0 and shown and {h["id"] for h in packet["hits"]} == shown  # only what fits
    assert set(packet["paragraph_ids"]) == {i for h in packet["hits"] for i in h["evidence"]["paragraph_ids"]}


def test_user_mistakes_are_reported_without_a_traceback(book, tmp_path, capsys):
    data = ["--data-dir", str(tmp_path / "stores")]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "thread", "chapter": 1}\n', encoding="utf-8")
    code, _, err = run(capsys, "import", book, str(bad), *data)
    assert code == 2 and "bad.jsonl, line 1: record.evidence: missing" in err
    code, _, err = run(capsys, "state", book, "--as-of", "40", *data)
    assert code == 2 and "no chapter 40 (the book's chapters are 1.1, 1.2, 1.3, 2, ..., 11, 12" in err
    run(capsys, "import", book, str(FIXTURE), *data)
    code, _, err = run(capsys, "state", book, "--as-of", "1.3", "--entity", "Irene Adlr", *data)
    assert code == 2 and "closest: irene adler" in err
    assert "is named 'Irene Adlr'; closest" in err  # the name keeps its closing quote
    code, _, err = run(capsys, "import", book, str(tmp_path / "none.jsonl"), *data)
    assert code == 2 and "no such file" in err


def test_editing_the_book_file_makes_the_edited_chapter_stale(book, tmp_path, capsys):
    data = ["--data-dir", str(tmp_path / "stores")]
    run(capsys, "import", book, str(FIXTURE), *data)
    path = tmp_path / f"{HOLMES}.txt"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("“Is the poor gentleman much hurt?” she asked.", "“Is he hurt?” she asked."), encoding="utf-8"
    )
    code, out, err = run(capsys, "status", book, *data)
    assert "chapters 1.2 are stale; republish them" in err
    assert "chapter 1.1: published, 12 records" in out and "chapter 1.2: stale, 0 records" in out
    assert "chapter 1.3: published, 12 records" in out
    code, out, _ = run(capsys, "state", book, "--as-of", "1.3", "--entity", "Irene Adler", *data)
    assert "Briony Lodge (from chapter 2)" not in out and "the Continent (from chapter 3)" in out
    assert len(list((tmp_path / "stores").glob("*.sqlite"))) == 2  # the old text's store is kept


def record_for(messages) -> str:
    """An extractor's reply for a chapter window of SMALL_BOOK: one record quoting its second paragraph."""
    chapter = int(re.search(r"Chapter (\d+):", messages[1]["content"]).group(1))
    first = int(re.search(r"Excerpt \(paragraphs (\d+)-", messages[1]["content"]).group(1))
    text = SMALL_BOOK.paragraphs[first + 1].text
    record = record_json(
        "character_state", [first + 1], text[:20], character="Ada", aspect="status", state=f"seen in chapter {chapter}"
    )
    return json.dumps({"records": [record]})


def test_publish_extracts_the_chapters_not_yet_published(tmp_path, capsys, monkeypatch):
    book = tmp_path / "small.txt"
    book.write_text("\n\n".join(p.text for p in SMALL_BOOK.paragraphs), encoding="utf-8")
    data = ["--data-dir", str(tmp_path / "stores")]

    asked = []
    monkeypatch.setattr(
        "clueweaver.cli.nwm.load_backend_from",
        lambda kind, model, options: (
            asked.append((kind, model, options)) or ScriptedBackend(script=lambda m, a: record_for(m))
        ),
    )
    code, out, err = run(capsys, "publish", str(book), "--chapters", "2-3", "--backend", "vllm", "--model", "m", *data)
    assert (code, out) == (
        0,
        "chapter 2: 1 records\nchapter 3: 1 records\n",
    ) and "publishing chapters" in err  # progress
    assert asked == [("vllm", "m", {})]
    code, out, _ = run(capsys, "publish", str(book), *data)  # the chapters not yet published
    assert code == 0 and out.splitlines() == ["chapter 1: 1 records", "chapter 4: 1 records", "chapter 5: 1 records"]
    assert (
        run(capsys, "publish", str(book), *data)[1]
        == "every chapter is already published; pass --chapters to republish\n"
    )
    code, out, _ = run(capsys, "state", str(book), "--as-of", "3", "--entity", "Ada", *data)
    assert "seen in chapter 3" in out and "seen in chapter 4" not in out


def test_publish_reports_a_failed_extraction_cleanly(tmp_path, capsys):
    book = tmp_path / "small.txt"
    book.write_text("\n\n".join(p.text for p in SMALL_BOOK.paragraphs), encoding="utf-8")
    code, _, err = run(
        capsys,
        "publish",
        str(book),
        "--chapters",
        "2",
        "--backend",
        "scripted",
        "--model",
        "x",
        "--max-attempts",
        "2",
        "--data-dir",
        str(tmp_path / "stores"),
    )
    assert code == 2 and "chapter 2: no valid extraction" in err and "2 attempt(s)" in err
    code, _, err = run(capsys, "publish", str(book), "--backend", "llama", "--model", "x", "--data-dir", str(tmp_path))
    assert code == 2 and "unknown backend 'llama'" in err


def test_chapter_specs():
    available = [0, 1, 2, 3, 4, 5]
    assert parse_chapters("2-4,5", SMALL_BOOK, available, []) == [2, 3, 4, 5]
    assert parse_chapters(None, SMALL_BOOK, available, [3]) == [3]
    assert parse_chapters("all", SMALL_BOOK, [0, 1, 2], []) == [0, 1, 2]
    from clueweaver.core.errors import UsageError

    with pytest.raises(UsageError, match="--chapters 4-9: .*no chapter 9 \\(the book's chapters are 1-5"):
        parse_chapters("4-9", SMALL_BOOK, available, [])
    with pytest.raises(UsageError, match="--chapters x: .*no chapter x"):
        parse_chapters("1,x", SMALL_BOOK, available, [])
    with pytest.raises(UsageError, match="cannot read '-2'"):
        parse_chapters("-2", SMALL_BOOK, available, [])


def test_publish_reaches_an_openai_server_at_the_given_address(tmp_path, capsys):
    from tests.test_backends_openai import ChatServer

    book = tmp_path / "small.txt"
    book.write_text("\n\n".join(p.text for p in SMALL_BOOK.paragraphs), encoding="utf-8")
    data = ["--data-dir", str(tmp_path / "stores")]
    server = ChatServer()
    server.reply = lambda body: record_for(body["messages"])
    server.start()
    try:
        options = ["--chapters", "2", "--backend", "openai", "--model", "m", "--base-url", server.base_url]
        assert run(capsys, "publish", str(book), *options, *data)[:2] == (0, "chapter 2: 1 records\n")
    finally:
        server.stop()
    assert [r["body"]["model"] for r in server.requests] == ["m"]
    code, _, err = run(capsys, "publish", str(book), "--backend", "openai", "--device", "cpu", *data)
    assert code == 2 and "--device applies to --backend hf only" in err
