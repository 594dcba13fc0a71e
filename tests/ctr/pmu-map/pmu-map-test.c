// SPDX-License-Identifier: BSD-2-Clause
/*
 * pmu-map-test - the counter model's devicetree map (qemu-model/core/
 * hpmhw_map.h) through the SBI PMU core (opensbi-ext/core) on top of
 * the counter model itself (qemu-model/core), both cores linked into this
 * one program and included by this one file: the map parses as OpenSBI's
 * bindings say, and each SBI general event that S-mode asks
 * for with counter_config_matching counts what it names in the model:
 * cycles, instructions, branch instructions, branch misses (the same
 * count as the model's own mispredict event), the BPU cache events, and
 * raw events with the model's encodings.
 */
#include <stdio.h>
#include <string.h>

#include "opensbi-ext/core/rvp_sbi_pmu.h"
#include "opensbi-ext/core/rvp_sbi_pmu_dt.h"
#include "qemu-model/core/harthw.h"
#include "qemu-model/core/hpmhw_map.h"
#include "rvperf/csr.h"
#include "rvperf/ctr.h"
#include "rvperf/sbi_pmu.h"
#include "tap.h"

/*
 * The hardware: one hart of the qemu-model counter model (with its CTR
 * model and predictor), M-mode CSR access returning -1 when it traps, and
 * U-mode execution: INSNS instructions (one cycle each), BRANCHES
 * conditional branches alternating not taken and taken at one address
 * (the predictor mispredicts some), CALLS direct calls.
 */
static struct harthw model;

static void model_reset(void)
{
	struct harthw_config cfg;

	harthw_config_default(&cfg, CTRHW_LAYOUT_RATIFIED);
	cfg.ctr.misp = true;
	memset(&model, 0, sizeof(model));
	harthw_init(&model, &cfg);
	harthw_set_mode(&model, HW_MODE_M);
}

static int model_csr_read(unsigned int csr, uint64_t *val)
{
	return harthw_csr_read(&model, csr, val) == HW_ACCESS_OK ? 0 : -1;
}

static int model_csr_write(unsigned int csr, uint64_t val)
{
	return harthw_csr_write(&model, csr, val) == HW_ACCESS_OK ? 0 : -1;
}

static void model_run_user(uint64_t insns, unsigned int branches,
			   unsigned int calls)
{
	uint64_t pc = 0x10000;
	unsigned int i;

	harthw_set_mode(&model, HW_MODE_U);
	harthw_retire(&model, insns);
	harthw_cycles(&model, insns);
	/* Branches alternate taken and not taken at one address: the
	 * predictor's bimodal counter mispredicts some of them. */
	for (i = 0; i < branches; i++)
		harthw_transfer_len(&model, i & 1 ? RVP_CTRDATA_TYPE_TAKEN_BRANCH
					: RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH,
				    pc, i & 1 ? pc - 0x40 : pc + 4, 4);
	for (i = 0; i < calls; i++)
		harthw_transfer_len(&model, RVP_CTRDATA_TYPE_DIRECT_CALL,
				    pc + 0x100, 0x20000, 4);
	harthw_set_mode(&model, HW_MODE_M);
}

static const uint32_t map_sel[] = HPMHW_MAP_EVENT_TO_MHPMEVENT;
static const uint32_t map_ctrs[] = HPMHW_MAP_EVENT_TO_MHPMCOUNTERS;
static const uint32_t map_raw[] = HPMHW_MAP_RAW_EVENT_TO_MHPMCOUNTERS;
static const size_t map_sel_cells = sizeof(map_sel) / sizeof(map_sel[0]);
static const size_t map_ctrs_cells = sizeof(map_ctrs) / sizeof(map_ctrs[0]);
static const size_t map_raw_cells = sizeof(map_raw) / sizeof(map_raw[0]);

static unsigned int model_event(const char *name)
{
	unsigned int e;

	for (e = 0; e < HPMHW_EVENT_COUNT; e++)
		if (strcmp(hpmhw_event_name(e), name) == 0)
			return e;
	return 0;
}

/* SBI cache event_idx of the branch predictor unit, read op (SBI PMU
 * chapter, "Hardware cache events"). */
