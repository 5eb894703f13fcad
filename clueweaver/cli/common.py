"""What several commands share: the question, model, pipeline and encoder arguments and how their
values are read, the ``--output`` path of a long command, and JSON printing.

Bad values are a ``UsageError`` naming the flag; errors the library raises on purpose reach
``clueweaver.cli.main`` unchanged, which prints them once.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clueweaver.backends import load_backend, stand_ins
from clueweaver.backends.registry import command_line_backends, command_line_options
from clueweaver.books.language import SUPPORTED_LANGUAGES
from clueweaver.books.narrative import Narrative, load_narrative
from clueweaver.chrono.config import ASSEMBLIES, MERGED_KEYS, RETRIEVAL_MODES, ChronoConfig
from clueweaver.core.config import ConfigError, config_from_dict, read_yaml_mapping
from clueweaver.core.errors import UsageError
from clueweaver.pipeline import PipelineConfig
from clueweaver.pipeline.models import DEFAULT_MODEL, load_agents
from clueweaver.protocol.query_writer import QUERY_WRITER_MODES
from clueweaver.protocol.question import Question
from clueweaver.retrieval import default_cache_dir
from clueweaver.sources import SEGMENT_SOURCES

# The book files every command reads (``load_narrative``), for its help
BOOK_FILES = ".txt, .md, .html, .epub, .fb2, TEI .xml, .docx, .odt, .pdf or .jsonl, or one packed (.zip, .txt.gz)"
TINY_MODEL = "tiny"  # --model tiny: a tiny random Qwen3, a wiring check

ENCODER_CHOICES = (
    "auto (BGE-M3 on a GPU, BM25 alone on a CPU), none (BM25 alone), bge-m3[:PATH], minilm (English), e5 "
    "(multilingual-e5-small, offline: bridges languages on a CPU), or a sentence-transformers name/path"
)


def print_json(payload) -> None:
    """``payload`` on stdout, indented, non-ASCII text as is."""
    json.dump(payload, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def add_command_group(sub, name: str, *, help: str, description: str, actions) -> None:
    """A command with actions of its own (``nwm``, ``chrono``): each ``add`` of ``actions``
    registers one."""
    parser = sub.add_parser(name, help=help, description=description)
    subparsers = parser.add_subparsers(dest=f"{name}_command", required=True, metavar="ACTION")
    for add in actions:
        add(subparsers)


def announce(line: str) -> None:
    """A one-line notice for the person at the terminal (stderr, so --json output stays clean)."""
    print(line, file=sys.stderr)


def output_path(option: str | None, *, folder: bool = False) -> Path | None:
    """The ``--output`` file (or ``folder``) of a long command, its folder made before the run,
    not after it."""
    if not option:
        return None
    path = Path(option)
    if path.is_dir() != folder and path.exists():
        raise UsageError(
            f"--output {option} is a {'file' if folder else 'folder'}; give a {'folder' if folder else 'file'} name"
        )
    try:
        (path if folder else path.parent).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--output {option}: cannot create its folder ({exc.strerror})") from exc
    return path


def add_question_arguments(parser: argparse.ArgumentParser) -> None:
    """--question/--option/--claim/--open, shared by every command that asks something of a book."""
    parser.add_argument(
        "--question", help="a question: multiple-choice with --option, an open question (free-text answer) without"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar='A="text"', help="an answer option, repeatable"
    )
    parser.add_argument(
        "--open", action="store_true", help="read --question as an open question (the default without --option)"
    )
    parser.add_argument(
        "--claim",
        nargs="?",
        const=True,
        default=None,
        metavar="TEXT",
        help='a TRUE/FALSE claim: --claim "text", or a bare --claim to read --question as a claim',
    )


def _options_from_args(raw_options: list[str]) -> dict[str, str]:
    options = {}
    for raw in raw_options:
        label, sep, text = raw.partition("=")
        if not sep:
            raise UsageError(f'--option must look like A="text", got {raw!r}')
        options[label.strip().upper()] = text.strip()
    return options


def question_from_args(args) -> Question:
    """The question, claim or open question the arguments ask; a UsageError says which combination
    is wrong. ``--question`` without ``--option`` is an open question (a free-text answer)."""
    options = _options_from_args(args.option)
    if isinstance(args.claim, str):
        if args.question or options or args.open:
            raise UsageError("give either --claim TEXT or --question (with --option, or --open), not both")
        if not args.claim.strip():
            raise UsageError("--claim is empty: give the claim's text")
        return Question.claim(args.claim)
    if args.question is None:
        raise UsageError(
            "give --question (with --option A=... for each option, or none for an open question) or --claim"
        )
    if not args.question.strip():
        raise UsageError("--question is empty: give the question's text")
    if args.claim:
        if options or args.open:
            raise UsageError("a claim takes no --option and is not --open")
        return Question.claim(args.question)
    if args.open and options:
        raise UsageError(
            f"an open question takes no --option (got {', '.join(options)}); drop --open to ask a multiple-choice "
            "question, or the --option flags to ask an open one"
        )
    if len(options) == 1:
        raise UsageError(
            f"one --option ({next(iter(options))}) makes no multiple-choice question: give two to four, or none "
            "for an open question"
        )
    return Question(args.question, options) if options else Question.open(args.question)


def add_encoding_argument(parser: argparse.ArgumentParser) -> None:
    """--encoding, for every command that reads a book file."""
    parser.add_argument(
        "--encoding",
        default=None,
        help="a text book's encoding, e.g. latin-1 or cp1252 (default: UTF-8, else detected and named on stderr); "
        "for a FictionBook, the one it is written in when its XML declares another",
    )


def book_from_args(args) -> Narrative:
    """The book of ``args.book``, read with ``--encoding``; a detected encoding and the file read
    from a .zip are said on stderr."""
    narrative = load_narrative(args.book, encoding=args.encoding)
    if narrative.archive_note:
        print(f"note: {narrative.archive_note}", file=sys.stderr)
    if narrative.encoding_note:
        print(f"note: {narrative.encoding_note}; --encoding names another", file=sys.stderr)
    if narrative.encoding_warning:
        print(f"warning: {narrative.encoding_warning}", file=sys.stderr)
    return narrative


def add_encoder_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--encoder", default="auto", help=f"dense encoder: {ENCODER_CHOICES}")
    parser.add_argument(
        "--cache-dir", default=None, help="index cache folder (default ~/.cache/clueweaver or $CLUEWEAVER_CACHE)"
    )


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    """--language, for every command that indexes a book for retrieval."""
    parser.add_argument(
        "--language",
        choices=SUPPORTED_LANGUAGES,
        default=None,
        help="the book's language, whose analyzer retrieval reads it with (default: detected from the book's "
        "script and stop words)",
    )


def add_model_arguments(parser: argparse.ArgumentParser, *, agents: bool = True, model_help: str = "") -> None:
    """Which models answer, on which backend (ask, demo, eval)."""
    parser.add_argument(
        "--model",
        default=None,
        help=model_help
        or "one checkpoint folder or hub id for both agents; 'tiny': a tiny random Qwen3, a wiring check whose "
        "answers mean nothing",
    )
    if agents:
        parser.add_argument("--finder", default=None, help=f"the Finder's checkpoint (default {DEFAULT_MODEL})")
        parser.add_argument(
            "--interpreter", default=None, help=f"the Interpreter's checkpoint (default {DEFAULT_MODEL})"
        )
        parser.add_argument(
            "--finder-adapter",
            default=None,
            metavar="PATH|NAME",
            help="the Finder's LoRA adapter over its base model (a folder; with --backend openai, the served name)",
        )
        parser.add_argument(
            "--interpreter-adapter", default=None, metavar="PATH|NAME", help="the Interpreter's LoRA adapter"
        )
    parser.add_argument("--backend", choices=command_line_backends(), default="hf")
    add_backend_flags(parser)


def add_backend_flags(parser: argparse.ArgumentParser) -> None:
    """The flags the registered backends declare (--base-url, --device, ...): a new backend brings
    its own, each named after its option."""
    for option, backends in command_line_options().items():
        what = f"{' and '.join(backends)} backend{'s' if len(backends) > 1 else ''}"
        repeat = {"action": "append"} if option.repeatable else {}
        parser.add_argument(option.flag, default=None, metavar=option.metavar, help=f"{what}: {option.help}", **repeat)


def model_from_args(args) -> tuple[str | None, dict]:
    """The model ``--model`` names and the pipeline settings it brings: ``tiny`` is a tiny random
    Qwen3 built in the cache folder (a wiring check, 16 tokens per reply, announced on stderr)."""
    if args.model != TINY_MODEL:
        return args.model, {}
    print(
        "warning: --model tiny is a tiny RANDOM model: this checks the wiring (16 tokens per reply), its answers "
        "mean nothing",
        file=sys.stderr,
    )
    # through the module, so a test can hand over the tiny model its session already built
    model = str(stand_ins.build_tiny_qwen3(default_cache_dir() / "tiny-qwen3"))
    return model, {"finder_sampling": {"max_new_tokens": 16}, "interpreter_sampling": {"max_new_tokens": 16}}


def backend_options_from_args(args) -> dict:
    """The backend flags given (--base-url, --device, ...) as backend options, each refused on a
    backend that has no use for it. A repeatable flag given once is its one value, as when it
    could not repeat."""
    options = {}
    for option, backends in command_line_options().items():
        value = getattr(args, option.name, None)
        if value:
            if args.backend not in backends:
                raise UsageError(f"{option.flag} applies to --backend {' or '.join(backends)} only")
            options[option.name] = one_or_list(value)
    return options


def one_or_list(value):
    """A repeatable flag's values: the one value when it was given once (as when it could not
    repeat, so settings recorded by earlier runs still match), else the list."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def load_backend_from(kind: str, model: str, options: dict):
    """One backend (a world model's extractor, ChronoRAG's builder); a model transformers cannot
    find is a UsageError saying what to pass."""
    try:
        return load_backend(kind, model, **options)
    except OSError as exc:  # transformers: no such local folder and no way to download it
        raise UsageError(
            f"cannot load model {model!r} for the {kind} backend ({exc}); pass --model PATH "
            "to a local checkpoint folder"
        ) from exc


