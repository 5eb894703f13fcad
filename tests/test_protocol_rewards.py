"""Finder (Table 5) and Interpreter (Table 6) rewards: every row, the policy ordering, TRL batches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clueweaver.protocol import rewards
from clueweaver.protocol.open_rewards import OPEN_REWARD_PREFIX, open_component_names
from clueweaver.protocol.parse import parse_interpreter, strict_format_problem
from clueweaver.protocol.question import Question
from clueweaver.protocol.reward_registry import REWARD_FUNCS, finder_reward, get_reward_funcs, interpreter_reward
from clueweaver.protocol.rewards import (
    FINDER_COMPONENTS,
    INTERPRETER_COMPONENTS,
    FinderRewardConfig,
    InterpreterRewardConfig,
    LengthBand,
    ScoreCache,
    build_reward_funcs,
    completion_text,
    component_names,
    finder_reward_components,
    interpreter_reward_components,
    specific_details,
)

ROOT = Path(__file__).resolve().parents[1]
FINDER = FinderRewardConfig()
INTERPRETER = InterpreterRewardConfig()


def reply(reason: str, answer: str) -> str:
    return f"<reason>{reason}</reason>\n<answer>{answer}</answer>"


# --- Finder ---------------------------------------------------------------------------------------

POSITIVE = {"label": "YES", "gold_ids": [12, 13], "allowed_ids": list(range(10, 20))}
NEGATIVE = {"label": "NO", "gold_ids": [], "allowed_ids": list(range(10, 20))}
GOOD_YES = reply("Mr. Woodhouse says he is glad he thought of Hannah as a servant [12, 13].", "YES")
GOOD_NO = reply("The segment describes the wedding breakfast and does not mention Hannah or any servant.", "NO")


def finder(text, case):
    return finder_reward_components(text, **case)


def test_finder_maxima_follow_the_table():
    assert sum(finder(GOOD_YES, POSITIVE).values()) == pytest.approx(1.0 + 1.5 + 1.5 + 0.25 + 0.25)
    assert sum(finder(GOOD_NO, NEGATIVE).values()) == pytest.approx(1.0 + 1.25 + 0.75 + 0.25)
    assert FINDER.max_total == pytest.approx(4.5)


OFF_FORMAT = {
    "bare answer": "{answer}",
    "no tags": "I think the answer is {answer} [12].",
    "answer only": "<answer>{answer}</answer>",
    "truncated": "<reason>{reason}</reason>\n<answer>{answer}",
    "cut in the reason": "<reason>{reason}",
    "chatty": "Sure! <reason>{reason}</reason>\n<answer>{answer}</answer> Hope this helps!",
    "chat before": "Here is my analysis.\n<reason>{reason}</reason>\n<answer>{answer}</answer>",
    "chat after": "<reason>{reason}</reason>\n<answer>{answer}</answer>\nLet me know if you need more.",
    "fenced": "```\n<reason>{reason}</reason>\n<answer>{answer}</answer>\n```",
    "duplicated answer": "<reason>{reason}</reason>\n<answer>{answer}</answer>\n<answer>{answer}</answer>",
    "duplicated reason": "<reason>{reason}</reason><reason>{reason}</reason>\n<answer>{answer}</answer>",
    "swapped": "<answer>{answer}</answer>\n<reason>{reason}</reason>",
    "capitalised tags": "<Reason>{reason}</Reason>\n<Answer>{answer}</Answer>",
    "thinking first": "<think>hmm</think><reason>{reason}</reason>\n<answer>{answer}</answer>",
    "empty reason": "<reason> </reason>\n<answer>{answer}</answer>",
    "text between": "<reason>{reason}</reason> so: <answer>{answer}</answer>",
    "empty": "",
}


@pytest.mark.parametrize("shape", OFF_FORMAT)
def test_finder_row_unparseable_output_scores_zero(shape):
    """Table 5, row "Unparseable output": only the exact two-tag format pays, whatever the content."""
    reason = "Mr. Woodhouse says he is glad he thought of Hannah as a servant [12, 13]."
    text = OFF_FORMAT[shape].format(reason=reason, answer="YES")
    assert finder(text, POSITIVE) == dict.fromkeys(FINDER_COMPONENTS, 0.0)
    assert finder(reply(reason, "YES or NO"), POSITIVE) == dict.fromkeys(FINDER_COMPONENTS, 0.0)


def test_finder_row_format_validity_tolerates_whitespace_only():
    spaced = (
        "\n  <reason>The segment does not mention Hannah at all, only the weather.</reason>\n\n<answer> NO </answer>\n"
    )
    assert finder(spaced, NEGATIVE)["format"] == 1.0
    assert finder(GOOD_NO.replace("\n", ""), NEGATIVE)["format"] == 1.0


def test_finder_row_missed_positive_gets_format_only():
    assert finder(GOOD_NO, POSITIVE) == {**dict.fromkeys(FINDER_COMPONENTS, 0.0), "format": 1.0}


def test_finder_row_yes_on_a_negative_gets_format_only():
    assert finder(GOOD_YES, NEGATIVE) == {**dict.fromkeys(FINDER_COMPONENTS, 0.0), "format": 1.0}


def test_finder_row_positive_yes_and_id_f1():
    scores = finder(reply("Hannah is praised as a civil, pretty-spoken girl [12, 15].", "YES"), POSITIVE)
    assert scores["verdict"] == 1.5
    assert scores["id_f1"] == pytest.approx(1.5 * 0.5)  # one hit of two cited, two gold
    assert finder(reply("Hannah is praised as a civil girl by him.", "YES"), POSITIVE)["id_f1"] == 0.0
    # IDs outside the segment are false positives for F1.
    assert finder(reply("Hannah is praised [12, 13, 44].", "YES"), POSITIVE)["id_f1"] == pytest.approx(1.5 * 0.8)


@pytest.mark.parametrize(
    "ids,bonus",
    [("[12, 13]", 0.25), ("[11-14]", 0.25), ("[10-14]", 0.0), ("[12]", 0.0), ("[12, 13, 98, 99]", 0.0),
     ("[12, 13, 97, 98, 99]", 0.0)],
)  # fmt: skip
def test_finder_row_compact_id_bonus(ids, bonus):
    """All gold IDs cited, at most two other IDs, none of them outside the segment (98, 99)."""
    assert finder(reply(f"Hannah is praised as a good servant {ids}.", "YES"), POSITIVE)["compact_ids"] == bonus


def test_finder_positive_needs_gold_ids_inside_the_segment():
    """Without gold IDs a correct YES would top out at 2.75, below a correct NO's 3.25."""
    with pytest.raises(ValueError, match="a YES row needs its gold_ids"):
        finder(GOOD_YES, {"label": "YES", "gold_ids": []})
    with pytest.raises(ValueError, match=r"gold_ids \[44\] are outside the segment's allowed_ids"):
        finder(GOOD_YES, {"label": "YES", "gold_ids": [12, 44], "allowed_ids": list(range(10, 20))})
    assert sum(finder(GOOD_NO, {"label": "NO", "gold_ids": []}).values()) == pytest.approx(3.25)


