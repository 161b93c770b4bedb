#!/usr/bin/python3
# SPDX-License-Identifier: MIT
import html
from html.parser import HTMLParser


class LinkCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs).get("href"))


page = '<p>See <a href="/docs">docs</a> and <a href="/faq?q=1&amp;r=2">FAQ</a>.</p>'
p = LinkCollector()
p.feed(page)
print(p.links)
print(html.escape('<script>alert("x")</script>'))
print(html.unescape("&lt;b&gt; &amp; &quot;"))
