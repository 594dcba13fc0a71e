// SPDX-License-Identifier: BSD-2-Clause
/*
 * batch_ctr - the core's batch entry points against the record-by-record
 * ones they stand for: predhw_updates() + ctrhw_transfers_untimed()
 * (what QEMU's glue runs over the transfers its translated code buffered)
 * must leave the predictor, every physical CTR entry, WRPTR, WRAP, FROZEN,
 * the cycle counter and CCV exactly as predhw_update() and
 * ctrhw_cycles_lost() + ctrhw_transfer() do one transfer at a time; and
 * ctrhw_transfers_timed() (what the plugin runs over the records it kept
 * back, each with the cycle it retired at) as ctrhw_cycles() +
 * ctrhw_transfer_slow() do.
 *
 * Random episodes per layout: an implementation (depths, cycle counting,
 * TYPE, XLEN), then batches of 0-600 transfers of every in-mode type over
 * a small address pool (so the predictor both hits and misses), between
 * them random control writes (mode enables, type inhibits, RASEMU, depth),
 * mode changes and elapsed cycles, applied to both copies.
 *
 *	batch-ctr [EPISODES [SEED]]
 */
#include <stdlib.h>
#include <string.h>

#include "qemu-model/core/ctrhw.h"
#include "qemu-model/core/predhw.h"
#include "rvperf/ctr.h"
#include "tap.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static const uint8_t inmode_types[] = {
	RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH, RVP_CTRDATA_TYPE_TAKEN_BRANCH,
	RVP_CTRDATA_TYPE_INDIRECT_CALL, RVP_CTRDATA_TYPE_DIRECT_CALL,
	RVP_CTRDATA_TYPE_INDIRECT_JUMP, RVP_CTRDATA_TYPE_DIRECT_JUMP,
	RVP_CTRDATA_TYPE_COROUTINE_SWAP, RVP_CTRDATA_TYPE_FUNCTION_RETURN,
	RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP,
	RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP,
};

struct copy {
	struct ctrhw ctr;
	struct predhw pred;
};

/* Record by record and batched, untimed; the same, timed. */
static struct copy one, batch, tone, tbatch;
#define COPIES { &one, &batch, &tone, &tbatch }
static unsigned long skip_batches;	/* more records than entries */

/* Where copies X and Y differ, or NULL. */
static const char *differs_in(const struct copy *x, const struct copy *y)
{
	const struct ctrhw *a = &x->ctr, *b = &y->ctr;

	if (memcmp(&x->pred, &y->pred, sizeof(x->pred)))
		return "predictor state";
	if (memcmp(a->entry, b->entry, sizeof(a->entry)))
		return "physical entries";
	if (a->wrptr != b->wrptr)
		return "WRPTR";
	if (a->wrap != b->wrap)
		return "WRAP";
	if (a->frozen != b->frozen)
		return "FROZEN";
	if (a->cycle_counter != b->cycle_counter)
		return "cycle counter";
	if (a->ccv_valid != b->ccv_valid)
		return "CCV";
	if (a->mctl != b->mctl || a->vsctl != b->vsctl ||
	    a->depth_log != b->depth_log || a->mode != b->mode)
		return "control state";
	return NULL;
}

static const char *differs(void)
{
	return differs_in(&one, &batch);
}

/* The same control change on both copies, from M-mode. */
static void control(bool draft)
{
	uint64_t m = draft ? RVP_CTR_DRAFT_MCTRCONTROL_M : RVP_CTR_V1_MCTRCTL_M;
	unsigned int csr = draft ? RVP_CTR_DRAFT_CSR_MCTRCONTROL :
			   RVP_CTR_V1_CSR_MCTRCTL;
	/* random fields, the mode enables mostly on, FROZEN-causing bits
	 * don't matter here (no traps) */
	uint64_t ctl = rnd() & rnd();
	enum hw_mode mode = one.ctr.mode;

	if (below(8))
		ctl |= m | (draft ? RVP_CTR_DRAFT_MCTRCONTROL_S :
			    RVP_CTR_V1_MCTRCTL_S) |
		       (draft ? RVP_CTR_DRAFT_MCTRCONTROL_U :
			RVP_CTR_V1_MCTRCTL_U);
	uint64_t d = !draft && below(2) ? below(5) : ~0ull;
	struct copy *all[] = COPIES;

	for (unsigned int i = 0; i < 4; i++) {
		ctrhw_set_mode(&all[i]->ctr, HW_MODE_M);
		ctrhw_csr_write(&all[i]->ctr, csr, ctl);
		if (d != ~0ull)
			ctrhw_csr_write(&all[i]->ctr, RVP_CTR_V1_CSR_SCTRDEPTH,
					d);
		ctrhw_set_mode(&all[i]->ctr, mode);
	}
}

