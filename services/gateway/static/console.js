// The eduanima console: plain DOM code over the gateway's API (no build step).
// Text from the API is only ever set as textContent or rendered by markdown.js (DOM nodes).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { token: "", user: "", subjects: [], subject: "", role: "", conversation: null };
const TEACHER_VIEWS = new Set(["materials", "unanswered", "search", "insights"]);
const INSIGHTS_REFRESH_MS = 15000;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

function button(label, onClick, className) {
  const b = el("button", className || "secondary", label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

async function problem(response) {
  try {
    const body = await response.json();
    const detail = Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join("; ") : body.detail;
    return response.status + ": " + detail;
  } catch (_) { return "HTTP " + response.status; }
}

async function api(path, options = {}) {
  const headers = { Authorization: "Bearer " + state.token, ...(options.headers || {}) };
  let body = options.body;
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const response = await fetch(path, { method: options.method || "GET", headers, body });
  if (response.status === 401) { signOut("Your sign-in is no longer valid; sign in again."); }
  if (!response.ok) throw new Error(await problem(response));
  return response.json();
}

function show(node, text, isError) { node.textContent = text; node.className = isError ? "error" : ""; }

// --- sign-in -------------------------------------------------------------------------------

function takeTokenFromUrl() {
  // make demo prints http://host/#token=…: store it once, then drop it from the address bar
  const match = location.hash.match(/token=([^&]+)/);
  if (match) {
    localStorage.setItem("eduanima.token", decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + "#ask");
  }
}

function signOut(message) {
  localStorage.removeItem("eduanima.token");
  state.token = "";
  $("who").hidden = true; $("tabs").hidden = true;
  for (const view of document.querySelectorAll(".view")) view.hidden = true;
  $("sign-in").hidden = false;
  show($("sign-in-error"), message || "", Boolean(message));
}

async function start() {
  takeTokenFromUrl();
  $("passage").hidden = true;
  state.token = localStorage.getItem("eduanima.token") || "";
  if (!state.token) { signOut(); return; }
  try {
    state.user = (await api("/v1/me")).user_id;
    state.subjects = await api("/v1/subjects");
  } catch (err) { if (state.token) signOut(err.message); return; }
  $("sign-in").hidden = true;
  $("who").hidden = false; $("tabs").hidden = false;
  $("user").textContent = state.user;
  const picker = $("subject"); picker.replaceChildren();
  for (const s of state.subjects) {
    const option = el("option", "", s.title ? s.subject_id + " — " + s.title : s.subject_id);
    option.value = s.subject_id; picker.append(option);
  }
  const saved = localStorage.getItem("eduanima.subject");
  const chosen = state.subjects.find((s) => s.subject_id === saved) || state.subjects[0];
  if (!chosen) { show($("thread-note"), "You are not enrolled in any subject yet.", true); }
  selectSubject(chosen ? chosen.subject_id : "");
}

function selectSubject(subjectId) {
  state.subject = subjectId;
  $("subject").value = subjectId;
  localStorage.setItem("eduanima.subject", subjectId);
  const entry = state.subjects.find((s) => s.subject_id === subjectId);
  state.role = entry ? entry.role : "";
  $("role").textContent = state.role;
  for (const tab of document.querySelectorAll("#tabs a[data-role]")) {
    tab.hidden = tab.dataset.role !== state.role;
  }
  newConversation();
  route();
}

// --- views ---------------------------------------------------------------------------------------

function route() {
  if (!state.token) return;
  const view = (location.hash.replace("#", "") || "ask").split("&")[0];
  for (const tab of document.querySelectorAll("#tabs a")) tab.classList.toggle("active", tab.dataset.view === view);
  for (const section of document.querySelectorAll(".view")) section.hidden = true;
  if (TEACHER_VIEWS.has(view) && state.role !== "teacher") {
    $("forbidden-text").textContent = "This view is for teachers of " + (state.subject || "a subject") + ".";
    $("view-forbidden").hidden = false;
    return;
  }
  if (view === "materials" || view === "notes") { $("view-materials").hidden = false; loadMaterials(); }
  else if (view === "unanswered") { $("view-unanswered").hidden = false; loadUnanswered(); }
  else if (view === "search") { $("view-search").hidden = false; }
  else if (view === "insights") { $("view-insights").hidden = false; loadInsights(); }
  else { $("view-ask").hidden = false; }
}

// --- ask, with follow-ups in a thread ---------------------------------------------------------------

function newConversation() {
  state.conversation = null;
  $("thread").replaceChildren();
  $("thread-note").textContent = "";
}

// EventSource cannot send an Authorization header, so the stream is read with fetch.
async function follow(eventsUrl, onEvent) {
  const response = await fetch(eventsUrl, { headers: { Authorization: "Bearer " + state.token } });
  if (!response.ok) throw new Error(await problem(response));
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end); buffer = buffer.slice(end + 2);
      let kind = "message"; const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) kind = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) onEvent(kind, JSON.parse(data.join("\n")));
    }
  }
}

