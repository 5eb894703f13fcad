"""The query writer (``--query-writer keywords|passage``): its plumbing, with a scripted backend that
plays the model. What the written words are worth cannot be measured without a capable model; these
tests check that they reach retrieval and only retrieval, what the trace records, and the refusals."""

from __future__ import annotations

import pytest

from clueweaver.backends import BackendError, load_backend
from clueweaver.backends.base import OFFLINE_SMOKE_MODEL, GenerationBackend, prompt_too_long
from clueweaver.backends.batching import GenerationEngine
from clueweaver.backends.hf import HFBackend
from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.backends.stand_ins import ScriptedReader
from clueweaver.benchmarks.demo import load_demo
from clueweaver.books.narrative import from_paragraphs
from clueweaver.cli import build_parser, main
from clueweaver.cli import reading as reading_cli
from clueweaver.cli.common import pipeline_config_from_args, pipeline_settings_from_args
from clueweaver.core.config import read_yaml_mapping
from clueweaver.nwm.store import NarrativeStore
from clueweaver.pipeline import STAGES, ClueWeaver, PipelineConfig, format_result
from clueweaver.pipeline.models import Agents
from clueweaver.pipeline.query import QUERY_SAMPLING, WrittenQuery
from clueweaver.protocol.prompts import finder_messages, interpreter_messages, render_case
from clueweaver.protocol.query_writer import query_writer_messages, read_written_query
from clueweaver.protocol.question import Question
from clueweaver.retrieval import build_index
from clueweaver.segments.segmenter import Segment, segment_narrative
from clueweaver.sources import SEGMENT_SOURCES, SegmentSource, SegmentSourceError, register_source
from clueweaver.systems.base import reader_output
from tests.conftest import REPO_ROOT

FILLER = "The constable said the killer left no weapon in the library on day {n}."
TARGET = 210  # shares no word with the question or its options; every written keyword is its own
TEXTS = [FILLER.format(n=n) for n in range(300)]
TEXTS[TARGET] = "Beside the hearth lay a bent brass poker, its tip grey with ashes."
BOOK = from_paragraphs(TEXTS, title="the library", detect_headings=False)
INDEX = build_index(BOOK, None, use_cache=False)  # built at import: kept out of every cache
QUESTION = Question(
    "Which weapon did the killer use?", {"A": "A revolver", "B": "A rope", "C": "A candlestick", "D": "A dagger"}
)
KEYWORDS = "poker, hearth, ashes, brass"
WRITER_SYSTEMS = {query_writer_messages(QUESTION, mode, "en")[0]["content"] for mode in ("keywords", "passage")}
ANSWER = "<reason>The constable's account [1].</reason><answer>A</answer>"


def script(reply: str):
    """The query writer's reply to its prompt; YES citing a segment's first paragraph; one answer."""

    def answer(messages, adapter):
        if messages[0]["content"] in WRITER_SYSTEMS:
            return reply
        if adapter == "finder":
            first = messages[-1]["content"].split("Segment:\n[", 1)[1].split("]", 1)[0]
            return f"<reason>It says so [{first}].</reason><answer>YES</answer>"
        return ANSWER

    return answer


def run(mode: str = "off", reply: str = KEYWORDS, **settings):
    """The reader over BOOK with a scripted backend playing the model; the result, the backend and
    the progress events."""
    backend = load_backend(
        "scripted", "agents", script=script(reply), adapters=("finder", "interpreter"), plays_model=True
    )
    config = PipelineConfig(
        encoder=None, preset="focused", query_writer=mode, finder_adapter="finder", interpreter_adapter="interpreter",
        self_calibration=False, **settings,
    )  # fmt: skip
    events = []
    result = ClueWeaver(backend, config=config).answer(
        BOOK, QUESTION, index=INDEX, progress_callback=lambda stage, info: events.append((stage, info))
    )
    return result, backend, events


def read_ids(result) -> set[int]:
    return {i for segment in result.trace["segments"] for i in segment["paragraph_ids"]}


