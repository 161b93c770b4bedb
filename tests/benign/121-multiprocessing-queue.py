#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Two worker processes fed through a multiprocessing queue."""
import multiprocessing as mp


def worker(inbox, outbox):
    for text in iter(inbox.get, None):
        outbox.put((text, len(text.split())))


if __name__ == "__main__":
    inbox, outbox = mp.Queue(), mp.Queue()
    procs = [mp.Process(target=worker, args=(inbox, outbox)) for _ in range(2)]
    for p in procs:
        p.start()
    lines = ["one", "one two", "one two three", "four words in here", "and five words in here"]
    for line in lines:
        inbox.put(line)
    for _ in procs:
        inbox.put(None)
    results = dict(outbox.get() for _ in lines)
    for p in procs:
        p.join()
    print(results)
    assert all(p.exitcode == 0 for p in procs)
