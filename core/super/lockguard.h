/* SPDX-License-Identifier: MIT */
/*
 * lockguard.h: no lock of the box on a host file.  flock and fcntl's lock
 * commands reach the supervisor through the explain channel (the filter's
 * lock prefix, filter.c); lockguard.c decides from the open file itself and
 * performs the lock on the box's behalf (notify.c hands the calls over).
 */
#ifndef SBX_LOCKGUARD_H
#define SBX_LOCKGUARD_H

#include "notify.h"

#include <linux/seccomp.h>

/* The devices mounted in the supervisor's mount namespace, read now
 * (before the box exists); n->lg NULL when they cannot be read (every
 * lock is then refused). */
SBX_LOCAL void sbx_lock_init(struct sbx_notify *n);
SBX_LOCAL void sbx_lock_close(struct sbx_notify *n);
/* Is this notified call one of the guarded lock calls? */
SBX_LOCAL int sbx_lock_call(const struct seccomp_data *d);
/* Answers it (now, or later from sbx_lock_retry for a blocking wait). */
SBX_LOCAL void sbx_lock_handle(struct sbx_notify *n,
			       const struct seccomp_notif *req);
/* Tries the waiting locks again; sets *next (seconds, sbx_now's clock)
 * sooner when some still wait. */
SBX_LOCAL void sbx_lock_retry(struct sbx_notify *n, double now, double *next);

#endif