def load_agents_from_args(args, *, model: str | None = None):
    """The agents the arguments name; the offline smoke model stands in only when no model was
    named at all (and the demo extra is installed). An unloadable model raises ``ModelUnavailable``."""
    model = model or args.model
    finder = getattr(args, "finder", None) or model
    interpreter = getattr(args, "interpreter", None) or model
    finder_adapter, interpreter_adapter = (
        getattr(args, "finder_adapter", None),
        getattr(args, "interpreter_adapter", None),
    )
    named = finder or interpreter or finder_adapter or interpreter_adapter
    return load_agents(
        finder, interpreter, backend=args.backend, finder_adapter=finder_adapter,
        interpreter_adapter=interpreter_adapter, options=backend_options_from_args(args), smoke_fallback=not named,
    )  # fmt: skip


def add_pipeline_arguments(parser: argparse.ArgumentParser, *, reading_limit: bool = True) -> None:
    """How the pipeline reads (ask, demo, eval): a YAML of settings, overridden by the flags.
    ``reading_limit=False`` leaves out --max-chapter (eval items carry their own limits)."""
    parser.add_argument(
        "--config", default=None, help="YAML of pipeline settings (see configs/pipeline.yaml); flags override it"
    )
    parser.add_argument(
        "--preset",
        default=None,
        help="segmentation and packing preset (default detectiveqa, in eval the "
        "benchmark's own; see clueweaver/presets.yaml)",
    )
    if reading_limit:
        add_max_chapter_argument(parser)
    parser.add_argument(
        "--no-finder", action="store_true", help="ablation: pack the retrieved segments without the Finder"
    )
    parser.add_argument(
        "--no-self-calibration", action="store_true", help="ablation: never run the self-calibration pass"
    )
    add_segment_source_arguments(parser, default=None)
    parser.add_argument(
        "--hops",
        type=int,
        choices=(1, 2),
        default=None,
        help="2: the paragraphs the Finder cites seed a second retrieval round over the rest of the book and one "
        "more batched Finder call (off by default; needs the Finder: not with --no-finder). docs/retrieval.md has "
        "what it adds with a perfect Finder; 'clueweaver bench pipeline --hops 2' measures its seconds and tokens, "
        "and the trace reports them per round (finder.rounds)",
    )
    parser.add_argument(
        "--query-writer",
        choices=QUERY_WRITER_MODES,
        default=None,
        help="before retrieval the Finder's model writes search words: keywords (the names, places, objects and "
        "events an answer would mention) or passage (a short hypothetical answer passage, as HyDE); retrieval ranks "
        "with the question plus them, the agents read the question as asked. Off by default; needs a model (not "
        "the smoke model); one short generation, its tokens and seconds in the trace. Unmeasured here: "
        "docs/retrieval.md",
    )
    add_encoder_argument(parser)
    add_language_argument(parser)


