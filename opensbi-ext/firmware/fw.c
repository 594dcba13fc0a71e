// SPDX-License-Identifier: BSD-2-Clause
/*
 * fw.c - the rvperf bare-metal M-mode test firmware for QEMU virt (RV64,
 * one hart).  Test infrastructure, not a product: it hosts the PMU core
 * (../core) so the conformance suite and the benchmark can run it on a
 * real (emulated) hart, and implements just enough of SBI around it:
 * BASE, PMU, DBCN and the legacy console, SRST (virt test device), TIME
 * (ACLINT mtimecmp), IPI (ACLINT MSWI, to itself) and RFENCE (local).
 *
 * Firmware events it counts (what this firmware itself sees): ILLEGAL_INSN,
 * MISALIGNED_LOAD/STORE, ACCESS_LOAD/STORE (traps from S-mode it hands
 * back to S-mode), SET_TIMER, IPI_SENT/RECEIVED, FENCE_I_SENT/RECEIVED,
 * SFENCE_VMA(_ASID)_SENT/RECEIVED; and, as rvperf's OpenSBI glue does
 * (opensbi-ext/rvperf_sbi.h), the implementation-specific event 256 (every
 * ecall it serves) and the platform event 65535 with event_data = an EID
 * it serves (that extension's ecalls).
 */
#include <rvperf/csr.h>
#include <rvperf/sbi_pmu.h>
#include "opensbi-ext/core/rvp_sbi_pmu.h"
#include "opensbi-ext/core/rvp_sbi_pmu_dt.h"
#include "opensbi-ext/core/rvp_sbi_ctr.h"

typedef unsigned long ulong;

#define FW_IMPL_ID		0x7276		/* "rv": not a registered ID */
#define FW_IMPL_VERSION		1
#define FW_SPEC_VERSION		((3UL << 24) | 0)	/* SBI v3.0 */
#define FW_EVENT_ECALLS		256	/* implementation-specific: ecalls */
#define FW_NUM_FW_CTRS		16

#define EXT_LEGACY_PUTCHAR	0x01
#define EXT_LEGACY_GETCHAR	0x02
#define EXT_BASE		0x10
#define EXT_TIME		0x54494D45
#define EXT_IPI			0x735049
#define EXT_RFENCE		0x52464E43
#define EXT_SRST		0x53525354
#define EXT_DBCN		0x4442434E

#define UART_BASE		0x10000000UL
#define TEST_DEV		0x100000UL
#define CLINT_MSIP		0x2000000UL
#define CLINT_MTIMECMP		0x2004000UL
#define RAM_BASE		0x80000000UL

#define MSTATUS_SIE		(1UL << 1)
#define MSTATUS_SPIE		(1UL << 5)
#define MSTATUS_SPP		(1UL << 8)
#define MSTATUS_MPP		(3UL << 11)
#define MSTATUS_MPP_S		(1UL << 11)
#define MIP_SSIP		(1UL << 1)
#define MIP_MSIP		(1UL << 3)
#define MIP_STIP		(1UL << 5)
#define MIP_MTIP		(1UL << 7)
#define MIP_SEIP		(1UL << 9)

extern char fw_start[], fw_end[];
extern void fw_probe_trap(void);
ulong fw_fdt;

static struct rvp_sbi_pmu_platform plat;
static struct rvp_sbi_pmu_maps maps;
static struct rvp_sbi_pmu_hart hart;
static struct rvp_sbi_ctr_hart ctr;
static ulong ram_end = RAM_BASE + (128UL << 20);
static unsigned int ctr_isa;	/* CTR the hart declares (RVP_SBI_CTR_ISA_*) */
static int on_qemu_virt;	/* root compatible "riscv-virtio" */
static int probing;		/* mtvec is fw_probe_trap: CSRs may trap */

void *memcpy(void *d, const void *s, unsigned long n);
void *memset(void *d, int c, unsigned long n);
void *memcpy(void *d, const void *s, unsigned long n)
{
	char *dd = d;
	const char *ss = s;

	while (n--)
		*dd++ = *ss++;
	return d;
}

void *memset(void *d, int c, unsigned long n)
{
	char *dd = d;

	while (n--)
		*dd++ = (char)c;
	return d;
}

#define csr_read(c) ({ ulong __v; asm volatile("csrr %0, " #c : "=r"(__v)); __v; })
#define csr_write(c, v) asm volatile("csrw " #c ", %0" : : "r"((ulong)(v)))
#define csr_set(c, v) asm volatile("csrs " #c ", %0" : : "r"((ulong)(v)))
#define csr_clear(c, v) asm volatile("csrc " #c ", %0" : : "r"((ulong)(v)))

