"""Shared fixtures. Tests that read the public benchmark data skip when ../shared/data is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from clueweaver.benchmarks import shared_data_dir

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = shared_data_dir()


def shared_path(*parts: str) -> Path:
    """A path under the shared data folder, or a skip when it is not on this machine."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared benchmark data not found at {path}")
    return path


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory):
    """Keep index caches of tests out of the user's ~/.cache: for the whole session, so that the
    module-scoped fixtures that build indexes (the recall bars') are kept out too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CLUEWEAVER_CACHE", str(tmp_path_factory.getbasetemp() / "clueweaver-cache"))
        yield


@pytest.fixture(scope="session")
def tiny_qwen3_path(tmp_path_factory) -> Path:
    """A tiny random Qwen3 checkpoint folder with the real Qwen3 tokenizer, built once per session."""
    from clueweaver.backends.stand_ins import build_tiny_qwen3

    return build_tiny_qwen3(tmp_path_factory.getbasetemp() / "tiny-qwen3")
