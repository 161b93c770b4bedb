#!/usr/bin/python3
# SPDX-License-Identifier: MIT
from enum import Enum, auto
from typing import NamedTuple, Optional


class State(Enum):
    PENDING = auto()
    RUNNING = auto()
    DONE = auto()


class Task(NamedTuple):
    name: str
    state: State
    owner: Optional[str] = None


tasks = [Task("build", State.DONE, "ci"), Task("test", State.RUNNING), Task("deploy", State.PENDING)]
for state in State:
    print(state.name, [t.name for t in tasks if t.state is state])
print(Task._fields, tasks[1].owner)
