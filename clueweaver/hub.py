"""The Hugging Face Hub side of training and export: the recipe file a checkpoint carries and
uploads of a folder to a model repository.

Both the trainer (a recipe per checkpoint, a Hub revision per checkpoint) and ``clueweaver export``
(the recipe in the exported folder, ``--push-to-hub``) use these, so they live apart from either.
"""

from __future__ import annotations

import json
from pathlib import Path

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