function renderAnswer(node, text, citations) {
  const byNumber = new Map((citations || []).map((c) => [c.n, c]));
  node.replaceChildren(renderMarkdown(text, {
    citations: byNumber, onCitation: (n) => openPassage(byNumber.get(n)),
  }));
}

function renderCitations(list, citations) {
  list.replaceChildren();
  for (const c of citations) {
    const item = el("li");
    const label = "[" + c.n + "] " + c.title + (c.page != null ? ", p. " + c.page : "");
    const b = button(label, () => openPassage(c), "citation");
    b.dataset.chunkId = c.chunk_id;
    item.append(b);
    list.append(item);
  }
}

async function openPassage(citation) {
  const panel = $("passage");
  panel.hidden = false;
  $("passage-title").textContent = citation.title;
  $("passage-meta").textContent = "loading…";
  $("passage-text").replaceChildren();
  try {
    const p = await api("/v1/chunks/" + encodeURIComponent(citation.chunk_id));
    $("passage-title").textContent = p.title;
    const where = [p.filename + " (v" + p.version + ")"];
    if (p.page != null) where.push("p. " + p.page);
    if (p.heading_path.length) where.push(p.heading_path.join(" › "));
    if (!p.is_active) where.push("no longer active");
    $("passage-meta").textContent = where.join(" · ");
    $("passage-text").replaceChildren(renderPassage(p.text, citation.snippet));
  } catch (err) { show($("passage-meta"), err.message, true); }
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question || !state.subject) return;
  const turn = el("article", "turn");
  const progress = el("ul", "progress");
  const answer = el("div", "answer");
  const status = el("p", "status", "asking…");
  const citations = el("ol", "citations");
  turn.append(el("p", "q", question), progress, answer, status, citations);
  $("thread").append(turn);
  $("question").value = "";
  $("ask-button").disabled = true;
  try {
    const body = { subject_id: state.subject, question };
    if (state.conversation) body.conversation_id = state.conversation;
    const accepted = await api("/v1/questions", { method: "POST", json: body });
    state.conversation = accepted.conversation_id;
    $("thread-note").textContent = "(follow-ups continue this conversation)";
    status.textContent = "searching…";
    let text = "";
    await follow(accepted.events_url, (kind, ev) => {
      if (kind === "progress") progress.append(el("li", "", ev.message));
      else if (kind === "delta") { text += ev.delta; renderAnswer(answer, text, []); }
      else if (kind === "final") {
        renderAnswer(answer, ev.answer, ev.citations);
        renderCitations(citations, ev.citations);
        status.textContent = ev.status + " after " + ev.iterations + " iteration(s)" +
          (ev.stop_reason ? " (" + ev.stop_reason + ")" : "");
        status.className = "status " + ev.status;
        turn.dataset.status = ev.status;
      } else if (kind === "error") { show(status, ev.detail, true); }
    });
  } catch (err) { show(status, err.message, true); }
  finally { $("ask-button").disabled = false; }
}

