"""An option's letter read from a multiple-choice answer field as small models write it, in every language ClueWeaver
covers: "B", "(B)", "**B**", "Option B", "答案是B", "Ответ: Б", "B가 정답입니다", "③", the option's own text, a letter
with its reason ("B because she left"), above it ("B\n\nBecause…") or below a rationale ("…\nAnswer: B"). An answer
that names two options ("B or C", "D... no, es la C") is left unread.
"""

from __future__ import annotations

import re
import unicodedata

from clueweaver.protocol.cues import ANSWER_COPULAS, every_language
from clueweaver.protocol.question import Question
from clueweaver.protocol.reply_text import (
    AFTER,
    ARTICLE,
    BEFORE,
    COPULA,
    alternatives,
    answer_part,
    clean,
    comparable,
    concluded,
    label_prefix,
    sentences,
)
from clueweaver.protocol.reply_words import (
    AFTERTHOUGHTS,
    ANSWER_ADJECTIVES_AFTER,
    ANSWER_ADJECTIVES_BEFORE,
    ANSWER_ARTICLES,
    ANSWER_WORDS,
    BECAUSE_WORDS,
    COMMA_BECAUSE_WORDS,
    CONCESSION_WORDS,
    COPULAS,
    LEAD_INS,
    LETTER_SUFFIXES,
    OPTION_WORDS,
    TRUE_WORDS,
    words_regex,
)

_ANSWER_PREFIX = label_prefix(
    ANSWER_WORDS, OPTION_WORDS, LEAD_INS, separators=":\uff1a,\uff0c\\-\u2013\u2014", bare=True
)
_LETTER_SUFFIX = re.compile(r"(?<=[A-Za-z)\]])\s*(?:" + alternatives(LETTER_SUFFIXES, "{}") + r")?\s*[。！.!]?$")
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
_TEXT_COPULA = re.compile(rf"\s*(?:{alternatives(ANSWER_COPULAS, '{}')})\s*[.!\u3002\uff01]?$")
# An option's capital letter said to be the one, after a copula or an article ("es la C", "è B.", "is C", "答案是B"),
# not one a rationale discusses ("A alternativa A não está errada", "Option A ist falsch", "B, not C").
_SAID_TO_BE = alternatives(COPULAS, r"(?<!\w){}\s*") + "|" + alternatives(ANSWER_ARTICLES, r"(?<!\w){}\s+")
_LETTER_IN_SENTENCE = re.compile(rf"(?:{_SAID_TO_BE})([A-Z])(?![^\W\d_])")
# "B, o cão das lágrimas": a letter, a comma and the option's own text.
_LETTER_COMMA_TEXT = re.compile(r"([A-Za-z]),\s*(.+)", re.DOTALL)
# "(B) text", "[B] text", "B. text", "B) text", "B - text", "B (text)": the letter, then the rest.
_LETTER_THEN_TEXT = re.compile(
    r"(?:\(([A-Za-z])\)|\[([A-Za-z])\]|([A-Za-z])\s*[.:)]|([A-Z])\s+[-\u2013\u2014]|([A-Z])\s*(?=\())\s*(.*)",
    re.DOTALL,
)
# "B is correct", "B ist richtig", "B es correcta", "B是正确的", "Bが正しいです", "B가 맞습니다": the letter said to be
# the right one.
_ANSWER_WORD = alternatives(ANSWER_WORDS, r"{}(?!\w)")  # a Korean one before its copula too: "정답입니다"
_LETTER_IS_RIGHT = re.compile(
    rf"(?<=[A-Za-z)\]]){COPULA}?\s*(?:{words_regex(TRUE_WORDS, ANSWER_ADJECTIVES_BEFORE, ANSWER_ADJECTIVES_AFTER)}"
    # or said to be the answer: "B is the correct answer", "B est la bonne réponse", "B是正确答案", "B가 정답입니다"
    rf"|(?:{ARTICLE})?(?:{BEFORE})?(?:{_ANSWER_WORD})(?:{AFTER})?)"
    rf"的?(?:{alternatives(ANSWER_COPULAS, '{}')})?\s*[.。!！]?$",
    re.IGNORECASE,
)
# A reason after the answer: "B because she left", "Harriet, parce qu'elle part", "B因为她走了"
_REASON = re.compile(
    rf"(?<=[^\W\d_)\]])(?:\s*[,\uff0c]\s*{words_regex(COMMA_BECAUSE_WORDS)}|\s*[,\uff0c]?\s*{words_regex(BECAUSE_WORDS)}).*$",
    re.IGNORECASE | re.DOTALL,
)
# A reservation after the answer: "la D, aunque no estoy del todo seguro", "B, хотя возможно и A"
_CONCESSION = re.compile(
    rf"(?<=[^\W\d_)\]])\s*[,\uff0c]\s*{words_regex(CONCESSION_WORDS)}.*$", re.IGNORECASE | re.DOTALL
)
# A capital letter standing alone after a word, as a sentence names an option ("возможно и A", "or C")
_LETTER_AFTER_WORD = re.compile(r"(?:(?<=[^\W\d_A-Z]\s)|(?<=[\u3040-\u30ff\u4e00-\u9fff]))([A-Z])(?![^\W\d_])")
# An opinion after the answer: "D, je crois.", "B, I think"
_AFTERTHOUGHT = re.compile(
    rf"(?<=[^\W\d_)\]])\s*[,\uff0c]\s*{words_regex(AFTERTHOUGHTS)}\s*[.!\u3002\uff01]?$", re.IGNORECASE
)
# An option's text with its letter after it: "Harriet (B)"
_TEXT_THEN_LETTER = re.compile(r"(.+?)\s*[(\[]([A-Za-z])[)\]]\.?")


