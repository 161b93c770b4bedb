#!/usr/bin/python3
# SPDX-License-Identifier: MIT
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple

words = "to be or not to be that is the question".split()
print(Counter(words).most_common(3))
index = defaultdict(list)
for i, w in enumerate(words):
    index[w[0]].append(i)
print(dict(sorted(index.items())))
window = deque(maxlen=3)
for n in range(6):
    window.append(n)
print(list(window))
Point = namedtuple("Point", "x y")
print(Point(3, 4)._replace(y=5))
od = OrderedDict.fromkeys("abc")
od.move_to_end("a")
print(list(od))
