// SPDX-License-Identifier: BSD-2-Clause
/*
 * lean_stub.c - the lean path's per-block callback, one per step.
 *
 * Below plugin API level 3 (QEMU before 9.1, Debian's 7.2 among them) every
 * block calls back, and in an unseen stretch the callback only subtracts
 * the block's step from a thread-local count (plugin.c: tb_exec_lean()).
 * Compiled, that is five instructions: the TLS offset loaded from the GOT
 * (a library's initial-exec TLS), the step loaded from the block's
 * description, the subtraction, the branch on its borrow, the return; run
 * at every block, they are a tenth of plain QEMU's host instructions on
 * bzip2.  Made here, with the step and the TLS offset as the instruction's
 * own operands, it is three:
 *
 *	subq	$STEP, %fs:OFFSET
 *	jb	1f
 *	ret
 * 1:	jmp	*slow(%rip)	; QEMU's arguments still in %edi, %rsi
 *
 * one such stub for each step a block can have (its instructions, up to
 * QEMU's 512, and whether it ends in a transfer): 1,024 of them, 32 bytes
 * apart, made once when the plugin loads, then the memory is made
 * read-only and executable.  The thread pointer (%fs on x86-64) is each
 * thread's own, and a variable of static TLS lies at the same offset from
 * it in every thread: that is what initial-exec TLS is.  Other hosts, and
 * a system that refuses executable memory, keep the compiled callback.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "lean_stub.h"

#define STUB_SIZE 32

static struct {
	unsigned char *code;	/* slot 0: the address of slow */
	unsigned int max_insns, shift;
} stubs;

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
static unsigned char *put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

int lean_stubs_make(uint64_t *counter, lean_stub_cb slow,
		    unsigned int max_insns, unsigned int shift)
{
	size_t size = STUB_SIZE * (2 * (size_t)max_insns + 1);
	uintptr_t tp;
	intptr_t off;
	unsigned char *code;
	unsigned int n, t;

	if (((uint64_t)max_insns << shift | 1) > INT32_MAX)
		return -1;	/* the step is a sign-extended imm32 */
	__asm__("movq %%fs:0, %0" : "=r"(tp));	/* the thread pointer */
	off = (intptr_t)((uintptr_t)counter - tp);
	if (off < INT32_MIN || off > INT32_MAX)
		return -1;
	code = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return -1;
	memcpy(code, &slow, sizeof(slow));
	for (n = 1; n <= max_insns; n++) {
		for (t = 0; t < 2; t++) {
			unsigned char *s = code + STUB_SIZE * (2 * n - 1 + t);
			unsigned char *p = s;

			/* subq $imm32, %fs:disp32 */
			*p++ = 0x64;
			*p++ = 0x48;
			*p++ = 0x81;
			*p++ = 0x2c;
			*p++ = 0x25;
			p = put32(p, (uint32_t)off);
			p = put32(p, (uint32_t)((uint64_t)n << shift | t));
			*p++ = 0x72;	/* jb over the ret */
			*p++ = 0x01;
			*p++ = 0xc3;	/* ret */
			*p++ = 0xff;	/* jmp *disp32(%rip) */
			*p++ = 0x25;
			p = put32(p, (uint32_t)(int32_t)(code - (p + 4)));
		}
	}
	if (mprotect(code, size, PROT_READ | PROT_EXEC)) {
		munmap(code, size);
		return -1;
	}
	stubs.code = code;
	stubs.max_insns = max_insns;
	stubs.shift = shift;
	return 0;
}
#else
int lean_stubs_make(uint64_t *counter, lean_stub_cb slow,
		    unsigned int max_insns, unsigned int shift)
{
	(void)counter;
	(void)slow;
	(void)max_insns;
	(void)shift;
	return -1;
}
#endif

lean_stub_cb lean_stub(uint64_t step)
{
	uint64_t n, t;
	lean_stub_cb cb;

	if (!stubs.code)
		return NULL;
	n = step >> stubs.shift;
	t = step & ((1ull << stubs.shift) - 1);
	if (!n || n > stubs.max_insns || t > 1)
		return NULL;
	cb = (lean_stub_cb)(void *)(stubs.code + STUB_SIZE * (2 * n - 1 + t));
	return cb;
}
