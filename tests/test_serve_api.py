"""The server's API through a real uvicorn server on 127.0.0.1, with the scripted reader (answers
computed from the prompts, citing real paragraph IDs): the whole flow, every kind of bad input,
twenty concurrent questions, a restart, the bearer token and request logging."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import select
import socket
import threading
import time
from urllib.parse import urlsplit

import httpx
import pytest
from conftest import REPO_ROOT
from encoder_standins import SlowLoadingEncoder
from serve_helpers import running_server, scripted_room, serve_config, upload, wait_until_ready
from test_narrative import stray_byte_book
from test_pdf import INDENTED_BOOK, pdf_bytes

from clueweaver.backends.stand_ins import scripted_reader_backend
from clueweaver.books.language import SUPPORTED_LANGUAGES
from clueweaver.cli import main
from clueweaver.pipeline import STAGES
from clueweaver.pipeline.models import Agents
from clueweaver.serving.reading_room import ReadingRoom
from serve.app import UnsafeBind, check_bind

pytestmark = pytest.mark.slow  # real servers on loopback, one per test: left out of the edit-test loop

WHY = {
    "question": "Why does Hester conclude that Silas Garrow lied about spending the night of the storm at home?",
    "options": {
        "A": "Mrs. Pell saw him drinking in the back room of the Anchor after midnight.",
        "B": "Tobias Wren met him on the quay while putting out the lamps.",
        "C": "His umbrella was still wet although he claimed to have been in bed before the rain began.",
        "D": "He had bought a railway ticket to Exeter for the morning after the storm.",
    },
}
CLAIM = {
    "kind": "claim",
    "question": "Tobias Wren was at the Anchor inn when the customs-house clock stopped.",
    "max_chapter": 6,
}


def client(url: str, **headers) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60, headers=headers)


@pytest.fixture
def server(tmp_path):
    """A running server with the demo mystery uploaded and indexed: (client, book)."""
    room = scripted_room(tmp_path / "data", calibration="switch")
    with running_server(room) as url, client(url) as http:
        book = upload(http).json()
        yield http, wait_until_ready(http, book["book_id"]), room


def test_the_whole_flow(server):
    http, book, room = server
    assert book["index_status"] == "ready" and book["index_progress"] == 1.0
    assert book["title"] == "demo_mystery" and book["paragraphs"] == 53 and book["chapters"] == 7
    book_id = book["book_id"]

    settings = http.get("/api/presets").json()
    assert settings["limits"]["formats"] == [
        ".txt",
        ".md",
        ".markdown",
        ".html",
        ".htm",
        ".xhtml",
        ".fb2",
        ".xml",
        ".tei",
        ".pdf",
        ".epub",
        ".docx",
        ".odt",
        ".zip",
    ]
    assert settings["default_preset"] in settings["presets"]

    again = upload(http, name="another name.md")
    assert again.status_code == 200 and again.json()["created"] is False and again.json()["book_id"] == book_id
    assert [b["book_id"] for b in http.get("/api/books").json()["books"]] == [book_id]

    chapters = http.get(f"/api/books/{book_id}/chapters").json()["chapters"]
    assert [c["number"] for c in chapters] == list(range(1, 8)) and chapters[6]["title"] == "Chapter 7: The Lantern"
    window = http.get(f"/api/books/{book_id}/paragraphs", params={"start": 33, "end": 35}).json()
    assert [p["id"] for p in window["paragraphs"]] == [33, 34, 35] and window["total"] == 53
    assert window["paragraphs"][2]["text"].startswith("When she left, the landlady")
    assert http.get(f"/api/books/{book_id}/paragraphs", params={"start": 50}).json()["end"] == 52  # clamped

    answered = http.post(f"/api/books/{book_id}/questions", params={"wait": "true"}, json=WHY)
    assert answered.status_code == 200
    record = answered.json()
    result, trace = record["result"], record["result"]["trace"]
    assert record["status"] == "done" and record["request"]["text"] == WHY["question"]
    assert result["answer"] in "ABCD" and WHY["question"] in result["rationale"]
    assert result["citations"] and set(result["citations"]) <= set(trace["packet"]["paragraph_ids"])
    assert all(f"[{i}]" in result["rationale"] for i in result["citations"])
    # the switching scripted reader changes its answer on self-calibration; the trace says from what
    assert result["calibration_changed"] and trace["interpreter"]["provisional"]["answer"] != result["answer"]
    segments = trace["segments"]
    assert trace["finder"]["calls"] == 1 and len(segments) == trace["finder"]["segments"] > 1
    assert all(s["finder"]["rationale"] for s in segments)  # each verdict with its reason
    assert trace["timings"]["finder"] > 0 and trace["timings"]["total"] >= trace["timings"]["finder"]
    assert trace["packet"]["text"].startswith("[") and trace["packet"]["chars"] > 0

    queued = http.post(f"/api/books/{book_id}/questions", json=CLAIM)
    assert queued.status_code == 202 and queued.json()["status"] == "queued"
    events = []
    with http.stream("GET", queued.json()["events_url"]) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("event: "):
                events.append(line[7:])
            elif line.startswith("data: "):
                events[-1] = (events[-1], json.loads(line[6:]))
    names = [name for name, _ in events]
    assert names[:2] == ["queued", "running"] and names[-1] == "done"
    stages = [(data["stage"], data["status"]) for name, data in events if name == "stage"]
    assert stages[:2] == [("segment", "started"), ("segment", "done")] and ("finder", "done") in stages
    claim = http.get(queued.json()["url"]).json()
    assert claim["result"]["answer"] in ("TRUE", "FALSE") and claim["request"]["max_chapter"] == 6
    assert claim["result"]["trace"]["reading_limit"]["last_paragraph"] == 45  # chapter 7 unread
    assert max(claim["result"]["trace"]["packet"]["paragraph_ids"]) <= 45
    verdicts = [s["finder"] for s in claim["result"]["trace"]["segments"]]
    assert {v["kept"] for v in verdicts} == {True, False} and all(v["rationale"] for v in verdicts)  # kept, dropped

    past = http.get(f"/api/books/{book_id}/questions").json()["questions"]
    assert [q["question_id"] for q in past] == [queued.json()["question_id"], record["question_id"]]
    assert past[1]["answer"] == result["answer"] and past[1]["calibration_changed"]

    # a finished question's stream replays its end
    replay = http.get(f"/api/questions/{record['question_id']}/events").text
    assert "event: done" in replay

    assert http.delete(f"/api/books/{book_id}").json() == {"deleted": book_id}
    assert http.get(f"/api/books/{book_id}").status_code == 404
    assert http.get(f"/api/questions/{record['question_id']}").status_code == 404
    assert http.get("/api/books").json()["books"] == []


def assert_refused(response: httpx.Response, status: int, *fragments: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] and body["detail"]
    for fragment in fragments:
        assert fragment in body["detail"], body["detail"]


def test_bad_uploads_get_clear_4xx_errors_and_leave_nothing(tmp_path):
    room = scripted_room(tmp_path / "data", limits={"max_upload_mb": 0.01})
    with running_server(room) as url, client(url) as http:
        assert_refused(upload(http, name="empty.txt", content=b""), 422, "empty.txt", "empty")
        assert_refused(upload(http, name="scan.txt", content=b"\x00\x01\x02PNG" * 50), 422, "binary")
        latin_1 = "Ça va, déjà vu.".encode("latin-1")
        assert_refused(upload(http, name="old.txt", content=latin_1, encoding="utf-8"), 422, "cannot decode as utf-8")
        assert_refused(upload(http, name="old.txt", content=latin_1, encoding="klingon"), 422, "unknown encoding")
        assert_refused(upload(http, name="book.epub", content=b"not a zip archive"), 422, "EPUB")
        assert_refused(upload(http, name="book.fb2.zip", content=b"not a zip archive"), 422, "not a readable zip")
        broken_fb2 = "<FictionBook><body><p>Глава</body></FictionBook>".encode()
        assert_refused(upload(http, name="book.fb2", content=broken_fb2), 422, "not a readable FictionBook")
        assert_refused(upload(http, name="paper.pdf", content=b"%PDF-1.4"), 422, "not a readable PDF")
        assert_refused(upload(http, name="book.mobi", content=b"BOOKMOBI"), 415, ".mobi", ".pdf")
        assert_refused(upload(http, name="big.txt", content=b"word " * 3000), 413, "upload limit")
        assert_refused(http.post("/api/books", files={"other": ("x.txt", b"text")}), 422, "'file'")
        assert_refused(
            http.post("/api/books", content=b"x" * 200_000, headers={"content-type": "text/plain"}),
            413,
            "upload limit",
        )
        assert http.get("/api/books").json()["books"] == []
    data = tmp_path / "data"
    assert list((data / "books").iterdir()) == [] and list((data / "tmp").iterdir()) == []


def test_bad_requests_get_clear_4xx_errors_and_record_nothing(server):
    http, book, room = server
    ask = f"/api/books/{book['book_id']}/questions"
    cases = [
        (
            http.post(ask, content=b'{"question": "Who', headers={"content-type": "application/json"}),
            400,
            "not valid JSON",
        ),
        (http.post(ask, content=b"[1, 2]", headers={"content-type": "application/json"}), 422, "JSON object"),
        (http.post(ask, json={}), 422, "question"),
        (http.post(ask, json={**WHY, "options": {**WHY["options"], "E": "a fifth option"}}), 422, "A, B, C, D"),
        (http.post(ask, json={**WHY, "options": {"A": "only one"}}), 422, "at least two options"),
        (http.post(ask, json={**WHY, "question": "   "}), 422, "empty"),
        (http.post(ask, json={**WHY, "question": "Why? " * 500}), 422, "limit is 2000"),
        (http.post(ask, json={**WHY, "options": {"A": "x" * 600, "B": "y"}}), 422, "option A"),
        (http.post(ask, json={**WHY, "max_chapter": 12}), 422, "beyond the book's 7 chapters"),
        (http.post(ask, json={**WHY, "max_chapter": -1}), 422, "max_chapter"),
        (http.post(ask, json={**WHY, "preset": "fastest"}), 422, "unknown preset", "detectiveqa"),
        (http.post(ask, json={**CLAIM, "options": {"A": "x", "B": "y"}}), 422, "claim takes no options"),
        (http.post(ask, json={**WHY, "kind": "open"}), 422, "kind"),
        (http.post(ask, json={**WHY, "answer": "C"}), 422, "answer"),
        (
            http.post(
                ask,
                content=json.dumps({**WHY, "question": "x" * 1_100_000}),
                headers={"content-type": "application/json"},
            ),
            413,
            "larger than",
        ),
        (http.post("/api/books/0000000000000000/questions", json=WHY), 404, "0000000000000000"),
        (http.get("/api/books/nope"), 404, "nope"),
        (http.delete("/api/books/nope"), 404, "nope"),
        (http.get("/api/books/nope/paragraphs"), 404, "nope"),
        (http.get(f"/api/books/{book['book_id']}/paragraphs", params={"start": 53}), 422, "53 paragraphs"),
        (http.get(f"/api/books/{book['book_id']}/paragraphs", params={"start": 5, "end": 2}), 422, "before start"),
        (http.get(f"/api/books/{book['book_id']}/paragraphs", params={"start": "first"}), 422, "start"),
        (http.get("/api/questions/unknown"), 404, "unknown"),
        (http.get("/api/questions/unknown/events"), 404, "unknown"),
        (http.get("/api/nothing-here"), 404, "no such route"),
    ]
    for response, status, *fragments in cases:
        assert_refused(response, status, *fragments)
    assert http.get(f"/api/books/{book['book_id']}/questions").json()["questions"] == []
    assert room.engine.stats.calls == 0  # nothing reached the model


def test_other_sites_cannot_write_and_foreign_host_names_are_refused(server):
    http, book, room = server
    ask = f"/api/books/{book['book_id']}/questions"
    evil = {"Origin": "http://evil.example"}
    assert_refused(http.post(ask, json=WHY, headers=evil), 403, "another site")
    assert_refused(http.delete(f"/api/books/{book['book_id']}", headers=evil), 403, "another site")
    assert_refused(http.get("/api/books", headers={"Host": "evil.example:8000"}), 403, "loopback")
    assert http.get("/api/books", headers=evil).status_code == 200  # reading is not a write
    same_site = {"Origin": str(http.base_url).rstrip("/")}  # what the page itself sends
    assert http.post(ask, json=WHY, headers=same_site).status_code == 202
    assert http.get(f"/api/books/{book['book_id']}").json()["book_id"] == book["book_id"]


def test_twenty_concurrent_questions_are_batched_and_never_mixed(tmp_path):
    class SlowReader(type(scripted_reader_backend())):
        """The scripted reader, taking a model's time per call, so questions overlap."""

        def generate(self, conversations, sampling=None, *, adapter=None):
            time.sleep(0.05)
            return super().generate(conversations, sampling, adapter=adapter)

    backend = SlowReader("scripted-reader", script=scripted_reader_backend()._script)
    room = scripted_room(tmp_path / "data", backend=backend, batching={"max_wait_ms": 50})
    right = "Mr. Obadiah Penrose, the harbour master"
    decoys = ["a zebra from Zanzibar", "the quartz xylophone", "a yodelling kangaroo"]

    def question(n: int) -> dict:
        options = list(decoys)
        options.insert(n % 4, right)  # the right option moves, so answers differ across questions
        return {
            "question": f"Case {n}: who polished the brass plate of the customs house?",
            "options": dict(zip("ABCD", options)),
        }

    with running_server(room) as url, client(url) as http:
        book_id = wait_until_ready(http, upload(http).json()["book_id"])["book_id"]
        responses, barrier = {}, threading.Barrier(20)

        def ask(n: int) -> None:
            barrier.wait()
            with client(url) as own:
                responses[n] = own.post(f"/api/books/{book_id}/questions", params={"wait": "true"}, json=question(n))

        threads = [threading.Thread(target=ask, args=(n,)) for n in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in threads)

    assert sorted(responses) == list(range(20))
    for n, response in responses.items():
        record = response.json()
        assert response.status_code == 200 and record["status"] == "done", record
        result = record["result"]
        assert record["request"]["text"] == question(n)["question"]
        assert result["trace"]["question"]["text"] == question(n)["question"]
        assert f'"Case {n}: who polished' in result["rationale"]
        assert result["answer"] == "ABCD"[n % 4]
        assert set(result["citations"]) <= set(result["trace"]["packet"]["paragraph_ids"])
    stats = room.engine.stats
    assert stats.requests == 20 * 2  # a Finder and an Interpreter call each ("who" does not trigger self-calibration)
    assert stats.calls < stats.requests and stats.most_requests_in_a_call > 1
    shared = [call for call in room.engine.recent_calls if len(set(call.tags)) > 1]
    assert shared, "no generate call served two questions"
    question_ids = {r.json()["question_id"] for r in responses.values()}
    assert all(set(call.tags) <= question_ids for call in shared)


