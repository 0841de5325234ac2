// What the chromium tests share: Debian's chromium (the process exits 77, ctest's Skipped, when
// there is none), and puppeteer-core and axe-core from tests/js (scripts/deps.sh test installs
// them), a failure list and its check.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

export function browserTools(root) {
  const chromium = process.env.SHARDREEL_CHROMIUM ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    console.log(`skipped: no browser at ${chromium} (scripts/deps.sh test installs chromium)`);
    process.exit(77);
  }
  const tools = createRequire(join(root, "tests/js/package.json"));
  const failures = [];
  return {
    chromium,
    puppeteer: tools("puppeteer-core"),
    axeSource: readFileSync(tools.resolve("axe-core/axe.min.js"), "utf8"),
    failures,
    check: (ok, what) => ok || failures.push(what),
  };
}

// chromium with a page that notes every console error, script error, failed request and request
// other than file: or data: in problems.
export async function watchedPage(puppeteer, chromium) {
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
    args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage();
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`script error: ${e.message}`));
  page.on("request", (r) => /^(file|data):/.test(r.url()) || problems.push(`request: ${r.url()}`));
  page.on("requestfailed", (r) => problems.push(`failed request: ${r.url()}`));
  return { browser, page, problems };
}

// The end of a chromium test: the page's problems among the failures, each printed, then a last
// line (`passed` when there are none) and the exit code.
export function finish(failures, problems, passed) {
  failures.push(...problems);
  for (const f of failures) console.error(`FAIL: ${f}`);
  console.log(failures.length ? `${failures.length} failures` : passed);
  process.exit(failures.length ? 1 : 0);
}
