"""A stand-in OpenAI-compatible server on 127.0.0.1: chat completions answered by the scripted reader
(both agents), or by a judge function when the request carries the LLM judge's prompt, each reply
after ``delay`` seconds (a server that only waits, for ``clueweaver bench eval-concurrency``); every
request is recorded. It stops by itself after ``lifetime`` seconds (a minute by default), so a test
that forgets it leaves nothing running."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from clueweaver.backends.stand_ins import ScriptedReader
from clueweaver.evaluation.judge import JUDGE_SYSTEM


class OpenAIStandIn:
    def __init__(
        self, *, judge=lambda messages: "CORRECT", model: str = "scripted", delay: float = 0.0, lifetime: float = 60.0
    ):
        self.requests: list[dict] = []
        self.judge, self.model, self.delay = judge, model, delay
        self.reader = ScriptedReader()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._watchdog = threading.Timer(lifetime, self.stop)
        self._watchdog.daemon = True

    def __enter__(self):
        self._thread.start()
        self._watchdog.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        self._watchdog.cancel()
        self._server.shutdown()
        self._server.server_close()

    def judged(self) -> list[dict]:
        return [r for r in self.requests if r["messages"][0]["content"] == JUDGE_SYSTEM]

    def _answer(self, body: dict) -> str:
        messages = body["messages"]
        with self._lock:
            self.requests.append(body)
        if messages[0]["content"] == JUDGE_SYSTEM:
            return self.judge(messages)
        return self.reader(messages, body["model"])

    def _handler(self):
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _send(self, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._send({"data": [{"id": standin.model, "max_model_len": 65536}]})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                text = standin._answer(body)
                time.sleep(standin.delay)
                usage = {"prompt_tokens": sum(len(m["content"].split()) for m in body["messages"]),
                         "completion_tokens": len(text.split())}  # fmt: skip
                choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
                self._send({"choices": [choice], "usage": usage})

        return Handler