/* ---- console and machine */
static void uart_putc(char c)
{
	volatile unsigned char *u = (volatile unsigned char *)UART_BASE;

	while (!(u[5] & 0x20))
		;
	u[0] = (unsigned char)c;
}

static void puts_(const char *s)
{
	while (*s)
		uart_putc(*s++);
}

static void puthex(ulong v)
{
	int i;

	puts_("0x");
	for (i = 60; i >= 0; i -= 4)
		uart_putc("0123456789abcdef"[(v >> i) & 15]);
}

static void __attribute__((noreturn)) shutdown(unsigned int code)
{
	*(volatile unsigned int *)TEST_DEV = code ? (code << 16) | 0x3333 : 0x5555;
	for (;;)
		asm volatile("wfi");
}

/* ---- CSR access by number: csrr/csrw need immediates, hence a switch. */
#define R1(n)	case (n): if (wr) asm volatile("li t6, 0; csrw %2, %1; mv %0, t6" \
			: "=r"(t) : "r"(*v), "i"(n) : "t6"); \
		else asm volatile("li t6, 0; li %0, 0; csrr %0, %2; mv %1, t6" \
			: "=&r"(*v), "=r"(t) : "i"(n) : "t6"); break;
#define R4(n)	R1(n) R1((n) + 1) R1((n) + 2) R1((n) + 3)
#define R16(n)	R4(n) R4((n) + 4) R4((n) + 8) R4((n) + 12)
#define R32(n)	R16(n) R16((n) + 16)

/* 0: done; 1: the access trapped (only while probing), or CSR not known */
static int csr_access(unsigned int csr, ulong *v, int wr)
{
	ulong t = 0;

	switch (csr) {
	R32(RVP_CSR_MCYCLE)
	R32(RVP_CSR_MCOUNTINHIBIT)
	R1(RVP_CSR_MIDELEG)
	R1(RVP_CSR_MIE)
	R1(RVP_CSR_MCOUNTEREN)
	R1(RVP_CSR_MSTATEEN0)
	R1(RVP_CSR_SCOUNTOVF)
	default:
		if (!wr)
			*v = 0;
		return 1;
	}
	return (int)t;
}

static uint64_t op_csr_read(void *ctx, unsigned int csr)
{
	ulong v = 0;

	(void)ctx;
	if (csr_access(csr, &v, 0))
		v = 0;	/* QEMU 7.2: unimplemented counters trap, read 0 */
	return v;
}

static void op_csr_write(void *ctx, unsigned int csr, uint64_t val)
{
	ulong v = val;

	(void)ctx;
	csr_access(csr, &v, 1);
}

static int op_csr_probe(void *ctx, unsigned int csr, uint64_t *val)
{
	ulong v = 0;
	int bad;

	(void)ctx;
	bad = csr_access(csr, &v, 0);
	*val = v;
	return bad ? RVP_SBI_ERR_NOT_SUPPORTED : 0;
}

/* S-mode may use RAM above the firmware, nothing else (no MMIO). */
static int op_range_ok(void *ctx, uint64_t addr, uint64_t size, int write)
{
	(void)ctx;
	(void)write;
	return addr >= (ulong)fw_end && addr < ram_end &&
	       size <= ram_end - addr;
}

/* M-mode reaches all of RAM directly (PMP closes nothing to it). */
static void *op_smode_map(void *ctx, uint64_t addr, uint64_t len, int write)
{
	(void)ctx;
	(void)len;
	(void)write;
	return (void *)(ulong)addr;
}

static void op_smode_unmap(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	(void)addr;
	(void)len;
}

static int op_plat_ok(void *ctx, uint64_t event_data)
{
	(void)ctx;
	switch (event_data) {
	case EXT_LEGACY_PUTCHAR: case EXT_LEGACY_GETCHAR: case EXT_BASE:
	case EXT_TIME: case EXT_IPI: case EXT_RFENCE: case EXT_SRST:
	case EXT_DBCN: case RVP_SBI_EXT_PMU:
		return 1;
	default:
		return 0;
	}
}

static const struct rvp_sbi_pmu_ops ops = {
	.csr_read = op_csr_read,
	.csr_write = op_csr_write,
	.csr_probe = op_csr_probe,
	.smode_range_ok = op_range_ok,
	.smode_map = op_smode_map,
	.smode_unmap = op_smode_unmap,
	.fw_platform_event_ok = op_plat_ok,
};

