// SPDX-License-Identifier: BSD-2-Clause
/*
 * filter-test.c - perf branch filter words to CTR control values, both
 * layouts: each type word lets exactly its transfer types through (every
 * other inhibit bit stays set), privilege words set the layout's own mode
 * bits, call_stack sets the layout's RASEMU, bad words give one-line
 * errors.
 */
#include <string.h>

#include "qemu-model/plugin/filter.h"
#include "rvperf/ctr.h"
#include "tap.h"

#define INH(n) (RVP_CTR_V1_MCTRCTL_##n##INH)
#define ALL_INH (INH(EXC) | INH(INTR) | INH(TRET) | INH(TKBR) | INH(INDCALL) | \
		 INH(DIRCALL) | INH(INDJMP) | INH(DIRJMP) | INH(CORSWAP) | \
		 INH(RET) | INH(INDLJMP) | INH(DIRLJMP))

struct type_case {
	const char *word;
	uint64_t allowed;	/* inhibit bits the word clears */
};

static const struct type_case type_cases[] = {
	{ "any", ALL_INH },
	{ "any_call", INH(INDCALL) | INH(DIRCALL) | INH(EXC) | INH(INTR) },
	{ "any_ret", INH(RET) | INH(TRET) },
	{ "call", INH(DIRCALL) },
	{ "ind_call", INH(INDCALL) },
	{ "ind_jmp", INH(INDJMP) | INH(INDLJMP) },
	{ "cond", INH(TKBR) },
};

int main(void)
{
	static const enum ctrhw_layout layouts[] = {
		CTRHW_LAYOUT_RATIFIED, CTRHW_LAYOUT_DRAFT,
	};
	char err[200];
	uint64_t ctl;

	for (unsigned int l = 0; l < 2; l++) {
		enum ctrhw_layout lay = layouts[l];
		const char *ln = l ? "draft" : "ratified";
		uint64_t u = l ? RVP_CTR_DRAFT_MCTRCONTROL_U : RVP_CTR_V1_MCTRCTL_U;
		uint64_t s = l ? RVP_CTR_DRAFT_MCTRCONTROL_S : RVP_CTR_V1_MCTRCTL_S;
		uint64_t m = l ? RVP_CTR_DRAFT_MCTRCONTROL_M : RVP_CTR_V1_MCTRCTL_M;
		uint64_t ras = l ? RVP_CTR_DRAFT_MCTRCONTROL_RASEMU
				 : RVP_CTR_V1_MCTRCTL_RASEMU;

		for (unsigned int i = 0; i < sizeof(type_cases) / sizeof(type_cases[0]); i++) {
			const struct type_case *c = &type_cases[i];
			int rc = rvp_branch_filter_parse(c->word, lay, u, &ctl,
							 err, sizeof(err));

			tap_ok(rc == 0, "%s: '%s' parses", ln, c->word);
			tap_eq_u64(ctl, u | (ALL_INH & ~c->allowed),
				   "%s: '%s' lets exactly its types through, default mode U",
				   ln, c->word);
		}
		rvp_branch_filter_parse("call,ind_call,u,k", lay, u, &ctl, err,
					sizeof(err));
		tap_eq_u64(ctl, u | s | (ALL_INH & ~(INH(DIRCALL) | INH(INDCALL))),
			   "%s: words combine (union of types, u and k)", ln);
		rvp_branch_filter_parse("any,hv", lay, u, &ctl, err, sizeof(err));
		tap_eq_u64(ctl, m, "%s: 'hv' is M-mode, replaces the default", ln);
		rvp_branch_filter_parse("call_stack,u", lay, u | s, &ctl, err,
					sizeof(err));
		tap_eq_u64(ctl, u | ras |
			   (ALL_INH & ~(INH(DIRCALL) | INH(INDCALL) | INH(RET))),
			   "%s: call_stack sets RASEMU, calls and returns", ln);
		rvp_branch_filter_parse("any,save_type,hw_index", lay, u, &ctl,
					err, sizeof(err));
		tap_eq_u64(ctl, u, "%s: save_type and hw_index change nothing", ln);
		tap_eq_u64(ctl & RVP_CTR_V1_MCTRCTL_NTBREN, 0,
			   "%s: 'any' leaves not-taken branches off, as LBR", ln);
	}

	ctl = 0x1234;
	tap_ok(rvp_branch_filter_parse("any,in_tx", CTRHW_LAYOUT_RATIFIED, 1,
				       &ctl, err, sizeof(err)) == -1 &&
	       ctl == 0x1234, "in_tx refused, ctl untouched");
	tap_eq_str(err, "unsupported branch filter 'in_tx' (RISC-V CTR has no such filter)",
		   "in_tx: the reason names the word");
	tap_ok(rvp_branch_filter_parse("any,bogus", CTRHW_LAYOUT_RATIFIED, 1,
				       &ctl, err, sizeof(err)) == -1, "unknown word refused");
	tap_eq_str(err, "unknown branch filter 'bogus'", "unknown word: one-line reason");
	tap_ok(rvp_branch_filter_parse("u", CTRHW_LAYOUT_RATIFIED, 1, &ctl,
				       err, sizeof(err)) == -1 &&
	       strstr(err, "names no branch type"), "privilege alone refused");
	tap_ok(rvp_branch_filter_parse("any,,u", CTRHW_LAYOUT_RATIFIED, 1, &ctl,
				       err, sizeof(err)) == -1 &&
	       strstr(err, "empty word"), "empty word refused");
	tap_ok(rvp_branch_filter_parse("", CTRHW_LAYOUT_RATIFIED, 1, &ctl,
				       err, sizeof(err)) == -1, "empty filter refused");
	tap_ok(rvp_branch_filter_parse("anyx", CTRHW_LAYOUT_RATIFIED, 1, &ctl,
				       err, sizeof(err)) == -1, "a word's prefix match is not a match");
	return tap_done();
}
