// Drives the page of `swisspair serve` in headless Chromium (Debian's package, through
// playwright-core): loads it, puts a TRF file in through the file input, chooses the system,
// pairs, and checks the boards the page shows against the CLI's pairing (`swisspair pair -p`,
// computed by the Rust test that runs this script), the explanation's rule links and the
// standings table, then asks a "why not?" question and checks the answer against
// `swisspair why`. Environment: SWISSPAIR_ADDR (host:port), SWISSPAIR_TRF (the file),
// SWISSPAIR_SYSTEM (its enum name), SWISSPAIR_EXPECTED (the CLI's `-p` output),
// SWISSPAIR_CHROMIUM (default /usr/bin/chromium), SWISSPAIR_SCREENSHOT (a PNG to write);
// for the "why not?" panel, SWISSPAIR_WHY_PAIR ("A-B", the question asked) and
// SWISSPAIR_WHY_EXPECTED (`swisspair why --pair A-B` of the same file: what the page must show).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { boardsShown, launchChromium, openPage } from "./browser.mjs";

const addr = process.env.SWISSPAIR_ADDR;
const base = `http://${addr}`;

/** The CLI's `why` answer: its verdict line, its message and the two pair lists. */
function expectedWhy() {
  const lines = readFileSync(process.env.SWISSPAIR_WHY_EXPECTED, "utf8").trim().split("\n");
  const list = (label) => {
    const start = lines.indexOf(`${label}:`);
    if (start < 0) return null;
    const count = parseInt(lines[start + 1], 10);
    return lines.slice(start + 2, start + 2 + count).map((l) => l.trim().split(/\s+/).join(" "));
  };
  return { verdict: lines[1], message: lines[2], answer: list("answer"), alternative: list("alternative") };
}

/** A pairing table and bye list of the page in the CLI's pair-list form (ids are ranks here). */
async function pairList(page, table, byes) {
  const boards = await boardsShown(page, table);
  // `pair_list` gives the pairing-allocated byes (PAB, absent opponent) as "id 0".
  const allocated = await page.$$eval(
    `${byes} li[data-kind=BYE_KIND_PAB], ${byes} li[data-kind=BYE_KIND_ABSENT_OPPONENT]`,
    (items) => items.map((i) => `${i.dataset.playerId} 0`));
  return [...boards, ...allocated];
}

/** The CLI's `-p` pairing as lines "white black" (the PAB as "id 0"), the count dropped. */
function expectedPairs() {
  const lines = readFileSync(process.env.SWISSPAIR_EXPECTED, "utf8").trim().split("\n");
  return lines.slice(1).map((l) => l.trim().split(/\s+/).join(" "));
}

