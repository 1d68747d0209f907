// What the browser tests share: Debian's Chromium launched headless through playwright-core
// (SWISSPAIR_CHROMIUM names another binary, default /usr/bin/chromium).
import { chromium } from "playwright-core";

/** Headless Chromium; playwright gives every launch a fresh profile directory (and removes it). */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.SWISSPAIR_CHROMIUM || "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * Opens the page served at `base` in a fresh tab, recording every request made anywhere but
 * the server (`elsewhere`, which the tests require empty: no CDN).
 */
export async function openPage(browser, base) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const elsewhere = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(base)) elsewhere.push(r.url());
  });
  await page.goto(`${base}/`);
  return { page, elsewhere };
}

/** The boards of a pairing table on the page as lines "white black" (players' ids). */
export function boardsShown(page, table = "#boards") {
  return page.$$eval(`${table} tbody tr`, (rows) =>
    rows.map((r) => {
      const [white, black] = r.querySelectorAll("[data-player-id]");
      return `${white.dataset.playerId} ${black.dataset.playerId}`;
    }));
}
