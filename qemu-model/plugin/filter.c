// SPDX-License-Identifier: BSD-2-Clause
/*
 * filter.c - perf branch filter words to a CTR control value.  The type
 * inhibit bits sit at the same positions in both layouts (include/rvperf/
 * ctr.h); the mode bits and RASEMU do not.
 */
#include "filter.h"

#include <stdio.h>
#include <string.h>

#include "rvperf/ctr.h"

#define INH_ALL (RVP_CTR_V1_MCTRCTL_EXCINH | RVP_CTR_V1_MCTRCTL_INTRINH | \
		 RVP_CTR_V1_MCTRCTL_TRETINH | RVP_CTR_V1_MCTRCTL_TKBRINH | \
		 RVP_CTR_V1_MCTRCTL_INDCALLINH | \
		 RVP_CTR_V1_MCTRCTL_DIRCALLINH | \
		 RVP_CTR_V1_MCTRCTL_INDJMPINH | RVP_CTR_V1_MCTRCTL_DIRJMPINH | \
		 RVP_CTR_V1_MCTRCTL_CORSWAPINH | RVP_CTR_V1_MCTRCTL_RETINH | \
		 RVP_CTR_V1_MCTRCTL_INDLJMPINH | RVP_CTR_V1_MCTRCTL_DIRLJMPINH)

struct filter_word {
	const char *name;
	uint64_t allow;		/* inhibit bits this word clears */
	int rasemu;
};

static const struct filter_word type_words[] = {
	{ "any", INH_ALL, 0 },
	{ "any_call", RVP_CTR_V1_MCTRCTL_INDCALLINH |
		      RVP_CTR_V1_MCTRCTL_DIRCALLINH |
		      RVP_CTR_V1_MCTRCTL_EXCINH | RVP_CTR_V1_MCTRCTL_INTRINH, 0 },
	{ "any_ret", RVP_CTR_V1_MCTRCTL_RETINH | RVP_CTR_V1_MCTRCTL_TRETINH, 0 },
	{ "call", RVP_CTR_V1_MCTRCTL_DIRCALLINH, 0 },
	{ "ind_call", RVP_CTR_V1_MCTRCTL_INDCALLINH, 0 },
	{ "ind_jmp", RVP_CTR_V1_MCTRCTL_INDJMPINH |
		     RVP_CTR_V1_MCTRCTL_INDLJMPINH, 0 },
	{ "cond", RVP_CTR_V1_MCTRCTL_TKBRINH, 0 },
	/* "RAS (Return Address Stack) Emulation Mode": calls push, returns
	 * pop; the spec ignores the other types' inhibits then, but calls and
	 * returns must not be inhibited. */
	{ "call_stack", RVP_CTR_V1_MCTRCTL_INDCALLINH |
			RVP_CTR_V1_MCTRCTL_DIRCALLINH |
			RVP_CTR_V1_MCTRCTL_RETINH, 1 },
};

static const char *const accepted_words[] = { "save_type", "hw_index", "priv" };
static const char *const refused_words[] = {
	"abort_tx", "in_tx", "no_tx", "stack", "counter", "no_flags",
	"no_cycles", "type_save",
};

uint64_t rvp_branch_filter_mode_bit(enum ctrhw_layout layout, char mode)
{
	int draft = layout == CTRHW_LAYOUT_DRAFT;

	switch (mode) {
	case 'u':
		return draft ? RVP_CTR_DRAFT_MCTRCONTROL_U : RVP_CTR_V1_MCTRCTL_U;
	case 'k':
		return draft ? RVP_CTR_DRAFT_MCTRCONTROL_S : RVP_CTR_V1_MCTRCTL_S;
	case 'h':
		return draft ? RVP_CTR_DRAFT_MCTRCONTROL_M : RVP_CTR_V1_MCTRCTL_M;
	}
	return 0;
}

static int in_list(const char *w, size_t len, const char *const *list,
		   size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(w, list[i], len))
			return 1;
	return 0;
}

int rvp_branch_filter_parse(const char *spec, enum ctrhw_layout layout,
			    unsigned int default_modes, uint64_t *ctl,
			    char *err, size_t errlen)
{
	uint64_t inhibit = INH_ALL, modes = 0;
	int rasemu = 0, any_type = 0;
	const char *p = spec;

	if (!spec || !*spec) {
		snprintf(err, errlen, "empty branch filter");
		return -1;
	}
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		size_t i;
		int found = 0;

		if (len == 0) {
			snprintf(err, errlen, "empty word in branch filter '%s'",
				 spec);
			return -1;
		}
		if ((len == 1 && (*p == 'u' || *p == 'k')) ||
		    (len == 2 && !strncmp(p, "hv", 2))) {
			modes |= rvp_branch_filter_mode_bit(layout, *p);
			found = 1;
		}
		for (i = 0; !found && i < sizeof(type_words) / sizeof(type_words[0]); i++) {
			if (strlen(type_words[i].name) == len &&
			    !strncmp(p, type_words[i].name, len)) {
				inhibit &= ~type_words[i].allow;
				rasemu |= type_words[i].rasemu;
				any_type = 1;
				found = 1;
			}
		}
		if (!found && in_list(p, len, accepted_words,
				      sizeof(accepted_words) / sizeof(accepted_words[0])))
			found = 1;
		if (!found) {
			int refused = in_list(p, len, refused_words,
					      sizeof(refused_words) / sizeof(refused_words[0]));

			snprintf(err, errlen, "%s branch filter '%.*s'%s",
				 refused ? "unsupported" : "unknown", (int)len, p,
				 refused ? " (RISC-V CTR has no such filter)" : "");
			return -1;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!any_type) {
		snprintf(err, errlen, "branch filter '%s' names no branch type "
			 "(any, any_call, any_ret, call, ind_call, ind_jmp, cond, "
			 "call_stack)", spec);
		return -1;
	}
	if (!modes)
		modes = default_modes;
	*ctl = modes | inhibit;
	if (rasemu)
		*ctl |= layout == CTRHW_LAYOUT_DRAFT ?
			RVP_CTR_DRAFT_MCTRCONTROL_RASEMU : RVP_CTR_V1_MCTRCTL_RASEMU;
	return 0;
}
