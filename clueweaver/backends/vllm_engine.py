"""The vLLM offline engine: paged attention, prefix caching, multi-LoRA, constrained decoding.

Prompts are rendered and tokenized here (``clueweaver.backends.prompting``) and handed to vLLM as
token IDs, so every backend sees the same prompt, token counts are exact, and over-long prompts are
caught before they reach the engine. Finder calls share the system prompt and question, which is
what prefix caching reuses. When both agents are LoRA adapters of one base model, one engine serves
both (``enable_lora``; one ``LoRARequest`` per adapter name, chosen per call).

vLLM is imported only when this backend is built; it cannot run on machines without a GPU.
Structured outputs use the current API (``SamplingParams(structured_outputs=StructuredOutputsParams
(regex=...))``, or ``json=`` a schema); the pre-0.12 names (``guided_decoding``, ``GuidedDecodingParams``)
are gone, and a vLLM without the new name raises instead of decoding unconstrained.
"""

from __future__ import annotations

from clueweaver.backends.base import (
    FINISH_LENGTH,
    FINISH_STOP,
    BackendError,
    Conversation,
    Generation,
    GenerationBackend,
    SamplingConfig,
    adapter_config,
    check_model_source,
    release_accelerator_memory,
)
from clueweaver.backends.prompting import encode_prompt, load_tokenizer, resolve_chat_format
from clueweaver.backends.registry import TOKENIZER_OPTION, BackendSpec, register_backend

# Ranks vLLM allocates LoRA slots for; the engine needs one at least as large as every adapter's.
_LORA_RANKS = (8, 16, 32, 64, 128, 256, 320, 512)


def _lora_slot_rank(ranks: list[int]) -> int:
    needed = max(ranks)
    for rank in _LORA_RANKS:
        if rank >= needed:
            return rank
    raise BackendError(f"vllm backend: LoRA rank {needed} is larger than vLLM supports ({_LORA_RANKS[-1]})")


def vllm_sampling_params(sampling: SamplingConfig):
    """``vllm.SamplingParams`` for a ``SamplingConfig``, the output constraint under its current name."""
    from vllm import SamplingParams

    options = {
        "temperature": sampling.temperature,
        "top_p": sampling.top_p,
        "top_k": sampling.top_k or -1,  # -1 disables top-k in every vLLM version; 0 only in newer ones
        "max_tokens": sampling.max_new_tokens,
        "seed": sampling.seed,
        "stop": list(sampling.stop) or None,
    }
    if sampling.ignore_eos:
        options["ignore_eos"] = True
    if sampling.output_regex or sampling.json_schema is not None:
        try:
            from vllm.sampling_params import StructuredOutputsParams
        except ImportError as exc:
            raise BackendError(
                "vllm backend: this vLLM has no StructuredOutputsParams (the structured-output API of "
                "vLLM >= 0.12; older names are ignored, which would decode unconstrained); install "
                "'clueweaver[vllm]'"
            ) from exc
        if sampling.json_schema is not None:
            options["structured_outputs"] = StructuredOutputsParams(json=sampling.output_json_schema)
        else:
            options["structured_outputs"] = StructuredOutputsParams(regex=sampling.output_regex)
    return SamplingParams(**options)


