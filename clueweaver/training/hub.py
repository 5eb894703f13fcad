"""The Hugging Face Hub side of training and export: the recipe file a checkpoint carries and
uploads of a folder to a model repository.

Both the trainer (a recipe per checkpoint, a Hub revision per checkpoint, pushed in the background
by ``BackgroundPusher``) and ``clueweaver export`` (the recipe in the exported folder,
``--push-to-hub``) use these, so they live apart from either. ``base_model_identity`` finds the base
model's Hub id and license for the model card.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import yaml

from clueweaver.core.errors import ClueWeaverError

logger = logging.getLogger(__name__)

# What a checkpoint was trained with (base model, agent, data, rewards, hyperparameters), saved
# beside its weights; the export's model card is built from it.
RECIPE_FILE = "clueweaver_training.json"


def write_recipe(folder: str | Path, recipe: dict) -> Path:
    path = Path(folder) / RECIPE_FILE
    path.write_text(json.dumps(recipe, indent=2, default=str, ensure_ascii=False), encoding="utf-8")
    return path


def push_folder(
    folder: str | Path,
    repo_id: str,
    *,
    private: bool | None = None,
    revision: str | None = None,
    token: str | None = None,
    endpoint: str | None = None,
    ignore_patterns: list[str] | None = None,
    commit_message: str = "Upload ClueWeaver agent",
) -> str:
    """Upload ``folder`` to the model repository ``repo_id`` (created if needed; ``revision``, a
    branch, too); returns the commit URL."""
    from huggingface_hub import HfApi

    api = HfApi(endpoint=endpoint, token=token)
    api.create_repo(repo_id, private=private, repo_type="model", exist_ok=True)
    if revision:
        api.create_branch(repo_id, branch=revision, repo_type="model", exist_ok=True)
    info = api.upload_folder(
        repo_id=repo_id,
        folder_path=str(folder),
        repo_type="model",
        revision=revision,
        commit_message=commit_message,
        ignore_patterns=ignore_patterns,
    )
    return info.commit_url


class HubUploadError(ClueWeaverError, RuntimeError):
    """Uploads that failed; the message names each revision and the reason."""


class BackgroundPusher:
    """Pushes folders to revisions of one Hub repository from a background thread, one at a time
    in the order given, so training never waits for an upload. Each folder is snapshotted first
    (hard links under ``staging_dir``, copies where links are impossible), so a checkpoint the
    trainer rotates away meanwhile is still uploaded whole. ``wait`` blocks until every upload has
    finished and raises ``HubUploadError`` naming the ones that failed."""

    def __init__(self, repo_id: str, staging_dir: str | Path, *, push: Callable[..., str] | None = None, **options):
        self.repo_id, self.staging_dir, self.options = repo_id, Path(staging_dir), options
        self._push = push or push_folder
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hub-push")
        self._uploads: list[tuple[str, Future]] = []

    def submit(self, folder: str | Path, revision: str, **upload_options) -> Future:
        """Snapshot ``folder`` now and upload it to ``revision`` in the background."""
        snapshot = _snapshot(Path(folder), self.staging_dir / revision)
        future = self._executor.submit(self._upload, snapshot, revision, upload_options)
        self._uploads.append((revision, future))
        return future

    def _upload(self, snapshot: Path, revision: str, upload_options: dict) -> str:
        try:
            url = self._push(snapshot, self.repo_id, revision=revision, **self.options, **upload_options)
            logger.info("pushed %s to %s", revision, url)
            return url
        except Exception as exc:  # reported by wait(); logged now so a long run shows it at once
            logger.error("pushing %s to %s failed: %s", revision, self.repo_id, exc)
            raise
        finally:
            shutil.rmtree(snapshot, ignore_errors=True)

    def wait(self) -> list[str]:
        """The commit URL of every upload, once all are done."""
        failed, urls = [], []
        for revision, future in self._uploads:
            try:
                urls.append(future.result())
            except Exception as exc:
                failed.append(f"{revision}: {exc}")
        if failed:
            raise HubUploadError(f"uploads to {self.repo_id} failed: " + "; ".join(failed))
        return urls


def _snapshot(folder: Path, target: Path) -> Path:
    """A copy of ``folder`` at ``target`` made of hard links (copies where linking fails)."""
    shutil.rmtree(target, ignore_errors=True)
    for path in folder.rglob("*"):
        if path.is_file():
            destination = target / path.relative_to(folder)
            destination.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, destination)
            except OSError:  # another file system, or links not allowed: same bytes, slower
                shutil.copy2(path, destination)
    return target


_HUB_ID = re.compile(r"[\w.-]+/[\w.-]+")
_CACHE_SNAPSHOT = re.compile(r"models--([\w.-]+?)--([\w.-]+)/snapshots/")


def base_model_identity(model: str, hub_id: str | None = None, license: str | None = None) -> dict:
    """``{"hub_id", "license"}`` of a base model for its model card: as given, else found from
    ``model``: a Hub id, or a folder of the Hugging Face cache (``models--ORG--NAME/snapshots/...``);
    the license from the front matter of its README (the folder's, or the Hub id's cached one).
    Either is None when it cannot be found here (no Hub at run time). An existing folder outside the
    cache has no Hub id even when its path reads like one (``models/qwen3-local``): a card must never
    name a local path as its base model."""
    path = Path(model).expanduser()
    if hub_id is None:
        hub_id = _cached_hub_id(path) if path.exists() else (model if _HUB_ID.fullmatch(model) else None)
    if license is None:
        license = _readme_license(path / "README.md" if path.is_dir() else _cached_readme(hub_id))
    return {"hub_id": hub_id, "license": license}


def _cached_hub_id(path: Path) -> str | None:
    """``ORG/NAME`` of a Hugging Face cache snapshot folder, else None."""
    cached = _CACHE_SNAPSHOT.search(path.resolve().as_posix() + "/")
    return "/".join(cached.groups()) if cached else None


def _cached_readme(hub_id: str | None) -> Path | None:
    if hub_id is None:
        return None
    from huggingface_hub import try_to_load_from_cache

    found = try_to_load_from_cache(hub_id, "README.md")
    return Path(found) if isinstance(found, str) else None


def _readme_license(readme: Path | None) -> str | None:
    """The ``license`` of a model README's YAML front matter."""
    if readme is None or not readme.is_file():
        return None
    text = readme.read_text(encoding="utf-8", errors="replace")
    if not text.startswith("---"):
        return None
    front, _, _ = text[3:].partition("\n---")
    try:
        meta = yaml.safe_load(front)
    except yaml.YAMLError:
        return None
    value = meta.get("license") if isinstance(meta, dict) else None
    return str(value) if value else None
