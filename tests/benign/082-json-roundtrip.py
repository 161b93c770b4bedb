#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import json

config = {"name": "demo", "workers": 4, "tags": ["a", "b"], "limits": {"cpu": 1.5, "mem": "512M"}}
with open("/work/config.json", "w") as f:
    json.dump(config, f, indent=2, sort_keys=True)
with open("/work/config.json") as f:
    loaded = json.load(f)
assert loaded == config
print(json.dumps(loaded, sort_keys=True))
