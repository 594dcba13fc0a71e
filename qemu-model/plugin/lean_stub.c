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
 * bzip2.  Made here, with the step and the TLS offsets as the
 * instructions' own operands, it is three, and a block that is seen (the
 * count borrowed: it is 0 while blocks are seen) is queued by the stub
 * too, with no call and no load but the queue's end:
 *
 *	subq	$STEP, %fs:FAST
 *	jb	1f
 *	ret
 * 1:	subq	$STEP, %fs:REM	; borrows where the model must look
 *	jb	2f
 *	movq	%fs:QPOS, %rax
 *	movq	%rsi, (%rax)	; the block's description, QEMU's udata
 *	addq	$8, %rax
 *	movq	%rax, %fs:QPOS
 *	movq	$0, %fs:FAST	; the next block borrows again
 *	ret
 * 2:	jmp	*slow(%rip)	; QEMU's arguments still in %edi, %rsi
 *
 * one such stub for each step a block can have (its instructions, up to
 * QEMU's 512, and whether it ends in a transfer): 1,024 of them, 96 bytes
 * apart, made once when the plugin loads, then the memory is made
 * read-only and executable.  The thread pointer (%fs on x86-64) is each
 * thread's own, and a variable of static TLS lies at the same offset from
 * it in every thread: that is what initial-exec TLS is.  Queuing a seen
 * block through the compiled lean_block() cost a third of the plugin's own
 * time on bzip2 (an indirect jump, the GOT load, the step loaded from the
 * description).  From plugin API level 3 on, where QEMU calls back only
 * for the blocks the gate lets through, the part from 1: is that
 * callback (lean_stub_seen()).  Other hosts, and a system that refuses
 * executable memory, keep the compiled callbacks.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "lean_stub.h"

#define STUB_SIZE 96
/* Where the part for a seen block begins: after the subtraction from fast
 * (13 bytes), its jb (2) and the ret (1). */
#define STUB_SEEN 16

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

/* An instruction on %fs:OFF: PREFIX (the opcode and ModRM bytes, ModRM
 * with SIB addressing: an absolute disp32 from the thread pointer). */
static unsigned char *fs_op(unsigned char *p, const unsigned char *prefix,
			    size_t n, int32_t off)
{
	*p++ = 0x64;	/* %fs: */
	memcpy(p, prefix, n);
	p += n;
	*p++ = 0x25;	/* SIB: no base, no index */
	return put32(p, (uint32_t)off);
}

static int tls_offset(const void *var, uintptr_t tp, int32_t *off)
{
	intptr_t d = (intptr_t)((uintptr_t)var - tp);

	if (d < INT32_MIN || d > INT32_MAX)
		return -1;
	*off = (int32_t)d;
	return 0;
}

int lean_stubs_make(const struct lean_stub_vars *vars, lean_stub_cb slow,
		    unsigned int max_insns, unsigned int shift)
{
	static const unsigned char subq_imm[] = { 0x48, 0x81, 0x2c };
	static const unsigned char movq_load_rax[] = { 0x48, 0x8b, 0x04 };
	static const unsigned char movq_store_rax[] = { 0x48, 0x89, 0x04 };
	static const unsigned char movq_imm[] = { 0x48, 0xc7, 0x04 };
	size_t size = STUB_SIZE * (2 * (size_t)max_insns + 1);
	uintptr_t tp;
	int32_t fast, rem, qpos;
	unsigned char *code;
	unsigned int n, t;

	if (((uint64_t)max_insns << shift | 1) > INT32_MAX)
		return -1;	/* the step is a sign-extended imm32 */
	__asm__("movq %%fs:0, %0" : "=r"(tp));	/* the thread pointer */
	if (tls_offset(vars->fast, tp, &fast) ||
	    tls_offset(vars->rem, tp, &rem) ||
	    tls_offset(vars->qpos, tp, &qpos))
		return -1;
	code = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (code == MAP_FAILED)
		return -1;
	memcpy(code, &slow, sizeof(slow));
	for (n = 1; n <= max_insns; n++) {
		for (t = 0; t < 2; t++) {
			unsigned char *s = code + STUB_SIZE * (2 * n - 1 + t);
			uint32_t step = (uint32_t)((uint64_t)n << shift | t);
			unsigned char *p = s, *jb_seen;

			p = fs_op(p, subq_imm, sizeof(subq_imm), fast);
			p = put32(p, step);
			*p++ = 0x72;	/* jb over the ret */
			*p++ = 0x01;
			*p++ = 0xc3;	/* ret */
			if (p - s != STUB_SEEN) {
				munmap(code, size);
				return -1;
			}
			p = fs_op(p, subq_imm, sizeof(subq_imm), rem);
			p = put32(p, step);
			*p++ = 0x72;	/* jb to the jump to slow */
			jb_seen = p++;
			p = fs_op(p, movq_load_rax, sizeof(movq_load_rax),
				  qpos);
			*p++ = 0x48;	/* movq %rsi, (%rax) */
			*p++ = 0x89;
			*p++ = 0x30;
			*p++ = 0x48;	/* addq $8, %rax */
			*p++ = 0x83;
			*p++ = 0xc0;
			*p++ = 0x08;
			p = fs_op(p, movq_store_rax, sizeof(movq_store_rax),
				  qpos);
			p = fs_op(p, movq_imm, sizeof(movq_imm), fast);
			p = put32(p, 0);
			*p++ = 0xc3;	/* ret */
			*jb_seen = (unsigned char)(p - (jb_seen + 1));
			*p++ = 0xff;	/* jmp *disp32(%rip) */
			*p++ = 0x25;
			p = put32(p, (uint32_t)(int32_t)(code - (p + 4)));
			if (p - s > STUB_SIZE) {
				munmap(code, size);
				return -1;
			}
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
int lean_stubs_make(const struct lean_stub_vars *vars, lean_stub_cb slow,
		    unsigned int max_insns, unsigned int shift)
{
	(void)vars;
	(void)slow;
	(void)max_insns;
	(void)shift;
	return -1;
}
#endif

lean_stub_cb lean_stub_seen(uint64_t step)
{
	lean_stub_cb cb = lean_stub(step);

	return cb ? (lean_stub_cb)(void *)((unsigned char *)(void *)cb +
					   STUB_SEEN) : NULL;
}

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
