// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvperf: perf driver for the RISC-V SBI PMU extension.
 *
 * Counters are discovered and programmed through the SBI PMU extension
 * (SBI v0.3 and later).  Hardware counters are read directly through their
 * CSRs, firmware counters through the SBI.  With Sscofpmf, counter overflow
 * raises the local counter-overflow interrupt (LCOFI), which drives
 * sampling and privilege-mode filtering.
 *
 * From SBI v2.0 on, each hart gives the firmware a snapshot page: stopped
 * counters are then read from it, and the overflow handler stops and
 * restarts every counter of a word in one call each.  From SBI v3.0 on, the
 * events the platform has are found with one event_get_info call at probe.
 * Both fall back silently to the v0.3 calls when the firmware refuses them.
 *
 * Branch stacks come from the Control Transfer Records extension (Smctr /
 * Ssctr), read in the overflow interrupt (rvperf_ctr.c); without CTR every
 * branch-stack event is refused with -EOPNOTSUPP.
 */

#define pr_fmt(fmt) "rvperf-pmu: " fmt

#include <linux/bitmap.h>
#include <linux/cpuhotplug.h>
#include <linux/cpu_pm.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <asm/cpufeature.h>
#include <asm/csr.h>
#include <asm/irq.h>
#include <asm/sbi.h>

#include "rvperf_ctr.h"

/* SBI v3.0 raw event type 3 (event_data up to 56 bits); not in every kernel */
#ifndef SBI_PMU_EVENT_TYPE_RAW_V2
#define SBI_PMU_EVENT_TYPE_RAW_V2	0x3
#endif

/*
 * SBI v3.0 event_get_info (FID 8): an enumerator in newer kernels only, so
 * under a name of our own.  One 16-byte entry per event; bit 0 of output
 * says whether the platform has the event.
 */
#define RVPMU_SBI_PMU_EVENT_GET_INFO	8
#define RVPMU_EVENT_INFO_SUPPORTED	BIT(0)

struct rvpmu_event_info {
	u32 event_idx;
	u32 output;
	u64 event_data;
};

/* counter_stop/start snapshot index: counter base + i is ctr_values[i] */
#define RVPMU_SNAP_NONE		(-1UL)	/* lo = hi = all ones: disable */

/* perf_event_attr.config layout for PERF_TYPE_RAW (the "cpu" PMU's ABI) */
#define RVPMU_CFG_CLASS_SHIFT	62
#define RVPMU_CFG_CLASS_RAW	0x0	/* hardware raw event */
#define RVPMU_CFG_CLASS_FW	0x2	/* SBI firmware event */
#define RVPMU_CFG_CLASS_PLAT_FW	0x3	/* platform firmware event */
#define RVPMU_CFG_RAW_V1_MASK	GENMASK_ULL(47, 0)
#define RVPMU_CFG_RAW_V2_MASK	GENMASK_ULL(55, 0)
#define RVPMU_CFG_FW_CODE_MASK	GENMASK_ULL(15, 0)
#define RVPMU_CFG_PLAT_FW_MASK	GENMASK_ULL(61, 0)
#define RVPMU_PLAT_FW_CODE	0xffff

#define RVPMU_EVENT_IDX(type, code)	(((type) << 16) | (code))
#define RVPMU_EVENT_IDX_TYPE(idx)	(((idx) >> 16) & 0xf)

#define RVPMU_MAX_COUNTERS	64
#define RVPMU_CACHE_EVENTS	(PERF_COUNT_HW_CACHE_MAX *		\
				 PERF_COUNT_HW_CACHE_OP_MAX *		\
				 PERF_COUNT_HW_CACHE_RESULT_MAX)
/* events whose availability is found at probe: generic, then cache */
#define RVPMU_PROBE_EVENTS	(PERF_COUNT_HW_MAX + RVPMU_CACHE_EVENTS)
#define RVPMU_FW_WIDTH		63	/* firmware counters are 64-bit */

struct rvpmu_counter {
	u16 csr;		/* CSR number for hardware counters */
	u8 width;		/* counter width in bits, minus one */
	bool fw;		/* firmware counter: read through the SBI */
};

struct rvpmu_cpu {
	struct perf_event *events[RVPMU_MAX_COUNTERS];
	DECLARE_BITMAP(used, RVPMU_MAX_COUNTERS);
	/* counters stopped for a low-power state, restarted on exit */
	DECLARE_BITMAP(pm_stopped, RVPMU_MAX_COUNTERS);
	/* SBI v2.0 snapshot page of this hart, and whether the SBI took it */
	struct riscv_pmu_snapshot_data *snap;
	bool snap_on;
	/* overflow handler: values taken from, and given back to, the page */
	u64 snap_vals[RVPMU_MAX_COUNTERS];
};

struct rvpmu {
	struct pmu pmu;
	unsigned long sbi_version;
	unsigned int num_counters;
	struct rvpmu_counter counters[RVPMU_MAX_COUNTERS];
	DECLARE_BITMAP(hw_mask, RVPMU_MAX_COUNTERS);
	DECLARE_BITMAP(fw_mask, RVPMU_MAX_COUNTERS);
	/* PERF_COUNT_HW_* the firmware can map, found at probe */
	unsigned long hw_events_ok;
	/* PERF_TYPE_HW_CACHE events the firmware can map (rvpmu_cache_bit) */
	DECLARE_BITMAP(cache_events_ok, RVPMU_CACHE_EVENTS);
	bool event_info;	/* found with one event_get_info call */
	bool snapshot;		/* SBI >= v2.0: snapshot pages allocated */
	bool raw_v2;
	bool sscofpmf;
	int irq;
	struct rvpmu_cpu __percpu *cpus;
	struct hlist_node node;
	enum cpuhp_state cpuhp_state;
	struct notifier_block pm_nb;
};

static struct rvpmu *rvpmu;

static inline struct rvpmu *to_rvpmu(struct pmu *pmu)
{
	return container_of(pmu, struct rvpmu, pmu);
}

/* ------------------------------------------------------------- SBI calls */

static int rvpmu_sbi_cfg_match(unsigned long base, unsigned long mask,
			       unsigned long flags, unsigned long event_idx,
			       u64 event_data)
{
	struct sbiret ret;

#ifdef CONFIG_64BIT
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_CFG_MATCH, base, mask,
			flags, event_idx, event_data, 0);
#else
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_CFG_MATCH, base, mask,
			flags, event_idx, lower_32_bits(event_data),
			upper_32_bits(event_data));
#endif
	if (ret.error)
		return sbi_err_map_linux_errno(ret.error);
	return ret.value;
}

static int rvpmu_sbi_start(unsigned long base, unsigned long mask,
			   unsigned long flags, u64 value)
{
	struct sbiret ret;

#ifdef CONFIG_64BIT
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_START, base, mask,
			flags, value, 0, 0);
#else
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_START, base, mask,
			flags, lower_32_bits(value), upper_32_bits(value), 0);
#endif
	return ret.error ? sbi_err_map_linux_errno(ret.error) : 0;
}

static int rvpmu_sbi_stop(unsigned long base, unsigned long mask,
			  unsigned long flags)
{
	struct sbiret ret;

	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_STOP, base, mask,
			flags, 0, 0, 0);
	/* Stopping a stopped counter is not an error for our callers. */
	if (ret.error == SBI_ERR_ALREADY_STOPPED)
		return 0;
	return ret.error ? sbi_err_map_linux_errno(ret.error) : 0;
}