def test_the_written_words_reach_retrieval_and_the_agents_read_the_question_as_asked():
    off, off_backend, _ = run("off")
    on, backend, _ = run("keywords")
    assert TARGET not in read_ids(off) and TARGET in read_ids(on)
    assert [call.adapter for call in off_backend.calls] == ["finder", "interpreter"]  # off: no query call
    writer, finder, interpreter = backend.calls
    assert writer.conversations == [query_writer_messages(QUESTION, "keywords", "en")]  # in the book's language
    assert writer.adapter is None and writer.sampling == QUERY_SAMPLING  # the base model, greedy, 128 tokens
    # retrieval ranked with the question's text plus the written words, the options unchanged
    asked = Question(f"{QUESTION.text}\n{KEYWORDS}", QUESTION.options)
    segments = segment_narrative(BOOK, asked, "focused", index=INDEX)
    assert finder.conversations == [finder_messages(QUESTION, s.render(BOOK)) for s in segments]
    assert interpreter.conversations == [interpreter_messages(QUESTION, on.packet.text)]
    agents_text = [m["content"] for call in (finder, interpreter) for c in call.conversations for m in c]
    assert all(KEYWORDS not in text and render_case(QUESTION) in text for text in agents_text if "Segment" in text)
    assert on.trace["question"]["text"] == QUESTION.text


def test_an_english_question_about_a_french_book_gets_its_words_written_in_french():
    """No index given: the book's language is detected, and the writer is asked for French words."""
    book = from_paragraphs([f"Le jour {n}, Hélène attendait la diligence près du puits." for n in range(40)],
                           title="livre", detect_headings=False)  # fmt: skip
    backend = load_backend("scripted", "agents", script=script("diligence, puits"), plays_model=True)
    config = PipelineConfig(encoder=None, preset="focused", query_writer="keywords", self_calibration=False)
    result = ClueWeaver(backend, config=config).answer(book, Question.open("Where did Helen wait?"))
    assert "in French, the language of the narrative" in backend.calls[0].conversations[0][0]["content"]
    assert result.trace["config"]["language_used"] == "fr"


def test_the_trace_has_the_written_query_its_tokens_its_seconds_and_its_stage():
    reply = "<think>A poker, maybe.</think>\n  poker, hearth,\n ashes, brass "
    result, backend, events = run("keywords", reply=reply)
    trace = result.trace
    prompt = backend.count_tokens(query_writer_messages(QUESTION, "keywords", "en"))
    assert trace["query"] == {
        "mode": "keywords", "text": KEYWORDS, "output": reply,
        "generation": {"prompt_tokens": prompt, "completion_tokens": len(reply.split()), "finish_reason": "stop",
                       "error": None},
    }  # fmt: skip
    assert trace["tokens"]["query"] == {"calls": 1, "prompt": prompt, "completion": len(reply.split())}
    assert trace["tokens"]["total"]["prompt"] == sum(
        trace["tokens"][stage]["prompt"] for stage in ("query", "finder", "interpret", "calibrate")
    )
    assert list(trace["timings"]) == [*STAGES, "total"] and trace["timings"]["query"] > 0
    started = [stage for stage, info in events if info["status"] == "started"]
    assert started[:2] == ["query", "segment"]  # the index was given: no index stage
    (done,) = [info for stage, info in events if stage == "query" and info["status"] == "done"]
    assert done["words"] == 4 and done["tokens"] == len(reply.split())
    assert trace["config"]["query_writer"] == "keywords"
    assert not [w for w in trace["warnings"] if w.startswith("query writer")]
    assert reader_output(result).details["query"] == {"mode": "keywords", "text": KEYWORDS}
    shown = format_result(result, BOOK)
    assert f"Query written for retrieval (keywords): {KEYWORDS}" in shown
    assert f"Tokens (prompt/completion): query {prompt}/{len(reply.split())}, finder" in shown

    off = run("off")[0].trace
    assert off["query"] is None and off["tokens"]["query"] == {"calls": 0, "prompt": 0, "completion": 0}
    assert off["timings"]["query"] == 0.0 and "Query written" not in format_result(run("off")[0])


@pytest.mark.parametrize(
    "reply", ["", "<think>The poker, surely.</think>", "  … — ! ", "<think>cut off while thinking of the poker"]
)
def test_an_unusable_reply_is_a_warning_and_retrieval_uses_the_question_alone(reply):
    off = run("off")[0]
    on = run("keywords", reply=reply)[0]
    assert on.trace["query"]["text"] == "" and on.trace["query"]["output"] == reply
    assert on.trace["segments"] == off.trace["segments"] and TARGET not in read_ids(on)
    (warning,) = [w for w in on.trace["warnings"] if w.startswith("query writer")]
    assert warning.startswith("query writer: no usable query in its reply") and "question alone" in warning
    assert on.trace["tokens"]["query"]["calls"] == 1  # its cost is counted all the same


def test_a_prompt_that_did_not_fit_is_a_warning_naming_why():
    written = WrittenQuery.read("passage", prompt_too_long(900, 128, 1000, model="m"))
    assert written.text == "" and written.tokens() == {"calls": 1, "prompt": 900, "completion": 0}
    assert written.warning.startswith("query writer: m: prompt of 900 tokens + 128 new tokens exceeds")
    assert written.retrieval_question(QUESTION) is QUESTION


