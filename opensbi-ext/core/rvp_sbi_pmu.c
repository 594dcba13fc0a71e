// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvp_sbi_pmu.c - the SBI PMU extension (SBI v3.0, chapter "Performance
 * Monitoring Unit Extension"), freestanding.
 *
 * Every function validates all of its arguments before it changes
 * anything: on any error the hart's counters, CSRs and S-mode memory are
 * exactly as they were.  The one exception is the spec's: counter_stop
 * with RESET on a set holding a stopped counter stops the started ones,
 * releases them all and still answers SBI_ERR_ALREADY_STOPPED (see there).
 * Values S-mode passes are never used in arithmetic that can wrap without
 * a check first.  S-mode memory is mapped once per call (smode_map) and
 * read and written in place, through volatile accesses: S-mode may change
 * it meanwhile, and each word is read once.
 */
#include "rvp_sbi_pmu.h"
#include "rvp_sbi_pmu_csr.h"

#define BIT64(n)		(1ULL << (n))
#define EVENT_IDX(type, code)	(((uint32_t)(type) << \
				  RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT) | (code))
#define HPM_CTRS		0xFFFFFFF8U	/* mhpmcounter3..31 */

static uint64_t xmask(const struct rvp_sbi_pmu_hart *h)
{
	return h->xmask;
}

static unsigned int xlen(const struct rvp_sbi_pmu_hart *h)
{
	return h->hw.xlen;
}

static struct rvp_sbiret ret_err(long err)
{
	struct rvp_sbiret r = { .error = err, .value = 0 };

	return r;
}

static struct rvp_sbiret ret_val(uint64_t val)
{
	struct rvp_sbiret r = { .error = RVP_SBI_SUCCESS, .value = val };

	return r;
}

/* Bit scans without libgcc (__ctzdi2 and __clzdi2 are not there in every
 * firmware build); v is non-zero.  The lowest set bit, isolated, times a
 * de Bruijn sequence puts a unique 6-bit pattern in the top bits: a few
 * instructions and no branch, on the start/stop paths of every counter. */
static unsigned int lowest_bit(uint64_t v)
{
	static const uint8_t index[64] = {
		0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28,
		62, 5, 39, 46, 44, 42, 22, 9, 24, 35, 59, 56, 49, 18, 29, 11,
		63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
		51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12,
	};

	return index[((v & -v) * 0x022FDD63CC95386DULL) >> 58];
}

static unsigned int highest_bit(uint64_t v)
{
	unsigned int n = 0;

	if (v >> 32) { n += 32; v >>= 32; }
	if (v >> 16) { n += 16; v >>= 16; }
	if (v >> 8) { n += 8; v >>= 8; }
	if (v >> 4) { n += 4; v >>= 4; }
	if (v >> 2) { n += 2; v >>= 2; }
	if (v >> 1)
		n += 1;
	return n;
}

static void zero(void *p, uint64_t len)
{
	volatile uint8_t *b = p;	/* volatile: no libc memset call */

	while (len--)
		*b++ = 0;
}

/* ------------------------------------------------------------ CSR plumbing */

static uint64_t rd(const struct rvp_sbi_pmu_hart *h, unsigned int csr)
{
	return h->ops->csr_read(h->ctx, csr) & xmask(h);
}

static void wr(const struct rvp_sbi_pmu_hart *h, unsigned int csr, uint64_t v)
{
	h->ops->csr_write(h->ctx, csr, v & xmask(h));
}

/* Counter N's 64-bit value; on RV32 from mhpmcounterN and mhpmcounterNh,
 * reading the high half twice so a carry between the halves is seen. */
static uint64_t hw_ctr_read(const struct rvp_sbi_pmu_hart *h, unsigned int n)
{
	uint64_t hi, lo;
	int tries;

	if (xlen(h) == 64)
		return rd(h, RVP_SBI_PMU_CSR_MCOUNTER(n));
	for (tries = 0; tries < 3; tries++) {
		hi = rd(h, RVP_SBI_PMU_CSR_MCOUNTERH(n));
		lo = rd(h, RVP_SBI_PMU_CSR_MCOUNTER(n));
		if (rd(h, RVP_SBI_PMU_CSR_MCOUNTERH(n)) == hi)
			break;
	}
	return (hi << 32) | lo;
}

static void hw_ctr_write(const struct rvp_sbi_pmu_hart *h, unsigned int n,
			 uint64_t v)
{
	if (xlen(h) == 64) {
		wr(h, RVP_SBI_PMU_CSR_MCOUNTER(n), v);
		return;
	}
	wr(h, RVP_SBI_PMU_CSR_MCOUNTER(n), 0);
	wr(h, RVP_SBI_PMU_CSR_MCOUNTERH(n), v >> 32);
	wr(h, RVP_SBI_PMU_CSR_MCOUNTER(n), v);
}

/* mhpmeventN as 64 bits; RV32 has the upper half (OF, xINH) in
 * mhpmeventNh only with Sscofpmf. */
static uint64_t hw_evt_read(const struct rvp_sbi_pmu_hart *h, unsigned int n)
{
	uint64_t v = rd(h, RVP_SBI_PMU_CSR_MHPMEVENT(n));

	if (xlen(h) == 32 && h->hw.sscofpmf)
		v |= rd(h, RVP_SBI_PMU_CSR_MHPMEVENTH(n)) << 32;
	return v;
}

static void hw_evt_write(const struct rvp_sbi_pmu_hart *h, unsigned int n,
			 uint64_t v)
{
	wr(h, RVP_SBI_PMU_CSR_MHPMEVENT(n), v);
	if (xlen(h) == 32 && h->hw.sscofpmf)
		wr(h, RVP_SBI_PMU_CSR_MHPMEVENTH(n), v >> 32);
}

/* mcyclecfg (n = 0) or minstretcfg (n = 2) of Smcntrpmf. */
static void hw_cfg_write(const struct rvp_sbi_pmu_hart *h, unsigned int n,
			 uint64_t v)
{
	unsigned int lo = n ? RVP_CSR_MINSTRETCFG : RVP_CSR_MCYCLECFG;
	unsigned int hi = n ? RVP_CSR_MINSTRETCFGH : RVP_CSR_MCYCLECFGH;

	wr(h, lo, v);
	if (xlen(h) == 32)
		wr(h, hi, v >> 32);
}

