"""Reading the agents' ``<reason>...</reason><answer>...</answer>`` replies, tolerantly.

Small models break the format in predictable ways (capitalised or spaced tags, a code fence
around the reply, a chatty sentence before it, the final closing tag cut off by the token
limit), so extraction forgives those; what it cannot read is reported (``format_valid``,
``answer_legal``, ``invalid_ids``), never guessed or silently dropped.

Training is strict instead: ``strict_format_problem`` says why a reply is not exactly the two
tags, and ``parse_finder_strict`` / ``parse_interpreter_strict`` read only such replies as
well-formed, and only an answer field that is one of the labels the prompt asks for (``strict_label``),
so no reward pays a reply that inference would have to forgive.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Iterable

from clueweaver.books.language import script_of
from clueweaver.protocol.citations import paragraph_references
from clueweaver.protocol.cues import ANSWER_COPULAS, Table, every_language
from clueweaver.protocol.question import Question
from clueweaver.protocol.reply_words import (
    AFTERTHOUGHTS,
    ANSWER_ADJECTIVES_AFTER,
    ANSWER_ADJECTIVES_BEFORE,
    ANSWER_ARTICLES,
    ANSWER_WORDS,
    BECAUSE_WORDS,
    CLAIM_DETERMINERS,
    CLAIM_SUBJECTS,
    COMMA_BECAUSE_WORDS,
    COPULAS,
    FALSE_WORDS,
    FINDER_DETERMINERS,
    FINDER_OBJECTS,
    FINDER_SUBJECTS,
    IRRELEVANT_WORDS,
    LEAD_INS,
    LETTER_SUFFIXES,
    NO_VERDICT_OPENINGS,
    NO_WORDS,
    OPTION_WORDS,
    PARTLY_WORDS,
    RELEVANT_WORDS,
    TRUE_WORDS,
    VERDICT_QUALIFIERS,
    VERDICTS_ALSO_WORDS,
    YES_WORDS,
    words_regex,
)
from clueweaver.protocol.text import fold, is_cjk

FINDER_LABELS = ("YES", "NO")


@dataclass(frozen=True)
class ParseResult:
    """One agent reply, read.

    ``format_valid``: a non-empty ``<reason>`` and an ``<answer>`` were found. ``answer_legal``:
    the answer normalizes to a legal label (YES/NO, a letter of the question, TRUE/FALSE) or, for
    an open question, to non-empty text, then in ``answer``. ``cited_ids``: paragraph IDs
    referenced in the rationale that are allowed (all of them when no allowed set was given),
    ascending; ``invalid_ids``: the referenced IDs outside the allowed set, and the ends of ranges
    too long to expand. ``raw``: the reply as received.
    """

    format_valid: bool
    answer_legal: bool
    answer: str | None
    rationale: str
    cited_ids: tuple[int, ...]
    invalid_ids: tuple[int, ...]
    raw: str


# --- tags -------------------------------------------------------------------------------------

_THINK_BLOCK = re.compile(r"<\s*think\s*>.*?<\s*/\s*think\s*>", re.IGNORECASE | re.DOTALL)
_CODE_FENCE = re.compile(r"```[\w+-]*")


def _tag(name: str, closing: bool = False) -> str:
    return r"<\s*/\s*" + name + r"\s*>" if closing else r"<\s*" + name + r"\s*>"


_COMPLETE = {
    name: re.compile(_tag(name) + r"(.*?)" + _tag(name, closing=True), re.IGNORECASE | re.DOTALL)
    for name in ("reason", "answer")
}
_OPEN = {name: re.compile(_tag(name), re.IGNORECASE) for name in ("reason", "answer")}
_ANY_TAG = re.compile(r"<\s*/?\s*(?:reason|answer)\s*>", re.IGNORECASE)


def _unclosed(text: str, name: str) -> tuple[int, str] | None:
    """The last ``<name>`` never closed: its content runs to the next tag or the end of the text."""
    opens = list(_OPEN[name].finditer(text))
    if not opens:
        return None
    start = opens[-1].end()
    following = _ANY_TAG.search(text, start)
    return opens[-1].start(), text[start : following.start() if following else len(text)]


def _extract(text: str) -> tuple[str | None, str | None]:
    """(reason, answer) contents; the last complete answer wins, an unclosed one counts only when
    no answer is complete; the reason is the last one before that answer (or the last at all)."""
    text = _CODE_FENCE.sub("", _THINK_BLOCK.sub("", text))
    answers = list(_COMPLETE["answer"].finditer(text))
    if answers:
        answer_at, answer = answers[-1].start(), answers[-1].group(1)
    else:
        found = _unclosed(text, "answer")
        answer_at, answer = found if found else (len(text), None)
    reasons = [(m.start(), m.group(1)) for m in _COMPLETE["reason"].finditer(text)]
    if not reasons:
        found = _unclosed(text, "reason")
        reasons = [found] if found else []
    before = [content for start, content in reasons if start < answer_at]
    reason = before[-1] if before else (reasons[-1][1] if reasons else None)
    return (None if reason is None else reason.strip()), (None if answer is None else answer.strip())


# --- answers ----------------------------------------------------------------------------------

_MARKDOWN = re.compile(r"[*_`]")
_BULLET = re.compile(r"^\s*(?:[-\u2022]|#+)\s+")  # "- Verdict: true", "## Réponse"
_OPEN_PLACEHOLDER = "a short free-text answer"  # the prompt's answer line, echoed by a confused model
_QUOTES = "\"'\u201c\u201d\u2018\u2019 "


_UNSPACED = ("han", "kana", "hangul")  # scripts whose words an answer's label joins without a space


def _alternatives(table: Table, space: str) -> str:
    """The words of ``table``, longest first, each with ``space`` on its spaced side: none beside a Han, kana or
    Hangul word, which its neighbour joins ("正确答案", "答案是", "정답은")."""
    words = sorted(every_language(table), key=len, reverse=True)
    return "|".join(re.escape(w) if script_of(w) in _UNSPACED else space.format(re.escape(w)) for w in words)


_ARTICLE = _alternatives(ANSWER_ARTICLES, r"{}\s+")
_BEFORE = _alternatives(ANSWER_ADJECTIVES_BEFORE, r"{}\s+")
_AFTER = _alternatives(ANSWER_ADJECTIVES_AFTER, r"\s+{}\b")
_COPULA = r"(?:\s*(?:" + _alternatives(COPULAS, r"\s{}\b") + "))"


def _label_prefix(*tables: Table, separators: str, bare: bool) -> re.Pattern:
    """A reply's label before its answer: "The correct answer is (A)", "La bonne réponse est B", "La respuesta
    correcta es B", "正确答案是B", "正解はB", "정답은 B", "Answer: ...": an article, an adjective before or after
    the label's word (``ANSWER_ARTICLES``, ...), then a copula (Korean's may be the particle of its word: "답은")
    or one of ``separators``; with ``bare``, the word alone too ("Option B")."""
    separator = rf"\s*[{separators}]"
    ending = rf"{_COPULA}?{separator}?" if bare else rf"(?:{_COPULA}{separator}?|(?<=[은는이가])\s|{separator})"
    return re.compile(rf"^(?:{_ARTICLE})?(?:{_BEFORE})?{words_regex(*tables)}(?:{_AFTER})?{ending}\s*", re.IGNORECASE)


_OPEN_PREFIX = _label_prefix(ANSWER_WORDS, separators=":\uff1a", bare=False)
_ANSWER_PREFIX = _label_prefix(
    ANSWER_WORDS, OPTION_WORDS, LEAD_INS, separators=":\uff1a,\uff0c\\-\u2013\u2014", bare=True
)
_LEAD_IN = _label_prefix(LEAD_INS, separators=",\uff0c", bare=True)
_LETTER_SUFFIX = re.compile(r"(?<=[A-Za-z)\]])\s*(?:" + _alternatives(LETTER_SUFFIXES, "{}") + r")?\s*[。！.!]?$")
_BARE_LETTER = re.compile(r"[(\[]?([A-Za-z])[)\]]?[.:)]?")
# An article before the letter ("La respuesta es la B", "A resposta é a B"); a one-letter one in lower case only.
_LETTER_ARTICLE = re.compile(
    "^(?:"
    + "|".join(rf"(?i:{re.escape(a)})" if len(a) > 1 else re.escape(a) for a in every_language(ANSWER_ARTICLES))
    # "la B", "la A) Melquíades", "a C, o cão", "la C :"
    + r")\s+(?=[(\[]?[^\W\d_](?:[)\]]?[.:)]?$|[)\].:,]\s|\s[:;]))"
)
# A Greek reply's option letters (Α, Β, Γ, Δ), and the Cyrillic ones that name one option whether read by their
# place (А, Б, В, Г) or their look (А, В, С): "Ответ: Б" is B, "С" (no option's place) C, "В" either B or C, so
# read as neither.
_OTHER_ALPHABETS = str.maketrans("ΑΒΓΔαβγδАБГСабгс", "ABCDabcdABDCabdc")
_CIRCLED = str.maketrans("①②③④", "ABCD")  # an exam's options, "③" the third (NFKC would make it "3")
_TEXT_COPULA = re.compile(rf"\s*(?:{_alternatives(ANSWER_COPULAS, '{}')})\s*[.!\u3002\uff01]?$")
# An option's capital letter after a word ("es la C", "è B.", "答案是B"), not one that opens a sentence ("B. A man…").
_LETTER_IN_SENTENCE = re.compile(r"(?:(?<=[^\W\d_A-Z]\s)|(?<=[\u3040-\u30ff\u4e00-\u9fff]))([A-Z])(?![^\W\d_])")
# "B, o cão das lágrimas": a letter, a comma and the option's own text.
_LETTER_COMMA_TEXT = re.compile(r"([A-Za-z]),\s*(.+)", re.DOTALL)
# "(B) text", "[B] text", "B. text", "B) text", "B - text", "B (text)": the letter, then the rest.
_LETTER_THEN_TEXT = re.compile(
    r"(?:\(([A-Za-z])\)|\[([A-Za-z])\]|([A-Za-z])\s*[.:)]|([A-Z])\s+[-\u2013\u2014]|([A-Z])\s*(?=\())\s*(.*)",
    re.DOTALL,
)
# "B is correct", "B ist richtig", "B es correcta", "B是正确的", "Bが正しいです", "B가 맞습니다": the letter said to be
# the right one.
_ANSWER_WORD = _alternatives(ANSWER_WORDS, r"{}(?!\w)")  # a Korean one before its copula too: "정답입니다"
_LETTER_IS_RIGHT = re.compile(
    rf"(?<=[A-Za-z)\]]){_COPULA}?\s*(?:{words_regex(TRUE_WORDS, ANSWER_ADJECTIVES_BEFORE, ANSWER_ADJECTIVES_AFTER)}"
    # or said to be the answer: "B is the correct answer", "B est la bonne réponse", "B是正确答案", "B가 정답입니다"
    rf"|(?:{_ARTICLE})?(?:{_BEFORE})?(?:{_ANSWER_WORD})(?:{_AFTER})?)"
    rf"的?(?:{_alternatives(ANSWER_COPULAS, '{}')})?\s*[.。!！]?$",
    re.IGNORECASE,
)
# A reason after the answer: "B because she left", "Harriet, parce qu'elle part", "B因为她走了"
_REASON = re.compile(
    rf"(?<=[^\W\d_)\]])(?:\s*[,\uff0c]\s*{words_regex(COMMA_BECAUSE_WORDS)}|\s*[,\uff0c]?\s*{words_regex(BECAUSE_WORDS)}).*$",
    re.IGNORECASE | re.DOTALL,
)
# An opinion after the answer: "D, je crois.", "B, I think"
_AFTERTHOUGHT = re.compile(
    rf"(?<=[^\W\d_)\]])\s*[,\uff0c]\s*{words_regex(AFTERTHOUGHTS)}\s*[.!\u3002\uff01]?$", re.IGNORECASE
)
# A reply that opens with no verdict: "No sé", "I'm not sure", "不确定", "No es que…"
_NO_VERDICT = re.compile(rf"^{words_regex(NO_VERDICT_OPENINGS)}", re.IGNORECASE)
# An option's text with its letter after it: "Harriet (B)"
_TEXT_THEN_LETTER = re.compile(r"(.+?)\s*[(\[]([A-Za-z])[)\]]\.?")


def _clean(answer: str) -> str:
    """Without markdown emphasis, surrounding quotes or extra whitespace."""
    return " ".join(_MARKDOWN.sub("", _BULLET.sub("", answer)).split()).strip(_QUOTES)


def _comparable(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.casefold()).split())


_WORD = re.compile(r"[^\W\d_]+")
# A word, or a mark that ends a clause: a verdict's words are read within one clause ("No es falso" is TRUE, "No, es
# falso" FALSE).
_CLAUSE_MARKS = ",;:.!?\u2026\uff0c\u3001\u3002\uff1b\uff1a\uff01\uff1f"
_WORD_OR_BREAK = re.compile(rf"[^\W\d_]+|[{_CLAUSE_MARKS}]")


_Verdicts = dict[str, list[tuple[tuple[str, ...], str]]]


def _spelled(*tables: Table) -> frozenset[tuple[str, ...]]:
    """The words of ``tables`` in every language, folded ("sí" and "si", "όχι" and "οχι" alike), each as the words
    it is written in ("not relevant": two)."""
    return frozenset(tuple(_WORD.findall(fold(word))) for table in tables for word in every_language(table))


def _verdicts(**labels: tuple[Table, ...]) -> _Verdicts:
    """Each label's words (``_spelled``), by their first word."""
    index: _Verdicts = {}
    for label, tables in labels.items():
        for words in _spelled(*tables):
            index.setdefault(words[0], []).append((words, label))
    return index