def test_books_indexes_and_past_questions_survive_a_restart(tmp_path):
    data = tmp_path / "data"
    with running_server(scripted_room(data)) as url, client(url) as http:
        book_id = wait_until_ready(http, upload(http).json()["book_id"])["book_id"]
        first = http.post(f"/api/books/{book_id}/questions", params={"wait": "true"}, json=WHY).json()
    index_files = sorted(p.name for p in (data / "index-cache").rglob("*") if p.is_file())
    assert index_files

    with running_server(scripted_room(data)) as url, client(url) as http:
        book = http.get(f"/api/books/{book_id}").json()
        assert book["index_status"] == "ready" and book["title"] == "demo_mystery"
        past = http.get(f"/api/books/{book_id}/questions").json()["questions"]
        assert [q["question_id"] for q in past] == [first["question_id"]]
        assert http.get(f"/api/questions/{first['question_id']}").json()["result"] == first["result"]
        assert "event: done" in http.get(f"/api/questions/{first['question_id']}/events").text
        again = http.post(f"/api/books/{book_id}/questions", params={"wait": "true"}, json=WHY).json()
        assert again["result"]["answer"] == first["result"]["answer"]
        assert len(http.get(f"/api/books/{book_id}/questions").json()["questions"]) == 2
    assert sorted(p.name for p in (data / "index-cache").rglob("*") if p.is_file()) == index_files  # reused