def test_finder_row_out_of_range_ids_count_against_the_citation():
    out_of_range = reply("Hannah is praised as a servant [12, 13, 44, 45].", "YES")
    scores = finder(out_of_range, POSITIVE)
    assert scores["format"] == 1.0 and scores["verdict"] == 1.5
    assert scores["id_f1"] == pytest.approx(1.5 * 2 * 2 / (4 + 2))  # two false positives
    assert scores["compact_ids"] == 0.0  # IDs the segment does not have are no compact citation
    claim_everything = finder(reply("Hannah is praised as a servant [1-400].", "YES"), POSITIVE)
    assert claim_everything["id_f1"] == pytest.approx(1.5 * 2 * 2 / (400 + 2)) and claim_everything["compact_ids"] == 0


def test_finder_row_negative_no_and_rationale_quality():
    assert finder(GOOD_NO, NEGATIVE)["verdict"] == 1.25
    cases = {
        GOOD_NO: 0.75,
        reply("The segment doesn't mention Hannah; it covers the wedding breakfast.", "NO"): 0.75,  # contraction
        reply("The segment describes the wedding breakfast at Hartfield in detail.", "NO"): 0.375,  # no reason why
        reply("Irrelevant.", "NO"): 0.0,  # trivial
        reply("no no no no no no no", "NO"): 0.0,  # not distinct words
        reply("Paragraph 14 describes the wedding and does not mention Hannah.", "NO"): 0.0,  # cites an ID
        reply("The wedding [44] is unrelated to Hannah and to any servant.", "NO"): 0.0,  # even an invalid one
    }
    for text, quality in cases.items():
        assert finder(text, NEGATIVE)["negative_rationale"] == pytest.approx(quality), text


