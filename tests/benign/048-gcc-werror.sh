#!/bin/sh
# SPDX-License-Identifier: MIT
# Separate compilation with strict warnings treated as errors.
set -eu
d=$(mktemp -d /tmp/werror.XXXXXX)
cd "$d"
cat > stack.h <<'EOF'
#define STACK_MAX 16
struct stack { int items[STACK_MAX]; int top; };
int push(struct stack *s, int v);
int pop(struct stack *s, int *v);
EOF
cat > stack.c <<'EOF'
#include "stack.h"
int push(struct stack *s, int v)
{
	if (s->top == STACK_MAX) return -1;
	s->items[s->top++] = v;
	return 0;
}
int pop(struct stack *s, int *v)
{
	if (s->top == 0) return -1;
	*v = s->items[--s->top];
	return 0;
}
EOF
cat > main.c <<'EOF'
#include <stdio.h>
#include "stack.h"
int main(void)
{
	struct stack s = { .top = 0 };
	int v;
	for (int i = 0; i < 5; i++) push(&s, i * i);
	while (pop(&s, &v) == 0) printf("%d ", v);
	putchar('\n');
	return 0;
}
EOF
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -c stack.c
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -c main.c
gcc -o stack main.o stack.o
./stack
cd / && rm -rf "$d"