/* Sets (inhibit) or clears the mcountinhibit bits of hardware counters. */
static void hw_inhibit(struct rvp_sbi_pmu_hart *h, uint32_t set, uint32_t clear)
{
	uint32_t v = (h->inhibit | set) & ~clear;

	/* mcountinhibit is the core's alone once the hart is set up (S-mode
	 * cannot write it), so the copy in h saves a read on every start
	 * and stop. */
	if (v == h->inhibit)
		return;
	h->inhibit = v;
	wr(h, RVP_CSR_MCOUNTINHIBIT, v);
}

/* Logical counter set -> hardware counter bitmap. */
static uint32_t hw_bits(const struct rvp_sbi_pmu_hart *h, uint64_t lmask)
{
	uint32_t bits = 0;

	lmask &= BIT64(h->num_hw) - 1;
	/* Dense counters (see hw_to_logical): counter N is logical N - 1
	 * from N = 2 on. */
	if (h->ctr_to_logical_dense)
		return (uint32_t)((lmask & 1) | ((lmask & ~1ULL) << 1));
	while (lmask) {
		unsigned int l = lowest_bit(lmask);

		lmask &= lmask - 1;
		bits |= 1U << h->hw_ctr[l];
	}
	return bits;
}

static uint64_t inh_bits(const struct rvp_sbi_pmu_hart *h, uint64_t flags);

/* Hardware counter bitmap (bit N: counter N, implemented ones only) ->
 * logical counter set. */
static uint64_t hw_to_logical(const struct rvp_sbi_pmu_hart *h, uint32_t bits)
{
	uint64_t out = 0;
	unsigned int l;

	/* Dense counters: counter N >= 2 is logical N - 1 (bit 1, time, is
	 * never set). */
	if (h->ctr_to_logical_dense)
		return (bits & 1) | (bits >> 1);
	for (l = 0; l < h->num_hw; l++)
		if (bits & (1U << h->hw_ctr[l]))
			out |= BIT64(l);
	return out;
}

/* The OF bits of every hpm counter at once (Sscofpmf's scountovf, which
 * M-mode reads whole), as a hardware counter bitmap. */
static uint32_t hw_overflowed(const struct rvp_sbi_pmu_hart *h)
{
	if (!h->hw.sscofpmf)
		return 0;
	return (uint32_t)rd(h, RVP_CSR_SCOUNTOVF) & h->hw.ctr_mask & HPM_CTRS;
}

/* ------------------------------------------------------------ discovery */

static unsigned int ones_width(uint64_t v)
{
	return v ? highest_bit(v) + 1 : 0;
}

void rvp_sbi_pmu_discover(const struct rvp_sbi_pmu_ops *ops, void *ctx,
			  unsigned int xl, struct rvp_sbi_pmu_hw *hw)
{
	uint64_t all = xl == 32 ? 0xFFFFFFFFULL : ~0ULL;
	uint64_t probe;
	unsigned int n;

	zero(hw, sizeof(*hw));
	hw->xlen = xl;
	/* Stop everything while probing so the values read back are the
	 * ones written (a counting counter could carry). */
	ops->csr_write(ctx, RVP_CSR_MCOUNTINHIBIT, all);
	for (n = 0; n < 32; n++) {
		uint64_t v;

		if (n == 1)	/* time: not a PMU counter */
			continue;
		/* Unimplemented counters are read-only zero (privileged
		 * spec, "Hardware Performance Monitor"). */
		ops->csr_write(ctx, RVP_SBI_PMU_CSR_MCOUNTER(n), all);
		v = ops->csr_read(ctx, RVP_SBI_PMU_CSR_MCOUNTER(n)) & all;
		if (xl == 32) {
			ops->csr_write(ctx, RVP_SBI_PMU_CSR_MCOUNTERH(n), all);
			v |= (ops->csr_read(ctx, RVP_SBI_PMU_CSR_MCOUNTERH(n)) &
			      all) << 32;
			ops->csr_write(ctx, RVP_SBI_PMU_CSR_MCOUNTERH(n), 0);
		}
		ops->csr_write(ctx, RVP_SBI_PMU_CSR_MCOUNTER(n), 0);
		if (!v)
			continue;
		hw->ctr_mask |= 1U << n;
		hw->width[n] = (uint8_t)ones_width(v);
	}
	if (ops->csr_probe) {
		/* scountovf exists exactly when Sscofpmf does; mcyclecfg
		 * exactly when Smcntrpmf does. */
		hw->sscofpmf = !ops->csr_probe(ctx, RVP_CSR_SCOUNTOVF, &probe);
		hw->smcntrpmf = !ops->csr_probe(ctx, RVP_CSR_MCYCLECFG,
						&probe);
	}
}

int rvp_sbi_pmu_hart_init(struct rvp_sbi_pmu_hart *h,
			  const struct rvp_sbi_pmu_platform *plat,
			  const struct rvp_sbi_pmu_ops *ops, void *ctx)
{
	uint32_t hpm, mask;
	unsigned int n;

	zero(h, sizeof(*h));
	if (!plat || !ops || (plat->xlen != 32 && plat->xlen != 64) ||
	    plat->num_fw_ctrs > RVP_SBI_PMU_MAX_FW_CTRS)
		return RVP_SBI_ERR_INVALID_PARAM;
	if (plat->maps && (plat->maps->nr_sel > RVP_SBI_PMU_MAX_MAP ||
			   plat->maps->nr_ctrs > RVP_SBI_PMU_MAX_MAP ||
			   plat->maps->nr_raw > RVP_SBI_PMU_MAX_MAP))
		return RVP_SBI_ERR_INVALID_PARAM;
	h->plat = plat;
	h->ops = ops;
	h->ctx = ctx;
	/* This hart's own counters: harts of one platform may differ. */
	rvp_sbi_pmu_discover(ops, ctx, plat->xlen, &h->hw);
	h->xmask = plat->xlen == 32 ? 0xFFFFFFFFULL : ~0ULL;
	for (n = 0; n < 32; n++)
		if (n != 1 && (h->hw.ctr_mask & (1U << n)))
			h->hw_ctr[h->num_hw++] = (uint8_t)n;
	h->num_ctrs = h->num_hw + plat->num_fw_ctrs;
	/* Counters 0, 2, 3, ..., k without holes: logical and counter
	 * numbers convert by a shift (hw_bits, hw_to_logical). */
	mask = h->hw.ctr_mask | 2U;
	h->ctr_to_logical_dense = !(h->hw.ctr_mask & ~2U) ||
				  ((mask & 1) && !(mask & (mask + 1)));

	/* hpm counters stopped and counting nothing; mcycle and minstret
	 * keep running for cycle/instret readers until someone configures
	 * them (then they count only while started). */
	h->inhibit = (uint32_t)rd(h, RVP_CSR_MCOUNTINHIBIT);
	hpm = h->hw.ctr_mask & HPM_CTRS;
	hw_inhibit(h, hpm, h->hw.ctr_mask & 0x5U);
	for (n = 3; n < 32; n++)
		if (hpm & (1U << n))
			hw_evt_write(h, n, 0);
	/* Whatever an earlier stage (or this hart's last run) left in the
	 * Smcntrpmf filters goes: cycle and instret count as an unmapped
	 * counter is configured. */
	if (h->hw.smcntrpmf) {
		hw_cfg_write(h, 0, inh_bits(h, 0));
		hw_cfg_write(h, 2, inh_bits(h, 0));
	}
	return 0;
}