def add_max_chapter_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-chapter",
        default=None,
        metavar="N",
        help="read up to chapter N only (spoiler-free), N as the book numbers it: '24', or '1.2' for chapter II of "
        "story I ('1' reads all of story I), or as a question names it ('第二十四回', 'chapter XXIV', 'Part 2'); "
        "'clueweaver chapters BOOK' lists them",
    )


def _segment_source_help() -> str:
    """Each registered source with its label and the options it reads, so a new one documents itself."""
    described = []
    for name in SEGMENT_SOURCES.names():
        source = SEGMENT_SOURCES.get(name)
        options = f" [{', '.join(source.options)}]" if source.options else ""
        described.append(f"{name}: {source.label}{options}")
    return "where Finder segments come from: " + "; ".join(described)


def add_segment_source_arguments(parser: argparse.ArgumentParser, *, default: str | None) -> None:
    """Where the Finder's segments come from (segment, ask, demo, eval), where world-model stores
    live, and which ChronoRAG index to read."""
    parser.add_argument(
        "--segment-source",
        choices=SEGMENT_SOURCES.names(),
        default=default,
        help=_segment_source_help(),
    )
    parser.add_argument(
        "--segment-fallback",
        action="store_true",
        help="when the source has nothing to give (no world model or ChronoRAG index, an empty one, nothing "
        "retrieved), read the plain segments instead of stopping; the fallback is recorded in the trace",
    )
    parser.add_argument(
        "--data-dir",
        default=None,
        help="where world-model stores live, as for 'clueweaver nwm' (default: $CLUEWEAVER_CACHE/nwm or "
        "~/.cache/clueweaver/nwm)",
    )
    add_chrono_arguments(parser)


