#!/usr/bin/python3
# storyboards/schema.json under python3-jsonschema (Debian), with storyboards read by PyYAML, which
# is YAML 1.1 (`off` is false): the schema is valid draft-07, every shipped storyboard and good
# fixture validates, the broken fixtures and values of tests/story/schema_cases.json do not.
# Usage: tests/story/validate_schema.py [SOURCE_DIR]
import importlib.metadata
import json
import pathlib
import sys

import jsonschema
import yaml

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
schema = json.loads((root / "storyboards/schema.json").read_text())
cases = json.loads((root / "tests/story/schema_cases.json").read_text())
failures = []


def errors(document):
    return sorted(
        "/".join(map(str, e.absolute_path)) + ": " + e.message
        for e in validator.iter_errors(document)
    )


def expect(name, document, valid):
    found = errors(document)
    if valid and found:
        failures.append(f"{name}: rejected:\n  " + "\n  ".join(found))
    elif not valid and not found:
        failures.append(f"{name}: accepted, but is invalid")


def put(document, path, value):
    document = json.loads(json.dumps(document))
    node = document
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return document


jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)

good = sorted((root / "storyboards").glob("*.yaml")) + sorted(
    (root / "tests/storyboards/good").glob("*.yaml"))
assert len(good) > 5, good
for path in good:
    expect(path.relative_to(root), yaml.safe_load(path.read_text()), True)
for name in cases["rejected_fixtures"]:
    path = root / "tests/storyboards/bad" / (name + ".yaml")
    expect(path.relative_to(root), yaml.safe_load(path.read_text()), False)
for case in cases["values"]:
    for valid in (True, False):
        for value in case.get("valid" if valid else "invalid", []):
            where = "/".join(map(str, case["at"]))
            expect(f"{where} = {json.dumps(value)}", put(cases["base"], case["at"], value), valid)

for f in failures:
    print(f, file=sys.stderr)
print(f"{len(good)} storyboards valid, {len(cases['rejected_fixtures'])} broken ones rejected, "
      f"{len(failures)} failures (python3-jsonschema {importlib.metadata.version('jsonschema')})")
sys.exit(1 if failures else 0)