_QUALIFIERS = every_language(VERDICT_QUALIFIERS)
_CLAUSE_END = re.compile(rf"[{_CLAUSE_MARKS}\s]")
_PARTLY = re.compile(words_regex(PARTLY_WORDS), re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f]\s")
_SENTENCE_OR_LINE = re.compile(r"\n+|(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f])")
_LABEL_ALONE = re.compile(rf"#*\s*{words_regex(ANSWER_WORDS)}\s*[:\uff1a]?", re.IGNORECASE)
# a segment relevant in part is relevant: "Partially.", "Yes, partially", "En partie"
_FINDER_VERDICTS = _verdicts(YES=(YES_WORDS, RELEVANT_WORDS, PARTLY_WORDS), NO=(NO_WORDS, IRRELEVANT_WORDS))
_CLAIM_VERDICTS = _verdicts(TRUE=(TRUE_WORDS, YES_WORDS), FALSE=(FALSE_WORDS, NO_WORDS))
# The words read as a verdict only when they open the answer (``VERDICTS_ALSO_WORDS``, and relevance).
_ALSO_WORDS = frozenset((fold(word),) for word in VERDICTS_ALSO_WORDS)
_OPENING_ONLY = _ALSO_WORDS | _spelled(RELEVANT_WORDS, IRRELEVANT_WORDS, PARTLY_WORDS)
_YES_NO = _spelled(YES_WORDS, NO_WORDS)
# "The claim is", "L'affirmation est", "该说法是", "その主張は", "C'est", "Es": what a claim's verdict is said of.
_DETERMINER = _alternatives(CLAIM_DETERMINERS, r"{}\s*")
_CLAIM_SUBJECT = re.compile(
    rf"^(?:{_DETERMINER})?{words_regex(CLAIM_SUBJECTS, ANSWER_WORDS)}{_COPULA}?\s*[:\uff1a,\uff0c\u2014-]?\s*",
    re.IGNORECASE,
)
_FINDER_DETERMINER = _alternatives(FINDER_DETERMINERS, r"{}\s*")
_FINDER_OBJECT = _alternatives(FINDER_OBJECTS, r"{}\b")  # "für die Frage", "質問に"
_FINDER_SUBJECT = re.compile(
    # "The segment is", "Segment 3 is", "该段落与问题", or a determiner alone before a copula: "This is", "这是"
    rf"^(?:(?:{_FINDER_DETERMINER})?{words_regex(FINDER_SUBJECTS)}(?:\s*\[?\d+\]?)?|(?:{_FINDER_DETERMINER})(?={_COPULA}))"
    rf"{_COPULA}?\s*[:\uff1a,\uff0c]?\s*(?:(?:{_FINDER_OBJECT})\s*)?",
    re.IGNORECASE,
)


