// The page of `swisspair serve`: a client of the JSON API (the Connect protocol's unary
// form), nothing more. Plain JavaScript, no build step, nothing loaded from elsewhere.
"use strict";

const SERVICE = "/swisspair.v1.PairingService/";
const $ = (id) => document.getElementById(id);

/** A Connect error answer: its code, message and details (BadRequest, ErrorInfo). */
class RpcError extends Error {
  constructor(body, httpStatus, text) {
    super((body && body.message) || text || `HTTP ${httpStatus}`);
    this.code = (body && body.code) || `http_${httpStatus}`;
    this.details = (body && body.details) || [];
  }
}

/** Calls one RPC with a JSON request; resolves to the JSON response. */
async function call(method, request) {
  const headers = {
    "content-type": "application/json",
    "connect-protocol-version": "1",
  };
  const token = $("token").value.trim();
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(SERVICE + method, {
    method: "POST",
    headers,
    body: JSON.stringify(request),
  });
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch (_) {
    body = null;
  }
  if (!response.ok) throw new RpcError(body, response.status, text);
  return body;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

/** A link to the rule's text on the rules page (`/rules#AM-3.3`). */
function ruleLink(ruleId) {
  if (!ruleId) return null;
  return el("a", { class: "rule", href: `/rules#${encodeURIComponent(ruleId)}`, target: "_blank" }, ruleId);
}

function shortEnum(value, prefix) {
  return String(value || "").replace(prefix, "").replaceAll("_", " ").toLowerCase();
}

// ---- systems and their options (ListSystems) ----

let systems = [];

async function loadSystems() {
  try {
    const answer = await call("ListSystems", {});
    systems = answer.systems || [];
    $("engine-version").textContent = answer.engineVersion || "";
    const select = $("system");
    for (const s of systems) {
      select.append(el("option", { value: s.system }, `${s.name}: ${s.title}`));
    }
    showOptions();
  } catch (e) {
    showError(e);
  }
}

function showOptions() {
  const box = $("options");
  box.replaceChildren();
  const chosen = systems.find((s) => s.system === $("system").value);
  $("system-rules").textContent = chosen ? chosen.ruleSet : "";
  if (!chosen) {
    box.append(el("p", { class: "muted" }, "Choose a system to see its options."));
    return;
  }
  if (!(chosen.options || []).length) {
    box.append(el("p", { class: "muted" }, "This system has no options."));
    return;
  }
  for (const o of chosen.options) {
    let input;
    if (o.type === "bool") {
      input = el("select", { "data-option": o.name },
        el("option", { value: "" }, `default (${o.defaultValue || "false"})`),
        el("option", { value: "true" }, "true"),
        el("option", { value: "false" }, "false"));
    } else {
      input = el("input", {
        type: "text",
        "data-option": o.name,
        placeholder: o.defaultValue ? `default ${o.defaultValue}` : o.type,
      });
    }
    box.append(el("div", { class: "option" },
      el("span", { class: "name" }, o.name), input, el("span", { class: "desc" }, o.description)));
  }
}

/** The options set on the form, as a TRF `XXO` line (how a TRF carries system options). */
function optionsLine() {
  const parts = [];
  for (const input of document.querySelectorAll("[data-option]")) {
    const value = input.value.trim();
    if (value === "") continue;
    if (/\s/.test(value)) throw new Error(`option ${input.dataset.option}: a value has no spaces`);
    parts.push(`${input.dataset.option}=${value}`);
  }
  return parts.length ? `XXO ${parts.join(" ")}` : "";
}

// ---- the TRF input: paste, file, drop ----

/** Decodes a file as UTF-8, or else as Windows-1252 (TRF files of older programs). */
async function readTrfFile(file) {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (_) {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function setupInput() {
  $("trf-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) $("trf").value = await readTrfFile(file);
  });
  const zone = $("drop-zone");
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", async (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer.files[0];
    if (file) $("trf").value = await readTrfFile(file);
  });
  $("system").addEventListener("change", showOptions);
  $("pair-form").addEventListener("submit", (event) => {
    event.preventDefault();
    pair();
  });
  $("why-kind").addEventListener("change", showQuestionKind);
  $("why-form").addEventListener("submit", (event) => {
    event.preventDefault();
    ask();
  });
}

