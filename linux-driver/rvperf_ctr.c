// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvperf CTR branch stacks: the hardware side.
 *
 * Control Transfer Records (Smctr/Ssctr) keep the last 16 to 256 control
 * transfers of the hart in a circular buffer read through the indirect CSR
 * interface (siselect 0x200 + N, sireg/sireg2/sireg3; logical entry 0 is
 * the newest).  The hardware is programmed with the union of the active
 * branch events of the cpu; rvperf_ctr_logic.c filters the records again
 * for each event.
 *
 * Recording freezes when a counter overflow interrupt is pended
 * (LCOFIFRZ), so the overflow handler reads the records once, with
 * interrupts off, gives each overflowed branch event its own filtered
 * copy and unfreezes once at the end.  Records are cleared when a task is
 * scheduled in, so no task sees another's transfers; call-stack events
 * (RAS emulation) instead save the stack with the task and restore it.
 */

#define pr_fmt(fmt) "rvperf-ctr: " fmt

#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <linux/log2.h>
#include <linux/of.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/uaccess.h>

#include <asm/asm-extable.h>
#include <asm/cpufeature.h>
#include <asm/csr.h>

#include "rvperf_ctr.h"
#include "rvperf_ctr_logic.h"
#include "rvperf_ctr_regs.h"

#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
#define RVCTR_LAYOUT		RVCTR_LAYOUT_DRAFT
#define RVCTR_LAYOUT_NAME	"v0.1.4 draft"
#define RVCTR_CSR_CTL		RVP_CTR_DRAFT_CSR_SCTRCONTROL
#define RVCTR_CSR_STATUS	RVP_CTR_DRAFT_CSR_SCTRSTATUS
#define RVCTR_STATUS_FROZEN	RVP_CTR_DRAFT_MCTRSTATUS_FROZEN
#else
#define RVCTR_LAYOUT		RVCTR_LAYOUT_V1
#define RVCTR_LAYOUT_NAME	"v1.0"
#define RVCTR_CSR_CTL		CSR_SCTRCTL
#define RVCTR_CSR_STATUS	CSR_SCTRSTATUS
#define RVCTR_CSR_DEPTH		CSR_SCTRDEPTH
#define RVCTR_STATUS_FROZEN	RVP_CTR_V1_SCTRSTATUS_FROZEN
#endif

#define RVCTR_MAX_EVENTS	64
#define RVCTR_STATUS_WRPTR	GENMASK(7, 0)
#define RVCTR_INSN_ECALL	0x00000073

#ifdef RVPERF_CTR_DEPTH_KNOBS
/*
 * rvperf's own driver only (its Makefile defines RVPERF_CTR_DEPTH_KNOBS):
 * a depth below the hart's, for measurements, and a cap for perf tools that
 * drop deeper stacks.  The upstream series has neither: a hart keeps the
 * most entries it has.
 */
#include <linux/moduleparam.h>

static unsigned int ctr_depth;
module_param(ctr_depth, uint, 0644);
MODULE_PARM_DESC(ctr_depth,
		 "CTR entries to keep: 16, 32, 64, 128 or 256 (0: the most the hart has); a cpu takes a new value when it next has no branch events");

static bool ctr_depth_cap = IS_ENABLED(CONFIG_RVPERF_CTR_DEPTH_CAP);
module_param(ctr_depth_cap, bool, 0444);
MODULE_PARM_DESC(ctr_depth_cap,
		 "Report at most 127 entries per sample (older perf tools drop deeper stacks)");
#endif

/* What one cpu records for and has read in the current interrupt. */
struct rvctr_cpu {
	struct perf_event *events[RVCTR_MAX_EVENTS];
	unsigned int depth;	/* entries this hart keeps */
#ifdef RVPERF_CTR_DEPTH_KNOBS
	unsigned int want;	/* the ctr_depth that gave it */
#endif
	unsigned int users;	/* active branch events */
	unsigned int cs_users;	/* of which call-stack (RAS emulation) */
	/* a call-stack task whose records the frozen buffer still holds */
	struct rvctr_task_ctx *frozen_for;
	bool read;		/* raw[] holds this interrupt's records */
	unsigned int nr_raw;	/* how many are valid */
	u64 hw_idx;		/* hardware index of the newest record */
	struct rvctr_record raw[RVCTR_MAX_DEPTH];
	/* one sample's entries, rebuilt for each overflowed event */
	struct perf_branch_stack stack;
	struct perf_branch_entry entries[RVCTR_MAX_DEPTH];
};

