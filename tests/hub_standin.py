"""A local stand-in for the Hugging Face Hub's HTTP API, enough for ``HfApi.create_repo``,
``create_branch`` and ``upload_folder`` with regular (non-LFS) uploads.

It listens on 127.0.0.1, records every request, and keeps the files each commit carries (decoded
from the commit's NDJSON payload), per repository and revision, so tests can check what the real
``huggingface_hub`` client sent.
"""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import yaml


class HubStandIn:
    def __init__(self):
        self.requests: list[tuple[str, str]] = []  # (method, path)
        self.repos: dict[str, dict] = {}  # repo_id -> {"private": bool, "branches": {name: {path: bytes}}}
        self.cards: list[dict] = []  # front matter of each README validated
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def _reply(self, status: int, payload: dict | None = None):
                body = json.dumps(payload or {}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _body(self) -> bytes:
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def do_POST(self):
                standin.requests.append(("POST", self.path))
                self._reply(*standin.post(self.path, self._body(), self.headers))

            def do_GET(self):
                standin.requests.append(("GET", self.path))
                self._reply(404, {"error": "not served by the stand-in"})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "HubStandIn":
        # huggingface_hub reads HF_HUB_OFFLINE once, at import: a test that imported it with the
        # variable set would block every request to this (reachable) stand-in for the session.
        import huggingface_hub.constants

        self._offline = huggingface_hub.constants.HF_HUB_OFFLINE
        huggingface_hub.constants.HF_HUB_OFFLINE = False
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        import huggingface_hub.constants

        huggingface_hub.constants.HF_HUB_OFFLINE = self._offline
        self.server.shutdown()
        self.server.server_close()

    # --- the API ---------------------------------------------------------------------------------

    def post(self, path: str, body: bytes, headers) -> tuple[int, dict]:
        if path == "/api/repos/create":
            request = json.loads(body)
            repo_id = (
                f"{request['organization']}/{request['name']}" if request.get("organization") else request["name"]
            )
            private = request.get("visibility") == "private" or bool(request.get("private"))
            self.repos.setdefault(repo_id, {"private": private, "branches": {"main": {}}})
            return 200, {"url": f"{self.url}/{repo_id}", "name": repo_id}
        if path == "/api/validate-yaml":  # the client checks a README's front matter before committing it
            return self.validate_card(json.loads(body)["content"])
        parts = path.split("/")
        # /api/models/{owner}/{name}/{action}/{revision}
        if len(parts) >= 7 and parts[1] == "api" and parts[2] == "models":
            repo_id, action, revision = f"{parts[3]}/{parts[4]}", parts[5], "/".join(parts[6:])
            repo = self.repos.get(repo_id)
            if repo is None:
                return 404, {"error": f"repository {repo_id} not found"}
            if action == "branch":
                repo["branches"].setdefault(revision, dict(repo["branches"]["main"]))
                return 200, {}
            if action == "preupload":
                files = json.loads(body)["files"]
                return 200, {
                    "files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]
                }
            if action == "commit":
                if revision not in repo["branches"]:
                    return 404, {"error": f"revision {revision} not found"}
                files = repo["branches"][revision]
                for line in body.decode().splitlines():
                    record = json.loads(line)
                    if record.get("key") == "file":
                        files[record["value"]["path"]] = base64.b64decode(record["value"]["content"])
                oid = f"{len(self.requests):040x}"
                return 200, {
                    "commitUrl": f"{self.url}/{repo_id}/commit/{oid}",
                    "commitOid": oid,
                    "pullRequestUrl": None,
                }
        return 404, {"error": f"{path} is not served by the stand-in"}

    def validate_card(self, content: str) -> tuple[int, dict]:
        """400 with the Hub's error shape when the front matter is not a YAML mapping."""
        if not content.startswith("---\n") or "\n---\n" not in content[4:]:
            return 400, {"errors": [{"message": "no YAML front matter"}]}
        try:
            metadata = yaml.safe_load(content[4 : content.index("\n---\n", 4)])
        except yaml.YAMLError as exc:
            return 400, {"errors": [{"message": f"invalid YAML: {exc}"}]}
        if not isinstance(metadata, dict):
            return 400, {"errors": [{"message": "the front matter is not a mapping"}]}
        self.cards.append(metadata)
        return 200, {"errors": [], "warnings": []}
