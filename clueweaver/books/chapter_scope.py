"""A chapter named as a bound: "before chapter 10", "by chapter 10", "after chapter 30", "from chapter 3 on",
"第十回之前", "第三十回以后", "第十章まで", "3장 이후". The reader asks about the chapters on one side of it, not about
it: "What had happened before chapter 10?" names chapters 1 to 9, and reading chapter 10 first would read the wrong
ones. ``relate`` marks each mention with its relation; ``clueweaver.books.named_chapters`` turns the chapters it
names into those before or after them, in reading order.

The relations:
- ``before``: the chapters before it ("before", "avant", "vor", "antes del", "prima del", "antes do", "до",
  "przed", "před", "före"; "之前", "以前", "より前", "이전");
- ``through``: those up to it, itself too ("up to", "until", "by", "jusqu'au", "bis zum", "hasta el", "fino al",
  "até o"; "为止", "まで", "까지");
- ``after``: those after it ("after", "following", "après", "nach", "después del", "dopo il", "depois do",
  "после", "efter"; "之后", "以后", "の後", "이후");
- ``from``: itself and those after it ("from chapter 3 on", "à partir du", "ab", "a partir del", "a partire dal",
  "начиная с главы", "od"; "从第三回起", "以降", "부터").

Two chapters said as a stretch's ends ("between chapters 3 and 7", "第三回和第七回之间") name it from one to the
other, and a lower and an upper bound in one question ("after chapter 3 and before chapter 7": ``bounded``) what
lies between them. A half of the book names its chapters too ("the second half of the novel", "la première
moitié du roman", "后半部", "物語の後半": ``half_named``).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Sequence

from clueweaver.books.chapter_mentions import ChapterMention, unit_kind

# The words written before the mention (leading), by relation, and an article or a contraction between them and it:
# "before the third chapter", "avant le chapitre 3", "vor dem dritten Kapitel", "hasta el capítulo 3"
_ARTICLE = r"(?:(?:the|le|la|l'|l’|el|il|lo|o|a|dem|den|der|das|die|zum|zur)\s+)?"
_LEADING_WORDS = {
    "before": r"before|prior\s+to|avant|vor|antes\s+de[l]?|prima\s+d(?:el|ello|ella|ei|i)?|antes\s+d[oa]s?|до|przed|"
    r"před|före",
    "through": r"up\s+to|until|till|by|jusqu['’]a[u]?|jusqu['’]à|bis(?:\s+zu[mr]?)?|hasta|fino\s+a[l]?|até",
    "after": r"after|following|après|nach|después\s+de[l]?|dopo|depois\s+d[oa]s?|после|efter",
    "from": r"à\s+partir\s+du|à\s+partir\s+de|ab|a\s+partir\s+de[l]?|a\s+partire\s+da[l]?|a\s+partir\s+d[oa]|"
    r"начиная\s+со?|od|ode",
}
_LEADING = {
    relation: re.compile(rf"(?<!\w)(?:{words})\s+{_ARTICLE}$", re.IGNORECASE)
    for relation, words in _LEADING_WORDS.items()
}
# "from chapter 3" alone quotes it ("a line from chapter 3"): the bound needs its end ("on", "onwards", "to the end")
_FROM_ON = re.compile(r"(?<!\w)from\s+$", re.IGNORECASE)
_ON = re.compile(r"\s+(?:on|onwards?|to\s+the\s+end)\b", re.IGNORECASE)
# The words written after it (trailing): Chinese, Japanese and Korean put them there ("第十回之前", "第十章まで",
# "3장 이후"); "起" and "开始" only after "从" ("从第十回起": "第十回开始时" is at chapter 10's start)
_TRAILING = {
    "before": re.compile(r"\s*(?:之前|以前|より前|이전)"),
    "through": re.compile(r"\s*(?:为止|為止|まで|까지)"),
    "after": re.compile(r"\s*(?:之后|之後|以后|以後|の後(?!半)|より後|이후)"),  # "第三章の後半" is its latter half
    "from": re.compile(r"\s*(?:以降|부터)"),
}
_FROM_CJK = (re.compile(r"[从從自]\s*$"), re.compile(r"\s*(?:起|开始|開始)"))
_POSSESSIVE = re.compile(r"['’]s\b")
# A stretch between two chapters a list names: "between chapters 3 and 7", "entre les chapitres 3 et 7", "zwischen
# Kapitel 3 und 7", "между главами 3 и 7", "tra i capitoli 3 e 7", "第三回和第七回之间", "3장과 7장 사이"
_BETWEEN_LEADING = re.compile(
    rf"(?<!\w)(?:between|entre|zwischen|между|tra|fra)\s+{_ARTICLE}(?:(?:les|los|las|i|den)\s+)?$", re.IGNORECASE
)
_BETWEEN_TRAILING = re.compile(r"\s*(?:之间|之間|の間|사이)")
# A stretch said by its two ends, each with the unit's word: "from chapter 3 to chapter 5", "du chapitre 3 au chapitre
# 5", "von Kapitel 3 bis Kapitel 5", "dal capitolo 3 al capitolo 5", "с главы 3 по главу 5", "от главы 3 до главы 5",
# "od rozdziału 3 do rozdziału 5", "between chapter 3 and chapter 5", "entre le chapitre 3 et le chapitre 5": the
# words before the first end, and those between the ends. A first end with no such word before it is said alone
# ("How does chapter 3 lead to chapter 5?").
_STRETCH_WORDS = (
    (
        re.compile(
            rf"(?<!\w)(?:from|du|de|von|vom|desde|del|dal|da|do|с|со|от|od|fra|från|van)\s+{_ARTICLE}$", re.IGNORECASE
        ),
        re.compile(
            r"\s*(?:to|through|till|until|au|à|jusqu['’]au|jusqu['’]à|bis(?:\s+zu[mr]?)?|hasta|al|a|ao|até|по|до|do|"
            rf"till|tot|til)\s+{_ARTICLE}",
            re.IGNORECASE,
        ),
    ),
    (_BETWEEN_LEADING, re.compile(rf"\s*,?\s*(?:and|et|und|y|e|и|och|og|en|i|oraz)\s+{_ARTICLE}", re.IGNORECASE)),
)
_LOWER, _UPPER = frozenset({"after", "from"}), frozenset({"before", "through"})
# A Korean mention may hold its particle ("3장까지", "3장부터")
_KOREAN_PARTICLE = {"까지": "through", "부터": "from"}


# A half of the book a reader names: "the second half of the novel", "la première moitié du roman", "in der zweiten
# Hälfte des Romans", "во второй половине романа", "en la segunda mitad de la novela", "nella seconda metà del
# romanzo", "na segunda metade do romance", "后半部", "物語の後半"; not a chapter's half ("第三章の後半")
_FIRST = r"first|former|premi[eè]re|erst\w*|перв\w*|primera|prima|primeira"
_SECOND = r"second|latter|seconde|deuxi[eè]me|zweit\w*|втор\w*|segunda|seconda"
_HALF_OF = r"half\s+of\s+the|moiti[eé]\s+du|h[aä]lfte\s+des|половин\w+|mitad\s+de\s+la|met[aà]\s+del|metade\s+do"
_BOOK = r"book|novel|story|livre|roman\w*|buch\w*|книги|романа|повести|novela|historia|libro|romanzo|romance|livro"
_HALF = re.compile(
    rf"(?<!\w)(?:(?P<first>{_FIRST})|{_SECOND})\s+(?:{_HALF_OF})\s+(?:{_BOOK})(?!\w)"
    r"|(?P<zh_first>前半部)|[后後]半部|(?:物語|小説)の(?:(?P<ja_first>前半)|後半)",
    re.IGNORECASE,
)


def half_named(chapters: Sequence, text: str) -> tuple[list, str | None]:
    """The chapters of the half of the book that ``text`` names, the middle one in both when they are odd, and the
    words that name it; none, and None, where it names no half."""
    match = _HALF.search(text)
    if match is None or not chapters:
        return [], None
    first = match["first"] or match["zh_first"] or match["ja_first"]
    return list(chapters[: (len(chapters) + 1) // 2] if first else chapters[len(chapters) // 2 :]), match.group(0)


def relate(text: str, mentions: Sequence[ChapterMention]) -> list[ChapterMention]:
    """``mentions`` (read from ``text``) each with the relation the words around it give, the words joined to its
    ``text`` so that the query leaves them too; a mention said plainly unchanged. Two that are a stretch's ends
    (``_stretch``) are its lower and upper bound, which ``bounded`` reads together."""
    related: list[ChapterMention] = []
    k = 0
    while k < len(mentions):
        if k + 1 < len(mentions) and (ends := _stretch(text, mentions[k], mentions[k + 1])):
            related.extend(ends)
            k += 2
        else:
            related.append(_related(text, mentions[k]))
            k += 1
    return related


def _stretch(text: str, first: ChapterMention, last: ChapterMention) -> tuple[ChapterMention, ChapterMention] | None:
    """``first`` as the lower bound ("from") and ``last`` as the upper ("through"), each with its words, where the
    two name one number each of one kind of unit and are said as a stretch's ends (``_STRETCH_WORDS``); else None."""
    if len(first.numbers) != 1 or len(last.numbers) != 1 or first.part != last.part:
        return None
    if 0 < last.numbers[0] < first.numbers[0]:  # "from chapter 5 to chapter 3" is no stretch a reader writes
        return None
    if unit_kind(first.text) != unit_kind(last.text):
        return None
    end = first.start + len(first.text)
    for leading, joining in _STRETCH_WORDS:
        lead, gap = leading.search(text[: first.start]), joining.fullmatch(text[end : last.start])
        if lead and gap:
            lower = dataclasses.replace(first, text=lead.group(0) + first.text, start=lead.start(), relation="from")
            upper = dataclasses.replace(last, text=gap.group(0) + last.text, start=end, relation="through")
            return lower, upper
    return None


