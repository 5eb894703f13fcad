"""British and American English spelled one way: a researcher in Chicago asks about the colour of a dress in
a London novel as "color", and a British reader of an American one writes "theatre". The English analyzer reads
each word in its American form before it stems it (``american_spelling``), so both spellings give one term.

Only the spellings that differ by a rule a list can hold, and no word that the rule would take from another
(a "greyhound" is one in America too, "emphasis" is no verb, "hour" and "four" have no "-or"):

- "-our" words ("colour", "honourable", "favourite", "neighbourhood": ``_OUR_WORDS``);
- "-re" words ("centre", "theatres", "centred": ``_RE_WORDS``);
- an "l" doubled before a suffix ("travelled", "marvellous", "woollen": ``_DOUBLED_L``);
- "-ise" verbs and their nouns ("realise", "organised", "civilisation": ``_ISE_VERBS``);
- words of their own ("grey", "gaol", "connexion", "plough", "defence": ``_WORDS``), and the spellings of Austen's
  time ("shew", "chuse", "surprize"), which Emma writes and GutenQA's questions about it do not.
"""

from __future__ import annotations

import re

# The "-our" words, each written up to its "o" ("colo" + "ur"): "colour", "colours", "coloured", "favourite"
_OUR_WORDS = (
    "arbo ardo armo behavio cando clamo colo demeano endeavo favo fervo flavo harbo hono humo labo neighbo odo parlo "
    "rigo rumo savio savo splendo succo tumo valo vapo vigo"
).split()
_OUR = re.compile(rf"^({'|'.join(_OUR_WORDS)})ur")
# The "-re" words, written up to their "r", in American ("centr": "center"), and the endings they take:
# "centre", "centres", "centred", "centring"
_RE_STEMS = "calibr centr fibr lustr meagr sabr sceptr sombr spectr theatr".split()
_RE_WORDS = {stem: stem[:-1] + "er" for stem in _RE_STEMS} | {"manoeuvr": "maneuver"}
_RE = re.compile(rf"^({'|'.join(_RE_WORDS)})(e|es|ed|ing)$")
_RE_ENDINGS = {"e": "", "es": "s", "ed": "ed", "ing": "ing"}
# The words that double their last "l" before a suffix: "travelled", "traveller", "marvellous"
_DOUBLED_L_WORDS = (
    "cancel counsel dial duel equal fuel grovel jewel label level marvel model quarrel revel rival shovel signal "
    "travel tunnel wool"
).split()
_DOUBLED_L = re.compile(rf"^({'|'.join(_DOUBLED_L_WORDS)})l(ed|ing|ings|er|ers|ous|ously|en)$")
# The "-ise" verbs, written up to their "is": "realise", "realised", "realising", "realisation"
_ISE_VERBS = (
    "agon apolog author bapt character civil colon critic emphas familiar fertil harmon idol legal memor mesmer "
    "minim mobil monopol moral natural neutral organ patron penal real recogn satir scandal scrutin special stabil "
    "steril summar symbol sympath tantal tyrann util visual"
).split()
_ISE = re.compile(rf"^({'|'.join(_ISE_VERBS)})is(e|ed|es|ing|ation|ations|er|ers)$")
# Words spelled their own way, with the forms they take
_WORDS = {
    british: american
    for stem, american_stem, endings in (
        ("grey", "gray", ("", "s", "er", "est", "ish", "ness")),
        ("gaol", "jail", ("", "s", "er", "ers", "ed")),
        ("connexion", "connection", ("", "s")),
        ("plough", "plow", ("", "s", "ed", "ing", "man", "men")),
        ("moustache", "mustache", ("", "s")),
        ("programme", "program", ("", "s")),
        ("catalogue", "catalog", ("", "s")),
        ("defence", "defense", ("", "s", "less")),
        ("offence", "offense", ("", "s")),
        ("pretence", "pretense", ("", "s")),
        ("licence", "license", ("", "s")),
        ("practis", "practic", ("e", "ed", "es", "ing")),
        ("enquir", "inquir", ("e", "ed", "es", "ing", "y", "er", "ers")),
        ("enquiries", "inquiries", ("",)),
        ("despatch", "dispatch", ("", "ed", "es", "ing")),
        ("waggon", "wagon", ("", "s", "er", "ers")),
        ("mould", "mold", ("", "s", "ed", "ing", "y", "er", "ered", "ering")),
        ("smoulder", "smolder", ("", "s", "ed", "ing")),
        ("sceptic", "skeptic", ("", "s", "al", "ally", "ism")),
        ("encyclopaedia", "encyclopedia", ("", "s")),
        ("mediaeval", "medieval", ("",)),
        ("jewellery", "jewelry", ("",)),
        # the spellings of Austen's time, which a question written today does not use ("she shewed", "to chuse")
        ("shew", "show", ("", "s", "ed", "ing")),
        ("shewn", "shown", ("",)),
        ("chus", "choos", ("e", "es", "ing")),
        ("surpriz", "surpris", ("e", "ed", "es", "ing", "ingly")),
        ("teaz", "teas", ("e", "ed", "es", "ing")),
        ("intreat", "entreat", ("", "s", "ed", "ing", "y", "ies")),
        ("inclos", "enclos", ("e", "ed", "es", "ing", "ure")),
    )
    for british, american in ((stem + ending, american_stem + ending) for ending in endings)
}


def american_spelling(word: str) -> str:
    """A normalized English word (lower case, ligatures spelled out) in its American spelling; any other word
    as it is."""
    if word in _WORDS:
        return _WORDS[word]
    if "our" in word:
        word = _OUR.sub(r"\1r", word)
    if match := _RE.match(word):
        return _RE_WORDS[match[1]] + _RE_ENDINGS[match[2]]
    if match := _DOUBLED_L.match(word):
        return f"{match[1]}{match[2]}"
    if match := _ISE.match(word):
        return f"{match[1]}iz{match[2]}"
    return word