def _without_labels(answer: str) -> str:
    """``answer`` without the labels it opens with, one after another ("答案：选B", "Answer: option B")."""
    while (shorter := _ANSWER_PREFIX.sub("", answer, count=1)) != answer:
        answer = shorter
    return answer


def normalize_choice(answer: str, question: Question) -> str | None:
    """The option letter from "B", "(B)", "B.", "Option B", "**B**", "B) text", "B is correct", "答案是B", "Ｂ",
    "Ответ: Б", "③" or the option's own text, with a reason or a reservation after it or not ("B because…"); None
    when it names no option of ``question`` or more than one ("B or C", "D... no, es la C"). An answer unread whole is
    read by its first sentence or line ("B", then the reason) unless a later one names another option, and by a
    reasoning's conclusion ("…, so the answer is C": ``concluded``)."""
    return concluded(answer, lambda text: _letter(text, question))


def _letter(answer: str, question: Question) -> str | None:
    answer = answer_part(answer)
    letter = _choice(answer, question)
    pieces = sentences(answer)
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
    cleaned = clean(unicodedata.normalize("NFKC", answer.translate(_CIRCLED))).replace("\u2019", "'")
    labelled = _without_labels(cleaned)
    if _hedges_toward_another(labelled, question):
        return None
    labelled = _CONCESSION.sub("", labelled)
    text = _bare(labelled, labelled != cleaned)
    if not text:
        return None
    # an option's text as it is too: "选择沉默" is an option's, not "choose 沉默"
    said = {comparable(text), comparable(cleaned), comparable(_TEXT_COPULA.sub("", text))}  # "「大庭葉蔵」です。"
    by_text = [label for label, option in question.options.items() if comparable(option) in said]
    if len(by_text) == 1:
        return by_text[0]
    if (then := _TEXT_THEN_LETTER.fullmatch(text)) and then.group(2).upper() in question.options:
        option = question.options[then.group(2).upper()]
        return then.group(2).upper() if comparable(option) == comparable(then.group(1)) else None
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
        if rest and any(comparable(o) == comparable(rest) for label, o in question.options.items() if label != letter):
            return None
    return letter if letter in question.options else None


def _hedges_toward_another(labelled: str, question: Question) -> bool:
    """Whether a reservation after the answer names another option ("B, хотя возможно и A")."""
    reservation = _CONCESSION.search(labelled)
    named = set(_LETTER_AFTER_WORD.findall(reservation.group(0))) if reservation else set()
    return bool(named & set(question.options))


def _bare(labelled: str, was_labelled: bool) -> str:
    """The answer without what may follow it (a reason, an opinion, a suffix, "is correct") and, after a label only,
    its article ("La respuesta es la B"; "a b" stays two letters)."""
    text = _LETTER_IS_RIGHT.sub("", _LETTER_SUFFIX.sub("", _AFTERTHOUGHT.sub("", _REASON.sub("", labelled))))
    return _LETTER_ARTICLE.sub("", text) if was_labelled else text


def _letter_with_its_text(text: str, question: Question) -> str | None:
    """The letter of "B, <option B's text>", else None."""
    said = _LETTER_COMMA_TEXT.fullmatch(text)
    letter = said.group(1).upper() if said else None
    if letter in question.options and comparable(question.options[letter]) == comparable(said.group(2)):
        return letter
    return None
