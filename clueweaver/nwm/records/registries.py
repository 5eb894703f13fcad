"""The four cumulative registries of the NWM (entity, relationship, object, thread): records
filed under the keys they name, in chapter order, with the latest record per slot."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from clueweaver.nwm.records.kinds import name_key


@dataclass
class RegistryEntry:
    """Everything filed under one key, in chapter order, with the latest record per slot."""

    registry: str
    key: str
    history: list = field(default_factory=list)  # (record_id, Record), chapter order

    def current(self) -> list:
        """The latest record for each slot, plus every event (records without a slot)."""
        latest: dict = {}
        for rid, record in self.history:
            latest[record.slot() or ("event", rid)] = (rid, record)
        return sorted(latest.values(), key=lambda item: (item[1].chapter, item[0]))


class Registries:
    """Records merged into the four cumulative registries of the NWM: entity, relationship,
    object and thread. Built from records already restricted to the chapters a reader may see."""

    def __init__(self, records) -> None:
        self.entries: dict[tuple[str, str], RegistryEntry] = {}
        for rid, record in sorted(records, key=lambda item: (item[1].chapter, item[0])):
            for registry, key in dict.fromkeys(record.registry_keys()):
                entry = self.entries.setdefault((registry, key), RegistryEntry(registry, key))
                entry.history.append((rid, record))

    def keys(self, registry: str | None = None) -> list[tuple[str, str]]:
        return sorted(k for k in self.entries if registry is None or k[0] == registry)

    def get(self, registry: str, key: str) -> RegistryEntry | None:
        return self.entries.get((registry, name_key(key)))

    def find(self, name: str) -> list[RegistryEntry]:
        """Entries whose key is the name, or else whose key contains it as whole words."""
        wanted = name_key(name)
        exact = [e for (_, key), e in sorted(self.entries.items()) if key == wanted or wanted in key.split(" | ")]
        if exact:
            return exact
        pattern = re.compile(rf"(?<!\w){re.escape(wanted)}(?!\w)")
        return [e for (_, key), e in sorted(self.entries.items()) if pattern.search(key)]