static struct {
	bool present;
	unsigned int depth;		/* the fewest entries a hart keeps */
	u64 impl;			/* control bits the boot hart implements */
	bool misp;			/* it implements ctrtarget.MISP */
	struct rvctr_cpu __percpu *cpus;
	struct kmem_cache *task_cache;
} rvctr;

/* ------------------------------------------------------- CSR access */

/*
 * Reads or writes a CSR that may not exist (no Ssctr, or firmware left
 * mstateen0.CTR / CSRIND clear): the illegal-instruction trap is fixed up
 * and the access reports -EOPNOTSUPP.
 */
#define rvctr_csr_read_safe(csr, val)					\
({									\
	unsigned long __v = 0;						\
	int __err = -EOPNOTSUPP;					\
	asm volatile("1:	csrr	%0, " __stringify(csr) "\n"	\
		     "	li	%1, 0\n"				\
		     "2:\n"						\
		     _ASM_EXTABLE(1b, 2b)				\
		     : "+r" (__v), "+r" (__err) : : "memory");		\
	*(val) = __v;							\
	__err;								\
})

#define rvctr_csr_write_safe(csr, val)					\
({									\
	unsigned long __v = (val);					\
	int __err = -EOPNOTSUPP;					\
	asm volatile("1:	csrw	" __stringify(csr) ", %1\n"	\
		     "	li	%0, 0\n"				\
		     "2:\n"						\
		     _ASM_EXTABLE(1b, 2b)				\
		     : "+r" (__err) : "r" (__v) : "memory");		\
	__err;								\
})

static void rvctr_freeze(void)
{
	csr_set(RVCTR_CSR_STATUS, RVCTR_STATUS_FROZEN);
}

static void rvctr_unfreeze(void)
{
	this_cpu_ptr(rvctr.cpus)->frozen_for = NULL;
	csr_clear(RVCTR_CSR_STATUS, RVCTR_STATUS_FROZEN);
}

#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
/* The draft's DEPTH for @depth entries: a thermometer code in the CTL. */
static unsigned long rvctr_draft_depth_bits(unsigned int depth)
{
	return depth ? ((1UL << ilog2(depth / 16)) - 1) <<
		       RVP_CTR_DRAFT_MCTRCONTROL_DEPTH_SHIFT : 0;
}
#endif

static void rvctr_write_ctl(struct rvctr_cpu *c, u64 ctl)
{
	ctl &= rvctr.impl;
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	ctl |= rvctr_draft_depth_bits(c->depth);
#endif
	csr_write(RVCTR_CSR_CTL, (unsigned long)ctl);
}

/* Empties the buffer; the write pointer and FROZEN start again from 0. */
static void rvctr_clear(void)
{
	if (rvctr.cpus)
		this_cpu_ptr(rvctr.cpus)->frozen_for = NULL;
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	csr_set(RVCTR_CSR_CTL, RVP_CTR_DRAFT_MCTRCONTROL_CLR);
#else
	/* SCTRCLR: no assembler we build with knows its mnemonic. */
	asm volatile(".4byte " __stringify(RVP_CTR_V1_SCTRCLR_INSN) : : : "memory");
#endif
	csr_write(RVCTR_CSR_STATUS, 0);
}

/* Logical entry @i (0: the newest); siselect is the caller's to restore. */
static void rvctr_read_entry(unsigned int i, struct rvctr_record *rec)
{
	csr_write(CSR_SISELECT, RVP_CTR_ISELECT_FIRST + i);
	rec->source = csr_read(CSR_SIREG);
	rec->target = csr_read(CSR_SIREG2);
	rec->data = csr_read(CSR_SIREG3);
	rec->syscall = false;
}