/*
 * Stops the counters of @mask from @base, saving their values (and the
 * overflow bitmap) in this hart's snapshot page.  Returns the SBI error:
 * unlike rvpmu_sbi_stop(), any counts (a counter already stopped is not
 * written to the page).
 */
static long rvpmu_sbi_stop_snap(unsigned long base, unsigned long mask)
{
	return sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_STOP, base, mask,
			 SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT, 0, 0, 0).error;
}

/* Starts the counters of @mask from @base from the page; the SBI error. */
static long rvpmu_sbi_start_snap(unsigned long base, unsigned long mask)
{
	return sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_START, base, mask,
			 SBI_PMU_START_FLAG_INIT_SNAPSHOT, 0, 0, 0).error;
}

/* The lower and upper XLEN bits of a physical address, as the SBI takes. */
static unsigned long rvpmu_pa_lo(phys_addr_t pa)
{
	return (unsigned long)pa;
}

static unsigned long rvpmu_pa_hi(phys_addr_t pa)
{
	return IS_ENABLED(CONFIG_64BIT) ? 0 : upper_32_bits((u64)pa);
}

/* Gives this hart's snapshot page to the SBI (or, with NULL, takes it back). */
static int rvpmu_sbi_set_shmem(void *page)
{
	unsigned long lo = RVPMU_SNAP_NONE, hi = RVPMU_SNAP_NONE;
	struct sbiret ret;

	if (page) {
		lo = rvpmu_pa_lo(__pa(page));
		hi = rvpmu_pa_hi(__pa(page));
	}
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_SNAPSHOT_SET_SHMEM, lo, hi, 0,
			0, 0, 0);
	return ret.error ? sbi_err_map_linux_errno(ret.error) : 0;
}

/*
 * A snapshot call failed after the SBI took the page: this hart goes back
 * to the v0.3 calls for good (rvperf/snapshot then reads 0).  Stopping a
 * counter that is already stopped (a throttled event in the overflow
 * handler) is no failure of the page.
 */
static void rvpmu_snap_failed(struct rvpmu_cpu *cpuc, long err)
{
	if (err == SBI_ERR_ALREADY_STOPPED)
		return;
	pr_warn_once("snapshot call failed (%ld): counters read by CSR\n",
		     err);
	cpuc->snap_on = false;
}

/* Stops (and with @flags, resets) every counter in @mask on this hart. */
static void rvpmu_sbi_stop_mask(const unsigned long *mask, unsigned int n,
				unsigned long flags)
{
	unsigned int base;

	for (base = 0; base < n; base += BITS_PER_LONG) {
		unsigned long word = mask[BIT_WORD(base)];

		if (word)
			rvpmu_sbi_stop(base, word, flags);
	}
}

/* Starts every counter in @mask on this hart from where it stands. */
static void rvpmu_sbi_start_mask(const unsigned long *mask, unsigned int n)
{
	unsigned int base;

	for (base = 0; base < n; base += BITS_PER_LONG) {
		unsigned long word = mask[BIT_WORD(base)];

		if (word)
			rvpmu_sbi_start(base, word, 0, 0);
	}
}

/* ------------------------------------------------------- counter reading */

/* CSR numbers are immediates: each counter CSR needs its own read. */
static unsigned long rvpmu_csr_read(unsigned int csr)
{
	switch (csr) {
	case CSR_CYCLE:
		return csr_read(CSR_CYCLE);
	case CSR_TIME:
		return csr_read(CSR_TIME);
	case CSR_INSTRET:
		return csr_read(CSR_INSTRET);
	case CSR_HPMCOUNTER3:
		return csr_read(CSR_HPMCOUNTER3);
	case CSR_HPMCOUNTER4:
		return csr_read(CSR_HPMCOUNTER4);
	case CSR_HPMCOUNTER5:
		return csr_read(CSR_HPMCOUNTER5);
	case CSR_HPMCOUNTER6:
		return csr_read(CSR_HPMCOUNTER6);
	case CSR_HPMCOUNTER7:
		return csr_read(CSR_HPMCOUNTER7);
	case CSR_HPMCOUNTER8:
		return csr_read(CSR_HPMCOUNTER8);
	case CSR_HPMCOUNTER9:
		return csr_read(CSR_HPMCOUNTER9);
	case CSR_HPMCOUNTER10:
		return csr_read(CSR_HPMCOUNTER10);
	case CSR_HPMCOUNTER11:
		return csr_read(CSR_HPMCOUNTER11);
	case CSR_HPMCOUNTER12:
		return csr_read(CSR_HPMCOUNTER12);
	case CSR_HPMCOUNTER13:
		return csr_read(CSR_HPMCOUNTER13);
	case CSR_HPMCOUNTER14:
		return csr_read(CSR_HPMCOUNTER14);
	case CSR_HPMCOUNTER15:
		return csr_read(CSR_HPMCOUNTER15);
	case CSR_HPMCOUNTER16:
		return csr_read(CSR_HPMCOUNTER16);
	case CSR_HPMCOUNTER17:
		return csr_read(CSR_HPMCOUNTER17);
	case CSR_HPMCOUNTER18:
		return csr_read(CSR_HPMCOUNTER18);
	case CSR_HPMCOUNTER19:
		return csr_read(CSR_HPMCOUNTER19);
	case CSR_HPMCOUNTER20:
		return csr_read(CSR_HPMCOUNTER20);
	case CSR_HPMCOUNTER21:
		return csr_read(CSR_HPMCOUNTER21);
	case CSR_HPMCOUNTER22:
		return csr_read(CSR_HPMCOUNTER22);
	case CSR_HPMCOUNTER23:
		return csr_read(CSR_HPMCOUNTER23);
	case CSR_HPMCOUNTER24:
		return csr_read(CSR_HPMCOUNTER24);
	case CSR_HPMCOUNTER25:
		return csr_read(CSR_HPMCOUNTER25);
	case CSR_HPMCOUNTER26:
		return csr_read(CSR_HPMCOUNTER26);
	case CSR_HPMCOUNTER27:
		return csr_read(CSR_HPMCOUNTER27);
	case CSR_HPMCOUNTER28:
		return csr_read(CSR_HPMCOUNTER28);
	case CSR_HPMCOUNTER29:
		return csr_read(CSR_HPMCOUNTER29);
	case CSR_HPMCOUNTER30:
		return csr_read(CSR_HPMCOUNTER30);
	case CSR_HPMCOUNTER31:
		return csr_read(CSR_HPMCOUNTER31);
#ifndef CONFIG_64BIT
	case CSR_CYCLEH:
		return csr_read(CSR_CYCLEH);
	case CSR_TIMEH:
		return csr_read(CSR_TIMEH);
	case CSR_INSTRETH:
		return csr_read(CSR_INSTRETH);
	case CSR_HPMCOUNTER3H:
		return csr_read(CSR_HPMCOUNTER3H);
	case CSR_HPMCOUNTER4H:
		return csr_read(CSR_HPMCOUNTER4H);
	case CSR_HPMCOUNTER5H:
		return csr_read(CSR_HPMCOUNTER5H);
	case CSR_HPMCOUNTER6H:
		return csr_read(CSR_HPMCOUNTER6H);
	case CSR_HPMCOUNTER7H:
		return csr_read(CSR_HPMCOUNTER7H);
	case CSR_HPMCOUNTER8H:
		return csr_read(CSR_HPMCOUNTER8H);
	case CSR_HPMCOUNTER9H:
		return csr_read(CSR_HPMCOUNTER9H);
	case CSR_HPMCOUNTER10H:
		return csr_read(CSR_HPMCOUNTER10H);
	case CSR_HPMCOUNTER11H:
		return csr_read(CSR_HPMCOUNTER11H);
	case CSR_HPMCOUNTER12H:
		return csr_read(CSR_HPMCOUNTER12H);
	case CSR_HPMCOUNTER13H:
		return csr_read(CSR_HPMCOUNTER13H);
	case CSR_HPMCOUNTER14H:
		return csr_read(CSR_HPMCOUNTER14H);
	case CSR_HPMCOUNTER15H:
		return csr_read(CSR_HPMCOUNTER15H);
	case CSR_HPMCOUNTER16H:
		return csr_read(CSR_HPMCOUNTER16H);
	case CSR_HPMCOUNTER17H:
		return csr_read(CSR_HPMCOUNTER17H);
	case CSR_HPMCOUNTER18H:
		return csr_read(CSR_HPMCOUNTER18H);
	case CSR_HPMCOUNTER19H:
		return csr_read(CSR_HPMCOUNTER19H);
	case CSR_HPMCOUNTER20H:
		return csr_read(CSR_HPMCOUNTER20H);
	case CSR_HPMCOUNTER21H:
		return csr_read(CSR_HPMCOUNTER21H);
	case CSR_HPMCOUNTER22H:
		return csr_read(CSR_HPMCOUNTER22H);
	case CSR_HPMCOUNTER23H:
		return csr_read(CSR_HPMCOUNTER23H);
	case CSR_HPMCOUNTER24H:
		return csr_read(CSR_HPMCOUNTER24H);
	case CSR_HPMCOUNTER25H:
		return csr_read(CSR_HPMCOUNTER25H);
	case CSR_HPMCOUNTER26H:
		return csr_read(CSR_HPMCOUNTER26H);
	case CSR_HPMCOUNTER27H:
		return csr_read(CSR_HPMCOUNTER27H);
	case CSR_HPMCOUNTER28H:
		return csr_read(CSR_HPMCOUNTER28H);
	case CSR_HPMCOUNTER29H:
		return csr_read(CSR_HPMCOUNTER29H);
	case CSR_HPMCOUNTER30H:
		return csr_read(CSR_HPMCOUNTER30H);
	case CSR_HPMCOUNTER31H:
		return csr_read(CSR_HPMCOUNTER31H);
#endif
	default:
		WARN_ONCE(1, "rvperf-pmu: bad counter CSR %#x\n", csr);
		return 0;
	}
}

