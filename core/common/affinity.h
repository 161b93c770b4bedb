/* SPDX-License-Identifier: MIT */
/*
 * affinity.h: a batch's worker kept on one core, its boxes on them all.
 */
#ifndef SBX_AFFINITY_H
#define SBX_AFFINITY_H

/* Keeps this process on the k-th CPU (from 0, modulo their count) of the
 * set it may run on, and that set for the boxes it clones
 * (sbx_box_affinity).  Returns the CPU's number, or -errno. */
int sbx_pin_to(int k);

/* In a box's init, before the command is forked: the set back, where the
 * supervisor was kept on one CPU (the box's processes see the host's
 * CPUs, as a program run there does).  0, or -errno. */
int sbx_box_affinity(void);

#endif