#define BPU_READ(result)						\
	((1ULL << RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT) |			\
	 (RVP_SBI_PMU_HW_CACHE_BPU << RVP_SBI_PMU_CACHE_ID_SHIFT) |	\
	 (RVP_SBI_PMU_HW_CACHE_OP_READ << RVP_SBI_PMU_CACHE_OP_SHIFT) |	\
	 (result))

static uint64_t op_csr_read(void *ctx, unsigned int csr)
{
	uint64_t v = 0;

	(void)ctx;
	model_csr_read(csr, &v);
	return v;
}

static void op_csr_write(void *ctx, unsigned int csr, uint64_t val)
{
	(void)ctx;
	model_csr_write(csr, val);
}

static int op_csr_probe(void *ctx, unsigned int csr, uint64_t *val)
{
	(void)ctx;
	return model_csr_read(csr, val) == 0;
}

static const struct rvp_sbi_pmu_ops ops = {
	.csr_read = op_csr_read,
	.csr_write = op_csr_write,
	.csr_probe = op_csr_probe,
};

/* Cells as a flattened devicetree stores them: big-endian bytes. */
static int add_prop(struct rvp_sbi_pmu_maps *m, const char *name,
		    const uint32_t *cells, size_t n)
{
	unsigned char buf[256];
	size_t i;

	for (i = 0; i < n; i++) {
		buf[4 * i] = cells[i] >> 24;
		buf[4 * i + 1] = cells[i] >> 16;
		buf[4 * i + 2] = cells[i] >> 8;
		buf[4 * i + 3] = cells[i];
	}
	return rvp_sbi_pmu_dt_prop(m, name, buf, (uint32_t)(4 * n));
}

static struct rvp_sbi_pmu_maps maps;
static struct rvp_sbi_pmu_platform plat;
static struct rvp_sbi_pmu_hart hart;

static int setup(void)
{
	model_reset();
	memset(&plat, 0, sizeof(plat));
	plat.xlen = 64;	/* the core probes the hart itself */
	plat.maps = &maps;
	plat.num_fw_ctrs = 4;
	return rvp_sbi_pmu_hart_init(&hart, &plat, &ops, NULL);
}

/*
 * Configures EVENT_IDX/DATA through the SBI core (auto-start, cleared),
 * runs a known U-mode workload on the model with mhpmcounter31 counting
 * the model's REF_EVENT directly, and returns the SBI counter's value in
 * *got and the reference in *want.
 */
static int count_event(uint64_t event_idx, uint64_t event_data,
		       unsigned int ref_event, uint64_t *got, uint64_t *want)
{
	struct rvp_sbiret r;
	uint64_t csr;

	if (setup())
		return -1;
	model_csr_write(RVP_CSR_MHPMEVENT3 + 28, ref_event);
	model_csr_write(RVP_CSR_MHPMCOUNTER3 + 28, 0);
	r = rvp_sbi_pmu_counter_config_matching(&hart, 0, (1ULL << 28) - 1,
		RVP_SBI_PMU_CFG_FLAG_AUTO_START | RVP_SBI_PMU_CFG_FLAG_CLEAR_VALUE,
		event_idx, event_data);
	if (r.error)
		return -1;
	/* Only the reference outside the SBI core's view: mcountinhibit bit
	 * 31 cleared by hand. */
	model_csr_read(RVP_CSR_MCOUNTINHIBIT, &csr);
	model_csr_write(RVP_CSR_MCOUNTINHIBIT, csr & ~(1ULL << 31));
	model_run_user(1000, 40, 7);
	csr = RVP_CSR_MCYCLE + hart.hw_ctr[r.value];
	model_csr_read(csr, got);
	model_csr_read(RVP_CSR_MHPMCOUNTER3 + 28, want);
	return 0;
}