/** Player names by id from the TRF's `001` lines (ids are starting ranks in a TRF). */
function namesFromTrf(text) {
  const names = new Map();
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith("001")) continue;
    const id = String(parseInt(line.slice(4, 8), 10));
    names.set(id, line.slice(14, 47).trim());
  }
  return names;
}

/**
 * Team names and clubs by id from the TRF's team records: `310` (TPN in columns 5-7, name
 * in 9-40) or, without them, `013` (name in 5-36; the records' order is the TPN), and `XTC
 * TPN CLUB` (SEP-6). A TRF team's id is its TPN.
 */
function teamsFromTrf(text) {
  const teams = new Map();
  const entry = (id) => {
    if (!teams.has(id)) teams.set(id, { name: "", club: "" });
    return teams.get(id);
  };
  const lines = text.split(/\r?\n/);
  const has310 = lines.some((l) => l.startsWith("310"));
  let order = 0;
  for (const line of lines) {
    if (line.startsWith("310")) {
      entry(String(parseInt(line.slice(4, 7), 10))).name = line.slice(8, 40).trim();
    } else if (line.startsWith("013") && !has310) {
      order += 1;
      entry(String(order)).name = line.slice(4, 36).trim();
    } else if (line.startsWith("XTC ")) {
      const m = /^XTC\s+(\d+)\s+(.*\S)/.exec(line);
      if (m) entry(String(parseInt(m[1], 10))).club = m[2];
    }
  }
  return teams;
}

/**
 * The "Keep apart" field (`club=weak, family=absolute@1-3`, the CLI's `--separate` syntax)
 * as TRF `XSP` lines (how a TRF carries separations, SEP-1..SEP-5; docs/formats.md).
 */
function separationLines() {
  const lines = [];
  for (const spec of $("separate").value.split(",").map((x) => x.trim()).filter((x) => x)) {
    const m = /^([^=\s:]+)=(absolute|weak|weak-first|weak-last)(?:@(\d*)(-)?(\d*))?$/i.exec(spec);
    if (!m) {
      throw new Error(`keep apart: ${JSON.stringify(spec)} is not KEY=MODE[@FIRST-LAST] (MODE absolute, weak, weak-first or weak-last)`);
    }
    const [, key, mode, first, dash, last] = m;
    // `@3` is round 3 alone; `@3-` from round 3, `@-5` to round 5 (0 = open).
    const to = dash ? last || 0 : first || 0;
    lines.push(first !== undefined ? `XSP ${key} ${mode} ${first || 0} ${to}` : `XSP ${key} ${mode}`);
  }
  return lines;
}

// ---- pairing and standings ----

async function pair() {
  const output = $("output");
  const button = $("pair-button");
  output.hidden = false;
  output.dataset.state = "working";
  $("status").textContent = "pairing…";
  button.disabled = true;
  try {
    let trf = $("trf").value;
    const xxo = optionsLine();
    if (xxo) trf = `${trf.replace(/\s*$/, "")}\n${xxo}\n`;
    const xsp = separationLines();
    if (xsp.length) trf = `${trf.replace(/\s*$/, "")}\n${xsp.join("\n")}\n`;
    const request = { trf, explanationDetail: "EXPLANATION_DETAIL_FULL" };
    if ($("system").value) request.system = $("system").value;
    const round = parseInt($("round").value, 10);
    if (round > 0) request.round = round;
    const seed = $("seed").value.trim();
    if (seed) request.seed = seed;
    const names = namesFromTrf(trf);
    const teams = teamsFromTrf(trf);
    const standingsRequest = { trf, afterRound: round > 1 ? round - 1 : 0 };
    if (request.system) standingsRequest.system = request.system;
    const tieBreaks = $("tie-breaks").value.split(/[,\s]+/).filter((t) => t);
    if (tieBreaks.length) standingsRequest.tieBreaks = tieBreaks;
    const [paired, standings] = await Promise.allSettled([
      call("Pair", request),
      call("Standings", standingsRequest),
    ]);
    if (standings.status === "fulfilled") {
      for (const row of standings.value.rows || []) names.set(row.playerId, row.name);
    }
    if (paired.status === "fulfilled") {
      showPairing(paired.value, names, teams);
      offerWhy(request, paired.value, names);
    } else {
      showError(paired.reason);
    }
    showStandings(standings);
    output.dataset.state = paired.status === "fulfilled" ? "paired" : "error";
    $("status").textContent = "";
  } catch (e) {
    showError(e);
    output.dataset.state = "error";
    $("status").textContent = "";
  } finally {
    button.disabled = false;
  }
}