def test_given_segments_leave_nothing_to_steer_and_the_trace_says_so():
    backend = load_backend("scripted", "agents", script=script(KEYWORDS), plays_model=True)
    pipeline = ClueWeaver(backend, config=PipelineConfig(encoder=None, query_writer="passage"))
    result = pipeline.answer(BOOK, QUESTION, segments=[Segment.span(0, 3, "window")])
    assert all(m[0]["content"] not in WRITER_SYSTEMS for call in backend.calls for m in call.conversations)
    assert "query writer: not run, the candidate segments were given" in "\n".join(result.trace["warnings"])
    assert result.trace["timings"]["query"] == 0.0 and result.trace["tokens"]["query"]["calls"] == 0


def test_a_backend_that_only_stands_in_for_a_model_is_refused_naming_it():
    smoke = ScriptedBackend(OFFLINE_SMOKE_MODEL, plays_model=True)  # taken for what the smoke model is
    refused = r"--query-writer keywords .*needs a generating model.*the offline smoke model \(offline:gemma-3-270m"
    with pytest.raises(BackendError, match=refused + r".*only stands in for one: name a model"):
        ClueWeaver(smoke, config=PipelineConfig(query_writer="keywords"))
    engine = GenerationEngine()
    try:  # behind the evaluation's generation engine, the real backend decides
        with pytest.raises(BackendError, match="offline smoke model"):
            ClueWeaver(engine.backend(smoke), query_writer="keywords")
    finally:
        engine.close()
    with pytest.raises(BackendError, match="--query-writer passage .*the scripted test double"):
        ClueWeaver(ScriptedBackend(), query_writer="passage")
    ClueWeaver(ScriptedBackend(), query_writer="off")  # off: nothing to refuse
    assert HFBackend.stand_in is GenerationBackend.stand_in  # the hf backend is judged by its model's name


def test_ask_on_the_smoke_model_refuses_it_before_any_call_or_index(monkeypatch, capsys, tmp_path):
    smoke = ScriptedBackend(OFFLINE_SMOKE_MODEL, script=ScriptedReader(), plays_model=True)
    monkeypatch.setattr(
        reading_cli, "load_agents_from_args", lambda args, model=None: Agents(smoke, smoke, smoke=True)
    )
    narrative, _ = load_demo()
    book = tmp_path / "lantern.jsonl"
    narrative.to_jsonl(book)
    cache = tmp_path / "cache"
    ask = ["ask", str(book), "--claim", "Tobias Wren was at the Anchor.", "--encoder", "none"]
    assert main([*ask, "--cache-dir", str(cache), "--query-writer", "keywords"]) == 2
    err = capsys.readouterr().err
    assert "clueweaver ask: error: --query-writer keywords (query_writer: keywords) needs a generating model" in err
    assert "offline smoke model" in err and smoke.calls == [] and not cache.exists()


def test_the_flag_reaches_the_settings_of_ask_and_eval(capsys):
    parser = build_parser()
    ask = ["ask", "book.txt", "--claim", "x"]
    assert pipeline_config_from_args(parser.parse_args([*ask, "--query-writer", "passage"])).query_writer == "passage"
    assert pipeline_config_from_args(parser.parse_args(ask)).query_writer == "off"
    evaluation = parser.parse_args(
        ["eval", "--benchmark", "jsonl", "--system", "clueweaver", "--query-writer", "keywords"]
    )
    assert pipeline_settings_from_args(evaluation)["query_writer"] == "keywords"
    with pytest.raises(SystemExit):
        parser.parse_args([*ask, "--query-writer", "hyde"])
    assert "invalid choice: 'hyde'" in capsys.readouterr().err


def test_settings_name_the_modes_and_refuse_a_combination_with_nothing_to_steer():
    with pytest.raises(ValueError, match="unknown query_writer 'hyde'; use one of off, keywords, passage"):
        PipelineConfig(query_writer="hyde")
    with pytest.raises(ValueError, match="unknown query_writer 'hyde'; use one of off, keywords, passage"):
        PipelineConfig.from_dict({"query_writer": "hyde"})
    with pytest.raises(ValueError, match="exhaustive: true reads every window whatever retrieval ranks"):
        PipelineConfig(query_writer="keywords", exhaustive=True)
    assert PipelineConfig.from_dict({"query_writer": "passage"}).to_dict()["query_writer"] == "passage"
    shipped = read_yaml_mapping(REPO_ROOT / "configs" / "pipeline.yaml", "pipeline settings")
    assert PipelineConfig.from_dict(shipped).query_writer == "off"  # quoted: a bare off is YAML's false


