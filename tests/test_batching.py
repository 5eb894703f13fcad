"""The shared generation engine: concurrent callers' requests merged into one call, each caller
getting exactly its own results, errors kept to their caller, sequential model swaps."""

from __future__ import annotations

import threading
import time

import pytest

from clueweaver.backends import BackendError, SamplingConfig
from clueweaver.backends.batching import GenerationEngine, engine_tag
from clueweaver.backends.scripted import ScriptedBackend


class SlowEcho(ScriptedBackend):
    """Replies with the conversation's text; each call takes ``delay`` seconds, as a model would,
    so that requests pile up while the engine is busy. Records offload/restore for sequential mode."""

    def __init__(self, model="echo", *, delay=0.05, log=None, **options):
        super().__init__(
            model, script=lambda messages, adapter: f"{adapter or 'base'}:{messages[-1]['content']}", **options
        )
        self.delay = delay
        self.log = log if log is not None else []

    def generate(self, conversations, sampling=None, *, adapter=None):
        self.log.append(("generate", self.model, len(conversations)))
        time.sleep(self.delay)
        return super().generate(conversations, sampling, adapter=adapter)

    def offload(self):
        self.log.append(("offload", self.model))

    def restore(self):
        self.log.append(("restore", self.model))


def conversation(text):
    return [{"role": "user", "content": text}]


def ask_concurrently(callers):
    """Run each ``(tag, fn)`` in its own thread, all at once; return {tag: result or exception}."""
    results, barrier = {}, threading.Barrier(len(callers))

    def run(tag, fn):
        engine_tag.set(tag)
        barrier.wait()
        try:
            results[tag] = fn()
        except Exception as exc:  # collected for the assertions
            results[tag] = exc

    threads = [threading.Thread(target=run, args=caller) for caller in callers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads)
    return results


@pytest.fixture
def engine():
    engine = GenerationEngine(max_batch_conversations=64, max_wait_s=0.05)
    yield engine
    engine.close()


def test_concurrent_callers_share_calls_and_each_gets_its_own_results(engine):
    backend = SlowEcho()
    proxy = engine.backend(backend)
    callers = [
        (f"q{n}", lambda n=n: proxy.generate([conversation(f"q{n} segment {k}") for k in range(n % 3 + 1)]))
        for n in range(12)
    ]
    results = ask_concurrently(callers)
    for n in range(12):
        assert [g.text for g in results[f"q{n}"]] == [f"base:q{n} segment {k}" for k in range(n % 3 + 1)]
    stats = engine.stats
    assert stats.requests == 12 and stats.conversations == sum(n % 3 + 1 for n in range(12))
    assert stats.calls < 12 and stats.merged_calls >= 1
    assert len(backend.calls) == stats.calls  # the engine is the backend's only caller
    merged = [record for record in engine.recent_calls if len(set(record.tags)) > 1]
    assert merged and all(tag.startswith("q") for record in merged for tag in record.tags)


def test_only_requests_with_the_same_sampling_and_adapter_share_a_call(engine):
    backend = SlowEcho(adapters=("finder", "interpreter"))
    proxy = engine.backend(backend)
    short, long_ = SamplingConfig(max_new_tokens=8), SamplingConfig(max_new_tokens=64)
    callers = [
        (
            f"{adapter}-{sampling.max_new_tokens}-{n}",
            lambda a=adapter, s=sampling, n=n: proxy.generate(
                [conversation(f"{a} {s.max_new_tokens} {n}")], s, adapter=a
            ),
        )
        for adapter in ("finder", "interpreter")
        for sampling in (short, long_)
        for n in range(3)
    ]
    results = ask_concurrently(callers)
    for tag, generations in results.items():
        adapter, tokens, n = tag.split("-")
        assert [g.text for g in generations] == [f"{adapter}:{adapter} {tokens} {n}"]
    for call in backend.calls:  # every conversation in a call asked for that call's adapter and sampling
        assert {c[-1]["content"].rsplit(" ", 1)[0] for c in call.conversations} == {
            f"{call.adapter} {call.sampling.max_new_tokens}"
        }
    assert max(len(call.conversations) for call in backend.calls) > 1
    assert {(c.adapter, c.sampling.max_new_tokens) for c in backend.calls} == {
        ("finder", 8),
        ("finder", 64),
        ("interpreter", 8),
        ("interpreter", 64),
    }