/* ------------------------------------------------------------ events */

/*
 * Whether event_idx/event_data are well formed: reserved bits clear
 * (event_idx above bit 19, reserved types, raw types with a non-zero code,
 * event_data bits the type reserves).  check_data says whether event_data
 * is an argument here (counter_config_matching) or, as event_get_info's
 * entry format says, only for types 2, 3 and 15.
 */
static int event_well_formed(const struct rvp_sbi_pmu_hart *h, uint64_t idx,
			     uint64_t data, int from_info)
{
	uint32_t type, code;
	uint64_t raw_mask;

	if (idx & ~(uint64_t)RVP_SBI_PMU_EVENT_IDX_MASK)
		return 0;
	type = (uint32_t)(idx >> RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT);
	code = (uint32_t)idx & RVP_SBI_PMU_EVENT_IDX_CODE_MASK;
	switch (type) {
	case RVP_SBI_PMU_EVENT_TYPE_HW:
		/* "event_idx cannot be zero" (SBI_PMU_HW_NO_EVENT). */
		if (code == RVP_SBI_PMU_HW_NO_EVENT)
			return 0;
		/* fallthrough */
	case RVP_SBI_PMU_EVENT_TYPE_CACHE:
		/* Non-zero event_data is reserved for types 0 and 1; the
		 * event-info entry defines event_data only for 2, 3, 15. */
		return from_info || !data;
	case RVP_SBI_PMU_EVENT_TYPE_RAW:
	case RVP_SBI_PMU_EVENT_TYPE_RAW_V2:
		if (code)
			return 0;
		/* RV32: the 32-bit mhpmevent value; RV64: 48 (type 2) or
		 * 56 (type 3) bits, the rest being the implementation's. */
		if (xlen(h) == 32)
			raw_mask = 0xFFFFFFFFULL;
		else if (type == RVP_SBI_PMU_EVENT_TYPE_RAW)
			raw_mask = RVP_SBI_PMU_RAW_EVENT_MASK;
		else
			raw_mask = RVP_SBI_PMU_RAW_V2_EVENT_MASK;
		return !(data & ~raw_mask);
	case RVP_SBI_PMU_EVENT_TYPE_FW:
		if (code == RVP_SBI_PMU_FW_PLATFORM)
			return 1;
		/* event_data is reserved for every other firmware event,
		 * in an event-info entry as much as in config_matching. */
		return !data;
	default:
		return 0;
	}
}

/* mhpmevent selector (without the bits the implementation owns) of a
 * general or cache event: the riscv,event-to-mhpmevent value, else the
 * zero-extended event_idx as the PMU chapter suggests. */
static uint64_t event_select(const struct rvp_sbi_pmu_hart *h, uint32_t idx)
{
	const struct rvp_sbi_pmu_maps *m = h->plat->maps;
	unsigned int i;

	if (m)
		for (i = 0; i < m->nr_sel; i++)
			if (m->sel[i].event_idx == idx)
				return m->sel[i].select;
	return idx;
}

/* Hardware counters (bit N = counter N) that can count a well-formed
 * hardware event. */
static uint32_t hw_candidates(const struct rvp_sbi_pmu_hart *h, uint32_t idx,
			      uint64_t data)
{
	const struct rvp_sbi_pmu_maps *m = h->plat->maps;
	uint32_t type = idx >> RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT;
	uint32_t code = idx & RVP_SBI_PMU_EVENT_IDX_CODE_MASK;
	uint32_t bits = 0;
	unsigned int i;

	switch (type) {
	case RVP_SBI_PMU_EVENT_TYPE_HW:
		if (code > RVP_SBI_PMU_HW_REF_CPU_CYCLES)
			return 0;
		/* mcycle and minstret count one thing each. */
		if (code == RVP_SBI_PMU_HW_CPU_CYCLES)
			bits |= 1U << 0;
		if (code == RVP_SBI_PMU_HW_INSTRUCTIONS)
			bits |= 1U << 2;
		/* fallthrough */
	case RVP_SBI_PMU_EVENT_TYPE_CACHE:
		if (type == RVP_SBI_PMU_EVENT_TYPE_CACHE &&
		    (((code & RVP_SBI_PMU_CACHE_ID_MASK) >>
		      RVP_SBI_PMU_CACHE_ID_SHIFT) > RVP_SBI_PMU_HW_CACHE_NODE ||
		     ((code & RVP_SBI_PMU_CACHE_OP_MASK) >>
		      RVP_SBI_PMU_CACHE_OP_SHIFT) >
		     RVP_SBI_PMU_HW_CACHE_OP_PREFETCH))
			return 0;
		if (m)
			for (i = 0; i < m->nr_ctrs; i++)
				if (m->ctrs[i].first <= idx &&
				    idx <= m->ctrs[i].last)
					bits |= m->ctrs[i].ctr_map & HPM_CTRS;
		break;
	case RVP_SBI_PMU_EVENT_TYPE_RAW:
	case RVP_SBI_PMU_EVENT_TYPE_RAW_V2:
		/* Without a riscv,raw-event-to-mhpmcounters map, any
		 * programmable counter may take a raw event. */
		if (!m || !m->nr_raw) {
			bits = HPM_CTRS;
			break;
		}
		for (i = 0; i < m->nr_raw; i++)
			if ((data & m->raw[i].mask) ==
			    (m->raw[i].select & m->raw[i].mask))
				bits |= m->raw[i].ctr_map & HPM_CTRS;
		break;
	default:
		break;
	}
	return bits & h->hw.ctr_mask;
}

static int fw_event_supported(const struct rvp_sbi_pmu_hart *h, uint32_t code,
			      uint64_t data)
{
	if (code <= RVP_SBI_PMU_FW_HFENCE_VVMA_ASID_RECEIVED)
		return 1;
	if (code == RVP_SBI_PMU_FW_PLATFORM)
		return h->ops->fw_platform_event_ok &&
		       h->ops->fw_platform_event_ok(h->ctx, data);
	return code >= RVP_SBI_PMU_FW_IMPL_FIRST &&
	       code <= RVP_SBI_PMU_FW_IMPL_LAST &&
	       code >= h->plat->fw_impl_first &&
	       code <= h->plat->fw_impl_last;
}

