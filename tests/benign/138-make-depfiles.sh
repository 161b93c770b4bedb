#!/bin/sh
# SPDX-License-Identifier: MIT
# Make with automatic header dependencies: a header touched, one object rebuilt.
set -eu
mkdir -p /work/dep && cd /work/dep
printf '#define N 3\n' > n.h
printf '#include "n.h"\nint n(void) { return N; }\n' > n.c
printf '#include <stdio.h>\nint n(void);\nint main(void) { printf("%%d\\n", n()); return 0; }\n' > main.c
cat > Makefile <<'EOF'
OBJ = n.o main.o
app: $(OBJ)
	$(CC) -o $@ $(OBJ)
%.o: %.c
	$(CC) -MMD -c $<
-include $(OBJ:.o=.d)
EOF
make -s
./app
sleep 1
printf '#define N 4\n' > n.h
make -s
./app
