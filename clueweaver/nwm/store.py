"""Embedded SQLite store of one book's world model: records, registries and temporal edges.

One database per book, named by the narrative's content hash, under the data dir
(``$CLUEWEAVER_CACHE/nwm`` or ``~/.cache/clueweaver/nwm``). Writes are atomic per call: a
chapter's records and edges are replaced in one transaction or not at all.

Schema (version 1)::

    meta(key TEXT PRIMARY KEY, value TEXT)
        schema_version, content_hash, title, source (resolved path of the book file), paragraphs
    book_chapters(chapter INTEGER PRIMARY KEY, title TEXT, first_paragraph INTEGER,
                  last_paragraph INTEGER, text_hash TEXT)
        the bound narrative's chapters (0 = front matter), to find edited chapters and shifted IDs
    published(chapter INTEGER PRIMARY KEY, status TEXT ('published' | 'stale'), origin TEXT,
              text_hash TEXT, records INTEGER, updated_at TEXT)
        what was derived from which chapter text; 'stale' = the chapter's text (or text a record
        cited) was edited, its records were removed, and it awaits republishing
    records(id INTEGER PRIMARY KEY, chapter INTEGER, kind TEXT, confidence REAL,
            last_evidence INTEGER, text TEXT, payload TEXT)
        one typed record; payload is its JSON (records.Record.to_dict), text is what is ranked,
        last_evidence the highest cited paragraph ID (checked at read time against the chapter limit)
    record_keys(record_id -> records.id ON DELETE CASCADE, registry TEXT, key TEXT)
        registry membership: entity | relationship | object | thread, normalized name
    edges(id INTEGER PRIMARY KEY, record_id -> records.id ON DELETE CASCADE, subject TEXT,
          relation TEXT, target TEXT, value TEXT, slot TEXT, valid_from INTEGER,
          valid_to INTEGER NULL, confidence REAL)
        temporal edges projected from records; valid over [valid_from, valid_to)
    record_vectors(record_id -> records.id ON DELETE CASCADE, encoder TEXT, vector BLOB)
        dense embeddings of record texts (float32), computed once per record and encoder

Every read takes the chapter a reader has reached (``as_of``) and restricts twice: in the SQL
query and again in Python on the decoded rows, so neither layer alone can leak a later chapter.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import sqlite3
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

import numpy as np

from clueweaver.books.narrative import Narrative, NarrativeError
from clueweaver.core.errors import ClueWeaverError
from clueweaver.nwm.graph import Edge, TemporalGraph, assign_validity, project_edges
from clueweaver.nwm.records import Record, Registries, WorldRecordError, check_grounding, record_from_dict
from clueweaver.retrieval import atomic_write, default_cache_dir

SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS book_chapters (
    chapter INTEGER PRIMARY KEY, title TEXT NOT NULL, first_paragraph INTEGER NOT NULL,
    last_paragraph INTEGER NOT NULL, text_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS published (
    chapter INTEGER PRIMARY KEY, status TEXT NOT NULL CHECK (status IN ('published', 'stale')),
    origin TEXT NOT NULL, text_hash TEXT NOT NULL, records INTEGER NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY, chapter INTEGER NOT NULL, kind TEXT NOT NULL, confidence REAL NOT NULL,
    last_evidence INTEGER NOT NULL, text TEXT NOT NULL, payload TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS records_chapter ON records (chapter);
CREATE TABLE IF NOT EXISTS record_keys (
    record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    registry TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (record_id, registry, key));
CREATE INDEX IF NOT EXISTS record_keys_key ON record_keys (registry, key);
CREATE TABLE IF NOT EXISTS edges (
    id INTEGER PRIMARY KEY, record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE,
    subject TEXT NOT NULL, relation TEXT NOT NULL, target TEXT NOT NULL, value TEXT NOT NULL,
    slot TEXT NOT NULL, valid_from INTEGER NOT NULL, valid_to INTEGER, confidence REAL NOT NULL);
CREATE TABLE IF NOT EXISTS record_vectors (
    record_id INTEGER NOT NULL REFERENCES records (id) ON DELETE CASCADE, encoder TEXT NOT NULL,
    vector BLOB NOT NULL, PRIMARY KEY (record_id, encoder));
CREATE INDEX IF NOT EXISTS edges_slot ON edges (slot, valid_from);
CREATE INDEX IF NOT EXISTS edges_time ON edges (valid_from, valid_to);
"""


