// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_ecall.c - libFuzzer target over the PMU ecall interface.
 *
 * The input picks a hart configuration, then a sequence of ecalls (with
 * arguments drawn from boundary values or raw bytes), hardware and firmware
 * events, and S-mode stores.  After every ecall it checks what must always
 * hold, and aborts otherwise:
 *  - the core touched no missing CSR and no memory outside S-mode RAM;
 *  - firmware and MMIO memory (placed right next to RAM) is unchanged;
 *  - an error changed nothing: CSRs, PMU state and RAM are as before;
 *  - a success wrote RAM only where the function may (the snapshot page
 *    for stop with TAKE_SNAPSHOT, output words for event_get_info);
 *  - the error is one the function's table lists;
 *  - started counters are configured, configured counters exist, and the
 *    hardware inhibit bits agree with the started set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_hw.h"
#include "opensbi-ext/core/rvp_sbi_pmu_dt.h"

#define FW_BASE		0x8003F000ULL
#define FW_SIZE		0x1000ULL
#define RAM_BASE	0x80040000ULL
#define RAM_SIZE	0x4000ULL
#define MMIO_BASE	(RAM_BASE + RAM_SIZE)
#define MMIO_SIZE	0x1000ULL

static struct sim S;
static uint8_t fw_pattern[FW_SIZE];
static uint8_t ram_before[RAM_SIZE];
static int ready;

struct input {
	const uint8_t *p;
	size_t n;
};

static uint8_t u8(struct input *in)
{
	uint8_t v;

	if (!in->n)
		return 0;
	v = *in->p++;
	in->n--;
	return v;
}

static uint64_t u64(struct input *in)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)u8(in) << (8 * i);
	return v;
}

static const uint64_t interesting[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 18, 31, 32, 33, 63, 64,
	0xff, 0xffff, 0xffffffff, 0x100000000ULL, ~0ULL, ~0ULL - 1,
	0x8000000000000000ULL, 0x7fffffffffffffffULL, 0xfffffffffffff000ULL,
	0x0ffffffffffffff0ULL, 0x1000000000000000ULL,
	FW_BASE, FW_BASE + 0xff0, RAM_BASE, RAM_BASE + 0x1000,
	RAM_BASE + 0x2000, RAM_BASE + RAM_SIZE - 0x1000,
	RAM_BASE + RAM_SIZE - 0x10, RAM_BASE + RAM_SIZE - 0x20, MMIO_BASE,
	RAM_BASE + 8, 0x1, 0x2, 0x5, 0x10000, 0x10001, 0x20000, 0x30000,
	0xf0000, 0xf0005, 0xf0015, 0xf0100, 0xfffff, 0x100001,
	0x1ff, 0xffffffffffffULL, 0xffffffffffffffULL,
};

static uint64_t arg(struct input *in)
{
	uint8_t sel = u8(in);

	if (sel < 0xc0)
		return interesting[sel % (sizeof(interesting) /
					  sizeof(interesting[0]))];
	if (sel < 0xe0)
		return u8(in);
	return u64(in);
}

static void fail(const char *what)
{
	fprintf(stderr, "invariant broken: %s\n", what);
	abort();
}

static void boot(struct sim_hart *h, struct input *in)
{
	uint8_t c0 = u8(in), c1 = u8(in), c2 = u8(in);
	static const uint32_t masks[] = { 0x7fffd, 0x5, 0xfffffffd, 0x3d };
	static const unsigned int widths[] = { 64, 48, 8, 40 };

	sim_hart_defaults(&S, h, 0);
	h->xlen = (c0 & 1) ? 32 : 64;
	h->sscofpmf = !!(c0 & 2);
	h->smcntrpmf = !!(c0 & 4);
	h->ctr_ext = (c0 >> 3) % 3;
	h->smstateen = !!(c0 & 0x20);
	h->plat.no_snapshot = !!(c0 & 0x40);
	h->plat.no_event_info = (c0 & 0xc0) == 0xc0;
	h->ctr_mask = masks[c1 & 3];
	h->hpm_width = widths[(c1 >> 2) & 3];
	h->plat.num_fw_ctrs = (c1 >> 4) * 2;	/* 0..30 */
	h->plat.force_minh = c2 & 1;
	h->fw_platform_max = (c2 >> 1) & 7;
	h->plat.fw_impl_first = 256;
	h->plat.fw_impl_last = 256 + ((c2 >> 4) & 0xf);
	h->mode = "SUMV"[(c2 >> 6) & 3];
	h->plat.qemu_quirks = (c2 >> 5) & 1;
	if (sim_hart_boot(h))
		fail("boot");
}