/* Logical counters that can count a well-formed event. */
static uint64_t event_candidates(const struct rvp_sbi_pmu_hart *h, uint32_t idx,
				 uint64_t data)
{
	uint32_t type = idx >> RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT;
	uint32_t bits;

	if (type == RVP_SBI_PMU_EVENT_TYPE_FW) {
		if (!fw_event_supported(h, idx & RVP_SBI_PMU_EVENT_IDX_CODE_MASK,
					data))
			return 0;
		return (BIT64(h->plat->num_fw_ctrs) - 1) << h->num_hw;
	}
	bits = hw_candidates(h, idx, data);
	return hw_to_logical(h, bits);
}

/*
 * With Sscofpmf, a programmable counter that can count the event is taken
 * before mcycle/minstret (as OpenSBI does): only it raises the overflow
 * interrupt that sampling needs, and it honours the mode filters without
 * Smcntrpmf.  Linux's SBI PMU driver offers both kinds for cycles and
 * instructions and samples on whatever comes back; S-mode that wants the
 * fixed counter names it alone in cmask.
 */
static uint64_t prefer_programmable(const struct rvp_sbi_pmu_hart *h,
				    uint64_t avail)
{
	uint64_t hpm = avail & hw_to_logical(h, HPM_CTRS);

	return h->hw.sscofpmf && hpm ? hpm : avail;
}

/* ------------------------------------------------------------ counter sets */

/*
 * The logical counters {cbase + i : bit i of cmask}, in *set.  Every one
 * must exist; an empty set is no valid set either.  Written so nothing
 * wraps: cbase is any XLEN value S-mode chose.
 */
static long counter_set(const struct rvp_sbi_pmu_hart *h, uint64_t cbase,
			uint64_t cmask, uint64_t *set)
{
	uint64_t room;

	if (!cmask || cbase >= h->num_ctrs)
		return RVP_SBI_ERR_INVALID_PARAM;
	/* No bit at or past counter num_ctrs (at most 63 counters, so the
	 * shift is always defined). */
	room = h->num_ctrs - cbase;
	if (cmask >> room)
		return RVP_SBI_ERR_INVALID_PARAM;
	*set = cmask << cbase;
	return RVP_SBI_SUCCESS;
}

static uint64_t flags_reserved(const struct rvp_sbi_pmu_hart *h, uint64_t flags,
			       unsigned int shift)
{
	return (flags & xmask(h)) >> shift;
}

static int is_fw(const struct rvp_sbi_pmu_hart *h, unsigned int l)
{
	return l >= h->num_hw;
}

/* ------------------------------------------------------------ S-mode memory */

/* [addr, addr + size) is S-mode memory M-mode may touch on S-mode's behalf:
 * non-empty, not wrapping, and S-mode's own per the host. */
static int smem_ok(const struct rvp_sbi_pmu_hart *h, uint64_t addr, uint64_t size,
		   int write)
{
	if (!size || addr > ~0ULL - (size - 1))
		return 0;
	/* RV32 physical addresses are 34 bits (Sv32). */
	if (xlen(h) == 32 && addr + (size - 1) >= BIT64(34))
		return 0;
	return h->ops->smode_range_ok(h->ctx, addr, size, write);
}

/* The physical address from the (lo, hi) pair of the PMU chapter. */
static int shmem_addr(const struct rvp_sbi_pmu_hart *h, uint64_t lo, uint64_t hi,
		      uint64_t *addr)
{
	if (xlen(h) == 64) {
		/* The upper XLEN bits of an address above 2^64: none. */
		if (hi)
			return 0;
		*addr = lo;
		return 1;
	}
	*addr = (hi << 32) | lo;
	return 1;
}

/* Word accessors of mapped S-mode memory; off is naturally aligned. */
static uint64_t smem_rd64(const void *base, uint64_t off)
{
	return *(const volatile uint64_t *)((const uint8_t *)base + off);
}

static void smem_wr64(void *base, uint64_t off, uint64_t v)
{
	*(volatile uint64_t *)((uint8_t *)base + off) = v;
}

static uint32_t smem_rd32(const void *base, uint64_t off)
{
	return *(const volatile uint32_t *)((const uint8_t *)base + off);
}

static void smem_wr32(void *base, uint64_t off, uint32_t v)
{
	*(volatile uint32_t *)((uint8_t *)base + off) = v;
}

/* ------------------------------------------------------------ FID 0, 1 */

struct rvp_sbiret rvp_sbi_pmu_num_counters(struct rvp_sbi_pmu_hart *h)
{
	return ret_val(h->num_ctrs);
}

struct rvp_sbiret rvp_sbi_pmu_counter_get_info(struct rvp_sbi_pmu_hart *h,
					       uint64_t cidx)
{
	uint64_t info;
	unsigned int n;

	if (cidx >= h->num_ctrs)
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	if (is_fw(h, (unsigned int)cidx)) {
		/* csr and width are to be ignored for firmware counters;
		 * width still says 64 bits, which all of ours have. */
		info = BIT64(xlen(h) - 1) |
		       (63ULL << RVP_SBI_PMU_COUNTER_INFO_WIDTH_SHIFT);
		return ret_val(info);
	}
	n = h->hw_ctr[cidx];
	info = (uint64_t)RVP_SBI_PMU_CSR_UCOUNTER(n) |
	       ((uint64_t)(h->hw.width[n] - 1) <<
		RVP_SBI_PMU_COUNTER_INFO_WIDTH_SHIFT);
	return ret_val(info);
}

/* ------------------------------------------------------------ FID 2 */

/* xINH flags as mhpmevent (Sscofpmf) or mcyclecfg (Smcntrpmf) bits; the
 * chapter makes them hints the implementation may override. */
static uint64_t inh_bits(const struct rvp_sbi_pmu_hart *h, uint64_t flags)
{
	uint64_t v = 0;

	if (flags & RVP_SBI_PMU_CFG_FLAG_SET_VUINH)
		v |= RVP_MHPMEVENT_VUINH;
	if (flags & RVP_SBI_PMU_CFG_FLAG_SET_VSINH)
		v |= RVP_MHPMEVENT_VSINH;
	if (flags & RVP_SBI_PMU_CFG_FLAG_SET_UINH)
		v |= RVP_MHPMEVENT_UINH;
	if (flags & RVP_SBI_PMU_CFG_FLAG_SET_SINH)
		v |= RVP_MHPMEVENT_SINH;
	if ((flags & RVP_SBI_PMU_CFG_FLAG_SET_MINH) || h->plat->force_minh)
		v |= RVP_MHPMEVENT_MINH;
	return v;
}