static void rvctr_write_entry(unsigned int i, const struct rvctr_record *rec)
{
	csr_write(CSR_SISELECT, RVP_CTR_ISELECT_FIRST + i);
	csr_write(CSR_SIREG, rec->source);
	csr_write(CSR_SIREG2, rec->target);
	csr_write(CSR_SIREG3, rec->data);
}

/* Asks the hart for @depth entries: whether it keeps that many now. */
static bool rvctr_try_depth(unsigned int depth)
{
#ifdef CONFIG_RVPERF_CTR_LAYOUT_DRAFT
	csr_write(RVCTR_CSR_CTL, rvctr_draft_depth_bits(depth));
	return rvctr_depth_decode(RVCTR_LAYOUT, csr_read(RVCTR_CSR_CTL)) == depth;
#else
	csr_write(RVCTR_CSR_DEPTH, ilog2(depth / 16));
	return rvctr_depth_decode(RVCTR_LAYOUT, csr_read(RVCTR_CSR_DEPTH)) == depth;
#endif
}

/*
 * Sets the hart's depth to the largest supported one not above @want (0:
 * no limit) and returns it, in entries; 0 when no encoding sticks.
 */
static unsigned int rvctr_set_depth(unsigned int want)
{
	unsigned int depth;

	for (depth = RVCTR_MAX_DEPTH; depth >= 16; depth /= 2)
		if ((!want || depth <= want) && rvctr_try_depth(depth))
			return depth;
	return 0;
}

/* ---------------------------------------------------------- detection */

#ifdef RISCV_ISA_EXT_SSCTR
/*
 * The cpufeature code found Ssctr (or Smctr, which includes it) with
 * Sscsrind, for sireg2/3, on every hart.
 */
static bool rvctr_isa_present(void)
{
	return riscv_isa_extension_available(NULL, SSCTR);
}
#else
/* Whether an ISA string ("rv64imac_ssctr_...") names @ext. */
static bool rvctr_isa_has(const char *isa, const char *ext)
{
	size_t len = strlen(ext);
	const char *p = strchr(isa, '_');

	while (p) {
		p++;
		if (!strncasecmp(p, ext, len) && (p[len] == '_' || !p[len]))
			return true;
		p = strchr(p, '_');
	}
	return false;
}

static bool rvctr_node_has(struct device_node *np, const char *ext)
{
	const char *isa;

	if (of_property_match_string(np, "riscv,isa-extensions", ext) >= 0)
		return true;
	return !of_property_read_string(np, "riscv,isa", &isa) &&
	       rvctr_isa_has(isa, ext);
}

/*
 * Every hart the devicetree describes must name Ssctr (or Smctr, which
 * includes it) and Sscsrind (or Smcsrind) for sireg2/3.  Without a
 * devicetree (ACPI) only the CSR probe decides.
 */
static bool rvctr_isa_present(void)
{
	struct device_node *np;
	bool any = false;

	if (!of_have_populated_dt())
		return true;
	for_each_of_cpu_node(np) {
		if (!of_device_is_available(np))
			continue;
		if ((!rvctr_node_has(np, "ssctr") && !rvctr_node_has(np, "smctr")) ||
		    (!rvctr_node_has(np, "sscsrind") &&
		     !rvctr_node_has(np, "smcsrind"))) {
			of_node_put(np);
			return false;
		}
		any = true;
	}
	return any;
}
#endif

static u64 rvctr_ctl_write_read(void *arg, u64 val)
{
	csr_write(RVCTR_CSR_CTL, (unsigned long)val);
	return csr_read(RVCTR_CSR_CTL);
}

/*
 * ctrtarget.MISP is optional too: write it in the newest entry with
 * recording off, read it back, and clear the buffer again.
 */
static bool rvctr_probe_misp(void)
{
	unsigned long sel = csr_read(CSR_SISELECT);
	bool misp;

	csr_write(CSR_SISELECT, RVP_CTR_ISELECT_FIRST);
	csr_write(CSR_SIREG2, RVP_CTRTARGET_MISP);
	misp = csr_read(CSR_SIREG2) & RVP_CTRTARGET_MISP;
	csr_write(CSR_SISELECT, sel);
	rvctr_clear();
	return misp;
}