// --- materials (teachers: everything; students: their notes) --------------------------------------

function cell(row, text) { row.append(el("td", "", text)); }

async function loadMaterials() {
  const teacher = state.role === "teacher";
  $("materials-heading").textContent = teacher ? "Materials" : "My notes";
  $("visibility").value = teacher ? "subject" : "private";
  $("visibility").disabled = !teacher;
  const body = $("materials-table").querySelector("tbody");
  try {
    const listing = await api("/v1/subjects/" + encodeURIComponent(state.subject) + "/materials");
    body.replaceChildren();
    const rows = teacher ? listing.materials : listing.materials.filter((m) => m.owner_id === state.user);
    for (const m of rows) {
      const row = el("tr", m.is_active ? "" : "inactive");
      row.dataset.materialId = m.material_id; row.dataset.filename = m.filename;
      cell(row, m.title); cell(row, m.filename);
      cell(row, "v" + m.version + (m.versions > 1 ? " of " + m.versions : ""));
      cell(row, m.is_active ? "yes" : "no"); cell(row, m.visibility); cell(row, m.owner_id);
      cell(row, String(m.chunk_count)); cell(row, m.ingest_status);
      cell(row, new Date(m.updated_at).toLocaleString());
      const actions = el("td", "actions");
      actions.append(button("History", () => showHistory(m)));
      if (m.is_active) actions.append(button("Re-read", () => reread(m)));
      if (m.is_active) actions.append(button("Deactivate", () => change(m, "deactivate")));
      else actions.append(button("Reactivate", () => change(m, "reactivate")));
      actions.append(button("Delete", () => remove(m), "danger"));
      row.append(actions); body.append(row);
    }
    const uploads = $("uploads"); uploads.replaceChildren();
    for (const u of listing.uploads) {
      uploads.append(el("li", u.status === "FAILED" ? "error" : "",
        u.filename + " (" + u.user_id + "): " + u.status + (u.error ? " — " + u.error : "")));
    }
  } catch (err) { show($("upload-status"), err.message, true); }
}

async function change(material, action) {
  try {
    await api("/v1/materials/" + material.material_id + "/" + action, { method: "POST" });
    show($("upload-status"), material.filename + ": " + action + "d");
  } catch (err) { show($("upload-status"), err.message, true); }
  loadMaterials();
}

// after a parser change: the original read again; a new version only if its chunks differ
async function reread(material) {
  try {
    await settle(await api("/v1/materials/" + material.material_id + "/reread", { method: "POST" }));
  } catch (err) { show($("upload-status"), err.message, true); }
  loadMaterials();
}

