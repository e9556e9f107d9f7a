// Lighthouse for make bench: each address given on the command line in a fresh Chromium (CHROME_PATH),
// with Lighthouse's default mobile settings but devtools throttling (the network and the 4x CPU
// slowdown applied to the real page rather than simulated). Prints one JSON object per line:
// the address, the four category scores, FCP / LCP / TBT in ms, CLS, main-thread work in ms, the
// page's element count, the audits that failed, and Lighthouse's benchmarkIndex of the host for
// that run (the 4x slowdown is relative to it).
// With LIGHTHOUSE_REPORT=file.json set, the last page's whole report is written there too.
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { writeFileSync } from "node:fs";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"];

async function audit(url) {
  const chrome = await chromeLauncher.launch({ chromeFlags: FLAGS });
  try {
    const { lhr } = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" },
      { extends: "lighthouse:default", settings: { throttlingMethod: "devtools", onlyCategories: CATEGORIES } });
    if (process.env.LIGHTHOUSE_REPORT) writeFileSync(process.env.LIGHTHOUSE_REPORT, JSON.stringify(lhr));
    const score = (id) => Math.round((lhr.categories[id].score ?? 0) * 100);
    const value = (id) => lhr.audits[id].numericValue;
    const failed = Object.values(lhr.categories).flatMap((c) => c.auditRefs)
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id].score ?? 1) < 0.9)
      .map((ref) => ref.id);
    return {
      url, ...Object.fromEntries(CATEGORIES.map((id) => [id, score(id)])),
      fcp: value("first-contentful-paint"), lcp: value("largest-contentful-paint"),
      tbt: value("total-blocking-time"), cls: value("cumulative-layout-shift"),
      mainThread: value("mainthread-work-breakdown"), elements: value("dom-size"),
      failed: [...new Set(failed)], benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      error: lhr.runtimeError ? lhr.runtimeError.message : null,
    };
  } finally {
    await chrome.kill();
  }
}

for (const url of process.argv.slice(2)) {
  try {
    console.log(JSON.stringify(await audit(url)));
  } catch (err) {
    console.log(JSON.stringify({ url, error: String((err && err.message) || err) }));
  }
}
