"""What computed a cached index entry: the source of the ClueWeaver modules that turn a paragraph into
terms (or a graph of names), and the versions of the libraries they read.

An entry is read back only by code with the same fingerprint, so an analyzer changed in a checkout, or a
stemmer upgraded, can never be measured against terms an older one wrote: a forgotten ``CACHE_FORMAT``
bump once gave stale recall numbers. ``CACHE_FORMAT`` still versions the files' layout.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from functools import cache
from importlib import metadata

from clueweaver.core.errors import ClueWeaverError

TERMS_CODE = "clueweaver.retrieval.lexical"  # the module that turns paragraphs into the cached term matrix
GRAPH_CODE = "clueweaver.retrieval.graph"  # the one that turns them into the cached graph of names

# The libraries whose data decide a term: stemmers and stop words, the Chinese and Japanese variant
# tables, the Japanese tokenizer and its dictionary.
TERM_LIBRARIES = ("PyStemmer", "bm25s", "opencc-python-reimplemented", "fugashi", "unidic-lite")


def _is_clueweaver_module(name: str) -> bool:
    if not (name == "clueweaver" or name.startswith("clueweaver.")):
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a function or constant imported from a module, not a submodule
        return False


def _imported(module: str) -> set[str]:
    """The names of the modules ``module``'s source imports, anywhere in it (a lazy import too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(_source(module))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)  # a submodule imported by name
    return names


def modules_behind(root: str) -> list[str]:
    """``root`` and every ClueWeaver module it imports, followed transitively, by name."""
    found: set[str] = set()
    pending = [root]
    while pending:
        name = pending.pop()
        if name not in found and _is_clueweaver_module(name):
            found.add(name)
            pending.extend(_imported(name))
    return sorted(found)


def _source(module: str) -> bytes:
    """The module's source (read through its loader, so a zipped install works too); a module installed
    without it counts by the ClueWeaver version alone."""
    source = importlib.util.find_spec(module).loader.get_source(module)
    return source.encode("utf-8") if source is not None else f"no source: clueweaver {_version('clueweaver')}".encode()


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"


@cache
def fingerprint(root: str) -> str:
    """A short digest of the source behind ``root`` (``modules_behind``) and of ``TERM_LIBRARIES``' versions."""
    digest = hashlib.sha256()
    for module in modules_behind(root):
        digest.update(module.encode() + b"\0" + _source(module) + b"\0")
    for library in TERM_LIBRARIES:
        digest.update(f"{library}=={_version(library)}\0".encode())
    return digest.hexdigest()[:16]


def index_fingerprints() -> dict[str, str]:
    """The fingerprints a cached index is read under, for a report to say what measured it."""
    return {"terms": fingerprint(TERMS_CODE), "graph": fingerprint(GRAPH_CODE)}


class OutdatedCacheEntry(ClueWeaverError, ValueError):
    """A cache entry written by other code than this: another file layout, analyzer or library version."""


def check_made_by(written: str, root: str) -> None:
    """Raise ``OutdatedCacheEntry`` unless ``written`` (an entry's recorded fingerprint) is ``root``'s here."""
    if written != fingerprint(root):
        raise OutdatedCacheEntry(
            f"was computed by other code (the modules behind {root.rsplit('.', 1)[-1]}, or "
            f"{', '.join(TERM_LIBRARIES)}, differ from this install's)"
        )
