// Drives the page of `swisspair serve` in headless Chromium with a Swiss Team event (C.04.6)
// whose teams have clubs (TRF `XTC`, SEP-6): pairs it without a separation, with `club=weak`
// and with `club=absolute` typed in the "Keep apart" field, and checks each time the team
// matches, the team PAB and the boards the page shows against `swisspair pair -p` of the same
// file (with `--separate club=weak` / `club=absolute`), computed by the Rust test that runs
// this script (tests/web_e2e.rs). Environment: SWISSPAIR_ADDR (host:port), SWISSPAIR_CHROMIUM,
// SWISSPAIR_TEAM_TRF (the event), SWISSPAIR_TEAM_PLAIN, SWISSPAIR_TEAM_WEAK and
// SWISSPAIR_TEAM_ABSOLUTE (the CLI's three answers), SWISSPAIR_TEAM_CLUB ("TPN CLUB": a team
// and the club the page must show for it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { boardsShown, launchChromium, openPage } from "./browser.mjs";

const base = `http://${process.env.SWISSPAIR_ADDR}`;

/**
 * The CLI's team pair list (`swisspair pair -p` of a team event): the count, the matches
 * "white black" by team pairing number (the team PAB "tpn 0"), a blank line, then one line
 * per board "match board white black" by the players' pairing numbers.
 */
function expectedTeams(path) {
  const lines = readFileSync(path, "utf8").split("\n").map((l) => l.trim().split(/\s+/).join(" "));
  const blank = lines.indexOf("", 1);
  return {
    matches: lines.slice(1, blank),
    boards: lines.slice(blank + 1).filter((l) => l).map((l) => l.split(" ").slice(2).join(" ")),
  };
}

/** Pairs the event on the page with `separate` in the "Keep apart" field; what it shows. */
async function pairOnPage(page, separate) {
  await page.fill("#separate", separate);
  await page.click("#pair-button");
  await page.waitForSelector("#output[data-state=paired], #output[data-state=error]", { state: "attached" });
  assert.equal(await page.getAttribute("#output", "data-state"), "paired", await page.textContent("#error"));
  assert.equal(await page.isVisible("#teams-box"), true, "the team matches are shown");
  const matches = await page.$$eval("#team-matches tbody tr", (rows) =>
    rows.map((r) => {
      const [white, black] = r.querySelectorAll("[data-team-pairing-number]");
      return `${white.dataset.teamPairingNumber} ${black.dataset.teamPairingNumber}`;
    }));
  const pab = await page.$$eval("#team-byes li", (items) =>
    items.map((i) => `${i.dataset.teamPairingNumber} 0`));
  // A TRF player's id is his starting rank, which is his pairing number.
  const boards = await boardsShown(page);
  const rules = await page.$$eval("#explanation a.rule", (links) => links.map((l) => l.textContent));
  return { matches: [...matches, ...pab], boards, rules };
}

test("the page pairs a Swiss Team event with clubs kept apart as the CLI does", async () => {
  const browser = await launchChromium();
  try {
    // Nothing may be loaded from anywhere but the server (no CDN).
    const { page, elsewhere } = await openPage(browser, base);
    await page.waitForSelector('#system option[value="PAIRING_SYSTEM_TEAM_SWISS"]', { state: "attached" });
    await page.setInputFiles("#trf-file", process.env.SWISSPAIR_TEAM_TRF);
    await page.waitForFunction(() => document.getElementById("trf").value.includes("XTC "));
    await page.selectOption("#system", "PAIRING_SYSTEM_TEAM_SWISS");

    // No separation: the clubs are only data; the page pairs as `swisspair pair -p`.
    const plain = await pairOnPage(page, "");
    assert.deepEqual(plain.matches, expectedTeams(process.env.SWISSPAIR_TEAM_PLAIN).matches);
    assert.deepEqual(plain.boards, expectedTeams(process.env.SWISSPAIR_TEAM_PLAIN).boards);
    assert.ok(!plain.rules.includes("SEP-5") && !plain.rules.includes("SEP-1"), `${plain.rules}`);
    // The teams' clubs, read from the file's XTC records, beside their names.
    const [tpn, club] = process.env.SWISSPAIR_TEAM_CLUB.split(" ");
    const cell = await page.textContent(`#team-matches [data-team-pairing-number="${tpn}"], #team-byes [data-team-pairing-number="${tpn}"]`);
    assert.ok(cell.includes(`(${tpn}, ${club})`), `team ${tpn} shows its club ${club}: ${cell}`);

    // `club=weak` (TS-SEP.2): as `--separate club=weak`, and not the plain pairing.
    const weak = await pairOnPage(page, "club=weak");
    const weakExpected = expectedTeams(process.env.SWISSPAIR_TEAM_WEAK);
    assert.deepEqual(weak.matches, weakExpected.matches);
    assert.deepEqual(weak.boards, weakExpected.boards);
    assert.notDeepEqual(weak.matches, plain.matches, "the weak separation changed the matches");
    assert.ok(weak.rules.includes("SEP-5"), `the explanation cites SEP-5: ${weak.rules.slice(0, 8)}`);

    // `club=absolute` (TS-SEP.1): as `--separate club=absolute`.
    const absolute = await pairOnPage(page, "club=absolute");
    const absoluteExpected = expectedTeams(process.env.SWISSPAIR_TEAM_ABSOLUTE);
    assert.deepEqual(absolute.matches, absoluteExpected.matches);
    assert.deepEqual(absolute.boards, absoluteExpected.boards);
    assert.notDeepEqual(absolute.matches, plain.matches, "the absolute separation changed the matches");
    assert.ok(absolute.rules.includes("SEP-1"), `the explanation cites SEP-1: ${absolute.rules.slice(0, 8)}`);

    // An individual event hides the team matches again.
    await page.fill("#trf", "012 x\n001    1      A                                 2000\n001    2      B                                 1900\n");
    await page.selectOption("#system", "PAIRING_SYSTEM_DUTCH");
    await page.fill("#separate", "");
    await page.click("#pair-button");
    await page.waitForSelector("#output[data-state=paired], #output[data-state=error]", { state: "attached" });
    assert.equal(await page.getAttribute("#output", "data-state"), "paired", await page.textContent("#error"));
    assert.equal(await page.isVisible("#teams-box"), false);
    assert.deepEqual(elsewhere, [], "the page loads nothing from elsewhere");
  } finally {
    await browser.close();
  }
});
