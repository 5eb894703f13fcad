"""Prompts of ChronoRAG's index builder (``clueweaver.chrono``) and the readers of their outputs.

Two steps per group of consecutive chunks: a summary of the group's events in the order they
happen, then a one-shot entity-relation extraction in the manner of GraphRAG's (a goal, the steps,
one worked example, the output format) from that summary, or from the group's own text in the
no-summarization ablation. Both reply with one JSON object, constrained to its schema where the
backend can, and read field by field here: an output that does not fit is an ``OutputRejected``
whose message goes back to the model. As GraphRAG's prompt asks, each entity has a type and a
description and each relation a strength score (1-10); the relations' descriptions become Layer 1
nodes, the entities and strengths are kept in the index. Validation is no stricter than the
method needs: a relation naming an entity the list left out is kept, the entity added (type
"other"), rather than the whole output rejected.
Both ask for the passage's language: Layer 1 is ranked by BM25 in the language its own text is in,
so a Chinese question meets a Chinese book's relations only when they are written in Chinese. The
wording is this project's own; the method follows Kim et al. 2025 (ChronoRAG) and Edge et al.
2024 (GraphRAG). ``PROMPT_HASH`` keys the index cache, so any change here rebuilds the indexes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from clueweaver.protocol.json_output import OutputRejected, json_object

PROMPT_VERSION = 3
SUMMARY_WORDS = 150  # a group of four 128-token chunks is about 380 words
MAX_RELATIONS = 24  # per group

SUMMARY_SYSTEM = f"""You summarize one passage of a long narrative (a novel, story, script or archive) for a timeline of its events. The passage is a run of consecutive excerpts, in the order the narrative tells them.

Rules:
1. Tell what happens in the order it happens: who does what, to whom, where and when, and what changes (a discovery, a decision, an arrival or departure, a death, a change of mind).
2. Name every character, place and object by the name the passage uses; do not write "he" or "she" where a name is known.
3. Keep the passage's own time words (that night, three years later, on the fourteenth of November).
4. Use only the passage, not outside knowledge of the work. Write at most {SUMMARY_WORDS} words.
5. Write in the language of the passage: the timeline is searched with the narrative's own words.

Reply with one JSON object and nothing else: {{"summary": "..."}}"""

SUMMARY_USER = "Narrative: {title}\n\nPassage:\n{text}\n\nWrite the summary."

_EXAMPLE_PASSAGE = (
    "Ada Finch rowed out to the lighthouse on the night of the gale and found that the keeper, Jonas Reed, "
    "was gone. His logbook lay open on the table at the page for the ninth of March, and Ada took it back "
    "to the harbour master, Captain Oduya."
)
_EXAMPLE_OUTPUT = {
    "entities": [
        {"name": "Ada Finch", "type": "person", "description": "Ada Finch rows to the lighthouse in the gale."},
        {"name": "Jonas Reed", "type": "person", "description": "Jonas Reed is the lighthouse keeper."},
        {
            "name": "the lighthouse",
            "type": "place",
            "description": "The lighthouse is empty on the night of the gale.",
        },
        {"name": "the logbook", "type": "object", "description": "Jonas Reed's logbook, open at the ninth of March."},
        {"name": "Captain Oduya", "type": "person", "description": "Captain Oduya is the harbour master."},
    ],
    "relations": [
        {
            "source": "Ada Finch",
            "target": "the lighthouse",
            "description": "Ada Finch rows out to the lighthouse on the night of the gale and finds it empty.",
            "strength": 8,
        },
        {
            "source": "Jonas Reed",
            "target": "the lighthouse",
            "description": "Jonas Reed, the keeper of the lighthouse, is gone from it on the night of the gale.",
            "strength": 9,
        },
        {
            "source": "the logbook",
            "target": "Jonas Reed",
            "description": "Jonas Reed's logbook lies open at the page for the ninth of March when he is found gone.",
            "strength": 6,
        },
        {
            "source": "Ada Finch",
            "target": "Captain Oduya",
            "description": "After the night of the gale Ada Finch takes the keeper's logbook to Captain Oduya.",
            "strength": 7,
        },
    ],
}

EXTRACTION_SYSTEM = f"""You build a knowledge graph of a narrative from one passage of it.

Goal: find the entities the passage names and the relations between them that the passage states.

Steps:
1. Entities: every character, place, object, group or event the passage names. For each, give its name as the passage writes it, its type (person, place, object, group, event or other) and one sentence from the passage about it.
2. Relations: every pair of entities from step 1 that the passage clearly relates. For each, give the source and the target, named exactly as in step 1, a description: one sentence that stands alone, names both entities and says how they are related in this passage, keeping its time words (when, before, after, that night), and a strength: a whole number from 1 (a passing link) to 10 (a link the passage turns on).
3. At most {MAX_RELATIONS} relations, the most important first. A passage that relates nothing gets an empty list of relations.
4. Write the sentences and descriptions in the language of the passage: the graph is searched with the narrative's own words.

Example
Passage:
{_EXAMPLE_PASSAGE}
Output:
{json.dumps(_EXAMPLE_OUTPUT, ensure_ascii=False)}