static u64 rvpmu_hw_read(const struct rvpmu_counter *ctr)
{
#ifdef CONFIG_64BIT
	return rvpmu_csr_read(ctr->csr);
#else
	u32 hi, lo;

	do {
		hi = rvpmu_csr_read(ctr->csr + (CSR_CYCLEH - CSR_CYCLE));
		lo = rvpmu_csr_read(ctr->csr);
	} while (hi != rvpmu_csr_read(ctr->csr + (CSR_CYCLEH - CSR_CYCLE)));
	return ((u64)hi << 32) | lo;
#endif
}

static u64 rvpmu_fw_read(struct rvpmu *pmu, unsigned int idx)
{
	struct sbiret ret;
	u64 val;

	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_FW_READ, idx,
			0, 0, 0, 0, 0);
	if (ret.error)
		return 0;
	val = ret.value;
	/* RV32: the upper half exists from SBI v2.0 on. */
	if (!IS_ENABLED(CONFIG_64BIT) &&
	    pmu->sbi_version >= sbi_mk_version(2, 0)) {
		ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_FW_READ_HI,
				idx, 0, 0, 0, 0, 0);
		if (!ret.error)
			val |= (u64)ret.value << 32;
	}
	return val;
}

static u64 rvpmu_ctr_mask(struct rvpmu *pmu, int idx)
{
	return GENMASK_ULL(pmu->counters[idx].width, 0);
}

static u64 rvpmu_ctr_read(struct rvpmu *pmu, int idx)
{
	const struct rvpmu_counter *ctr = &pmu->counters[idx];

	return ctr->fw ? rvpmu_fw_read(pmu, idx) : rvpmu_hw_read(ctr);
}

/* ----------------------------------------------------------- event logic */

static bool rvpmu_event_is_fw(struct perf_event *event)
{
	return RVPMU_EVENT_IDX_TYPE(event->hw.event_base) == SBI_PMU_EVENT_TYPE_FW;
}

static void rvpmu_event_update(struct perf_event *event)
{
	struct rvpmu *pmu = to_rvpmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	do {
		prev = local64_read(&hwc->prev_count);
		now = rvpmu_ctr_read(pmu, hwc->idx);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = (now - prev) & rvpmu_ctr_mask(pmu, hwc->idx);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/* The same, for a stopped counter whose value is already known. */
static void rvpmu_event_update_to(struct perf_event *event, u64 now)
{
	struct rvpmu *pmu = to_rvpmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, delta;

	prev = local64_xchg(&hwc->prev_count, now);
	delta = (now - prev) & rvpmu_ctr_mask(pmu, hwc->idx);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
}

/*
 * Works out the value the counter starts from so that it overflows after
 * the rest of the sample period (or half its range for counting events, so
 * that a wrap is always seen); returns that value and records it as the
 * previous count.
 */
static u64 rvpmu_set_period(struct perf_event *event)
{
	struct rvpmu *pmu = to_rvpmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 mask = rvpmu_ctr_mask(pmu, hwc->idx);
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);
	u64 init;

	if (rvpmu_event_is_fw(event)) {
		init = 0;
		goto out;
	}
	if (!is_sampling_event(event)) {
		left = mask >> 1;
	} else if (unlikely(left <= -period)) {
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	} else if (unlikely(left <= 0)) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}
	if (left > (s64)(mask >> 1))
		left = mask >> 1;
	init = (u64)(-left) & mask;
out:
	local64_set(&hwc->prev_count, init);
	return init;
}

static void rvpmu_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 init;
	int ret;

	if (WARN_ON_ONCE(hwc->idx < 0))
		return;
	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));

	hwc->state = 0;
	init = rvpmu_set_period(event);
	ret = rvpmu_sbi_start(hwc->idx, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
			      init);
	if (ret)
		pr_warn_ratelimited("cannot start counter %d: %d\n",
				    hwc->idx, ret);
	perf_event_update_userpage(event);
}

