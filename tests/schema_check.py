# SPDX-License-Identifier: MIT
"""Validates JSON values, one per line on stdin, against a schema of
docs/schema/ (Debian's python3-jsonschema): schema_check.py DIR NAME.
Prints each error (the deepest of a oneOf) and exits 1 when there is one."""
import json
import sys

import jsonschema

d, name = sys.argv[1], sys.argv[2]
store = {n: json.load(open(d + "/" + n)) for n in ("run.schema.json", "batch-line.schema.json")}
schema = store[name]
resolver = jsonschema.RefResolver.from_schema(schema, store=store)
validator = jsonschema.Draft7Validator(schema, resolver=resolver)


def leaves(e):
    if not e.context:
        return [e]
    return [x for c in e.context for x in leaves(c)]


bad = 0
for i, line in enumerate(sys.stdin):
    for e in validator.iter_errors(json.loads(line)):
        for x in leaves(e):
            bad += 1
            path = "/".join(map(str, x.absolute_path))
            print("line %d: %s: %s" % (i + 1, path, x.message[:200]))
sys.exit(1 if bad else 0)
