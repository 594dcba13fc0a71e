/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hardware-free part of rvperf's CTR branch-stack support: perf branch
 * filters to CTR transfer types and control bits, CTR TYPE to PERF_BR_*,
 * cycle-count decoding and the per-event software filter with its
 * privilege sanitiser.  Both CSR layouts are handled at run time so the
 * KUnit suites cover each whatever layout the kernel was built for.
 */
#ifndef RVPERF_CTR_LOGIC_H
#define RVPERF_CTR_LOGIC_H

#include <linux/perf_event.h>
#include <linux/types.h>

enum rvctr_layout {
	RVCTR_LAYOUT_V1,	/* ratified v1.0: sctrctl, sctrdepth */
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	RVCTR_LAYOUT_DRAFT,	/* v0.1.4 draft: sctrcontrol with DEPTH */
#endif
};

#ifndef PERF_BR_RISCV_EXCEPTION
/*
 * RISC-V names of perf's architecture-specific branch types, as the
 * upstream series adds them to <uapi/linux/perf_event.h>; kernels without
 * them get the same values here.
 */
#define PERF_BR_RISCV_EXCEPTION		PERF_BR_NEW_ARCH_1
#define PERF_BR_RISCV_NOT_TAKEN		PERF_BR_NEW_ARCH_2
#define PERF_BR_RISCV_COROUTINE_SWAP	PERF_BR_NEW_ARCH_3
#endif

/* The deepest CTR buffer (sctrdepth 4). */
#define RVCTR_MAX_DEPTH		256

#ifdef RVPERF_CTR_DEPTH_KNOBS
/* Reported depth cap for older perf tools that drop deeper stacks. */
#define RVCTR_DEPTH_CAP		127
#endif

/* A privilege level a branch event records (bit set = recorded). */
#define RVCTR_PRIV_USER		BIT(0)
#define RVCTR_PRIV_KERNEL	BIT(1)

/* What one branch event asked for, derived once at event_init. */
struct rvctr_filter {
	u32 types;		/* BIT(CTR TYPE) of the transfers wanted */
	u32 priv;		/* RVCTR_PRIV_* */
	u64 branch_sample_type;	/* the event's flags (TYPE_SAVE, ...) */
	bool faults;		/* exceptions other than ecall (ANY only) */
	bool misp;		/* the hart implements ctrtarget.MISP */
	unsigned long kernel_start; /* lowest kernel address */
};

/*
 * One raw CTR entry as read through sireg, sireg2, sireg3, and whether an
 * exception record's source instruction is ecall (the reader looks).
 */
struct rvctr_record {
	u64 source;
	u64 target;
	u64 data;
	bool syscall;		/* an exception raised by ecall */
};

/*
 * A call-stack task's records while it is switched out: the @nr newest
 * entries (the first invalid one ends them), for a hart of @depth entries.
 * @valid is set by a save and cleared by the restore that consumes it.
 */
struct rvctr_task_ctx {
	bool valid;
	unsigned int depth;
	unsigned int nr;
	struct rvctr_record rec[RVCTR_MAX_DEPTH];
};

/* The hart's buffer, as the save/restore logic sees it (KUnit fakes it). */
struct rvctr_stack_ops {
	void (*read)(void *arg, unsigned int i, struct rvctr_record *rec);
	void (*write)(void *arg, unsigned int i, const struct rvctr_record *rec);
	void (*clear)(void *arg);
};

int rvctr_filter_init(struct rvctr_filter *f, u64 branch_sample_type,
		      unsigned long kernel_start);
u64 rvctr_ctl_bits(enum rvctr_layout layout, u32 types, u32 priv,
		   bool call_stack, u64 impl);
u64 rvctr_probe_ctl(enum rvctr_layout layout,
		    u64 (*write_read)(void *arg, u64 val), void *arg);
bool rvctr_impl_allows(enum rvctr_layout layout, u64 impl, u64 bst);
void rvctr_type_to_perf(unsigned int ctr_type, bool syscall, u8 *type,
			u8 *new_type);
u16 rvctr_decode_cycles(u64 data);
unsigned int rvctr_depth_decode(enum rvctr_layout layout, u64 csr);
#ifdef RVPERF_CTR_DEPTH_KNOBS
unsigned int rvctr_depth_report(unsigned int depth, bool cap);
#endif
bool rvctr_record_to_entry(const struct rvctr_filter *f,
			   const struct rvctr_record *rec,
			   struct perf_branch_entry *e);
unsigned int rvctr_build_stack(const struct rvctr_filter *f,
			       const struct rvctr_record *raw,
			       unsigned int nr_raw, unsigned int max,
			       u64 hw_idx, struct perf_branch_entry *entries,
			       u64 *hw_idx_out);
void rvctr_stack_save(struct rvctr_task_ctx *t, unsigned int depth,
		      const struct rvctr_stack_ops *ops, void *arg);
void rvctr_stack_restore(struct rvctr_task_ctx *t, unsigned int depth,
			 bool untouched, const struct rvctr_stack_ops *ops,
			 void *arg);

#endif /* RVPERF_CTR_LOGIC_H */
