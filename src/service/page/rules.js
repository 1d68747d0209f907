// The rules page: renders the project's two rule texts (a small Markdown subset: headings,
// list items, paragraphs, code blocks, **bold** and `code`) and shows the rule that the
// address's fragment names (`/rules#AM-3.3`, `/rules#C.04.3%20C12`).
"use strict";

const DOCS = ["/rules/systems.md", "/rules/fide.md"];

function escapeHtml(text) {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function inline(text) {
  return escapeHtml(text)
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");
}

/** Blocks of a Markdown text, each `{kind, level, raw}`. */
function blocks(markdown) {
  const out = [];
  let current = null;
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (line.startsWith("```")) {
      if (fenced) {
        fenced = false;
        current = null;
      } else {
        fenced = true;
        current = { kind: "pre", raw: "" };
        out.push(current);
      }
      continue;
    }
    if (fenced) {
      current.raw += `${line}\n`;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (/^\s*\|/.test(line)) {
      // A table row is a block of its own, so that a criterion's row can be shown alone.
      if (!/^\s*\|[\s:|-]*$/.test(line)) out.push({ kind: "row", raw: line.trim() });
      current = null;
    } else if (heading) {
      out.push({ kind: "h", level: heading[1].length, raw: heading[2] });
      current = null;
    } else if (/^\s*[-*]\s+/.test(line) || /^\s*\d+\.\s+/.test(line)) {
      current = { kind: "li", raw: line.replace(/^\s*([-*]|\d+\.)\s+/, "") };
      out.push(current);
    } else if (line.trim() === "") {
      current = null;
    } else if (current && current.kind !== "h") {
      current.raw += ` ${line.trim()}`;
    } else {
      current = { kind: "p", raw: line.trim() };
      out.push(current);
    }
  }
  return out;
}

function render(list, into) {
  const nodes = [];
  for (const b of list) {
    let node;
    if (b.kind === "h") {
      node = document.createElement(`h${Math.min(b.level + 1, 6)}`);
      node.innerHTML = inline(b.raw);
    } else if (b.kind === "pre") {
      node = document.createElement("pre");
      node.textContent = b.raw;
    } else if (b.kind === "row") {
      node = document.createElement("p");
      node.className = "table-row";
      node.innerHTML = b.raw
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((cell) => inline(cell.trim()))
        .join(" │ ");
    } else {
      node = document.createElement("p");
      node.innerHTML = (b.kind === "li" ? "• " : "") + inline(b.raw);
    }
    into.append(node);
    nodes.push({ block: b, node });
  }
  return nodes;
}

function escapeRegex(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The rendered block that states rule `id`, or the nearest heading that covers it. */
function find(nodes, id) {
  const ruleId = id.split(" JP-")[0].trim();
  // A rule of the project's rule book: the block whose bold text starts with the id; then
  // the id without its letter or last number (`VZ-4.4(c)` → `VZ-4.4` → `VZ-4`).
  if (/^[A-Z]{2,3}-/.test(ruleId)) {
    let candidate = ruleId;
    while (candidate) {
      const bold = new RegExp(`\\*\\*${escapeRegex(candidate)}(?![\\w.])`);
      const hit = nodes.find((n) => bold.test(n.block.raw));
      if (hit) return hit.node;
      // `VZ-4.4(c)` → `VZ-4.4` → `VZ-4`, never below the rule's number.
      const shorter = /\)$/.test(candidate)
        ? candidate.replace(/\([^)]*\)$/, "")
        : candidate.replace(/\.[^.]*$/, "");
      if (shorter === candidate || !/^[A-Z]{2,3}-\d/.test(shorter)) break;
      candidate = shorter;
    }
    return null;
  }
  // A FIDE reference "C.04.3 C12": the section of the document, then the article in it.
  const match = /^(C\.\d+(?:\.\d+)*)\s*(.*)$/.exec(ruleId);
  if (!match) return null;
  const [, doc, article] = match;
  const docPattern = new RegExp(`${escapeRegex(doc)}(?![\\d.]*\\d)`);
  const start = nodes.findIndex((n) => n.block.kind === "h" && docPattern.test(n.block.raw));
  if (start < 0) return null;
  const level = nodes[start].block.level;
  let end = nodes.findIndex((n, i) => i > start && n.block.kind === "h" && n.block.level <= level);
  if (end < 0) end = nodes.length;
  const bare = article.replace(/^art\.\s*/, "").trim();
  if (bare) {
    const variants = new Set([bare, bare.replace(/^([A-Z])\.?(\d)/, "$1$2"), bare.replace(/^([A-Z])(\d)/, "$1.$2")]);
    for (const v of variants) {
      const pattern = new RegExp(`(^|[^\\w.])${escapeRegex(v)}(?![\\w]|\\.\\d)`);
      for (let i = start + 1; i < end; i++) {
        if (pattern.test(nodes[i].block.raw)) return nodes[i].node;
      }
    }
  }
  return nodes[start].node;
}

async function main() {
  const root = document.getElementById("rules");
  const nodes = [];
  for (const doc of DOCS) {
    const response = await fetch(doc);
    const text = await response.text();
    const section = document.createElement("section");
    root.append(section);
    nodes.push(...render(blocks(text), section));
  }
  const show = () => {
    for (const n of root.querySelectorAll(".hit")) n.classList.remove("hit");
    const id = decodeURIComponent(location.hash.slice(1));
    const note = document.getElementById("looking-for");
    if (!id) {
      note.textContent = "";
      return;
    }
    const hit = find(nodes, id);
    note.textContent = hit ? `Rule ${id}:` : `Rule ${id}: not found in these texts.`;
    if (hit) {
      hit.classList.add("hit");
      hit.id = "rule-hit";
      hit.scrollIntoView({ block: "center" });
    }
  };
  window.addEventListener("hashchange", show);
  show();
}

main();