static void rvpmu_stop(struct perf_event *event, int flags)
{
	struct rvpmu_cpu *cpuc = this_cpu_ptr(to_rvpmu(event->pmu)->cpus);
	struct hw_perf_event *hwc = &event->hw;
	bool snapped = false;
	u64 now = 0;
	long err;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		/* With a snapshot page the stop call brings the value along. */
		if (cpuc->snap_on) {
			err = rvpmu_sbi_stop_snap(hwc->idx, 1);
			if (!err) {
				now = READ_ONCE(cpuc->snap->ctr_values[0]);
				snapped = true;
			} else {
				rvpmu_snap_failed(cpuc, err);
			}
		}
		if (!snapped)
			rvpmu_sbi_stop(hwc->idx, 1, 0);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		if (snapped)
			rvpmu_event_update_to(event, now);
		else
			rvpmu_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static bool rvpmu_ctr_is_fixed(const struct rvpmu_counter *ctr)
{
	return !ctr->fw && ctr->csr <= CSR_INSTRET;
}

/*
 * Counters an event may be placed on: the right kind, free on this hart,
 * and, for sampling, able to raise an overflow interrupt.
 */
static void rvpmu_candidates(struct rvpmu *pmu, struct rvpmu_cpu *cpuc,
			     struct perf_event *event, unsigned long *mask)
{
	unsigned int i;

	bitmap_andnot(mask, rvpmu_event_is_fw(event) ? pmu->fw_mask :
		      pmu->hw_mask, cpuc->used, RVPMU_MAX_COUNTERS);
	if (is_sampling_event(event)) {
		for_each_set_bit(i, mask, RVPMU_MAX_COUNTERS)
			if (rvpmu_ctr_is_fixed(&pmu->counters[i]))
				__clear_bit(i, mask);
	}
}

static int rvpmu_add(struct perf_event *event, int flags)
{
	struct rvpmu *pmu = to_rvpmu(event->pmu);
	struct rvpmu_cpu *cpuc = this_cpu_ptr(pmu->cpus);
	struct hw_perf_event *hwc = &event->hw;
	DECLARE_BITMAP(mask, RVPMU_MAX_COUNTERS);
	unsigned int base;
	int idx = -ENOENT;

	rvpmu_candidates(pmu, cpuc, event, mask);
	/* The SBI takes one XLEN-wide mask at a time. */
	for (base = 0; base < pmu->num_counters; base += BITS_PER_LONG) {
		unsigned long word = mask[BIT_WORD(base)];

		if (!word)
			continue;
		idx = rvpmu_sbi_cfg_match(base, word, hwc->config_base,
					  hwc->event_base, hwc->config);
		if (idx >= 0 || idx != -EOPNOTSUPP)
			break;
	}
	if (idx < 0)
		return idx == -EOPNOTSUPP ? -EAGAIN : idx;
	if (idx < pmu->num_counters && !test_bit(idx, mask) &&
	    is_sampling_event(event) && !test_bit(idx, cpuc->used) &&
	    test_bit(idx, pmu->hw_mask) &&
	    rvpmu_ctr_is_fixed(&pmu->counters[idx])) {
		/*
		 * A fixed counter for a sampling event, which the mask left
		 * out: KVM places cycles and instructions on counters 0 and
		 * 2 whatever the mask, and overflows every counter it
		 * emulates.  Take it; refusing would leave the event
		 * unscheduled for good.
		 */
		pr_info_once("SBI placed a sampling event on fixed counter %d: taken\n",
			     idx);
	} else if (idx >= pmu->num_counters || !test_bit(idx, mask)) {
		pr_warn_ratelimited("firmware gave counter %d outside the mask\n",
				    idx);
		rvpmu_sbi_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
		return -EAGAIN;
	}

	if (has_branch_stack(event)) {
		int ret = rvctr_event_add(event);

		if (ret) {
			rvpmu_sbi_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
			return ret;
		}
	}
	__set_bit(idx, cpuc->used);
	cpuc->events[idx] = event;
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		rvpmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void rvpmu_del(struct perf_event *event, int flags)
{
	struct rvpmu *pmu = to_rvpmu(event->pmu);
	struct rvpmu_cpu *cpuc = this_cpu_ptr(pmu->cpus);
	struct hw_perf_event *hwc = &event->hw;

	rvpmu_stop(event, PERF_EF_UPDATE);
	/* Give the counter back to the firmware. */
	rvpmu_sbi_stop(hwc->idx, 1, SBI_PMU_STOP_FLAG_RESET);
	if (has_branch_stack(event))
		rvctr_event_del(event);
	cpuc->events[hwc->idx] = NULL;
	__clear_bit(hwc->idx, cpuc->used);
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

static void rvpmu_read(struct perf_event *event)
{
	rvpmu_event_update(event);
}

/* ------------------------------------------------------- event mapping */

/* PERF_COUNT_HW_* to SBI generic hardware events: the same order. */
static int rvpmu_map_hw(u64 config)
{
	if (config >= PERF_COUNT_HW_MAX)
		return -ENOENT;
	return RVPMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_HW,
			       (u32)config + SBI_PMU_HW_CPU_CYCLES);
}

/* perf and the SBI number cache ids, ops and results alike. */
static int rvpmu_map_cache(u64 config)
{
	unsigned int id = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;

	if (config >> 24 || id >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	return RVPMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_CACHE,
			       (id << SBI_PMU_EVENT_CACHE_ID_SHIFT) |
			       (op << SBI_PMU_EVENT_CACHE_OP_SHIFT) | result);
}

/* The bit of a valid PERF_TYPE_HW_CACHE config in cache_events_ok. */
static unsigned int rvpmu_cache_bit(u64 config)
{
	unsigned int id = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;

	return (id * PERF_COUNT_HW_CACHE_OP_MAX + op) *
	       PERF_COUNT_HW_CACHE_RESULT_MAX + result;
}

/* The PERF_TYPE_HW_CACHE config of bit @n of cache_events_ok. */
static u64 rvpmu_cache_config(unsigned int n)
{
	unsigned int result = n % PERF_COUNT_HW_CACHE_RESULT_MAX;
	unsigned int op = n / PERF_COUNT_HW_CACHE_RESULT_MAX %
			  PERF_COUNT_HW_CACHE_OP_MAX;
	unsigned int id = n / (PERF_COUNT_HW_CACHE_RESULT_MAX *
			       PERF_COUNT_HW_CACHE_OP_MAX);

	return id | op << 8 | result << 16;
}

/*
 * PERF_TYPE_RAW config bits 63:62 choose the class: 0 a hardware raw event
 * (bits 47:0, or 55:0 from SBI v3.0 on), 2 an SBI firmware event (bits
 * 15:0), 3 a platform firmware event (bits 61:0 as its data).
 */
static int rvpmu_map_raw(struct rvpmu *pmu, u64 config, u64 *data)
{
	u64 raw_mask = pmu->raw_v2 ? RVPMU_CFG_RAW_V2_MASK :
				     RVPMU_CFG_RAW_V1_MASK;

	switch (config >> RVPMU_CFG_CLASS_SHIFT) {
	case RVPMU_CFG_CLASS_RAW:
		if (config & ~raw_mask)
			return -EINVAL;
		*data = config;
		return RVPMU_EVENT_IDX(pmu->raw_v2 ? SBI_PMU_EVENT_TYPE_RAW_V2 :
				       SBI_PMU_EVENT_TYPE_RAW, 0);
	case RVPMU_CFG_CLASS_FW:
		if (config & RVPMU_CFG_PLAT_FW_MASK & ~RVPMU_CFG_FW_CODE_MASK)
			return -EINVAL;
		return RVPMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_FW,
				       (u32)(config & RVPMU_CFG_FW_CODE_MASK));
	case RVPMU_CFG_CLASS_PLAT_FW:
		*data = config & RVPMU_CFG_PLAT_FW_MASK;
		return RVPMU_EVENT_IDX(SBI_PMU_EVENT_TYPE_FW,
				       RVPMU_PLAT_FW_CODE);
	default:
		return -EINVAL;
	}
}

/* The SBI's privilege-mode inhibit flags for the event's exclude_* bits. */
static unsigned long rvpmu_cfg_flags(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	unsigned long flags = 0;

	if (attr->exclude_user)
		flags |= SBI_PMU_CFG_FLAG_SET_UINH;
	if (attr->exclude_kernel)
		flags |= SBI_PMU_CFG_FLAG_SET_SINH;
	/* M-mode firmware plays the part of the hypervisor for perf. */
	if (attr->exclude_hv)
		flags |= SBI_PMU_CFG_FLAG_SET_MINH;
	if (attr->exclude_guest)
		flags |= SBI_PMU_CFG_FLAG_SET_VUINH |
			 SBI_PMU_CFG_FLAG_SET_VSINH;
	if (attr->exclude_host)
		flags |= SBI_PMU_CFG_FLAG_SET_UINH | SBI_PMU_CFG_FLAG_SET_SINH;
	return flags;
}

/* A group must fit the counters of each kind at once. */
static bool rvpmu_group_fits(struct rvpmu *pmu, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned int hw = 0, fw = 0;

	if (leader->pmu == event->pmu && leader != event) {
		if (rvpmu_event_is_fw(leader))
			fw++;
		else
			hw++;
	}
	for_each_sibling_event(sibling, leader) {
		if (sibling->pmu != event->pmu || sibling == event)
			continue;
		if (rvpmu_event_is_fw(sibling))
			fw++;
		else
			hw++;
	}
	if (rvpmu_event_is_fw(event))
		fw++;
	else
		hw++;
	return hw <= bitmap_weight(pmu->hw_mask, RVPMU_MAX_COUNTERS) &&
	       fw <= bitmap_weight(pmu->fw_mask, RVPMU_MAX_COUNTERS);
}

static int rvpmu_event_init(struct perf_event *event)
{
	struct rvpmu *pmu = to_rvpmu(event->pmu);
	struct perf_event_attr *attr = &event->attr;
	struct hw_perf_event *hwc = &event->hw;
	u64 data = 0;
	int idx;

	switch (attr->type) {
	case PERF_TYPE_HARDWARE:
		idx = rvpmu_map_hw(attr->config);
		if (idx >= 0 && !(pmu->hw_events_ok & BIT(attr->config)))
			idx = -ENOENT;
		break;
	case PERF_TYPE_HW_CACHE:
		idx = rvpmu_map_cache(attr->config);
		if (idx >= 0 && !test_bit(rvpmu_cache_bit(attr->config),
					  pmu->cache_events_ok))
			idx = -ENOENT;
		break;
	default:
		if (attr->type != event->pmu->type)
			return -ENOENT;
		idx = rvpmu_map_raw(pmu, attr->config, &data);
		break;
	}
	if (idx < 0)
		return idx;

	/* Branch stacks need Control Transfer Records (and sampling). */
	if (has_branch_stack(event)) {
		int ret = rvctr_event_init(event);

		if (ret)
			return ret;
	}

	/* Only hardware counters can interrupt. */
	if (is_sampling_event(event) &&
	    RVPMU_EVENT_IDX_TYPE(idx) == SBI_PMU_EVENT_TYPE_FW)
		return -EOPNOTSUPP;

	if (event->cpu >= 0 && !cpu_online(event->cpu))
		return -ENODEV;

	hwc->event_base = idx;
	hwc->config = data;
	hwc->config_base = rvpmu_cfg_flags(event);
	hwc->idx = -1;
	if (!rvpmu_group_fits(pmu, event))
		return -EINVAL;

	if (is_sampling_event(event)) {
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	return 0;
}

/* ------------------------------------------------- overflow interrupt */

/* Whether the interrupted context is in a mode the event excludes. */
static bool rvpmu_excluded_mode(struct perf_event *event,
				struct pt_regs *regs)
{
	if (user_mode(regs))
		return event->attr.exclude_user;
	return event->attr.exclude_kernel;
}

/*
 * perf's throttle accounting for an interrupt that gives no sample, and
 * its measure of how long sampling takes (which lowers the sample rate
 * perf allows when a handler is slow: a branch stack of 256 entries makes
 * one so).  Neither is exported, so the out-of-tree module goes without;
 * built in, a period shorter than this handler and the interrupt exit
 * cannot keep a hart in them.  MODULE, not IS_BUILTIN(): an M= build
 * against a kernel that has the driver built in sees its =y.
 */
static bool rvpmu_account_dropped(struct perf_event *event)
{
#ifndef MODULE
	return perf_event_account_interrupt(event);
#else
	return false;
#endif
}

static void rvpmu_sample_took(u64 start_ns)
{
#ifndef MODULE
	perf_sample_event_took(local_clock() - start_ns);
#endif
}

/* One overflowed event: its next period, and its sample. */
static void rvpmu_overflowed(struct perf_event *event, struct pt_regs *regs)
{
	struct hw_perf_event *hwc = &event->hw;
	struct perf_sample_data data;

	rvpmu_set_period(event);
	if (!is_sampling_event(event))
		return;
	perf_sample_data_init(&data, 0, hwc->last_period);
	/*
	 * Hardware that ignores the mode filters (QEMU up to 10.2 counts
	 * every mode) can overflow in an excluded one: such a sample would
	 * show an address the event asked not to see, so it is dropped, but
	 * still counted for throttling.
	 */
	if (rvpmu_excluded_mode(event, regs)) {
		if (rvpmu_account_dropped(event))
			rvpmu_stop(event, 0);
		return;
	}
	if (has_branch_stack(event))
		rvctr_irq_sample(event, &data);
	if (perf_event_overflow(event, &data, regs))
		rvpmu_stop(event, 0);
}

/*
 * Stops the counters of @running.  With a snapshot page, one call per word
 * also brings their values (into cpuc->snap_vals, the counters in @snapped)
 * and the firmware's overflow bits (@ovf_ctrs); otherwise they are read
 * from their CSRs afterwards.
 */
static void rvpmu_ovf_stop(struct rvpmu *pmu, struct rvpmu_cpu *cpuc,
			   const unsigned long *running, unsigned long *snapped,
			   unsigned long *ovf_ctrs)
{
	unsigned int base, i;

	bitmap_zero(snapped, RVPMU_MAX_COUNTERS);
	bitmap_zero(ovf_ctrs, RVPMU_MAX_COUNTERS);
	for (base = 0; base < pmu->num_counters; base += BITS_PER_LONG) {
		unsigned long word = running[BIT_WORD(base)];
		long err = SBI_ERR_NOT_SUPPORTED;
		u64 ovf;

		if (!word)
			continue;
		if (cpuc->snap_on) {
			err = rvpmu_sbi_stop_snap(base, word);
			if (err)
				rvpmu_snap_failed(cpuc, err);
		}
		if (err) {
			rvpmu_sbi_stop(base, word, 0);
			continue;
		}
		ovf = READ_ONCE(cpuc->snap->ctr_overflow_mask);
		for_each_set_bit(i, &word, BITS_PER_LONG) {
			cpuc->snap_vals[base + i] =
				READ_ONCE(cpuc->snap->ctr_values[i]);
			if (ovf & BIT_ULL(i))
				__set_bit(base + i, ovf_ctrs);
		}
		snapped[BIT_WORD(base)] = word;
	}
}

/*
 * Starts, with one call per word from the snapshot page, the counters whose
 * values came from it and that still run for perf (not throttled
 * meanwhile), each from its prev_count: the next period's start, or where
 * it stopped.  The counters of a word the SBI refused are taken out of
 * @snapped, for the caller to start them the v0.3 way.
 */
static void rvpmu_ovf_start_snap(struct rvpmu *pmu, struct rvpmu_cpu *cpuc,
				 unsigned long *snapped)
{
	unsigned int base, i;

	for (base = 0; base < pmu->num_counters; base += BITS_PER_LONG) {
		unsigned long word = snapped[BIT_WORD(base)], start = 0;
		long err;

		for_each_set_bit(i, &word, BITS_PER_LONG) {
			struct perf_event *event = cpuc->events[base + i];

			if (!event || (event->hw.state & PERF_HES_STOPPED))
				continue;
			cpuc->snap->ctr_values[i] =
				local64_read(&event->hw.prev_count);
			start |= BIT(i);
		}
		if (!start)
			continue;
		err = rvpmu_sbi_start_snap(base, start);
		if (!err)
			continue;
		rvpmu_snap_failed(cpuc, err);
		snapped[BIT_WORD(base)] &= ~start;
	}
}

static irqreturn_t rvpmu_overflow_irq(int irq, void *dev)
{
	struct rvpmu_cpu *cpuc = this_cpu_ptr(rvpmu->cpus);
	struct rvpmu *pmu = rvpmu;
	DECLARE_BITMAP(running, RVPMU_MAX_COUNTERS);
	DECLARE_BITMAP(resume, RVPMU_MAX_COUNTERS);
	DECLARE_BITMAP(snapped, RVPMU_MAX_COUNTERS);
	DECLARE_BITMAP(ovf_ctrs, RVPMU_MAX_COUNTERS);
	struct perf_event *event;
	struct pt_regs *regs;
	bool brs, handled = false;
	unsigned long ovf;
	unsigned int idx;
	u64 start_ns;

	start_ns = local_clock();
	/*
	 * Stop every running hardware counter until the end: a group is
	 * sampled as one, and no period includes this handler (a period
	 * shorter than the handler would otherwise keep the hart in it).  A
	 * stopped one would fail the whole call, so only running ones.
	 */
	bitmap_and(running, cpuc->used, pmu->hw_mask, RVPMU_MAX_COUNTERS);
	for_each_set_bit(idx, running, RVPMU_MAX_COUNTERS)
		if (!cpuc->events[idx] ||
		    (cpuc->events[idx]->hw.state & PERF_HES_STOPPED))
			__clear_bit(idx, running);
	rvpmu_ovf_stop(pmu, cpuc, running, snapped, ovf_ctrs);
	/*
	 * Which counters overflowed, once none runs: scountovf, and the
	 * snapshot's bitmap (ovf_ctrs), the only one a KVM guest has (its
	 * scountovf reads 0).  LCOFIP is cleared only now, so no overflow
	 * can fall between the clear and the stop.
	 */
	ovf = csr_read(CSR_SCOUNTOVF);
	csr_clear(CSR_SIP, SIP_LCOFIP);
	bitmap_zero(resume, RVPMU_MAX_COUNTERS);
	/*
	 * CTR froze on the interrupt (LCOFIFRZ): read once, unfreeze once, at
	 * the very end, so the handler's tail is not recorded.
	 */
	brs = rvctr_irq_begin();

	regs = get_irq_regs();
	for_each_set_bit(idx, running, RVPMU_MAX_COUNTERS) {
		unsigned int bit = pmu->counters[idx].csr - CSR_CYCLE;

		event = cpuc->events[idx];
		if (!event || (event->hw.state & PERF_HES_STOPPED))
			continue;
		if (test_bit(idx, snapped))
			rvpmu_event_update_to(event, cpuc->snap_vals[idx]);
		else
			rvpmu_event_update(event);
		if ((bit < BITS_PER_LONG && (ovf & BIT(bit))) ||
		    test_bit(idx, ovf_ctrs)) {
			rvpmu_overflowed(event, regs);
			handled = true;
		} else {
			__set_bit(idx, resume);	/* from where it is */
		}
	}

	/* From the snapshot page where it holds the values, else one by one. */
	rvpmu_ovf_start_snap(pmu, cpuc, snapped);
	for_each_set_bit(idx, running, RVPMU_MAX_COUNTERS) {
		event = cpuc->events[idx];
		if (!event || (event->hw.state & PERF_HES_STOPPED) ||
		    test_bit(idx, resume) || test_bit(idx, snapped))
			continue;
		rvpmu_sbi_start(idx, 1, SBI_PMU_START_FLAG_SET_INIT_VALUE,
				local64_read(&event->hw.prev_count));
	}
	bitmap_andnot(resume, resume, snapped, RVPMU_MAX_COUNTERS);
	rvpmu_sbi_start_mask(resume, pmu->num_counters);
	if (!handled) {
		/* LCOFIFRZ may have frozen CTR all the same. */
		if (brs)
			rvctr_irq_none();
		return IRQ_NONE;
	}
	rvpmu_sample_took(start_ns);
	if (brs)
		rvctr_irq_end();
	return IRQ_HANDLED;
}

static int rvpmu_setup_irq(struct rvpmu *pmu)
{
	struct irq_domain *domain;
	int ret;

	if (!riscv_isa_extension_available(NULL, SSCOFPMF))
		return -EOPNOTSUPP;

	domain = irq_find_matching_fwnode(riscv_get_intc_hwnode(),
					  DOMAIN_BUS_ANY);
	if (!domain)
		return -ENODEV;
	pmu->irq = irq_create_mapping(domain, RV_IRQ_PMU);
	if (!pmu->irq)
		return -ENODEV;
	ret = request_percpu_irq(pmu->irq, rvpmu_overflow_irq, "rvperf-pmu",
				 pmu->cpus);
	if (ret) {
		irq_dispose_mapping(pmu->irq);
		pmu->irq = 0;
	}
	return ret;
}

/* ------------------------------------------------------ hotplug and PM */

static int rvpmu_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct rvpmu *pmu = hlist_entry_safe(node, struct rvpmu, node);
	DECLARE_BITMAP(all, RVPMU_MAX_COUNTERS);

	/* Whatever firmware or a previous kernel left running goes. */
	bitmap_or(all, pmu->hw_mask, pmu->fw_mask, RVPMU_MAX_COUNTERS);
	rvpmu_sbi_stop_mask(all, pmu->num_counters, SBI_PMU_STOP_FLAG_RESET);
	/* This hart's snapshot page; if the SBI refuses it, none is used. */
	if (pmu->snapshot) {
		struct rvpmu_cpu *cpuc = per_cpu_ptr(pmu->cpus, cpu);

		cpuc->snap_on = !rvpmu_sbi_set_shmem(cpuc->snap);
	}
	if (pmu->irq) {
		csr_clear(CSR_SIP, SIP_LCOFIP);
		enable_percpu_irq(pmu->irq, IRQ_TYPE_NONE);
	}
	rvctr_cpu_online();
	return 0;
}

static int rvpmu_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct rvpmu *pmu = hlist_entry_safe(node, struct rvpmu, node);
	struct rvpmu_cpu *cpuc = per_cpu_ptr(pmu->cpus, cpu);

	rvctr_cpu_offline();
	if (pmu->irq)
		disable_percpu_irq(pmu->irq);
	/* The page stays allocated for the hart's return. */
	if (cpuc->snap_on) {
		rvpmu_sbi_set_shmem(NULL);
		cpuc->snap_on = false;
	}
	return 0;
}