def test_finder_row_length_calibration():
    band = FINDER.length_band
    assert (band.full_from, band.full_to, band.zero_at) == (8, 60, 150)

    def length_reward(word_count):
        return finder(reply(" ".join(["unrelated"] + ["word"] * (word_count - 1)), "NO"), NEGATIVE)["length"]

    assert length_reward(4) == pytest.approx(0.25 * 4 / 8)
    assert length_reward(8) == length_reward(30) == length_reward(60) == pytest.approx(0.25)
    assert length_reward(105) == pytest.approx(0.25 * 45 / 90)
    assert length_reward(150) == length_reward(400) == 0.0


def test_length_band_is_validated():
    with pytest.raises(ValueError, match="length band"):
        LengthBand(full_from=10, full_to=5, zero_at=20)


def test_balanced_set_perfect_beats_all_yes_beats_all_no():
    """The design favours recall without collapsing to all-YES. Each policy writes its best
    rationale for the verdict it gives."""
    cases = [POSITIVE] * 5 + [NEGATIVE] * 5

    def mean(policy):
        return sum(sum(finder(policy(case), case).values()) for case in cases) / len(cases)

    perfect = mean(lambda case: GOOD_YES if case["label"] == "YES" else GOOD_NO)
    all_yes = mean(lambda case: GOOD_YES)
    all_no = mean(lambda case: GOOD_NO)
    assert perfect > all_yes > all_no
    assert (perfect, all_yes, all_no) == pytest.approx((3.875, 2.75, 2.125))


def test_finder_perfect_beats_partial_beats_wrong():
    partial = reply("Hannah is mentioned as a servant [12].", "YES")
    wrong = reply("The segment is about the weather and does not mention Hannah.", "NO")
    perfect_score, partial_score, wrong_score = (sum(finder(t, POSITIVE).values()) for t in (GOOD_YES, partial, wrong))
    assert perfect_score > partial_score > wrong_score > 0


# --- Interpreter ----------------------------------------------------------------------------------

KORVIN = Question(
    "Why did the Tr'en let Korvin go?",
    {
        "A": "He represented an unsolveable problem",
        "B": "He would not tell the truth",
        "C": "He disrespected the ruler",
        "D": "He refused to answer",
    },
)
CLAIM = Question.claim("Korvin escapes through the front gate after 3 days.")
EVIDENCE = (
    '[40] The Ruler frowned. "You are an insoluble problem," he said to Korvin.\n'
    "[41] After 3 days the guard left the door of the cell unlocked, and Korvin walked out."
)
ALLOWED = [40, 41]
GOOD_MCQ = reply('The Ruler calls him "an insoluble problem" [40], so they let Korvin leave [41].', "A")


def interpreter(text, question=KORVIN, answer="A", **case):
    case = {"allowed_ids": ALLOWED, "evidence": EVIDENCE, **case}
    return interpreter_reward_components(text, question=question, answer=answer, **case)


def test_interpreter_maximum_follows_the_table():
    scores = interpreter(GOOD_MCQ, hard=True)
    assert scores == {
        "format": 1.0,
        "correct": 2.5,
        "hard": 0.5,
        "id_use": 0.3,
        "length": 0.0,  # 14 words: below the 15 a rationale needs for the flat +0.2
        "specificity": 0.3,
        "invalid_id": 0.0,
        "hedging": 0.0,
    }
    long_enough = reply(
        'The Ruler tells Korvin he is "an insoluble problem" [40]; right after that the guard leaves '
        "the cell unlocked and Korvin walks out [41], so the Tr'en let him go because he was a problem they could "
        "not solve.",
        "A",
    )
    assert (
        sum(interpreter(long_enough, hard=True).values()) == pytest.approx(INTERPRETER.max_total) == pytest.approx(4.8)
    )


@pytest.mark.parametrize("shape", OFF_FORMAT)
def test_interpreter_row_unparseable_scores_zero(shape):
    reason = 'The Ruler calls him "an insoluble problem" [40], so they let Korvin leave [41].'
    assert interpreter(OFF_FORMAT[shape].format(reason=reason, answer="A")) == dict.fromkeys(
        INTERPRETER_COMPONENTS, 0.0
    )
    assert interpreter(reply("It is unclear.", "cannot determine")) == dict.fromkeys(INTERPRETER_COMPONENTS, 0.0)