/* ---- the FDT QEMU passes: RAM size, the riscv,pmu maps, the machine
 * (QEMU virt: root compatible "riscv-virtio") and what the first cpu
 * declares of CTR (riscv,isa-extensions) */
static uint32_t be32(const void *p)
{
	const unsigned char *b = p;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	       (uint32_t)b[2] << 8 | b[3];
}

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static int prefix(const char *s, const char *p)
{
	while (*p && *s == *p)
		s++, p++;
	return !*p;
}

/* Whether the stringlist [p, p + len) holds s. */
static int strlist_has(const unsigned char *p, uint32_t len, const char *s)
{
	uint32_t i = 0;

	while (i < len) {
		if (streq((const char *)p + i, s))
			return 1;
		while (i < len && p[i])
			i++;
		i++;
	}
	return 0;
}

static int parse_fdt(const unsigned char *fdt)
{
	const unsigned char *p, *strs;
	int depth = 0, in_mem = 0, in_cpus = 0, in_cpu = 0, cpus_seen = 0;
	int nprops = 0;

	if (!fdt || be32(fdt) != 0xd00dfeed)
		return -1;
	p = fdt + be32(fdt + 8);
	strs = (const unsigned char *)fdt + be32(fdt + 12);
	for (;;) {
		uint32_t tok = be32(p), len;
		const char *name;

		p += 4;
		switch (tok) {
		case 1:	/* FDT_BEGIN_NODE */
			name = (const char *)p;
			depth++;
			if (depth == 2) {
				in_mem = prefix(name, "memory@");
				in_cpus = streq(name, "cpus");
			}
			/* the first cpu node: hart 0, the one this runs on */
			if (depth == 3)
				in_cpu = in_cpus && prefix(name, "cpu@") &&
					 !cpus_seen++;
			while (*p)
				p++;
			p = (const unsigned char *)(((ulong)p + 4) & ~3UL);
			break;
		case 2:	/* FDT_END_NODE */
			depth--;
			if (depth < 3)
				in_cpu = 0;
			break;
		case 3:	/* FDT_PROP */
			len = be32(p);
			name = (const char *)strs + be32(p + 4);
			p += 8;
			if (in_mem && depth == 2 && streq(name, "reg") &&
			    len >= 16)
				ram_end = ((ulong)be32(p) << 32 | be32(p + 4)) +
					  ((ulong)be32(p + 8) << 32 | be32(p + 12));
			if (depth == 1 && streq(name, "compatible"))
				on_qemu_virt = strlist_has(p, len,
							   "riscv-virtio");
			if (in_cpu && depth == 3 &&
			    streq(name, "riscv,isa-extensions"))
				ctr_isa = rvp_sbi_ctr_isa_parse(
					(const char *)p, len, 1);
			if (prefix(name, "riscv,event-to-") ||
			    prefix(name, "riscv,raw-event-to-")) {
				uint32_t l = len;

				/* QEMU pads with zero cells: trim them */
				while (l >= 4 && !be32(p + l - 4))
					l -= 4;
				if (!rvp_sbi_pmu_dt_prop(&maps, name, p, l))
					nprops++;
			}
			p += (len + 3) & ~3U;
			break;
		case 4:	/* FDT_NOP */
			break;
		default: /* FDT_END or garbage */
			return nprops;
		}
	}
}

/* ---- boot */
static ulong payload_entry(ulong info)
{
	const ulong *i = (const ulong *)info;

	/* QEMU's fw_dynamic_info: magic "OSBI", version, next_addr, ... */
	if (info >= RAM_BASE && info < ram_end && i[0] == 0x4942534f)
		return i[2];
	return (ulong)fw_end;
}

