"""A Finder's verdict (YES or NO) and a claim's (TRUE or FALSE) read from an answer field as small models write it,
in every language ClueWeaver covers: a bare label ("YES", "Oui", "错误", "いいえ"), a sentence that says it of the
segment or the claim ("The segment is not relevant", "L'affirmation est fausse", "该说法是正确的", "그 주장은 사실이
아닙니다"), a label and its rationale. What says no one verdict ("True in part", "B or C", "No sé", a later sentence
that says the other) is left unread: a misread is a wrong answer or a dropped clue, an unread answer one more call.
``clueweaver bench replies`` measures the reading.
"""

from __future__ import annotations

import re
from functools import cache

from clueweaver.protocol.cues import Table, every_language
from clueweaver.protocol.reply_text import (
    CLAUSE_MARKS,
    COPULA,
    LEAD_IN,
    OPEN_PREFIX,
    SENTENCE_END,
    WORD,
    WORD_OR_BREAK,
    alternatives,
    answer_part,
    clean,
    concluded,
    sentences,
)
from clueweaver.protocol.reply_words import (
    ANSWER_WORDS,
    CLAIM_DETERMINERS,
    CLAIM_SUBJECTS,
    COPULAS,
    FALSE_WORDS,
    FINDER_DETERMINERS,
    FINDER_OBJECTS,
    FINDER_SUBJECTS,
    IRRELEVANT_WORDS,
    NO_VERDICT_OPENINGS,
    NO_WORDS,
    PARTLY_WORDS,
    RELEVANT_WORDS,
    TRUE_WORDS,
    VERDICT_QUALIFIERS,
    VERDICTS_ALSO_WORDS,
    YES_WORDS,
    words_regex,
)
from clueweaver.protocol.text import fold, is_cjk

# A reply that opens with no verdict: "No sé", "I'm not sure", "不确定", "No es que…"
_NO_VERDICT = re.compile(rf"^{words_regex(NO_VERDICT_OPENINGS)}", re.IGNORECASE)
_Verdicts = dict[str, list[tuple[tuple[str, ...], str]]]


def _spelled(*tables: Table) -> frozenset[tuple[str, ...]]:
    """The words of ``tables`` in every language, folded ("sí" and "si", "όχι" and "οχι" alike), each as the words
    it is written in ("not relevant": two)."""
    return frozenset(tuple(WORD.findall(fold(word))) for table in tables for word in every_language(table))


def _verdicts(**labels: tuple[Table, ...]) -> _Verdicts:
    """Each label's words (``_spelled``), by their first word."""
    index: _Verdicts = {}
    for label, tables in labels.items():
        for words in _spelled(*tables):
            index.setdefault(words[0], []).append((words, label))
    return index