async function settle(accepted) {  // live ingest status until the ingestor settles the job
  for (;;) {
    const job = await api(accepted.status_url);
    show($("upload-status"), accepted.filename + ": " + job.status + (job.error ? " — " + job.error : ""),
      job.status === "FAILED");
    if (job.status !== "PENDING") return job;
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
}

async function remove(material) {
  if (!window.confirm("Delete every version of " + material.filename + "? This cannot be undone.")) return;
  try {
    const deleted = await api("/v1/materials/" + material.material_id, { method: "DELETE" });
    show($("upload-status"), material.filename + ": deleted (" + deleted.deleted_versions.length + " version(s))");
  } catch (err) { show($("upload-status"), err.message, true); }
  loadMaterials();
}

async function showHistory(material) {
  const rows = $("history-rows"); rows.replaceChildren();
  $("history").hidden = false;
  $("history-title").textContent = "Versions of " + material.filename;
  for (const v of await api("/v1/materials/" + material.material_id + "/history")) {
    const row = el("tr", v.is_active ? "" : "inactive");
    cell(row, "v" + v.version); cell(row, v.is_active ? "active" : "inactive");
    cell(row, String(v.chunk_count)); cell(row, new Date(v.created_at).toLocaleString());
    cell(row, v.material_id); rows.append(row);
  }
}

async function upload(event) {
  event.preventDefault();
  const file = $("file").files[0];
  if (!file) return;
  const form = new FormData();
  form.append("file", file);
  form.append("title", $("title").value);
  form.append("visibility", $("visibility").value);
  show($("upload-status"), file.name + ": uploading…");
  try {
    const path = "/v1/subjects/" + encodeURIComponent(state.subject) + "/materials";
    await settle(await api(path, { method: "POST", body: form }));
    $("upload-form").reset();
  } catch (err) { show($("upload-status"), err.message, true); }
  loadMaterials();
}

// --- the unanswered log ------------------------------------------------------------------------

async function loadUnanswered() {
  const groups = $("unanswered-groups");
  try {
    const query = $("include-resolved").checked ? "?include_resolved=true" : "";
    const log = await api("/v1/subjects/" + encodeURIComponent(state.subject) + "/unanswered" + query);
    $("unanswered-summary").textContent = log.total + " question(s) the materials could not answer.";
    groups.replaceChildren();
    for (const group of log.groups) {
      const box = el("div", "group");
      box.append(el("h3", "", "Missing: " + group.task + " (" + group.count + ")"));
      for (const entry of group.entries) {
        const item = el("div", "entry" + (entry.resolved_at ? " resolved" : ""));
        item.dataset.sessionId = entry.session_id;
        item.append(el("div", "", entry.question));
        item.append(el("div", "muted", entry.user_id + " · " + new Date(entry.created_at).toLocaleString() +
          (entry.resolved_at ? " · resolved by " + entry.resolved_by + (entry.resolution ? ": " + entry.resolution : "") : "")));
        for (const p of entry.best_passages) {
          item.append(el("div", "closest", "closest: " + p.title + (p.page != null ? " p. " + p.page : "") + " — " + p.snippet));
        }
        if (!entry.resolved_at) {
          item.append(button("Mark resolved", async () => {
            const note = window.prompt("What was done (optional)?", "") || "";
            await api("/v1/unanswered/" + entry.session_id + "/resolve", { method: "POST", json: { note } });
            loadUnanswered();
          }));
        }
        box.append(item);
      }
      groups.append(box);
    }
  } catch (err) { show($("unanswered-summary"), err.message, true); }
}

// --- insights (the insights service, through the gateway) ----------------------------------------

let insightsTimer = null;

function pct(x) { return x == null ? "–" : Math.round(x * 100) + "%"; }
function ms(x) { return x == null ? "–" : x >= 1000 ? (x / 1000).toFixed(1) + " s" : Math.round(x) + " ms"; }

async function loadInsights() {
  clearTimeout(insightsTimer);
  if ($("view-insights").hidden) return;
  try {
    const v = await api("/v1/subjects/" + encodeURIComponent(state.subject) + "/insights");
    const summary = v.questions + " question(s) asked, " + v.finished + " finished: " +
      v.answered + " answered, " + v.insufficient + " insufficient, " + v.failed + " failed (" +
      pct(v.unanswered_share) + " not answered). Mean iterations " + (v.mean_iterations ?? "–") +
      "; latency p50 " + ms(v.latency_ms.p50) + ", p95 " + ms(v.latency_ms.p95) + ".";
    show($("insights-summary"), summary + (v.complete ? "" : " (partial: some partitions are moving between instances)"));
    drawQuestionsChart($("insights-chart"), v.hourly);
    const topics = $("insights-topics"); topics.replaceChildren();
    for (const t of v.unanswered_topics) {
      const item = el("li");
      item.dataset.keyword = t.keyword;
      item.append(el("strong", "", t.keyword), el("span", "muted",
        " — " + t.sessions + " question(s); latest: " + t.example_question));
      topics.append(item);
    }
    if (!v.unanswered_topics.length) topics.append(el("li", "muted", "Nothing yet: every finished question found its evidence."));
    const rows = $("insights-materials").querySelector("tbody"); rows.replaceChildren();
    for (const m of v.materials) {
      const row = el("tr", m.active ? "" : "inactive");
      row.dataset.materialId = m.material_id;
      cell(row, m.title); cell(row, m.filename); cell(row, m.version == null ? "" : "v" + m.version);
      cell(row, m.active ? "yes" : "no"); cell(row, String(m.cited));
      rows.append(row);
    }
  } catch (err) { show($("insights-summary"), err.message, true); }
  insightsTimer = setTimeout(loadInsights, INSIGHTS_REFRESH_MS);
}

// --- the search test -----------------------------------------------------------------------------

function fmt(x) { return x == null ? "–" : Number(x).toFixed(3); }

async function searchTest(event) {
  event.preventDefault();
  const body = {
    query: $("search-query").value.trim(), mode: $("search-mode").value,
    k: $("search-k").value ? Number($("search-k").value) : null, loop: $("search-loop").checked,
  };
  const rows = $("search-results").querySelector("tbody");
  rows.replaceChildren(); $("search-loop-out").hidden = true;
  show($("search-summary"), "searching…");
  $("search-button").disabled = true;
  try {
    const out = await api("/v1/subjects/" + encodeURIComponent(state.subject) + "/search-test",
      { method: "POST", json: body });
    const s = out.search;
    show($("search-summary"), "k = " + s.k + " of " + s.n_scope + " chunks in scope" +
      (s.vector_path ? " · vector path " + s.vector_path : ""));
    for (const c of s.candidates) {
      const row = el("tr");
      cell(row, String(c.rank)); cell(row, fmt(c.score));
      cell(row, (c.ranks.bm25 || "–") + " / " + fmt(c.scores.bm25));
      cell(row, (c.ranks.vector || "–") + " / " + fmt(c.scores.vector));
      cell(row, c.title); cell(row, c.page == null ? "" : String(c.page));
      cell(row, c.heading_path.join(" › ")); cell(row, c.text.slice(0, 160));
      rows.append(row);
    }
    if (out.loop) {
      $("search-loop-out").hidden = false;
      const plan = $("loop-plan"); plan.replaceChildren();
      for (const t of out.loop.plan.tasks || []) plan.append(el("li", "", t.task_id + ": " + t.description + " [" + t.keywords.join(", ") + "]"));
      const its = $("loop-iterations"); its.replaceChildren();
      for (const it of out.loop.iterations) {
        const row = el("tr");
        cell(row, String(it.iteration)); cell(row, it.strategy || "");
        cell(row, (it.text_queries || []).join(" | ")); cell(row, String(it.k ?? ""));
        cell(row, String(it.new_evidence ?? "")); cell(row, (it.route || "") + " — " + (it.reason || ""));
        its.append(row);
      }
      $("loop-status").textContent = out.loop.status || "";
      renderAnswer($("loop-answer"), out.loop.answer, out.loop.citations);
    }
  } catch (err) { show($("search-summary"), err.message, true); }
  finally { $("search-button").disabled = false; }
}

// --- wiring --------------------------------------------------------------------------------------

$("sign-in-form").addEventListener("submit", (e) => {
  e.preventDefault();
  localStorage.setItem("eduanima.token", $("token").value.trim());
  $("token").value = "";
  start();
});
$("sign-out").addEventListener("click", () => signOut());
$("subject").addEventListener("change", () => selectSubject($("subject").value));
$("ask-form").addEventListener("submit", ask);
$("new-thread").addEventListener("click", newConversation);
$("upload-form").addEventListener("submit", upload);
$("include-resolved").addEventListener("change", loadUnanswered);
$("search-form").addEventListener("submit", searchTest);
$("passage-close").addEventListener("click", () => { $("passage").hidden = true; });
$("insights-refresh").addEventListener("click", loadInsights);
window.addEventListener("hashchange", () => { if (/token=/.test(location.hash)) start(); else route(); });
start();