def test_openapi_documents_every_route_and_response(tmp_path):
    """Every route's success responses have a schema (a model for JSON; the event stream its media
    type), every route documents the {error, detail} body of its refusals, and the page stays out."""
    with running_server(scripted_room(tmp_path / "data")) as url, client(url) as http:
        schema = http.get("/openapi.json").json()
    operations = {(method.upper(), path): op for path, ops in schema["paths"].items() for method, op in ops.items()}
    assert set(operations) == {
        ("GET", "/health"),
        ("GET", "/api/presets"),
        ("GET", "/api/books"),
        ("POST", "/api/books"),
        ("GET", "/api/books/{book_id}"),
        ("DELETE", "/api/books/{book_id}"),
        ("GET", "/api/books/{book_id}/chapters"),
        ("GET", "/api/books/{book_id}/paragraphs"),
        ("GET", "/api/books/{book_id}/questions"),
        ("POST", "/api/books/{book_id}/questions"),
        ("GET", "/api/questions/{question_id}"),
        ("GET", "/api/questions/{question_id}/events"),
    }  # the page, /, stays out
    components = schema["components"]["schemas"]
    for (method, path), operation in operations.items():
        responses = operation["responses"]
        assert responses["4XX"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ApiErrorBody"
        }
        for status in (status for status in responses if status.startswith("2")):
            where, content = f"{method} {path} {status}", responses[status].get("content") or {}
            assert content and all(body.get("schema") for body in content.values()), f"{where}: no schema"
            if "application/json" in content:
                ref = content["application/json"]["schema"].get("$ref", "")
                assert ref.rpartition("/")[2] in components, f"{where}: no response model"
    events = operations["GET", "/api/questions/{question_id}/events"]["responses"]["200"]["content"]
    assert list(events) == ["text/event-stream"]
    assert set(operations["POST", "/api/books/{book_id}/questions"]["responses"]) == {"200", "202", "4XX"}