test("the page pairs a corpus file and answers why not as the CLI does", async () => {
  const browser = await launchChromium();
  try {
    // Nothing may be loaded from anywhere but the server (no CDN).
    const { page, elsewhere } = await openPage(browser, base);
    // The systems come from ListSystems.
    await page.waitForSelector(`#system option[value="${process.env.SWISSPAIR_SYSTEM}"]`, { state: "attached" });
    // A file dropped on the text box fills it.
    const text = readFileSync(process.env.SWISSPAIR_TRF, "utf8");
    await page.evaluate((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], "dropped.trf", { type: "text/plain" }));
      const zone = document.getElementById("drop-zone");
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForFunction((content) => document.getElementById("trf").value === content, text);
    await page.fill("#trf", "");
    // So does the file chooser (what the test pairs).
    await page.setInputFiles("#trf-file", process.env.SWISSPAIR_TRF);
    await page.waitForFunction(() => document.getElementById("trf").value.includes("001 "));
    await page.selectOption("#system", process.env.SWISSPAIR_SYSTEM);
    // The chosen system's options are offered (every FIDE Swiss system takes acceleration).
    await page.waitForSelector("[data-option]", { state: "attached" });
    await page.fill("#tie-breaks", "BH-C1, BH, SB");
    await page.click("#pair-button");
    await page.waitForSelector("#output[data-state=paired], #output[data-state=error]", { state: "attached" });
    const state = await page.getAttribute("#output", "data-state");
    const error = await page.textContent("#error");
    assert.equal(state, "paired", `the page showed an error: ${error}`);

    const shown = await boardsShown(page);
    const pab = await page.$$eval("#byes li[data-kind=BYE_KIND_PAB]", (items) =>
      items.map((i) => `${i.dataset.playerId} 0`));
    assert.deepEqual([...shown, ...pab], expectedPairs());

    // Players are named (from the TRF / the standings), not only numbered.
    const firstWhite = await page.textContent("#boards tbody tr td.white");
    assert.match(firstWhite, /[A-Za-z]/);

    // The explanation: groups of steps, each rule id linked to its text on the rules page.
    const groups = await page.$$eval("#explanation details", (d) => d.length);
    assert.ok(groups > 0, "the explanation has groups");
    const href = await page.getAttribute("#explanation a.rule", "href");
    assert.match(href, /^\/rules#/);

    // The standings with the chosen tie-breaks.
    const headers = await page.$$eval("#standings thead th", (th) => th.map((h) => h.textContent));
    // The service writes the codes in C.07 notation (`BH/C1`).
    assert.deepEqual(headers.slice(3), ["BH/C1", "BH", "SB"]);
    const rows = await page.$$eval("#standings tbody tr", (r) => r.length);
    assert.ok(rows > 0, "the standings have rows");

    // A "why not?" question about the pairing shown: the same answer as `swisspair why`.
    const [a, b] = process.env.SWISSPAIR_WHY_PAIR.split("-");
    await page.selectOption("#why-kind", "pair");
    await page.selectOption("#why-player", a);
    await page.selectOption("#why-opponent", b);
    await page.click("#why-button");
    await page.waitForSelector("#why-box[data-state=answered], #why-box[data-state=error]", { state: "attached" });
    const whyError = await page.textContent("#why-error");
    assert.equal(await page.getAttribute("#why-box", "data-state"), "answered", `Explain failed: ${whyError}`);
    const why = expectedWhy();
    const verdict = await page.textContent("#why-verdict");
    const rules = await page.$$eval("#why-rule a.rule", (links) => links.map((l) => l.textContent));
    assert.equal(rules.length ? `${verdict}: ${rules[0]}` : verdict, why.verdict);
    assert.equal(await page.textContent("#why-message"), why.message);
    if (rules.length) assert.match(await page.getAttribute("#why-rule a.rule", "href"), /^\/rules#/);
    assert.deepEqual(await pairList(page, "#why-boards", "#why-byes"), why.answer);
    if (why.alternative) {
      assert.equal(await page.isVisible("#why-alternative-box"), true);
      assert.deepEqual(await pairList(page, "#why-alternative-boards", "#why-alternative-byes"), why.alternative);
    } else {
      assert.equal(await page.isVisible("#why-alternative-box"), false);
    }
    // The criterion's two values, when the answer is decided by one.
    const criterion = readFileSync(process.env.SWISSPAIR_WHY_EXPECTED, "utf8").match(/^ {2}answer: +(.*)\n {2}alternative: +(.*)$/m);
    assert.equal(await page.isVisible("#why-difference"), Boolean(criterion));
    if (criterion) {
      assert.equal(await page.textContent("#why-answer-value"), criterion[1]);
      assert.equal(await page.textContent("#why-alternative-value"), criterion[2]);
    }

    if (process.env.SWISSPAIR_SCREENSHOT) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: process.env.SWISSPAIR_SCREENSHOT, fullPage: false });
    }

    // "Keep apart": the event with clubs and `club=weak` typed in the field pairs as
    // `swisspair pair --separate club=weak`, and the explanation cites SEP-5.
    await page.fill("#trf", readFileSync(process.env.SWISSPAIR_CLUBS_TRF, "utf8"));
    await page.fill("#separate", "club=weak");
    await page.click("#pair-button");
    await page.waitForSelector("#output[data-state=paired], #output[data-state=error]", { state: "attached" });
    assert.equal(await page.getAttribute("#output", "data-state"), "paired", await page.textContent("#error"));
    const separated = readFileSync(process.env.SWISSPAIR_SEPARATED_EXPECTED, "utf8").trim().split("\n").slice(1)
      .map((l) => l.trim().split(/\s+/).join(" "));
    const shownSeparated = await boardsShown(page);
    const pabSeparated = await page.$$eval("#byes li[data-kind=BYE_KIND_PAB]", (items) =>
      items.map((i) => `${i.dataset.playerId} 0`));
    assert.deepEqual([...shownSeparated, ...pabSeparated], separated);
    const ruleIds = await page.$$eval("#explanation a.rule", (links) => links.map((l) => l.textContent));
    assert.ok(ruleIds.includes("SEP-5"), `the explanation cites SEP-5: ${ruleIds.slice(0, 5)}`);
    // A malformed separation is refused on the page, naming the syntax.
    await page.fill("#separate", "club=sometimes");
    await page.click("#pair-button");
    await page.waitForSelector("#output[data-state=error]", { state: "attached" });
    assert.match(await page.textContent("#error"), /KEY=MODE/);
    await page.fill("#separate", "");

    // A refusal shows Connect's code and the field at fault.
    await page.fill("#trf", "not a tournament");
    await page.click("#pair-button");
    await page.waitForSelector("#output[data-state=error]", { state: "attached" });
    const refusal = await page.textContent("#error");
    assert.match(refusal, /invalid_argument/);
    assert.match(refusal, /trf: .*not a TRF/);

    // A rule link opens the rule's text, highlighted.
    const rulesPage = await browser.newPage();
    await rulesPage.goto(`${base}${href}`);
    await rulesPage.waitForSelector(".hit", { state: "attached" });
    const ruleText = await rulesPage.textContent(".hit");
    assert.ok(ruleText.length > 10, `the rule ${href} shows its text`);
    assert.deepEqual(elsewhere, [], "the page loads nothing from elsewhere");
  } finally {
    await browser.close();
  }
});
