// ClueWeaver reading room: plain JavaScript over the server's JSON API (see /docs). No external
// assets, so the page works offline. Progress streams are read with fetch (not EventSource) so
// that the bearer token travels in a header, never in a URL.
"use strict";

const STAGES = ["segment", "finder", "pack", "interpret", "calibrate"];
// Listed once the server reports them: the wait for the encoder to load, the query writer (off by
// default) and the book's index (read from the cache, or built on a first question).
const OCCASIONAL_STAGES = ["encoder", "query", "index"];
const CONTEXT = 2; // paragraphs shown on each side of a cited one

const state = {
  token: localStorage.getItem("clueweaver-token") || "",
  books: [],
  bookId: null,
  chapters: [],
  citations: new Set(),
  settings: null,
  polling: null,
};

const $ = (id) => document.getElementById(id);

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// What retrieval read as the question asked (the trace's segment_source): the chapters it names, read
// first, and the names it writes in Latin letters, read as the book writes them.
function readNotes(source) {
  const notes = [];
  const chapters = source.named_chapters_read_first || [];
  if (chapters.length) notes.push(`Read first: chapter ${chapters.join(", ")}, which the question names.`);
  const names = Object.entries(source.names_read_across_scripts || {});
  if (names.length) {
    notes.push(`Names read as the book writes them: ${names.map(([asked, written]) => `${asked}: ${written.join(", ")}`).join("; ")}.`);
  }
  return notes;
}

function authHeaders() {
  return state.token ? { Authorization: `Bearer ${state.token}` } : {};
}

function askForToken() {
  const token = window.prompt("This server needs its access token (ask whoever runs it):", "");
  if (!token) return false;
  state.token = token.trim();
  localStorage.setItem("clueweaver-token", state.token);
  return true;
}

async function api(path, options = {}, retried = false) {
  const response = await fetch(path, { ...options, headers: { ...authHeaders(), ...(options.headers || {}) } });
  if (response.status === 401 && !retried && askForToken()) return api(path, options, true);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail || `${response.status} ${response.statusText}`);
  return body;
}

function show(element, visible) {
  element.hidden = !visible;
}

// --- library ---------------------------------------------------------------------------------

async function loadSettings() {
  try {
    state.settings = await api("/api/presets");
    const presets = $("preset");
    presets.innerHTML = Object.entries(state.settings.presets)
      .map(([name, p]) => `<option value="${escapeHtml(name)}">${escapeHtml(name)} (${p.max_selected} segments, ${p.char_budget} characters)</option>`)
      .join("");
    presets.value = state.settings.default_preset;
    $("self-calibration").checked = state.settings.self_calibration;
    $("question-text").maxLength = state.settings.limits.max_question_chars;
    fillLanguages(state.settings);
    $("upload-limits").textContent = `(${state.settings.limits.formats.join(", ")}, up to ${state.settings.limits.max_upload_mb} MB)`;
    $("server-status").textContent = "Models: " + state.settings.models.join("; ");
    await watchEncoder();
  } catch (error) {
    $("server-status").textContent = `Cannot reach the server: ${error.message}`;
  }
}

// The upload's language picker: detection by default, or the server's own language when it sets one.
function fillLanguages(settings) {
  const picker = $("upload-language");
  const detected = settings.default_language ? `the server's language, ${languageName(settings.default_language)}` : "the language detected from its text";
  picker.innerHTML = `<option value="">${escapeHtml(detected)}</option>` + settings.languages
    .map((code) => `<option value="${escapeHtml(code)}">${escapeHtml(languageName(code))}</option>`)
    .join("");
}

// The retrieval encoder loads after the server starts: say so until it is ready.
async function watchEncoder() {
  const encoder = (await api("/health")).encoder;
  const models = "Models: " + state.settings.models.join("; ");
  if (encoder.status === "loading") {
    $("server-status").textContent = `${models} · Loading the retrieval encoder ${encoder.name} (${Math.round(encoder.seconds)} s so far); questions asked now wait for it.`;
    setTimeout(watchEncoder, 2000);
  } else if (encoder.status === "failed") {
    $("server-status").textContent = `${models} · The retrieval encoder ${encoder.name} failed to load: ${encoder.error}`;
  } else {
    $("server-status").textContent = models;
  }
}

function languageName(code) {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code);
  } catch (_) {
    return code;
  }
}

function bookMeta(book) {
  const language = book.language ? ` · ${escapeHtml(languageName(book.language))}` : "";
  return `${book.paragraphs} paragraphs · ${book.chapters} chapters · ${escapeHtml(book.format)}${language}`;
}