def add_chrono_arguments(parser: argparse.ArgumentParser, *, read_model: bool = True) -> None:
    """ChronoRAG's settings and its ablations (chrono, eval, ask, segment, demo): docs/chronorag.md.
    ``read_model``: offer --chrono-model (the commands whose own model is not the index's)."""
    chrono = parser.add_argument_group("ChronoRAG (--system chronorag, --segment-source chrono)")
    chrono.add_argument(
        "--chrono-retrieval", choices=RETRIEVAL_MODES, help="how Layer 1 is ranked (default dense, as the paper)"
    )
    chrono.add_argument("--chrono-window", type=int, metavar="N", help="neighbours on each side (default 1)")
    chrono.add_argument("--chrono-no-neighbours", action="store_true", help="ablation: no neighbourhood assembly")
    chrono.add_argument(
        "--chrono-assembly", choices=ASSEMBLIES,
        help="relations: a relation, its adjacent relations and their text (default, the paper); chunks: the "
        "relation's chunks and their neighbour chunks, no relation shown",
    )  # fmt: skip
    chrono.add_argument(
        "--chrono-merged-key", choices=MERGED_KEYS,
        help="ablation: Layer 1 keys merged with their adjacent relations (neighbours, the paper's) or with their "
        "chunks' text (chunks, ours)",
    )  # fmt: skip
    chrono.add_argument(
        "--chrono-no-relations", action="store_true",
        help="ablation: no relation extraction, retrieval over the group summaries (or chunks) alone",
    )  # fmt: skip
    chrono.add_argument(
        "--chrono-no-summary", action="store_true", help="ablation: relations extracted from the chunks, unsummarized"
    )
    chrono.add_argument("--chrono-chunk-tokens", type=int, metavar="K", help="Layer 0 chunk size (default 128)")
    chrono.add_argument("--chrono-group-chunks", type=int, metavar="L", help="chunks per summary (default 4)")
    if read_model:
        chrono.add_argument(
            "--chrono-model", metavar="MODEL", help="read the index this model built (default: see docs/chronorag.md)"
        )


def chrono_settings(args) -> dict:
    """The ChronoRAG flags given, as ``ChronoConfig`` fields."""
    if args.chrono_no_neighbours and args.chrono_window is not None:
        raise UsageError("--chrono-no-neighbours and --chrono-window exclude each other (no neighbours is window 0)")
    values = {
        "retrieval": args.chrono_retrieval,
        "window": 0 if args.chrono_no_neighbours else args.chrono_window,
        "merged_key": args.chrono_merged_key,
        "assembly": args.chrono_assembly,
        "relations": False if args.chrono_no_relations else None,
        "summarize": False if args.chrono_no_summary else None,
        "chunk_tokens": args.chrono_chunk_tokens,
        "group_chunks": args.chrono_group_chunks,
        "model": getattr(args, "chrono_model", None),
    }
    return {name: value for name, value in values.items() if value is not None}


def chrono_config_from_args(args) -> ChronoConfig:
    """The ChronoRAG flags over the defaults; a bad value is a UsageError naming it."""
    try:
        return config_from_dict(ChronoConfig, chrono_settings(args), "ChronoRAG settings")
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def segment_source_settings(args) -> dict:
    """The segment-source and ChronoRAG flags as pipeline settings (only those given)."""
    values = {}
    if args.segment_source:
        values["segment_source"] = args.segment_source
    if args.segment_fallback:
        values["segment_fallback"] = True
    if args.data_dir:
        values["nwm_dir"] = str(Path(args.data_dir).resolve())
    chrono = chrono_settings(args)
    if chrono:
        values["chrono"] = chrono
    return values


