"""The reading-room page end to end in headless Chromium (Debian's chromium and chromium-driver,
driven by Selenium) against a real server with the scripted reader: upload a book, ask, see the
answer, its self-calibration note, the Finder trace and the cited paragraphs highlighted in their
surrounding text. A screenshot goes to $CLUEWEAVER_SCREENSHOTS (or the test's tmp folder). The
API's page (/docs) renders with every request answered by the server itself."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from serve_helpers import DEMO_BOOK, running_server, scripted_room

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--window-size=1500,1000",
)  # fmt: skip
QUESTION = "Why does Hester conclude that Silas Garrow lied about spending the night of the storm at home?"
CLAIM = "Tobias Wren was at the Anchor inn when the customs-house clock stopped."
OPTIONS = {
    "A": "Mrs. Pell saw him drinking in the back room of the Anchor after midnight.",
    "B": "Tobias Wren met him on the quay while putting out the lamps.",
    "C": "His umbrella was still wet although he claimed to have been in bed before the rain began.",
    "D": "He had bought a railway ticket to Exeter for the morning after the storm.",
}


def _browser_binaries() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip(
            "headless Chromium is not installed (apt-get install chromium chromium-driver); the page test needs it"
        )
    return chromium, driver


@pytest.fixture
def browser(tmp_path):
    chromium, driver_path = _browser_binaries()
    webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed (pip install selenium)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    # no name resolves but this machine's: a page that needs a CDN does not render
    offline = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    for flag in (*CHROMIUM_FLAGS, offline, f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def requested_urls(browser) -> list[str]:
    """Every URL the browser asked for since the last call (Chromium's performance log)."""
    urls = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


@pytest.mark.slow
def test_the_api_page_renders_offline(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, 30)
    with running_server(scripted_room(tmp_path / "data")) as url:
        browser.get(url + "/docs")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".swagger-ui .opblock")) >= 12)
        paths = {e.text for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}
        assert {"/api/books", "/api/books/{book_id}/questions", "/health"} <= paths
        requests = requested_urls(browser)
    network = [u for u in requests if urlsplit(u).scheme in ("http", "https", "ws", "wss")]
    assert any(u.endswith("/openapi.json") for u in network)
    assert all(u.startswith(url + "/") for u in network), [u for u in network if not u.startswith(url)]


