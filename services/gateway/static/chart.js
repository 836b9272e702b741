// Questions per hour as stacked SVG bars (answered, not answered, still open) and the share
// not answered as a line on a 0–100 % axis. Plain DOM: no charting library, nothing to build.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (text != null) node.textContent = text;
  return node;
}

// hours: [{start_ms, questions, answered, insufficient, failed, unanswered_share}], oldest first
function drawQuestionsChart(svg, hours) {
  const width = 760, height = 260, left = 40, right = 44, top = 14, bottom = 34;
  const plotW = width - left - right, plotH = height - top - bottom;
  const most = Math.max(1, ...hours.map((h) => Math.max(h.questions, h.finished)));
  const step = Math.max(1, Math.ceil(most / 4));
  const yMax = step * Math.ceil(most / step);
  const y = (n) => top + plotH - (n / yMax) * plotH;
  const slot = plotW / Math.max(1, hours.length);
  const barW = Math.max(2, slot * 0.7);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);

  const axes = svgEl("g", { class: "axes" });
  for (let n = 0; n <= yMax; n += step) {
    axes.append(svgEl("line", { x1: left, x2: width - right, y1: y(n), y2: y(n), class: "grid" }));
    axes.append(svgEl("text", { x: left - 6, y: y(n) + 4, "text-anchor": "end" }, String(n)));
  }
  for (const pct of [0, 50, 100]) {
    const yy = top + plotH - (pct / 100) * plotH;
    axes.append(svgEl("text", { x: width - right + 6, y: yy + 4 }, pct + "%"));
  }
  svg.append(axes);

  const bars = svgEl("g", { class: "bars" });
  const points = [];
  hours.forEach((h, i) => {
    const x = left + i * slot + (slot - barW) / 2;
    const notAnswered = h.insufficient + h.failed;
    const open = Math.max(0, h.questions - h.finished);
    const group = svgEl("g", {
      class: "hour",
      "data-start": h.start_ms,
      "data-questions": h.questions,
      "data-answered": h.answered,
      "data-unanswered": notAnswered,
    });
    let base = 0;
    for (const [count, cls] of [[h.answered, "answered"], [notAnswered, "unanswered"], [open, "open"]]) {
      if (!count) continue;
      group.append(svgEl("rect", {
        class: "bar " + cls, x, width: barW, y: y(base + count), height: y(base) - y(base + count),
      }));
      base += count;
    }
    const label = new Date(h.start_ms).getHours().toString().padStart(2, "0") + ":00";
    const share = h.unanswered_share == null ? "" : ", " + Math.round(h.unanswered_share * 100) + "% not answered";
    group.append(svgEl("title", {}, `${label}: ${h.questions} asked, ${h.answered} answered${share}`));
    if (i % 3 === 0) {
      bars.append(svgEl("text", { x: x + barW / 2, y: height - bottom + 16, "text-anchor": "middle" }, label));
    }
    bars.append(group);
    if (h.unanswered_share != null) {
      points.push([x + barW / 2, top + plotH - h.unanswered_share * plotH]);
    }
  });
  svg.append(bars);
  if (points.length) {
    svg.append(svgEl("polyline", { class: "share", points: points.map((p) => p.join(",")).join(" ") }));
    for (const [px, py] of points) svg.append(svgEl("circle", { class: "share", cx: px, cy: py, r: 3 }));
  }
}
