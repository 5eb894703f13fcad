"""Trainer callbacks run at every checkpoint: the recipe and reward design saved beside it
(``clueweaver_training.json``, read by ``clueweaver export``), and optionally its model files pushed
to their own Hub revision in the background."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from clueweaver.training.hub import BackgroundPusher, HubUploadError, write_recipe

# Checkpoint files that only matter for resuming; a pushed revision leaves them out.
RESUME_ONLY_FILES = ["optimizer.pt", "scheduler.pt", "rng_state*.pth", "global_step*"]
# Under output_dir: snapshots of checkpoints waiting for their upload.
HUB_STAGING_DIR = ".hub-uploads"


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
    repo_id: str,
    *,
    private: bool | None = None,
    token: str | None = None,
    endpoint: str | None = None,
    push: Callable[..., str] | None = None,
):
    """A callback that pushes each checkpoint's model files to revision ``step-NNNNNN`` of
    ``repo_id`` in the background (the optimizer state stays local; training does not wait). At
    the end of training it waits for the uploads; ``upload_failures`` then holds the error of any
    that failed (``train`` raises it once the final model is saved). ``push``: the upload function
    (``clueweaver.training.hub.push_folder``)."""
    from transformers import TrainerCallback

    class PushCheckpointRevision(TrainerCallback):
        upload_failures: HubUploadError | None = None
        pusher: BackgroundPusher | None = None

        def on_save(self, args, state, control, **kwargs):
            folder = _checkpoint_dir(args, state)
            if not (state.is_world_process_zero and folder.is_dir()):
                return
            if self.pusher is None:
                staging = Path(args.output_dir) / HUB_STAGING_DIR
                self.pusher = BackgroundPusher(
                    repo_id, staging, push=push, private=private, token=token, endpoint=endpoint
                )
            self.pusher.submit(
                folder,
                checkpoint_revision(state.global_step),
                ignore_patterns=RESUME_ONLY_FILES,
                commit_message=f"checkpoint at step {state.global_step}",
            )

        def on_train_end(self, args, state, control, **kwargs):
            if self.pusher is None:
                return
            try:
                self.pusher.wait()
            except HubUploadError as exc:
                self.upload_failures = exc

    return PushCheckpointRevision()


def checkpoint_revision(step: int) -> str:
    """The Hub branch of the checkpoint at ``step``: sorts in step order."""
    return f"step-{step:06d}"