def _said(words: list[str], verdicts: _Verdicts) -> list[tuple[int, tuple[str, ...], str]]:
    """Where ``words`` say a verdict, its words and its label, in order: the longest where two start at one word."""
    said, at = [], 0
    while at < len(words):
        entries = verdicts.get(words[at], ())
        here = max(((len(p), p, label) for p, label in entries if tuple(words[at : at + len(p)]) == p), default=None)
        if here:
            said.append((at, here[1], here[2]))
        at += here[0] if here else 1
    return said


def _verdict(answer: str, verdicts: _Verdicts, subject: re.Pattern | None = None) -> str | None:
    """The verdict of an answer's first sentence (``_opening_verdict``), unless a later sentence or line says the
    other one (``_said_in``): "FALSE. It is partly true, but the date is wrong." is FALSE, "Wahr.\nDie Aussage ist
    falsch." and "TRUE. Actually, FALSE." none; "FALSO\nDon Quijote no lucha contra gigantes de verdad" FALSE, the
    "verdad" of its rationale said of no claim."""
    first, *later = _sentences(answer)
    label = _opening_verdict(first, verdicts, subject)
    if label is None or any(_said_in(sentence, verdicts, subject) - {label} for sentence in later):
        return None
    return label


def _sentences(answer: str) -> list[str]:
    """An answer's sentences and lines, a first line that is only its label ("## Réponse", "**Answer:**") left out."""
    pieces = [p for p in _SENTENCE_OR_LINE.split(answer) if _WORD.search(p)] or [answer]
    if len(pieces) > 1 and _LABEL_ALONE.fullmatch(_clean(pieces[0])):
        pieces = pieces[1:]
    return pieces