static int episode(bool draft, unsigned int ep)
{
	static const enum hw_mode modes[] = { HW_MODE_M, HW_MODE_S,
					       HW_MODE_U };
	static struct hw_xfer x[600];
	static struct hw_xfer_timed xt[600];
	static uint64_t pool[24];
	struct copy *all[] = COPIES;
	uint64_t mark_one = 0, mark_batch = 0, now = 0;
	struct ctrhw_config cfg;
	unsigned int batches = 40 + below(40);
	const char *why;

	ctrhw_config_default(&cfg, draft ? CTRHW_LAYOUT_DRAFT :
				      CTRHW_LAYOUT_RATIFIED);
	cfg.cycle_counting = below(4) != 0;
	if (!cfg.cycle_counting)
		cfg.cce_bits = 0;
	cfg.type_field = below(4) != 0;
	cfg.xlen = below(4) ? 64 : 32;
	cfg.h_ext = false;
	if (ctrhw_config_check(&cfg) || ctrhw_init(&one.ctr, &cfg) ||
	    ctrhw_init(&batch.ctr, &cfg) || ctrhw_init(&tone.ctr, &cfg) ||
	    ctrhw_init(&tbatch.ctr, &cfg)) {
		printf("Bail out! episode %u: config rejected: %s\n", ep,
		       ctrhw_config_check(&cfg));
		exit(1);
	}
	for (unsigned int i = 0; i < 4; i++)
		predhw_init(&all[i]->pred);
	for (unsigned int i = 0; i < 24; i++)
		pool[i] = (0x80000000ull + 2 * below(4096)) &
			  (cfg.xlen == 32 ? 0xFFFFFFFFull : ~0ull);
	for (unsigned int b = 0; b < batches; b++) {
		unsigned int n = below(4) ? below(80) : below(600);
		uint64_t cycles = below(3) ? 0 : rnd() >> below(64);

		if (!below(6))
			control(draft);
		if (!below(8)) {
			enum hw_mode m = modes[below(3)];

			for (unsigned int i = 0; i < 4; i++)
				ctrhw_set_mode(&all[i]->ctr, m);
		}
		for (unsigned int i = 0; i < 4; i++)
			ctrhw_cycles(&all[i]->ctr, cycles);
		for (unsigned int i = 0; i < n; i++) {
			x[i].type = inmode_types[below(sizeof(inmode_types))];
			x[i].source = pool[below(24)];
			x[i].target = pool[below(24)];
			x[i].length = below(3) * 2;	/* 0, 2, 4 */
			x[i].misp = false;
		}
		for (unsigned int i = 0; i < n; i++) {
			bool misp = predhw_update(&one.pred, x[i].type,
						  x[i].source, x[i].target,
						  x[i].length);

			if (one.ctr.counting)
				ctrhw_cycles_lost(&one.ctr);
			ctrhw_transfer(&one.ctr, x[i].type, x[i].source,
				       x[i].target, misp);
		}
		{
			unsigned int taken = 0;

			for (unsigned int i = 0; i < n; i++)
				taken += (batch.ctr.accept >> x[i].type) & 1;
			skip_batches += taken > ctrhw_depth(&batch.ctr);
		}
		predhw_updates(&batch.pred, x, n);
		ctrhw_transfers_untimed(&batch.ctr, x, n);
		/* Timed: the accepted ones (what the plugin keeps back),
		 * with stamps a cycle or more apart, some far (the cycle
		 * counter saturates). */
		{
			unsigned int k = 0;

			for (unsigned int i = 0; i < n; i++) {
				if (!((tone.ctr.accept >> x[i].type) & 1))
					continue;
				now += below(8) ? below(40) : rnd() >> below(64);
				xt[k].source = x[i].source;
				xt[k].target = x[i].target;
				xt[k].stamp = now;
				xt[k].type = x[i].type;
				ctrhw_cycles(&tone.ctr, now - mark_one);
				mark_one = now;
				ctrhw_transfer_slow(&tone.ctr, x[i].type,
						    x[i].source, x[i].target,
						    false);
				k++;
			}
			ctrhw_transfers_timed(&tbatch.ctr, xt, k, &mark_batch);
			why = differs_in(&tone, &tbatch);
			if (!why && mark_one != mark_batch)
				why = "the cycle mark";
			if (why) {
				tap_ok(0, "%s episode %u (seed %#llx): timed: %s "
				       "differs after batch %u of %u records",
				       draft ? "draft" : "ratified", ep,
				       (unsigned long long)rng_state, why, b, k);
				return 0;
			}
		}
		why = differs();
		if (why) {
			tap_ok(0, "%s episode %u (seed %#llx): %s differs after "
			       "batch %u of %u transfers (depth %u)",
			       draft ? "draft" : "ratified", ep,
			       (unsigned long long)rng_state, why, b, n,
			       ctrhw_depth(&one.ctr));
			return 0;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	unsigned int episodes = argc > 1 ? (unsigned int)atoi(argv[1]) : 3000;
	uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed;

	for (int draft = 0; draft < 2; draft++) {
		unsigned int ok = 0;

		rng_state = seed + (uint64_t)draft;
		for (unsigned int e = 0; e < episodes; e++) {
			if (!episode(draft, e))
				break;
			ok++;
		}
		tap_ok(ok == episodes, "%s: %u of %u episodes of batched "
		       "transfers, untimed and timed, leave the same state as "
		       "one at a time",
		       draft ? "draft" : "ratified", ok, episodes);
		/* else the skipping path went untested */
		tap_ok(skip_batches > 100, "%s: %lu batches had more records "
		       "than entries", draft ? "draft" : "ratified",
		       skip_batches);
		skip_batches = 0;
	}
	return tap_done();
}
