"""The OpenAI-compatible backend against a real HTTP server on 127.0.0.1, started per test."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from clueweaver.backends import (
    FINISH_LENGTH,
    FINISH_PROMPT_TOO_LONG,
    FINISH_STOP,
    REASON_ANSWER_REGEX,
    BackendError,
    SamplingConfig,
    load_backend,
)

CONVERSATIONS = [[{"role": "user", "content": f"question {n}"}] for n in range(6)]
FAST_RETRIES = {"max_retries": 3, "backoff": 0.01, "max_backoff": 0.05, "timeout": 5.0}


class ChatServer:
    """A scripted chat-completions server: replies echo the last message; failures on demand."""

    def __init__(self):
        self.requests: list[dict] = []
        self.failures: list[tuple[int, str, dict]] = []  # (status, body, headers) served first, in order
        self.delay = 0.0
        self.slow_first = 0.0  # the first request sleeps this long (to trip client timeouts)
        self.in_flight = 0
        self.max_in_flight = 0
        self.models = {"data": [{"id": "tiny", "max_model_len": 1234}]}
        self.reply = lambda body: body["messages"][-1]["content"].upper()  # the assistant's text for a request
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        # Stops by itself even if a test forgets: no server outlives a minute.
        self._watchdog = threading.Timer(60, self.stop)
        self._watchdog.daemon = True

    def start(self):
        self._thread.start()
        self._watchdog.start()
        return self

    def stop(self):
        self._watchdog.cancel()
        self._server.shutdown()
        self._server.server_close()

    def _reply(self, handler):
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            number = len(self.requests)
            body = (
                json.loads(handler.rfile.read(int(handler.headers["Content-Length"])))
                if handler.command == "POST"
                else None
            )
            self.requests.append({"path": handler.path, "body": body, "headers": dict(handler.headers)})
            failure = self.failures.pop(0) if self.failures else None
        left = False
        try:
            if number == 0 and self.slow_first:
                time.sleep(self.slow_first)
            time.sleep(self.delay)
            if failure:
                status, text, headers = failure
            elif handler.path.endswith("/models"):
                status, text, headers = 200, json.dumps(self.models), {}
            else:
                content = self.reply(body)
                finish = "length" if body["max_tokens"] <= 3 else "stop"
                text = json.dumps(
                    {
                        "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}
                        ],
                        "usage": {"prompt_tokens": 10 + number, "completion_tokens": 3},
                    }
                )
                status, headers = 200, {}
            payload = text.encode()
            with self._lock:  # counted out before the reply leaves: a client that has read it may send the next
                self.in_flight -= 1
                left = True
            handler.send_response(status)
            for key, value in {"Content-Type": "application/json", **headers}.items():
                handler.send_header(key, value)
            handler.send_header("Content-Length", str(len(payload)))
            handler.end_headers()
            handler.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)
        finally:
            if not left:
                with self._lock:
                    self.in_flight -= 1

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                server._reply(self)

            def do_GET(self):
                server._reply(self)

            def log_message(self, *args):
                pass

        return Handler


@pytest.fixture
def server():
    running = ChatServer().start()
    yield running
    running.stop()


def _backend(server, **options):
    return load_backend("openai", "tiny", base_url=server.base_url, **{**FAST_RETRIES, **options})


def test_batch_is_answered_in_order_with_usage(server):
    with _backend(server, api_key="secret") as backend:
        results = backend.generate(CONVERSATIONS, SamplingConfig(max_new_tokens=16))
    assert [g.text for g in results] == [f"QUESTION {n}" for n in range(6)]
    assert all(g.finish_reason == FINISH_STOP and g.completion_tokens == 3 for g in results)
    assert sorted(g.prompt_tokens for g in results) == list(range(10, 16))
    body = server.requests[0]["body"]
    assert body["model"] == "tiny" and body["max_tokens"] == 16
    assert body["temperature"] == 0.0 and body["top_p"] == 1.0
    assert body["chat_template_kwargs"] == {"enable_thinking": False}
    assert not {"top_k", "seed", "stop", "structured_outputs"} & set(body)
    assert server.requests[0]["headers"]["Authorization"] == "Bearer secret"


def test_sampling_structured_output_and_adapter_reach_the_server(server):
    with _backend(server, adapters=("finder",)) as backend:
        sampling = SamplingConfig(
            temperature=0.7, top_k=20, seed=5, stop=("</answer>",), max_new_tokens=3, structured_output=True
        )
        (result,) = backend.generate(CONVERSATIONS[:1], sampling, adapter="finder")
        with pytest.raises(BackendError, match="unknown adapter 'judge'"):
            backend.generate(CONVERSATIONS[:1], adapter="judge")
    body = server.requests[0]["body"]
    assert body["model"] == "finder"
    assert (body["temperature"], body["top_k"], body["seed"], body["stop"]) == (0.7, 20, 5, ["</answer>"])
    assert body["structured_outputs"] == {"regex": REASON_ANSWER_REGEX}
    assert result.finish_reason == FINISH_LENGTH


def test_ignore_eos_reaches_the_server(server):
    with _backend(server) as backend:
        backend.generate(CONVERSATIONS[:1], SamplingConfig(max_new_tokens=8, ignore_eos=True))
    assert server.requests[0]["body"]["ignore_eos"] is True


def test_transient_failures_are_retried(server):
    server.failures = [(503, "overloaded", {}), (429, "slow down", {"Retry-After": "0"}), (502, "bad gateway", {})]
    with _backend(server) as backend:
        (result,) = backend.generate(CONVERSATIONS[:1])
    assert result.text == "QUESTION 0"
    assert len(server.requests) == 4


def test_timeouts_are_retried(server):
    server.slow_first = 1.0
    with _backend(server, timeout=0.3) as backend:
        (result,) = backend.generate(CONVERSATIONS[:1])
    assert result.text == "QUESTION 0"
    assert len(server.requests) == 2


def test_persistent_failure_names_the_url(server):
    server.failures = [(503, "overloaded", {})] * 4
    with _backend(server) as backend, pytest.raises(BackendError) as error:
        backend.generate(CONVERSATIONS[:1])
    assert f"{server.base_url}/chat/completions" in str(error.value)
    assert "4 attempts" in str(error.value) and "HTTP 503" in str(error.value)


def test_down_server_is_a_clear_error():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    started = time.monotonic()
    with load_backend("openai", "tiny", base_url=url, **FAST_RETRIES) as backend, pytest.raises(BackendError) as error:
        backend.generate(CONVERSATIONS[:1])
    assert f"{url}/chat/completions" in str(error.value)
    assert "ConnectError" in str(error.value) and "server running" in str(error.value)
    assert time.monotonic() - started < 5


def test_concurrency_is_bounded(server):
    server.delay = 0.15
    with _backend(server, max_concurrency=2) as backend:
        results = backend.generate(CONVERSATIONS)
    assert [g.text for g in results] == [f"QUESTION {n}" for n in range(6)]
    assert server.max_in_flight == 2


def test_server_side_too_long_is_flagged_other_client_errors_raise(server):
    server.failures = [(400, json.dumps({"message": "This model's maximum context length is 1234 tokens."}), {})]
    with _backend(server, max_concurrency=1) as backend:  # one at a time: the first request gets the 400
        flagged, fine = backend.generate(CONVERSATIONS[:2])
        assert flagged.finish_reason == FINISH_PROMPT_TOO_LONG and "maximum context length" in flagged.error
        assert fine.text == "QUESTION 1"
        server.failures = [(404, "model 'tiny' not found", {})]
        with pytest.raises(BackendError, match="HTTP 404: model 'tiny' not found"):
            backend.generate(CONVERSATIONS[:1])


def test_window_from_the_server_and_local_precheck(server, tiny_qwen3_path):
    with _backend(server, tokenizer=str(tiny_qwen3_path)) as backend:
        assert backend.max_model_len == 1234
        long = [{"role": "user", "content": "moor " * 1300}]
        flagged, fine = backend.generate([long, CONVERSATIONS[0]])
        assert backend.count_tokens(CONVERSATIONS[0]) == 15
    assert flagged.finish_reason == FINISH_PROMPT_TOO_LONG and flagged.prompt_tokens > 1234
    assert fine.text == "QUESTION 0"
    assert [r["path"] for r in server.requests] == ["/v1/models", "/v1/chat/completions"]


def test_counting_without_a_tokenizer_says_what_is_missing(server):
    with _backend(server) as backend, pytest.raises(BackendError, match=r"pass --tokenizer NAME\|PATH"):
        backend.count_tokens(CONVERSATIONS[0])
    server.models = {"data": [{"id": "other"}]}
    with _backend(server) as backend, pytest.raises(BackendError, match="pass max_model_len="):
        backend.max_model_len


def test_calls_take_turns_over_several_servers_and_a_failing_one_is_retried_on_the_next():
    from clueweaver.backends.openai_http import recording_servers

    good, failing = ChatServer().start(), ChatServer().start()
    try:
        failing.failures = [(503, "overloaded", {})] * 100
        started = time.monotonic()
        urls = [good.base_url, failing.base_url]
        with load_backend("openai", "tiny", base_url=urls, **{**FAST_RETRIES, "backoff": 1.0}) as backend:
            with recording_servers() as served:
                results = backend.generate(CONVERSATIONS)
        assert [g.text for g in results] == [f"QUESTION {n}" for n in range(6)]
        assert served == [good.base_url] * 6  # every answer came from the server that works
        assert 1 <= len(failing.requests) <= 6 and len(good.requests) == 6  # it got its turns, then the next
        assert time.monotonic() - started < 1.0  # moving on to another server does not wait out a backoff
        good.failures = [(503, "overloaded", {})] * 100
        with (
            load_backend("openai", "tiny", base_url=urls, **FAST_RETRIES) as backend,
            pytest.raises(BackendError) as error,
        ):
            backend.generate(CONVERSATIONS[:1])
        assert all(f"{url}/chat/completions" in str(error.value) for url in urls)  # both tried, both named
    finally:
        good.stop()
        failing.stop()


def test_two_healthy_servers_share_the_calls(server):
    other = ChatServer().start()
    try:
        with load_backend("openai", "tiny", base_url=[server.base_url, other.base_url], **FAST_RETRIES) as backend:
            backend.generate(CONVERSATIONS)
        assert len(server.requests) == len(other.requests) == 3
    finally:
        other.stop()