def _said_in(sentence: str, verdicts: _Verdicts, subject: re.Pattern | None) -> set[str]:
    """The labels a later sentence says: its own opening verdict, one said of what the verdict is said of ("so it is
    false", "the segment is relevant") or a label that is a clause alone ("Actually, FALSE.")."""
    said = {_opening_verdict(sentence, verdicts, subject)}
    if subject is not None:
        said |= {
            _opening_verdict(sentence[m.start() :], verdicts, subject) for m in _anywhere(subject).finditer(sentence)
        }
    words = _WORD_OR_BREAK.findall(fold(_clean(sentence)))
    said |= {label for at, phrase, label in _said(words, verdicts) if _clause_alone(words, at, len(phrase))}
    return said - {None}


def _anywhere(subject: re.Pattern) -> re.Pattern:
    """``subject`` (what a verdict is said of) found anywhere in a sentence, not only at its start."""
    return re.compile(r"(?<!\w)" + subject.pattern.removeprefix("^"), subject.flags)


def _clause_alone(words: list[str], at: int, length: int) -> bool:
    """Whether ``words[at : at + length]`` are a clause of their own, clause marks or the ends around them."""
    return _opens_clause(words, at) and _closes_clause(words, at + length)


def _clause_edge(words: list[str], at: int, length: int) -> bool:
    """Whether ``words[at : at + length]`` open or close a clause."""
    return _opens_clause(words, at) or _closes_clause(words, at + length)


