"""Finder (Table 5) and Interpreter (Table 6) rewards: every row, the policy ordering, TRL batches."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clueweaver.protocol.question import Question
from clueweaver.protocol.rewards import (
    FINDER_COMPONENTS,
    INTERPRETER_COMPONENTS,
    REWARD_FUNCS,
    FinderRewardConfig,
    InterpreterRewardConfig,
    LengthBand,
    build_reward_funcs,
    completion_text,
    component_names,
    finder_reward,
    finder_reward_components,
    get_reward_funcs,
    interpreter_reward,
    interpreter_reward_components,
    specific_details,
)

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


@pytest.mark.parametrize(
    "text", ["YES", "I think the answer is YES [12].", "<answer>YES</answer>", reply("Clue [12].", "YES or NO"), ""]
)
def test_finder_row_unparseable_output_scores_zero(text):
    assert finder(text, POSITIVE) == dict.fromkeys(FINDER_COMPONENTS, 0.0)


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
    [("[12, 13]", 0.25), ("[11-14]", 0.25), ("[10-14]", 0.0), ("[12]", 0.0), ("[12, 13, 98, 99]", 0.25),
     ("[12, 13, 97, 98, 99]", 0.0)],
)  # fmt: skip
def test_finder_row_compact_id_bonus(ids, bonus):
    """All gold IDs cited and at most two other IDs (invalid ones count as others)."""
    assert finder(reply(f"Hannah is praised as a good servant {ids}.", "YES"), POSITIVE)["compact_ids"] == bonus


def test_finder_positive_without_gold_ids_pays_verdict_but_no_citation_credit():
    scores = finder(GOOD_YES, {"label": "YES", "gold_ids": []})
    assert scores["verdict"] == 1.5 and scores["id_f1"] == 0.0 and scores["compact_ids"] == 0.0


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
        "length": pytest.approx(0.2 * 14 / 15),
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


@pytest.mark.parametrize("text", ["A", "<answer>A</answer>", reply("It is unclear.", "cannot determine"), ""])
def test_interpreter_row_unparseable_scores_zero(text):
    assert interpreter(text) == dict.fromkeys(INTERPRETER_COMPONENTS, 0.0)


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
    unknown_set = interpreter(reply('The Ruler calls Korvin "an insoluble problem" [77].', "A"), allowed_ids=None)
    assert unknown_set["invalid_id"] == 0.0 and unknown_set["id_use"] == 0.3


def test_interpreter_row_rationale_length():
    band = INTERPRETER.length_band
    text = reply(" ".join(["Korvin"] + ["word"] * 49) + " [40]", "A")
    assert interpreter(text)["length"] == pytest.approx(0.2)
    assert interpreter(reply("Problem [40].", "A"))["length"] == pytest.approx(0.2 * 2 / band.full_from)
    assert interpreter(reply("word " * band.zero_at + "[40]", "A"))["length"] == 0.0


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
