/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rvperf CTR branch stacks, hardware side: what the SBI PMU driver calls.
 * The counter driver owns the overflow interrupt and the event life cycle;
 * this part owns the CTR CSRs, the per-cpu set of branch events and the
 * per-task call-stack state.
 */
#ifndef RVPERF_CTR_H
#define RVPERF_CTR_H

#include <linux/perf_event.h>
#include <linux/types.h>

int rvctr_probe(struct pmu *pmu);
void rvctr_remove(struct pmu *pmu);
unsigned int rvctr_depth(void);
#ifdef RVPERF_CTR_DEPTH_KNOBS
unsigned int rvctr_cpu_depth(void);
#endif
void rvctr_cpu_online(void);
void rvctr_cpu_offline(void);
void rvctr_cpu_pm_exit(void);

int rvctr_event_init(struct perf_event *event);
int rvctr_event_add(struct perf_event *event);
void rvctr_event_del(struct perf_event *event);
/*
 * pmu::sched_task() gained a task argument in Linux 6.15 (and some stable
 * trees); the Makefile asks the headers which one this kernel has.
 */
#ifdef RVPERF_SCHED_TASK_HAS_TASK
void rvctr_sched_task(struct perf_event_pmu_context *pmu_ctx,
		      struct task_struct *task, bool sched_in);
#else
void rvctr_sched_task(struct perf_event_pmu_context *pmu_ctx, bool sched_in);
#endif

bool rvctr_irq_begin(void);
void rvctr_irq_sample(struct perf_event *event, struct perf_sample_data *data);
void rvctr_irq_end(void);
void rvctr_irq_none(void);

#endif /* RVPERF_CTR_H */
