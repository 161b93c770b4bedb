/* SPDX-License-Identifier: MIT */
/*
 * lockguard.h: no lock of the box on a host file.  flock and fcntl's lock
 * commands reach the supervisor through the explain channel (the filter's
 * lock prefix, filter.c); lockguard.c decides from the open file itself (a
 * file of the box's own tmpfs places, which init hands over: handover.c,
 * control.c) and performs the lock on the box's behalf (notify.c hands the
 * calls over).
 */
#ifndef SBX_LOCKGUARD_H
#define SBX_LOCKGUARD_H

#include "notify.h"

#include <linux/seccomp.h>

/* The guard's state, with no place yet (every lock refused until init's
 * places come); n->lg NULL when it cannot be made (every lock refused). */
SBX_LOCAL void sbx_lock_init(struct sbx_notify *n);
SBX_LOCAL void sbx_lock_close(struct sbx_notify *n);
/* Takes the descriptors of a SBX_MSG_LOCKS (control message c): the box's
 * own tmpfs places, as init opened them; only the first message's. */
struct cmsghdr;
SBX_LOCAL void sbx_lock_take(struct sbx_notify *n, const struct cmsghdr *c);
/* Is this notified call one of the guarded lock calls? */
SBX_LOCAL int sbx_lock_call(const struct seccomp_data *d);
/* Answers it (now, or later from sbx_lock_retry for a blocking wait). */
SBX_LOCAL void sbx_lock_handle(struct sbx_notify *n,
			       const struct seccomp_notif *req);
/* Tries the waiting locks again; sets *next (seconds, sbx_now's clock)
 * sooner when some still wait. */
SBX_LOCAL void sbx_lock_retry(struct sbx_notify *n, double now, double *next);

/* notify.c's, for a refusal the guard records: the event's time and the
 * task's ids (before the notification's id is checked), then the event
 * kept with the box's others (after). */
SBX_LOCAL void sbx_notify_name(struct sbx_notify *n, pid_t pid,
			       struct sbx_event *e);
SBX_LOCAL void sbx_notify_record(struct sbx_notify *n,
				 const struct sbx_event *e);

#endif
