/* SPDX-License-Identifier: MIT */
/*
 * x32: getpid with the x32 ABI's number (39 | __X32_SYSCALL_BIT) through the
 * native `syscall` instruction.  Prints "ok" when the kernel answered with
 * our pid, "ENOSYS" when the kernel lacks x32 support (CONFIG_X86_X32_ABI),
 * else the value.  Under an sbxlua filter the process must die of SIGSYS:
 * an x32 number would skip every rule written for the native numbers.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#define X32_SYSCALL_BIT 0x40000000L
#define NR64_GETPID 39

int main(void)
{
	long ret = NR64_GETPID | X32_SYSCALL_BIT;

	/* the syscall instruction clobbers rcx and r11 */
	__asm__ volatile("syscall" : "+a"(ret) : : "rcx", "r11", "memory");
	if (ret == (long)getpid())
		printf("ok\n");
	else if (ret == -ENOSYS)
		printf("ENOSYS\n");
	else
		printf("x32 getpid returned %ld\n", ret);
	return 0;
}