def _related(text: str, mention: ChapterMention) -> ChapterMention:
    before, after = text[: mention.start], text[mention.start + len(mention.text) :]
    if _POSSESSIVE.match(after):  # "after chapter 5's fight": the bound is the fight's, in chapter 5
        return mention
    if (
        len(mention.numbers) > 1
    ):  # a list's or a range's words are its ends ("3장부터 5장까지", "第三章から第五章まで")
        return _between(before, after, mention)
    for relation, pattern in _TRAILING.items():
        if match := pattern.match(after):
            return dataclasses.replace(mention, text=mention.text + match.group(0), relation=relation)
    if _FROM_CJK[0].search(before) and (match := _FROM_CJK[1].match(after)):
        return dataclasses.replace(mention, text=mention.text + match.group(0), relation="from")
    if (on := _ON.match(after)) and (lead := _FROM_ON.search(before)):
        words = lead.group(0) + mention.text + on.group(0)
        return dataclasses.replace(mention, text=words, start=lead.start(), relation="from")
    for relation, pattern in _LEADING.items():
        if lead := pattern.search(before):
            words = lead.group(0) + mention.text
            return dataclasses.replace(mention, text=words, start=lead.start(), relation=relation)
    for particle, relation in _KOREAN_PARTICLE.items():
        if mention.text.endswith(particle):
            return dataclasses.replace(mention, relation=relation)
    return mention