#ifdef CONFIG_CPU_PM
/*
 * Counters do not survive deep idle states: stop (and read) the running
 * ones on entry, put them back on the same counters on exit, after CTR.
 */
static int rvpmu_pm_notify(struct notifier_block *nb, unsigned long cmd,
			   void *v)
{
	struct rvpmu *pmu = container_of(nb, struct rvpmu, pm_nb);
	struct rvpmu_cpu *cpuc = this_cpu_ptr(pmu->cpus);
	struct perf_event *event;
	unsigned int idx;

	switch (cmd) {
	case CPU_PM_ENTER:
		for_each_set_bit(idx, cpuc->used, RVPMU_MAX_COUNTERS) {
			event = cpuc->events[idx];
			if (!event || (event->hw.state & PERF_HES_STOPPED))
				continue;
			rvpmu_stop(event, PERF_EF_UPDATE);
			__set_bit(idx, cpuc->pm_stopped);
		}
		break;
	case CPU_PM_EXIT:
		/* CTR's CSRs need not have survived either. */
		rvctr_cpu_pm_exit();
		fallthrough;
	case CPU_PM_ENTER_FAILED:
		for_each_set_bit(idx, cpuc->pm_stopped, RVPMU_MAX_COUNTERS) {
			event = cpuc->events[idx];
			__clear_bit(idx, cpuc->pm_stopped);
			if (!event)
				continue;
			/* The same counter for the same event: no new match. */
			rvpmu_sbi_cfg_match(idx, 1, event->hw.config_base |
					    SBI_PMU_CFG_FLAG_SKIP_MATCH,
					    event->hw.event_base,
					    event->hw.config);
			rvpmu_start(event, PERF_EF_RELOAD);
		}
		break;
	default:
		break;
	}
	return NOTIFY_OK;
}

