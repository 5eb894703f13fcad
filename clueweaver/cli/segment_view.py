"""``clueweaver segment`` for a person: the candidate passages the Finder would read, each with its
chapter, what the kinds of passage are (as the segment sources that produce them explain them),
and the evidence packet the Interpreter would read.

No model runs here, so the packet is the one the pipeline builds without a Finder (its no-Finder
ablation): every candidate, best-scored first, packed in story order within the preset's budget.
With a Finder, only the passages it keeps go in, the paragraphs it cites first.
"""

from __future__ import annotations

from clueweaver.books.narrative import Narrative, gap_marker
from clueweaver.core.terminal import clip
from clueweaver.protocol.question import Question
from clueweaver.segments.packing import Packet, pack
from clueweaver.segments.segmenter import Preset, Segment
from clueweaver.sources import kind_legend

LINE_WIDTH = 100


def _chapter_title(narrative: Narrative, position: int) -> str:
    """A chapter's title as the book gives it, with its part or story ("" without chapters)."""
    if not narrative.chapters:
        return ""
    return narrative.chapters[position - 1].full_title if position else "front matter"


def _chapters_of(narrative: Narrative, segment: Segment) -> str:
    numbers = sorted({narrative[i].chapter for i in segment.paragraph_ids})
    labels = [label for label in (_chapter_title(narrative, n) for n in numbers) if label]
    return "; ".join(labels) if labels else "no chapters detected"


def _paragraph_line(narrative: Narrative, paragraph_id: int) -> str:
    text = " ".join(narrative[paragraph_id].text.split())
    return clip(f"[{paragraph_id}] {text}", LINE_WIDTH)


def _passage_lines(narrative: Narrative, number: int, total: int, segment: Segment) -> list[str]:
    ids = segment.paragraph_ids
    where = f"paragraphs {ids[0]}–{ids[-1]}" if segment.is_contiguous else f"paragraphs {', '.join(map(str, ids))}"
    lines = [
        f"Passage {number} of {total} · {segment.kind} · {where} · {_chapters_of(narrative, segment)} "
        f"(retrieval score {segment.score:.4f})"
    ]
    for previous, paragraph_id in zip((None, *ids), ids):
        if previous is not None and paragraph_id > previous + 1:
            lines.append("    " + gap_marker(previous + 1, paragraph_id - 1))
        lines.append("    " + _paragraph_line(narrative, paragraph_id))
    return lines


def _question_lines(question: Question) -> list[str]:
    lines = [f"{'Claim' if question.kind == 'claim' else 'Question'}: {question.text}"]
    return lines + [f"  ({label}) {text}" for label, text in question.options.items()]


def _packet_lines(packet: Packet, preset: Preset, candidates: int) -> list[str]:
    kept = len(packet.segments)
    return [
        "Evidence packet for the Interpreter (without a Finder: the best-scored "
        f"{kept} of the {candidates} passages, up to {preset.max_selected} (N_E), cut to "
        f"{preset.char_budget:,} characters (B_c); with the Finder, only the passages it keeps, the paragraphs it "
        "cites first):",
        f"{len(packet.paragraph_ids)} paragraphs in {len(packet.spans)} spans, {packet.chars:,} characters, in story "
        "order",
        "-" * LINE_WIDTH,
        packet.text,
        "-" * LINE_WIDTH,
    ]


def format_segments(
    narrative: Narrative,
    question: Question,
    preset: Preset,
    segments: list[Segment],
    *,
    max_paragraph: int | None = None,
) -> str:
    """The candidates with their chapters, a legend of their kinds, and the packet they would make."""
    chapters = f"{len(narrative.chapters)} chapters" if narrative.chapters else "no chapters detected"
    legend = kind_legend()
    lines = [
        f"{narrative.title}: {len(narrative)} paragraphs, {chapters}",
        *_question_lines(question),
        "",
        f"The Finder would read these {len(segments)} passages (preset {preset.name}), in story order. Kinds of "
        "passage:",
        *[f"  {kind:<10} {text}" for kind, text in legend.items() if any(s.kind == kind for s in segments)],
    ]
    for number, segment in enumerate(segments, start=1):
        lines += ["", *_passage_lines(narrative, number, len(segments), segment)]
    packet = pack(narrative, segments, preset, max_paragraph=max_paragraph)
    return "\n".join([*lines, "", *_packet_lines(packet, preset, len(segments))])
