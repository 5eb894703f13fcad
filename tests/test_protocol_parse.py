"""Tolerant reading of agent replies (tags, paragraph references, answer normalization) and the
strict format training pays."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clueweaver.protocol.citations import MAX_EXPANDED_IDS, MAX_RANGE_SPAN, paragraph_references
from clueweaver.protocol.parse import (
    ParseResult,
    normalize_choice,
    normalize_claim_answer,
    normalize_finder_answer,
    parse_finder,
    parse_finder_strict,
    parse_interpreter,
    parse_interpreter_strict,
    strict_format_problem,
)
from clueweaver.protocol.question import Question

KORVIN = Question(
    "Why did the Tr'en let Korvin go?",
    {
        "A": "He represented an unsolveable problem",
        "B": "He would not tell the truth",
        "C": "He disrespected the ruler",
        "D": "A dog barked",
    },
)


def test_clean_reply_is_read_completely():
    result = parse_finder(
        "<reason>Emma praises Hannah in [12] and [14-15].</reason><answer>YES</answer>", {12, 14, 15}
    )
    assert result == ParseResult(
        format_valid=True,
        answer_legal=True,
        answer="YES",
        rationale="Emma praises Hannah in [12] and [14-15].",
        cited_ids=(12, 14, 15),
        invalid_ids=(),
        raw="<reason>Emma praises Hannah in [12] and [14-15].</reason><answer>YES</answer>",
    )


@pytest.mark.parametrize(
    "reply",
    [
        "<REASON>Hannah is praised [3].</REASON>\n<Answer> yes </Answer>",
        "< reason >Hannah is praised [3].</ reason >< answer >YES</ answer >",
        "```xml\n<reason>Hannah is praised [3].</reason>\n<answer>YES</answer>\n```",
        "Sure, here is my verdict.\n<reason>Hannah is praised [3].</reason>\n<answer>YES</answer>\nHope this helps!",
        "<reason>Hannah is praised [3].</reason>\n<answer>YES",  # closing tag cut off
        "<reason>Hannah is praised [3].</reason><answer>**Yes.**</answer>",
        "<think>\n\n</think>\n\n<reason>Hannah is praised [3].</reason><answer>YES</answer>",
    ],
)
def test_format_variations_are_forgiven(reply):
    result = parse_finder(reply)
    assert (result.format_valid, result.answer_legal, result.answer) == (True, True, "YES")
    assert result.rationale == "Hannah is praised [3]."
    assert result.cited_ids == (3,)


def test_last_complete_answer_wins_over_earlier_and_unclosed_ones():
    reply = (
        "<reason>r [1]</reason><answer>NO</answer> Wait. <reason>better [2]</reason><answer>YES</answer> <answer>NO"
    )
    result = parse_finder(reply)
    assert result.answer == "YES"
    assert result.rationale == "better [2]"


def test_reason_is_the_one_before_the_answer():
    result = parse_finder("<reason>first</reason><answer>NO</answer><reason>afterthought</reason>")
    assert result.rationale == "first"


def test_unclosed_reason_ends_at_the_answer_tag():
    result = parse_finder("<reason>Hannah is praised [3]. <answer>YES</answer>")
    assert result.format_valid and result.rationale == "Hannah is praised [3]."


@pytest.mark.parametrize(
    "reply",
    [
        "YES",
        "<answer>YES</answer>",
        "<reason>  </reason><answer>YES</answer>",
        "<reason>x</reason><answer></answer>",
        "",
    ],
)
def test_missing_reason_or_answer_is_not_format_valid(reply):
    assert not parse_finder(reply).format_valid


def test_illegal_answer_is_reported_not_guessed():
    result = parse_finder("<reason>The segment is unclear.</reason><answer>YES or NO</answer>")
    assert result.format_valid and not result.answer_legal and result.answer is None


@pytest.mark.parametrize(
    "text,expected",
    [
        ("YES", "YES"), ("yes", "YES"), ("Yes.", "YES"), ("**NO**", "NO"), ("No, nothing relevant", "NO"),
        ("YES or NO", None), ("yesterday", None), ("maybe", None), ("TRUE", None), ("", None),
    ],
)  # fmt: skip
def test_finder_answers(text, expected):
    assert normalize_finder_answer(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("TRUE", "TRUE"), ("false", "FALSE"), ("Yes", "TRUE"), ("no.", "FALSE"), ("**False**", "FALSE"),
        ("TRUE or FALSE", None), ("true, false", None), ("true, not false", "TRUE"), ("unknown", None),
    ],
)  # fmt: skip
def test_claim_answers(text, expected):
    assert normalize_claim_answer(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("VRAI", "TRUE"), ("Faux.", "FALSE"), ("wahr", "TRUE"), ("FALSCH", "FALSE"), ("Verdadero", "TRUE"),
        ("falsa", "FALSE"), ("vero", "TRUE"), ("Verdadeiro", "TRUE"), ("Não", "FALSE"), ("ВЕРНО", "TRUE"),
        ("Неверно", "FALSE"), ("ΑΛΗΘΕΣ", "TRUE"), ("Ψευδές", "FALSE"), ("正确", "TRUE"), ("错误。", "FALSE"),
        ("正しい", "TRUE"), ("誤り", "FALSE"), ("Réponse : VRAI", "TRUE"), ("答案：正确", "TRUE"),
        ("Answer: FALSE", "FALSE"),
        # a negated positive is negative, and two verdicts are none
        ("不正确", "FALSE"), ("不对", "FALSE"), ("正しくない", "FALSE"), ("vrai ou faux", None), ("真假", None),
    ],
)  # fmt: skip
def test_claim_verdicts_in_the_reply_language(text, expected):
    assert normalize_claim_answer(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("OUI", "YES"), ("non", "NO"), ("Ja", "YES"), ("NEIN", "NO"), ("Sí", "YES"), ("sim", "YES"), ("não", "NO"),
        ("да", "YES"), ("НЕТ", "NO"), ("ναι", "YES"), ("ΟΧΙ", "NO"), ("是", "YES"), ("不是", "NO"), ("否", "NO"),
        ("はい", "YES"), ("いいえ", "NO"), ("VRAI", None), ("oui, mais non", None),
    ],
)  # fmt: skip
def test_finder_verdicts_in_the_reply_language(text, expected):
    assert normalize_finder_answer(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("B", "B"),
        ("(B)", "B"),
        ("B.", "B"),
        ("B)", "B"),
        ("[B]", "B"),
        ("Option B", "B"),
        ("option (b)", "B"),
        ("**B**", "B"),
        ("`C`", "C"),
        ('"C"', "C"),
        ("Answer: A", "A"),
        ("The correct answer is (A)", "A"),
        ("d", "D"),
        ("B. He would not tell the truth", "B"),
        ("(B) He would not tell the truth", "B"),
        ("He would not tell the truth", "B"),
        ("he would NOT tell the truth.", "B"),
        ("He disrespected  the ruler", "C"),
        ("A dog barked", "D"),  # an option text starting with "A" is its option, not letter A
        ("B) He disrespected the ruler", None),  # letter and text disagree
        ("B or C", None),
        ("A/B/C/D", None),
        ("E", None),
        ("", None),
        ("Korvin", None),
    ],
)
def test_multiple_choice_answers(text, expected):
    assert normalize_choice(text, KORVIN) == expected


def test_letter_outside_a_three_option_question_is_illegal():
    question = Question("Who?", {"A": "x", "B": "y", "C": "z"})
    assert normalize_choice("D", question) is None
    assert normalize_choice("C", question) == "C"


def test_parse_interpreter_normalizes_by_question_kind():
    claim = Question.claim("Laurie and Amy celebrate their marriage quietly due to Beth's death.")
    assert parse_interpreter("<reason>Beth is alive [4].</reason><answer>false</answer>", claim).answer == "FALSE"
    assert parse_interpreter("<reason>See [4].</reason><answer>Option A</answer>", KORVIN).answer == "A"
    assert not parse_interpreter("<reason>See [4].</reason><answer>TRUE</answer>", KORVIN).answer_legal
    with pytest.raises(TypeError, match="Question"):
        parse_interpreter("<answer>A</answer>", "Why?")


@pytest.mark.parametrize(
    "text,cited",
    [
        ("[12]", (12,)), ("[12-15]", (12, 13, 14, 15)), ("[15–12]", (12, 13, 14, 15)), ("[12, 14]", (12, 14)),
        ("[12; 14 and 16]", (12, 14, 16)), ("[12][13]", (12, 13)), ("[P12]", (12,)), ("[¶ 7]", (7,)),
        ("paragraph 12", (12,)), ("Paragraphs 3 and 5", (3, 5)), ("paragraphs 3, 4, and 7", (3, 4, 7)),
        ("paragraphs 3 to 5", (3, 4, 5)), ("para. 9", (9,)), ("¶4", (4,)), ("paragraph [8]", (8,)),
        ("in 1812 she wrote", ()), ("[see above]", ()), ("a paragraph about dogs", ()),
        # two references a range word joins name the range between them; "a" ("à") is Czech "and" too
        ("[12]-[14]", (12, 13, 14)), ("from [12] to [14]", (12, 13, 14)),
        ("paragraph 12 to paragraph 14", (12, 13, 14)), ("du paragraphe 12 au paragraphe 14", (12, 13, 14)),
        ("第12段到第14段", (12, 13, 14)), ("[12]から[14]", (12, 13, 14)),
        ("[12] и [14]", (12, 14)), ("[12], [14]", (12, 14)), ("[12] a [14]", (12, 14)), ("[12-13]-[15]", (12, 13, 15)),
    ],
)  # fmt: skip
def test_paragraph_reference_forms(text, cited):
    assert paragraph_references(text) == (cited, ())


def test_references_outside_the_allowed_set_are_reported():
    cited, invalid = paragraph_references("[3], [9-11] and paragraph 40", allowed_ids=range(0, 11))
    assert cited == (3, 9, 10)
    assert invalid == (11, 40)


def test_huge_range_is_not_expanded():
    cited, invalid = paragraph_references("[1-99999999] and [5]", allowed_ids={1, 5})
    assert cited == (5,)
    assert invalid == (1, 99999999)
    cited, invalid = paragraph_references(f"[0-{MAX_RANGE_SPAN - 1}]")
    assert len(cited) == MAX_RANGE_SPAN and invalid == ()
    # two references joined into one huge range are its ends, reported, not two citations beside them
    cited, invalid = paragraph_references("[1]-[900] and [5]", allowed_ids=range(1000))
    assert cited == (5,) and invalid == (1, 900)


def test_total_expansion_is_bounded():
    text = " ".join(f"[{k * 1000}-{k * 1000 + 400}]" for k in range(100))
    cited, invalid = paragraph_references(text)
    assert len(cited) <= MAX_EXPANDED_IDS
    assert invalid  # ranges past the budget are reported by their ends, not dropped silently


def test_absurdly_long_numbers_do_not_break_parsing():
    cited, invalid = paragraph_references("[" + "9" * 5000 + "]", allowed_ids={1})
    assert cited == () and len(invalid) == 1


def test_ids_are_read_from_the_rationale_only():
    result = parse_finder("Look at [7]. <reason>The dinner [2].</reason><answer>YES [9]</answer>")
    assert result.cited_ids == (2,)


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
    | st.text(alphabet="<>/[]-, 0123456789reasonYESanswer", max_size=300)
)
def test_any_text_parses_without_error(text):
    for result in (parse_finder(text, allowed_ids={1, 2, 3}), parse_interpreter(text, KORVIN)):
        assert result.raw == text
        assert result.answer_legal == (result.answer is not None)
        assert not set(result.cited_ids) & set(result.invalid_ids)


# --- the strict format of training ------------------------------------------------------------


@pytest.mark.parametrize(
    "text,problem",
    [("<reason>Clue [3].</reason>\n<answer>YES</answer>", None),
     ("  \n<reason>Clue [3].</reason><answer>YES</answer>\n\n", None),
     ("Sure! <reason>Clue [3].</reason>\n<answer>YES</answer>", "text before <reason>: 'Sure!'"),
     ("<reason>Clue [3].</reason>\n<answer>YES</answer> Hope this helps!", "text after </answer>: 'Hope this helps!'"),
     ("<reason>Clue [3].</reason> so <answer>YES</answer>", "text between </reason> and <answer>: 'so'"),
     ("<reason>Clue [3].</reason>\n<answer>YES", "tags <reason>, </reason>, <answer>; expected"),
     ("```\n<reason>Clue.</reason>\n<answer>YES</answer>\n```", "text before <reason>: '```'"),
     ("<reason>a</reason><reason>b</reason><answer>YES</answer>", "tags <reason>, </reason>, <reason>"),
     ("<REASON>Clue.</REASON><answer>YES</answer>", "tags <REASON>, </REASON>, <answer>, </answer>; expected"),
     ("<reason>  </reason><answer>YES</answer>", "empty <reason>"),
     ("<reason>Clue.</reason><answer></answer>", "empty <answer>"),
     ("", "tags none; expected")],
)  # fmt: skip
def test_strict_format_problem_names_what_is_off(text, problem):
    found = strict_format_problem(text)
    assert found == problem if problem is None else found.startswith(problem), found


def test_strict_parsing_reads_only_the_exact_format_and_inference_stays_tolerant():
    chatty = "Sure! <reason>The keeper rowed away [2].</reason>\n<answer>YES</answer> Hope this helps!"
    tolerant, strict = parse_finder(chatty, [1, 2]), parse_finder_strict(chatty, [1, 2])
    assert tolerant.format_valid and tolerant.answer == "YES"  # inference reads it
    assert not strict.format_valid and (strict.answer, strict.cited_ids) == (tolerant.answer, tolerant.cited_ids)
    exact = "<reason>The keeper rowed away [2].</reason>\n<answer>B</answer>"
    question = Question("Who left?", {"A": "The vicar", "B": "The keeper"})
    assert parse_interpreter_strict(exact, question, [2]) == parse_interpreter(exact, question, [2])
    assert not parse_interpreter_strict(exact[:-9], question, [2]).format_valid  # truncated