def test_interpreter_row_wrong_answer_with_citations_earns_the_format_only():
    wrong = reply('The Ruler says Korvin "would not tell the truth" after 3 days [40, 41].', "B")
    assert interpreter(wrong, hard=True) == {**dict.fromkeys(INTERPRETER_COMPONENTS, 0.0), "format": 1.0}


def test_interpreter_rows_format_and_correct_answer():
    wrong = interpreter(reply("The Ruler says he would not tell the truth [40].", "B"), hard=True)
    assert wrong == {**dict.fromkeys(INTERPRETER_COMPONENTS, 0.0), "format": 1.0}  # bonuses gated by correctness
    assert interpreter(GOOD_MCQ)["correct"] == 2.5
    claim_reply = reply("Korvin walks out of an unlocked cell door, not the front gate [41].", "FALSE")
    assert interpreter(claim_reply, question=CLAIM, answer="FALSE")["correct"] == 1.5
    assert interpreter(claim_reply, question=CLAIM, answer="TRUE")["correct"] == 0.0


def test_interpreter_row_hard_case_bonus():
    assert interpreter(GOOD_MCQ, hard=True)["hard"] == 0.5
    assert interpreter(GOOD_MCQ, hard=False)["hard"] == 0.0


def test_interpreter_rows_paragraph_id_use_and_invalid_id_penalty():
    assert interpreter(GOOD_MCQ)["id_use"] == 0.3
    no_ids = interpreter(reply('The Ruler calls Korvin "an insoluble problem".', "A"))
    assert no_ids["id_use"] == 0.0 and no_ids["invalid_id"] == 0.0
    stray = interpreter(reply('The Ruler calls Korvin "an insoluble problem" [40, 77].', "A"))
    assert stray["id_use"] == 0.0 and stray["invalid_id"] == -0.3
    wrong_and_stray = interpreter(reply("He would not tell the truth [77].", "B"))
    assert wrong_and_stray["invalid_id"] == -0.3  # penalties apply whatever the answer
    # without a known allowed set nothing can be checked: no penalty, and no bonus either
    unknown_set = interpreter(reply('The Ruler calls Korvin "an insoluble problem" [40].', "A"), allowed_ids=None)
    assert unknown_set["invalid_id"] == 0.0 and unknown_set["id_use"] == 0.0
    out_of_range = interpreter(reply('The Ruler calls Korvin "an insoluble problem" [4000].', "A"))
    assert out_of_range["id_use"] == 0.0 and out_of_range["invalid_id"] == -0.3


def test_interpreter_mixed_valid_and_invalid_ids_take_the_penalty_without_the_bonus():
    """Our reading where Table 6 is ambiguous (module doc): one invalid ID spoils the citation."""
    mixed = interpreter(reply('The Ruler calls Korvin "an insoluble problem" [40, 41, 99].', "A"))
    assert (mixed["id_use"], mixed["invalid_id"], mixed["correct"]) == (0.0, -0.3, 2.5)


@pytest.mark.parametrize("word_count,bonus", [(1, 0.0), (14, 0.0), (15, 0.2), (60, 0.2), (120, 0.2), (121, 0.0)])
def test_interpreter_row_rationale_length_is_a_flat_bonus(word_count, bonus):
    assert (INTERPRETER.length_min_words, INTERPRETER.length_max_words) == (15, 120)
    text = reply(" ".join(["Korvin"] + ["word"] * (word_count - 2)) + " [40]", "A")
    assert interpreter(text)["length"] == bonus


def test_interpreter_length_range_is_validated():
    with pytest.raises(ValueError, match="length_min_words"):
        InterpreterRewardConfig(length_min_words=50, length_max_words=20)


@pytest.mark.parametrize(
    "rationale,details",
    [('He is "an insoluble problem" [40].', ["an insoluble problem"]),  # quoted phrase of the evidence
     ("The door opened after 3 days [41].", ["3"]),  # number of the evidence
     ("The Ruler frees the prisoner [40].", []),  # "The Ruler" opens a sentence there: not a name
     ("The prisoner Korvin is freed [40].", ["Korvin"]),  # named entity used mid-sentence in the evidence
     ('He is "a problem they never solve" [40].', []),  # quote not in the evidence
     ("See paragraph 41 and [40].", []),  # paragraph references are not specific numbers
     ("It took 5 days [41].", [])],
)  # fmt: skip
def test_interpreter_row_specificity(rationale, details):
    assert specific_details(rationale, EVIDENCE) == details
    assert interpreter(reply(rationale, "A"))["specificity"] == (0.3 if details else 0.0)