def pipeline_settings_from_args(args) -> dict:
    """The ``--config`` YAML with the flags on top (encoder and cache folder aside)."""
    values = {}
    if args.config:
        try:
            values = read_yaml_mapping(args.config, "pipeline settings")
        except ConfigError as exc:
            raise UsageError(f"--config: {exc}") from None
    if args.preset:
        values["preset"] = args.preset
    if args.no_finder:
        values["use_finder"] = False
    if args.no_self_calibration:
        values["self_calibration"] = False
    sources = segment_source_settings(args)
    if "chrono" in sources:  # the flags over the YAML's chrono settings, not instead of them
        sources["chrono"] = {**(values.get("chrono") or {}), **sources["chrono"]}
    values.update(sources)
    if args.hops:
        values["hops"] = args.hops
    if args.query_writer:
        values["query_writer"] = args.query_writer
    if args.language:
        values["language"] = args.language
    return values


def pipeline_config_from_args(args, **overrides) -> PipelineConfig:
    """``--config`` YAML, then the flags, then ``overrides``; bad settings are a UsageError."""
    values = pipeline_settings_from_args(args)
    values.update(encoder=None if args.encoder == "none" else args.encoder, cache_dir=args.cache_dir, **overrides)
    try:
        return PipelineConfig.from_dict(values)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"pipeline settings: {exc}") from None


# What the smoke model reads and writes (demo and ask), where the flags leave them open: 2 windows
# of 4 paragraphs and 7 retrieved ones, about 4 passages (detectiveqa: about 11 of up to 6
# paragraphs), read one per Finder call so that each shows as it is done (a batch saves a
# third of the Finder's time on a CPU, but shows nothing until it ends), 3 of them in a
# 3,000-character packet (10 in 15,000), 32 tokens per Finder verdict and per answer (128, 320),
# no self-calibration pass and no format retry (a base model that missed the format once misses it
# again: the retry only doubled the answer's time). It runs on torch's
# default threads (every core): on an otherwise idle 2-core machine the whole demo took 1 min 54 s
# wall reading one passage per call, 1 min 31 s in one batched call (README, "Measured"); only a
# machine busy with other work makes a second thread slower.
SMOKE_SETTINGS = {
    "preset": {
        "base": "focused", "name": "smoke", "max_selected": 3, "num_anchors": 7, "num_windows": 2,
        "window_paragraphs": 4, "retrieval_paragraphs": 3, "char_budget": 3000,
    },
    "finder_batch": 1,
    "finder_sampling": {"max_new_tokens": 32},
    "interpreter_sampling": {"max_new_tokens": 32},
    "self_calibration": False,
    "format_retry": False,
}  # fmt: skip
SMOKE_NOTE = (
    "smoke run: the offline Gemma-3-270M base model (not instruction-tuned, not trained for ClueWeaver) answers, "
    "and to finish within about two minutes on a CPU it reads fewer passages (windows of 4 paragraphs, 7 "
    "retrieved paragraphs, 3 passages in a 3,000-character packet), one at a time, and writes shorter replies (32 "
    "tokens each) with no self-calibration and no format retry; its answers test the pipeline, not ClueWeaver"
)


def smoke_config(args, overrides: dict) -> PipelineConfig:
    """The settings for the offline smoke model: ``SMOKE_SETTINGS`` where the flags leave them open."""
    chosen = pipeline_settings_from_args(args)
    return pipeline_config_from_args(args, **{k: v for k, v in SMOKE_SETTINGS.items() if k not in chosen}, **overrides)


def print_progress(stage: str, info: dict) -> None:
    """One line on stderr as each stage starts, as it progresses (the Finder's segments, when it
    reads them in several calls), and with its time and counts when it ends."""
    if stage == "done":
        return
    if info.get("status") == "started":
        print(f"  {stage} …", file=sys.stderr, flush=True)
    elif info.get("status") == "progress":
        print(f"  {stage}: {info['done']} of {info['total']} {info['unit']} …", file=sys.stderr, flush=True)
    elif info.get("status") == "done":
        details = ", ".join(f"{k} {v}" for k, v in info.items() if k not in ("status", "seconds"))
        print(f"  {stage}: {info['seconds']:.2f} s" + (f" ({details})" if details else ""), file=sys.stderr)
