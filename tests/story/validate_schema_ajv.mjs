// storyboards/schema.json under Ajv (draft-07, strict mode), with storyboards read by the `yaml`
// package as YAML 1.2, as yaml-language-server reads them in editors: the schema compiles, every
// shipped storyboard and good fixture validates, the broken fixtures and values of
// tests/story/schema_cases.json do not. Ajv and yaml come from tests/js (scripts/deps.sh test).
// Usage: node tests/story/validate_schema_ajv.mjs [SOURCE_DIR]
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] ?? fileURLToPath(new URL("../..", import.meta.url));
const tools = createRequire(join(root, "tests/js/package.json"));
let Ajv, YAML;
try {
  Ajv = tools("ajv").default;
  YAML = tools("yaml");
} catch (e) {
  console.error(`${e.message}\nthe test tools are missing: run scripts/deps.sh test`);
  process.exit(1);
}

const readJson = (path) => JSON.parse(readFileSync(join(root, path), "utf8"));
const schema = readJson("storyboards/schema.json");
const cases = readJson("tests/story/schema_cases.json");
// Union types (`type: [string, number, ...]`) are deliberate: text is any scalar.
const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
const validate = ajv.compile(schema); // throws on a schema draft-07 or strict mode refuses
const failures = [];

function expect(name, document, valid) {
  const ok = validate(document);
  if (valid && !ok) {
    const found = validate.errors.map((e) => `${e.instancePath || "/"}: ${e.message}`);
    failures.push(`${name}: rejected:\n  ${found.join("\n  ")}`);
  } else if (!valid && ok) {
    failures.push(`${name}: accepted, but is invalid`);
  }
}

const yamlFiles = (dir) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => join(root, dir, f));
const load = (path) => YAML.parse(readFileSync(path, "utf8"), { version: "1.2" });

const good = [...yamlFiles("storyboards"), ...yamlFiles("tests/storyboards/good")];
if (good.length <= 5) failures.push(`only ${good.length} storyboards found under ${root}`);
for (const path of good) expect(relative(root, path), load(path), true);
for (const name of cases.rejected_fixtures) {
  const path = join(root, "tests/storyboards/bad", `${name}.yaml`);
  expect(relative(root, path), load(path), false);
}
for (const c of cases.values) {
  for (const [list, valid] of [[c.valid, true], [c.invalid, false]]) {
    for (const value of list ?? []) {
      const document = structuredClone(cases.base);
      const parent = c.at.slice(0, -1).reduce((node, step) => node[step], document);
      parent[c.at.at(-1)] = value;
      expect(`${c.at.join("/")} = ${JSON.stringify(value)}`, document, valid);
    }
  }
}

for (const f of failures) console.error(f);
console.log(
  `${good.length} storyboards valid, ${cases.rejected_fixtures.length} broken ones rejected, ` +
    `${failures.length} failures (Ajv ${tools("ajv/package.json").version}, strict)`,
);
process.exit(failures.length ? 1 : 0);
