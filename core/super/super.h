/* SPDX-License-Identifier: MIT */
/*
 * super.h: what the supervisor's files share: the steps of one job that
 * the event loop (loop.c) and the other steps call.  No Lua.
 */
#ifndef SBX_SUPER_H
#define SBX_SUPER_H

#include "job.h"

/* control.c: the control socket */
SBX_LOCAL void sbx_answer_reaped(struct sbx_job *j, int late);
SBX_LOCAL void sbx_keep_death(void *job, const struct sbx_death *dp);
SBX_LOCAL void sbx_probe_exec(struct sbx_job *j);
SBX_LOCAL void sbx_read_ctl(struct sbx_job *j);

/* relay.c: stdio */
SBX_LOCAL void sbx_pass_out(struct sbx_job *j, int s, int all);
SBX_LOCAL void sbx_read_out(struct sbx_job *j, int s);
SBX_LOCAL void sbx_write_in(struct sbx_job *j);
SBX_LOCAL void sbx_tty_give_back(struct sbx_job *j);
/* the give-back, once what there was to show at the command's end is
 * shown, or at now past its deadline (relay.c) */
#define SBX_TTY_BACK_WAIT 2.0
SBX_LOCAL void sbx_tty_try_back(struct sbx_job *j, double now);

/* end.c: limits sampled, the box killed, the end */
SBX_LOCAL int sbx_job_ready(const struct sbx_job *j);
SBX_LOCAL void sbx_job_finish(struct sbx_job *j);
SBX_LOCAL void sbx_kill_box(struct sbx_job *j, int why);
SBX_LOCAL void sbx_sample_box(struct sbx_job *j, double now);
SBX_LOCAL void sbx_set_cannot(struct sbx_job *j, int stage, int err);

/* stop.c: the operator's stop */
SBX_LOCAL void sbx_read_stop(int fd, struct sbx_job **jobs, size_t n);

#endif