class VLLMBackend(GenerationBackend):
    """Options:
    - ``adapters``: ``{name: path}`` of LoRA adapters served over this base model (multi-LoRA);
    - ``max_model_len``, ``gpu_memory_utilization``, ``dtype``, ``tensor_parallel_size``, ``seed``;
    - ``enable_prefix_caching`` (on by default), ``max_lora_rank`` (default: from the adapters);
    - ``enable_sleep_mode``: allow ``offload``/``restore`` (two models taking turns on one GPU);
    - ``tokenizer``: a tokenizer folder or id when it differs from ``model``;
    - ``chat_format``: ``auto`` | ``template`` | ``plain``;
    - ``engine_options``: any further ``vllm.LLM`` keyword arguments.
    """

    kind = "vllm"

    def __init__(
        self,
        model: str,
        *,
        adapters: dict[str, str] | None = None,
        tokenizer: str | None = None,
        max_model_len: int | None = None,
        gpu_memory_utilization: float = 0.85,
        dtype: str = "auto",
        tensor_parallel_size: int = 1,
        enable_prefix_caching: bool = True,
        max_lora_rank: int | None = None,
        seed: int = 0,
        chat_format: str = "auto",
        enable_sleep_mode: bool = False,
        engine_options: dict | None = None,
    ) -> None:
        try:
            from vllm import LLM
            from vllm.lora.request import LoRARequest
        except ImportError as exc:
            raise BackendError(
                f"vllm backend: vLLM is not installed ({exc}); install 'clueweaver[vllm]' on a GPU machine"
            ) from exc
        if not 0 < gpu_memory_utilization <= 1:
            raise ValueError(f"vllm backend: gpu_memory_utilization must be in (0, 1], got {gpu_memory_utilization}")
        self.model = model
        check_model_source(model)
        self.tokenizer = load_tokenizer(tokenizer or model)
        self.chat_format = resolve_chat_format(self.tokenizer, chat_format)
        adapters = dict(adapters or {})
        options = {
            "model": model,
            "tokenizer": tokenizer or model,
            "dtype": dtype,
            "gpu_memory_utilization": gpu_memory_utilization,
            "tensor_parallel_size": tensor_parallel_size,
            "enable_prefix_caching": enable_prefix_caching,
            "seed": seed,
        }
        if enable_sleep_mode:
            options["enable_sleep_mode"] = True
        if max_model_len is not None:
            options["max_model_len"] = max_model_len
        if adapters:
            ranks = [int(adapter_config(name, path).get("r", 8)) for name, path in adapters.items()]
            max_lora_rank = max_lora_rank or _lora_slot_rank(ranks)
            options.update(enable_lora=True, max_loras=len(adapters), max_lora_rank=max_lora_rank)
        options.update(engine_options or {})
        self.engine_options = options
        self._llm = LLM(**options)
        self._lora_requests = {
            name: LoRARequest(lora_name=name, lora_int_id=number, lora_path=str(path))
            for number, (name, path) in enumerate(adapters.items(), start=1)
        }
        self._adapter_names = tuple(self._lora_requests)
        self._max_model_len = max_model_len or self._engine_window()
        self._asleep = False

    def _engine_window(self) -> int:
        """The window vLLM settled on (it may cap the model's own)."""
        try:
            return int(self._llm.llm_engine.model_config.max_model_len)
        except AttributeError:
            from transformers import AutoConfig

            return int(AutoConfig.from_pretrained(self.model).max_position_embeddings)

    def _prepare(self, messages: Conversation) -> list[int]:
        return encode_prompt(self.tokenizer, messages, self.chat_format)

    def _generate(
        self, conversations, prompts: list[list[int]], sampling: SamplingConfig, adapter: str | None
    ) -> list[Generation]:
        outputs = self._llm.generate(
            [{"prompt_token_ids": ids} for ids in prompts],
            vllm_sampling_params(sampling),
            use_tqdm=len(prompts) > 1,
            lora_request=self._lora_requests.get(adapter),
        )
        return [
            Generation(
                output.outputs[0].text,
                len(ids),
                len(output.outputs[0].token_ids),
                FINISH_LENGTH if output.outputs[0].finish_reason == "length" else FINISH_STOP,
            )
            for ids, output in zip(prompts, outputs)
        ]

    def offload(self) -> None:
        """vLLM sleep mode, level 1: weights to host memory, KV cache dropped (needs
        ``enable_sleep_mode``; waking takes about a second for a 4B model instead of a reload)."""
        if not self.engine_options.get("enable_sleep_mode"):
            raise BackendError("vllm backend: offloading needs sleep mode; load it with enable_sleep_mode: true")
        if not self._asleep:
            self._llm.reset_prefix_cache()  # the cached blocks are discarded with the KV cache
            self._llm.sleep(level=1)
            self._asleep = True

    def restore(self) -> None:
        if self._asleep:
            self._llm.wake_up()
            self._asleep = False

    def close(self) -> None:
        self._llm = None
        release_accelerator_memory()


# sleep mode is how an engine offloads its weights; concurrent items' calls are merged into its
# batches by the evaluation runner's GenerationEngine (clueweaver.backends.batching)
register_backend(
    BackendSpec(
        "vllm",
        VLLMBackend,
        options=(TOKENIZER_OPTION,),
        offload_options={"enable_sleep_mode": True},
        item_concurrency=16,
    )
)