def test_the_token_guards_the_api_and_requests_are_logged(tmp_path, caplog):
    room = scripted_room(tmp_path / "data", token="s3cret")
    caplog.set_level(logging.INFO, logger="clueweaver.serve")
    with running_server(room) as url:
        with client(url) as anonymous:
            assert_refused(anonymous.get("/api/books"), 401, "Bearer")
            assert anonymous.get("/api/books", headers={"Authorization": "Bearer wrong"}).status_code == 401
            health = anonymous.get("/health").json()
            assert health["status"] == "ok" and {"books", "questions_active", "engine"}.isdisjoint(health)
            page = anonymous.get("/")
            assert page.status_code == 200 and "ClueWeaver" in page.text
            assert "http://" not in page.text and "https://" not in page.text  # no external assets
            assert anonymous.get("/static/app.js").status_code == 200
            assert "/api/books/{book_id}/questions" in anonymous.get("/openapi.json").json()["paths"]
            assert "swagger" in anonymous.get("/docs").text.lower()
        with client(url, Authorization="Bearer s3cret") as allowed:
            assert allowed.get("/api/books").json() == {"books": []}
            assert upload(allowed).status_code == 201
            health = allowed.get("/health").json()
            assert health["books"] == 1 and health["questions_active"] == 0 and "calls" in health["engine"]
    lines = [record.getMessage() for record in caplog.records if record.name == "clueweaver.serve"]
    assert any("GET /api/books -> 401" in line for line in lines)
    assert any("POST /api/books -> 201" in line and "ms)" in line for line in lines)


