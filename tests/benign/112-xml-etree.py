#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Build an XML document, write it, parse it back and query it."""
import xml.etree.ElementTree as ET

catalog = ET.Element("catalog")
for ident, title, year in [(1, "Dune", 1965), (2, "Solaris", 1961), (3, "Neuromancer", 1984)]:
    book = ET.SubElement(catalog, "book", id=str(ident))
    ET.SubElement(book, "title").text = title
    ET.SubElement(book, "year").text = str(year)
ET.indent(catalog)
ET.ElementTree(catalog).write("/work/catalog.xml", encoding="utf-8", xml_declaration=True)

tree = ET.parse("/work/catalog.xml")
old = [b.findtext("title") for b in tree.getroot() if int(b.findtext("year")) < 1970]
print("before 1970:", old)
print("ids:", [b.get("id") for b in tree.iter("book")])