static int rvpmu_pm_register(struct rvpmu *pmu)
{
	pmu->pm_nb.notifier_call = rvpmu_pm_notify;
	return cpu_pm_register_notifier(&pmu->pm_nb);
}

static void rvpmu_pm_unregister(struct rvpmu *pmu)
{
	cpu_pm_unregister_notifier(&pmu->pm_nb);
}
#else
static inline int rvpmu_pm_register(struct rvpmu *pmu) { return 0; }
static inline void rvpmu_pm_unregister(struct rvpmu *pmu) { }
#endif

/* ------------------------------------------------------------- sysfs */

/* "event" is bits 0-47, or 0-55 with SBI v3.0: one file, two contents. */
static ssize_t event_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "config:0-%d\n", rvpmu->raw_v2 ? 55 : 47);
}
static DEVICE_ATTR_RO(event);

PMU_FORMAT_ATTR(firmware, "config:62-63");

static struct attribute *rvpmu_format_attrs[] = {
	&dev_attr_event.attr,
	&format_attr_firmware.attr,
	NULL,
};

static const struct attribute_group rvpmu_format_group = {
	.name = "format",
	.attrs = rvpmu_format_attrs,
};

static ssize_t sbi_version_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu.%lu\n",
			  sbi_major_version(), sbi_minor_version());
}
static DEVICE_ATTR_RO(sbi_version);