int main(void)
{
	const unsigned int EV_CYCLES = model_event("cycles"),
		EV_INSTRUCTIONS = model_event("instructions"),
		EV_BRANCHES = model_event("branches"),
		EV_MISPREDICTS = model_event("mispredicted-branches"),
		EV_CALLS = model_event("calls");
	const struct {
		const char *name;
		uint64_t idx;
		unsigned int ref;
	} general[] = {
		{ "HW_CPU_CYCLES", RVP_SBI_PMU_HW_CPU_CYCLES, EV_CYCLES },
		{ "HW_INSTRUCTIONS", RVP_SBI_PMU_HW_INSTRUCTIONS, EV_INSTRUCTIONS },
		{ "HW_BRANCH_INSTRUCTIONS", RVP_SBI_PMU_HW_BRANCH_INSTRUCTIONS, EV_BRANCHES },
		{ "HW_BRANCH_MISSES", RVP_SBI_PMU_HW_BRANCH_MISSES, EV_MISPREDICTS },
		{ "HW_REF_CPU_CYCLES", RVP_SBI_PMU_HW_REF_CPU_CYCLES, EV_CYCLES },
		{ "BPU read access", BPU_READ(RVP_SBI_PMU_HW_CACHE_RESULT_ACCESS), EV_BRANCHES },
		{ "BPU read miss", BPU_READ(RVP_SBI_PMU_HW_CACHE_RESULT_MISS), EV_MISPREDICTS },
	};
	uint64_t got = 0, want = 0;
	unsigned int i;
	int rc;

	tap_ok(EV_CYCLES && EV_INSTRUCTIONS && EV_BRANCHES && EV_MISPREDICTS &&
	       EV_CALLS, "the model names its events");
	tap_ok(add_prop(&maps, "riscv,event-to-mhpmevent", map_sel,
			map_sel_cells) == 0,
	       "riscv,event-to-mhpmevent parses (%zu entries)", map_sel_cells / 3);
	tap_ok(add_prop(&maps, "riscv,event-to-mhpmcounters", map_ctrs,
			map_ctrs_cells) == 0,
	       "riscv,event-to-mhpmcounters parses (%zu ranges)", map_ctrs_cells / 3);
	tap_ok(add_prop(&maps, "riscv,raw-event-to-mhpmcounters", map_raw,
			map_raw_cells) == 0,
	       "riscv,raw-event-to-mhpmcounters parses");
	rc = setup();
	if (!tap_ok(rc == 0 && (hart.hw.ctr_mask & 0xFFFFFFFDu) == 0xFFFFFFFDu,
		    "the SBI core finds the model's 31 counters (mask %#x)",
		    (unsigned int)hart.hw.ctr_mask))
		return tap_done();

	for (i = 0; i < sizeof(general) / sizeof(general[0]); i++) {
		rc = count_event(general[i].idx, 0, general[i].ref, &got, &want);

		tap_ok(rc == 0 && want > 0 && got == want,
		       "SBI %s counts the model's event %u (%llu, model %llu)",
		       general[i].name, general[i].ref,
		       (unsigned long long)got, (unsigned long long)want);
	}
	count_event(RVP_SBI_PMU_HW_INSTRUCTIONS, 0, EV_INSTRUCTIONS, &got, &want);
	tap_eq_u64(got, 1000, "instructions: exactly the 1000 the workload retired");
	count_event(RVP_SBI_PMU_HW_BRANCH_INSTRUCTIONS, 0, EV_BRANCHES, &got, &want);
	tap_eq_u64(got, 40, "branch instructions: exactly the 40 conditional branches (calls are not)");

	/* Raw events with the model's encodings: v1 (type 2) and v2 (3). */
	rc = count_event(2ULL << RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT, EV_CALLS,
			 EV_CALLS, &got, &want);
	tap_ok(rc == 0 && got == 7 && want == 7,
	       "raw event (type 2) 0x%x counts the 7 calls (%llu)", EV_CALLS,
	       (unsigned long long)got);
	rc = count_event(3ULL << RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT, EV_BRANCHES,
			 EV_BRANCHES, &got, &want);
	tap_ok(rc == 0 && got == 40,
	       "raw event v2 (type 3) 0x%x counts the 40 branches (%llu)",
	       EV_BRANCHES, (unsigned long long)got);
	tap_ok(count_event(2ULL << RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT, 0x10,
			   EV_BRANCHES, &got, &want) != 0,
	       "a raw selector outside the model's encodings finds no counter");
	tap_ok(count_event(RVP_SBI_PMU_HW_CACHE_MISSES, 0, EV_BRANCHES, &got,
			   &want) != 0,
	       "an SBI event the map does not name finds no counter");
	return tap_done();
}
