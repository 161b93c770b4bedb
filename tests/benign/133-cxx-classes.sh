#!/bin/sh
# SPDX-License-Identifier: MIT
# A small C++ program with a class and the standard library, built with g++.
set -eu
cd /work
cat > shapes.cpp <<'EOF'
#include <iostream>
#include <memory>
#include <vector>
struct Shape { virtual ~Shape() = default; virtual double area() const = 0; };
struct Square : Shape { double s; explicit Square(double x) : s(x) {} double area() const override { return s * s; } };
int main() {
	std::vector<std::unique_ptr<Shape>> v;
	v.push_back(std::make_unique<Square>(3));
	double t = 0;
	for (auto &s : v) t += s->area();
	std::cout << t << "\n";
	return t == 9 ? 0 : 1;
}
EOF
g++ -O2 -std=c++17 -o shapes shapes.cpp
./shapes