def test_the_server_refuses_to_listen_beyond_loopback_without_a_token(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("CLUEWEAVER_TOKEN", raising=False)
    for host in ("127.0.0.1", "::1", "localhost"):
        check_bind(host, None)
    check_bind("0.0.0.0", "token")
    with pytest.raises(UnsafeBind, match="bearer token"):
        check_bind("192.168.1.20", None)
    assert main(["serve", "--host", "0.0.0.0", "--data-dir", str(tmp_path / "data")]) == 2
    assert "CLUEWEAVER_TOKEN" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # refused before anything started


LATIN_1_BOOK = (
    "CHAPTER I\n\nMonsieur Dantès came into Marseilles on the Pharaon; Mercédès waited at the Catalans.\n\n"
    "CHAPTER II\n\nAt the café on the quay the señor spoke of the Château d'If, and of the naïve émigrés."
)


def test_a_latin_1_upload_is_read_with_the_detected_or_the_given_encoding(tmp_path):
    with running_server(scripted_room(tmp_path / "data")) as url, client(url) as http:
        detected = upload(http, name="dantes.txt", content=LATIN_1_BOOK.encode("latin-1"))
        assert detected.status_code == 201 and detected.json()["encoding"] == "cp1252"
        assert detected.json()["warnings"] == ["dantes.txt is not UTF-8; read as cp1252 (detected)"]
        book_id = wait_until_ready(http, detected.json()["book_id"])["book_id"]
        text = http.get(f"/api/books/{book_id}/paragraphs", params={"start": 0, "end": 3}).json()["paragraphs"]
        assert [p["text"] for p in text] == LATIN_1_BOOK.split("\n\n")
        # koi8-r is not what detection would pick for these bytes: the field decides
        russian = "Пролог\n\nФонарь висел у двери."
        given = upload(http, name="ru.txt", content=russian.encode("koi8-r"), encoding="koi8-r").json()
        assert given["encoding"] == "koi8-r"
        paragraphs = http.get(f"/api/books/{given['book_id']}/paragraphs").json()["paragraphs"]
        assert [p["text"] for p in paragraphs] == russian.split("\n\n")


def test_a_pdf_upload_is_read_from_its_text_layer(tmp_path):
    with running_server(scripted_room(tmp_path / "data")) as url, client(url) as http:
        uploaded = upload(http, name="house.pdf", content=pdf_bytes(INDENTED_BOOK, title="The Silent House")).json()
        assert uploaded["title"] == "The Silent House" and uploaded["format"] == ".pdf"
        book = wait_until_ready(http, uploaded["book_id"])
        paragraphs = http.get(f"/api/books/{book['book_id']}/paragraphs").json()["paragraphs"]
        assert book["chapters"] == 2 and paragraphs[2]["text"].startswith("Martha Hale, who kept the shop")
        assert "someone were remarkably patient" in paragraphs[2]["text"]  # across the page, hyphen and all


def post_chunked(url: str, path: str, content_type: str, first: bytes, *, offered: int) -> tuple[int, bytes]:
    """POST a chunked body (no Content-Length) of up to ``offered`` bytes, stopping as soon as the
    server answers or stops reading; (bytes sent, the server's reply)."""
    port = urlsplit(url).port
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 16)
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {content_type}\r\n"
        sock.sendall(head.encode() + b"Transfer-Encoding: chunked\r\n\r\n")
        piece, sent = first + b"x" * (1 << 16), 0
        try:
            while sent < offered and not select.select([sock], [], [], 0)[0]:
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                sent += len(piece)
                piece = b"x" * (1 << 16)
        except OSError:  # the server closed the connection: its answer is waiting
            pass
        reply = b""
        try:
            while not reply.endswith(b"}") and (received := sock.recv(1 << 16)):
                reply += received
        except OSError:
            pass
    return sent, reply