def _opens_clause(words: list[str], at: int) -> bool:
    return at == 0 or words[at - 1] in _CLAUSE_MARKS


def _closes_clause(words: list[str], end: int) -> bool:
    return end == len(words) or words[end] in _CLAUSE_MARKS


def _opening_verdict(answer: str, verdicts: _Verdicts, subject: re.Pattern | None = None) -> str | None:
    """A verdict after any "Answer:" label ("Réponse : VRAI", "答案：正确") and, for a claim, after what it is said of
    (``subject``: "The claim is true"): the first words name one label and no later word another ("Not relevant",
    "No es cierto"); in Chinese or Japanese, which have no spaces, the longest label word the answer opens with.
    A verdict word that is also another language's word (``VERDICTS_ALSO_WORDS``) is a verdict only first and
    standing alone: German "Da war niemand" and Italian "Nei capitoli..." name none, Romanian "Da, ..." and "DA" do;
    later in the answer it, like a word of relevance ("NO, nothing relevant"), is a word of the sentence. An answer
    that opens by not knowing or with another kind of "no" ("No sé", "No es que…": ``NO_VERDICT_OPENINGS``) says
    none."""
    unfolded = _LEAD_IN.sub("", _OPEN_PREFIX.sub("", _clean(answer)).replace("\u2019", "'"))
    if _NO_VERDICT.match(unfolded):
        return None
    if subject is not None:
        unfolded = subject.sub("", unfolded)
    text = fold(unfolded)
    if is_cjk(text[:1]):
        # after a copula too ("是错误的": is wrong, not "是", yes), which then counts in the length
        starts = [0] + [len(c) for c in every_language(COPULAS) if is_cjk(c) and text.startswith(c)]
        opening = [
            (at + len(w), label)
            for at in starts
            for entries in verdicts.values()
            for (w, *_), label in entries
            if text.startswith(w, at)
        ]
        return _unqualified(text, *max(opening), verdicts) if opening else None
    words = _WORD_OR_BREAK.findall(text.lstrip(" " + _CLAUSE_MARKS))
    said = _said(words, verdicts)
    if not said or said[0][0] > 0 or (said[0][1] in _ALSO_WORDS and not _stands_alone(unfolded)):
        return None
    # later, a yes or a no names a label only where it opens or closes a clause ("Sì, … ma non risponde del tutto" is
    # yes, "Sim, mas na verdade não." none), a word of relevance none ("NO, nothing relevant")
    later = {
        label
        for at, phrase, label in said[1:]
        if phrase not in _OPENING_ONLY and (phrase not in _YES_NO or _clause_edge(words, at, len(phrase)))
    }
    return said[0][2] if later <= {said[0][2]} else None