def test_merged_calls_stay_within_the_size_cap():
    engine = GenerationEngine(max_batch_conversations=5, max_wait_s=0.05)
    backend = SlowEcho()
    proxy = engine.backend(backend)
    try:
        results = ask_concurrently(
            [(f"q{n}", lambda n=n: proxy.generate([conversation(f"{n}.{k}") for k in range(2)])) for n in range(8)]
        )
        big = engine.backend(backend).generate([conversation(str(k)) for k in range(9)])  # larger than the cap: alone
    finally:
        engine.close()
    assert all(len(results[f"q{n}"]) == 2 for n in range(8))
    assert [len(call.conversations) for call in backend.calls[:-1]] and max(
        len(c.conversations) for c in backend.calls[:-1]
    ) <= 5
    assert len(backend.calls[-1].conversations) == 9 and len(big) == 9


def test_a_failing_request_fails_alone(engine):
    proxy = engine.backend(SlowEcho())
    callers = [(f"good{n}", lambda n=n: proxy.generate([conversation(f"fine {n}")])) for n in range(4)]
    callers.append(("bad", lambda: proxy.generate([[{"role": "user"}]])))  # a message without content
    results = ask_concurrently(callers)
    assert isinstance(results["bad"], ValueError) and "content" in str(results["bad"])
    for n in range(4):
        assert [g.text for g in results[f"good{n}"]] == [f"base:fine {n}"]
    assert engine.stats.errors == 1


def test_token_counts_run_on_the_engine_thread(engine):
    backend = SlowEcho()
    seen = []
    original = backend.count_tokens
    backend.count_tokens = lambda messages: seen.append(threading.current_thread().name) or original(messages)
    assert engine.backend(backend).count_tokens(conversation("three words here")) == 3
    assert seen == ["generation-engine"]


def test_sequential_mode_keeps_one_model_on_the_device():
    log = []
    engine = GenerationEngine(max_wait_s=0.0, sequential=True)
    finder, interpreter = SlowEcho("finder", delay=0, log=log), SlowEcho("interpreter", delay=0, log=log)
    proxies = engine.backend(finder), engine.backend(interpreter)
    try:
        proxies[0].generate([conversation("a")])
        proxies[0].generate([conversation("b")])
        proxies[1].generate([conversation("c")])
        proxies[0].generate([conversation("d")])
    finally:
        engine.close()
    assert log == [
        ("offload", "interpreter"), ("restore", "finder"), ("generate", "finder", 1),
        ("generate", "finder", 1),  # already resident: no swap
        ("offload", "finder"), ("restore", "interpreter"), ("generate", "interpreter", 1),
        ("offload", "interpreter"), ("restore", "finder"), ("generate", "finder", 1),
    ]  # fmt: skip
    assert engine.stats.swaps == 2


def test_a_closed_engine_refuses_and_fails_what_was_queued():
    engine = GenerationEngine(max_wait_s=0.0)
    proxy = engine.backend(SlowEcho(delay=0.3))
    results = {}
    first = threading.Thread(target=lambda: results.setdefault("first", proxy.generate([conversation("running")])))
    first.start()
    time.sleep(0.1)  # the first call is running

    def queued():
        try:
            proxy.generate([conversation("queued")])
        except BackendError as exc:
            results["queued"] = exc

    second = threading.Thread(target=queued)
    second.start()
    time.sleep(0.05)
    engine.close()
    first.join(5), second.join(5)
    assert [g.text for g in results["first"]] == ["base:running"]  # the running call finished
    assert "shut down" in str(results["queued"])
    with pytest.raises(BackendError, match="shut down"):
        proxy.generate([conversation("late")])
