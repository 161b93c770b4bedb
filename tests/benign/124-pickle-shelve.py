#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import pickle
import shelve

state = {"step": 7, "seen": {"a", "b"}, "history": [(1, "start"), (7, "resume")]}
with open("/work/state.pickle", "wb") as f:
    pickle.dump(state, f)
with open("/work/state.pickle", "rb") as f:
    assert pickle.load(f) == state

with shelve.open("/work/cache") as db:
    db["answer"] = 42
    db["colours"] = ["red", "green"]
with shelve.open("/work/cache") as db:
    print(sorted(db.keys()), db["answer"])