def _between(before: str, after: str, mention: ChapterMention) -> ChapterMention:
    """A list of two said as the ends of a stretch ("between chapters 3 and 7", "第三回和第七回之间"): ``between``."""
    if len(mention.numbers) != 2:
        return mention
    if lead := _BETWEEN_LEADING.search(before):
        words = lead.group(0) + mention.text
        return dataclasses.replace(mention, text=words, start=lead.start(), relation="between")
    if trail := _BETWEEN_TRAILING.match(after):
        return dataclasses.replace(mention, text=mention.text + trail.group(0), relation="between")
    return mention


def bounded(named_by_mention: list[tuple[str | None, list]]) -> list:
    """The chapters that mentions (each its relation and the chapters it names) name together: a lower bound and an
    upper bound said in one question ("after chapter 3 and before chapter 7") name what lies between them; every
    other mention adds its own."""
    lower = {c for relation, named in named_by_mention if relation in _LOWER for c in named}
    upper = {c for relation, named in named_by_mention if relation in _UPPER for c in named}
    found: dict = {}  # in order, each once
    for relation, named in named_by_mention:
        if lower and upper and relation in _LOWER | _UPPER:
            named = [c for c in named if c in lower and c in upper]
        found.update(dict.fromkeys(named))
    return list(found)


def chapters_related(chapters: Sequence, named: list, relation: str | None) -> list:
    """The book's ``chapters`` (in reading order) on the ``relation``'s side of those a mention ``named``: before
    the first, through the last, after the last, from the first; ``named`` itself without a relation."""
    if relation is None or not named:
        return named
    wanted = set(named)
    places = [k for k, chapter in enumerate(chapters) if chapter in wanted]
    first, last = places[0], places[-1]
    sides = {
        "before": chapters[:first],
        "through": chapters[: last + 1],
        "after": chapters[last + 1 :],
        "from": chapters[first:],
        "between": chapters[first : last + 1],
    }
    return list(sides[relation])