TITLED_EVIDENCE = (
    "[3] Mr. Knightley walked over from Donwell at noon.\n"
    "[4] Lady Russell had no doubt of it. Harriet cried all evening, and nobody could console her.\n"
    "[5] Later the party broke up. However it ended, the Eltons left early."
)


@pytest.mark.parametrize(
    "rationale,details",
    [("Knightley walked over at noon [3].", ["Knightley"]),  # used only after a title in the evidence
     ("It was Lady Russell who had no doubt [4].", ["Russell"]),  # the title itself is not a name
     ("Harriet cried all evening [4].", ["Harriet"]),  # a sentence start the evidence never writes in lower case
     ("Later that day the party broke up [5].", []),  # a sentence start the evidence also writes in lower case
     ("However, the party broke up [5].", []),  # a common sentence opener, not a name
     ("Mr. Elton was there [5].", [])],  # a name the evidence does not hold (it says "Eltons")
)  # fmt: skip
def test_specificity_reads_titled_and_sentence_start_names_of_the_evidence(rationale, details):
    assert specific_details(rationale, TITLED_EVIDENCE + " They went later.") == details


def test_interpreter_row_hedging_penalty_applies_whatever_the_answer():
    hedge = "There is not enough information, but the Ruler calls Korvin a problem [40]."
    assert interpreter(reply(hedge, "A"))["hedging"] == -0.4
    assert interpreter(reply(hedge, "C"))["hedging"] == -0.4
    assert interpreter(reply("We can't determine much, yet Korvin is a problem [40].", "A"))["hedging"] == -0.4
    assert interpreter(reply("Korvin is clearly a problem they cannot solve [40].", "A"))["hedging"] == 0.0
    assert interpreter(reply("It cannot be determined; Korvin is a problem [40].", "A"))["hedging"] == -0.4


def test_gold_answer_forms_and_bad_gold():
    assert interpreter(GOOD_MCQ, answer="(A)")["correct"] == 2.5
    assert interpreter(GOOD_MCQ, answer="He represented an unsolveable problem")["correct"] == 2.5
    with pytest.raises(ValueError, match="gold answer 'E'"):
        interpreter(GOOD_MCQ, answer="E")


def test_interpreter_perfect_beats_partial_beats_wrong():
    partial = reply("He is a problem.", "A")
    wrong = reply("He would not tell the truth [40].", "B")
    scores = [sum(interpreter(text, hard=True).values()) for text in (GOOD_MCQ, partial, wrong)]
    assert scores[0] > scores[1] > scores[2] > 0


# --- TRL batches ----------------------------------------------------------------------------------


def conversational(text):
    return [{"role": "assistant", "content": text}]


TRL_EXTRAS = {"trainer_state": object(), "log_extra": print, "log_metric": print, "completion_ids": [[1], [2], [3]]}
FINDER_BATCH = {
    "prompts": [[{"role": "user", "content": "case"}]] * 3,
    "completions": [conversational(GOOD_YES), conversational(GOOD_NO), conversational("garbage")],
    "label": ["YES", "NO", True],
    "gold_ids": [[12, 13], None, [12, 13]],
    "allowed_ids": [list(range(10, 20)), list(range(10, 20)), None],
    **TRL_EXTRAS,
}
INTERPRETER_BATCH = {
    "prompts": [[{"role": "system", "content": "rules"}, {"role": "user", "content": EVIDENCE}]] * 3,
    "completions": [
        conversational(GOOD_MCQ),
        conversational(reply("Korvin is free after 3 days [41].", "True")),
        conversational(reply("I cannot determine it [40].", "B")),
    ],  # fmt: skip
    "answer": ["A", "TRUE", "(A)"],
    "answer_kind": ["mcq", "claim", "mcq"],
    "options": [KORVIN.options, None, list(KORVIN.options.values())],
    "question": [KORVIN.text, CLAIM.text, KORVIN.text],
    "allowed_ids": [ALLOWED, ALLOWED, ALLOWED],
    "hard": [True, False, None],
    **TRL_EXTRAS,
}