/* The full mhpmeventN value for an event on hpm counter N: the selector in
 * the bits S-mode or the map gives, the upper bits (OF = 0, filters) set
 * here as the privileged spec defines them. */
static uint64_t hpm_event_value(const struct rvp_sbi_pmu_hart *h, uint32_t idx,
				uint64_t data, uint64_t flags)
{
	uint32_t type = idx >> RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT;
	uint64_t sel;

	if (type == RVP_SBI_PMU_EVENT_TYPE_RAW)
		sel = data & RVP_SBI_PMU_RAW_EVENT_MASK;
	else if (type == RVP_SBI_PMU_EVENT_TYPE_RAW_V2)
		sel = data & RVP_SBI_PMU_RAW_V2_EVENT_MASK;
	else
		sel = event_select(h, idx) & RVP_SBI_PMU_RAW_V2_EVENT_MASK;
	if (xlen(h) == 32)
		sel &= 0xFFFFFFFFULL;
	if (h->hw.sscofpmf)
		sel |= inh_bits(h, flags);
	return sel;
}

struct rvp_sbiret rvp_sbi_pmu_counter_config_matching(struct rvp_sbi_pmu_hart *h,
						      uint64_t cbase,
						      uint64_t cmask,
						      uint64_t flags,
						      uint64_t event_idx,
						      uint64_t event_data)
{
	uint64_t set, cand, avail;
	unsigned int l, n;
	uint32_t idx;
	long err;

	if (flags_reserved(h, flags, RVP_SBI_PMU_CFG_FLAG_RESERVED_SHIFT))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	err = counter_set(h, cbase, cmask, &set);
	if (err)
		return ret_err(err);
	if (!event_well_formed(h, event_idx, event_data, 0))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	idx = (uint32_t)event_idx;
	cand = event_candidates(h, idx, event_data);

	if (flags & RVP_SBI_PMU_CFG_FLAG_SKIP_MATCH) {
		/* "unconditionally select the first counter" of the set;
		 * it must still be able to count the event and not be
		 * counting already. */
		l = lowest_bit(set);
		if (!(cand & BIT64(l)) || (h->started & BIT64(l)))
			return ret_err(RVP_SBI_ERR_NOT_SUPPORTED);
	} else {
		/* A counter still mapped (configured, even if stopped) is
		 * in use until counter_stop with RESET releases it. */
		avail = set & cand & ~h->configured & ~h->started;
		if (!avail)
			return ret_err(RVP_SBI_ERR_NOT_SUPPORTED);
		l = lowest_bit(prefer_programmable(h, avail));
	}

	/* Nothing can fail from here on. */
	if (is_fw(h, l)) {
		if (flags & RVP_SBI_PMU_CFG_FLAG_CLEAR_VALUE)
			h->fw_value[l - h->num_hw] = 0;
	} else {
		n = h->hw_ctr[l];
		hw_inhibit(h, 1U << n, 0);
		if (n >= 3)
			hw_evt_write(h, n, hpm_event_value(h, idx, event_data,
							   flags));
		else if (h->hw.smcntrpmf)
			hw_cfg_write(h, n, inh_bits(h, flags));
		if (flags & RVP_SBI_PMU_CFG_FLAG_CLEAR_VALUE)
			hw_ctr_write(h, n, 0);
		if (flags & RVP_SBI_PMU_CFG_FLAG_AUTO_START)
			hw_inhibit(h, 0, 1U << n);
	}
	h->configured |= BIT64(l);
	h->event_idx[l] = idx;
	h->event_data[l] = event_data;
	if (flags & RVP_SBI_PMU_CFG_FLAG_AUTO_START)
		h->started |= BIT64(l);
	return ret_val(l);
}

/* ------------------------------------------------------------ FID 3, 4 */

/*
 * CONFIG_RVPERF_QEMU_QUIRKS (Kconfig RVPERF_QEMU_QUIRKS, generic.mk's
 * RVPERF_QEMU_QUIRKS=1, the host builds): the workarounds for QEMU's harts
 * are compiled in, and used where the host says the hart is QEMU's
 * (plat->qemu_quirks).  Without it they are not in the binary.
 */
#ifdef CONFIG_RVPERF_QEMU_QUIRKS
#define RVPERF_QEMU_QUIRKS 1
#else
#define RVPERF_QEMU_QUIRKS 0
#endif

#define FAR_FROM_OVERFLOW	(1ULL << 53)	/* see start_far() */

/* Whether a start with this value takes start_far(). */
static inline int qemu_far(const struct rvp_sbi_pmu_hart *h, uint64_t v)
{
#if RVPERF_QEMU_QUIRKS
	return h->plat->qemu_quirks && v < -FAR_FROM_OVERFLOW;
#else
	(void)h;
	(void)v;
	return 0;
#endif
}

/* Sets the counters of set (bit N: counter N) to their values from the
 * snapshot area, and in *far the hpm counters start_far() takes; out of
 * line to keep counter_start's common frame small. */
static __attribute__((noinline)) long
start_snapshot(struct rvp_sbi_pmu_hart *h, uint64_t cbase, uint64_t set,
	       uint32_t *far)
{
	uint64_t rest, off, v;
	unsigned int l;
	void *area;

	area = h->ops->smode_map(h->ctx, h->shmem_addr,
				 RVP_SBI_PMU_SNAPSHOT_SIZE, 0);
	if (!area)
		return RVP_SBI_ERR_NO_SHMEM;
	/* Index i of counter_values is counter cbase + i. */
	for (rest = set; rest; rest &= rest - 1) {
		l = lowest_bit(rest);
		off = RVP_SBI_PMU_SNAPSHOT_COUNTER_VALUES_OFFSET +
		      8ULL * (l - cbase);
		v = smem_rd64(area, off);
		if (is_fw(h, l)) {
			h->fw_value[l - h->num_hw] = v;
		} else {
			hw_ctr_write(h, h->hw_ctr[l], v);
			if (qemu_far(h, v))
				*far |= 1U << h->hw_ctr[l];
		}
	}
	h->ops->smode_unmap(h->ctx, h->shmem_addr, RVP_SBI_PMU_SNAPSHOT_SIZE);
	return RVP_SBI_SUCCESS;
}

