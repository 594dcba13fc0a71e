/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvp_sbi_pmu_csr.h - counter CSRs by counter number N, from the numbering the
 * privileged spec gives them (mhpmcounterN = mcycle + N, mhpmeventN =
 * mcountinhibit + N, ...).  The CSR numbers themselves come from
 * include/rvperf/csr.h only.
 */
#ifndef RVPERF_OPENSBI_EXT_RVP_SBI_PMU_CSR_H
#define RVPERF_OPENSBI_EXT_RVP_SBI_PMU_CSR_H

#include <rvperf/csr.h>

/* mcycle (N = 0), minstret (2), mhpmcounterN (3..31) and RV32 high halves. */
#define RVP_SBI_PMU_CSR_MCOUNTER(n)		(RVP_CSR_MCYCLE + (n))
#define RVP_SBI_PMU_CSR_MCOUNTERH(n)	(RVP_CSR_MCYCLEH + (n))
/* cycle, instret, hpmcounterN: what counter_get_info reports. */
#define RVP_SBI_PMU_CSR_UCOUNTER(n)		(RVP_CSR_CYCLE + (n))
/* mhpmeventN (3..31) and, RV32 with Sscofpmf, mhpmeventNh. */
#define RVP_SBI_PMU_CSR_MHPMEVENT(n)	(RVP_CSR_MHPMEVENT3 - 3 + (n))
#define RVP_SBI_PMU_CSR_MHPMEVENTH(n)	(RVP_CSR_MHPMEVENT3H - 3 + (n))

#endif /* RVPERF_OPENSBI_EXT_RVP_SBI_PMU_CSR_H */