class StoreError(ClueWeaverError, RuntimeError):
    """The store cannot do what was asked (wrong book, corrupt file, bad import); nothing was written."""


class StoredRecord(NamedTuple):
    id: int
    record: Record


@dataclass(frozen=True)
class ChapterStatus:
    chapter: int
    status: str
    origin: str
    records: int
    updated_at: str


def default_data_dir() -> Path:
    return default_cache_dir().expanduser() / "nwm"


def chapter_paragraph_ids(narrative: Narrative, chapter: int) -> range:
    """Paragraph IDs of a chapter; 0 is the front matter (the whole book when no chapters were found)."""
    if chapter == 0:
        end = narrative.chapters[0].first_paragraph if narrative.chapters else len(narrative.paragraphs)
        return range(0, end)
    if not 1 <= chapter <= len(narrative.chapters):
        raise NarrativeError(
            f"{narrative.title}: no chapter {chapter} (the book has {len(narrative.chapters)} chapters)"
        )
    return narrative.chapters[chapter - 1].paragraph_ids


def _book_chapters(narrative: Narrative) -> list[tuple[int, str, int, int, str]]:
    numbers = [0] if chapter_paragraph_ids(narrative, 0) else []
    numbers += [c.number for c in narrative.chapters]
    rows = []
    for number in numbers:
        ids = chapter_paragraph_ids(narrative, number)
        text = "\n\n".join(narrative.paragraphs[i].text for i in ids)
        title = narrative.chapters[number - 1].title if number else "(front matter)"
        rows.append((number, title, ids.start, ids.stop - 1, hashlib.sha256(text.encode("utf-8")).hexdigest()))
    return rows


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _slot_key(edge: Edge) -> str:
    return json.dumps(edge.slot, ensure_ascii=False)


