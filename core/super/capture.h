/* SPDX-License-Identifier: MIT */
/*
 * capture.h: the files a box leaves in its writable places (capture.c).
 * The spec (struct sbx_capture) is compiled with the box's (its keep
 * directory held by descriptor); what one run holds and records is a
 * struct sbx_capstate, the supervisor's: the places init sent, then the
 * record of their walk.
 */
#ifndef SBX_CAPTURE_H
#define SBX_CAPTURE_H

#include "digest.h"
#include "hashes.h"
#include "inspect.h" /* SBX_MAGIC_BYTES, SBX_FILETYPE_MAX, SBX_MIME_MAX */
#include "plan.h"

#include <stddef.h>
#include <stdint.h>

#define CAP_MARKERS 32	  /* markers searched for */
#define CAP_PLACED 256	  /* the tree's own nodes in the places */
#define CAP_MARKER_MAX 64 /* bytes of one marker */
#define CAP_NAME_MAX 200  /* bytes of a kept name before its hash suffix */
/* files given to the inspection worker per run (inspect.h): each holds
 * up to SBX_MAGIC_BYTES of its head until typed; the worker's CPU is
 * bounded by the run's budget */
#define CAP_TYPED 256

struct sbx_capture {
	const char *places[SBX_PLACES_MAX];
	size_t nplaces;
	long max_entries;
	int max_depth;
	int64_t max_read; /* bytes read (hashed) in all */
	int keep_fd;	  /* -1: no --keep */
	int64_t keep_max; /* bytes of one kept file */
	int64_t keep_total;
	const char *markers[CAP_MARKERS];
	size_t marker_len[CAP_MARKERS];
	size_t nmarkers;
	/* the tree's own nodes in the places (a file it placed, a node it
	 * mounts over), by box path: never kept, never typed; sha256 (hex)
	 * of a file it placed, NULL for a node it mounts over: a file whose
	 * content is no longer that is typed all the same */
	struct sbx_placed {
		const char *path;
		const char *sha256;
	} placed[CAP_PLACED];
	size_t nplaced;
	/* each regular file read whole is typed, by the inspection worker
	 * (inspect.h) from its first SBX_MAGIC_BYTES as the walk read them;
	 * 0: files are not typed */
	int filetype;
};

struct sbx_capfile {
	char *path;
	const char *type;
	unsigned mode;
	int64_t size;
	int hashed;
	char sha256[SBX_SHA256_HEX];
	struct sbx_hash_hex *hx; /* read whole: every hash (NULL: no memory) */
	char *link;		 /* a symlink's text */
	char *filetype;	  /* a file read whole: its type (spec's filetype) */
	char *mime;	  /* and its MIME type; NULL: not typed */
	int err;	  /* why it was not read (0: read, or not a file) */
	uint32_t markers; /* bit i: marker i found in it */
	char *kept;	  /* its name under the keep directory */
	int keep_err;	  /* why it was not kept */
};

struct sbx_capres {
	struct sbx_capfile *f;
	size_t n, size;
	long entries;
	int64_t read, kept;
	long typed;		      /* files given to the inspection worker */
	struct sbx_inspect_run *insp; /* the run's share of it */
	/* bit i: place i was on a tmpfs with no block or inode free when it
	 * was walked (the box ended); full_size[i]: that tmpfs's size */
	uint32_t full;
	int64_t full_size[SBX_PLACES_MAX];
	int hit_entries, hit_depth, hit_read, hit_keep, hit_types, partial;
	int done;
};

/* One run's capture: what the supervisor holds of it. */
struct sbx_capstate {
	const struct sbx_capture *spec; /* NULL: the run records nothing */
	struct sbx_capres *files;	/* the record, or NULL */
	/* the run's share of the inspection worker: the walk's files and
	 * the executed memfds (notify.c) typed against one budget */
	struct sbx_inspect_run insp;
	int place_fd[SBX_PLACES_MAX]; /* the places init sent (place_mask) */
	unsigned place_mask;
};

/* Take the places init sent (SBX_MSG_PLACES and its control message);
 * walk them once the box has ended (the files' types come later, as the
 * worker answers: cs->insp.pending); free the record, drop what is still
 * queued and close what is left.  (capture_lua.c parses spec.capture and pushes
 * the record: sbx.h) */
struct cmsghdr;
SBX_LOCAL void sbx_capture_take(struct sbx_capstate *cs, const void *msg,
				const struct cmsghdr *c);
SBX_LOCAL void sbx_capture_run(struct sbx_capstate *cs);
SBX_LOCAL void sbx_capture_free(struct sbx_capstate *cs);

#endif