def test_chunked_bodies_are_refused_as_soon_as_they_pass_the_limit(tmp_path):
    """A body without Content-Length is counted as it arrives: the 413 comes after about the limit,
    not after everything the client offers (64 MB here; the server used to read it all)."""
    room = scripted_room(tmp_path / "data", limits={"max_upload_mb": 1})
    part = (
        b'--B\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'
    )
    with running_server(room) as url:
        sent, reply = post_chunked(url, "/api/books", "multipart/form-data; boundary=B", part, offered=64 << 20)
        assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
        assert b'"upload_too_large"' in reply and b"upload limit of 1 MB" in reply
        assert sent < 16 << 20  # the limit, plus what the sockets buffer
        sent, reply = post_chunked(
            url, "/api/books/any/questions", "application/json", b'{"question": "', offered=32 << 20
        )
        assert reply.startswith(b"HTTP/1.1 413") and b"larger than 1024 KB" in reply, reply[:200]
        assert sent < 16 << 20
        with client(url) as http:
            assert http.get("/api/books").json()["books"] == []
    assert list((tmp_path / "data" / "tmp").iterdir()) == []


def test_a_gutenberg_upload_with_a_stray_byte_keeps_its_dashes_and_quotes_and_says_where(tmp_path):
    with running_server(scripted_room(tmp_path / "data")) as url, client(url) as http:
        response = upload(http, name="pg1234.txt", content=stray_byte_book())
        assert response.status_code == 201, response.text
        book = response.json()
        assert book["encoding"] == "utf-8" and book["title"] == "The Lantern at Marrow Quay and Other Stories"
        [warning] = book["warnings"]
        assert warning.startswith("pg1234.txt: 1 byte is not UTF-8 (byte ") and ", line " in warning
        assert "tmp" not in warning  # the upload's temporary folder is not shown
        book = wait_until_ready(http, book["book_id"])
        texts = [p["text"] for p in http.get(f"/api/books/{book['book_id']}/paragraphs").json()["paragraphs"]]
        assert texts[1] == "“Come in,” said Mrs. Hale — and the clerk came in; it’s a cold night."
        noise = upload(http, name="noise.txt", content=bytes(range(128, 256)) * 4 + b" plain words.\n")
        assert_refused(noise, 422, "not UTF-8", "no other encoding reads it cleanly", "encoding field")


