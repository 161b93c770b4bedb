#!/bin/sh
# SPDX-License-Identifier: MIT
# A CMake project configured and built out of tree with Make.
set -eu
command -v cmake > /dev/null || exit 0
mkdir -p /work/cm/src && cd /work/cm
cat > CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(hello C)
add_executable(hello src/hello.c)
EOF
printf '#include <stdio.h>\nint main(void) { puts("hello, cmake"); return 0; }\n' > src/hello.c
cmake -S . -B build > /dev/null
cmake --build build > /dev/null
./build/hello