/* The CSRs answer on this hart: the control, siselect and sireg3. */
static int rvctr_csr_probe(void)
{
	unsigned long val, old;
	int ret;

	ret = rvctr_csr_read_safe(RVCTR_CSR_CTL, &val);
	if (ret)
		return ret;
	ret = rvctr_csr_read_safe(CSR_SISELECT, &old);
	if (ret)
		return ret;
	ret = rvctr_csr_write_safe(CSR_SISELECT, RVP_CTR_ISELECT_FIRST);
	if (!ret)
		ret = rvctr_csr_read_safe(CSR_SIREG3, &val);
	csr_write(CSR_SISELECT, old);
	return ret;
}

/**
 * rvctr_probe() - find CTR and set up branch stacks for @pmu
 * @pmu: the PMU whose sched_task and task_ctx_cache are filled in
 *
 * Return: 0 with CTR usable, else a negative errno (branch stacks then
 * stay refused).
 */
int rvctr_probe(struct pmu *pmu)
{
	int ret;

	if (!rvctr_isa_present())
		return -ENODEV;

	preempt_disable();
	ret = rvctr_csr_probe();
	if (!ret) {
		/* Everything but S and U is optional: see what sticks. */
		rvctr.impl = rvctr_probe_ctl(RVCTR_LAYOUT,
					     rvctr_ctl_write_read, NULL);
		csr_write(RVCTR_CSR_CTL, 0);
		rvctr.depth = rvctr_set_depth(0);
		if (!rvctr.depth || !rvctr.impl)
			ret = -EIO;
		else
			rvctr.misp = rvctr_probe_misp();
	}
	preempt_enable();
	if (ret) {
		pr_warn("the devicetree names CTR but its CSRs do not answer (%d): firmware may not enable it in mstateen0\n",
			ret);
		return ret;
	}
	rvctr.cpus = alloc_percpu(struct rvctr_cpu);
	if (!rvctr.cpus)
		return -ENOMEM;
	rvctr.task_cache = kmem_cache_create("rvperf_ctr_task",
					     sizeof(struct rvctr_task_ctx),
					     0, 0, NULL);
	if (!rvctr.task_cache) {
		free_percpu(rvctr.cpus);
		rvctr.cpus = NULL;
		return -ENOMEM;
	}
	pmu->sched_task = rvctr_sched_task;
	pmu->task_ctx_cache = rvctr.task_cache;
	rvctr.present = true;
#ifdef RVPERF_CTR_DEPTH_KNOBS
	pr_info("CTR (%s layout): %u entries, %u per sample, control bits %#llx, MISP %s\n",
		RVCTR_LAYOUT_NAME, rvctr.depth,
		rvctr_depth_report(rvctr.depth, ctr_depth_cap), rvctr.impl,
		rvctr.misp ? "yes" : "no");
#else
	pr_info("CTR (%s layout): %u entries, control bits %#llx, MISP %s\n",
		RVCTR_LAYOUT_NAME, rvctr.depth, rvctr.impl,
		rvctr.misp ? "yes" : "no");
#endif
	return 0;
}

void rvctr_remove(struct pmu *pmu)
{
	if (!rvctr.present)
		return;
	rvctr.present = false;
	pmu->sched_task = NULL;
	pmu->task_ctx_cache = NULL;
	kmem_cache_destroy(rvctr.task_cache);
	free_percpu(rvctr.cpus);
}

/**
 * rvctr_depth() - entries every hart keeps
 *
 * The smallest depth of the harts that came online, so that the number is
 * the same whichever cpu asks, and no sample carries more.
 *
 * Return: the depth, 0 without CTR.
 */
