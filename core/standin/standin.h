/* SPDX-License-Identifier: MIT */
/*
 * The stand-ins: one program, chosen by argv[0], that plays the admin and
 * attack tools a host lacks inside the analysis box (docs/standins.md).
 * Each behaves as the tool does for an unprivileged user: a command it
 * would run is executed (an exec the box records), a file it would write
 * is opened for writing (an attempt the box records), and it fails with
 * the tool's own words and exit status.  Nothing here names the sandbox.
 * No layer of core/ is included: the program runs inside the box only.
 */
#ifndef STANDIN_H
#define STANDIN_H

#include <stddef.h>

struct standin {
	const char *name;
	int (*run)(int argc, char **argv);
};

/* the tools of each file, NULL-terminated */
extern const struct standin standin_admin[];
extern const struct standin standin_net[];
extern const struct standin standin_priv[];
extern const struct standin standin_partc[];

/* a variable of the environment the stand-in runs with: the sample's own
 * (USER, PATH, DISPLAY, as the tool reads them), never sbxlua's settings */
const char *su_env(const char *name);
/* the box user's name (USER, else /etc/passwd by uid, else the uid) */
const char *su_user(void);
/* a user's home and shell from /etc/passwd ("/root", "/bin/bash" when
 * absent); 0 or -errno */
int su_account(const char *user, char *home, size_t hsize, char *shell,
	       size_t ssize);
/* reads all of fd (bounded) and drops it; 0 or -errno */
int su_drain(int fd);
/* reads all of a file, or stdin for "-" (bounded); 0 or -errno */
int su_drain_path(const char *path);
/* opens path for writing as the tool would (O_CREAT), closes it;
 * 0 or -errno */
int su_try_write(const char *path, int flags);
/* runs argv (PATH looked up): only returns on failure, with -errno */
int su_exec(char *const argv[]);
/* prints "fmt" to stderr, formatted */
void su_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the last component of a path */
const char *su_base(const char *path);
/* the stand-in called name, or NULL */
const struct standin *su_find(const char *name);

#endif