function showError(error) {
  $("output").hidden = false;
  $("result").hidden = true;
  renderError($("error"), error);
}

/** An RPC's refusal in `box`: Connect's code, the message, the fields and rule at fault. */
function renderError(box, error) {
  box.hidden = false;
  box.replaceChildren(el("span", { class: "code" }, error.code || "error"), " ", error.message);
  for (const d of error.details || []) {
    if (d.type === "google.rpc.BadRequest" && d.debug) {
      const list = el("ul");
      for (const v of d.debug.fieldViolations || []) {
        list.append(el("li", {}, el("code", {}, v.field), `: ${v.description}`));
      }
      box.append(list);
    } else if (d.type === "google.rpc.ErrorInfo" && d.debug) {
      box.append(el("div", { class: "muted" }, `reason ${d.debug.reason}`));
      const rule = d.debug.metadata && d.debug.metadata.rule_id;
      if (rule) box.append(el("div", {}, "rule ", ruleLink(rule)));
    }
  }
}

function player(id, pairingNumber, names) {
  const name = names.get(id) || "";
  return [
    el("span", { class: "pno" }, pairingNumber ? `${pairingNumber}.` : ""),
    name ? `${name} ` : "",
    el("span", { class: "muted" }, `(${id})`),
  ];
}

function showPairing(answer, names, teams) {
  $("error").hidden = true;
  $("result").hidden = false;
  const rounds = answer.totalRounds ? ` of ${answer.totalRounds}` : "";
  $("round-title").textContent = `Round ${answer.round}${rounds}: ${shortEnum(answer.system, "PAIRING_SYSTEM_")}`;
  $("rule-set").textContent = `${answer.ruleSet || ""} · ${answer.engineVersion || ""}`;
  showTeams(answer, teams);
  showBoards($("boards"), answer.boards, names);
  showByes($("byes"), answer.byes, names);
  $("byes-box").hidden = !(answer.byes || []).length;
  const warnings = $("warnings");
  warnings.replaceChildren();
  for (const w of answer.warnings || []) {
    warnings.append(el("li", {}, el("strong", {}, w.code), " ", ruleLink(w.ruleId), w.message));
  }
  $("warnings-box").hidden = !(answer.warnings || []).length;
  const explanation = $("explanation");
  explanation.replaceChildren();
  const groups = (answer.explanation && answer.explanation.groups) || [];
  groups.forEach((g, i) => {
    const steps = el("ol", { class: "steps" });
    for (const s of g.steps || []) {
      steps.append(el("li", {}, ruleLink(s.ruleId), s.message));
    }
    const count = (g.steps || []).length;
    explanation.append(el("details", { open: i < 3 },
      el("summary", {}, `${g.label} (${count} step${count === 1 ? "" : "s"})`), steps));
  });
  if (!groups.length) explanation.append(el("p", { class: "muted" }, "No explanation steps."));
}

/** A team by its id and pairing number, with its name and club when the TRF gives them. */
function team(id, pairingNumber, teams) {
  const { name, club } = teams.get(id) || { name: "", club: "" };
  return [
    el("span", { class: "pno" }, pairingNumber ? `${pairingNumber}.` : ""),
    name ? `${name} ` : "",
    el("span", { class: "muted" }, club ? `(${id}, ${club})` : `(${id})`),
  ];
}

function teamCell(id, pairingNumber, teams, side) {
  return el("td", { "data-team-id": id, "data-team-pairing-number": pairingNumber || "", class: side },
    ...team(id, pairingNumber, teams));
}

/** A team event's matches (C.04.6) and its team PAB; `#boards` below lists their games. */
function showTeams(answer, teams) {
  const matches = answer.teamPairings || [];
  const bye = answer.teamBye;
  $("teams-box").hidden = !matches.length && !bye;
  $("team-matches").querySelector("tbody").replaceChildren(...matches.map((m) =>
    el("tr", { "data-match": m.number },
      el("td", { class: "num" }, m.number),
      teamCell(m.whiteTeamId, m.whiteTeamPairingNumber, teams, "white"),
      el("td", {}, "–"),
      teamCell(m.blackTeamId, m.blackTeamPairingNumber, teams, "black"))));
  $("team-byes").replaceChildren(...(bye ? [el("li",
    { "data-team-id": bye.teamId, "data-team-pairing-number": bye.pairingNumber || "" },
    ...team(bye.teamId, bye.pairingNumber, teams), " pairing-allocated bye")] : []));
}

