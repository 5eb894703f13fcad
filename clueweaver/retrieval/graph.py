"""A graph of the book that needs no model: paragraphs linked through the names they share, and
personalized PageRank over it as one more ranking signal (HippoRAG's retrieval, without its
language model; docs/retrieval.md, "The graph of names").

An open question ("Why does Holmes go to the church, and what does he learn there?") has no
options to carry the words of its second piece of evidence, but that piece usually names the
people, places and things of the first: walking from the question's best lexical hits through the
names they hold reaches it in one step, whatever words it uses.

- **Entities, cased scripts**: the words a book capitalizes inside its sentences (``ranking``'s
  ``NAME``, the test ``names_in`` uses), kept when the book writes them capitalized more often than
  lowercase ("Lestrade", "Baker"; not "Come" in ``said Come here``; in German, where every noun is
  capitalized, not those a determiner often precedes: "die Hand"), then found in every paragraph
  wherever they stand; and runs of two or more capitalized words ("Godfrey Norton", "Baker
  Street"), leading stop words ("The", "When") dropped.
- **Entities, Chinese and Japanese**: character 2- and 3-grams of the CJK runs without a function
  character (names, places, objects: "潇湘馆"), kept when they recur in several paragraphs.
- **Weights**: an entity found in more than ``MAX_SHARE`` of the paragraphs (the heroine, "说道")
  links everything and is dropped; the others lead from a paragraph in proportion to their inverse
  paragraph frequency, and to each of their paragraphs equally.

The graph is the bipartite paragraph-entity incidence matrix (CSR); PageRank walks paragraph ->
entity -> paragraph with two sparse products per step, about a millisecond a question on a novel.
``RankingConfig`` says when the ranking uses it (open questions, books of a cased script, by
default) and docs/retrieval.md which tuning sets chose that and these constants (the cut of
common entities at 1%, 2% and 5% moved nothing).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Sequence

import numpy as np
from scipy import sparse

from clueweaver.retrieval.analyzers import Analyzer, analyzer_for
from clueweaver.retrieval.fingerprint import GRAPH_CODE, OutdatedCacheEntry, check_made_by, fingerprint
from clueweaver.retrieval.ranking import CAPITALIZED_WORD, LOWERCASE, NAME

GRAPH_FORMAT = 4  # bump when the file layout changes (what computed the entities is fingerprinted)
MIN_PARAGRAPHS = 2  # an entity in one paragraph links nothing
CJK_MIN_PARAGRAPHS = 3  # a character n-gram in two paragraphs is as often chance as a name
MAX_SHARE = 0.02  # of the paragraphs: an entity in more of them links everything and says nothing
MAX_FLOOR = 3  # ... but a short text keeps the entities of up to this many paragraphs
CJK_NGRAMS = (2, 3)
PPR_TOLERANCE = 1e-4  # the walk stops when damping ** steps is below it: 14 steps at damping 0.5
_SHIFT = 21  # bits of a code point: an n-gram's key is its code points side by side
_CAPITALIZED_RUN = re.compile(rf"{CAPITALIZED_WORD}(?:[ \t]+{CAPITALIZED_WORD})*")
_LOWERCASE_WORD = re.compile(rf"\b[{LOWERCASE}]{{3,}}\b")
# German capitalizes every noun, so "capitalized more often than lowercase" keeps "Hand" and "Brief"
# beside "Effi". A name is the capitalized word a determiner almost never precedes: in Effi Briest
# "Effi", "Innstetten", "Kessin" follow one 0-5% of the time, "Hand", "Brief", "Zimmer" 60-88%.
GERMAN_NOUN_SHARE = 0.1  # a capitalized German word after a determiner this often or more is a noun
GERMAN_DETERMINERS = frozenset(
    """der die das dem den des ein eine einen einem einer eines kein keine keinen keinem keiner
    mein meine meinen meinem meiner dein deine deinen deinem deiner sein seine seinen seinem seiner
    ihr ihre ihren ihrem ihrer unser unsere unseren unserem unserer euer eure dieser diese dieses
    diesen diesem jeder jede jedes jeden jedem jener jene jenes zum zur im am vom beim ins ans""".split()
)
_WORD_PAIR = re.compile(r"(\w+)(?=[ \t\n]+(\w+))")


@dataclass
class EntityGraph:
    """Paragraphs and the entities each holds (CSR): paragraph p's entities are
    ``entities[indices[indptr[p]:indptr[p + 1]]]``."""

    entities: list[str]
    indptr: np.ndarray
    indices: np.ndarray
    language: str = "en"

    @classmethod
    def from_texts(cls, texts: Sequence[str], language: str) -> "EntityGraph":
        """The graph of ``texts`` (a book's paragraphs) analyzed in ``language``."""
        analyzer = analyzer_for(language)
        if analyzer.cjk:
            owners, keys = cjk_ngrams(texts, analyzer)
            return cls.from_occurrences(owners, keys, ngram_texts, len(texts), CJK_MIN_PARAGRAPHS, language)
        return cls.from_keys(cased_names(texts, analyzer), MIN_PARAGRAPHS, language)

    @classmethod
    def from_keys(cls, keys: Sequence[Sequence[str]], min_paragraphs: int, language: str = "en") -> "EntityGraph":
        """The graph of each paragraph's entity names (see ``from_occurrences``)."""
        vocabulary: dict[str, int] = {}
        owners = np.repeat(np.arange(len(keys)), [len(k) for k in keys])
        numbers = np.fromiter((vocabulary.setdefault(key, len(vocabulary)) for k in keys for key in k), dtype=np.int64)
        names = list(vocabulary)
        return cls.from_occurrences(
            owners, numbers, lambda kept: [names[n] for n in kept.tolist()], len(keys), min_paragraphs, language
        )

    @classmethod
    def from_occurrences(
        cls,
        owners: np.ndarray,
        keys: np.ndarray,
        name: Callable[[np.ndarray], list[str]],
        num_paragraphs: int,
        min_paragraphs: int,
        language: str = "en",
    ) -> "EntityGraph":
        """The graph of entity occurrences (each one's paragraph and integer key), keeping the
        entities found in at least ``min_paragraphs`` paragraphs and at most
        ``max_paragraphs(num_paragraphs)``; ``name(keys)`` gives the kept keys' names (only they
        are named: a Chinese novel has a million distinct n-grams)."""
        owners, keys = _distinct_occurrences(np.asarray(owners, dtype=np.int64), np.asarray(keys, dtype=np.int64))
        new_key = np.ones(len(keys), dtype=bool)
        new_key[1:] = keys[1:] != keys[:-1]
        entity = np.cumsum(new_key) - 1
        frequency = np.bincount(entity, minlength=int(new_key.sum()))
        kept = (frequency >= min_paragraphs) & (frequency <= max_paragraphs(num_paragraphs))
        renumber = np.cumsum(kept) - 1
        keep = kept[entity]
        paragraph, number = owners[keep], renumber[entity[keep]]
        by_paragraph = np.lexsort((number, paragraph))
        indptr = np.zeros(num_paragraphs + 1, dtype=np.int64)
        np.cumsum(np.bincount(paragraph, minlength=num_paragraphs), out=indptr[1:])
        return cls(name(keys[new_key][kept]), indptr, number[by_paragraph].astype(np.int64), language)

    def __len__(self) -> int:
        return len(self.indptr) - 1

    def entities_of(self, paragraph: int) -> list[str]:
        return [self.entities[n] for n in self.indices[self.indptr[paragraph] : self.indptr[paragraph + 1]]]

    @cached_property
    def _walk(self) -> tuple[sparse.csr_matrix, sparse.csr_matrix]:
        """(paragraph -> entity, entity -> paragraph) transition matrices: a paragraph leads to its
        entities in proportion to their inverse paragraph frequency, an entity to each of its
        paragraphs equally. Both are paragraphs x entities; the first is used transposed."""
        shape = (len(self), len(self.entities))
        rows = np.repeat(np.arange(len(self)), np.diff(self.indptr))
        frequency = np.bincount(self.indices, minlength=len(self.entities)).astype(np.float64)
        idf = np.log(len(self) / np.maximum(frequency, 1.0))[self.indices]
        out_weight = np.bincount(rows, weights=idf, minlength=len(self))
        to_entity = sparse.csr_matrix((idf / np.maximum(out_weight[rows], 1e-12), self.indices, self.indptr), shape)
        to_paragraph = sparse.csr_matrix((1.0 / frequency[self.indices], self.indices, self.indptr), shape)
        return to_entity.T.tocsr(), to_paragraph

    def personalized_pagerank(
        self, seeds: dict[int, float], damping: float = 0.5, *, limit: int | None = None
    ) -> np.ndarray:
        """Each paragraph's personalized PageRank from ``seeds`` (paragraph: weight): the walk goes
        on with probability ``damping`` and jumps back to a seed otherwise, until what is left to
        walk is below ``PPR_TOLERANCE``. Paragraphs from ``limit`` on are never entered (a question
        limited to the first chapters sees none of the later ones); they, and the paragraphs the
        walk cannot reach, score 0. All zeros without seeds or entities."""
        limit = len(self) if limit is None else min(limit, len(self))
        reset = np.zeros(len(self))
        for paragraph, weight in seeds.items():
            if 0 <= paragraph < limit and weight > 0:
                reset[paragraph] += weight
        if not reset.any() or not self.entities:
            return np.zeros(limit)
        reset /= reset.sum()
        to_entity, to_paragraph = self._walk
        steps = 0 if damping <= 0 else math.ceil(math.log(PPR_TOLERANCE) / math.log(damping))
        rank = reset
        for _ in range(steps):
            spread = to_paragraph @ (to_entity @ rank)
            spread[limit:] = 0.0
            rank = (1 - damping) * reset + damping * spread
        return rank[:limit]


def _distinct_occurrences(owners: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each (paragraph, key) pair once, sorted by key, then paragraph: a name said twice in a
    paragraph links it no more than once."""
    order = np.lexsort((owners, keys))
    owners, keys = owners[order], keys[order]
    first = np.ones(len(keys), dtype=bool)
    first[1:] = (keys[1:] != keys[:-1]) | (owners[1:] != owners[:-1])
    return owners[first], keys[first]


def max_paragraphs(num_paragraphs: int) -> int:
    """The most paragraphs an entity may be found in and still link them (``MAX_SHARE``)."""
    return max(MAX_FLOOR, math.floor(MAX_SHARE * num_paragraphs))


def cased_names(texts: Sequence[str], analyzer: Analyzer) -> list[list[str]]:
    """Each text's names, lowercased: its capitalized words that the whole book capitalizes inside
    sentences more often than it writes them lowercase, and its runs of two or more capitalized
    words ("Godfrey Norton"), leading stop words dropped ("When Holmes" is no name of two words)."""
    inside = Counter(name for text in texts for name in NAME.findall(text))
    lowercase = Counter(_LOWERCASE_WORD.findall("\n".join(texts)))
    names = {
        name
        for name, count in inside.items()
        if count > lowercase[name.lower()] and analyzer.normalize(name) not in analyzer.stop_words
    }
    if analyzer.language == "de":
        names -= german_nouns(texts, names)
    per_text = []
    for text in texts:
        found = []
        for run in _CAPITALIZED_RUN.findall(text):
            if " " not in run and "\t" not in run:  # one word, as most runs are
                if run in names:
                    found.append(run.lower())
                continue
            words = run.split()
            found += [word.lower() for word in words if word in names]
            while words and analyzer.normalize(words[0]) in analyzer.stop_words:
                words.pop(0)
            if len(words) >= 2:
                found.append(" ".join(words).lower())
        per_text.append(found)
    return per_text


def german_nouns(texts: Sequence[str], words: set[str]) -> set[str]:
    """The ``words`` that follow a determiner in at least ``GERMAN_NOUN_SHARE`` of their occurrences."""
    seen, after_determiner = Counter(), Counter()
    for text in texts:
        for before, word in _WORD_PAIR.findall(text):
            if word in words:
                seen[word] += 1
                after_determiner[word] += before.lower() in GERMAN_DETERMINERS
    return {word for word in words if after_determiner[word] >= GERMAN_NOUN_SHARE * max(seen[word], 1)}


def cjk_ngrams(texts: Sequence[str], analyzer: Analyzer) -> tuple[np.ndarray, np.ndarray]:
    """Every CJK character n-gram (``CJK_NGRAMS``) of the texts that holds no function character,
    found with numpy over the code points: (its text, its key: the code points side by side,
    ``_SHIFT`` bits each, left-aligned in three). The texts are not normalized (full-width
    punctuation is no CJK character either way, and NFKC of a novel costs as much as the rest)."""
    codes, text_of, cjk, function = analyzer.code_points(texts)
    content = cjk & ~function
    keys, owners = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for n in CJK_NGRAMS:
        starts = max(len(codes) - n + 1, 0)
        whole = np.ones(starts, dtype=bool)
        key = np.zeros(starts, dtype=np.int64)
        for offset in range(n):
            whole &= content[offset : offset + starts]
            key |= codes[offset : offset + starts] << (_SHIFT * (2 - offset))
        keys.append(key[whole])
        owners.append(text_of[:starts][whole])
    return np.concatenate(owners), np.concatenate(keys)


def ngram_texts(keys: np.ndarray) -> list[str]:
    """The n-grams of ``cjk_ngrams``'s keys, as strings."""
    low = (1 << _SHIFT) - 1
    points = np.stack([(keys >> (_SHIFT * shift)) & low for shift in (2, 1, 0)], axis=1).astype(np.uint32)
    return np.ascontiguousarray(points).view("<U3").ravel().tolist()  # a zero code point ends a bigram


def save_graph(graph: EntityGraph, f) -> None:
    """The graph as an ``.npz`` (with ``GRAPH_FORMAT``, the language and the code's fingerprint, checked on load)."""
    np.savez(
        f,
        graph_format=GRAPH_FORMAT,
        made_by=fingerprint(GRAPH_CODE),
        language=graph.language,
        entities=np.asarray(graph.entities, dtype=str),
        indptr=graph.indptr,
        indices=graph.indices,
    )


def load_graph(path, language: str) -> EntityGraph:
    """A graph saved by ``save_graph``; an error when its format, language or fingerprint is not this one's."""
    with np.load(path, allow_pickle=False) as data:
        written = int(data["graph_format"])
        if written != GRAPH_FORMAT:
            raise OutdatedCacheEntry(f"was written by another ClueWeaver version (graph format {written})")
        if str(data["language"]) != language:
            raise ValueError("holds another language's graph")
        check_made_by(str(data["made_by"]), GRAPH_CODE)
        return EntityGraph(data["entities"].tolist(), data["indptr"], data["indices"], language)
