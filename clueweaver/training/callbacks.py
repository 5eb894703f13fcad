"""Trainer callbacks run at every checkpoint: the recipe and reward design saved beside it
(``clueweaver_training.json``, read by ``clueweaver export``), and optionally its model files pushed
to their own Hub revision."""

from __future__ import annotations

import logging
from pathlib import Path

from clueweaver.hub import push_folder, write_recipe

logger = logging.getLogger(__name__)

# Checkpoint files that only matter for resuming; a pushed revision leaves them out.
RESUME_ONLY_FILES = ["optimizer.pt", "scheduler.pt", "rng_state*.pth", "global_step*"]


def _checkpoint_dir(args, state) -> Path:
    from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

    return Path(args.output_dir) / f"{PREFIX_CHECKPOINT_DIR}-{state.global_step}"


def recipe_callback(recipe: dict):
    """A callback that writes the recipe beside every checkpoint, so each one documents itself."""
    from transformers import TrainerCallback

    class SaveRecipe(TrainerCallback):
        def on_save(self, args, state, control, **kwargs):
            folder = _checkpoint_dir(args, state)
            if state.is_world_process_zero and folder.is_dir():
                write_recipe(folder, recipe)

    return SaveRecipe()


def hub_revision_callback(
    repo_id: str, *, private: bool | None = None, token: str | None = None, endpoint: str | None = None
):
    """A callback that pushes each checkpoint's model files to revision ``step-NNNNNN`` of
    ``repo_id`` (the optimizer state stays local)."""
    from transformers import TrainerCallback

    class PushCheckpointRevision(TrainerCallback):
        def on_save(self, args, state, control, **kwargs):
            folder = _checkpoint_dir(args, state)
            if not (state.is_world_process_zero and folder.is_dir()):
                return
            revision = checkpoint_revision(state.global_step)
            url = push_folder(
                folder,
                repo_id,
                private=private,
                revision=revision,
                token=token,
                endpoint=endpoint,
                ignore_patterns=RESUME_ONLY_FILES,
                commit_message=f"checkpoint at step {state.global_step}",
            )
            logger.info("pushed %s to %s", folder, url)

    return PushCheckpointRevision()


def checkpoint_revision(step: int) -> str:
    """The Hub branch of the checkpoint at ``step``: sorts in step order."""
    return f"step-{step:06d}"
