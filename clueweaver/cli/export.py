"""``clueweaver export``: a training checkpoint as a Hub-ready model folder (safetensors,
tokenizer, model card), optionally pushed to the Hub."""

from __future__ import annotations

import json

from clueweaver.cli.common import print_json
from clueweaver.core.errors import UsageError
from clueweaver.training.export import export_checkpoint
from clueweaver.training.hub import push_folder


def add_export(sub) -> None:
    p = sub.add_parser(
        "export",
        help=(
            "turn a training checkpoint into a Hub-ready model folder (safetensors, tokenizer, card); optionally "
            "push it"
        ),
    )
    p.add_argument(
        "checkpoint", help="a checkpoint folder written by train/finder_grpo.py or train/interpreter_grpo.py"
    )
    p.add_argument("out", help="the folder to write (must be empty or absent)")
    p.add_argument("--merge-lora", action="store_true", help="merge a LoRA checkpoint into its base model")
    p.add_argument("--base-model", help="the base model of a LoRA checkpoint (default: the one it records)")
    p.add_argument(
        "--base-model-id", help="the base model's Hub id for the card (default: the one training recorded or found)"
    )
    p.add_argument("--base-model-license", help="the base model's license for the card (default: the recorded one)")
    p.add_argument(
        "--eval-results",
        metavar="JSON",
        help="evaluation numbers for the model card ({name: value or {metric: value}})",
    )
    p.add_argument("--title", help="the model card's title")
    p.add_argument("--overwrite", action="store_true", help="replace a non-empty output folder")
    p.add_argument("--push-to-hub", metavar="REPO", help="upload the folder to this Hub model repository")
    p.add_argument("--revision", help="the branch to push to (created if needed; default main)")
    p.add_argument("--private", action="store_true", help="create the Hub repository private")
    p.set_defaults(run=run_export)


def run_export(args) -> int:
    eval_results = _eval_results(args.eval_results) if args.eval_results else None
    out = export_checkpoint(
        args.checkpoint,
        args.out,
        merge_lora=args.merge_lora,
        base_model=args.base_model,
        base_model_id=args.base_model_id,
        base_model_license=args.base_model_license,
        eval_results=eval_results,
        title=args.title,
        overwrite=args.overwrite,
    )
    summary = {"exported": str(out), "files": sorted(p.name for p in out.iterdir())}
    if args.push_to_hub:
        summary["pushed"] = push_folder(out, args.push_to_hub, private=args.private or None, revision=args.revision)
    print_json(summary)
    return 0


def _eval_results(path: str) -> dict:
    """The ``--eval-results`` file: a JSON object of name -> value."""
    try:
        with open(path, encoding="utf-8") as f:
            eval_results = json.load(f)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--eval-results {path}: not JSON ({exc.msg})") from None
    if not isinstance(eval_results, dict):
        raise UsageError(f"--eval-results {path}: expected a JSON object of name -> value")
    return eval_results
