"""A deterministic test double for the pipeline, NWM and server tests: no model, scripted replies.

Replies are chosen by rule: ``script`` is either a callable ``(messages, adapter) -> str`` or a list
of ``(regex, reply)`` pairs tried in order against the conversation's text (all message contents
joined by newlines); ``reply`` is a string or a callable ``(messages) -> str``; ``default`` answers
when nothing matches. Tokens are whitespace-separated words, so ``max_new_tokens``, the window check
and token counts behave like a real backend's. Every ``generate`` call is recorded in ``calls``,
which lets tests assert, e.g., that all Finder segments went out in ONE batched call.

It is a stand-in (``GenerationBackend.stand_in``): a stage that needs a model's judgment, not
only the agents' format, refuses it. A test that scripts that stage's replies says so with
``plays_model=True``; the backend then passes for the model it is named after (named after the
offline smoke model, it is refused as that model is).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from clueweaver.backends.base import (
    FINISH_LENGTH,
    FINISH_STOP,
    Conversation,
    Generation,
    GenerationBackend,
    SamplingConfig,
    trim_at_stop,
)
from clueweaver.backends.registry import BackendSpec, register_backend

Reply = str | Callable[[Conversation], str]
Script = Callable[[Conversation, str | None], str] | Sequence[tuple[str, Reply]]


@dataclass(frozen=True)
class ScriptedCall:
    conversations: list[Conversation]
    sampling: SamplingConfig
    adapter: str | None


class ScriptedBackend(GenerationBackend):
    kind = "scripted"

    def __init__(
        self,
        model: str = "scripted",
        *,
        script: Script | None = None,
        default: Reply = "",
        adapters: Sequence[str] = (),
        max_model_len: int = 32768,
        plays_model: bool = False,
    ) -> None:
        self.model = model
        self.plays_model = plays_model
        self._rules = [] if script is None or callable(script) else [(re.compile(p), r) for p, r in script]
        self._script = script if callable(script) else None
        self._default = default
        self._adapter_names = tuple(adapters)
        self._max_model_len = max_model_len
        self.calls: list[ScriptedCall] = []

    @property
    def stand_in(self) -> str | None:
        return (
            super().stand_in if self.plays_model else "the scripted test double (no model: a test writes its replies)"
        )

    @staticmethod
    def _text(messages: Conversation) -> str:
        return "\n".join(message["content"] for message in messages)

    def _prepare(self, messages: Conversation) -> list[str]:
        return self._text(messages).split()

    def _reply(self, messages: Conversation, adapter: str | None) -> str:
        if self._script is not None:
            return self._script(messages, adapter)
        text = self._text(messages)
        reply = next((reply for pattern, reply in self._rules if pattern.search(text)), self._default)
        return reply(messages) if callable(reply) else reply

    def generate(self, conversations, sampling=None, *, adapter=None) -> list[Generation]:
        results = super().generate(conversations, sampling, adapter=adapter)
        self.calls.append(ScriptedCall([list(m) for m in conversations], sampling or SamplingConfig(), adapter))
        return results

    def _generate(self, conversations, prompts, sampling: SamplingConfig, adapter: str | None) -> list[Generation]:
        results = []
        for messages, words in zip(conversations, prompts):
            text, _ = trim_at_stop(self._reply(messages, adapter), sampling.stop)
            reply = text.split()
            if len(reply) > sampling.max_new_tokens:
                kept = " ".join(reply[: sampling.max_new_tokens])
                results.append(Generation(kept, len(words), sampling.max_new_tokens, FINISH_LENGTH))
            else:
                results.append(Generation(text, len(words), len(reply), FINISH_STOP))
        return results


# a test double: no model to check, adapters are names; not offered on the command line
register_backend(BackendSpec("scripted", ScriptedBackend, serves_by_name=True, on_command_line=False))
