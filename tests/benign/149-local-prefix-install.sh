#!/bin/sh
# SPDX-License-Identifier: MIT
# A package-manager style install into ~/.local: unpack, copy, record a manifest.
set -eu
src=/work/tool-2.1
mkdir -p "$src/bin" "$src/share/man/man1"
printf '#!/bin/sh\necho tool 2.1\n' > "$src/bin/tool"
printf '.TH TOOL 1\n' > "$src/share/man/man1/tool.1"
tar -C /work -czf /work/tool-2.1.tar.gz tool-2.1
rm -rf "$src"
mkdir -p /work/unpack && tar -C /work/unpack -xzf /work/tool-2.1.tar.gz
prefix="$HOME/.local"
mkdir -p "$prefix/lib/tool-manifests"
( cd /work/unpack/tool-2.1 && find . -type f ) | while read -r f; do
	install -D "/work/unpack/tool-2.1/$f" "$prefix/$f"
	echo "$f"
done > "$prefix/lib/tool-manifests/tool-2.1.list"
chmod 755 "$prefix/bin/tool"
"$prefix/bin/tool"
wc -l < "$prefix/lib/tool-manifests/tool-2.1.list"
