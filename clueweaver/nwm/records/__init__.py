"""Typed, evidence-backed narrative records (NWM section 3.2) and their cumulative registries.

Every record is stamped with the chapter it was derived from and carries evidence (paragraph IDs
of the book plus a verbatim quote) and a confidence, so that anything the world model says can be
traced back to the text and never leaks a later chapter.

``kinds`` (the record dataclasses, the single source of truth), ``validation`` (records from
parsed JSON, and their grounding in the book), ``schema`` (the extractor's JSON schema and
instructions, derived from the same dataclasses) and ``registries`` (the four cumulative
registries). The public names are importable from this package.
"""

from __future__ import annotations

from clueweaver.nwm.records.kinds import (
    RECORD_TYPES,
    REGISTRIES,
    ArcDelta,
    Aspect,
    CharacterDelta,
    CharacterState,
    DramaticFunction,
    EpistemicState,
    Evidence,
    Location,
    ObjectDelta,
    ObjectState,
    Polarity,
    Promise,
    Record,
    RelationshipDelta,
    Revelation,
    SceneBeat,
    Thread,
    WorldFact,
    WorldRecordError,
    doc,
    name_key,
)
from clueweaver.nwm.records.registries import Registries, RegistryEntry
from clueweaver.nwm.records.schema import extraction_schema, record_guide
from clueweaver.nwm.records.validation import check_grounding, record_from_dict

__all__ = [
    "RECORD_TYPES",
    "REGISTRIES",
    "ArcDelta",
    "Aspect",
    "CharacterDelta",
    "CharacterState",
    "DramaticFunction",
    "EpistemicState",
    "Evidence",
    "Location",
    "ObjectDelta",
    "ObjectState",
    "Polarity",
    "Promise",
    "Record",
    "RegistryEntry",
    "Registries",
    "RelationshipDelta",
    "Revelation",
    "SceneBeat",
    "Thread",
    "WorldFact",
    "WorldRecordError",
    "check_grounding",
    "doc",
    "extraction_schema",
    "name_key",
    "record_from_dict",
    "record_guide",
]
