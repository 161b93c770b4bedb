/* SPDX-License-Identifier: MIT */
/*
 * mqueue: a POSIX message queue used as a program uses one: mq_open (made
 * with O_CREAT | O_EXCL), mq_send, mq_receive, mq_getattr, mq_close,
 * mq_unlink; then what /dev/mqueue lists while the queue exists.  One line
 * per step, "name ok" or "name failed: <strerror>"; exit 0 when every step
 * worked.  The queue's name is argv[1] (default /q).  With argv[2]
 * "keep", the queue is made and left; with "open", only opened (O_RDONLY),
 * as another program would find it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <string.h>

static int step(const char *name, int r)
{
	if (r < 0)
		printf("%s failed: %s\n", name, strerror(errno));
	else
		printf("%s ok\n", name);
	return r < 0;
}

/* the names /dev/mqueue lists, on one line */
static void listing(void)
{
	DIR *d = opendir("/dev/mqueue");
	struct dirent *e;
	printf("listing:");
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			printf(" %s", e->d_name);
	printf("%s\n", d ? "" : " (no /dev/mqueue)");
	if (d)
		closedir(d);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "/q";
	struct mq_attr a;
	char buf[64] = "";
	int bad = 0;
	mqd_t q;

	if (argc > 2 && strcmp(argv[2], "open") == 0)
		return step("mq_open",
			    mq_open(name, O_RDONLY) == (mqd_t)-1 ? -1 : 0);
	memset(&a, 0, sizeof a);
	a.mq_maxmsg = 4;
	a.mq_msgsize = 64;
	q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, &a);
	if (step("mq_open", q == (mqd_t)-1 ? -1 : 0))
		return 1;
	if (argc > 2 && strcmp(argv[2], "keep") == 0)
		return 0;
	bad |= step("mq_send", mq_send(q, "hello", 6, 1));
	bad |= step("mq_receive", (int)mq_receive(q, buf, sizeof buf, NULL));
	printf("received: %s\n", buf);
	bad |= step("mq_getattr", mq_getattr(q, &a));
	listing();
	bad |= step("mq_close", mq_close(q));
	bad |= step("mq_unlink", mq_unlink(name));
	return bad;
}
