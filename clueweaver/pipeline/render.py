"""A result and its trace as text for a person (``clueweaver ask``, ``clueweaver demo``): the
answer and how it was reached, the cited paragraphs, the Finder's verdicts or the direct reader's
cut, the packet, tokens, timings and warnings. Past the book's text for the cited paragraphs it
needs only the result and its JSON trace."""

from __future__ import annotations

from clueweaver.books.chapter_labels import chapters_text
from clueweaver.books.narrative import Narrative
from clueweaver.core.terminal import clip
from clueweaver.pipeline.results import UNPARSEABLE, Result
from clueweaver.sources import names_read_text


def _shorten(text: str, width: int) -> str:
    """One line of at most ``width`` terminal columns: a cited Chinese paragraph takes two a character."""
    return clip(" ".join(str(text).split()), width, "…")


def format_result(result: Result, narrative: Narrative | None = None) -> str:
    """A result and its trace for a person: the answer, the cited paragraphs, the Finder's
    verdicts, the packet, tokens, timings and warnings. ``narrative`` adds the cited text."""
    trace = result.trace
    lines = [*_answer_lines(result, narrative), *_query_lines(trace), *_read_lines(trace), *_finder_lines(trace)]
    if "truncation" in trace:
        cut = trace["truncation"]
        lines.append(
            f"Direct reader: the first {cut['paragraphs']} paragraphs"
            + (f" and {cut['partial_chars']} characters of the next" if cut["partial_chars"] else "")
            + f": {cut['prompt_tokens']} prompt tokens of a {cut['input_budget']}-token budget"
        )
    lines += _cost_lines(trace)
    lines += [f"! {warning}" for warning in trace["warnings"]]
    return "\n".join(lines)


def _answer_lines(result: Result, narrative: Narrative | None) -> list[str]:
    """The question, the answer with where it came from, the rationale and its citations."""
    trace = result.trace
    question = trace["question"]
    lines = [f"{'Claim' if question['kind'] == 'claim' else 'Question'}: {question['text']}"]
    lines += [f"  ({label}) {text}" for label, text in question["options"].items()]
    answer = f"Answer: {result.answer}"
    if result.fallback:
        answer += "  [FALLBACK: no model output could be read; this is not a model answer]"
    elif result.calibration_changed:
        provisional = trace["interpreter"]["provisional"]["answer"]
        shown = f'"{_shorten(provisional, 80)}"' if question["kind"] == "open" else provisional
        answer += f"  (self-calibration changed the provisional answer {shown})"
    elif result.answer_source == "calibration":
        answer += "  (confirmed by self-calibration)"
    lines += [answer, f"Rationale: {result.rationale or '(none)'}"]
    dropped = trace["interpreter"].get("calibration_dropped_ids")
    if dropped:
        lines.append(f"Self-calibration dropped citations that do not support the answer: {dropped}")
    if result.citations:
        lines.append("Cited paragraphs:")
        for paragraph_id in result.citations:
            text = f" {_shorten(narrative[paragraph_id].text, 110)}" if narrative is not None else ""
            lines.append(f"  [{paragraph_id}]{text}")
    if result.invalid_citations:
        lines.append(f"Citations outside the evidence packet (ignored): {list(result.invalid_citations)}")
    return lines


def _query_lines(trace: dict) -> list[str]:
    """What the query writer wrote for retrieval (nothing when it was off; a warning says why it
    wrote nothing usable)."""
    query = trace.get("query")
    if not query or not query["text"]:
        return []
    return [f"Query written for retrieval ({query['mode']}): {_shorten(query['text'], 200)}"]


def _read_lines(trace: dict) -> list[str]:
    """What retrieval read as the question asked: the chapters it names, read first, and the names it
    writes in Latin letters, read as the book writes them (nothing when there were none)."""
    source = trace.get("segment_source") or {}
    lines = []
    if source.get("named_chapters_read_first"):
        lines.append(f"Read first: {chapters_text(source['named_chapters_read_first'])}, which the question names")
    if source.get("names_read_across_scripts"):
        lines.append(f"Names read as the book writes them: {names_read_text(source['names_read_across_scripts'])}")
    return lines


def _finder_lines(trace: dict) -> list[str]:
    """The Finder step, then one line per candidate segment with its verdict."""
    lines = []
    finder = trace.get("finder")
    if finder and finder["ran"]:
        lines.append(
            f"Finder: {finder['segments']} segments in {finder['calls']} generate call(s); kept {finder['kept']} "
            f"(YES {finder['yes']}, NO {finder['no']}, unreadable {finder['unparseable']}, too long "
            f"{finder['prompt_too_long']})"
        )
    elif finder:
        lines.append(f"Finder: off (no-Finder ablation): {finder['segments']} retrieved segments packed directly")
    for segment in trace.get("segments", []):
        verdict = segment["finder"]
        label = verdict["verdict"] or verdict["status"].replace("_", " ")
        cited = f" cites {verdict['cited_ids']}" if verdict["cited_ids"] else ""
        reason = f" {_shorten(verdict['rationale'], 90)}" if verdict["rationale"] else ""
        if verdict["status"] == UNPARSEABLE:
            reason = f" output: {_shorten(verdict['output'], 70)!r}"
        lines.append(
            f"  {'kept' if verdict['kept'] else 'drop'} #{segment['index']:<2} {segment['kind']:<9} "
            f"paragraphs {segment['span'][0]}-{segment['span'][1]}: {label}{cited}{reason}"
        )
    return lines


def _cost_lines(trace: dict) -> list[str]:
    """The evidence packet's size, the tokens per stage and the seconds per stage."""
    packet = trace["packet"]
    tokens = trace["tokens"]
    return [
        f"Evidence packet: {len(packet['paragraph_ids'])} paragraphs in {len(packet['spans'])} spans, "
        f"{packet['chars']} characters"
        + (f"; segments over the cap: {len(packet['dropped_segments'])}" if packet["dropped_segments"] else "")
        + (
            f"; paragraphs over the budget: {len(packet['dropped_paragraphs'])}"
            if packet["dropped_paragraphs"]
            else ""
        ),
        "Tokens (prompt/completion): "
        + ", ".join(
            f"{stage} {t['prompt']}/{t['completion']}" for stage, t in tokens.items() if stage == "total" or t["calls"]
        ),
        "Seconds: "
        + ", ".join(
            f"{stage} {seconds:.2f}" for stage, seconds in trace["timings"].items() if seconds or stage == "total"
        ),
    ]
