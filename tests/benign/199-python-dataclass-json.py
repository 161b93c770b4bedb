#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Serialises dataclasses to JSON and back.
import dataclasses
import json


@dataclasses.dataclass
class Item:
    name: str
    qty: int


items = [Item("pen", 3), Item("ink", 1)]
s = json.dumps([dataclasses.asdict(i) for i in items])
back = [Item(**d) for d in json.loads(s)]
assert back == items
print(s)
