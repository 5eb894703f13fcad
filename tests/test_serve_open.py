"""Open questions in the reading room: the API's third kind (a free-text answer with cited
paragraphs and its self-calibration) and the page's third mode in headless Chromium, against a
real server with the scripted reader."""

from __future__ import annotations

import httpx
import pytest
from serve_helpers import running_server, scripted_room, upload, wait_until_ready
from test_serve_browser import browser  # noqa: F401  (the headless Chromium fixture)

OPEN = {"kind": "open", "question": "Why did Hester doubt Silas Garrow's account of the night of the storm?"}


@pytest.fixture
def server(tmp_path):
    room = scripted_room(tmp_path / "data")
    with running_server(room) as url, httpx.Client(base_url=url, timeout=60) as http:
        book = upload(http).json()
        yield http, wait_until_ready(http, book["book_id"]), url


@pytest.fixture(scope="module")
def refusing_server(tmp_path_factory):
    """One room for the questions it refuses, which leave nothing in it."""
    room = scripted_room(tmp_path_factory.mktemp("refusing") / "data")
    with running_server(room) as url, httpx.Client(base_url=url, timeout=60) as http:
        book = upload(http).json()
        yield http, wait_until_ready(http, book["book_id"])
        assert http.get(f"/api/books/{book['book_id']}/questions").json()["questions"] == []


def test_an_open_question_is_answered_in_free_text_with_checked_citations(server):
    http, book, _ = server
    ask = f"/api/books/{book['book_id']}/questions"
    response = http.post(ask, params={"wait": "true"}, json=OPEN)
    assert response.status_code == 200, response.text
    record = response.json()
    result, trace = record["result"], record["result"]["trace"]
    assert record["request"]["kind"] == "open" and record["request"]["options"] == {}
    assert trace["question"] == {"text": OPEN["question"], "kind": "open", "options": {}}
    assert result["answer"] and result["answer"] not in ("A", "B", "C", "D", "TRUE", "FALSE")
    assert result["citations"] and set(result["citations"]) <= set(trace["packet"]["paragraph_ids"])
    assert result["answer_source"] == "calibration"  # "why": tau(q) fired
    dropped = trace["interpreter"]["calibration_dropped_ids"]
    provisional = trace["interpreter"]["provisional"]["attempts"][0]["cited_ids"]
    assert dropped and set(result["citations"]) == set(provisional) - set(dropped)
    (past,) = http.get(ask).json()["questions"]
    assert past["answer"] == result["answer"] and past["request"]["kind"] == "open"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({**OPEN, "options": {"A": "x", "B": "y"}}, "an open question takes no options (got A, B)"),
        ({**OPEN, "question": "  "}, "the open question is empty"),
        ({**OPEN, "kind": "essay"}, "kind"),
    ],
)
def test_bad_open_questions_are_refused_by_name(refusing_server, body, message):
    http, book = refusing_server
    response = http.post(f"/api/books/{book['book_id']}/questions", json=body)
    assert response.status_code == 422 and message in response.json()["detail"]


@pytest.mark.slow
def test_the_page_asks_an_open_question_and_links_its_citations(server, browser):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    http, book, url = server
    wait = WebDriverWait(browser, 30)
    browser.get(url + "/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".select-book"))
    browser.find_element(By.CSS_SELECTOR, ".select-book").click()
    wait.until(lambda d: d.find_element(By.ID, "ask-button").is_enabled())
    browser.find_element(By.CSS_SELECTOR, "input[name=kind][value=open]").click()
    assert not browser.find_element(By.ID, "options").is_displayed()  # no options for an open question
    browser.find_element(By.ID, "question-text").send_keys(OPEN["question"])
    browser.find_element(By.ID, "ask-button").click()
    wait.until(lambda d: d.find_element(By.ID, "answer").is_displayed())
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#reading .para.cited"))

    (past,) = http.get(f"/api/books/{book['book_id']}/questions").json()["questions"]
    result = http.get(f"/api/questions/{past['question_id']}").json()["result"]
    assert browser.find_element(By.ID, "answer-value").text == result["answer"]
    assert browser.find_element(By.ID, "asked").text == f"Open question: {OPEN['question']}"
    links = browser.find_elements(By.CSS_SELECTOR, "#rationale a.cite")
    assert sorted(int(a.text) for a in links) == sorted(result["citations"])
    cited = browser.find_elements(By.CSS_SELECTOR, "#reading .para.cited")
    assert sorted(int(p.get_attribute("data-id")) for p in cited) == sorted(result["citations"])
    note = browser.find_element(By.ID, "calibration-note").text
    dropped = result["trace"]["interpreter"]["calibration_dropped_ids"]
    assert (
        dropped
        and "checked each cited paragraph" in note
        and f"do not support it: {', '.join(map(str, dropped))}" in note
    )
    links[0].click()
    wait.until(lambda d: "flash" in d.find_element(By.ID, f"p-{links[0].text}").get_attribute("class"))
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and e["source"] != "network"]
    assert severe == []
