#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Shortest paths with heapq (Dijkstra) and lookups with bisect."""
import bisect
import heapq

graph = {
    "a": {"b": 4, "c": 1},
    "b": {"d": 1},
    "c": {"b": 2, "d": 5},
    "d": {},
}


def dijkstra(start):
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, node = heapq.heappop(heap)
        if d > dist.get(node, float("inf")):
            continue
        for nxt, w in graph[node].items():
            nd = d + w
            if nd < dist.get(nxt, float("inf")):
                dist[nxt] = nd
                heapq.heappush(heap, (nd, nxt))
    return dist


print(dijkstra("a"))
assert dijkstra("a")["d"] == 4
grades = [60, 70, 80, 90]
print([("FDCBA")[bisect.bisect(grades, s)] for s in (33, 65, 77, 91, 100)])
print(heapq.nlargest(3, [5, 1, 9, 3, 7, 2]))