ulong fw_main(ulong hartid, ulong fdt, ulong info);
ulong fw_main(ulong hartid, ulong fdt, ulong info)
{
	static const struct rvp_sbi_ctr_policy policy;
	ulong entry;
	int n;

	(void)hartid;
	fw_fdt = fdt;
	n = parse_fdt((const unsigned char *)fdt);
	/* PMP: the firmware's 2 MiB closed to S-mode, everything else open */
	csr_write(pmpaddr0, (RAM_BASE >> 2) | (((ulong)(fw_end - fw_start) >> 3) - 1));
	csr_write(pmpaddr1, ~0UL >> 10);
	csr_write(pmpcfg0, (0x1FUL << 8) | 0x18);
	probing = 1;
	csr_write(mtvec, (ulong)fw_probe_trap);
	plat.xlen = 64;
	/* LCOFI delegation; CTR only where declared (this firmware knows no
	 * CTR CSR: its probes find none) */
	rvp_sbi_ctr_hart_init(&ops, 0, &ctr, &policy, ctr_isa);
	/* QEMU's stale overflow deadline: worked around on QEMU virt only */
	plat.qemu_quirks = (uint8_t)on_qemu_virt;
	plat.maps = n > 0 ? &maps : 0;
	plat.num_fw_ctrs = FW_NUM_FW_CTRS;
	plat.fw_impl_first = FW_EVENT_ECALLS;
	plat.fw_impl_last = FW_EVENT_ECALLS;
	if (rvp_sbi_pmu_hart_init(&hart, &plat, &ops, 0))
		puts_("rvperf-fw: PMU init failed\n");
	probing = 0;
	asm volatile("la t0, fw_trap_entry; csrw mtvec, t0" ::: "t0");
	/* traps S-mode handles itself; illegal/misaligned/access come here */
	csr_write(medeleg, (1UL << 0) | (1UL << 3) | (1UL << 8) |
		  (1UL << 12) | (1UL << 13) | (1UL << 15));
	csr_set(mideleg, MIP_SSIP | MIP_STIP | MIP_SEIP);
	csr_write(mcounteren, ~0UL);
	csr_write(mie, MIP_MSIP);
	csr_clear(mstatus, MSTATUS_MPP);
	csr_set(mstatus, MSTATUS_MPP_S);
	entry = payload_entry(info);
	puts_("rvperf-fw: test firmware, SBI v3.0 PMU: ");
	puthex(hart.hw.ctr_mask);
	puts_(" counters, sscofpmf ");
	uart_putc('0' + hart.hw.sscofpmf);
	puts_(n > 0 ? ", riscv,pmu maps used" : ", no riscv,pmu maps");
	puts_(on_qemu_virt ? ", QEMU quirks" : "");
	puts_(", payload at ");
	puthex(entry);
	uart_putc('\n');
	return entry;
}

/* ---- traps from S-mode */
static void fw_event(uint32_t code, uint64_t data)
{
	rvp_sbi_pmu_fw_event(&hart, code, data, 1);
}

static void redirect_to_s(ulong cause)
{
	ulong ms = csr_read(mstatus);

	csr_write(scause, cause);
	csr_write(stval, csr_read(mtval));
	csr_write(sepc, csr_read(mepc));
	ms &= ~(MSTATUS_SPP | MSTATUS_SPIE | MSTATUS_SIE | MSTATUS_MPP);
	if (csr_read(mstatus) & MSTATUS_SIE)
		ms |= MSTATUS_SPIE;
	ms |= MSTATUS_SPP | MSTATUS_MPP_S;	/* payload runs in S-mode */
	csr_write(mstatus, ms);
	csr_write(mepc, csr_read(stvec) & ~3UL);
}

