/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry and M-mode trap vector of the rvperf test firmware.  Hart 0 boots
 * (a0 = hartid, a1 = FDT, a2 = QEMU's fw_dynamic_info); other harts park.
 * The trap vector saves the caller-saved registers (ra, t0-t6, a0-a7) and
 * S-mode's sp in a frame of 32 slots indexed by register number on the
 * M-mode stack (mscratch holds its top while S-mode runs), calls
 * fw_trap(frame) and restores them, so fw_trap can change a0/a1 (ecall
 * results) and mepc.  s0-s11 are preserved by the C code itself; gp and tp
 * are never used by the firmware (no __global_pointer$, no TLS).
 */
	.section .text.start, "ax"
	.globl _start
_start:
	bnez	a0, park
	la	sp, fw_stack_top
	csrw	mscratch, sp
	la	t0, fw_trap_entry
	csrw	mtvec, t0
	call	fw_main		/* returns the payload entry in a0 */
	la	sp, fw_stack_top
	csrw	mscratch, sp
	csrw	mepc, a0
	li	a0, 0
	la	t0, fw_fdt
	ld	a1, 0(t0)
	mret
park:
	wfi
	j	park

	.balign 4
	.globl fw_trap_entry
fw_trap_entry:
	/* from S-mode only: M-mode runs with mtvec = fw_probe_trap while it
	 * may trap (counter discovery), and with interrupts off otherwise */
	csrrw	sp, mscratch, sp
	addi	sp, sp, -256
	sd	x1, 8(sp)
	sd	x5, 40(sp)
	sd	x6, 48(sp)
	sd	x7, 56(sp)
	sd	x10, 80(sp)
	sd	x11, 88(sp)
	sd	x12, 96(sp)
	sd	x13, 104(sp)
	sd	x14, 112(sp)
	sd	x15, 120(sp)
	sd	x16, 128(sp)
	sd	x17, 136(sp)
	sd	x28, 224(sp)
	sd	x29, 232(sp)
	sd	x30, 240(sp)
	sd	x31, 248(sp)
	csrr	t0, mscratch	/* S-mode's sp */
	sd	t0, 16(sp)
	mv	a0, sp
	call	fw_trap
	addi	t0, sp, 256
	csrw	mscratch, t0
	ld	x1, 8(sp)
	ld	x5, 40(sp)
	ld	x6, 48(sp)
	ld	x7, 56(sp)
	ld	x10, 80(sp)
	ld	x11, 88(sp)
	ld	x12, 96(sp)
	ld	x13, 104(sp)
	ld	x14, 112(sp)
	ld	x15, 120(sp)
	ld	x16, 128(sp)
	ld	x17, 136(sp)
	ld	x28, 224(sp)
	ld	x29, 232(sp)
	ld	x30, 240(sp)
	ld	x31, 248(sp)
	ld	sp, 16(sp)
	mret

	/* M-mode probe vector: skip the trapping 4-byte instruction and set
	 * t6 = 1; probes clear t6 first and list it as clobbered. */
	.balign 4
	.globl fw_probe_trap
fw_probe_trap:
	csrr	t6, mepc
	addi	t6, t6, 4
	csrw	mepc, t6
	li	t6, 1
	mret

	.bss
	.balign 16
	.space	16384
	.globl fw_stack_top
fw_stack_top:
