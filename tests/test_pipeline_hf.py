"""The pipeline and the direct reader on the tiny random Qwen3 through the transformers backend:
real tokenizer and chat template, real batched generation; random weights, so the outputs are
noise and every robustness path is exercised without raising."""

from __future__ import annotations

import json

import pytest

from clueweaver.backends import SamplingConfig, load_backend
from clueweaver.backends.prompting import qwen3_tokenizer
from clueweaver.benchmarks.demo import load_demo
from clueweaver.books.narrative import from_paragraphs
from clueweaver.pipeline import ClueWeaver, DirectReader, PipelineConfig
from clueweaver.protocol.prompts import apply_chat_template, interpreter_messages

pytestmark = pytest.mark.models  # loads or trains models: left out of the edit-test loop


BOOK, DEMO = load_demo()
SHORT = {"finder_sampling": {"max_new_tokens": 8}, "interpreter_sampling": {"max_new_tokens": 8}}


@pytest.fixture(scope="module")
def backend(tiny_qwen3_path):
    with load_backend("hf", str(tiny_qwen3_path)) as loaded:
        yield loaded


def real_qwen3_tokens(messages) -> int:
    """Counted without the backend: Qwen3's tokenizer and chat template, thinking disabled."""
    tokenizer = qwen3_tokenizer()
    return len(tokenizer(apply_chat_template(tokenizer, messages), add_special_tokens=False)["input_ids"])


@pytest.mark.slow
def test_the_whole_pipeline_runs_on_a_real_model_and_never_raises(backend):
    config = PipelineConfig.from_dict({"preset": "focused", "encoder": None, **SHORT})
    events = []
    for demo in DEMO:
        result = ClueWeaver(backend, config=config).answer(
            BOOK, demo.question, max_chapter=6, progress_callback=lambda stage, info: events.append(stage)
        )
        assert result.answer in demo.question.labels
        trace = json.loads(json.dumps(result.to_dict()))["trace"]
        finder = trace["finder"]
        assert finder["calls"] == 1 and finder["segments"] == len(trace["segments"]) > 1
        # each segment's prompt went through the real chat template
        assert all(
            s["finder"]["prompt_tokens"] > 300 and s["finder"]["completion_tokens"] <= 8 for s in trace["segments"]
        )
        assert finder["kept"] == finder["yes"] + finder["unparseable"] or finder["fallback"]
        assert max(result.packet.paragraph_ids) <= BOOK.last_paragraph_of_chapter(6)
        provisional = trace["interpreter"]["provisional"]["attempts"][0]
        assert provisional["prompt_tokens"] == backend.count_tokens(
            interpreter_messages(demo.question, result.packet.text)
        )
        assert trace["timings"]["finder"] > 0 and trace["timings"]["interpret"] > 0
        assert result.fallback == (not result.answer_legal)
    assert "finder" in events and "interpret" in events


def test_a_window_too_small_is_reported_by_every_stage(tiny_qwen3_path):
    with load_backend("hf", str(tiny_qwen3_path), max_model_len=300) as narrow:
        config = PipelineConfig.from_dict({"preset": "focused", "encoder": None, **SHORT})
        result = ClueWeaver(narrow, config=config).answer(BOOK, DEMO[1].question)
    assert result.trace["finder"]["prompt_too_long"] == result.trace["finder"]["segments"]
    assert result.fallback and result.answer == "TRUE"
    assert sum("exceeds the model window of 300 tokens" in w for w in result.trace["warnings"]) >= 2


@pytest.mark.slow
def test_direct_reader_budget_is_exact_with_the_real_qwen3_tokenizer(backend):
    # about 40,000 tokens of text: the demo mystery eleven times over
    texts = [p.text for p in BOOK.paragraphs] * 11
    long_book = from_paragraphs(texts, title="long", detect_headings=False)
    reader = DirectReader(backend, budget="32k")
    assert reader.input_budget == 30_592
    cut = reader.truncate(long_book, DEMO[0].question)
    assert not cut.complete and cut.paragraphs > len(BOOK) * 8
    messages = interpreter_messages(DEMO[0].question, cut.packet.text)
    assert cut.prompt_tokens == real_qwen3_tokens(messages) <= 30_592
    # one more character of the book does not fit
    ids = range(cut.paragraphs + 1)
    longer = long_book.render(ids, truncate={cut.paragraphs: cut.partial_chars + 1})
    assert real_qwen3_tokens(interpreter_messages(DEMO[0].question, longer)) > 30_592
    assert 30_592 - cut.prompt_tokens < 20  # tight: only the truncation marker's tokens can be left over


def test_direct_reader_answers_on_a_real_model(backend):
    result = DirectReader(backend, budget=900, sampling=SamplingConfig(max_new_tokens=8)).answer(
        BOOK, DEMO[0].question
    )
    attempt = result.trace["interpreter"]["provisional"]["attempts"][0]
    assert attempt["prompt_tokens"] == result.trace["truncation"]["prompt_tokens"] <= 900
    assert attempt["completion_tokens"] <= 8 and result.answer in "ABCD"


def test_ignore_eos_forces_the_output_length(backend):
    conversations = [[{"role": "user", "content": text}] for text in ("Who?", "Say nothing at all, then stop.")]
    forced = backend.generate(conversations, SamplingConfig(max_new_tokens=12, ignore_eos=True))
    assert [g.completion_tokens for g in forced] == [12, 12]