@pytest.mark.slow
def test_upload_ask_and_read_the_cited_paragraphs(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    room = scripted_room(tmp_path / "data", calibration="switch")
    wait = WebDriverWait(browser, 30)
    with running_server(room) as url:
        browser.get(url + "/")
        wait.until(lambda d: "scripted reader" in d.find_element(By.ID, "server-status").text)

        browser.find_element(By.ID, "upload-file").send_keys(str(DEMO_BOOK))
        browser.find_element(By.ID, "upload-button").click()
        wait.until(lambda d: "Added" in d.find_element(By.ID, "upload-message").text)
        wait.until(
            lambda d: (
                d.find_element(By.ID, "ask-form").is_displayed() and d.find_element(By.ID, "ask-button").is_enabled()
            )
        )
        assert "demo_mystery" in browser.find_element(By.ID, "book-list").text
        assert "53 paragraphs" in browser.find_element(By.ID, "book-list").text

        browser.find_element(By.ID, "question-text").send_keys(QUESTION)
        for label, text in OPTIONS.items():
            browser.find_element(By.ID, f"option-{label}").send_keys(text)
        browser.find_element(By.ID, "ask-button").click()
        wait.until(lambda d: d.find_element(By.ID, "answer").is_displayed())
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#reading .para.cited"))

        with httpx.Client(base_url=url) as http:
            book_id = http.get("/api/books").json()["books"][0]["book_id"]
            (past,) = http.get(f"/api/books/{book_id}/questions").json()["questions"]
            record = http.get(f"/api/questions/{past['question_id']}").json()
        result = record["result"]

        # the answer, with the self-calibration note naming both answers
        assert browser.find_element(By.ID, "answer-value").text == result["answer"]
        assert browser.find_element(By.ID, "answer-text").text == OPTIONS[result["answer"]]
        note = browser.find_element(By.ID, "calibration-note")
        provisional = result["trace"]["interpreter"]["provisional"]["answer"]
        assert note.is_displayed() and "changed the answer" in note.text and provisional in note.text
        # each [N] of the rationale is a link; the cited paragraphs are highlighted in context
        links = browser.find_elements(By.CSS_SELECTOR, "#rationale a.cite")
        assert sorted(int(a.text) for a in links) == sorted(result["citations"])
        cited = browser.find_elements(By.CSS_SELECTOR, "#reading .para.cited")
        assert sorted(int(p.get_attribute("data-id")) for p in cited) == sorted(result["citations"])
        shown = [int(p.get_attribute("data-id")) for p in browser.find_elements(By.CSS_SELECTOR, "#reading .para")]
        first = min(result["citations"])
        assert first - 1 in shown and first + 1 in shown  # surrounding text, not the paragraph alone
        highlighted = browser.find_element(By.ID, f"p-{first}")
        assert highlighted.value_of_css_property("background-color") not in ("rgba(0, 0, 0, 0)", "transparent")
        assert highlighted.text.endswith(
            httpx.get(f"{url}/api/books/{book_id}/paragraphs?start={first}&end={first}").json()["paragraphs"][0][
                "text"
            ]
        )
        # clicking a citation brings its paragraph into view, flashing
        links[0].click()
        wait.until(lambda d: "flash" in d.find_element(By.ID, f"p-{links[0].text}").get_attribute("class"))
        # the Finder trace: one row per segment, kept and dropped, each with the Finder's reason
        rows = browser.find_elements(By.CSS_SELECTOR, "#finder-rows tr")
        assert len(rows) == len(result["trace"]["segments"])
        assert {row.get_attribute("class") for row in rows} <= {"kept", "dropped"}
        assert "Words of the question recur" in browser.find_element(By.ID, "finder-rows").text
        # the question is in the book's past questions
        assert QUESTION[:40] in browser.find_element(By.ID, "history").text

        shots = Path(os.environ.get("CLUEWEAVER_SCREENSHOTS") or tmp_path)
        shots.mkdir(parents=True, exist_ok=True)
        assert browser.save_screenshot(str(shots / "reading_room_answer.png"))
        browser.execute_script("document.getElementById('finder-trace').scrollIntoView()")
        assert browser.save_screenshot(str(shots / "reading_room_trace.png"))

        # a refused question shows the server's message, not a broken page
        browser.find_element(By.ID, "option-A").clear()
        browser.find_element(By.ID, "option-B").clear()
        browser.find_element(By.ID, "option-C").clear()
        browser.find_element(By.ID, "ask-button").click()
        wait.until(lambda d: d.find_element(By.ID, "ask-error").is_displayed())
        assert "at least two options" in browser.find_element(By.ID, "ask-error").text
        assert not browser.find_element(By.ID, "progress").is_displayed()
        # a claim read up to chapter 6: the Finder keeps some segments and drops others, each row says which
        browser.find_element(By.XPATH, "//input[@name='kind'][@value='claim']/..").click()
        browser.find_element(By.ID, "question-text").clear()
        browser.find_element(By.ID, "question-text").send_keys(CLAIM)
        browser.find_element(By.CSS_SELECTOR, "details.settings summary").click()  # the reading settings
        Select(browser.find_element(By.ID, "max-chapter")).select_by_value("6")
        browser.find_element(By.ID, "ask-button").click()
        wait.until(lambda d: d.find_element(By.ID, "answer-value").text in ("TRUE", "FALSE"))
        rows = browser.find_elements(By.CSS_SELECTOR, "#finder-rows tr")
        assert {row.get_attribute("class") for row in rows} == {"kept", "dropped"}
        errors = [
            entry
            for entry in browser.get_log("browser")
            if entry["level"] == "SEVERE" and entry["source"] != "network"
        ]
        assert errors == []  # no JavaScript error along the way


def _open_with_book(browser, wait, url: str, book: Path) -> None:
    """Open the page, upload ``book`` (one without chapter headings) and wait until it can be asked about."""
    from selenium.webdriver.common.by import By

    browser.get(url + "/")
    browser.find_element(By.ID, "upload-file").send_keys(str(book))
    browser.find_element(By.ID, "upload-button").click()
    wait.until(lambda d: "0 chapters" in d.find_element(By.ID, "book-list").text)
    wait.until(lambda d: d.find_element(By.ID, "ask-button").is_enabled())


@pytest.mark.slow
def test_a_book_without_chapters_shows_its_passages_without_a_chapter_label(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    book = tmp_path / "letters.txt"
    blocks = DEMO_BOOK.read_text(encoding="utf-8").split("\n\n")
    book.write_text("\n\n".join(b for b in blocks if not b.startswith("#")), encoding="utf-8")  # no headings
    wait = WebDriverWait(browser, 30)
    with running_server(scripted_room(tmp_path / "data")) as url:
        _open_with_book(browser, wait, url, book)
        browser.find_element(By.ID, "question-text").send_keys(QUESTION)
        for label, text in OPTIONS.items():
            browser.find_element(By.ID, f"option-{label}").send_keys(text)
        browser.find_element(By.ID, "ask-button").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#reading .para.cited"))
        heads = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#reading .passage-head")]
        assert heads and all(head.startswith("paragraphs ") for head in heads), heads


@pytest.mark.slow
def test_the_upload_form_reads_a_book_in_the_language_picked(browser, tmp_path):
    """Detection is the default; a language picked in the form is the one the book is read in."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    wait = WebDriverWait(browser, 30)
    with running_server(scripted_room(tmp_path / "data")) as url:
        browser.get(url + "/")
        picker = Select(browser.find_element(By.ID, "upload-language"))
        wait.until(lambda d: len(picker.options) > 1)
        assert picker.first_selected_option.text == "the language detected from its text"
        assert "French" in [option.text for option in picker.options]
        picker.select_by_value("fr")
        browser.find_element(By.ID, "upload-file").send_keys(str(DEMO_BOOK))  # an English text
        browser.find_element(By.ID, "upload-button").click()
        wait.until(lambda d: "Added" in d.find_element(By.ID, "upload-message").text)
        wait.until(lambda d: "French" in d.find_element(By.ID, "book-list").text)
        assert httpx.get(f"{url}/api/books").json()["books"][0]["language"] == "fr"


@pytest.mark.slow
def test_the_page_says_which_names_it_read_in_the_books_script(browser, tmp_path):
    """An English question about a Chinese book: the names it writes in pinyin are read as the book
    writes them, and the page says so beside the warning that the languages differ."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    book = tmp_path / "葬花.txt"
    book.write_text(
        "\n\n".join([
            "林黛玉自幼多病，住在外祖母家里，每日吃药。",
            "宝玉听说林黛玉来了，忙去看她，两人说了半日的话。",
            "那天林黛玉在园中葬花，宝玉远远看见，便走了过去。",
        ]),
        encoding="utf-8",
    )  # fmt: skip
    wait = WebDriverWait(browser, 30)
    with running_server(scripted_room(tmp_path / "data")) as url:
        _open_with_book(browser, wait, url, book)
        browser.find_element(By.XPATH, "//input[@name='kind'][@value='open']/..").click()
        browser.find_element(By.ID, "question-text").send_keys("Where did Lin Daiyu bury the flowers?")
        browser.find_element(By.ID, "ask-button").click()
        wait.until(lambda d: "Lin Daiyu: 林黛玉" in d.find_element(By.ID, "warnings").text)
        notes = browser.find_element(By.ID, "warnings").text
        assert "Names read as the book writes them: Lin Daiyu: 林黛玉." in notes and "seems to be in English" in notes


@pytest.mark.slow
def test_an_arabic_book_and_question_read_right_to_left(browser, tmp_path):
    """The page sets each paragraph, the question and the answer by its own script (dir="auto"): al-Jahiz's
    Arabic reads right to left, the page's English labels beside it left to right."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    book = tmp_path / "al_bukhala.txt"
    shutil.copy(Path(__file__).parent / "fixtures" / "books_scripts" / "al_bukhala_excerpt.ar.txt", book)
    wait = WebDriverWait(browser, 30)
    direction = "return getComputedStyle(arguments[0]).direction"
    with running_server(scripted_room(tmp_path / "data")) as url:
        _open_with_book(browser, wait, url, book)
        browser.find_element(By.XPATH, "//input[@name='kind'][@value='open']/..").click()
        question = browser.find_element(By.ID, "question-text")
        question.send_keys("متى عرفت مكانه فاجتنبته؟")
        assert browser.execute_script(direction, question) == "rtl"
        browser.find_element(By.ID, "ask-button").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#reading .para.cited"))
        paragraphs = browser.find_elements(By.CSS_SELECTOR, "#reading .para")
        assert {browser.execute_script(direction, p) for p in paragraphs} == {"rtl"}
        head = browser.find_element(By.CSS_SELECTOR, "#reading .passage-head")
        assert browser.execute_script(direction, head) == "ltr"