/** A board's two sides; backgammon has no colours: first and second player instead. */
function sides(b) {
  return {
    white: b.whiteId || b.firstId || "",
    black: b.blackId || b.secondId || "",
    whiteNo: b.whitePairingNumber || b.firstPairingNumber,
    blackNo: b.blackPairingNumber || b.secondPairingNumber,
  };
}

/** Fills `table`'s body with `boards`; boards whose pair is not in `others` are marked. */
function showBoards(table, boards, names, others = null) {
  const body = table.querySelector("tbody");
  body.replaceChildren();
  const elsewhere = others && new Set(others.map((o) => pairKey(sides(o))));
  for (const b of boards || []) {
    const { white, black, whiteNo, blackNo } = sides(b);
    const changed = elsewhere && !elsewhere.has(pairKey({ white, black }));
    body.append(el("tr", { "data-board": b.number, class: changed ? "changed" : "" },
      el("td", { class: "num" }, b.number),
      el("td", { "data-player-id": white, class: "white" }, ...player(white, whiteNo, names)),
      el("td", {}, "–"),
      el("td", { "data-player-id": black, class: "black" }, ...player(black, blackNo, names))));
  }
}

/** A pair with its colours, to tell the boards two pairings share. */
function pairKey({ white, black }) {
  return `${white} ${black}`;
}

function showByes(list, byes, names) {
  list.replaceChildren();
  for (const bye of byes || []) {
    list.append(el("li", { "data-player-id": bye.playerId, "data-kind": bye.kind },
      ...player(bye.playerId, bye.pairingNumber, names),
      ` ${shortEnum(bye.kind, "BYE_KIND_")}`, bye.points !== undefined ? `, ${bye.points} point(s)` : ""));
  }
}

// ---- "why not?" questions (Explain) ----

// The snapshot, system and options the shown pairing was made from: a question is asked of
// the same round, or its answer would not be about the pairing on the page.
let asked = null;

// The verdicts in the words `swisspair why` prints.
const VERDICTS = {
  EXPLAIN_VERDICT_ALREADY_SO: "already so",
  EXPLAIN_VERDICT_IMPOSSIBLE: "impossible",
  EXPLAIN_VERDICT_WORSE: "worse",
  EXPLAIN_VERDICT_TIE: "equally good",
  EXPLAIN_VERDICT_PROCEDURE: "procedure",
  EXPLAIN_VERDICT_BETTER: "better (engine fault)",
};

/** Offers the round's players (on a board, with a bye or absent) to the questions. */
function offerWhy(pairRequest, answer, names) {
  const players = new Map();
  for (const b of answer.boards || []) {
    const { white, black, whiteNo, blackNo } = sides(b);
    if (white) players.set(white, whiteNo);
    if (black) players.set(black, blackNo);
  }
  for (const bye of answer.byes || []) players.set(bye.playerId, bye.pairingNumber);
  const ordered = [...players].sort(([a, pa], [b, pb]) => (pa || 0) - (pb || 0) || a.localeCompare(b));
  const options = () => ordered.map(([id, no]) =>
    el("option", { value: id }, `${no ? `${no}. ` : ""}${names.get(id) || ""} (${id})`));
  $("why-player").replaceChildren(...options());
  $("why-opponent").replaceChildren(...options());
  if (ordered.length > 1) $("why-opponent").value = ordered[1][0];
  asked = { request: pairRequest, names };
  $("why-answer").hidden = true;
  $("why-error").hidden = true;
  $("why-box").dataset.state = "ready";
  showQuestionKind();
}

function showQuestionKind() {
  const kind = $("why-kind").value;
  $("why-opponent-box").hidden = kind !== "pair" && kind !== "apart";
  $("why-white-box").hidden = kind !== "pair";
  $("why-colour-box").hidden = kind !== "colour";
}

/** The question of the form, as `ExplainRequest.question` (players by id). */
function question() {
  const playerId = $("why-player").value;
  switch ($("why-kind").value) {
    case "pair": {
      const opponentId = $("why-opponent").value;
      const white = $("why-white").value;
      const whiteId = white === "player" ? playerId : white === "opponent" ? opponentId : "";
      return { pair: whiteId ? { playerId, opponentId, whiteId } : { playerId, opponentId } };
    }
    case "apart":
      return { apart: { playerId, opponentId: $("why-opponent").value } };
    case "bye":
      return { byePlayerId: playerId };
    case "float":
      return { floatPlayerId: playerId };
    default:
      return { colour: { playerId, colour: $("why-colour").value } };
  }
}

