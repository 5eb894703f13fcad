"""``clueweaver bench replies``: small models' answers read as a person reads them, misread, or left unread."""

from __future__ import annotations

import json

import pytest

from clueweaver.benchmarks.checks import frozen_digest
from clueweaver.cli import main
from clueweaver.measure.replies import (
    REPLIES_FROZEN_SHA256,
    REPLY_SETS,
    Reply,
    ReplySetError,
    bench_replies,
    load_replies,
    outcome,
)

_OPTIONS = {"A": "Emma", "B": "Harriet", "C": "Mr. Knightley", "D": "Frank Churchill"}


@pytest.mark.parametrize("name", sorted(REPLIES_FROZEN_SHA256))
def test_the_frozen_replies_are_as_committed_with_their_hash(name):
    assert frozen_digest(REPLY_SETS[name]) == REPLIES_FROZEN_SHA256[name]


def test_no_tuning_reply_is_misread():
    """The replies the parser's words were written from: a misread one costs a wrong answer or a dropped clue (an
    unread one, another call)."""
    misread = {r.id: r.reply for r in load_replies(REPLY_SETS["tuning"]) if outcome(r) == "misread"}
    assert misread == {}


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (Reply("a", "en", "claim", "FALSE", "FALSE"), "read"),
        (Reply("b", "en", "claim", "TRUE", "FALSE"), "misread"),
        (Reply("c", "en", "claim", "True in part", "TRUE"), "unread"),
        (Reply("d", "en", "claim", "True in part", None), "read"),  # no one reading: left unread is right
        (Reply("e", "en", "mcq", "B or C", None, _OPTIONS), "read"),
        (Reply("f", "en", "mcq", "Harriet", "B", _OPTIONS), "read"),
        (Reply("g", "en", "finder", "Yes, partially", None), "misread"),
    ],
    ids=lambda value: value.reply if isinstance(value, Reply) else None,
)
def test_a_reply_is_read_misread_or_unread(reply, expected):
    assert outcome(reply) == expected


def test_the_bench_counts_every_reply_once_and_lists_what_it_missed(tmp_path, monkeypatch):
    lines = [
        {"id": "en-claim-01", "language": "en", "kind": "claim", "reply": "FALSE", "reading": "FALSE"},
        {"id": "en-claim-02", "language": "en", "kind": "claim", "reply": "TRUE", "reading": "FALSE"},
        {"id": "fr-mcq-01", "language": "fr", "kind": "mcq", "reply": "B ou C", "reading": "B", "options": _OPTIONS},
    ]
    path = tmp_path / "replies.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    monkeypatch.setitem(REPLY_SETS, "tuning", path)
    payload, markdown = bench_replies(("tuning",))
    assert {k: payload["tuning"][k] for k in ("replies", "read", "misread", "unread")} == {
        "replies": 3, "read": 1, "misread": 1, "unread": 1,
    }  # fmt: skip
    assert payload["tuning"]["by_language"]["fr"] == {"read": 0, "misread": 0, "unread": 1}
    assert set(payload["tuning"]["missed"]) == {"en-claim-02", "fr-mcq-01"}
    assert "| all | 1 | 1 | 1 |" in markdown and "en-claim-02 'TRUE': a person reads FALSE, read TRUE" in markdown


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"id": "x", "language": "en", "kind": "poll", "reply": "YES", "reading": "YES"}', "kind 'poll'"),
        ('{"id": "x", "language": "en", "kind": "claim", "reply": "YES", "reading": "YES"}', "reading 'YES'"),
        ('{"id": "x", "language": "en", "kind": "mcq", "reply": "B", "reading": "B"}', "needs its options"),
        ('{"id": "x", "language": "en", "kind": "claim", "reply": "TRUE"}', "'reading'"),
        ('{"id": "x", ', "line 1"),
    ],
)
def test_a_bad_reply_line_says_where_and_why(tmp_path, line, says):
    path = tmp_path / "replies.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ReplySetError, match="replies.jsonl, line 1") as error:
        load_replies(path)
    assert says in str(error.value)


def test_a_reply_id_used_twice_is_refused(tmp_path):
    line = '{"id": "x", "language": "en", "kind": "claim", "reply": "TRUE", "reading": "TRUE"}\n'
    path = tmp_path / "replies.jsonl"
    path.write_text(line * 2, encoding="utf-8")
    with pytest.raises(ReplySetError, match="line 2: the id 'x' is taken"):
        load_replies(path)


def test_the_command_prints_each_set_and_writes_its_tables(tmp_path, capsys):
    output = tmp_path / "replies.md"
    assert main(["bench", "replies", "--set", "tuning", "--output", str(output)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("## tuning (") and "| zh |" in printed
    assert json.loads(output.with_suffix(".json").read_text(encoding="utf-8"))["tuning"]["misread"] == 0