def _unqualified(text: str, end: int, label: str, verdicts: _Verdicts) -> str | None:
    """``label``, said by a Chinese or Japanese answer's words up to ``end``, unless the rest of their clause
    qualifies it (``VERDICT_QUALIFIERS``: "相关性不大", "正しいとは言えない") or names the other label ("真假难辨")."""
    clause = _CLAUSE_END.split(text[end:], maxsplit=1)[0]
    others = (w for entries in verdicts.values() for (w, *_), other in entries if other != label and is_cjk(w))
    return None if any(word in clause for word in (*_QUALIFIERS, *others)) else label


def _stands_alone(text: str) -> bool:
    """Whether the first word is in capitals or followed by nothing or by punctuation."""
    word = re.match(r"\W*([^\W\d_]+)(\s*)(.?)", text)
    return word is not None and (word.group(1).isupper() or not word.group(3) or not word.group(3).isalnum())


def normalize_finder_answer(answer: str) -> str | None:
    """YES or NO (or its word in a covered language: "oui", "是"; "The segment is relevant", "该段落与问题无关"), or
    None."""
    return _verdict(_answer_part(answer), _FINDER_VERDICTS, _FINDER_SUBJECT)


def normalize_claim_answer(answer: str) -> str | None:
    """TRUE or FALSE from true/false/yes/no (or their words in a covered language: "vrai", "错误"), or None; none
    where its first sentence says the verdict holds in part ("TRUE, partially": ``PARTLY_WORDS``)."""
    answer = _answer_part(answer)
    first = _SENTENCE_END.split(_clean(answer), maxsplit=1)[0]
    return None if _PARTLY.search(first) else _verdict(answer, _CLAIM_VERDICTS, _CLAIM_SUBJECT)


def _answer_part(answer: str) -> str:
    """The part of an answer field that gives the answer: a JSON object's one value ('{"answer": "true"}'), or the
    last line that opens with the answer's label after the lines of a rationale ("…\nAnswer: TRUE")."""
    if json_value := _JSON_VALUE.fullmatch(answer):
        return json_value.group(1)
    labelled = [m.start() for m in _LABELLED_LINE.finditer(answer)]
    return answer[labelled[-1] :] if labelled and labelled[-1] > 0 else answer


_JSON_VALUE = re.compile(r'\s*\{\s*"[^"]{1,20}"\s*:\s*"([^"]*)"\s*\}\s*')  # '{"answer": "B"}'
_LABELLED_LINE = re.compile(
    rf"^[^\w\n]*(?:{_ARTICLE})?(?:{_BEFORE})?{words_regex(ANSWER_WORDS)}(?:{_AFTER})?\W{{0,3}}[:\uff1a]", re.I | re.M
)


def _without_labels(answer: str) -> str:
    """``answer`` without the labels it opens with, one after another ("答案：选B", "Answer: option B")."""
    while (shorter := _ANSWER_PREFIX.sub("", answer, count=1)) != answer:
        answer = shorter
    return answer


def normalize_choice(answer: str, question: Question) -> str | None:
    """The option letter from "B", "(B)", "B.", "Option B", "**B**", "B) text", "B is correct", "答案是B", "Ｂ",
    "Ответ: Б" or the option's own text, with a reason after it or not ("B because…"); None when it names no option
    of ``question`` or is ambiguous ("B or C"). An answer of several lines unread whole is read by its first ("B",
    then the reason), unless a later line names another option."""
    answer = _answer_part(answer)
    letter = _choice(answer, question)
    pieces = [piece for piece in _SENTENCE_OR_LINE.split(answer) if piece.strip()]
    if letter is None and len(pieces) > 1:
        first = _choice(pieces[0], question)
        letter = None if {_choice(piece, question) for piece in pieces[1:]} - {None, first} else first
    return None if letter is None or _names_another(answer, letter, question) else letter