def test_a_lone_surrogate_is_refused_with_a_422_and_nothing_is_recorded(server):
    http, book, room = server
    ask = f"/api/books/{book['book_id']}/questions"
    surrogate = '"\\ud800"'  # valid JSON for half of a character
    bodies = [
        f'{{"question": {surrogate}, "options": {{"A": "a", "B": "b"}}}}',
        f'{{"question": "Who?", "options": {{"A": {surrogate}, "B": "b"}}}}',
        f'{{"question": "Who?", "options": {{"A": "a", "B": "b"}}, "preset": {surrogate}}}',
        f'{{"question": "Who?", "options": {{"A": "a", "B": "b"}}, "max_chapter": {surrogate}}}',
        f'{{"question": "Who?", "options": {{"A": "a", {surrogate}: "b"}}}}',
    ]
    places = ("the question", "option 'A'", "the preset", "the chapter limit", "an option's label")
    for body, where in zip(bodies, places, strict=True):
        response = http.post(ask, content=body.encode(), headers={"content-type": "application/json"})
        assert_refused(response, 422, where, "lone surrogate (U+D800, character 1", "remove it")
    assert http.get(ask).json()["questions"] == []


def test_an_unexpected_error_is_a_500_logged_once_with_its_status(server, caplog, monkeypatch):
    http, book, room = server
    caplog.set_level(logging.INFO)

    def broken(book_id):
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(room.library, "questions", broken)
    response = http.get(f"/api/books/{book['book_id']}/questions")
    assert_refused(response, 500, "internal error (RuntimeError)", "server log")
    tracebacks = [r for r in caplog.records if r.exc_info and "disk is on fire" in str(r.exc_info[1])]
    assert len(tracebacks) == 1 and tracebacks[0].getMessage().endswith(")")
    assert "/questions -> 500 (" in tracebacks[0].getMessage()


def test_the_chapter_limit_takes_the_book_s_label_or_the_position(tmp_path):
    book_text = (
        "CHAPTER XXIV\n\nHester walked to the quay in the rain.\n\nCHAPTER XXV\n\nThe clerk lied about the "
        "umbrella.\n\nCHAPTER XXVI\n\nThe lantern was lit at midnight by the clerk."
    )
    with running_server(scripted_room(tmp_path / "data")) as url, client(url) as http:
        book = wait_until_ready(http, upload(http, name="late.txt", content=book_text.encode()).json()["book_id"])
        ask = f"/api/books/{book['book_id']}/questions"
        claim = {"kind": "claim", "question": "The clerk lied about the umbrella."}
        by_label = http.post(ask, params={"wait": "true"}, json={**claim, "max_chapter": "25"}).json()
        by_position = http.post(ask, params={"wait": "true"}, json={**claim, "max_chapter": 2}).json()
        for record in (by_label, by_position):
            assert record["status"] == "done", record
            assert (record["request"]["max_chapter"], record["request"]["max_chapter_label"]) == (2, "25")
            assert record["result"]["trace"]["reading_limit"]["last_paragraph"] == 3  # chapter XXVI unread
        assert_refused(http.post(ask, json={**claim, "max_chapter": "27"}), 422, "no chapter 27", "24-26")
        assert_refused(http.post(ask, json={**claim, "max_chapter": 4}), 422, "beyond the book's 3 chapters")