function renderBooks() {
  const list = $("book-list");
  show($("library-empty"), state.books.length === 0);
  list.innerHTML = state.books
    .map((book) => {
      let status = "";
      if (book.index_status === "failed") status = `<p class="status-failed">Indexing failed: ${escapeHtml(book.index_message)}</p>`;
      else if (book.index_status === "queued") status = `<span class="meta status-queued">queued for indexing (after the books before it)</span>`;
      else if (book.index_status !== "ready")
        status = `<progress max="1" value="${book.index_progress}" title="indexing"></progress><span class="meta">indexing ${Math.round(book.index_progress * 100)}%</span>`;
      return `<li data-book="${book.book_id}" class="${book.book_id === state.bookId ? "selected" : ""}">
        <div class="title-row"><button type="button" class="link select-book">${escapeHtml(book.title)}</button>
        <button type="button" class="danger delete-book" title="Delete this book">delete</button></div>
        <div class="meta">${bookMeta(book)}</div>${status}</li>`;
    })
    .join("");
}

async function loadBooks() {
  try {
    state.books = (await api("/api/books")).books;
  } catch (error) {
    $("upload-message").textContent = error.message;
    return;
  }
  renderBooks();
  const current = state.books.find((b) => b.book_id === state.bookId);
  if (current) updateAskAvailability(current);
  clearTimeout(state.polling);
  if (state.books.some((b) => b.index_status === "queued" || b.index_status === "indexing")) state.polling = setTimeout(loadBooks, 700);
}

function uploadBook(event) {
  event.preventDefault();
  const file = $("upload-file").files[0];
  const message = $("upload-message");
  message.className = "message";
  if (!file) {
    message.textContent = "Choose a file first.";
    return;
  }
  const form = new FormData();
  form.append("file", file);
  if ($("upload-language").value) form.append("language", $("upload-language").value);
  const request = new XMLHttpRequest();
  const progress = $("upload-progress");
  show(progress, true);
  progress.value = 0;
  $("upload-button").disabled = true;
  request.upload.onprogress = (e) => {
    if (e.lengthComputable) progress.value = e.loaded / e.total;
  };
  request.onloadend = async () => {
    show(progress, false);
    $("upload-button").disabled = false;
    let body = {};
    try {
      body = JSON.parse(request.responseText);
    } catch (_) {}
    if (request.status === 401 && askForToken()) return uploadBook(event);
    if (request.status === 200 || request.status === 201) {
      message.textContent = (request.status === 201 ? `Added “${body.title}”.` : `“${body.title}” is already in the library.`) + (body.warnings || []).map((w) => ` Note: ${w}`).join("");
      $("upload-file").value = "";
      await loadBooks();
      selectBook(body.book_id);
    } else {
      message.className = "message bad";
      message.textContent = body.detail || `Upload failed (${request.status || "no connection"}).`;
    }
  };
  request.open("POST", "/api/books");
  for (const [key, value] of Object.entries(authHeaders())) request.setRequestHeader(key, value);
  request.send(form);
}

async function deleteBook(bookId) {
  const book = state.books.find((b) => b.book_id === bookId);
  if (!window.confirm(`Delete “${book ? book.title : bookId}”, its index and its past questions?`)) return;
  try {
    await api(`/api/books/${bookId}`, { method: "DELETE" });
  } catch (error) {
    $("upload-message").textContent = error.message;
  }
  if (state.bookId === bookId) {
    state.bookId = null;
    show($("ask-form"), false);
    show($("ask-hint"), true);
    show($("answer"), false);
    $("reading").innerHTML = "";
    $("history").innerHTML = "";
  }
  loadBooks();
}

function updateAskAvailability(book) {
  const ready = book.index_status === "ready";
  $("ask-button").disabled = !ready;
  $("ask-hint").textContent = ready ? "" : book.index_status === "failed" ? "Indexing failed; delete the book and upload it again." : "Indexing… you can ask when it is done.";
  show($("ask-hint"), !ready);
}

async function selectBook(bookId) {
  state.bookId = bookId;
  renderBooks();
  const book = state.books.find((b) => b.book_id === bookId);
  if (!book) return;
  $("ask-title").textContent = `Ask about “${book.title}”`;
  show($("ask-form"), true);
  updateAskAvailability(book);
  show($("answer"), false);
  show($("progress"), false);
  show($("ask-error"), false);
  state.citations = new Set();
  try {
    state.chapters = (await api(`/api/books/${bookId}/chapters`)).chapters;
  } catch (error) {
    state.chapters = [];
  }
  const limit = $("max-chapter");
  limit.innerHTML = `<option value="">the whole book</option>` + state.chapters.map((c) => `<option value="${c.number}">${escapeHtml(chapterLabel(c))}</option>`).join("");
  const nav = $("chapter-select");
  nav.innerHTML = `<option value="">choose a chapter</option>` + state.chapters.map((c) => `<option value="${c.first_paragraph}-${c.last_paragraph}">${escapeHtml(c.title)}</option>`).join("");
  $("reading").innerHTML = "";
  show($("reader-hint"), true);
  loadHistory();
}