def _names_another(answer: str, letter: str, question: Question) -> bool:
    """Whether ``answer`` also names another option's letter as a sentence names one ("D... no, perdón, es la C",
    "Risposta: D … quindi la risposta corretta è B", "B, not C"), its chosen option's own text aside."""
    rest = answer.replace(question.options[letter], " ")
    return any(other != letter and other in question.options for other in _LETTER_IN_SENTENCE.findall(rest))


def _choice(answer: str, question: Question) -> str | None:
    cleaned = _clean(unicodedata.normalize("NFKC", answer.translate(_CIRCLED))).replace("\u2019", "'")
    labelled = _without_labels(cleaned)
    text = _LETTER_IS_RIGHT.sub("", _LETTER_SUFFIX.sub("", _AFTERTHOUGHT.sub("", _REASON.sub("", labelled))))
    if labelled != cleaned:  # "La respuesta es la B": an article after a label only ("a b" stays two letters)
        text = _LETTER_ARTICLE.sub("", text)
    if not text:
        return None
    # an option's text as it is too: "选择沉默" is an option's, not "choose 沉默"
    said = {_comparable(text), _comparable(cleaned), _comparable(_TEXT_COPULA.sub("", text))}  # "「大庭葉蔵」です。"
    by_text = [label for label, option in question.options.items() if _comparable(option) in said]
    if len(by_text) == 1:
        return by_text[0]
    if (then := _TEXT_THEN_LETTER.fullmatch(text)) and then.group(2).upper() in question.options:
        option = question.options[then.group(2).upper()]
        return then.group(2).upper() if _comparable(option) == _comparable(then.group(1)) else None
    bare = _BARE_LETTER.fullmatch(text.translate(_OTHER_ALPHABETS))
    if bare:
        letter = bare.group(1).upper()
    else:
        prefixed = _LETTER_THEN_TEXT.fullmatch(text[:1].translate(_OTHER_ALPHABETS) + text[1:])  # "С) Соня"
        if prefixed is None:
            return _letter_with_its_text(text, question)
        letter = next(group for group in prefixed.groups()[:5] if group).upper()
        rest = prefixed.group(6)
        # "B) <text of another option>" contradicts itself.
        if rest and any(
            _comparable(o) == _comparable(rest) for label, o in question.options.items() if label != letter
        ):
            return None
    return letter if letter in question.options else None


def _letter_with_its_text(text: str, question: Question) -> str | None:
    """The letter of "B, <option B's text>", else None."""
    said = _LETTER_COMMA_TEXT.fullmatch(text)
    letter = said.group(1).upper() if said else None
    if letter in question.options and _comparable(question.options[letter]) == _comparable(said.group(2)):
        return letter
    return None


def normalize_open_answer(answer: str) -> str | None:
    """A free-text answer on one line, without markdown emphasis, surrounding quotes or an "Answer:"
    prefix; None when nothing with a letter or a digit is left (an empty or "..." answer)."""
    text = _clean(_OPEN_PREFIX.sub("", _clean(answer)))
    if not re.search(r"[^\W_]", text) or _comparable(text) == _comparable(_OPEN_PLACEHOLDER):
        return None
    return text


def normalize_answer(answer: str, question: Question) -> str | None:
    """A legal answer of ``question`` (a letter, TRUE/FALSE, or an open question's text), or None."""
    if question.is_open:
        return normalize_open_answer(answer)
    return normalize_claim_answer(answer) if question.is_claim else normalize_choice(answer, question)


# --- replies ----------------------------------------------------------------------------------


def _parse(text, normalize, allowed_ids) -> ParseResult:
    raw = text if isinstance(text, str) else ("" if text is None else str(text))
    reason, answer = _extract(raw)
    rationale = reason or ""
    label = normalize(answer) if answer else None
    cited, invalid = paragraph_references(rationale, allowed_ids)
    return ParseResult(
        format_valid=bool(rationale) and bool(answer),
        answer_legal=label is not None,
        answer=label,
        rationale=rationale,
        cited_ids=cited,
        invalid_ids=invalid,
        raw=raw,
    )