#if RVPERF_QEMU_QUIRKS
/*
 * QEMU's stale overflow deadline.  A counter started with a value this far
 * from overflowing (2^53 counts: 28 years at 10 GHz) is started with OF
 * set, then OF is cleared: a hart that sees OF set as the counter starts
 * arms no overflow for it.  For QEMU up to at least 10.2
 * (target/riscv/pmu.c) that is needed: a deadline past INT64_MAX ns (Linux
 * starts counting events at 2^63 + 1) leaves a remainder behind that is
 * never cleared, and the next near deadline on the counter (a sampling
 * event after a counting one) then re-arms QEMU's timer instead of raising
 * the overflow, so it never comes.  On real counters the overflow still
 * happens (OF is clear again once running); QEMU just does not schedule an
 * interrupt nobody would live to see.  Only QEMU's harts need it
 * (plat->qemu_quirks), and only starts that set a value (SET_INIT_VALUE,
 * INIT_SNAPSHOT: what Linux uses) are checked, so the check costs no
 * counter read.
 *
 * Starts the hardware counters hw of the logical set, those of far (hpm
 * counters of an Sscofpmf hart) as above; returns 0 (counter_start's
 * value).  One read and two writes of each far counter's mhpmevent (the
 * value read is kept for the first FAR_KEPT of them; Linux starts one
 * counter at a time), one write of mcountinhibit; OF ends clear, so
 * scountovf need not be read for them.  Out of line: only a far start on
 * QEMU comes here.
 */
#define FAR_KEPT	8
static __attribute__((noinline)) long
start_far(struct rvp_sbi_pmu_hart *h, uint32_t hw, uint32_t far,
	  uint64_t set)
{
	uint64_t kept[FAR_KEPT], v;
	uint32_t rest = hw & HPM_CTRS & ~far;
	unsigned int n, i;

	/* The others as counter_start does: a cleared OF re-arms. */
	if (rest)
		for (rest &= hw_overflowed(h); rest; rest &= rest - 1) {
			n = lowest_bit(rest);
			hw_evt_write(h, n, hw_evt_read(h, n) &
					   ~RVP_MHPMEVENT_OF);
		}
	if (!(far & (far - 1))) {
		/* One far counter (Linux's every start): no loops. */
		n = lowest_bit(far);
		v = hw_evt_read(h, n) & ~RVP_MHPMEVENT_OF;
		hw_evt_write(h, n, v | RVP_MHPMEVENT_OF);
		hw_inhibit(h, 0, hw);
		hw_evt_write(h, n, v);
		h->started |= set;
		return 0;
	}
	for (i = 0, rest = far; rest; rest &= rest - 1, i++) {
		n = lowest_bit(rest);
		v = hw_evt_read(h, n) & ~RVP_MHPMEVENT_OF;
		if (i < FAR_KEPT)
			kept[i] = v;
		hw_evt_write(h, n, v | RVP_MHPMEVENT_OF);
	}
	hw_inhibit(h, 0, hw);
	for (i = 0, rest = far; rest; rest &= rest - 1, i++) {
		n = lowest_bit(rest);
		hw_evt_write(h, n, i < FAR_KEPT ? kept[i] :
				   hw_evt_read(h, n) & ~RVP_MHPMEVENT_OF);
	}
	h->started |= set;
	return 0;
}
#endif

struct rvp_sbiret rvp_sbi_pmu_counter_start(struct rvp_sbi_pmu_hart *h,
					    uint64_t cbase, uint64_t cmask,
					    uint64_t flags, uint64_t ival)
{
	uint64_t set, rest;
	uint32_t hw, far = 0;
	unsigned int l, n;
	long err;

	if (flags_reserved(h, flags, RVP_SBI_PMU_START_FLAG_RESERVED_SHIFT))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	/* The two ways of setting a value exclude each other. */
	if ((flags & RVP_SBI_PMU_START_SET_INIT_VALUE) &&
	    (flags & RVP_SBI_PMU_START_FLAG_INIT_SNAPSHOT))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	err = counter_set(h, cbase, cmask, &set);
	if (err)
		return ret_err(err);
	/* Only a counter mapped to an event can be started. */
	if (set & ~h->configured)
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	/* The area was checked when S-mode set it (snapshot_set_shmem). */
	if ((flags & RVP_SBI_PMU_START_FLAG_INIT_SNAPSHOT) && !h->shmem_enabled)
		return ret_err(RVP_SBI_ERR_NO_SHMEM);
	if (set & h->started)
		return ret_err(RVP_SBI_ERR_ALREADY_STARTED);

	hw = hw_bits(h, set);
	/* Values first (a failed map changes nothing), then the starts. */
	if (flags & RVP_SBI_PMU_START_FLAG_INIT_SNAPSHOT) {
		err = start_snapshot(h, cbase, set, &far);
		if (err)
			return ret_err(err);
	} else if (flags & RVP_SBI_PMU_START_SET_INIT_VALUE) {
		for (rest = set; rest; rest &= rest - 1) {
			l = lowest_bit(rest);
			if (is_fw(h, l))
				h->fw_value[l - h->num_hw] = ival;
			else
				hw_ctr_write(h, h->hw_ctr[l], ival);
		}
		if (qemu_far(h, ival))
			far = hw;
	}

	if (hw & HPM_CTRS) {
#if RVPERF_QEMU_QUIRKS
		far &= HPM_CTRS;
		if (far && h->hw.sscofpmf)
			return ret_val(start_far(h, hw, far, set));
#endif
		/* A cleared OF re-arms the overflow interrupt (Sscofpmf); only
		 * an overflown counter needs the write, and scountovf says
		 * which. */
		for (rest = hw_overflowed(h) & hw; rest; rest &= rest - 1) {
			n = lowest_bit(rest);
			hw_evt_write(h, n, hw_evt_read(h, n) &
					   ~RVP_MHPMEVENT_OF);
		}
	}
	hw_inhibit(h, 0, hw);
	h->started |= set;
	return ret_val(0);
}

/*
 * The rarer halves of counter_stop, out of line so that the common call
 * (stop one counter, no flags) runs in a small frame.
 */
