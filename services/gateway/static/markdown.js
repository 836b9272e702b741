// A small, safe Markdown renderer for answers and passages: it builds DOM nodes and
// never parses HTML, so text from the materials or a model cannot inject markup.
// Blocks: headings, bullet and numbered lists, fenced code (citations on its opening fence),
// paragraphs (line breaks kept).
// Inline: **strong**, *em*, `code`, [n] citations (buttons when the caller knows n);
// heading markers in the middle of a line (a quoted "### 中央値 …") are dropped.
"use strict";

const INLINE = /(\*\*[^*\n]+\*\*|__[^_\n]+__|`[^`\n]+`|\*[^*\s][^*\n]*\*|\[\d+\]|(?:^|\s|「)#{1,6}\s+)/g;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

function renderInline(text, options) {
  const out = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const token = match[0];
    if (match.index > last) out.append(document.createTextNode(text.slice(last, match.index)));
    last = match.index + token.length;
    if (token.startsWith("**") || token.startsWith("__")) {
      out.append(el("strong", "", token.slice(2, -2)));
    } else if (token.startsWith("`")) {
      out.append(el("code", "", token.slice(1, -1)));
    } else if (token.startsWith("*")) {
      out.append(el("em", "", token.slice(1, -1)));
    } else if (token.startsWith("[")) {
      const n = Number(token.slice(1, -1));
      if (options.onCitation && options.citations && options.citations.has(n)) {
        const button = el("button", "cite", String(n));
        button.type = "button";
        button.title = options.citations.get(n).title;
        button.addEventListener("click", () => options.onCitation(n));
        out.append(button);
      } else {
        out.append(el("sup", "cite-ref", token));
      }
    } else {
      // a heading marker inside a line: keep what stood before it (space or 「), drop the #s
      const lead = token.match(/^[\s「]?/)[0];
      if (lead) out.append(document.createTextNode(lead));
    }
  }
  if (last < text.length) out.append(document.createTextNode(text.slice(last)));
  return out;
}

function renderMarkdown(text, options = {}) {
  const root = document.createDocumentFragment();
  const lines = String(text || "").replace(/\r\n/g, "\n").split("\n");
  let paragraph = null;
  let list = null;
  const closeBlocks = () => { paragraph = null; list = null; };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = line.match(/^\s*(`{3,})(.*)$/);
    if (fence) {
      closeBlocks();
      const code = [];
      for (i++; i < lines.length && lines[i].trim() !== fence[1]; i++) code.push(lines[i]);
      const pre = el("pre"); pre.append(el("code", "", code.join("\n"))); root.append(pre);
      // a quoted block carries its citations on the opening fence (``` [2]): shown under it
      const cites = fence[2].match(/\[\d+\]/g);
      if (cites) { const p = el("p", "code-cite"); p.append(renderInline(cites.join(""), options)); root.append(p); }
      continue;
    }
    const heading = line.match(/^\s*(#{1,6})\s+(.*)$/);
    if (heading) {
      closeBlocks();
      const level = Math.min(6, heading[1].length + 2);  // inside a page: h3..h6
      const h = el("h" + level, "md-heading"); h.append(renderInline(heading[2], options));
      root.append(h);
      continue;
    }
    const item = line.match(/^\s*(?:[-*+]|(\d+)[.)])\s+(.*)$/);
    if (item) {
      const tag = item[1] ? "ol" : "ul";
      if (!list || list.tagName.toLowerCase() !== tag) {
        paragraph = null; list = el(tag); root.append(list);
      }
      const li = el("li"); li.append(renderInline(item[2], options)); list.append(li);
      continue;
    }
    if (!line.trim()) { closeBlocks(); continue; }
    list = null;
    if (!paragraph) { paragraph = el("p"); root.append(paragraph); }
    else paragraph.append(el("br"));
    paragraph.append(renderInline(line, options));
  }
  return root;
}

// The passage as text with the cited snippet marked (headings shown bold, markers dropped).
function renderPassage(text, snippet) {
  const root = document.createDocumentFragment();
  const plain = String(text || "").split("\n").map((line) => line.replace(/^\s*#{1,6}\s+/, "")).join("\n");
  const needle = String(snippet || "").replace(/#{1,6}\s+/g, "").trim();
  let at = needle ? plain.indexOf(needle) : -1;
  let length = needle.length;
  if (at < 0 && needle.length > 12) {  // whitespace may differ: match its first words
    const head = needle.slice(0, 12);
    at = plain.indexOf(head);
    length = at >= 0 ? Math.min(needle.length, plain.length - at) : 0;
  }
  if (at < 0) { root.append(document.createTextNode(plain)); return root; }
  root.append(document.createTextNode(plain.slice(0, at)));
  root.append(el("mark", "", plain.slice(at, at + length)));
  root.append(document.createTextNode(plain.slice(at + length)));
  return root;
}