// Chapters as the book numbers them (label: "24", "1.2" for chapter II of story I), titled with their
// volume, part or story as the server joins them; "Chapter 6: A Ticket to Exeter" names itself, "II."
// needs its number.
function chapterLabel(chapter) {
  const title = chapter.full_title;
  return /^(chapter|part|book|volume|act|scene|letter|stave|canto|adventure)\b/i.test(title) ? title : `chapter ${chapter.label}: ${title}`;
}

async function loadHistory() {
  const list = $("history");
  if (!state.bookId) return;
  let questions = [];
  try {
    questions = (await api(`/api/books/${state.bookId}/questions`)).questions;
  } catch (error) {
    list.innerHTML = `<li class="status-failed">${escapeHtml(error.message)}</li>`;
    return;
  }
  show($("history-empty"), questions.length === 0);
  $("history-empty").textContent = "No questions about this book yet.";
  list.innerHTML = questions
    .map((q) => {
      const chip = q.answer && q.answer.length > 40 ? `${q.answer.slice(0, 39)}…` : q.answer || "–";
      const outcome = q.status === "done" ? `<span class="answer-chip">${escapeHtml(chip)}</span>` : `<span class="status-failed">${escapeHtml(q.status)}</span> `;
      const when = new Date(q.asked_at * 1000).toLocaleString();
      return `<li><button type="button" class="link past-question" dir="auto" data-question="${q.question_id}">${outcome}${escapeHtml(q.request.text)}</button><div class="muted">${when}</div></li>`;
    })
    .join("");
}

// --- asking ----------------------------------------------------------------------------------

function currentKind() {
  return document.querySelector("input[name=kind]:checked").value;
}

const PLACEHOLDERS = {
  mcq: "Who hid the wages in the signal lantern?",
  claim: "Tobias Wren was at the Anchor inn when the clock stopped.",
  open: "Why did Hester doubt Silas Garrow's account of the storm night?",
};

function updateKind() {
  const kind = currentKind();
  show($("options"), kind === "mcq");
  $("question-label").textContent = kind === "claim" ? "Claim" : "Question";
  $("question-text").placeholder = PLACEHOLDERS[kind];
}

function renderProgress(stages) {
  const names = [...OCCASIONAL_STAGES.filter((name) => stages[name]), ...STAGES];
  $("progress").innerHTML = names.map((name) => {
    const stage = stages[name] || {};
    let details = stage.status === "done" ? ` ${stage.seconds.toFixed(2)} s` + (stage.kept !== undefined ? `, kept ${stage.kept} of ${stage.segments}` : "") + (stage.answer ? `, ${stage.answer}` : "") : "";
    if (stage.status === "progress") details = ` ${stage.done} of ${stage.total} ${stage.unit}`;
    return `<li class="${stage.status || ""}">${name}${escapeHtml(details)}</li>`;
  }).join("");
}

