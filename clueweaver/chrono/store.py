"""Where a ChronoRAG index lives on disk, and how a build that stopped half-way resumes.

One folder per index, ``$CLUEWEAVER_CACHE/chrono/<book hash>/<key>`` (``~/.cache/clueweaver`` by
default, or the pipeline's ``cache_dir``), the key a hash of the book's content hash, the model,
the prompts (``PROMPT_HASH``) and the build settings (``ChronoConfig.build_settings``)::

    manifest.json   what the key was made of, and the number of chunks and groups
    layer0.json     the chunks (pieces: paragraph, first and past-the-last character) and groups
    groups.jsonl    one line per finished group, in the order they finished: its status
                    ("ok" | "failed"), stage, summary, relations (source, target, description,
                    strength), entities (name, type, description) and those added because a
                    relation named them unlisted, attempts and the errors of its rejected outputs

The manifest and Layer 0 are written whole (atomically) before any model call; each group is
appended and flushed to disk as soon as it is finished, so an interrupted build loses at most the
groups still in flight and resumes with the rest. A last line cut off mid-write is dropped (with a
warning) and its group done again. An index is complete when every group has a line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from clueweaver.books.narrative import Narrative
from clueweaver.chrono.chunks import Chunk
from clueweaver.chrono.config import ChronoConfig, ChronoError
from clueweaver.core.jsonl import complete_lines
from clueweaver.protocol.chrono_prompts import PROMPT_HASH
from clueweaver.retrieval import atomic_write, default_cache_dir

FORMAT = 1  # bump when the layout changes: old indexes are then rebuilt under new keys
MANIFEST, LAYER0, GROUPS = "manifest.json", "layer0.json", "groups.jsonl"


_PARTICULARS = re.compile(r"'[^']*'|\d+")  # names the model gave, and numbers; field names stay


def failure_reason(record: dict) -> str:
    """A failed group's reason, its stage and last error with the names and numbers in it left out, so that
    the groups that failed the same way count as one reason."""
    error = record["errors"][-1] if record["errors"] else "no output"
    return f"{record['stage']}: {_PARTICULARS.sub('…', error)}"


def chrono_dir(cache_dir: str | Path | None = None) -> Path:
    """The folder holding every book's ChronoRAG indexes."""
    return (Path(cache_dir) if cache_dir else default_cache_dir()).expanduser() / "chrono"


def _identity(narrative: Narrative, model: str, config: ChronoConfig) -> dict:
    return {
        "format": FORMAT,
        "content_hash": narrative.content_hash,
        "model": model,
        "prompt_hash": PROMPT_HASH,
        **config.build_settings(),
    }


def _json_bytes(payload) -> bytes:
    return (json.dumps(payload, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")


class IndexFolder:
    """One index's folder: its identity, Layer 0 and the log of finished groups."""

    def __init__(self, path: Path, identity: dict) -> None:
        self.path, self.identity = path, identity

    @classmethod
    def for_model(
        cls, narrative: Narrative, model: str, config: ChronoConfig, cache_dir: str | Path | None = None
    ) -> IndexFolder:
        identity = _identity(narrative, model, config)
        key = hashlib.sha256(json.dumps(identity, sort_keys=True).encode("utf-8")).hexdigest()[:16]
        return cls(chrono_dir(cache_dir) / narrative.content_hash[:32] / key, identity)

    @classmethod
    def find(
        cls, narrative: Narrative, config: ChronoConfig, cache_dir: str | Path | None = None
    ) -> IndexFolder | None:
        """The book's index with these build settings, built by ``config.model``; with no model
        named, the one there is (a ChronoError naming them when several models built one)."""
        if config.model:
            folder = cls.for_model(narrative, config.model, config, cache_dir)
            return folder if folder.exists() else None
        wanted = _identity(narrative, "", config)
        found = []
        for manifest in sorted((chrono_dir(cache_dir) / narrative.content_hash[:32]).glob(f"*/{MANIFEST}")):
            identity = json.loads(manifest.read_text(encoding="utf-8"))["identity"]
            if {**identity, "model": ""} == wanted:
                found.append(cls(manifest.parent, identity))
        if len(found) > 1:
            models = ", ".join(sorted(f.identity["model"] for f in found))
            raise ChronoError(
                f"several models built a ChronoRAG index of {narrative.title!r} with these settings ({models}): "
                "name the one to read with --chrono-model (chrono.model in the pipeline settings)"
            )
        return found[0] if found else None

    @property
    def model(self) -> str:
        return self.identity["model"]

    def exists(self) -> bool:
        return (self.path / LAYER0).exists()

    def save_layer0(self, narrative: Narrative, chunks: list[Chunk], groups: list[range]) -> None:
        """The manifest and Layer 0, each written whole, Layer 0 last: its presence marks the start."""
        manifest = {"identity": self.identity, "title": narrative.title, "chunks": len(chunks), "groups": len(groups)}
        atomic_write(self.path / MANIFEST, lambda f: f.write(_json_bytes(manifest)))
        layer0 = {
            "chunks": [[list(piece) for piece in chunk.pieces] for chunk in chunks],
            "groups": [[g.start, g.stop] for g in groups],
        }
        atomic_write(self.path / LAYER0, lambda f: f.write(_json_bytes(layer0)))

    def layer0(self) -> tuple[list[Chunk], list[range]]:
        data = json.loads((self.path / LAYER0).read_text(encoding="utf-8"))
        chunks = [Chunk(tuple(tuple(piece) for piece in pieces)) for pieces in data["chunks"]]
        return chunks, [range(start, stop) for start, stop in data["groups"]]

    def records(self) -> dict[int, dict]:
        """The finished groups by number. A last line cut off mid-write (no newline after it) is
        removed from the file, with a warning, so its group is done again and the next append starts
        a whole line; a bad line before it is a ChronoError."""
        path = self.path / GROUPS
        if not path.exists():
            return {}
        records = {}
        for number, line in enumerate(complete_lines(path), start=1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                raise ChronoError(f"{path}: line {number} is not JSON; delete {self.path} to build the index again")
            records[record["group"]] = record
        return records

    def append(self, record: dict) -> None:
        """One finished group, on disk before this returns."""
        with open(self.path / GROUPS, "ab") as f:
            f.write(_json_bytes(record))
            f.flush()
            os.fsync(f.fileno())