static void setup_maps(struct input *in)
{
	static const uint8_t sel[] = {
		0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0x11,
		0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x22,
	};
	static const uint8_t ctrs[] = {
		0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0x38,
		0, 1, 0, 0, 0, 1, 0, 7, 0, 0, 0x0f, 0xf8,
	};
	static const uint8_t raw[] = {
		0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xff, 0,
		0, 0, 0x01, 0x80,
	};
	uint8_t c = u8(in);

	memset(&S.maps, 0, sizeof(S.maps));
	S.have_maps = c & 1;
	if (!S.have_maps)
		return;
	if (rvp_sbi_pmu_dt_prop(&S.maps, "riscv,event-to-mhpmevent", sel,
				sizeof(sel)) ||
	    rvp_sbi_pmu_dt_prop(&S.maps, "riscv,event-to-mhpmcounters", ctrs,
				sizeof(ctrs)) ||
	    ((c & 2) && rvp_sbi_pmu_dt_prop(&S.maps,
					    "riscv,raw-event-to-mhpmcounters",
					    raw, sizeof(raw))))
		fail("maps");
}

static int allowed(uint64_t fid, long err)
{
	switch (fid) {
	case RVP_SBI_PMU_FID_NUM_COUNTERS:
		return err == RVP_SBI_SUCCESS;
	case RVP_SBI_PMU_FID_COUNTER_GET_INFO:
	case RVP_SBI_PMU_FID_COUNTER_FW_READ:
	case RVP_SBI_PMU_FID_COUNTER_FW_READ_HI:
		return err == RVP_SBI_SUCCESS ||
		       err == RVP_SBI_ERR_INVALID_PARAM;
	case RVP_SBI_PMU_FID_COUNTER_CONFIG_MATCHING:
		return err == RVP_SBI_SUCCESS ||
		       err == RVP_SBI_ERR_INVALID_PARAM ||
		       err == RVP_SBI_ERR_NOT_SUPPORTED;
	case RVP_SBI_PMU_FID_COUNTER_START:
		return err == RVP_SBI_SUCCESS ||
		       err == RVP_SBI_ERR_INVALID_PARAM ||
		       err == RVP_SBI_ERR_ALREADY_STARTED ||
		       err == RVP_SBI_ERR_NO_SHMEM;
	case RVP_SBI_PMU_FID_COUNTER_STOP:
		return err == RVP_SBI_SUCCESS ||
		       err == RVP_SBI_ERR_INVALID_PARAM ||
		       err == RVP_SBI_ERR_ALREADY_STOPPED ||
		       err == RVP_SBI_ERR_NO_SHMEM;
	case RVP_SBI_PMU_FID_SNAPSHOT_SET_SHMEM:
	case RVP_SBI_PMU_FID_EVENT_GET_INFO:
		return err == RVP_SBI_SUCCESS ||
		       err == RVP_SBI_ERR_NOT_SUPPORTED ||
		       err == RVP_SBI_ERR_INVALID_PARAM ||
		       err == RVP_SBI_ERR_INVALID_ADDRESS ||
		       err == RVP_SBI_ERR_FAILED;
	default:
		return err == RVP_SBI_ERR_NOT_SUPPORTED;
	}
}

/* The RAM bytes a successful call may have written. */
static int may_write(const struct sim_hart *h, uint64_t fid,
		     const uint64_t *a, uint64_t off)
{
	uint64_t addr = RAM_BASE + off, m = h->xlen == 32 ? 0xffffffffULL :
					     ~0ULL;

	if (fid == RVP_SBI_PMU_FID_COUNTER_STOP &&
	    (a[2] & RVP_SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT))
		return h->pmu.shmem_enabled && addr >= h->pmu.shmem_addr &&
		       addr - h->pmu.shmem_addr < RVP_SBI_PMU_SNAPSHOT_SIZE;
	if (fid == RVP_SBI_PMU_FID_EVENT_GET_INFO) {
		uint64_t base = h->xlen == 32 ? ((a[1] & m) << 32) | (a[0] & m)
					      : a[0];

		return addr >= base && (addr - base) / 16 < (a[2] & m) &&
		       (addr - base) % 16 >= 4 && (addr - base) % 16 < 8;
	}
	return 0;
}

