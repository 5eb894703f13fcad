"""OpenAI-compatible chat completions over HTTP: ``vllm serve``, llama.cpp's server, Ollama.

A batch becomes concurrent requests (at most ``max_concurrency`` in flight per ``generate`` call;
concurrent callers, such as ``eval --item-concurrency``, each add theirs), each with a timeout and
retried with exponential backoff on connection errors, timeouts, 429 and 5xx (honouring
``Retry-After``). A server that stays unreachable raises ``BackendError`` naming the URL.

Several servers (``base_url`` a list: ``--base-url`` given more than once): requests go to them
in turn, and a request that fails on one is retried on the next at once (the backoff waits only
once every server was tried), so a dead server costs one failed attempt, not the run. Which
server answered is written to the ``served_by`` list of the caller's context
(:func:`recording_servers`), which the evaluation runner puts into each item's record.

Server specifics, all optional: ``chat_template_kwargs`` (default ``{"enable_thinking": false}``,
honoured by vLLM and llama.cpp for Qwen3); ``structured_outputs: {"regex": ...}`` or
``{"json": schema}`` when the sampling config asks for it (vLLM >= 0.12; other servers ignore it);
``top_k`` (vLLM, llama.cpp). With
``vllm serve --lora-modules finder=PATH ...`` an adapter is served as its own model name, so
``adapter=`` becomes the request's ``model`` (declare the names with ``adapters=``).

Token counts come from the server's ``usage``. Counting before sending (``count_tokens``, window
checks) needs the model's tokenizer locally (``tokenizer=``); the window comes from
``max_model_len=`` or, for vLLM, from ``GET /models``.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar, copy_context

import httpx
from tqdm.auto import tqdm

from clueweaver.backends.base import (
    FINISH_LENGTH,
    FINISH_PROMPT_TOO_LONG,
    FINISH_STOP,
    BackendError,
    Conversation,
    Generation,
    GenerationBackend,
    SamplingConfig,
    logger,
)
from clueweaver.backends.prompting import encode_prompt, load_tokenizer, resolve_chat_format
from clueweaver.backends.registry import TOKENIZER_OPTION, BackendOption, BackendSpec, register_backend
from clueweaver.protocol.prompts import CHAT_TEMPLATE_KWARGS

RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504})
# How servers word "your prompt does not fit" in a 400 (vLLM, llama.cpp, OpenAI).
_TOO_LONG_HINTS = ("context length", "context window", "maximum context", "too long", "exceeds the available context")

# The servers that answered the calls of the current context, one entry per completion (see
# ``recording_servers``); None: nobody is listening.
served_by: ContextVar[list[str] | None] = ContextVar("clueweaver_served_by", default=None)


@contextmanager
def recording_servers() -> Iterator[list[str]]:
    """A list that collects the URL of the server answering each completion made in this context
    (and in the request threads it starts), so a caller can say which server served its item."""
    servers: list[str] = []
    token = served_by.set(servers)
    try:
        yield servers
    finally:
        served_by.reset(token)


class OpenAIBackend(GenerationBackend):
    """Options: ``base_url`` (ending in ``/v1``; a list spreads calls over several servers),
    ``api_key`` (default ``$OPENAI_API_KEY``), ``max_concurrency``, ``timeout`` (seconds per
    request), ``max_retries``, ``backoff`` (first delay, doubled per retry up to ``max_backoff``),
    ``max_model_len``, ``tokenizer``, ``chat_format`` (for local counting), ``chat_template_kwargs``,
    ``adapters`` (served names)."""

    kind = "openai"

    def __init__(
        self,
        model: str,
        *,
        base_url: str | list[str] | tuple[str, ...] = "http://127.0.0.1:8000/v1",
        api_key: str | None = None,
        max_concurrency: int = 8,
        timeout: float = 120.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        max_backoff: float = 16.0,
        max_model_len: int | None = None,
        tokenizer: str | None = None,
        chat_format: str = "auto",
        chat_template_kwargs: dict | None = CHAT_TEMPLATE_KWARGS,
        adapters: tuple[str, ...] | list[str] = (),
    ) -> None:
        if max_concurrency < 1 or max_retries < 0 or timeout <= 0:
            raise ValueError(
                f"openai backend: need max_concurrency >= 1, max_retries >= 0, timeout > 0; got "
                f"{max_concurrency}, {max_retries}, {timeout}"
            )
        urls = [base_url] if isinstance(base_url, str) else list(base_url)
        if not urls or not all(isinstance(url, str) and url for url in urls):
            raise ValueError(f"openai backend: base_url must be a URL or a list of URLs, got {base_url!r}")
        self.model = model
        self.base_urls = tuple(dict.fromkeys(url.rstrip("/") for url in urls))
        self.base_url = self.base_urls[0]
        self._turns = itertools.count()  # whose turn it is among the servers
        self._turns_lock = threading.Lock()
        self.max_concurrency = max_concurrency
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.chat_template_kwargs = dict(chat_template_kwargs) if chat_template_kwargs else None
        self._adapter_names = tuple(adapters)
        self._max_model_len = max_model_len
        self.tokenizer = _local_tokenizer(tokenizer) if tokenizer else None
        self.chat_format = resolve_chat_format(self.tokenizer, chat_format) if self.tokenizer else None
        api_key = api_key or os.environ.get("OPENAI_API_KEY")
        self._client = httpx.Client(
            timeout=timeout,
            headers={"Authorization": f"Bearer {api_key}"} if api_key else {},
            # no cap on connections: each generate call caps its own requests, and concurrent callers
            # (items evaluated together) must not queue for a connection behind one another
            limits=httpx.Limits(max_connections=None, max_keepalive_connections=max_concurrency * len(self.base_urls)),
        )

    @property
    def max_model_len(self) -> int:
        if self._max_model_len is None:
            self._max_model_len = self._served_window()
        return self._max_model_len

    def _served_window(self) -> int:
        """vLLM reports ``max_model_len`` per model in ``GET /models``; others do not."""
        response, url = self._request("GET", "/models")
        try:
            entries = response.json()["data"]
            return int(next(entry["max_model_len"] for entry in entries if entry.get("id") == self.model))
        except (ValueError, KeyError, TypeError, StopIteration):
            raise BackendError(
                f"openai backend: {url}/models does not report max_model_len for {self.model!r}; "
                "pass max_model_len= explicitly"
            ) from None

    def _prepare(self, messages: Conversation) -> list[int] | None:
        """Token IDs when a local tokenizer is given; otherwise the server is the judge of length."""
        return encode_prompt(self.tokenizer, messages, self.chat_format) if self.tokenizer else None

    def check_counting(self) -> None:
        if self.tokenizer is None:
            raise BackendError(
                f"openai backend for {self.model}: counting tokens locally needs the model's tokenizer; pass "
                "--tokenizer NAME|PATH (tokenizer= in Python): a local folder, or a Hugging Face id in the local cache"
            )

    def count_tokens(self, messages: Conversation) -> int:
        self.check_counting()
        return super().count_tokens(messages)

    def _generate(self, conversations, prompts, sampling: SamplingConfig, adapter: str | None) -> list[Generation]:
        def complete(index: int) -> Generation:
            body = self._request_body(conversations[index], sampling, adapter)
            return self._complete(body, len(prompts[index]) if prompts[index] is not None else 0)

        pool = ThreadPoolExecutor(max_workers=min(self.max_concurrency, len(conversations)))
        try:
            # each request in (a copy of) the caller's context, so the servers that answer are recorded for it
            caller = copy_context()
            completed = pool.map(lambda index: caller.copy().run(complete, index), range(len(conversations)))
            progress = {"desc": f"generate ({self.model})", "disable": len(conversations) < 2, "leave": False}
            return list(tqdm(completed, total=len(conversations), **progress))
        finally:
            pool.shutdown(cancel_futures=True)

    def _request_body(self, messages: Conversation, sampling: SamplingConfig, adapter: str | None) -> dict:
        body = {
            "model": adapter or self.model,
            "messages": list(messages),
            "max_tokens": sampling.max_new_tokens,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
        }
        if sampling.top_k:
            body["top_k"] = sampling.top_k
        if sampling.seed is not None:
            body["seed"] = sampling.seed
        if sampling.stop:
            body["stop"] = list(sampling.stop)
        if self.chat_template_kwargs:
            body["chat_template_kwargs"] = self.chat_template_kwargs
        if sampling.output_regex:
            body["structured_outputs"] = {"regex": sampling.output_regex}
        elif sampling.json_schema is not None:
            body["structured_outputs"] = {"json": sampling.output_json_schema}
        if sampling.ignore_eos:
            body["ignore_eos"] = True  # a vLLM extension; other servers ignore it
        return body

    def _complete(self, body: dict, local_prompt_tokens: int) -> Generation:
        response, server = self._request("POST", "/chat/completions", json=body)
        url = f"{server}/chat/completions"
        _note_server(server)
        if response.status_code == 400 and any(hint in response.text.lower() for hint in _TOO_LONG_HINTS):
            message = f"{self.model}: {url} rejected the prompt as too long: {response.text[:300]}"
            logger.warning(message)
            return Generation("", local_prompt_tokens, 0, FINISH_PROMPT_TOO_LONG, error=message)
        if response.status_code >= 400:
            raise BackendError(f"openai backend: {url} answered HTTP {response.status_code}: {response.text[:300]}")
        try:
            payload = response.json()
            choice = payload["choices"][0]
            text = choice["message"].get("content") or ""
            usage = payload.get("usage") or {}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise BackendError(
                f"openai backend: {url} sent a response that is not a chat completion: {response.text[:300]}"
            ) from None
        return Generation(
            text,
            int(usage.get("prompt_tokens", local_prompt_tokens)),
            int(usage.get("completion_tokens", 0)),
            FINISH_LENGTH if choice.get("finish_reason") == "length" else FINISH_STOP,
        )

    def _request(self, method: str, path: str, **options) -> tuple[httpx.Response, str]:
        """Send to the server whose turn it is, with retries on transient failures, each on the next
        server; (the response, the server that gave it), or BackendError naming what was tried."""
        with self._turns_lock:
            first = next(self._turns)
        servers = len(self.base_urls)
        last_problem, tried, attempts = "", [], max(self.max_retries + 1, servers)
        for attempt in range(attempts):
            server = self.base_urls[(first + attempt) % servers]
            url = f"{server}{path}"
            tried.append(url)
            wait = min(self.backoff * 2 ** (attempt // servers), self.max_backoff)
            try:
                response = self._client.request(method, url, **options)
            except httpx.TransportError as exc:
                last_problem = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code not in RETRY_STATUS:
                    return response, server
                last_problem = f"HTTP {response.status_code}: {response.text[:200]}"
                wait = max(wait, min(_retry_after(response), self.max_backoff))
            if attempt + 1 == attempts:
                break
            if (attempt + 1) % servers:
                logger.info("openai backend: %s %s failed (%s); trying the next server", method, url, last_problem)
            else:  # every server failed this round: back off before the next
                logger.info("openai backend: %s %s failed (%s); retrying in %.2fs", method, url, last_problem, wait)
                time.sleep(wait)
        where = " and ".join(dict.fromkeys(tried))
        raise BackendError(
            f"openai backend: {method} {where} failed after {len(tried)} attempts ({last_problem}); "
            "is the OpenAI-compatible server running at that address (e.g. `vllm serve MODEL`)?"
        )

    def close(self) -> None:
        self._client.close()


def _local_tokenizer(name_or_path: str):
    """The served model's tokenizer, loaded here; a name that cannot be loaded is a BackendError
    saying what to pass instead."""
    try:
        return load_tokenizer(name_or_path)
    except (OSError, ValueError) as exc:
        raise BackendError(
            f"openai backend: cannot load the tokenizer {name_or_path!r} ({type(exc).__name__}: {str(exc)[:200]}); "
            "pass --tokenizer a local folder with the served model's tokenizer files, or a Hugging Face id in the "
            "local cache"
        ) from None


def _note_server(server: str) -> None:
    servers = served_by.get()
    if servers is not None:
        servers.append(server)  # list.append is atomic: request threads of one item may share the list


def _retry_after(response) -> float:
    try:
        return max(float(response.headers.get("retry-after", 0)), 0.0)
    except ValueError:
        return 0.0


register_backend(
    BackendSpec(
        "openai",
        OpenAIBackend,
        options=(
            BackendOption(
                "base_url",
                "the server's URL ending in /v1 (default http://127.0.0.1:8000/v1); give it once per server to spread "
                "the calls over several (a failing one is retried on the next)",
                repeatable=True,
            ),
            TOKENIZER_OPTION,
        ),
        serves_by_name=True,
        item_concurrency=16,  # a server batches concurrent requests itself; 16 keeps one vLLM server busy
    )
)