def test_trl_batches_match_single_reply_scores():
    assert finder_reward(**FINDER_BATCH) == pytest.approx(
        [sum(finder(GOOD_YES, POSITIVE).values()), sum(finder(GOOD_NO, NEGATIVE).values()), 0.0]
    )
    # No evidence column: specificity reads the prompt's last user message (the packet).
    assert interpreter_reward(**INTERPRETER_BATCH) == pytest.approx(
        [
            sum(interpreter(GOOD_MCQ, hard=True).values()),
            sum(
                interpreter(reply("Korvin is free after 3 days [41].", "TRUE"), question=CLAIM, answer="TRUE").values()
            ),
            1.0 - 0.4,
        ]  # fmt: skip
    )


def test_plain_string_and_conversational_completions_score_alike():
    plain = {**FINDER_BATCH, "prompts": ["case"] * 3, "completions": [GOOD_YES, GOOD_NO, "garbage"]}
    assert finder_reward(**plain) == finder_reward(**FINDER_BATCH)
    assert (
        completion_text(
            [{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]
        )
        == "ab"
    )
    assert completion_text([{"role": "assistant", "content": ["a", {"type": "text", "text": None}]}]) == "a"
    assert completion_text({"role": "assistant", "content": "c"}) == "c"
    assert completion_text(None) == ""


@pytest.mark.parametrize("agent,batch", [("finder", FINDER_BATCH), ("interpreter", INTERPRETER_BATCH)])
def test_component_functions_sum_to_the_total_and_carry_their_names(agent, batch):
    names = component_names(agent)
    per_component = [REWARD_FUNCS[name](**batch) for name in names]
    assert [sum(column) for column in zip(*per_component)] == pytest.approx(REWARD_FUNCS[f"{agent}_total"](**batch))
    for name in [*names, f"{agent}_total"]:
        assert REWARD_FUNCS[name].__name__ == name  # TRL logs rewards/<name>/mean


@pytest.mark.parametrize(
    "agent,batch,scorer",
    [("finder", FINDER_BATCH, "finder_reward_components"),
     ("interpreter", INTERPRETER_BATCH, "interpreter_reward_components")],
)  # fmt: skip
def test_each_completion_is_scored_once_whatever_functions_ask(monkeypatch, agent, batch, scorer):
    calls = []
    original = getattr(rewards, scorer)
    monkeypatch.setattr(rewards, scorer, lambda *a, **k: calls.append(a[0]) or original(*a, **k))
    funcs = build_reward_funcs()
    columns = [funcs[name](**batch) for name in [*component_names(agent), f"{agent}_total"]]
    assert len(calls) == 3  # three completions, nine or seven functions
    assert [sum(c) for c in zip(*columns[:-1])] == pytest.approx(columns[-1])
    copied = {k: (list(v) if isinstance(v, list) else v) for k, v in batch.items()}  # equal content, new lists
    funcs[f"{agent}_total"](**copied)
    assert len(calls) == 3
    build_reward_funcs()[f"{agent}_total"](**batch)  # another registry keeps its own cache
    assert len(calls) == 6
    same_lists = dict(copied)
    same_lists["completions"][1] = conversational("another reply")  # edited in place
    funcs[f"{agent}_total"](**same_lists)
    assert len(calls) == 7  # only the edited completion is scored again


def test_cached_scores_follow_every_column_they_read():
    funcs = build_reward_funcs()
    batch = {**INTERPRETER_BATCH, "completions": [conversational(GOOD_MCQ)] * 3, "answer": ["A", "B", "A"]}
    batch.update(hard=[True, True, False], answer_kind=["mcq"] * 3, options=[KORVIN.options] * 3)
    correct, wrong, easy = funcs["interpreter_total"](**batch)
    assert correct - easy == pytest.approx(0.5) and wrong == pytest.approx(1.0)


def test_score_cache_drops_the_least_recently_used():
    cache = ScoreCache(size=2)
    for key in ("a", "b", "a", "c"):  # "b" is the least recently used when "c" arrives
        cache.score(key, lambda: {"x": 1.0})
    assert cache.scored == 3
    cache.score("a", lambda: {"x": 2.0})
    assert cache.scored == 3
    assert cache.score("b", lambda: {"x": 3.0}) == {"x": 3.0} and cache.scored == 4


def test_registry_lookup_and_custom_configs():
    assert get_reward_funcs(["finder_total", "interpreter_hedging"]) == [
        finder_reward,
        REWARD_FUNCS["interpreter_hedging"],
    ]
    with pytest.raises(ValueError, match="finder_typo"):
        get_reward_funcs(["finder_typo"])
    with pytest.raises(ValueError, match="agent"):
        component_names("reader")
    stricter = build_reward_funcs(finder=FinderRewardConfig(positive_yes=3.0))
    assert stricter["finder_verdict"](**FINDER_BATCH)[0] == 3.0


@pytest.mark.parametrize(
    "column,value,message",
    [("label", None, "column 'label'"), ("label", ["MAYBE", "NO", "YES"], "must be YES or NO"),
     ("gold_ids", [["x"], None, None], "gold_ids"), ("allowed_ids", ["12", None, None], "got the string"),
     ("label", ["YES"], "1 values for 3 completions")],
)  # fmt: skip
def test_finder_bad_columns_are_named(column, value, message):
    with pytest.raises(ValueError, match=message):
        finder_reward(**{**FINDER_BATCH, column: value})


def test_interpreter_bad_columns_are_named():
    with pytest.raises(ValueError, match="row 0: gold answer 'E'"):
        interpreter_reward(**{**INTERPRETER_BATCH, "answer": ["E", "TRUE", "A"]})
    with pytest.raises(ValueError, match="row 0: columns 'answer_kind'/'options'"):
        interpreter_reward(**{**INTERPRETER_BATCH, "options": [None, None, None]})
    with pytest.raises(ValueError, match="row 1: column 'hard'"):
        interpreter_reward(**{**INTERPRETER_BATCH, "hard": [True, "very", None]})
    with pytest.raises(ValueError, match="needs the dataset column 'answer'"):
        interpreter_reward(**{k: v for k, v in INTERPRETER_BATCH.items() if k != "answer"})


def test_finder_label_is_checked_for_direct_calls():
    with pytest.raises(ValueError, match="YES or NO"):
        finder_reward_components(GOOD_YES, label="yes")


# --- properties -----------------------------------------------------------------------------------

PIECES = st.sampled_from(
    ["<reason>", "</reason>", "<answer>", "</answer>", "YES", "NO", "A", "(B)", "TRUE", "false", "[12]", "[40-41]",
     "[1-99999999]", "paragraph 41", "Korvin", '"an insoluble problem"', "3", "cannot determine", "does not mention",
     "```", "<think>", "</think>", " ", "\n", "word "]
)  # fmt: skip
REPLIES = st.lists(PIECES | st.text(max_size=20), max_size=40).map("".join) | st.text(max_size=400)


@settings(max_examples=250, deadline=None)
@given(text=REPLIES, positive=st.booleans())
def test_any_finder_reply_scores_within_bounds(text, positive):
    case = POSITIVE if positive else NEGATIVE
    batch = {"prompts": ["case"], "completions": [text], **{k: [v] for k, v in case.items()}}
    total = finder_reward(**batch)[0]
    assert 0.0 <= total <= FINDER.max_total + 1e-9
    assert sum(REWARD_FUNCS[name](**batch)[0] for name in component_names("finder")) == pytest.approx(total)


@settings(max_examples=250, deadline=None)
@given(text=REPLIES, claim=st.booleans(), hard=st.booleans())
def test_any_interpreter_reply_scores_within_bounds(text, claim, hard):
    batch = {
        "prompts": [[{"role": "user", "content": EVIDENCE}]],
        "completions": [conversational(text)],
        "answer": ["FALSE" if claim else "A"],
        "answer_kind": ["claim" if claim else "mcq"],
        "options": [None if claim else KORVIN.options],
        "allowed_ids": [ALLOWED],
        "hard": [hard],
        "evidence": [EVIDENCE],
    }
    total = interpreter_reward(**batch)[0]
    assert INTERPRETER.min_total - 1e-9 <= total <= INTERPRETER.max_total + 1e-9
    assert sum(REWARD_FUNCS[name](**batch)[0] for name in component_names("interpreter")) == pytest.approx(total)


def test_a_fresh_interpreter_importing_only_the_registry_sees_every_reward_function():
    """No function joins the registry as a side effect of importing another module."""
    code = (
        "import json; from clueweaver.protocol.reward_registry import REWARD_FUNCS; "
        "print(json.dumps({name: f.__name__ for name, f in REWARD_FUNCS.items()}))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    expected = [*component_names("finder"), "finder_total", *component_names("interpreter"), "interpreter_total"]
    expected += [*open_component_names(), f"{OPEN_REWARD_PREFIX}total"]
    assert json.loads(found.stdout) == {name: name for name in expected}  # TRL logs each under its own name


# --- the answer field: what Tables 5 and 6 pay (the decision in rewards.py's module doc) ---------
# The prompts ask for <answer>YES or NO</answer>, <answer>A/B/C/D</answer>, <answer>TRUE or FALSE</answer>;
# the tables pay the verdict or correct answer given in that field. Each reply refused below was
# paid in full before this decision.

FINDER_REASON = "Mr. Woodhouse says he is glad he thought of Hannah as a servant [12, 13]."
MCQ_REASON = 'The Ruler calls him "an insoluble problem" [40], so they let Korvin leave [41].'
CLAIM_REASON = "After 3 days the guard left the cell unlocked [41], and Korvin walked out of it."


@pytest.mark.parametrize("field", ["Yes, this segment is relevant.", "**YES**", "yes it is", "OUI"])
def test_a_finder_verdict_outside_the_answer_line_earns_what_an_unparseable_reply_earns(field):
    assert finder(reply(FINDER_REASON, field), POSITIVE) == dict.fromkeys(FINDER_COMPONENTS, 0.0)


@pytest.mark.parametrize("field", ["YES", "yes", " Yes ", "ＹＥＳ"])
def test_the_finder_label_itself_is_paid_in_any_case_or_width(field):
    assert finder(reply(FINDER_REASON, field), POSITIVE)["verdict"] == 1.5


@pytest.mark.parametrize(
    "field", ["The answer is A", "He represented an unsolveable problem", "**A**", "(A)", "A. He represented"]
)
def test_a_choice_outside_the_answer_line_earns_nothing(field):
    assert interpreter(reply(MCQ_REASON, field)) == dict.fromkeys(INTERPRETER_COMPONENTS, 0.0)


@pytest.mark.parametrize("field", ["A", "a", "Ａ"])
def test_the_option_letter_is_paid(field):
    assert interpreter(reply(MCQ_REASON, field))["correct"] == 2.5


def test_a_claim_is_true_or_false_not_yes_or_no():
    assert interpreter(reply(CLAIM_REASON, "yes"), question=CLAIM, answer="TRUE") == dict.fromkeys(
        INTERPRETER_COMPONENTS, 0.0
    )
    assert interpreter(reply(CLAIM_REASON, "true"), question=CLAIM, answer="TRUE")["correct"] == 1.5
    assert interpreter(reply(CLAIM_REASON, "TRUE"), question=CLAIM, answer="yes")["correct"] == 1.5  # gold: lenient


def test_a_think_block_inside_the_reason_is_not_paid():
    thinking = reply("<think>Which paragraph names the problem? [40] does.</think>" + MCQ_REASON, "A")
    assert interpreter(thinking) == dict.fromkeys(INTERPRETER_COMPONENTS, 0.0)
    assert finder(reply("<think>hm</think>" + FINDER_REASON, "YES"), POSITIVE) == dict.fromkeys(FINDER_COMPONENTS, 0.0)
    # inference still reads it, and says the reply is off the format
    assert parse_interpreter(thinking, KORVIN).answer == "A" and strict_format_problem(thinking).startswith(
        "a <think>"
    )


def test_an_id_outside_the_segment_spoils_the_compact_citation():
    assert finder(reply(FINDER_REASON.replace("12, 13", "12, 13, 98"), "YES"), POSITIVE)["compact_ids"] == 0.0
    # without the segment's IDs nothing is outside it
    unchecked = {"label": "YES", "gold_ids": [12, 13]}
    assert finder(reply(FINDER_REASON.replace("12, 13", "12, 13, 98"), "YES"), unchecked)["compact_ids"] == 0.25


def test_the_answer_line_holds_in_every_language_of_the_cues():
    french = reply("Le segment décrit le petit déjeuner et ne mentionne pas Hannah ni aucune servante.", "NO")
    chinese = reply("这一段讲的是婚礼早餐，与汉娜或任何仆人无关，没有提到她。", "ＮＯ")
    for text in (french, chinese):
        assert finder(text, NEGATIVE)["verdict"] == 1.25 and finder(text, NEGATIVE)["negative_rationale"] > 0
    assert finder(reply("Le segment ne mentionne pas Hannah.", "NON"), NEGATIVE)["verdict"] == 0.0
