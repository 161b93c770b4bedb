/* SPDX-License-Identifier: MIT */
/* resolver: looks up two names, one that resolves (the sink answers
 * every A query) and one it refuses; connects to neither. */
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>

static void look(const char *name)
{
	struct addrinfo hint, *r = NULL;
	memset(&hint, 0, sizeof hint);
	hint.ai_family = AF_INET;
	if (getaddrinfo(name, NULL, &hint, &r) == 0)
		freeaddrinfo(r);
}

int main(void)
{
	look("update.example.org");
	look("mirror.example.net");
	return 0;
}
