"""The fingerprint of the code behind a cached index entry (clueweaver.retrieval.fingerprint): which
modules it covers, and that terms or a graph computed by other analyzer code are rebuilt, never read."""

from __future__ import annotations

import py_compile
import warnings

import numpy as np
import pytest

from clueweaver import __version__
from clueweaver.books.narrative import from_paragraphs
from clueweaver.measure.recall import bench_recall
from clueweaver.retrieval import build_index
from clueweaver.retrieval import fingerprint as fingerprints

PARAGRAPHS = [
    "Quillan hid the brass key in the green shawl.",
    "At dusk the miller of Marrowby counted his sacks while Quillan watched.",
    "The gulls circled the boats in the harbour.",
]
ANALYZERS = "clueweaver.retrieval.analyzers"


def _edit_the_analyzers(monkeypatch):
    """As if a comment were added to the analyzers' source."""
    source = fingerprints._source
    monkeypatch.setattr(fingerprints, "_source", lambda name: source(name) + (b"#" if name == ANALYZERS else b""))
    fingerprints.fingerprint.cache_clear()


@pytest.fixture
def fresh_fingerprints():
    fingerprints.fingerprint.cache_clear()
    yield
    fingerprints.fingerprint.cache_clear()  # a test's patched source never outlives it


def test_the_terms_fingerprint_covers_every_module_that_turns_text_into_terms():
    behind = set(fingerprints.modules_behind(fingerprints.TERMS_CODE))
    assert {
        ANALYZERS,
        "clueweaver.retrieval.compounds",
        "clueweaver.retrieval.morphology",
        "clueweaver.books.language",
        "clueweaver.books.numerals",
        "clueweaver.books.ordinals",
    } <= behind
    assert "clueweaver.retrieval.index" not in behind  # ranking code changes no cached term
    graph = set(fingerprints.modules_behind(fingerprints.GRAPH_CODE))
    assert {ANALYZERS, "clueweaver.retrieval.ranking"} <= graph  # the graph reads ranking's name patterns


def test_a_changed_module_or_library_version_changes_the_fingerprint(monkeypatch, fresh_fingerprints):
    root = fingerprints.TERMS_CODE
    before = fingerprints.fingerprint(root)
    assert before == fingerprints.fingerprint(root)
    _edit_the_analyzers(monkeypatch)
    edited = fingerprints.fingerprint(root)
    monkeypatch.setattr(fingerprints, "_version", lambda distribution: "0.0")
    fingerprints.fingerprint.cache_clear()
    assert len({before, edited, fingerprints.fingerprint(root)}) == 3


def _made_by(path) -> str:
    with np.load(path) as entry:
        return str(entry["made_by"])


ENTRIES = [
    ("bm25_terms_en.npz", fingerprints.TERMS_CODE, {}),
    ("graph_en.npz", fingerprints.GRAPH_CODE, {"graph_weight": 1.0}),
]


@pytest.mark.parametrize("cached, root, options", ENTRIES)
def test_an_entry_computed_by_other_analyzer_code_is_rebuilt_with_a_plain_message(
    tmp_path, monkeypatch, fresh_fingerprints, cached, root, options
):
    narrative = from_paragraphs(PARAGRAPHS, title="fingerprint", detect_headings=False)
    first = build_index(narrative, None, cache_dir=tmp_path, **options)
    [path] = tmp_path.rglob(cached)
    assert _made_by(path) == fingerprints.fingerprint(root)
    _edit_the_analyzers(monkeypatch)
    with pytest.warns(UserWarning, match=r"was computed by other code .*; rebuilding it once"):
        again = build_index(narrative, None, cache_dir=tmp_path, **options)
    assert again.bm25.matrix.vocabulary == first.bm25.matrix.vocabulary
    assert _made_by(path) == fingerprints.fingerprint(root)  # written again, by this code
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # read back without a word
        build_index(narrative, None, cache_dir=tmp_path, **options)


def test_a_recall_report_names_the_code_that_measured_it():
    payload, _ = bench_recall(presets=("focused",), sets=("cross-fr-tuning",), progress=False)
    assert payload["measured_by"] == {"clueweaver": __version__, **fingerprints.index_fingerprints()}
    assert payload["measured_by"]["terms"] != payload["measured_by"]["graph"]
    assert [row["items"] for row in payload["results"]] == [4]


def test_a_module_installed_without_its_source_counts_by_the_clueweaver_version(tmp_path, monkeypatch):
    (tmp_path / "sourceless_probe.py").write_text("VALUE = 1\n")
    py_compile.compile(str(tmp_path / "sourceless_probe.py"), cfile=str(tmp_path / "sourceless_probe.pyc"))
    (tmp_path / "sourceless_probe.py").unlink()  # as a compile-all install ships it
    monkeypatch.syspath_prepend(str(tmp_path))
    assert fingerprints._source("sourceless_probe") == f"no source: clueweaver {__version__}".encode()
    assert b"def modules_behind" in fingerprints._source(fingerprints.__name__)