def test_the_encoder_loads_at_start_up_and_the_api_says_so_until_it_is_ready(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="clueweaver.serving.shared_encoder")
    gate = tmp_path / "encoder-loaded"
    config = dataclasses.replace(serve_config(tmp_path / "data"), encoder=SlowLoadingEncoder(gate))
    backend = scripted_reader_backend("keep")
    room = ReadingRoom(config, agents=Agents(backend, backend, notes=["scripted reader"]))
    with running_server(room) as url, client(url) as http:
        encoder = http.get("/health").json()["encoder"]
        assert encoder["name"] == SlowLoadingEncoder.name and encoder["status"] == "loading"
        book = wait_until_ready(http, upload(http).json()["book_id"])  # indexing does not wait for it
        queued = http.post(f"/api/books/{book['book_id']}/questions", json=WHY).json()
        deadline = time.monotonic() + 10
        while not any(e["event"] == "stage" for e in room.job(queued["question_id"]).events_after(-1)):
            assert time.monotonic() < deadline, "the question never said it waits for the encoder"
            time.sleep(0.02)
        stage = [e["data"] for e in room.job(queued["question_id"]).events_after(-1) if e["event"] == "stage"][0]
        assert stage["stage"] == "encoder" and stage["status"] == "started" and "loading" in stage["note"]
        assert http.get(queued["url"]).json()["status"] == "running"
        gate.touch()
        assert room.job(queued["question_id"]).finished.wait(20)
        assert http.get(queued["url"]).json()["status"] == "done"
        encoder = http.get("/health").json()["encoder"]
        assert encoder["status"] == "ready" and encoder["seconds"] > 0
    messages = [r.getMessage() for r in caplog.records if r.name == "clueweaver.serving.shared_encoder"]
    assert any(m.startswith(f"loading the dense encoder {SlowLoadingEncoder.name}") for m in messages)
    assert any(m.startswith(f"dense encoder {SlowLoadingEncoder.name} loaded in") for m in messages)


def test_a_books_language_is_detected_or_given_at_upload_and_read_in_it(tmp_path):
    chinese = "第一回\n\n王掌柜说，案发当晚他亲眼看见李四从后门溜了出去。\n\n第二天早上，张三在河边发现了一把刀。"
    with running_server(scripted_room(tmp_path / "data")) as url, client(url) as http:
        detected = upload(http, name="an.txt", content=chinese.encode())
        assert detected.status_code == 201 and detected.json()["language"] == "zh"
        book_id = wait_until_ready(http, detected.json()["book_id"])["book_id"]
        assert http.get(f"/api/books/{book_id}").json()["language"] == "zh"
        asked = {"kind": "open", "question": "案发当晚谁从后门溜了出去？"}
        answered = http.post(f"/api/books/{book_id}/questions", params={"wait": "true"}, json=asked).json()
        trace = http.get(f"/api/questions/{answered['question_id']}").json()["result"]["trace"]
        assert trace["config"]["language_used"] == "zh" and trace["question_language"] == "zh"
        given = upload(http, name="names.txt", content=b"Holmes\n\nWatson", language="fr")
        assert given.status_code == 201 and given.json()["language"] == "fr"
        again = upload(http, name="names.txt", content=b"Holmes\n\nWatson", language="de")
        assert again.status_code == 200 and again.json()["language"] == "fr"  # the book as it is, and why
        assert again.json()["warnings"] == ["already here, read in fr: delete it to read it in de"]
        assert upload(http, name="names.txt", content=b"Holmes\n\nWatson").json()["warnings"] == []
        refused = upload(http, name="other.txt", content=b"Lestrade\n\nGregson", language="xx")
        assert refused.status_code == 422 and refused.json()["error"] == "unsupported_language"
        assert "en, zh, ja, fr, de, es, it, ru, pt" in refused.json()["detail"]
        settings = http.get("/api/presets").json()  # what the upload form's language picker offers
        assert settings["languages"] == list(SUPPORTED_LANGUAGES) and settings["default_language"] is None
    with running_server(scripted_room(tmp_path / "ru", language="ru")) as url, client(url) as http:
        assert http.get("/api/presets").json()["default_language"] == "ru"


def test_the_reading_room_page_lists_every_stage_the_server_reports():
    """The page drops stage events whose name it does not list: every pipeline stage, and the wait for
    the encoder, must be in one of its two lists (the query and index stages once went unshown)."""
    script = (REPO_ROOT / "serve" / "static" / "app.js").read_text(encoding="utf-8")
    listed = set()
    for name in ("STAGES", "OCCASIONAL_STAGES"):
        body = re.search(rf"const {name} = \[([^\]]*)\];", script).group(1)
        listed |= set(re.findall(r'"(\w+)"', body))
    assert {*STAGES, "encoder"} <= listed