static void check_state(const struct sim_hart *h)
{
	const struct rvp_sbi_pmu_hart *p = &h->pmu;
	uint64_t all = p->num_ctrs >= 64 ? ~0ULL : (1ULL << p->num_ctrs) - 1;
	unsigned int l;

	if (p->started & ~p->configured)
		fail("a started counter is not configured");
	if (p->configured & ~all)
		fail("a configured counter does not exist");
	for (l = 0; l < p->num_hw; l++) {
		unsigned int n = p->hw_ctr[l];
		int inhibited = !!(h->csr.inhibit & (1ULL << n));
		int started = !!(p->started & (1ULL << l));
		int configured = !!(p->configured & (1ULL << l));

		if (started && inhibited)
			fail("a started counter is inhibited");
		if (!started && inhibited == 0 && (n >= 3 || configured))
			fail("a stopped counter counts");
		if (n >= 3 && !configured && h->csr.evt[n])
			fail("an unmapped hpm counter has an event");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct sim_hart *h = &S.hart[0];
	struct sim_csrs csr_before;
	struct rvp_sbi_pmu_hart pmu_before;
	unsigned int steps = 0;
	uint8_t *fw, *ram, *mmio;
	uint64_t i;

	if (!ready) {
		sim_init(&S);
		if (sim_add_region(&S, SIM_FW, FW_BASE, FW_SIZE) ||
		    sim_add_region(&S, SIM_RAM, RAM_BASE, RAM_SIZE) ||
		    sim_add_region(&S, SIM_MMIO, MMIO_BASE, MMIO_SIZE))
			fail("regions");
		memset(fw_pattern, 0xA5, sizeof(fw_pattern));
		ready = 1;
	}
	fw = sim_mem(&S, FW_BASE, FW_SIZE, NULL);
	ram = sim_mem(&S, RAM_BASE, RAM_SIZE, NULL);
	mmio = sim_mem(&S, MMIO_BASE, MMIO_SIZE, NULL);
	memset(ram, 0, RAM_SIZE);
	setup_maps(&in);
	boot(h, &in);

	while (in.n && steps++ < 64) {
		uint8_t op = u8(&in);
		uint64_t a[6], fid;
		struct rvp_sbiret r;

		if (op < 0xb0) {
			fid = op % 10;
			for (i = 0; i < 6; i++)
				a[i] = arg(&in);
			csr_before = h->csr;
			pmu_before = h->pmu;
			memcpy(ram_before, ram, RAM_SIZE);
			h->illegal_csr = h->bad_access = 0;

			r = sim_ecall(h, RVP_SBI_EXT_PMU, fid, a);

			if (h->illegal_csr)
				fail("missing CSR accessed");
			if (h->bad_access)
				fail("memory outside S-mode RAM accessed");
			if (memcmp(fw, fw_pattern, FW_SIZE) ||
			    memcmp(mmio, fw_pattern, MMIO_SIZE))
				fail("firmware or MMIO memory changed");
			if (!allowed(fid, r.error))
				fail("error code not in the function's table");
			/* The one error that acts (rvp_sbi_pmu.c, counter_stop):
			 * RESET on a set with a stopped counter still stops
			 * and releases the set; no memory is written. */
			if (fid == RVP_SBI_PMU_FID_COUNTER_STOP &&
			    r.error == RVP_SBI_ERR_ALREADY_STOPPED &&
			    (a[2] & RVP_SBI_PMU_STOP_FLAG_RESET)) {
				if (memcmp(ram_before, ram, RAM_SIZE))
					fail("stop(RESET) of a stopped counter wrote memory");
				if (h->pmu.configured & ~pmu_before.configured)
					fail("stop(RESET) mapped a counter");
			} else if (r.error) {
				if (memcmp(&csr_before, &h->csr,
					   sizeof(csr_before)))
					fail("an error changed CSRs");
				if (memcmp(&pmu_before, &h->pmu,
					   sizeof(pmu_before)))
					fail("an error changed PMU state");
				if (memcmp(ram_before, ram, RAM_SIZE))
					fail("an error changed memory");
			} else {
				for (i = 0; i < RAM_SIZE; i++)
					if (ram[i] != ram_before[i] &&
					    !may_write(h, fid, a, i))
						fail("a write where none may be");
				if (fid == RVP_SBI_PMU_FID_NUM_COUNTERS &&
				    r.value != h->pmu.num_ctrs)
					fail("num_counters");
				if (fid == RVP_SBI_PMU_FID_COUNTER_CONFIG_MATCHING
				    && (r.value >= h->pmu.num_ctrs ||
					!(h->pmu.configured & (1ULL << r.value))))
					fail("config_matching value");
			}
			if (h->xlen == 32 && r.value > 0xffffffffULL)
				fail("RV32 value wider than XLEN");
			check_state(h);
		} else if (op < 0xc0) {
			sim_tick_fixed(h, (op & 1) ? 2 : 0, u8(&in));
		} else if (op < 0xd0) {
			sim_tick_hpm(h, arg(&in), u64(&in) & 0xffff);
		} else if (op < 0xe0) {
			rvp_sbi_pmu_fw_event(&h->pmu, (uint32_t)arg(&in), arg(&in),
					     u8(&in));
		} else {
			/* S-mode stores a word somewhere in its RAM. */
			uint64_t off = (u8(&in) | (uint64_t)u8(&in) << 8) %
				       (RAM_SIZE / 8);

			memcpy(ram + off * 8, (uint64_t[]){ arg(&in) }, 8);
		}
	}
	return 0;
}
