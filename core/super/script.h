/* SPDX-License-Identifier: MIT */
/*
 * script.h: the text of the scripts the box's interpreters run (script.c),
 * kept bounded and hashed, each named by the process that ran it.
 *
 * Three ways a script reaches an interpreter, three places it is taken:
 * - text on the command line (sh -c, python3 -c, perl -e, awk's program):
 *   the exec's argument, read from the caller's memory at the exec's
 *   notification (as its argv is: another thread of the caller could
 *   change it before the kernel copies it);
 * - a file (sh x.sh, python3 x.py, a #! script executed): the file the
 *   path names in the box's tree (RESOLVE_IN_ROOT, no magic links),
 *   opened by the supervisor while the interpreter waits in its own open
 *   of that path (or in the exec of a #! script), read from that one open
 *   file, never from a name resolved again later;
 * - stdin (curl ... | sh, sh < x.sh): at the interpreter's exec, its
 *   descriptor 0 itself: a regular file is read from its offset (the same
 *   open file the interpreter reads); a pipe is replaced by a relay pipe
 *   of the supervisor's (SECCOMP_IOCTL_NOTIF_ADDFD onto fd 0), whose bytes
 *   are copied through as the box writes them (script.c sbx_script_pump,
 *   from the loop, never blocking), the first SBX_SCRIPT_MAX kept.
 */
#ifndef SBX_SCRIPT_H
#define SBX_SCRIPT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef SBX_LOCAL
#define SBX_LOCAL __attribute__((visibility("hidden")))
#endif

/* What one script keeps: its first SBX_SCRIPT_MAX bytes (cut past them,
 * hashed whole up to SBX_SCRIPT_HASH_MAX); what one run keeps of all its
 * scripts' texts (SBX_SCRIPT_RUN: a text seen before takes no more), and
 * of entries (SBX_SCRIPTS_MAX); past either a script is counted in
 * `over`, never dropped silently. */
#define SBX_SCRIPT_MAX ((size_t)256 << 10)
#define SBX_SCRIPT_HASH_MAX ((uint64_t)64 << 20)
#define SBX_SCRIPT_RUN ((uint64_t)4 << 20)
/* the most the supervisor reads of the run's script files in all (a
 * program that runs a large script in a loop must not keep it reading):
 * past it a file's size is its length, unhashed */
#define SBX_SCRIPT_HASH_RUN ((uint64_t)256 << 20)
#define SBX_SCRIPTS_MAX 1024
#define SBX_SCRIPT_WAITS 16 /* interpreters whose script open is awaited */
#define SBX_RELAYS 8	    /* stdin pipes relayed at once per run */
#define SBX_SCRIPT_NAME 512

struct sbx_script {
	int pid;		      /* in the box */
	char image[SBX_SCRIPT_NAME];  /* the interpreter, as exec named it */
	char lang[12];		      /* sh python perl ruby php node awk */
	char source[SBX_SCRIPT_NAME]; /* a path, "-c" or "stdin" */
	char sha256[65]; /* of the whole text read ("": past the hash's
			    bound, or a relay still open) */
	uint64_t size;	 /* bytes of the whole script (read or relayed) */
	int cut;	 /* text holds its first SBX_SCRIPT_MAX bytes only */
	unsigned char *text; /* NULL: same text as entry same, or none */
	size_t len;
	long same; /* an earlier entry with the same text; -1: none */
	int relay; /* a relay of stdin still open: its slot; -1 */
};

/* A stdin pipe relayed (script.c): from the box's pipe (src, a copy of
 * the interpreter's fd 0 taken at its exec) to the relay pipe's write end
 * (dst), whose read end is the interpreter's fd 0 now. */
struct sbx_relay {
	int src, dst; /* -1: a free slot */
	long entry;   /* the script it fills */
	unsigned char buf[1 << 16];
	size_t head, tail; /* bytes read from src not yet written to dst */
	int eof;	   /* src ended: dst closed once buf is empty */
	void *hash;	   /* struct sbx_sha256 of every byte relayed */
};

struct sbx_scripts {
	struct sbx_script *s;
	size_t n;
	uint64_t used;	    /* text bytes kept */
	uint64_t hashed;    /* file bytes read this run */
	unsigned long over; /* scripts past the budgets: not kept */
	struct sbx_script_wait {
		pid_t host; /* 0: a free slot */
		int pid;
		char image[SBX_SCRIPT_NAME], lang[12];
		char path[2 * SBX_SCRIPT_NAME + 2]; /* the operand, absolute */
	} wait[SBX_SCRIPT_WAITS];
	struct sbx_relay *relay[SBX_RELAYS];
};

struct sbx_event;
struct seccomp_notif;

SBX_LOCAL void sbx_scripts_init(struct sbx_scripts *c);
SBX_LOCAL void sbx_scripts_free(struct sbx_scripts *c);
/*
 * An exec the table let through (e read, its notification's id checked,
 * not yet answered: listener is the channel, req the call): an
 * interpreter's -c text or stdin, or a #! script, is taken now; a script
 * operand is awaited at the interpreter's open of it.  Checks the id
 * again after what it read by pid.
 */
SBX_LOCAL void sbx_script_exec(struct sbx_scripts *c, int listener,
			       const struct seccomp_notif *req,
			       const struct sbx_event *e);
/* An open let through (not yet answered): the awaited script operand of
 * the task, read now. */
SBX_LOCAL void sbx_script_open(struct sbx_scripts *c, int listener,
			       const struct seccomp_notif *req,
			       const struct sbx_event *e);
/* The relays' descriptors the loop waits on: up to SBX_RELAYS pairs of
 * (fd, events) into fds/ev; returns how many. */
SBX_LOCAL size_t sbx_script_watch(const struct sbx_scripts *c, int *fds,
				  short *ev);
/* Copies what the relays can take now, never blocking. */
SBX_LOCAL void sbx_script_pump(struct sbx_scripts *c);
/* The run has ended: what the relays hold is the script's, closed. */
SBX_LOCAL void sbx_script_end(struct sbx_scripts *c);

#endif