static __attribute__((noinline)) long
stop_snapshot(struct rvp_sbi_pmu_hart *h, uint64_t cbase, uint64_t set)
{
	uint64_t rest, ovf, v;
	unsigned int l, i;
	void *area;

	area = h->ops->smode_map(h->ctx, h->shmem_addr,
				 RVP_SBI_PMU_SNAPSHOT_SIZE, 1);
	if (!area)
		return RVP_SBI_ERR_NO_SHMEM;
	for (rest = set; rest; rest &= rest - 1) {
		l = lowest_bit(rest);
		i = (unsigned int)(l - cbase);
		v = is_fw(h, l) ? h->fw_value[l - h->num_hw] :
				  hw_ctr_read(h, h->hw_ctr[l]);
		smem_wr64(area, RVP_SBI_PMU_SNAPSHOT_COUNTER_VALUES_OFFSET +
			  8ULL * i, v);
	}
	/* Overflown counters relative to cbase (in the set or not); zero
	 * without Sscofpmf, as the layout table requires.  cbase is a
	 * valid counter (below 63). */
	ovf = hw_to_logical(h, hw_overflowed(h)) >> cbase;
	smem_wr64(area, RVP_SBI_PMU_SNAPSHOT_OVERFLOW_BITMAP_OFFSET, ovf);
	h->ops->smode_unmap(h->ctx, h->shmem_addr, RVP_SBI_PMU_SNAPSHOT_SIZE);
	return RVP_SBI_SUCCESS;
}

static __attribute__((noinline)) void
stop_reset(struct rvp_sbi_pmu_hart *h, uint64_t set)
{
	uint64_t rest;
	uint32_t fixed = 0;
	unsigned int l, n;

	for (rest = set; rest; rest &= rest - 1) {
		l = lowest_bit(rest);
		h->event_idx[l] = 0;
		h->event_data[l] = 0;
		if (is_fw(h, l))
			continue;
		n = h->hw_ctr[l];
		if (n >= 3)
			hw_evt_write(h, n, 0);
		else
			fixed |= 1U << n;
	}
	/* Unmapped mcycle/minstret go back to free running. */
	hw_inhibit(h, 0, fixed);
	h->configured &= ~set;
}

struct rvp_sbiret rvp_sbi_pmu_counter_stop(struct rvp_sbi_pmu_hart *h,
					   uint64_t cbase, uint64_t cmask,
					   uint64_t flags)
{
	uint64_t set, stopped;
	long err;

	if (flags_reserved(h, flags, RVP_SBI_PMU_STOP_FLAG_RESERVED_SHIFT))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	err = counter_set(h, cbase, cmask, &set);
	if (err)
		return ret_err(err);
	if (set & ~h->configured)
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	if ((flags & RVP_SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT) && !h->shmem_enabled)
		return ret_err(RVP_SBI_ERR_NO_SHMEM);
	/*
	 * A stopped counter in the set is SBI_ERR_ALREADY_STOPPED, whatever
	 * the flags: the spec's error table makes no exception for RESET.
	 * Without RESET nothing changes.  With RESET the started ones stop
	 * and every mapping is still released, as OpenSBI and KVM both do:
	 * stop-then-release is how Linux frees a counter (it ignores this
	 * error with RESET), and a mapping left behind would leak the
	 * counter.  No snapshot is taken then.
	 */
	stopped = set & ~h->started;
	if (stopped && !(flags & RVP_SBI_PMU_STOP_FLAG_RESET))
		return ret_err(RVP_SBI_ERR_ALREADY_STOPPED);

	if (!stopped && (flags & RVP_SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT)) {
		/* Stop first: the values saved are the final ones. */
		hw_inhibit(h, hw_bits(h, set), 0);
		err = stop_snapshot(h, cbase, set);
		if (err) {
			hw_inhibit(h, 0, hw_bits(h, set));
			return ret_err(err);
		}
	} else {
		hw_inhibit(h, hw_bits(h, set & h->started), 0);
	}
	h->started &= ~set;
	if (flags & RVP_SBI_PMU_STOP_FLAG_RESET)
		stop_reset(h, set);
	return stopped ? ret_err(RVP_SBI_ERR_ALREADY_STOPPED) : ret_val(0);
}

/* ------------------------------------------------------------ FID 5, 6 */

static long fw_counter(const struct rvp_sbi_pmu_hart *h, uint64_t cidx)
{
	if (cidx >= h->num_ctrs || cidx < h->num_hw ||
	    !(h->configured & BIT64(cidx)))
		return RVP_SBI_ERR_INVALID_PARAM;
	return RVP_SBI_SUCCESS;
}

struct rvp_sbiret rvp_sbi_pmu_counter_fw_read(struct rvp_sbi_pmu_hart *h,
					      uint64_t cidx)
{
	long err = fw_counter(h, cidx);

	if (err)
		return ret_err(err);
	/* RV32: the lower 32 bits; FID 6 gives the rest. */
	return ret_val(h->fw_value[cidx - h->num_hw] & xmask(h));
}

struct rvp_sbiret rvp_sbi_pmu_counter_fw_read_hi(struct rvp_sbi_pmu_hart *h,
						 uint64_t cidx)
{
	long err = fw_counter(h, cidx);

	if (err)
		return ret_err(err);
	/* "always returns zero in sbiret.value for RV64". */
	if (xlen(h) == 64)
		return ret_val(0);
	return ret_val(h->fw_value[cidx - h->num_hw] >> 32);
}

/* ------------------------------------------------------------ FID 7 */

struct rvp_sbiret rvp_sbi_pmu_snapshot_set_shmem(struct rvp_sbi_pmu_hart *h,
						 uint64_t lo, uint64_t hi,
						 uint64_t flags)
{
	uint64_t addr;

	if (h->plat->no_snapshot)
		return ret_err(RVP_SBI_ERR_NOT_SUPPORTED);
	if (flags & xmask(h))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	lo &= xmask(h);
	hi &= xmask(h);
	if (lo == xmask(h) && hi == xmask(h)) {
		h->shmem_enabled = 0;
		h->shmem_addr = 0;
		return ret_val(0);
	}
	if (lo & (RVP_SBI_PMU_SNAPSHOT_ALIGN - 1))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	if (!shmem_addr(h, lo, hi, &addr) ||
	    !smem_ok(h, addr, RVP_SBI_PMU_SNAPSHOT_SIZE, 1))
		return ret_err(RVP_SBI_ERR_INVALID_ADDRESS);
	/* No access now: the chapter allows one only in start and stop.
	 * Checked once, here: S-mode's access to its memory does not change
	 * while it runs (rvp_sbi_pmu.h, smode_range_ok), and start and stop,
	 * the hot calls, only map it. */
	h->shmem_addr = addr;
	h->shmem_enabled = 1;
	return ret_val(0);
}

/* ------------------------------------------------------------ FID 8 */

