#!/bin/sh
# SPDX-License-Identifier: MIT
# A build installed into a staging directory with DESTDIR, as packaging does.
set -eu
mkdir -p /work/pkg && cd /work/pkg
printf '#include <stdio.h>\nint main(void) { puts("tool 1.0"); return 0; }\n' > tool.c
cat > Makefile <<'EOF'
PREFIX ?= /usr/local
tool: tool.c
	$(CC) -O2 -o $@ tool.c
install: tool
	install -D -m 0755 tool $(DESTDIR)$(PREFIX)/bin/tool
	install -D -m 0644 tool.c $(DESTDIR)$(PREFIX)/share/doc/tool/source.c
EOF
make -s
make -s install DESTDIR=/work/stage
find /work/stage -type f | sort
/work/stage/usr/local/bin/tool