async function ask() {
  if (!asked) return;
  const box = $("why-box");
  const button = $("why-button");
  box.dataset.state = "working";
  $("why-status").textContent = "asking…";
  button.disabled = true;
  try {
    const { trf, system, round, seed } = asked.request;
    const request = { trf, explanationDetail: "EXPLANATION_DETAIL_NONE", ...question() };
    if (system) request.system = system;
    if (round) request.round = round;
    if (seed) request.seed = seed;
    showAnswer(await call("Explain", request), asked.names);
    $("why-error").hidden = true;
    box.dataset.state = "answered";
  } catch (e) {
    $("why-answer").hidden = true;
    renderError($("why-error"), e);
    box.dataset.state = "error";
  } finally {
    $("why-status").textContent = "";
    button.disabled = false;
  }
}

function bracket(score) {
  return score === undefined || score === null ? "the whole round" : `the ${Number(score).toFixed(1)}-point bracket`;
}

function showAnswer(answer, names) {
  $("why-answer").hidden = false;
  const verdict = $("why-verdict");
  verdict.dataset.verdict = answer.verdict || "";
  verdict.textContent = VERDICTS[answer.verdict] || "unknown";
  $("why-rule").replaceChildren(...(answer.ruleId ? [ruleLink(answer.ruleId)] : []));
  $("why-message").textContent = answer.message || "";
  $("why-violations").replaceChildren(...(answer.violations || []).map((v) =>
    el("li", {}, ruleLink(v.ruleId), v.message)));
  const d = answer.difference;
  $("why-difference").hidden = !d;
  if (d) {
    $("why-criterion").replaceChildren(ruleLink(d.ruleId), d.criterion || "");
    $("why-bracket").textContent = bracket(d.bracketScore);
    $("why-answer-value").textContent = d.answerValue || "";
    $("why-alternative-value").textContent = d.alternativeValue || "";
    $("why-players").replaceChildren(...(d.playerIds || []).map((id) =>
      el("span", { class: "who", "data-player-id": id }, names.get(id) ? `${names.get(id)} (${id})` : id)));
  }
  const alternative = answer.hasAlternative ? answer.alternativeBoards || [] : null;
  showBoards($("why-boards"), answer.boards, names, alternative);
  showByes($("why-byes"), answer.byes, names);
  $("why-alternative-box").hidden = !answer.hasAlternative;
  showBoards($("why-alternative-boards"), alternative, names, answer.boards || []);
  showByes($("why-alternative-byes"), answer.hasAlternative ? answer.alternativeByes : [], names);
}

function showStandings(settled) {
  const box = $("standings-box");
  box.hidden = false;
  const table = $("standings");
  const errorBox = $("standings-error");
  if (settled.status !== "fulfilled") {
    table.hidden = true;
    errorBox.hidden = false;
    errorBox.textContent = `${settled.reason.code}: ${settled.reason.message}`;
    return;
  }
  errorBox.hidden = true;
  table.hidden = false;
  const answer = settled.value;
  // `values` has one entry per `tieBreaks` entry, PTS first; PTS is the points column.
  const shown = (answer.tieBreaks || []).map((code, i) => [code, i]).filter(([code]) => code !== "PTS");
  $("standings-note").textContent =
    `after round ${answer.afterRound}; tie-breaks ${shown.map(([c]) => c).join(", ") || "none"}`;
  table.querySelector("thead").replaceChildren(el("tr", {},
    el("th", { class: "num" }, "Rank"), el("th", {}, "Player"), el("th", { class: "num" }, "Points"),
    ...shown.map(([code]) => el("th", { class: "num" }, code))));
  const body = table.querySelector("tbody");
  body.replaceChildren();
  for (const row of answer.rows || []) {
    const values = row.values || [];
    body.append(el("tr", { "data-player-id": row.playerId },
      el("td", { class: "num" }, row.rank),
      el("td", {}, row.name || row.playerId),
      el("td", { class: "num" }, row.points),
      ...shown.map(([, i]) => el("td", { class: "num" }, values[i] || ""))));
  }
}

setupInput();
loadSystems();
