#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Copy a tree with shutil and archive it in two formats."""
import os
import shutil

src = "/work/site"
os.makedirs(os.path.join(src, "pages"), exist_ok=True)
for name in ("index.html", "pages/about.html", "pages/contact.html"):
    with open(os.path.join(src, name), "w") as f:
        f.write(f"<h1>{name}</h1>\n")

shutil.rmtree("/tmp/site-copy", ignore_errors=True)
shutil.copytree(src, "/tmp/site-copy")
for fmt in ("gztar", "zip"):
    path = shutil.make_archive(f"/tmp/site-{fmt}", fmt, root_dir="/tmp/site-copy")
    print(fmt, os.path.basename(path), os.path.getsize(path) > 0)
shutil.unpack_archive("/tmp/site-gztar.tar.gz", "/tmp/site-unpacked")
print(sorted(os.listdir("/tmp/site-unpacked/pages")))
print("disk usage of /tmp known:", shutil.disk_usage("/tmp").total > 0)
