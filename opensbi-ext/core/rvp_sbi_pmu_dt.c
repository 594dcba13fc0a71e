// SPDX-License-Identifier: BSD-2-Clause
/*
 * rvp_sbi_pmu_dt.c - riscv,pmu map properties into struct rvp_sbi_pmu_maps,
 * freestanding (no libfdt: the host hands the property bytes over).
 */
#include "rvp_sbi_pmu_dt.h"

#define TIME_CTR	(1U << 1)	/* the time CSR is not a PMU counter */

static uint32_t cell(const uint8_t *p, uint32_t i)
{
	p += 4 * i;
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static int same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static int ctr_map_ok(uint32_t map)
{
	return map && !(map & TIME_CTR);
}

int rvp_sbi_pmu_dt_prop(struct rvp_sbi_pmu_maps *m, const char *name,
			const void *val, uint32_t len)
{
	const uint8_t *p = val;
	uint32_t i, n, tuple;

	if (same(name, "riscv,event-to-mhpmevent"))
		tuple = 3;
	else if (same(name, "riscv,event-to-mhpmcounters"))
		tuple = 3;
	else if (same(name, "riscv,raw-event-to-mhpmcounters"))
		tuple = 5;
	else
		return RVP_SBI_ERR_INVALID_PARAM;
	if (len % (4 * tuple))
		return RVP_SBI_ERR_INVALID_PARAM;
	n = len / (4 * tuple);

	/* Check every tuple before adding any: no half-applied property. */
	for (i = 0; i < n; i++) {
		const uint8_t *t = p + 4 * tuple * i;

		if (tuple == 5) {
			if (!ctr_map_ok(cell(t, 4)))
				return RVP_SBI_ERR_INVALID_PARAM;
		} else if (same(name, "riscv,event-to-mhpmevent")) {
			if (!cell(t, 0) ||
			    cell(t, 0) > RVP_SBI_PMU_EVENT_IDX_MASK)
				return RVP_SBI_ERR_INVALID_PARAM;
		} else {
			if (!cell(t, 0) ||
			    cell(t, 1) > RVP_SBI_PMU_EVENT_IDX_MASK ||
			    cell(t, 0) > cell(t, 1) || !ctr_map_ok(cell(t, 2)))
				return RVP_SBI_ERR_INVALID_PARAM;
		}
	}
	if (tuple == 5 ? n > RVP_SBI_PMU_MAX_MAP - m->nr_raw :
	    same(name, "riscv,event-to-mhpmevent") ?
	    n > RVP_SBI_PMU_MAX_MAP - m->nr_sel : n > RVP_SBI_PMU_MAX_MAP - m->nr_ctrs)
		return RVP_SBI_ERR_NOT_SUPPORTED;

	for (i = 0; i < n; i++) {
		const uint8_t *t = p + 4 * tuple * i;

		if (tuple == 5) {
			struct rvp_sbi_pmu_raw_ctrs *r = &m->raw[m->nr_raw++];

			r->select = ((uint64_t)cell(t, 0) << 32) | cell(t, 1);
			r->mask = ((uint64_t)cell(t, 2) << 32) | cell(t, 3);
			r->ctr_map = cell(t, 4);
		} else if (same(name, "riscv,event-to-mhpmevent")) {
			struct rvp_sbi_pmu_evt_sel *s = &m->sel[m->nr_sel++];

			s->event_idx = cell(t, 0);
			s->select = ((uint64_t)cell(t, 1) << 32) | cell(t, 2);
		} else {
			struct rvp_sbi_pmu_evt_ctrs *c = &m->ctrs[m->nr_ctrs++];

			c->first = cell(t, 0);
			c->last = cell(t, 1);
			c->ctr_map = cell(t, 2);
		}
	}
	return 0;
}
