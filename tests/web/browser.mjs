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
