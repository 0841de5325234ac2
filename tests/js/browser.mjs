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