async function* serverEvents(url) {
  const response = await fetch(url, { headers: authHeaders() });
  if (!response.ok) throw new Error((await response.json().catch(() => ({}))).detail || `progress stream failed (${response.status})`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}

async function ask(event) {
  event.preventDefault();
  const kind = currentKind();
  const body = { kind, question: $("question-text").value.trim(), preset: $("preset").value || null, self_calibration: $("self-calibration").checked };
  const limit = $("max-chapter").value;
  if (limit) body.max_chapter = Number(limit);
  if (kind === "mcq") {
    body.options = {};
    for (const input of document.querySelectorAll("#options input")) if (input.value.trim()) body.options[input.dataset.label] = input.value.trim();
  }
  const error = $("ask-error");
  show(error, false);
  show($("answer"), false);
  $("ask-button").disabled = true;
  const stages = {};
  renderProgress(stages);
  show($("progress"), true);
  let job = null;
  try {
    job = await api(`/api/books/${state.bookId}/questions`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    for await (const message of serverEvents(job.events_url)) {
      if (message.event === "stage" && [...OCCASIONAL_STAGES, ...STAGES].includes(message.data.stage)) {
        stages[message.data.stage] = message.data;
        renderProgress(stages);
      } else if (message.event === "failed") {
        throw new Error(message.data.error);
      } else if (message.event === "done") {
        renderAnswer(await api(`/api/questions/${job.question_id}`));
      }
    }
  } catch (failure) {
    error.textContent = failure.message;
    show(error, true);
    if (!job) show($("progress"), false); // refused before it started
  } finally {
    $("ask-button").disabled = false;
    loadHistory();
  }
}

function citeLinks(text) {
  return escapeHtml(text).replace(/\[(\d+(?:\s*,\s*\d+)*)\]/g, (_, ids) => "[" + ids.split(/\s*,\s*/).map((id) => `<a href="#p-${id}" class="cite" data-id="${id}">${id}</a>`).join(", ") + "]");
}

function idLinks(ids) {
  return ids.map((id) => `<a href="#p-${id}" class="cite" data-id="${id}">${id}</a>`).join(", ");
}

function renderAnswer(record) {
  show($("ask-error"), false);
  const result = record.result;
  const request = record.request;
  const trace = result.trace;
  $("answer-value").textContent = result.answer || "(no answer)";
  $("answer-text").textContent = request.options && request.options[result.answer] ? request.options[result.answer] : "";
  const calibration = $("calibration-note");
  const dropped = trace.interpreter.calibration_dropped_ids || [];
  if (request.kind === "open" && result.answer_source === "calibration") {
    const revised = result.calibration_changed ? `revised the first answer (“${trace.interpreter.provisional.answer}”)` : "confirmed the answer";
    const checked = dropped.length ? `; it dropped cited paragraphs that do not support it: ${dropped.join(", ")}` : "; every cited paragraph supports it";
    calibration.textContent = `Self-calibration checked each cited paragraph against the answer and ${revised}${checked}.`;
  } else if (result.calibration_changed) {
    const provisional = trace.interpreter.provisional.answer;
    calibration.textContent = `Self-calibration changed the answer: the first reading gave ${provisional}; on re-checking the same evidence the Interpreter chose ${result.answer}.`;
  } else if (result.answer_source === "calibration") {
    calibration.textContent = "Self-calibration re-checked the answer and kept it.";
  }
  show(calibration, result.answer_source === "calibration");
  const fallback = $("fallback-note");
  fallback.textContent = "No model output could be read, so this answer is a flagged placeholder, not the model's answer.";
  show(fallback, result.fallback);
  const limitChapter = state.chapters.find((c) => c.number === request.max_chapter);
  const limit = request.max_chapter != null ? `, reading up to chapter ${limitChapter ? limitChapter.label : request.max_chapter}` : "";
  const asked = { claim: "Claim", open: "Open question" }[request.kind] || "Question";
  $("asked").textContent = `${asked}: ${request.text}${limit}`;
  $("rationale").innerHTML = citeLinks(result.rationale || "(no rationale)");
  $("warnings").innerHTML = [...readNotes(trace.segment_source || {}), ...trace.warnings]
    .map((w) => `<li>${escapeHtml(w)}</li>`)
    .join("");

  const finder = trace.finder;
  $("finder-summary").textContent = finder.ran
    ? `Finder trace: ${finder.segments} segments read in ${finder.calls} batched call; kept ${finder.kept}, dropped ${finder.segments - finder.kept}`
    : `Finder off: ${finder.segments} retrieved segments packed directly`;
  $("finder-rows").innerHTML = trace.segments
    .map((segment) => {
      const verdict = segment.finder;
      const label = verdict.verdict || verdict.status.replace(/_/g, " ");
      const reason = verdict.status === "unparseable" ? `unreadable output: ${verdict.output}` : verdict.rationale;
      return `<tr class="${verdict.kept ? "kept" : "dropped"}"><td>${segment.index}</td>
        <td><a href="#p-${segment.span[0]}" class="cite" data-id="${segment.span[0]}">${segment.span[0]}</a>–${segment.span[1]} <span class="muted">${escapeHtml(segment.kind)}</span></td>
        <td class="verdict">${verdict.kept ? "kept" : "dropped"} (${escapeHtml(label)})</td>
        <td>${idLinks(verdict.cited_ids)}</td><td>${citeLinks(reason || "")}</td></tr>`;
    })
    .join("");
  const packet = trace.packet;
  $("packet-summary").textContent = `Evidence packet: ${packet.paragraph_ids.length} paragraphs in ${packet.spans.length} spans, ${packet.chars} characters`;
  $("packet").textContent = packet.text;
  const tokens = trace.tokens.total;
  $("timings").innerHTML =
    Object.entries(trace.timings)
      .map(([stage, seconds]) => `<tr><td>${escapeHtml(stage)}</td><td>${seconds.toFixed(3)} s</td></tr>`)
      .join("") + `<tr><td>tokens</td><td>${tokens.prompt} prompt, ${tokens.completion} generated</td></tr>`;
  show($("answer"), true);
  showCitations(result.citations);
}

// --- reading pane ------------------------------------------------------------------------------

// The label of a passage's chapter; none for a book without chapters (all of it is chapter 0).
function chapterTitle(number) {
  if (state.chapters.length === 0) return "";
  const chapter = state.chapters.find((c) => c.number === number);
  return chapter ? chapter.title : number === 0 ? "Front matter" : `Chapter ${number}`;
}

function ranges(ids) {
  const sorted = [...ids].sort((a, b) => a - b);
  const merged = [];
  for (const id of sorted) {
    const start = Math.max(0, id - CONTEXT);
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], id + CONTEXT);
    else merged.push([start, id + CONTEXT]);
  }
  return merged;
}