class NarrativeStore:
    """The world model of one book. Open with ``NarrativeStore.for_narrative(narrative)`` (the
    data dir) or ``NarrativeStore(path, narrative)``; use as a context manager to close it."""

    def __init__(self, path: str | Path, narrative: Narrative | None = None) -> None:
        self.path = Path(path)
        if narrative is None and not self.path.exists():
            raise StoreError(f"{self.path}: no world-model store here")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.executescript(_SCHEMA)
            version = self._meta("schema_version")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a readable world-model store ({exc})") from exc
        if version is None:
            self._db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
        elif version != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: store schema version {version}, this ClueWeaver reads {SCHEMA_VERSION}")
        self.invalidated: list[int] = []
        if narrative is not None:
            self.invalidated = self.bind(narrative)

    @classmethod
    def for_narrative(cls, narrative: Narrative, data_dir: str | Path | None = None) -> "NarrativeStore":
        """The book's store in the data dir. When the book file was edited (a new content hash)
        and a store of the same file exists, it is carried over: records of unchanged chapters
        are kept (with paragraph IDs moved) and edited chapters become stale."""
        data_dir = Path(data_dir) if data_dir else default_data_dir()
        path = data_dir / f"{narrative.book_id}.sqlite"
        if not path.exists():
            predecessor = _predecessor(data_dir, narrative)
            if predecessor is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                with closing(sqlite3.connect(predecessor)) as src, closing(sqlite3.connect(path)) as dst:
                    src.backup(dst)
        return cls(path, narrative)

    @classmethod
    def existing(cls, narrative: Narrative, data_dir: str | Path | None = None) -> "NarrativeStore | None":
        """The book's store when one was built (for this text, or for an earlier text of the same
        file, carried over as ``for_narrative`` does); None when there is none. A reader asking
        for the world model must not leave an empty store behind."""
        data_dir = Path(data_dir) if data_dir else default_data_dir()
        if not (data_dir / f"{narrative.book_id}.sqlite").exists() and _predecessor(data_dir, narrative) is None:
            return None
        return cls.for_narrative(narrative, data_dir)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "NarrativeStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- transactions and metadata ---------------------------------------------------------------

    @contextmanager
    def _transaction(self):
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @property
    def content_hash(self) -> str | None:
        return self._meta("content_hash")

    def bind(self, narrative: Narrative) -> list[int]:
        """Attach the store to this text of the book. When the text differs from the one the store
        was built on, chapters whose text changed lose their records and become stale, as do
        chapters whose records cited changed text; records of unchanged chapters follow their
        paragraphs to the new IDs; validity is recomputed. The same holds when the text is the
        same but its chapters are cut or numbered differently (an older chapter detector).
        Returns the chapters made stale."""
        new_rows = _book_chapters(narrative)
        old_rows = self._db.execute(
            "SELECT chapter, first_paragraph, last_paragraph, text_hash FROM book_chapters ORDER BY first_paragraph"
        ).fetchall()
        layout = [(number, first, last, text_hash) for number, _, first, last, text_hash in new_rows]
        if self.content_hash == narrative.content_hash and sorted(old_rows) == layout:
            return []
        new_by_chapter = {row[0]: row for row in new_rows}
        with self._transaction() as db:
            stale: set[int] = set()
            if old_rows:
                stale = self._carry_over(db, old_rows, new_by_chapter)
            source = str(Path(narrative.source).resolve()) if narrative.source else ""
            for key, value in (
                ("content_hash", narrative.content_hash),
                ("title", narrative.title),
                ("source", source),
                ("paragraphs", str(len(narrative.paragraphs))),
            ):
                db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
            db.execute("DELETE FROM book_chapters")
            db.executemany("INSERT INTO book_chapters VALUES (?, ?, ?, ?, ?)", new_rows)
        return sorted(stale)

    def _carry_over(self, db, old_rows, new_by_chapter) -> set[int]:
        changed = {
            chapter
            for chapter, _, _, text_hash in old_rows
            if chapter not in new_by_chapter or new_by_chapter[chapter][4] != text_hash
        }
        firsts = [row[1] for row in old_rows]

        def moved(paragraph_id: int) -> int | None:
            index = bisect.bisect_right(firsts, paragraph_id) - 1
            if index < 0:
                return None
            chapter, first, last, _ = old_rows[index]
            if chapter in changed or not first <= paragraph_id <= last:
                return None
            return paragraph_id + new_by_chapter[chapter][2] - first

        doomed, stale = [], {c for c in changed if self._is_published(c)}
        for stored in self._all_records(db):
            new_ids = [moved(i) for i in stored.record.evidence.paragraph_ids]
            if stored.record.chapter in changed or None in new_ids:
                doomed.append(stored.id)
                stale.add(stored.record.chapter)
            elif new_ids != list(stored.record.evidence.paragraph_ids):
                payload = stored.record.to_dict()
                payload["evidence"]["paragraph_ids"] = new_ids
                db.execute(
                    "UPDATE records SET payload = ?, last_evidence = ? WHERE id = ?",
                    (json.dumps(payload, ensure_ascii=False), max(new_ids), stored.id),
                )
        self._delete_records(db, doomed)
        for chapter in stale:
            db.execute(
                "UPDATE published SET status = 'stale', records = 0, updated_at = ? WHERE chapter = ?",
                (_now(), chapter),
            )
            db.execute("DELETE FROM records WHERE chapter = ?", (chapter,))  # a stale chapter is republished whole
        self._recompute_validity(db, None)
        return stale

    def _is_published(self, chapter: int) -> bool:
        return self._db.execute("SELECT 1 FROM published WHERE chapter = ?", (chapter,)).fetchone() is not None

    # -- writing ---------------------------------------------------------------------------------

    def replace_chapters(
        self, narrative: Narrative, records_by_chapter: dict[int, list[Record]], *, origin: str
    ) -> dict[int, int]:
        """Replace everything derived from these chapters by these records, in one transaction.

        Every record is validated against the book first (evidence exists, comes from chapters up
        to the record's, holds the quote); one bad record rejects the whole call. Validity of the
        edges in every slot touched (before or after) is recomputed, so downstream chapters see
        the new history. Returns the number of records per chapter.
        """
        if narrative.content_hash != self.content_hash:
            raise StoreError(f"{self.path}: bound to another text of the book; open the store with this narrative")
        known = {row[0] for row in self._db.execute("SELECT chapter FROM book_chapters")}
        for chapter, records in records_by_chapter.items():
            if chapter not in known:
                raise StoreError(f"{narrative.title}: no chapter {chapter} in the book (chapters: {sorted(known)})")
            for index, record in enumerate(records):
                if record.chapter != chapter:
                    raise WorldRecordError(f"chapter {chapter} record {index}: stamped with chapter {record.chapter}")
                check_grounding(record, narrative, path=f"chapter {chapter} record {index}")
        hashes = dict(self._db.execute("SELECT chapter, text_hash FROM book_chapters"))
        with self._transaction() as db:
            touched: set[str] = set()
            for chapter in records_by_chapter:
                old = [row[0] for row in db.execute("SELECT id FROM records WHERE chapter = ?", (chapter,))]
                touched |= self._delete_records(db, old)
            for chapter, records in sorted(records_by_chapter.items()):
                for record in records:
                    touched |= self._insert(db, record)
                db.execute(
                    "INSERT OR REPLACE INTO published VALUES (?, 'published', ?, ?, ?, ?)",
                    (chapter, origin, hashes[chapter], len(records), _now()),
                )
            self._recompute_validity(db, touched)
        return {chapter: len(records) for chapter, records in records_by_chapter.items()}

    def _insert(self, db, record: Record) -> set[str]:
        cursor = db.execute(
            "INSERT INTO records (chapter, kind, confidence, last_evidence, text, payload) VALUES (?, ?, ?, ?, ?, ?)",
            (
                record.chapter,
                record.KIND,
                record.confidence,
                max(record.evidence.paragraph_ids),
                record.text(),
                json.dumps(record.to_dict(), ensure_ascii=False),
            ),
        )
        record_id = cursor.lastrowid
        db.executemany(
            "INSERT OR IGNORE INTO record_keys VALUES (?, ?, ?)",
            [(record_id, registry, key) for registry, key in record.registry_keys()],
        )
        slots = set()
        for edge in project_edges(record, record_id):
            slots.add(_slot_key(edge))
            db.execute(
                "INSERT INTO edges (record_id, subject, relation, target, value, slot, valid_from, valid_to, "
                "confidence)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)",
                (
                    record_id,
                    edge.subject,
                    edge.relation,
                    edge.target,
                    edge.value,
                    _slot_key(edge),
                    edge.valid_from,
                    edge.confidence,
                ),
            )
        return slots

    def _delete_records(self, db, record_ids: list[int]) -> set[str]:
        slots = set()
        for start in range(0, len(record_ids), 500):
            chunk = record_ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            slots |= {row[0] for row in db.execute(f"SELECT slot FROM edges WHERE record_id IN ({marks})", chunk)}
            db.execute(f"DELETE FROM records WHERE id IN ({marks})", chunk)  # keys and edges cascade
        return slots

    def _recompute_validity(self, db, slots: set[str] | None) -> None:
        """Re-close the edges of these slots (all slots when None) from their current history."""
        if slots is None:
            batches = [("", [])]
        else:
            ordered = sorted(slots)
            batches = [
                (f"WHERE slot IN ({','.join('?' * len(chunk))})", chunk)
                for chunk in (ordered[i : i + 500] for i in range(0, len(ordered), 500))
            ]
        for where, args in batches:
            rows = db.execute(f"{_EDGE_SELECT} {where} ORDER BY valid_from, record_id, id", args).fetchall()
            closed = assign_validity([_edge(row) for row in rows])
            db.executemany(
                "UPDATE edges SET valid_to = ? WHERE id = ?", [(e.valid_to, row[0]) for e, row in zip(closed, rows)]
            )

    def import_jsonl(self, narrative: Narrative, path: str | Path) -> dict[int, int]:
        """Load records (one JSON object per line, each with its chapter). Every line is checked
        before anything is written; the chapters present in the file are replaced as a whole."""
        path = Path(path)
        if not path.exists():
            raise StoreError(f"{path}: no such file")
        by_chapter: dict[int, list[Record]] = {}
        with open(path, encoding="utf-8") as f:
            for line_no, line in enumerate(f, start=1):
                if not line.strip():
                    continue
                where = f"{path}, line {line_no}: record"
                try:
                    record = record_from_dict(json.loads(line), path=where)
                    check_grounding(record, narrative, path=where)
                except json.JSONDecodeError as exc:
                    raise StoreError(f"{path}, line {line_no}: not valid JSON ({exc.msg})") from exc
                except WorldRecordError as exc:
                    raise StoreError(str(exc)) from exc
                by_chapter.setdefault(record.chapter, []).append(record)
        if not by_chapter:
            raise StoreError(f"{path}: no records")
        try:
            return self.replace_chapters(narrative, by_chapter, origin=f"import:{path.name}")
        except WorldRecordError as exc:
            raise StoreError(f"{path}: {exc}") from exc

    def export_jsonl(self, path: str | Path) -> int:
        records = self._all_records(self._db)
        lines = (json.dumps(stored.record.to_dict(), ensure_ascii=False) + "\n" for stored in records)
        atomic_write(Path(path), lambda f: f.writelines(line.encode("utf-8") for line in lines))
        return len(records)

    # -- reading, always as of a chapter ---------------------------------------------------------

    def last_readable_paragraph(self, as_of: int) -> int:
        row = self._db.execute("SELECT max(last_paragraph) FROM book_chapters WHERE chapter <= ?", (as_of,)).fetchone()
        return -1 if row[0] is None else row[0]

    def records(
        self, as_of: int, *, kinds=None, registry: str | None = None, key: str | None = None
    ) -> list[StoredRecord]:
        """Records a reader at chapter ``as_of`` may see, in chapter order."""
        limit = self.last_readable_paragraph(as_of)
        sql = "SELECT r.id, r.payload FROM records r WHERE r.chapter <= ? AND r.last_evidence <= ?"
        args: list = [as_of, limit]
        if kinds:
            sql += f" AND r.kind IN ({','.join('?' * len(kinds))})"
            args += list(kinds)
        if registry is not None:
            sql += " AND r.id IN (SELECT record_id FROM record_keys WHERE registry = ? AND (? IS NULL OR key = ?))"
            args += [registry, key, key]
        rows = self._db.execute(sql + " ORDER BY r.chapter, r.id", args).fetchall()
        decoded = [
            StoredRecord(rid, record_from_dict(json.loads(payload), path=f"stored record {rid}"))
            for rid, payload in rows
        ]
        return [s for s in decoded if s.record.chapter <= as_of and max(s.record.evidence.paragraph_ids) <= limit]

    def edges(self, as_of: int, *, current: bool = False) -> list[Edge]:
        """Edges from chapters up to ``as_of`` (only those valid at ``as_of`` when ``current``)."""
        sql = f"{_EDGE_SELECT} WHERE valid_from <= ?"
        args: list = [as_of]
        if current:
            sql += " AND (valid_to IS NULL OR valid_to > ?)"
            args.append(as_of)
        rows = self._db.execute(sql + " ORDER BY valid_from, record_id, id", args).fetchall()
        return [e for e in map(_edge, rows) if e.valid_from <= as_of]

    def graph(self, as_of: int) -> TemporalGraph:
        return TemporalGraph(self.edges(as_of), as_of)

    def registries(self, as_of: int) -> Registries:
        return Registries(self.records(as_of))

    def record_vectors(self, record_ids: list[int], encoder: str) -> dict:
        wanted = set(record_ids)
        rows = self._db.execute("SELECT record_id, vector FROM record_vectors WHERE encoder = ?", (encoder,))
        return {rid: np.frombuffer(blob, dtype=np.float32) for rid, blob in rows if rid in wanted}

    def save_record_vectors(self, encoder: str, vectors: dict) -> None:
        with self._transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO record_vectors VALUES (?, ?, ?)",
                [(rid, encoder, np.asarray(v, dtype=np.float32).tobytes()) for rid, v in vectors.items()],
            )

    def chapters(self) -> list[ChapterStatus]:
        rows = self._db.execute("SELECT chapter, status, origin, records, updated_at FROM published ORDER BY chapter")
        return [ChapterStatus(*row) for row in rows]

    def book_chapter_numbers(self) -> list[int]:
        return [row[0] for row in self._db.execute("SELECT chapter FROM book_chapters ORDER BY chapter")]

    def _all_records(self, db) -> list[StoredRecord]:
        rows = db.execute("SELECT id, payload FROM records ORDER BY chapter, id").fetchall()
        return [
            StoredRecord(rid, record_from_dict(json.loads(payload), path=f"stored record {rid}"))
            for rid, payload in rows
        ]


_EDGE_SELECT = "SELECT id, subject, relation, target, value, valid_from, valid_to, confidence, record_id FROM edges"


def _edge(row) -> Edge:
    _, subject, relation, target, value, valid_from, valid_to, confidence, record_id = row
    return Edge(subject, relation, target, value, valid_from, valid_to, confidence, record_id)


def _predecessor(data_dir: Path, narrative: Narrative) -> Path | None:
    """The newest store in the data dir built on an earlier text of the same book file."""
    if not narrative.source or not data_dir.is_dir():
        return None
    source = str(Path(narrative.source).resolve())
    candidates = []
    for path in data_dir.glob("*.sqlite"):
        try:
            with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
                row = db.execute("SELECT value FROM meta WHERE key = 'source'").fetchone()
        except sqlite3.DatabaseError:
            continue
        if row and row[0] == source:
            candidates.append((path.stat().st_mtime, path))
    return max(candidates)[1] if candidates else None