struct rvp_sbiret rvp_sbi_pmu_event_get_info(struct rvp_sbi_pmu_hart *h,
					     uint64_t lo, uint64_t hi,
					     uint64_t num_entries,
					     uint64_t flags)
{
	uint64_t addr, size, i, data;
	uint32_t idx, out;
	long err = RVP_SBI_SUCCESS;
	void *ent;

	if (h->plat->no_event_info)
		return ret_err(RVP_SBI_ERR_NOT_SUPPORTED);
	if (flags & xmask(h))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	lo &= xmask(h);
	hi &= xmask(h);
	num_entries &= xmask(h);
	if (lo & (RVP_SBI_PMU_EVENT_INFO_ALIGN - 1))
		return ret_err(RVP_SBI_ERR_INVALID_PARAM);
	if (!shmem_addr(h, lo, hi, &addr))
		return ret_err(RVP_SBI_ERR_INVALID_ADDRESS);
	/* Zero entries: nothing to read or write. */
	if (!num_entries)
		return ret_val(0);
	/* 16 * num_entries must neither wrap nor pass the address space. */
	if (num_entries > ~0ULL / RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE)
		return ret_err(RVP_SBI_ERR_INVALID_ADDRESS);
	size = num_entries * RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE;
	if (!smem_ok(h, addr, size, 1))
		return ret_err(RVP_SBI_ERR_INVALID_ADDRESS);
	/* Bounded work with interrupts off (rvp_sbi_pmu.h). */
	if (num_entries > RVP_SBI_PMU_EVENT_INFO_MAX_ENTRIES)
		return ret_err(RVP_SBI_ERR_FAILED);
	ent = h->ops->smode_map(h->ctx, addr, size, 1);
	if (!ent)
		return ret_err(RVP_SBI_ERR_FAILED);

	/* Pass 1, before any write: a reserved event_idx bit anywhere fails
	 * the whole call. */
	for (i = 0; i < size; i += RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE) {
		idx = smem_rd32(ent, i +
				RVP_SBI_PMU_EVENT_INFO_EVENT_IDX_OFFSET);
		if (idx & ~(uint32_t)RVP_SBI_PMU_EVENT_IDX_MASK) {
			err = RVP_SBI_ERR_INVALID_PARAM;
			goto out;
		}
	}
	/* Pass 2: the output word of every entry whose event_idx (and
	 * event_data where the type uses it) is valid.  An entry S-mode
	 * changed since pass 1 is judged as it reads now. */
	for (i = 0; i < size; i += RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE) {
		idx = smem_rd32(ent, i +
				RVP_SBI_PMU_EVENT_INFO_EVENT_IDX_OFFSET);
		data = smem_rd64(ent, i +
				 RVP_SBI_PMU_EVENT_INFO_EVENT_DATA_OFFSET);
		if (!event_well_formed(h, idx, data, 1))
			continue;
		out = event_candidates(h, idx, data) ?
		      RVP_SBI_PMU_EVENT_INFO_OUTPUT_SUPPORTED : 0;
		smem_wr32(ent, i + RVP_SBI_PMU_EVENT_INFO_OUTPUT_OFFSET, out);
	}
out:
	h->ops->smode_unmap(h->ctx, addr, size);
	return err ? ret_err(err) : ret_val(0);
}

/* ------------------------------------------------------------ dispatch */

struct rvp_sbiret rvp_sbi_pmu_ecall(struct rvp_sbi_pmu_hart *h, unsigned long fid,
				    const uint64_t *args)
{
	uint64_t m = xmask(h);
	struct rvp_sbiret r;

	/* Each argument is XLEN bits: masked where it is used, so the
	 * common calls touch only their own arguments. */
#define ARG(i) (args[i] & m)
	switch (fid) {
	case RVP_SBI_PMU_FID_NUM_COUNTERS:
		r = rvp_sbi_pmu_num_counters(h);
		break;
	case RVP_SBI_PMU_FID_COUNTER_GET_INFO:
		r = rvp_sbi_pmu_counter_get_info(h, ARG(0));
		break;
	case RVP_SBI_PMU_FID_COUNTER_CONFIG_MATCHING:
		/* uint64_t event_data: a4 on RV64, a4 (low) + a5 on RV32. */
		r = rvp_sbi_pmu_counter_config_matching(h, ARG(0), ARG(1), ARG(2),
			ARG(3), xlen(h) == 32 ? (ARG(5) << 32) | ARG(4) : ARG(4));
		break;
	case RVP_SBI_PMU_FID_COUNTER_START:
		/* uint64_t initial_value: a3, or a3 (low) + a4 on RV32. */
		r = rvp_sbi_pmu_counter_start(h, ARG(0), ARG(1), ARG(2),
			xlen(h) == 32 ? (ARG(4) << 32) | ARG(3) : ARG(3));
		break;
	case RVP_SBI_PMU_FID_COUNTER_STOP:
		r = rvp_sbi_pmu_counter_stop(h, ARG(0), ARG(1), ARG(2));
		break;
	case RVP_SBI_PMU_FID_COUNTER_FW_READ:
		r = rvp_sbi_pmu_counter_fw_read(h, ARG(0));
		break;
	case RVP_SBI_PMU_FID_COUNTER_FW_READ_HI:
		r = rvp_sbi_pmu_counter_fw_read_hi(h, ARG(0));
		break;
	case RVP_SBI_PMU_FID_SNAPSHOT_SET_SHMEM:
		r = rvp_sbi_pmu_snapshot_set_shmem(h, ARG(0), ARG(1), ARG(2));
		break;
	case RVP_SBI_PMU_FID_EVENT_GET_INFO:
		r = rvp_sbi_pmu_event_get_info(h, ARG(0), ARG(1), ARG(2), ARG(3));
		break;
	default:
		r = ret_err(RVP_SBI_ERR_NOT_SUPPORTED);
		break;
	}
#undef ARG
	r.value &= m;
	return r;
}

/* ------------------------------------------------------------ fw events */

void rvp_sbi_pmu_fw_event(struct rvp_sbi_pmu_hart *h, uint32_t code,
			  uint64_t event_data, uint64_t count)
{
	uint32_t idx = EVENT_IDX(RVP_SBI_PMU_EVENT_TYPE_FW,
				 code & RVP_SBI_PMU_EVENT_IDX_CODE_MASK);
	uint64_t rest = h->started & h->configured &
			~(BIT64(h->num_hw) - 1);

	for (; rest; rest &= rest - 1) {
		unsigned int l = lowest_bit(rest);

		if (h->event_idx[l] != idx)
			continue;
		if (code == RVP_SBI_PMU_FW_PLATFORM &&
		    h->event_data[l] != event_data)
			continue;
		/* 64-bit firmware counters wrap like hardware ones. */
		h->fw_value[l - h->num_hw] += count;
	}
}

uint64_t rvp_sbi_pmu_overflowed(struct rvp_sbi_pmu_hart *h)
{
	return hw_to_logical(h, hw_overflowed(h)) & h->started;
}