_QUALIFIERS = every_language(VERDICT_QUALIFIERS)
_CLAUSE_END = re.compile(rf"[{CLAUSE_MARKS}\s]")
_PARTLY = re.compile(words_regex(PARTLY_WORDS), re.IGNORECASE)
_LABEL_ALONE = re.compile(rf"#*\s*{words_regex(ANSWER_WORDS)}\s*[:\uff1a]?", re.IGNORECASE)
# a segment relevant in part is relevant: "Partially.", "Yes, partially", "En partie"
_FINDER_VERDICTS = _verdicts(YES=(YES_WORDS, RELEVANT_WORDS, PARTLY_WORDS), NO=(NO_WORDS, IRRELEVANT_WORDS))
_CLAIM_VERDICTS = _verdicts(TRUE=(TRUE_WORDS, YES_WORDS), FALSE=(FALSE_WORDS, NO_WORDS))
# The words read as a verdict only when they open the answer (``VERDICTS_ALSO_WORDS``, and relevance).
_ALSO_WORDS = frozenset((fold(word),) for word in VERDICTS_ALSO_WORDS)
_OPENING_ONLY = _ALSO_WORDS | _spelled(RELEVANT_WORDS, IRRELEVANT_WORDS, PARTLY_WORDS)
_YES_NO = _spelled(YES_WORDS, NO_WORDS)
# "The claim is", "L'affirmation est", "该说法是", "その主張は", "C'est", "Es": what a claim's verdict is said of.
_DETERMINER = alternatives(CLAIM_DETERMINERS, r"{}\s*")
_CLAIM_SUBJECT = re.compile(
    rf"^(?:{_DETERMINER})?{words_regex(CLAIM_SUBJECTS, ANSWER_WORDS)}{COPULA}?\s*[:\uff1a,\uff0c\u2014-]?\s*",
    re.IGNORECASE,
)
_FINDER_DETERMINER = alternatives(FINDER_DETERMINERS, r"{}\s*")
_FINDER_OBJECT = alternatives(FINDER_OBJECTS, r"{}\b")  # "für die Frage", "質問に"
_FINDER_SUBJECT = re.compile(
    # "The segment is", "Segment 3 is", "该段落与问题", or a determiner alone before a copula: "This is", "这是"
    rf"^(?:(?:{_FINDER_DETERMINER})?{words_regex(FINDER_SUBJECTS)}(?:\s*\[?\d+\]?)?|(?:{_FINDER_DETERMINER})(?={COPULA}))"
    rf"{COPULA}?\s*[:\uff1a,\uff0c]?\s*(?:(?:{_FINDER_OBJECT})\s*)?",
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
    pieces = sentences(answer)
    if len(pieces) > 1 and _LABEL_ALONE.fullmatch(clean(pieces[0])):
        pieces = pieces[1:]
    return pieces


def _said_in(sentence: str, verdicts: _Verdicts, subject: re.Pattern | None) -> set[str]:
    """The labels a later sentence says: its own opening verdict, one said of what the verdict is said of ("so it is
    false", "the segment is relevant") or a label that is a clause alone ("Actually, FALSE.")."""
    words = WORD_OR_BREAK.findall(fold(clean(sentence)))
    opening = _said(words[:4], verdicts)[:1]  # "No hay otra escena": a no that opens a sentence of its own says none
    bare_yes_no = opening and opening[0][1] in _YES_NO and not _clause_alone(words, 0, len(opening[0][1]))
    said = set() if bare_yes_no else {_opening_verdict(sentence, verdicts, subject)}
    if subject is not None:
        said |= {
            _opening_verdict(sentence[m.start() :], verdicts, subject) for m in _anywhere(subject).finditer(sentence)
        }
    said |= {label for at, phrase, label in _said(words, verdicts) if _clause_alone(words, at, len(phrase))}
    return said - {None}


@cache
def _anywhere(subject: re.Pattern) -> re.Pattern:
    """``subject`` (what a verdict is said of) found anywhere in a sentence, not only at its start; compiled once per
    subject, not once per sentence read."""
    return re.compile(r"(?<!\w)" + subject.pattern.removeprefix("^"), subject.flags)


def _clause_alone(words: list[str], at: int, length: int) -> bool:
    """Whether ``words[at : at + length]`` are a clause of their own, clause marks or the ends around them."""
    return _opens_clause(words, at) and _closes_clause(words, at + length)


def _opens_clause(words: list[str], at: int) -> bool:
    return at == 0 or words[at - 1] in CLAUSE_MARKS


def _closes_clause(words: list[str], end: int) -> bool:
    return end == len(words) or words[end] in CLAUSE_MARKS


def _opening_verdict(answer: str, verdicts: _Verdicts, subject: re.Pattern | None = None) -> str | None:
    """A verdict after any "Answer:" label ("Réponse : VRAI", "答案：正确") and, for a claim, after what it is said of
    (``subject``: "The claim is true"): the first words name one label and no later word another ("Not relevant",
    "No es cierto"); in Chinese or Japanese, which have no spaces, the longest label word the answer opens with.
    A verdict word that is also another language's word (``VERDICTS_ALSO_WORDS``) is a verdict only first and
    standing alone: German "Da war niemand" and Italian "Nei capitoli..." name none, Romanian "Da, ..." and "DA" do;
    later in the answer it, like a word of relevance ("NO, nothing relevant"), is a word of the sentence. An answer
    that opens by not knowing or with another kind of "no" ("No sé", "No es que…": ``NO_VERDICT_OPENINGS``) says
    none."""
    unfolded = LEAD_IN.sub("", OPEN_PREFIX.sub("", clean(answer)).replace("\u2019", "'"))
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
    words = WORD_OR_BREAK.findall(text.lstrip(" " + CLAUSE_MARKS))
    said = _said(words, verdicts)
    if not said or said[0][0] > 0 or (said[0][1] in _ALSO_WORDS and not _stands_alone(unfolded)):
        return None
    # later, a yes or a no names a label only where it closes a clause ("Sì, … ma non risponde del tutto" and "Es
    # correcta, no hay duda" are yes, "Sim, mas na verdade não." none), a word of relevance none ("NO, nothing
    # relevant")
    later = {
        label
        for at, phrase, label in said[1:]
        if phrase not in _OPENING_ONLY and (phrase not in _YES_NO or _closes_clause(words, at + len(phrase)))
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
    return concluded(answer, lambda text: _verdict(answer_part(text), _FINDER_VERDICTS, _FINDER_SUBJECT))


def normalize_claim_answer(answer: str) -> str | None:
    """TRUE or FALSE from true/false/yes/no (or their words in a covered language: "vrai", "错误"), or None; none
    where its first sentence says the verdict holds in part ("TRUE, partially": ``PARTLY_WORDS``)."""
    return concluded(answer, _claim_verdict)


def _claim_verdict(answer: str) -> str | None:
    answer = answer_part(answer)
    first = SENTENCE_END.split(clean(answer), maxsplit=1)[0]
    return None if _PARTLY.search(first) else _verdict(answer, _CLAIM_VERDICTS, _CLAIM_SUBJECT)