def test_run_labels_carry_it_for_the_finder_reader_only():
    from clueweaver.evaluation.runner import EvalConfig

    settings = {"pipeline": {"query_writer": "keywords"}}
    assert EvalConfig("jsonl", "clueweaver", **settings).default_label() == "clueweaver query_writer=keywords"
    for system in ("rag-bm25", "direct", "react", "chronorag"):
        assert EvalConfig("jsonl", system, **settings).default_label() == system


# --- the other segment sources --------------------------------------------------------------------


class QuestionSpy(SegmentSource):
    """A toy source: the book's first paragraph, and the question it was asked."""

    name = "question-spy"
    label = "the first paragraph"
    kinds = {"spy": "the book's first paragraph"}
    asked: list[Question] = []

    def segments(self, request):
        self.asked.append(request.question)
        return [Segment.span(0, 0, "spy", source=self.name)]


@pytest.fixture
def spy():
    QuestionSpy.asked = []
    register_source(QuestionSpy())
    yield QuestionSpy
    SEGMENT_SOURCES.unregister(QuestionSpy.name)


def test_every_segment_source_is_asked_with_the_written_words(spy):
    result, backend, _ = run("passage", segment_source=spy.name)
    assert spy.asked == [Question(f"{QUESTION.text}\n{KEYWORDS}", QUESTION.options)]
    assert backend.calls[1].conversations == [finder_messages(QUESTION, Segment.span(0, 0, "spy").render(BOOK))]
    assert result.trace["segment_source"]["used"] == spy.name


def test_the_world_model_reaches_a_record_only_the_written_words_name(tmp_path):
    from clueweaver.nwm.records import record_from_dict
    from tests.nwm_helpers import SMALL_BOOK, by_chapter, record_json

    record = record_json("character_state", [2], SMALL_BOOK[2].text[:30], character="Ada", aspect="status",
                         state="at the mill")  # fmt: skip
    with NarrativeStore.for_narrative(SMALL_BOOK, tmp_path) as store:
        store.replace_chapters(SMALL_BOOK, by_chapter([record_from_dict({**record, "chapter": 1})]), origin="test")
    claim = Question.claim("Someone waited by the old waterwheel.")  # no word of the record
    settings = {"segment_source": "nwm", "nwm_dir": str(tmp_path), "encoder": None}

    def reply(messages, adapter):
        if messages[0]["content"] == query_writer_messages(claim, "keywords", "en")[0]["content"]:
            return "Ada, the mill"
        return "<reason>So it says [2].</reason><answer>TRUE</answer>"

    def answer(mode: str):
        backend = load_backend("scripted", "agents", script=reply, plays_model=True)
        return ClueWeaver(backend, config=PipelineConfig(query_writer=mode, **settings)).answer(SMALL_BOOK, claim)

    with pytest.raises(SegmentSourceError, match="the world model of 'small book' retrieves nothing"):
        answer("off")
    result = answer("keywords")
    assert [(s["source"], s["span"]) for s in result.trace["segments"]] == [("nwm", [1, 3])]


# --- the protocol: prompts and the reading of a reply ---------------------------------------------


def test_the_prompts_ask_for_the_books_language_and_show_the_case():
    """The written words must be the book's: an English question about a French novel gets French
    keywords, which BM25 can match. Without a known book language, the question's."""
    cases = (QUESTION, Question.claim("Ada met Bram at the mill."), Question.open("Who met Bram?"))
    for mode in ("keywords", "passage"):
        for question in cases:
            system, user = query_writer_messages(question, mode, "fr")
            assert "in French, the language of the narrative" in system["content"]
            assert user["content"] == render_case(question)
            subject = "claim" if question.is_claim else "question"
            for unknown in (None, "und"):
                assert (
                    f"in the language of the {subject}" in query_writer_messages(question, mode, unknown)[0]["content"]
                )
    with pytest.raises(ValueError, match="unknown query writer mode 'off'; use keywords or passage"):
        query_writer_messages(QUESTION, "off")


def test_a_reply_is_read_without_thinking_whitespace_or_excess():
    assert read_written_query("<think>x</think> poker,  hearth\n ashes") == "poker, hearth ashes"
    assert read_written_query("thoughts opened by the template</think> poker") == "poker"
    assert read_written_query("poker <think>and then the model ran out of tokens") == "poker"
    many = [f"w{i}" for i in range(100)]
    assert read_written_query(" ".join(many)) == " ".join(many[:80])
    chinese = "火钳" * 100  # 200 characters: 80 words are 120 characters
    assert read_written_query(chinese) == chinese[:120]
    assert read_written_query(" … — ! ") == "" and read_written_query("") == ""