static ssize_t counters_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u hw %u fw\n",
			  bitmap_weight(rvpmu->hw_mask, RVPMU_MAX_COUNTERS),
			  bitmap_weight(rvpmu->fw_mask, RVPMU_MAX_COUNTERS));
}
static DEVICE_ATTR_RO(counters);

static ssize_t sampling_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", rvpmu->irq > 0);
}
static DEVICE_ATTR_RO(sampling);

/* 1 when every online hart reads stopped counters from its snapshot page. */
static ssize_t snapshot_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	unsigned int cpu, on = 0;

	for_each_online_cpu(cpu)
		on += per_cpu_ptr(rvpmu->cpus, cpu)->snap_on;
	return sysfs_emit(buf, "%d\n", on && on == num_online_cpus());
}
static DEVICE_ATTR_RO(snapshot);

/* 1 when the available events were found with event_get_info. */
static ssize_t event_info_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", rvpmu->event_info);
}
static DEVICE_ATTR_RO(event_info);

static ssize_t branch_stack_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", rvctr_depth() > 0);
}
static DEVICE_ATTR_RO(branch_stack);

/* Entries each hart's CTR keeps (0: no branch stacks). */
static ssize_t ctr_depth_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", rvctr_cpu_depth());
}
static DEVICE_ATTR_RO(ctr_depth);

static struct attribute *rvpmu_rvperf_attrs[] = {
	&dev_attr_sbi_version.attr,
	&dev_attr_counters.attr,
	&dev_attr_sampling.attr,
	&dev_attr_snapshot.attr,
	&dev_attr_event_info.attr,
	&dev_attr_branch_stack.attr,
	&dev_attr_ctr_depth.attr,
	NULL,
};

/* Our own directory: tells users (and tests) which driver serves "cpu". */
static const struct attribute_group rvpmu_rvperf_group = {
	.name = "rvperf",
	.attrs = rvpmu_rvperf_attrs,
};

static const struct attribute_group *rvpmu_attr_groups[] = {
	&rvpmu_format_group,
	&rvpmu_rvperf_group,
	NULL,
};

/* ------------------------------------------------------------- probe */

static int rvpmu_discover(struct rvpmu *pmu)
{
	struct sbiret ret;
	unsigned int i;

	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, 0);
	if (ret.error)
		return sbi_err_map_linux_errno(ret.error);
	pmu->num_counters = min_t(unsigned long, ret.value, RVPMU_MAX_COUNTERS);
	if (ret.value > RVPMU_MAX_COUNTERS)
		pr_info("using %d of %lu counters\n", RVPMU_MAX_COUNTERS,
			ret.value);

	for (i = 0; i < pmu->num_counters; i++) {
		union sbi_pmu_ctr_info info;

		ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_GET_INFO, i,
				0, 0, 0, 0, 0);
		if (ret.error)
			continue;	/* a hole in the counter space */
		info.value = ret.value;
		pmu->counters[i].fw = info.type == SBI_PMU_CTR_TYPE_FW;
		if (pmu->counters[i].fw) {
			pmu->counters[i].width = RVPMU_FW_WIDTH;
			__set_bit(i, pmu->fw_mask);
			continue;
		}
		/* Only user-readable counter CSRs can be read from S-mode. */
		if (info.csr < CSR_CYCLE || info.csr > CSR_HPMCOUNTER31 ||
		    info.csr == CSR_TIME) {
			pr_warn("counter %u: unusable CSR %#x\n", i, info.csr);
			continue;
		}
		pmu->counters[i].csr = info.csr;
		pmu->counters[i].width = info.width;
		__set_bit(i, pmu->hw_mask);
	}
	if (bitmap_empty(pmu->hw_mask, RVPMU_MAX_COUNTERS) &&
	    bitmap_empty(pmu->fw_mask, RVPMU_MAX_COUNTERS))
		return -ENODEV;
	return 0;
}

/* Event @i of the probe list: generic events, then cache events. */
static int rvpmu_probe_event_idx(unsigned int i)
{
	if (i < PERF_COUNT_HW_MAX)
		return rvpmu_map_hw(i);
	return rvpmu_map_cache(rvpmu_cache_config(i - PERF_COUNT_HW_MAX));
}

static void rvpmu_probe_event_ok(struct rvpmu *pmu, unsigned int i)
{
	if (i < PERF_COUNT_HW_MAX)
		pmu->hw_events_ok |= BIT(i);
	else
		__set_bit(i - PERF_COUNT_HW_MAX, pmu->cache_events_ok);
}

/*
 * SBI v3.0: the platform's answer for every event of the probe list in one
 * event_get_info call over an array in a page.  False when the call fails.
 */