async function passage(start, end) {
  const body = await api(`/api/books/${state.bookId}/paragraphs?start=${start}&end=${end}`);
  const section = document.createElement("div");
  section.className = "passage";
  const first = body.paragraphs[0];
  section.innerHTML =
    `<p class="passage-head">${[escapeHtml(chapterTitle(first.chapter)), `paragraphs ${body.start}–${body.end}`].filter(Boolean).join(" · ")}</p>` +
    body.paragraphs
      .map((p) => `<p dir="auto" id="p-${p.id}" data-id="${p.id}" class="para${p.is_heading ? " heading" : ""}${state.citations.has(p.id) ? " cited" : ""}"><span class="pid">[${p.id}]</span>${escapeHtml(p.text)}</p>`)
      .join("");
  return section;
}

async function showCitations(ids) {
  state.citations = new Set(ids);
  const reading = $("reading");
  reading.innerHTML = "";
  show($("reader-hint"), ids.length === 0);
  if (!ids.length) {
    $("reader-hint").textContent = "The answer cites no paragraph.";
    return;
  }
  for (const [start, end] of ranges(ids)) reading.appendChild(await passage(start, end));
  const first = document.getElementById(`p-${Math.min(...ids)}`);
  if (first) scrollWithin(first, "auto");
}

// Scroll the reading pane only (scrollIntoView would scroll the whole page as well).
function scrollWithin(element, behavior) {
  const reading = $("reading");
  const top = element.getBoundingClientRect().top - reading.getBoundingClientRect().top + reading.scrollTop - reading.clientHeight / 3;
  reading.scrollTo({ top: Math.max(0, top), behavior });
}

async function goToParagraph(id) {
  let element = document.getElementById(`p-${id}`);
  if (!element) {
    $("reading").appendChild(await passage(Math.max(0, id - CONTEXT), id + CONTEXT));
    element = document.getElementById(`p-${id}`);
  }
  if (!element) return;
  scrollWithin(element, "smooth");
  element.classList.add("flash");
  setTimeout(() => element.classList.remove("flash"), 1500);
}

async function showChapter(value) {
  if (!value) return;
  const [first, last] = value.split("-").map(Number);
  const reading = $("reading");
  reading.innerHTML = "";
  show($("reader-hint"), false);
  for (let start = first; start <= last; start += 500) reading.appendChild(await passage(start, Math.min(last, start + 499)));
  reading.scrollTop = 0;
}

// --- wiring ----------------------------------------------------------------------------------

document.addEventListener("click", (event) => {
  const cite = event.target.closest("a.cite");
  if (cite) {
    event.preventDefault();
    goToParagraph(Number(cite.dataset.id));
    return;
  }
  const item = event.target.closest("[data-book]");
  if (item && event.target.closest(".delete-book")) deleteBook(item.dataset.book);
  else if (item && event.target.closest(".select-book")) selectBook(item.dataset.book);
  const past = event.target.closest(".past-question");
  if (past) {
    api(`/api/questions/${past.dataset.question}`)
      .then((record) => {
        if (record.status === "done") renderAnswer(record);
        else {
          $("ask-error").textContent = `This question was not answered: ${record.error || record.status}`;
          show($("ask-error"), true);
        }
      })
      .catch((error) => {
        $("ask-error").textContent = error.message;
        show($("ask-error"), true);
      });
  }
});
$("upload-form").addEventListener("submit", uploadBook);
$("ask-form").addEventListener("submit", ask);
$("chapter-select").addEventListener("change", (event) => showChapter(event.target.value));
for (const radio of document.querySelectorAll("input[name=kind]")) radio.addEventListener("change", updateKind);

loadSettings().then(loadBooks);