static long ecall(ulong *r, ulong *val)
{
	ulong eid = r[17], fid = r[16], a0 = r[10], a1 = r[11], i;

	*val = 0;
	fw_event(FW_EVENT_ECALLS, 0);
	fw_event(RVP_SBI_PMU_FW_PLATFORM, eid);
	switch (eid) {
	case RVP_SBI_EXT_PMU: {
		uint64_t a[6] = { r[10], r[11], r[12], r[13], r[14], r[15] };
		struct rvp_sbiret ret = rvp_sbi_pmu_ecall(&hart, fid, a);

		*val = ret.value;
		return ret.error;
	}
	case EXT_BASE:
		switch (fid) {
		case 0: *val = FW_SPEC_VERSION; return 0;
		case 1: *val = FW_IMPL_ID; return 0;
		case 2: *val = FW_IMPL_VERSION; return 0;
		case 3:
			*val = a0 == EXT_BASE || a0 == RVP_SBI_EXT_PMU ||
			       a0 == EXT_DBCN || a0 == EXT_SRST ||
			       a0 == EXT_TIME || a0 == EXT_IPI ||
			       a0 == EXT_RFENCE || a0 == EXT_LEGACY_PUTCHAR ||
			       a0 == EXT_LEGACY_GETCHAR;
			return 0;
		case 4: *val = csr_read(mvendorid); return 0;
		case 5: *val = csr_read(marchid); return 0;
		case 6: *val = csr_read(mimpid); return 0;
		}
		return RVP_SBI_ERR_NOT_SUPPORTED;
	case EXT_LEGACY_PUTCHAR:
		uart_putc((char)a0);
		return 0;
	case EXT_LEGACY_GETCHAR:
		return -1;
	case EXT_DBCN:
		if (fid == 2) {
			uart_putc((char)a0);
			return 0;
		}
		if (fid != 0)
			return RVP_SBI_ERR_NOT_SUPPORTED;
		if (r[12] || !a0 || a1 + a0 < a1 || !op_range_ok(0, a1, a0, 0))
			return RVP_SBI_ERR_INVALID_PARAM;
		for (i = 0; i < a0; i++)
			uart_putc(((const char *)a1)[i]);
		*val = a0;
		return 0;
	case EXT_SRST:
		if (fid || a0 > 2 || a1 > 1)
			return RVP_SBI_ERR_INVALID_PARAM;
		shutdown(a1);
	case EXT_TIME:
		if (fid)
			return RVP_SBI_ERR_NOT_SUPPORTED;
		fw_event(RVP_SBI_PMU_FW_SET_TIMER, 0);
		*(volatile uint64_t *)CLINT_MTIMECMP = a0;
		csr_clear(mip, MIP_STIP);
		csr_set(mie, MIP_MTIP);
		return 0;
	case EXT_IPI:
		if (fid)
			return RVP_SBI_ERR_NOT_SUPPORTED;
		/* one hart: hart 0 is targeted when base <= 0 < base + 64 */
		if (a1 == ~0UL || (a1 == 0 && (a0 & 1))) {
			fw_event(RVP_SBI_PMU_FW_IPI_SENT, 0);
			*(volatile uint32_t *)CLINT_MSIP = 1;
		}
		return 0;
	case EXT_RFENCE:
		if (fid > 2)
			return RVP_SBI_ERR_NOT_SUPPORTED;
		if (a1 == ~0UL || (a1 == 0 && (a0 & 1))) {
			static const uint8_t ev[3][2] = {
				{ RVP_SBI_PMU_FW_FENCE_I_SENT, RVP_SBI_PMU_FW_FENCE_I_RECEIVED },
				{ RVP_SBI_PMU_FW_SFENCE_VMA_SENT, RVP_SBI_PMU_FW_SFENCE_VMA_RECEIVED },
				{ RVP_SBI_PMU_FW_SFENCE_VMA_ASID_SENT, RVP_SBI_PMU_FW_SFENCE_VMA_ASID_RECEIVED },
			};
			fw_event(ev[fid][0], 0);
			if (fid)
				asm volatile("sfence.vma" ::: "memory");
			else
				asm volatile("fence.i" ::: "memory");
			fw_event(ev[fid][1], 0);
		}
		return 0;
	}
	return RVP_SBI_ERR_NOT_SUPPORTED;
}

void fw_trap(ulong *r);
void fw_trap(ulong *r)
{
	ulong cause = csr_read(mcause), val;

	if ((long)cause < 0) {
		switch (cause & 0xff) {
		case 3:	/* MSI: the IPI arrives */
			*(volatile uint32_t *)CLINT_MSIP = 0;
			fw_event(RVP_SBI_PMU_FW_IPI_RECEIVED, 0);
			csr_set(mip, MIP_SSIP);
			return;
		case 7:	/* MTI: hand the timer to S-mode */
			csr_clear(mie, MIP_MTIP);
			csr_set(mip, MIP_STIP);
			return;
		}
		puts_("rvperf-fw: unexpected interrupt ");
		puthex(cause);
		shutdown(2);
	}
	switch (cause) {
	case 9:	/* ecall from S-mode */
		r[10] = (ulong)ecall(r, &val);
		r[11] = val;
		csr_write(mepc, csr_read(mepc) + 4);
		return;
	case 2:
		fw_event(RVP_SBI_PMU_FW_ILLEGAL_INSN, 0);
		break;
	case 4:
		fw_event(RVP_SBI_PMU_FW_MISALIGNED_LOAD, 0);
		break;
	case 5:
		fw_event(RVP_SBI_PMU_FW_ACCESS_LOAD, 0);
		break;
	case 6:
		fw_event(RVP_SBI_PMU_FW_MISALIGNED_STORE, 0);
		break;
	case 7:
		fw_event(RVP_SBI_PMU_FW_ACCESS_STORE, 0);
		break;
	default:
		puts_("rvperf-fw: unexpected trap ");
		puthex(cause);
		puts_(" at ");
		puthex(csr_read(mepc));
		uart_putc('\n');
		shutdown(3);
	}
	/* only from S-mode (MPP = S): hand it to the payload's handler */
	redirect_to_s(cause);
}
