#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Concurrent coroutines with asyncio: a producer, consumers, gather."""
import asyncio


async def producer(q):
    for i in range(10):
        await q.put(i)
        await asyncio.sleep(0.005)
    for _ in range(2):
        await q.put(None)


async def consumer(name, q, out):
    while (item := await q.get()) is not None:
        out.append((name, item * 10))


async def main():
    q = asyncio.Queue()
    out = []
    await asyncio.gather(producer(q), consumer("c1", q, out), consumer("c2", q, out))
    print(sorted(v for _, v in out))
    assert len(out) == 10


asyncio.run(main())
