/* SPDX-License-Identifier: MIT */
/*
 * stamp.h: start-up stamps for `make bench` (scripts/bench-breakdown.sh).
 *
 * When sbxlua starts with SBXLUA_STAMPS=FILE in its environment (read
 * once, when sbx.core is opened), one shared anonymous page holds a
 * CLOCK_MONOTONIC stamp per point below; the box's processes inherit it
 * across clone (MAP_SHARED) and write theirs there, and sbxlua appends
 * one line of them to FILE at its exit.  Without the variable sbx_stamps
 * is NULL and sbx_stamp() is one test of it.  clock_gettime is
 * async-signal-safe (vDSO), so the child between clone and execve may
 * call it.  The page is gone from the command at its execve.
 */
#ifndef SBX_STAMP_H
#define SBX_STAMP_H

#include <stdint.h>
#include <time.h>

enum sbx_stamp_point {
	SBX_T_MAIN,	 /* main() of sbxlua */
	SBX_T_CORE,	 /* sbx.core opened */
	SBX_T_FILTER0,	 /* a seccomp filter compile (or cache load) begins */
	SBX_T_FILTER1,	 /* ... and ends */
	SBX_T_START,	 /* sbx_job_start: the plan is compiled */
	SBX_T_CGROUP0,	 /* the box's cgroup is made */
	SBX_T_CGROUP1,	 /* ... done */
	SBX_T_CLONE,	 /* clone3 is called */
	SBX_T_CLONED,	 /* clone3 returned in the supervisor */
	SBX_T_MAPS,	 /* the supervisor has written the id maps */
	SBX_T_CHILD,	 /* first instruction of the box's init */
	SBX_T_IDS,	 /* init has its ids in the box (maps, setid) */
	SBX_T_TREE0,	 /* build_tree begins */
	SBX_T_PROC0,	 /* the /proc mount begins */
	SBX_T_PROC1,	 /* ... ends */
	SBX_T_TREE1,	 /* build_tree ends (pivoted, read-only) */
	SBX_T_STEP,	 /* the command's process begins (after the fork) */
	SBX_T_LANDLOCK0, /* Landlock begins */
	SBX_T_LANDLOCK1, /* ... ends */
	SBX_T_PROBE1,	 /* the probe is sent */
	SBX_T_EXECVE,	 /* the filter is loaded: execve is next */
	SBX_T_ENDED,	 /* the supervisor sees the command end */
	SBX_T_FINISH,	 /* the supervisor collects the box */
	SBX_T_EXIT,	 /* sbxlua exits */
	SBX_T_COUNT
};

extern uint64_t *sbx_stamps;
/* what this process's CLOCK_MONOTONIC is ahead of sbxlua's: the box's
 * time namespace offset, in its command's process (child.c) */
extern int64_t sbx_stamp_offset;

static inline void sbx_stamp(int point)
{
	struct timespec t;
	if (sbx_stamps == 0 || clock_gettime(CLOCK_MONOTONIC, &t) != 0)
		return;
	sbx_stamps[point] = (uint64_t)t.tv_sec * 1000000000u +
			    (uint64_t)t.tv_nsec - (uint64_t)sbx_stamp_offset;
}

void sbx_stamp_init(void);
void sbx_stamp_main(uint64_t ns);

#endif