static bool rvpmu_probe_event_info(struct rvpmu *pmu)
{
	struct rvpmu_event_info *info;
	struct sbiret ret;
	phys_addr_t pa;
	unsigned int i;

	BUILD_BUG_ON(RVPMU_PROBE_EVENTS * sizeof(*info) > PAGE_SIZE);
	if (pmu->sbi_version < sbi_mk_version(3, 0))
		return false;
	info = (struct rvpmu_event_info *)get_zeroed_page(GFP_KERNEL);
	if (!info)
		return false;
	for (i = 0; i < RVPMU_PROBE_EVENTS; i++)
		info[i].event_idx = rvpmu_probe_event_idx(i);
	pa = __pa(info);
	ret = sbi_ecall(SBI_EXT_PMU, RVPMU_SBI_PMU_EVENT_GET_INFO,
			rvpmu_pa_lo(pa), rvpmu_pa_hi(pa), RVPMU_PROBE_EVENTS,
			0, 0, 0);
	if (!ret.error) {
		for (i = 0; i < RVPMU_PROBE_EVENTS; i++)
			if (READ_ONCE(info[i].output) &
			    RVPMU_EVENT_INFO_SUPPORTED)
				rvpmu_probe_event_ok(pmu, i);
	}
	free_page((unsigned long)info);
	return !ret.error;
}

/*
 * Which generic and cache events the firmware can place on a counter: with
 * event_get_info if it can, else one match-and-release per event.
 */
static void rvpmu_probe_hw_events(struct rvpmu *pmu)
{
	unsigned int i, base;

	pmu->event_info = rvpmu_probe_event_info(pmu);
	if (pmu->event_info)
		return;
	for (i = 0; i < RVPMU_PROBE_EVENTS; i++) {
		for (base = 0; base < pmu->num_counters; base += BITS_PER_LONG) {
			unsigned long word = pmu->hw_mask[BIT_WORD(base)];
			int idx;

			if (!word)
				continue;
			idx = rvpmu_sbi_cfg_match(base, word, 0,
						  rvpmu_probe_event_idx(i), 0);
			if (idx < 0)
				continue;
			rvpmu_sbi_stop(idx, 1, SBI_PMU_STOP_FLAG_RESET);
			rvpmu_probe_event_ok(pmu, i);
			break;
		}
	}
}

static void rvpmu_snapshot_free(struct rvpmu *pmu)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rvpmu_cpu *cpuc = per_cpu_ptr(pmu->cpus, cpu);

		free_page((unsigned long)cpuc->snap);
		cpuc->snap = NULL;
	}
	pmu->snapshot = false;
}

/*
 * SBI v2.0: a snapshot page for every possible hart, given to the SBI as
 * the hart comes online (rvpmu_cpu_online()).
 */
static void rvpmu_snapshot_alloc(struct rvpmu *pmu)
{
	int cpu;

	if (pmu->sbi_version < sbi_mk_version(2, 0))
		return;
	for_each_possible_cpu(cpu) {
		void *page = (void *)get_zeroed_page(GFP_KERNEL);

		if (!page) {
			rvpmu_snapshot_free(pmu);
			return;
		}
		per_cpu_ptr(pmu->cpus, cpu)->snap = page;
	}
	pmu->snapshot = true;
}

static int __init rvpmu_init(void)
{
	struct rvpmu *pmu;
	int ret;

	if (sbi_spec_is_0_1() || sbi_probe_extension(SBI_EXT_PMU) <= 0) {
		pr_info("no SBI PMU extension\n");
		return -ENODEV;
	}

	pmu = kzalloc(sizeof(*pmu), GFP_KERNEL);
	if (!pmu)
		return -ENOMEM;
	pmu->sbi_version = sbi_spec_version;
	pmu->raw_v2 = pmu->sbi_version >= sbi_mk_version(3, 0);
	pmu->cpus = alloc_percpu(struct rvpmu_cpu);
	if (!pmu->cpus) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = rvpmu_discover(pmu);
	if (ret)
		goto err_percpu;
	rvpmu_probe_hw_events(pmu);
	rvpmu_snapshot_alloc(pmu);
	rvpmu = pmu;

	ret = rvpmu_setup_irq(pmu);
	if (ret) {
		pr_info("no overflow interrupt (%d): counting only\n", ret);
		pmu->irq = 0;
	}
	pmu->sscofpmf = pmu->irq > 0;

	pmu->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_hw_context,
		.attr_groups	= rvpmu_attr_groups,
		.event_init	= rvpmu_event_init,
		.add		= rvpmu_add,
		.del		= rvpmu_del,
		.start		= rvpmu_start,
		.stop		= rvpmu_stop,
		.read		= rvpmu_read,
	};
	/* Without Sscofpmf there is neither sampling nor mode filtering. */
	if (!pmu->sscofpmf)
		pmu->pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT |
					 PERF_PMU_CAP_NO_EXCLUDE;
	/* Branch stacks are sampled: CTR is of no use without the interrupt. */
	if (pmu->sscofpmf) {
		ret = rvctr_probe(&pmu->pmu);
		if (ret && ret != -ENODEV)
			pr_info("no branch stacks (%d)\n", ret);
	}

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/rvperf:online",
				      rvpmu_cpu_online, rvpmu_cpu_offline);
	if (ret < 0)
		goto err_irq;
	pmu->cpuhp_state = ret;
	ret = cpuhp_state_add_instance(pmu->cpuhp_state, &pmu->node);
	if (ret)
		goto err_cpuhp;
	ret = rvpmu_pm_register(pmu);
	if (ret)
		goto err_instance;
	ret = perf_pmu_register(&pmu->pmu, "cpu", PERF_TYPE_RAW);
	if (ret)
		goto err_pm;

	pr_info("SBI v%lu.%lu PMU: %u hardware, %u firmware counters%s%s%s\n",
		sbi_major_version(), sbi_minor_version(),
		bitmap_weight(pmu->hw_mask, RVPMU_MAX_COUNTERS),
		bitmap_weight(pmu->fw_mask, RVPMU_MAX_COUNTERS),
		pmu->sscofpmf ? ", sampling" : "",
		raw_cpu_ptr(pmu->cpus)->snap_on ? ", snapshot" : "",
		pmu->event_info ? ", event_get_info" : "");
	return 0;

err_pm:
	rvpmu_pm_unregister(pmu);
err_instance:
	cpuhp_state_remove_instance(pmu->cpuhp_state, &pmu->node);
err_cpuhp:
	cpuhp_remove_multi_state(pmu->cpuhp_state);
err_irq:
	rvctr_remove(&pmu->pmu);
	if (pmu->irq) {
		free_percpu_irq(pmu->irq, pmu->cpus);
		irq_dispose_mapping(pmu->irq);
	}
	rvpmu = NULL;
	rvpmu_snapshot_free(pmu);
err_percpu:
	free_percpu(pmu->cpus);
err_free:
	kfree(pmu);
	return ret;
}

static void __exit rvpmu_exit(void)
{
	struct rvpmu *pmu = rvpmu;

	perf_pmu_unregister(&pmu->pmu);
	rvpmu_pm_unregister(pmu);
	cpuhp_state_remove_instance(pmu->cpuhp_state, &pmu->node);
	cpuhp_remove_multi_state(pmu->cpuhp_state);
	rvctr_remove(&pmu->pmu);
	if (pmu->irq) {
		free_percpu_irq(pmu->irq, pmu->cpus);
		irq_dispose_mapping(pmu->irq);
	}
	rvpmu_snapshot_free(pmu);
	free_percpu(pmu->cpus);
	rvpmu = NULL;
	kfree(pmu);
}

module_init(rvpmu_init);
module_exit(rvpmu_exit);

MODULE_DESCRIPTION("RISC-V SBI PMU perf driver (rvperf)");
MODULE_LICENSE("GPL");