Use only the passage, not outside knowledge of the work. Reply with one JSON object in the form of the example and nothing else."""

EXTRACTION_USER = "Narrative: {title}\n\nPassage:\n{text}\n\nExtract the entities and the relations."

# The evidence packet of a ChronoRAG reading that retrieved nothing (the Interpreter still answers).
NO_PASSAGE = "(No passage of the narrative was retrieved for this question up to the reading position.)"

RETRY = "That output was rejected: {error}. Reply again with the complete JSON object only."

SUMMARY_SCHEMA = {
    "type": "object",
    "properties": {"summary": {"type": "string", "minLength": 1}},
    "required": ["summary"],
    "additionalProperties": False,
}


def _strings(*names: str) -> dict:
    return {
        "type": "object",
        "properties": {name: {"type": "string", "minLength": 1} for name in names},
        "required": list(names),
        "additionalProperties": False,
    }


STRENGTH = (1, 10)  # a relation's strength score, as GraphRAG's prompt asks for one


def _relation_schema() -> dict:
    schema = _strings("source", "target", "description")
    schema["properties"]["strength"] = {"type": "integer", "minimum": STRENGTH[0], "maximum": STRENGTH[1]}
    schema["required"].append("strength")
    return schema


EXTRACTION_SCHEMA = {
    "type": "object",
    "properties": {
        "entities": {"type": "array", "items": _strings("name", "type", "description")},
        "relations": {
            "type": "array",
            "items": _relation_schema(),
            "maxItems": MAX_RELATIONS,
        },
    },
    "required": ["entities", "relations"],
    "additionalProperties": False,
}

PROMPT_HASH = hashlib.sha256(
    json.dumps(
        [PROMPT_VERSION, SUMMARY_SYSTEM, SUMMARY_USER, EXTRACTION_SYSTEM, EXTRACTION_USER, RETRY, EXTRACTION_SCHEMA],
        sort_keys=True,
    ).encode("utf-8")
).hexdigest()


def _conversation(system: str, user: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def summary_messages(title: str, text: str) -> list[dict[str, str]]:
    return _conversation(SUMMARY_SYSTEM, SUMMARY_USER.format(title=title, text=text))


def extraction_messages(title: str, text: str) -> list[dict[str, str]]:
    return _conversation(EXTRACTION_SYSTEM, EXTRACTION_USER.format(title=title, text=text))


def retry_messages(messages: list[dict[str, str]], output: str, error: str) -> list[dict[str, str]]:
    """The conversation with the rejected output and the reason, for one more try."""
    return [
        *messages,
        {"role": "assistant", "content": output},
        {"role": "user", "content": RETRY.format(error=error)},
    ]


def _object(text: str, keys: tuple[str, ...]) -> dict:
    data = json_object(text)
    if not isinstance(data, dict) or set(data) != set(keys):
        wanted = ", ".join(f'"{k}"' for k in keys)
        raise OutputRejected(f"the output must be an object with exactly the keys {wanted}")
    return data


def _items(data: dict, key: str, fields: tuple[str, ...]) -> list[dict[str, str]]:
    """The list under ``key``, each item an object whose ``fields`` are non-empty strings."""
    items = data[key]
    if not isinstance(items, list):
        raise OutputRejected(f'"{key}" must be a list')
    for n, item in enumerate(items):
        if not isinstance(item, dict) or any(not isinstance(item.get(f), str) or not item[f].strip() for f in fields):
            raise OutputRejected(f"{key}[{n}] must be an object with the non-empty strings {', '.join(fields)}")
    return items


def read_summary(text: str) -> str:
    """The summary of a summary output, or an OutputRejected saying what is wrong."""
    summary = _object(text, ("summary",))["summary"]
    if not isinstance(summary, str) or not summary.strip():
        raise OutputRejected('"summary" must be a non-empty string')
    return " ".join(summary.split())


def _key(name: str) -> str:
    return " ".join(name.lower().split())


@dataclass(frozen=True)
class Extraction:
    """An extraction output as read: the entities (name, type, description; those a relation named
    without listing them added as type "other"), the relations (source, target, description,
    strength) and the names added."""

    entities: list[tuple[str, str, str]]
    relations: list[tuple[str, str, str, int]]
    added: list[str]


def _strength(relation: dict, n: int) -> int:
    value = relation.get("strength")
    low, high = STRENGTH
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise OutputRejected(f"relations[{n}] needs a strength, a whole number from {low} to {high}")
    return round(value)


def read_extraction(text: str) -> Extraction:
    """The entities and relations of an extraction output, or an OutputRejected saying what is
    wrong; a relation's end the entities do not list is added to them."""
    data = _object(text, ("entities", "relations"))
    entities = [
        (e["name"].strip(), e["type"].strip(), " ".join(e["description"].split()))
        for e in _items(data, "entities", ("name", "type", "description"))
    ]
    relations = _items(data, "relations", ("source", "target", "description"))
    if len(relations) > MAX_RELATIONS:
        raise OutputRejected(f"at most {MAX_RELATIONS} relations, got {len(relations)}")
    read = [
        (r["source"].strip(), r["target"].strip(), " ".join(r["description"].split()), _strength(r, n))
        for n, r in enumerate(relations)
    ]
    names = {_key(name) for name, _, _ in entities}
    added = list(dict.fromkeys(end for r in read for end in r[:2] if _key(end) not in names))
    return Extraction([*entities, *((name, "other", "") for name in added)], read, added)
