#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Worker threads draining a queue of jobs."""
import queue
import threading

jobs = queue.Queue()
results = []
lock = threading.Lock()


def worker():
    while True:
        n = jobs.get()
        if n is None:
            jobs.task_done()
            return
        with lock:
            results.append(n * n)
        jobs.task_done()


threads = [threading.Thread(target=worker) for _ in range(4)]
for t in threads:
    t.start()
for n in range(100):
    jobs.put(n)
for _ in threads:
    jobs.put(None)
jobs.join()
for t in threads:
    t.join()
assert sorted(results) == [n * n for n in range(100)]
print("sum of squares:", sum(results))