def parse_finder(text: str, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """A Finder reply: answer YES/NO; ``allowed_ids`` is normally the segment's paragraph IDs."""
    return _parse(text, normalize_finder_answer, allowed_ids)


def parse_interpreter(text: str, question: Question, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """An Interpreter reply: an option letter of ``question``, TRUE/FALSE, or an open question's
    free text; ``allowed_ids`` is normally the evidence packet's paragraph IDs."""
    if not isinstance(question, Question):
        raise TypeError(f"parse_interpreter needs a clueweaver Question, got {type(question).__name__}")
    return _parse(text, lambda answer: normalize_answer(answer, question), allowed_ids)


# --- the strict format of training ------------------------------------------------------------

_EXACT_TAGS = ("<reason>", "</reason>", "<answer>", "</answer>")
_THINK_TAG = re.compile(r"<\s*/?\s*think\s*>", re.IGNORECASE)


def strict_format_problem(text: str) -> str | None:
    """Why ``text`` is not exactly ``<reason>...</reason>`` then ``<answer>...</answer>`` (each tag
    once, lower case, closed, both non-empty, nothing but whitespace around or between them); None
    when it is. Training pays only such replies (Tables 5 and 6: an unparseable reply earns
    nothing), while inference reads what it can and records the problem."""
    raw = text if isinstance(text, str) else ("" if text is None else str(text))
    if _THINK_TAG.search(raw):  # inference strips it; training pays only the two tags the agents are asked for
        return "a <think> block: the agents answer without thinking, in <reason> and <answer> only"
    tags = list(_ANY_TAG.finditer(raw))
    if [m.group(0) for m in tags] != list(_EXACT_TAGS):
        found = ", ".join(m.group(0) for m in tags) or "none"
        return f"tags {found}; expected {', '.join(_EXACT_TAGS)}, once each, in this order"
    gaps = {
        "before <reason>": raw[: tags[0].start()],
        "between </reason> and <answer>": raw[tags[1].end() : tags[2].start()],
        "after </answer>": raw[tags[3].end() :],
    }
    for where, gap in gaps.items():
        if gap.strip():
            return f"text {where}: {gap.strip()[:40]!r}"
    for name, (opening, closing) in (("reason", tags[:2]), ("answer", tags[2:])):
        if not raw[opening.end() : closing.start()].strip():
            return f"empty <{name}>"
    return None


def strict_label(answer: str, labels: Iterable[str]) -> str | None:
    """The label an answer field is in training: exactly one of ``labels`` (YES/NO, the question's
    letters, TRUE/FALSE: what the prompt's answer line asks for, in every language) up to letter
    case, character width (NFKC: "Ｂ" is B) and surrounding whitespace; None for anything else.

    Tables 5 and 6 pay a verdict or a correct answer in the answer field of the format the prompt
    gives; a sentence ("Yes, this segment is relevant.", "The answer is B"), markdown ("**YES**"),
    an option's own text, or another label set's word ("yes" for a TRUE claim) is not that field
    as asked, so it earns what the tables give an unparseable output: nothing; so does a verdict in
    the reply's own language ("Oui", "正确"). Inference reads all of these (``normalize_answer``)
    and records them."""
    field = unicodedata.normalize("NFKC", answer).strip().upper()
    return field if field in tuple(labels) else None


def _strictly(parsed: ParseResult, labels: tuple[str, ...] | None) -> ParseResult:
    """``parsed`` as training reads it: well-formed only in the strict format, and with a legal
    answer only when the answer field is one of ``labels`` (None: free text, any)."""
    if parsed.format_valid and strict_format_problem(parsed.raw) is not None:
        return replace(parsed, format_valid=False)
    if parsed.format_valid and labels is not None:
        label = strict_label(_extract(parsed.raw)[1] or "", labels)
        return replace(parsed, answer_legal=label is not None, answer=label)
    return parsed


def parse_finder_strict(text: str, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """``parse_finder``, with ``format_valid`` only for a reply in the strict format and an answer
    only when its field is YES or NO (training)."""
    return _strictly(parse_finder(text, allowed_ids), FINDER_LABELS)


def parse_interpreter_strict(text: str, question: Question, allowed_ids: Iterable[int] | None = None) -> ParseResult:
    """``parse_interpreter``, with ``format_valid`` only for a reply in the strict format and, for
    a multiple-choice question or a claim, an answer only when its field is one of the question's
    labels (training)."""
    labels = None if question.is_open else question.labels
    return _strictly(parse_interpreter(text, question, allowed_ids), labels)