unsigned int rvctr_depth(void)
{
	return rvctr.present ? READ_ONCE(rvctr.depth) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(rvctr_depth);

#ifdef RVPERF_CTR_DEPTH_KNOBS
/* The depth of the cpu this runs on (ctr_depth's), 0 without CTR. */
unsigned int rvctr_cpu_depth(void)
{
	unsigned int depth;

	if (!rvctr.present)
		return 0;
	depth = get_cpu_ptr(rvctr.cpus)->depth;
	put_cpu_ptr(rvctr.cpus);
	/*
	 * 0 until the hotplug callback set this cpu up, which may come after
	 * the PMU registered: then what probe found on the boot hart.
	 */
	return depth ? depth : rvctr.depth;
}
#endif

/* Sets this hart's depth; it records nothing at the moment. */
static void rvctr_apply_depth(struct rvctr_cpu *c)
{
	csr_write(RVCTR_CSR_CTL, 0);
#ifdef RVPERF_CTR_DEPTH_KNOBS
	c->want = READ_ONCE(ctr_depth);
	c->depth = rvctr_set_depth(c->want);
#else
	c->depth = rvctr_set_depth(0);	/* the most the hart has */
#endif
	rvctr_clear();
}

/* A hart comes up: nothing recorded, its depth, empty. */
void rvctr_cpu_online(void)
{
	struct rvctr_cpu *c;
	unsigned int common;

	if (!rvctr.present)
		return;
	c = this_cpu_ptr(rvctr.cpus);
	rvctr_apply_depth(c);
#ifdef RVPERF_CTR_DEPTH_KNOBS
	if (c->want)
		return;		/* ctr_depth's depth, not the hart's */
#endif
	/* A hart with fewer entries lowers what every cpu reports. */
	common = READ_ONCE(rvctr.depth);
	while (c->depth && c->depth < common &&
	       !try_cmpxchg(&rvctr.depth, &common, c->depth))
		;
	if (c->depth != common)
		pr_warn_once("cpu%d keeps %u entries, not %u: every cpu reports %u\n",
			     smp_processor_id(), c->depth, common,
			     rvctr_depth());
}

void rvctr_cpu_offline(void)
{
	if (rvctr.present)
		rvctr_write_ctl(this_cpu_ptr(rvctr.cpus), 0);
}

/* -------------------------------------------------------------- events */

static unsigned long rvctr_kernel_start(void)
{
	/* Anything above user space counts as kernel: never leak it. */
	return TASK_SIZE;
}

static bool rvctr_is_call_stack(struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;
}

/**
 * rvctr_event_init() - accept or refuse a branch-stack event
 * @event: an event with has_branch_stack()
 *
 * Return: 0, or -EOPNOTSUPP without CTR, for counting events and for
 * branch filters CTR cannot honour.
 */
int rvctr_event_init(struct perf_event *event)
{
	struct rvctr_filter f;
	int ret;

	if (!rvctr.present || !is_sampling_event(event))
		return -EOPNOTSUPP;
	ret = rvctr_filter_init(&f, event->attr.branch_sample_type,
				rvctr_kernel_start());
	if (ret)
		return ret;
	if (!rvctr_impl_allows(RVCTR_LAYOUT, rvctr.impl,
			       event->attr.branch_sample_type))
		return -EOPNOTSUPP;
	/* A task's call stack goes with the task: perf allocates its room. */
	if (rvctr_is_call_stack(event) &&
	    (event->attach_state & PERF_ATTACH_TASK))
		event->attach_state |= PERF_ATTACH_TASK_DATA;
	return 0;
}

#ifdef RVPERF_HAS_PERF_CTX_DATA
/*
 * The call-stack save area perf keeps for @task (Linux 6.15 on: in the
 * task, allocated from pmu::task_ctx_cache); the caller holds the RCU read
 * lock or has interrupts off.
 */
static struct rvctr_task_ctx *rvctr_task_data(struct task_struct *task)
{
	struct perf_ctx_data *cd;

	if (!task)
		return NULL;
	cd = rcu_dereference_sched(task->perf_ctx_data);
	return cd ? cd->data : NULL;
}

/* The call-stack save area perf keeps for @event's task, if any. */
static struct rvctr_task_ctx *rvctr_event_task_ctx(struct perf_event *event)
{
	return rvctr_task_data(event->hw.target);
}

/* The save area of the task switched in or out. */
static struct rvctr_task_ctx *
rvctr_switch_task_ctx(struct perf_event_pmu_context *pmu_ctx,
		      struct task_struct *task)
{
	return rvctr_task_data(task);
}
#else
/* The call-stack save area perf keeps for @event's task, if any. */
static struct rvctr_task_ctx *rvctr_event_task_ctx(struct perf_event *event)
{
	return event->pmu_ctx ? event->pmu_ctx->task_ctx_data : NULL;
}

/* Before 6.15 the save area is in the task's perf context. */
static struct rvctr_task_ctx *
rvctr_switch_task_ctx(struct perf_event_pmu_context *pmu_ctx,
		      struct task_struct *task)
{
	return pmu_ctx ? pmu_ctx->task_ctx_data : NULL;
}
#endif

/* Programs the union of the cpu's branch events (0 when none). */
static void rvctr_program(struct rvctr_cpu *c)
{
	struct rvctr_filter f;
	u32 types = 0, priv = 0;
	unsigned int i;

	if (!c->users) {
		rvctr_write_ctl(c, 0);
		return;
	}
	for (i = 0; i < RVCTR_MAX_EVENTS; i++) {
		if (!c->events[i] ||
		    rvctr_filter_init(&f, c->events[i]->attr.branch_sample_type,
				      rvctr_kernel_start()))
			continue;
		types |= f.types;
		priv |= f.priv;
	}
	rvctr_write_ctl(c, rvctr_ctl_bits(RVCTR_LAYOUT, types, priv,
					  c->cs_users == c->users, rvctr.impl));
}

/**
 * rvctr_event_add() - a branch event starts using this cpu's CTR
 * @event: the event, already on a counter
 *
 * RAS emulation changes what the buffer means, so call-stack events and
 * other branch events do not share a cpu; perf multiplexes them.
 *
 * Return: 0, or -EBUSY.
 */
int rvctr_event_add(struct perf_event *event)
{
	struct rvctr_cpu *c = this_cpu_ptr(rvctr.cpus);
	bool cs = rvctr_is_call_stack(event);
	unsigned int i;

	if (c->users && (cs ? c->cs_users != c->users : c->cs_users))
		return -EBUSY;
	for (i = 0; i < RVCTR_MAX_EVENTS && c->events[i]; i++)
		;
	if (i == RVCTR_MAX_EVENTS)
		return -EBUSY;
#ifdef RVPERF_CTR_DEPTH_KNOBS
	/* A new ctr_depth takes effect while nothing records. */
	if (!c->users && READ_ONCE(ctr_depth) != c->want)
		rvctr_apply_depth(c);
#endif
	c->events[i] = event;
	c->cs_users += cs;
	perf_sched_cb_inc(event->pmu);
	/*
	 * The first event on the cpu starts empty, also one that has run
	 * before: the buffer holds what was recorded for whoever had branch
	 * events last, and an ioctl(ENABLE) mid-timeslice is followed by no
	 * sched_task() that would clear it.  The exception is a call-stack
	 * task whose own saved records the frozen buffer still holds: the
	 * sched_task() of its switch in restores them without a copy (an
	 * ioctl(ENABLE) leaves them frozen until the next interrupt).
	 */
	if (!c->users++ &&
	    (!c->frozen_for || c->frozen_for != rvctr_event_task_ctx(event)))
		rvctr_clear();
	rvctr_program(c);
	return 0;
}

void rvctr_event_del(struct perf_event *event)
{
	struct rvctr_cpu *c = this_cpu_ptr(rvctr.cpus);
	unsigned int i;

	for (i = 0; i < RVCTR_MAX_EVENTS; i++)
		if (c->events[i] == event)
			break;
	if (WARN_ON_ONCE(i == RVCTR_MAX_EVENTS))
		return;
	c->events[i] = NULL;
	c->users--;
	c->cs_users -= rvctr_is_call_stack(event);
	perf_sched_cb_dec(event->pmu);
	rvctr_program(c);
}

/**
 * rvctr_cpu_pm_exit() - the hart is back from a low-power state
 *
 * A state that loses the hart's context (non-retentive idle, suspend to
 * RAM) leaves sctrctl, sctrdepth and the records UNSPECIFIED, and firmware
 * is not bound to keep them for S-mode.  Put the depth and the control bits
 * of the cpu's branch events back; records from before may be gone or
 * garbage, so the buffer starts empty (a sample right after the exit has a
 * short stack rather than a wrong one).
 */
void rvctr_cpu_pm_exit(void)
{
	struct rvctr_cpu *c;

	if (!rvctr.present)
		return;
	c = this_cpu_ptr(rvctr.cpus);
	if (!c->depth)
		return;
	csr_write(RVCTR_CSR_CTL, 0);
	/* The depth the hart had: the largest supported one not above it. */
	rvctr_set_depth(c->depth);
	rvctr_clear();
	rvctr_program(c);
}

/* ------------------------------------------------- context switches */

static void rvctr_ops_read(void *arg, unsigned int i, struct rvctr_record *rec)
{
	rvctr_read_entry(i, rec);
}

static void rvctr_ops_write(void *arg, unsigned int i,
			    const struct rvctr_record *rec)
{
	rvctr_write_entry(i, rec);
}

static void rvctr_ops_clear(void *arg)
{
	rvctr_clear();
}

static const struct rvctr_stack_ops rvctr_hw_ops = {
	.read = rvctr_ops_read,
	.write = rvctr_ops_write,
	.clear = rvctr_ops_clear,
};

/*
 * The buffer stays frozen after a save: until something records, clears
 * or unfreezes it (each of which forgets frozen_for), it still holds the
 * task's stack and the restore has nothing to write.
 */
static void rvctr_task_save(struct rvctr_cpu *c, struct rvctr_task_ctx *t)
{
	unsigned long flags, sel;

	local_irq_save(flags);
	rvctr_freeze();
	sel = csr_read(CSR_SISELECT);
	rvctr_stack_save(t, c->depth, &rvctr_hw_ops, NULL);
	csr_write(CSR_SISELECT, sel);
	c->frozen_for = t;
	local_irq_restore(flags);
}

/* Logical entries are relative to the write pointer: any pointer will do. */
static void rvctr_task_restore(struct rvctr_cpu *c, struct rvctr_task_ctx *t)
{
	unsigned long flags, sel;

	local_irq_save(flags);
	rvctr_freeze();
	sel = csr_read(CSR_SISELECT);
	rvctr_stack_restore(t, c->depth, c->frozen_for == t, &rvctr_hw_ops,
			    NULL);
	csr_write(CSR_SISELECT, sel);
	rvctr_unfreeze();
	local_irq_restore(flags);
}

/*
 * The pmu's context-switch callback.  A task with a call-stack event takes
 * its stack along (saved on switch out, restored on switch in); for every
 * other switch in the records are wiped: they belong to another address
 * space, if not another user.
 */
static void rvctr_switch(struct rvctr_task_ctx *t, bool sched_in)
{
	struct rvctr_cpu *c = this_cpu_ptr(rvctr.cpus);

	if (!rvctr.present || !c->users)
		return;
	if (t && c->cs_users) {
		if (sched_in)
			rvctr_task_restore(c, t);
		else
			rvctr_task_save(c, t);
		return;
	}
	if (sched_in)
		rvctr_clear();
}

#ifdef RVPERF_SCHED_TASK_HAS_TASK
void rvctr_sched_task(struct perf_event_pmu_context *pmu_ctx,
		      struct task_struct *task, bool sched_in)
{
	rvctr_switch(rvctr_switch_task_ctx(pmu_ctx, task), sched_in);
}
#else
void rvctr_sched_task(struct perf_event_pmu_context *pmu_ctx, bool sched_in)
{
	/* current: the task switched out, or in */
	rvctr_switch(rvctr_switch_task_ctx(pmu_ctx, current), sched_in);
}
#endif

/* ------------------------------------------------ overflow interrupt */

/* Whether the exception recorded at @from was raised by an ecall. */
static bool rvctr_is_ecall(unsigned long from)
{
	u32 insn;
	long ret;

	if (from >= rvctr_kernel_start())
		ret = copy_from_kernel_nofault(&insn, (const void *)from,
					       sizeof(insn));
	else
		ret = copy_from_user_nofault(&insn, (const void __user *)from,
					     sizeof(insn));
	return !ret && insn == RVCTR_INSN_ECALL;
}

/*
 * Reads the frozen records from the newest entry to the first invalid one,
 * with interrupts off (the handler's), siselect put back for whoever else
 * uses it.
 */
static void rvctr_read_records(struct rvctr_cpu *c)
{
	unsigned long sel, status;
	unsigned int i;

	status = csr_read(RVCTR_CSR_STATUS);
	c->hw_idx = (u64)((status & RVCTR_STATUS_WRPTR) - 1) &
		    (c->depth - 1);
	sel = csr_read(CSR_SISELECT);
	for (i = 0; i < c->depth; i++) {
		struct rvctr_record *rec = &c->raw[i];

		rvctr_read_entry(i, rec);
		if (!(rec->source & RVP_CTRSOURCE_V))
			break;
		if ((rec->data & RVP_CTRDATA_TYPE) == RVP_CTRDATA_TYPE_EXCEPTION)
			rec->syscall = rvctr_is_ecall(rec->source &
						      ~RVP_CTRSOURCE_V);
	}
	csr_write(CSR_SISELECT, sel);
	c->nr_raw = i;
	c->read = true;
}

/**
 * rvctr_irq_begin() - the overflow handler starts
 *
 * Return: true when this cpu has branch events (call rvctr_irq_end()).
 */
bool rvctr_irq_begin(void)
{
	struct rvctr_cpu *c;

	if (!rvctr.present)
		return false;
	c = this_cpu_ptr(rvctr.cpus);
	/*
	 * No branch event: recording is off, and a freeze is either a
	 * call-stack task's saved buffer or cleared by the next first add.
	 */
	if (!c->users)
		return false;
	/* LCOFIFRZ froze it already; make sure the handler is not added. */
	rvctr_freeze();
	c->read = false;
	return true;
}

/**
 * rvctr_irq_sample() - attach @event's own branch stack to its sample
 * @event: an overflowed branch event
 * @data: its sample
 *
 * The records are read once per interrupt, by the first event that needs
 * them, and filtered for each.
 */
void rvctr_irq_sample(struct perf_event *event, struct perf_sample_data *data)
{
	struct rvctr_cpu *c = this_cpu_ptr(rvctr.cpus);
	struct rvctr_filter f;
	unsigned int report;

	if (rvctr_filter_init(&f, event->attr.branch_sample_type,
			      rvctr_kernel_start()))
		return;
	f.misp = rvctr.misp;
	if (!c->read)
		rvctr_read_records(c);
	/* At most what every hart keeps, as caps/branches says. */
	report = min(c->depth, READ_ONCE(rvctr.depth));
#ifdef RVPERF_CTR_DEPTH_KNOBS
	report = rvctr_depth_report(c->depth, ctr_depth_cap);
#endif
	c->stack.nr = rvctr_build_stack(&f, c->raw, c->nr_raw, report,
					c->hw_idx, c->entries,
					&c->stack.hw_idx);
	perf_sample_save_brstack(data, event, &c->stack, NULL);
}

/*
 * Every overflowed event is handled and the counters run again: record
 * again, once, as the last thing the handler does.
 */
void rvctr_irq_end(void)
{
	rvctr_unfreeze();
}

/*
 * An overflow interrupt with no counter overflowed (IRQ_NONE): LCOFIFRZ
 * may have frozen the buffer all the same; do not leave the freeze behind.
 */
void rvctr_irq_none(void)
{
	struct rvctr_cpu *c;

	if (!rvctr.present)
		return;
	c = this_cpu_ptr(rvctr.cpus);
	if (c->users && !c->frozen_for)
		rvctr_unfreeze();
}
