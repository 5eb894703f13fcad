"""How well inference reads what small models answer (``clueweaver.protocol.parse``): answer fields of the
Finder (relevant or not), of a claim's check (TRUE or FALSE) and of a multiple-choice question (A-D), in ten
languages, each with the reading a careful bilingual person gives it, or none where such a person would not commit
to one ("partly true", "B or C"). Each is read so, misread, or left unread; for a reply with no reading, leaving it
unread is right (the Interpreter is asked again, a Finder keeps its segment and says so).

The tuning set holds replies the parser's words were written from (its tests' cases); each frozen set was written
apart, by a reader who had not seen the parser, and committed with its hash before the parser read it. A misread is
the number that matters: an unread reply costs one more call, a misread one a wrong answer or a dropped clue.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from clueweaver.benchmarks.checks import DATA_DIR
from clueweaver.core.errors import ClueWeaverError
from clueweaver.core.jsonl import jsonl_lines
from clueweaver.protocol.choices import normalize_choice
from clueweaver.protocol.question import Question
from clueweaver.protocol.verdicts import normalize_claim_answer, normalize_finder_answer

REPLY_SETS = {
    "tuning": DATA_DIR / "replies_tuning.jsonl",
    "frozen": DATA_DIR / "replies_frozen.jsonl",
    "frozen-2": DATA_DIR / "replies_frozen_2.jsonl",
    "frozen-3": DATA_DIR / "replies_frozen_3.jsonl",
    "frozen-4": DATA_DIR / "replies_frozen_4.jsonl",
    "frozen-5": DATA_DIR / "replies_frozen_5.jsonl",
}
# Each frozen set, committed alone with its hash before the parser read it, measured once, then tuning the parser's
# next round, which the next set judged.
REPLIES_FROZEN_SHA256 = {
    "frozen": "b331dbd9d57a166891a9f316864dc54c962e3ac36ab9862e3d62aaf56e0762cc",
    "frozen-2": "18b58b025373db6a0e0950291156978c7f61cbaa7bfc3458b85ffc1405166b11",
    "frozen-3": "0c6903637b47515a0712dffab54db3d79f66db5f6689eab431bf29ffcd1c42de",
    "frozen-4": "d903b3b87b72b6e4ef3bde3bedc83d1f2ebacf83348aff2b0c885b21b0e07619",
    "frozen-5": "1a6e1575bee389f841946e3d6e99079d7c3c8fcd3c8946e9eac6dd48c8f3b6ab",
}
READINGS = {"finder": ("YES", "NO"), "claim": ("TRUE", "FALSE"), "mcq": ("A", "B", "C", "D")}
OUTCOMES = ("read", "misread", "unread")


class ReplySetError(ClueWeaverError, ValueError):
    """A reply set's line that is not a reply with a reading of its kind."""


@dataclass(frozen=True)
class Reply:
    """An answer field as a model wrote it, and the label a careful person reads in it (None: no one label)."""

    id: str
    language: str
    kind: str  # "finder", "claim" or "mcq"
    reply: str
    reading: str | None
    options: dict[str, str] = field(default_factory=dict)


def load_replies(path: Path) -> list[Reply]:
    """The replies of a set file, one JSON object a line; a line that is not one says where and why."""
    replies: dict[str, Reply] = {}
    for number, line in enumerate(jsonl_lines(path.read_text(encoding="utf-8")), start=1):
        if line.strip():
            try:
                reply = _reply(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise ReplySetError(f"{path.name}, line {number}: {exc}") from None
            if reply.id in replies:
                raise ReplySetError(f"{path.name}, line {number}: the id {reply.id!r} is taken by an earlier line")
            replies[reply.id] = reply
    return list(replies.values())


def _reply(record: dict) -> Reply:
    reply = Reply(
        id=record["id"], language=record["language"], kind=record["kind"], reply=record["reply"],
        reading=record["reading"], options=record.get("options") or {},
    )  # fmt: skip
    if reply.kind not in READINGS:
        raise ValueError(f"kind {reply.kind!r} is none of {', '.join(READINGS)}")
    if reply.reading is not None and reply.reading not in READINGS[reply.kind]:
        raise ValueError(f"a {reply.kind} reply's reading {reply.reading!r} is none of {READINGS[reply.kind]}")
    if (reply.kind == "mcq") != bool(reply.options):
        raise ValueError("a multiple-choice reply needs its options, and only it has any")
    return reply


def read(reply: Reply) -> str | None:
    """The label inference reads in ``reply`` (None: unread)."""
    if reply.kind == "finder":
        return normalize_finder_answer(reply.reply)
    if reply.kind == "claim":
        return normalize_claim_answer(reply.reply)
    return normalize_choice(reply.reply, Question("Which option answers the question?", reply.options))


def outcome(reply: Reply) -> str:
    """ "read" (as the person reads it, or left unread where the person reads no one label), "misread" or
    "unread"."""
    label = read(reply)
    if label == reply.reading:
        return "read"
    return "unread" if label is None else "misread"


def bench_replies(sets: tuple[str, ...] = tuple(REPLY_SETS)) -> tuple[dict, str]:
    """Each set's replies read, counted by kind and by language, with every misread and unread reply listed."""
    payload, lines = {}, []
    for name in sets:
        replies = load_replies(REPLY_SETS[name])
        outcomes = {reply.id: outcome(reply) for reply in replies}
        by_kind = _counts(replies, outcomes, "kind")
        by_language = _counts(replies, outcomes, "language")
        total = Counter(outcomes.values())
        payload[name] = {
            "replies": len(replies),
            **{o: total[o] for o in OUTCOMES},
            "by_kind": by_kind,
            "by_language": by_language,
            "missed": {r.id: {"reply": r.reply, "reading": r.reading, "read": read(r)} for r in replies
                       if outcomes[r.id] != "read"},
        }  # fmt: skip
        lines += [f"## {name} ({len(replies)} replies)", "", _table(by_kind | by_language | {"all": total}), ""]
        for reply_id, missed in payload[name]["missed"].items():
            said = f"{missed['reply']!r}: a person reads {missed['reading']}, read {missed['read']}"
            lines.append(f"- {reply_id} {said}")
        lines.append("")
    return payload, "\n".join(lines).rstrip()


def _counts(replies: list[Reply], outcomes: dict[str, str], by: str) -> dict[str, dict[str, int]]:
    counts: dict[str, Counter] = {}
    for reply in replies:
        counts.setdefault(getattr(reply, by), Counter())[outcomes[reply.id]] += 1
    return {key: {o: count[o] for o in OUTCOMES} for key, count in counts.items()}


def _table(rows: dict[str, dict]) -> str:
    lines = ["| | read | misread | unread |", "|---|---|---|---|"]
    for key, row in rows.items():
        lines.append(f"| {key} | " + " | ".join(str(row[o]) for o in OUTCOMES) + " |")
    return "\n".join(lines)
