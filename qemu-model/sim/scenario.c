// SPDX-License-Identifier: BSD-2-Clause
/*
 * scenario.c - the ctr-sim scenario language over harthw (see
 * qemu-model/README.md for the commands).  One command per line, '#'
 * starts a comment; the first error stops the run with exit status 2.
 */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-model/core/insnhw.h"
#include "qemu-model/core/harthw.h"
#include "rvperf/csr.h"
#include "rvperf/ctr.h"

#define MAX_TOKENS 16
#define MAX_LINE 1024

struct sim {
	struct harthw hart;
	struct harthw_config cfg;
	bool configured;	/* a command other than layout/impl ran */
	unsigned long line;
	FILE *out, *err;
	bool line_numbers;	/* SCENARIO_LINE_NUMBERS */
	char errbuf[256];
};

/* Where a result goes: OUT, after the line's number if asked for. */
static FILE *out_line(struct sim *s)
{
	if (s->out && s->line_numbers)
		fprintf(s->out, "%lu\t", s->line);
	return s->out;
}

static int fail(struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->errbuf, sizeof(s->errbuf), fmt, ap);
	va_end(ap);
	return -1;
}

static bool parse_u64(const char *tok, uint64_t *val)
{
	char *end;

	if (!isdigit((unsigned char)tok[0]))
		return false;
	errno = 0;
	*val = strtoull(tok, &end, 0);
	return errno == 0 && *end == '\0';
}

static int number(struct sim *s, const char *tok, uint64_t *val)
{
	if (!parse_u64(tok, val))
		return fail(s, "'%s' is not a number", tok);
	return 0;
}

/* ------------------------------------------------------------ names */

static const struct {
	const char *name;
	enum hw_mode mode;
} mode_names[] = {
	{ "M", HW_MODE_M }, { "S", HW_MODE_S }, { "U", HW_MODE_U },
	{ "VS", HW_MODE_VS }, { "VU", HW_MODE_VU },
};

static int mode_of(struct sim *s, const char *tok, enum hw_mode *mode)
{
	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++) {
		if (strcasecmp(tok, mode_names[i].name) == 0) {
			*mode = mode_names[i].mode;
			if (hw_mode_is_virtual(*mode) && !s->cfg.ctr.h_ext)
				return fail(s, "mode %s needs the H extension",
					    mode_names[i].name);
			return 0;
		}
	}
	return fail(s, "unknown privilege mode '%s'", tok);
}

static const char *mode_name(enum hw_mode mode)
{
	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
		if (mode_names[i].mode == mode)
			return mode_names[i].name;
	return "?";
}

static const struct {
	const char *name;
	unsigned int csr;
} csr_names[] = {
	/* ratified layout */
	{ "mctrctl", RVP_CTR_V1_CSR_MCTRCTL },
	{ "sctrctl", RVP_CTR_V1_CSR_SCTRCTL },
	{ "vsctrctl", RVP_CTR_V1_CSR_VSCTRCTL },
	{ "sctrdepth", RVP_CTR_V1_CSR_SCTRDEPTH },
	/* draft layout (sctrstatus is looked up by layout) */
	{ "mctrcontrol", RVP_CTR_DRAFT_CSR_MCTRCONTROL },
	{ "mctrcontrolh", RVP_CTR_DRAFT_CSR_MCTRCONTROLH },
	{ "sctrcontrol", RVP_CTR_DRAFT_CSR_SCTRCONTROL },
	{ "sctrcontrolh", RVP_CTR_DRAFT_CSR_SCTRCONTROLH },
	{ "vsctrcontrol", RVP_CTR_DRAFT_CSR_VSCTRCONTROL },
	{ "vsctrcontrolh", RVP_CTR_DRAFT_CSR_VSCTRCONTROLH },
	{ "mctrstatus", RVP_CTR_DRAFT_CSR_MCTRSTATUS },
	/* Smcsrind/Sscsrind */
	{ "miselect", RVP_CSR_MISELECT }, { "mireg", RVP_CSR_MIREG },
	{ "mireg2", RVP_CSR_MIREG2 }, { "mireg3", RVP_CSR_MIREG3 },
	{ "mireg4", RVP_CSR_MIREG4 }, { "mireg5", RVP_CSR_MIREG5 },
	{ "mireg6", RVP_CSR_MIREG6 },
	{ "siselect", RVP_CSR_SISELECT }, { "sireg", RVP_CSR_SIREG },
	{ "sireg2", RVP_CSR_SIREG2 }, { "sireg3", RVP_CSR_SIREG3 },
	{ "sireg4", RVP_CSR_SIREG4 }, { "sireg5", RVP_CSR_SIREG5 },
	{ "sireg6", RVP_CSR_SIREG6 },
	{ "vsiselect", RVP_CSR_VSISELECT }, { "vsireg", RVP_CSR_VSIREG },
	{ "vsireg2", RVP_CSR_VSIREG2 }, { "vsireg3", RVP_CSR_VSIREG3 },
	{ "vsireg4", RVP_CSR_VSIREG4 }, { "vsireg5", RVP_CSR_VSIREG5 },
	{ "vsireg6", RVP_CSR_VSIREG6 },
	/* Smstateen */
	{ "mstateen0", RVP_CSR_MSTATEEN0 }, { "mstateen0h", RVP_CSR_MSTATEEN0H },
	{ "hstateen0", RVP_CSR_HSTATEEN0 }, { "hstateen0h", RVP_CSR_HSTATEEN0H },
	/* counters */
	{ "mcycle", RVP_CSR_MCYCLE }, { "mcycleh", RVP_CSR_MCYCLEH },
	{ "minstret", RVP_CSR_MINSTRET }, { "minstreth", RVP_CSR_MINSTRETH },
	{ "cycle", RVP_CSR_CYCLE }, { "cycleh", RVP_CSR_CYCLEH },
	{ "instret", RVP_CSR_INSTRET }, { "instreth", RVP_CSR_INSTRETH },
	{ "mcountinhibit", RVP_CSR_MCOUNTINHIBIT },
	{ "mcounteren", RVP_CSR_MCOUNTEREN },
	{ "scounteren", RVP_CSR_SCOUNTEREN },
	{ "hcounteren", RVP_CSR_HCOUNTEREN },
	{ "scountovf", RVP_CSR_SCOUNTOVF },
	{ "mip", RVP_CSR_MIP },
};

/* NAME3..NAME31, optionally followed by "h": base + N (or hbase + N). */
static bool numbered(const char *tok, const char *prefix, unsigned int base,
		     unsigned int hbase, unsigned int *csr)
{
	size_t plen = strlen(prefix);
	unsigned int n = 0;
	const char *p;

	if (strncasecmp(tok, prefix, plen) != 0)
		return false;
	p = tok + plen;
	if (!isdigit((unsigned char)p[0]))
		return false;
	while (isdigit((unsigned char)*p) && n < 100)
		n = n * 10 + (unsigned int)(*p++ - '0');
	if (n < 3 || n > 31)
		return false;
	if (*p == '\0') {
		*csr = base + n - 3;
		return true;
	}
	if ((*p == 'h' || *p == 'H') && p[1] == '\0') {
		*csr = hbase + n - 3;
		return true;
	}
	return false;
}

static int csr_of(struct sim *s, const char *tok, unsigned int *csr)
{
	uint64_t v;

	if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
		if (!parse_u64(tok, &v) || v > 0xFFF)
			return fail(s, "'%s' is not a CSR number", tok);
		*csr = (unsigned int)v;
		return 0;
	}
	if (strcasecmp(tok, "sctrstatus") == 0) {
		*csr = s->cfg.ctr.layout == CTRHW_LAYOUT_DRAFT
			       ? RVP_CTR_DRAFT_CSR_SCTRSTATUS
			       : RVP_CTR_V1_CSR_SCTRSTATUS;
		return 0;
	}
	for (size_t i = 0; i < sizeof(csr_names) / sizeof(csr_names[0]); i++) {
		if (strcasecmp(tok, csr_names[i].name) == 0) {
			*csr = csr_names[i].csr;
			return 0;
		}
	}
	if (numbered(tok, "mhpmcounter", RVP_CSR_MHPMCOUNTER3,
		     RVP_CSR_MHPMCOUNTER3H, csr) ||
	    numbered(tok, "hpmcounter", RVP_CSR_HPMCOUNTER3,
		     RVP_CSR_HPMCOUNTER3H, csr) ||
	    numbered(tok, "mhpmevent", RVP_CSR_MHPMEVENT3,
		     RVP_CSR_MHPMEVENT3H, csr))
		return 0;
	return fail(s, "unknown CSR '%s'", tok);
}

static const struct {
	const char *name;
	unsigned int type;
} type_names[] = {
	{ "exception", RVP_CTRDATA_TYPE_EXCEPTION },
	{ "interrupt", RVP_CTRDATA_TYPE_INTERRUPT },
	{ "trapret", RVP_CTRDATA_TYPE_TRAP_RETURN },
	{ "nottaken", RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH },
	{ "taken", RVP_CTRDATA_TYPE_TAKEN_BRANCH },
	{ "indcall", RVP_CTRDATA_TYPE_INDIRECT_CALL },
	{ "dircall", RVP_CTRDATA_TYPE_DIRECT_CALL },
	{ "indjump", RVP_CTRDATA_TYPE_INDIRECT_JUMP },
	{ "dirjump", RVP_CTRDATA_TYPE_DIRECT_JUMP },
	{ "coswap", RVP_CTRDATA_TYPE_COROUTINE_SWAP },
	{ "return", RVP_CTRDATA_TYPE_FUNCTION_RETURN },
	{ "otherind", RVP_CTRDATA_TYPE_OTHER_INDIRECT_JUMP },
	{ "otherdir", RVP_CTRDATA_TYPE_OTHER_DIRECT_JUMP },
};

static int type_of(struct sim *s, const char *tok, unsigned int *type)
{
	uint64_t v;

	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++) {
		if (strcasecmp(tok, type_names[i].name) == 0) {
			*type = type_names[i].type;
			return 0;
		}
	}
	if (parse_u64(tok, &v)) {
		for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]);
		     i++) {
			if (type_names[i].type == v) {
				*type = (unsigned int)v;
				return 0;
			}
		}
	}
	return fail(s, "unknown transfer type '%s'", tok);
}

/* Optional control field names of each layout, for impl fields=. */
static const struct {
	enum ctrhw_layout layout;
	const char *name;
	uint64_t mask;
} field_names[] = {
#define V1(f) { CTRHW_LAYOUT_RATIFIED, #f, RVP_CTR_V1_MCTRCTL_##f }
	V1(RASEMU), V1(STE), V1(MTE), V1(LCOFIFRZ), V1(EXCINH), V1(INTRINH),
	V1(TRETINH), V1(NTBREN), V1(TKBRINH), V1(INDCALLINH), V1(DIRCALLINH),
	V1(INDJMPINH), V1(DIRJMPINH), V1(CORSWAPINH), V1(RETINH),
	V1(INDLJMPINH), V1(DIRLJMPINH),
#undef V1
#define DR(f) { CTRHW_LAYOUT_DRAFT, #f, RVP_CTR_DRAFT_MCTRCONTROL_##f }
	DR(MTE), DR(STE), DR(RASEMU), DR(BPFRZ), DR(LCOFIFRZ), DR(EXCINH),
	DR(INTRINH), DR(TRETINH), DR(NTBREN), DR(TKBRINH), DR(ETEN),
	DR(INDCALLINH), DR(DIRCALLINH), DR(INDJUMPINH), DR(DIRJUMPINH),
	DR(CORSWAPINH), DR(RETINH), DR(INDOJMPINH), DR(DIROJMPINH),
#undef DR
};

/* A comma-separated list of field names: all, none or names. */
static int field_list(struct sim *s, const char *list, uint64_t *mask)
{
	char buf[MAX_LINE];
	char *save = NULL;

	*mask = 0;
	if (strcasecmp(list, "all") == 0) {
		*mask = ctrhw_optional_fields(s->cfg.ctr.layout);
		return 0;
	}
	if (strcasecmp(list, "none") == 0)
		return 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *f = strtok_r(buf, ",", &save); f;
	     f = strtok_r(NULL, ",", &save)) {
		bool found = false;

		for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]);
		     i++) {
			if (field_names[i].layout == s->cfg.ctr.layout &&
			    strcasecmp(f, field_names[i].name) == 0) {
				*mask |= field_names[i].mask;
				found = true;
			}
		}
		if (!found)
			return fail(s, "'%s' is no optional field of this layout",
				    f);
	}
	return 0;
}

static int on_off(struct sim *s, const char *key, const char *val, bool *out)
{
	if (strcasecmp(val, "on") == 0 || strcmp(val, "1") == 0)
		*out = true;
	else if (strcasecmp(val, "off") == 0 || strcmp(val, "0") == 0)
		*out = false;
	else
		return fail(s, "%s wants on or off, not '%s'", key, val);
	return 0;
}

/* ------------------------------------------------------------ commands */

static int reinit(struct sim *s)
{
	const char *why = harthw_config_check(&s->cfg);

	if (why)
		return fail(s, "impossible configuration: %s", why);
	harthw_init(&s->hart, &s->cfg);
	return 0;
}

static int cmd_layout(struct sim *s, int argc, char **argv)
{
	if (argc != 2)
		return fail(s, "usage: layout ratified|draft");
	if (s->configured)
		return fail(s, "layout must come before any other command");
	if (strcasecmp(argv[1], "ratified") == 0)
		harthw_config_default(&s->cfg, CTRHW_LAYOUT_RATIFIED);
	else if (strcasecmp(argv[1], "draft") == 0)
		harthw_config_default(&s->cfg, CTRHW_LAYOUT_DRAFT);
	else
		return fail(s, "unknown layout '%s'", argv[1]);
	return reinit(s);
}

static int cmd_impl(struct sim *s, int argc, char **argv)
{
	struct ctrhw_config *c = &s->cfg.ctr;

	if (argc < 2)
		return fail(s, "usage: impl KEY=VALUE...");
	if (s->configured)
		return fail(s, "impl must come before the scenario's commands");
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *key = argv[i], *val;
		uint64_t n, m;

		if (!eq)
			return fail(s, "'%s' is not KEY=VALUE", argv[i]);
		*eq = '\0';
		val = eq + 1;
		if (strcasecmp(key, "depth") == 0) {
			const char *dash = strchr(val, '-');
			char lo[32];

			if (dash) {
				snprintf(lo, sizeof(lo), "%.*s",
					 (int)(dash - val), val);
				if (number(s, lo, &n) || number(s, dash + 1, &m))
					return -1;
			} else {
				if (number(s, val, &n))
					return -1;
				m = n;
			}
			if (n > 256 || m > 256)
				return fail(s, "depths go up to 256");
			c->depth_min = (unsigned int)n;
			c->depth_max = (unsigned int)m;
		} else if (strcasecmp(key, "fields") == 0) {
			if (field_list(s, val, &c->ctl_optional))
				return -1;
		} else if (strcasecmp(key, "nofields") == 0) {
			if (field_list(s, val, &m))
				return -1;
			c->ctl_optional =
				ctrhw_optional_fields(c->layout) & ~m;
		} else if (strcasecmp(key, "cce") == 0) {
			if (number(s, val, &n))
				return -1;
			if (n > 4)
				return fail(s, "cce is 0..4");
			c->cce_bits = (unsigned int)n;
		} else if (strcasecmp(key, "cc") == 0) {
			if (on_off(s, key, val, &c->cycle_counting))
				return -1;
		} else if (strcasecmp(key, "type") == 0) {
			if (on_off(s, key, val, &c->type_field))
				return -1;
		} else if (strcasecmp(key, "misp") == 0) {
			if (on_off(s, key, val, &c->misp))
				return -1;
		} else if (strcasecmp(key, "h") == 0) {
			if (on_off(s, key, val, &c->h_ext))
				return -1;
		} else if (strcasecmp(key, "sscofpmf") == 0) {
			if (on_off(s, key, val, &c->sscofpmf))
				return -1;
		} else if (strcasecmp(key, "smstateen") == 0) {
			if (on_off(s, key, val, &s->cfg.smstateen))
				return -1;
		} else if (strcasecmp(key, "xlen") == 0) {
			if (number(s, val, &n))
				return -1;
			if (n != 32 && n != 64)
				return fail(s, "xlen is 32 or 64");
			c->xlen = (unsigned int)n;
		} else if (strcasecmp(key, "hpm") == 0) {
			if (number(s, val, &n))
				return -1;
			if (n > 29)
				return fail(s, "hpm is 0..29");
			s->cfg.hpm_counters = (unsigned int)n;
		} else {
			return fail(s, "unknown impl key '%s'", key);
		}
	}
	return reinit(s);
}

static void print_trap(struct sim *s, enum hw_access acc)
{
	if (!s->out)
		return;
	if (acc == HW_ACCESS_VIRTUAL)
		fputs("virtual\n", out_line(s));
	else if (acc != HW_ACCESS_OK)
		fputs("illegal\n", out_line(s));
}

static int cmd_csrr(struct sim *s, int argc, char **argv)
{
	unsigned int csr = 0;
	uint64_t val = 0;
	enum hw_access acc;

	if (argc != 2)
		return fail(s, "usage: csrr CSR");
	if (csr_of(s, argv[1], &csr))
		return -1;
	acc = harthw_csr_read(&s->hart, csr, &val);
	if (acc != HW_ACCESS_OK)
		print_trap(s, acc);
	else if (s->out)
		fprintf(out_line(s), "%s=0x%" PRIx64 "\n", argv[1], val);
	return 0;
}

static int cmd_csrw(struct sim *s, int argc, char **argv)
{
	unsigned int csr = 0;
	uint64_t val = 0;

	if (argc != 3)
		return fail(s, "usage: csrw CSR VALUE");
	if (csr_of(s, argv[1], &csr) || number(s, argv[2], &val))
		return -1;
	print_trap(s, harthw_csr_write(&s->hart, csr, val));
	return 0;
}

static int cmd_sctrclr(struct sim *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return fail(s, "usage: sctrclr");
	print_trap(s, harthw_sctrclr(&s->hart));
	return 0;
}

static void transfer(struct sim *s, unsigned int type, uint64_t src,
		     uint64_t dst)
{
	enum hw_mode mode = harthw_mode(&s->hart);

	/* Traps and trap returns given as transfers stay in the mode; a
	 * cause of 0 freezes nothing. */
	if (type == RVP_CTRDATA_TYPE_EXCEPTION ||
	    type == RVP_CTRDATA_TYPE_INTERRUPT)
		harthw_trap(&s->hart, type == RVP_CTRDATA_TYPE_INTERRUPT, 0,
			    mode, src, dst);
	else if (type == RVP_CTRDATA_TYPE_TRAP_RETURN)
		harthw_trap_return(&s->hart, mode, src, dst);
	else
		harthw_transfer(&s->hart, type, src, dst);
}

static int cmd_xfer(struct sim *s, int argc, char **argv)
{
	unsigned int type = 0;
	uint64_t src = 0, dst = 0;

	if (argc != 4)
		return fail(s, "usage: xfer TYPE SRC DST");
	if (type_of(s, argv[1], &type) || number(s, argv[2], &src) ||
	    number(s, argv[3], &dst))
		return -1;
	transfer(s, type, src, dst);
	return 0;
}

static int cmd_insn(struct sim *s, int argc, char **argv)
{
	struct insnhw_class c;
	uint64_t addr, raw, target = 0;
	bool have_taken = false, taken = false, have_target = false;

	if (argc < 3 || argc > 5)
		return fail(s, "usage: insn ADDR HEX [taken|nottaken] "
			       "[target=ADDR]");
	if (number(s, argv[1], &addr))
		return -1;
	if (!parse_u64(argv[2], &raw) || raw > 0xFFFFFFFFull ||
	    ((raw & 3) != 3 && raw > 0xFFFF))
		return fail(s, "'%s' is not a 16- or 32-bit instruction",
			    argv[2]);
	for (int i = 3; i < argc; i++) {
		if (strcasecmp(argv[i], "taken") == 0 && !have_taken) {
			have_taken = taken = true;
		} else if (strcasecmp(argv[i], "nottaken") == 0 && !have_taken) {
			have_taken = true;
		} else if (strncasecmp(argv[i], "target=", 7) == 0 &&
			   !have_target) {
			if (number(s, argv[i] + 7, &target))
				return -1;
			have_target = true;
		} else {
			return fail(s, "unexpected '%s'", argv[i]);
		}
	}
	insnhw_classify((uint32_t)raw, s->cfg.ctr.xlen,
			INSNHW_ZCMP | INSNHW_ZCMT, taken, &c);
	if (c.conditional && !have_taken)
		return fail(s, "a conditional branch needs taken or nottaken");
	if (!c.conditional && have_taken)
		return fail(s, "taken/nottaken given for no conditional branch");
	harthw_retire(&s->hart, 1);
	if (c.type == RVP_CTRDATA_TYPE_NONE ||
	    c.type == RVP_CTRDATA_TYPE_EXCEPTION ||
	    c.type == RVP_CTRDATA_TYPE_TRAP_RETURN) {
		/* The trap and xret commands carry those transfers. */
		if (have_target)
			return fail(s, "target= given for no jump or branch");
		return 0;
	}
	if (c.type == RVP_CTRDATA_TYPE_NOT_TAKEN_BRANCH) {
		/* A not-taken branch "goes" to the next instruction. */
		if (have_target)
			return fail(s, "target= given for a not-taken branch");
		target = addr + c.length;
	} else if (c.direct) {
		uint64_t computed = addr + (uint64_t)c.offset;

		if (have_target && target != computed)
			return fail(s, "target=0x%" PRIx64 " but the offset "
				       "says 0x%" PRIx64, target, computed);
		target = computed;
	} else if (!have_target) {
		return fail(s, "an indirect or table jump needs target=");
	}
	if (s->cfg.ctr.xlen == 32)
		target &= 0xFFFFFFFFull;
	harthw_transfer_len(&s->hart, c.type, addr, target, c.length);
	return 0;
}

static int count_cmd(struct sim *s, int argc, char **argv, bool cycles)
{
	uint64_t n;

	if (argc != 2)
		return fail(s, "usage: %s N", argv[0]);
	if (number(s, argv[1], &n))
		return -1;
	if (cycles)
		harthw_cycles(&s->hart, n);
	else
		harthw_retire(&s->hart, n);
	return 0;
}

/* Traps go up or stay (U, VU < VS < HS < M) and never set V. */
static bool trap_allowed(enum hw_mode from, enum hw_mode to)
{
	static const int rank[HW_MODE_SLOTS] = {
		[HW_MODE_U] = 0, [HW_MODE_VU] = 0, [HW_MODE_VS] = 1,
		[HW_MODE_S] = 2, [HW_MODE_M] = 3,
	};

	if (to == HW_MODE_U || to == HW_MODE_VU)
		return false;
	if (hw_mode_is_virtual(to) && !hw_mode_is_virtual(from))
		return false;
	return rank[to] >= rank[from];
}

static int cmd_trap(struct sim *s, int argc, char **argv)
{
	bool interrupt;
	uint64_t cause = 0, src = 0, vector = 0;
	enum hw_mode to = HW_MODE_M, from = harthw_mode(&s->hart);

	if (argc != 6)
		return fail(s, "usage: trap exc|int CAUSE TOPRIV SRC VECTOR");
	if (strcasecmp(argv[1], "exc") == 0)
		interrupt = false;
	else if (strcasecmp(argv[1], "int") == 0)
		interrupt = true;
	else
		return fail(s, "trap kind is exc or int, not '%s'", argv[1]);
	if (number(s, argv[2], &cause) || mode_of(s, argv[3], &to) ||
	    number(s, argv[4], &src) || number(s, argv[5], &vector))
		return -1;
	if (!trap_allowed(from, to))
		return fail(s, "a trap cannot go from %s to %s",
			    mode_name(from), mode_name(to));
	harthw_trap(&s->hart, interrupt, cause, to, src, vector);
	return 0;
}

/* MRET from M goes anywhere, SRET from HS to S, U, VS, VU, SRET from VS
 * to VS or VU; U and VU have no xRET. */
static bool xret_allowed(enum hw_mode from, enum hw_mode to)
{
	switch (from) {
	case HW_MODE_M:
		return true;
	case HW_MODE_S:
		return to != HW_MODE_M;
	case HW_MODE_VS:
		return to == HW_MODE_VS || to == HW_MODE_VU;
	default:
		return false;
	}
}

static int cmd_xret(struct sim *s, int argc, char **argv)
{
	uint64_t src = 0, dst = 0;
	enum hw_mode to = HW_MODE_M, from = harthw_mode(&s->hart);

	if (argc != 4)
		return fail(s, "usage: xret TOPRIV SRC DST");
	if (mode_of(s, argv[1], &to) || number(s, argv[2], &src) ||
	    number(s, argv[3], &dst))
		return -1;
	if (!xret_allowed(from, to))
		return fail(s, "no trap return goes from %s to %s",
			    mode_name(from), mode_name(to));
	harthw_trap_return(&s->hart, to, src, dst);
	return 0;
}

static int cmd_priv(struct sim *s, int argc, char **argv)
{
	enum hw_mode mode = HW_MODE_M;

	if (argc != 2)
		return fail(s, "usage: priv M|S|U|VS|VU");
	if (mode_of(s, argv[1], &mode))
		return -1;
	harthw_set_mode(&s->hart, mode);
	return 0;
}

/* cycles-lost: active cycles went uncounted (a host without cycle-exact
 * timing), so the next record says CCV=0. */
static int cmd_cycles_lost(struct sim *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return fail(s, "cycles-lost takes no arguments");
	ctrhw_cycles_lost(&s->hart.ctr);
	return 0;
}

static int cmd_dump(struct sim *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return fail(s, "usage: dump");
	for (unsigned int i = 0; i < ctrhw_depth(&s->hart.ctr); i++) {
		struct ctrhw_entry e;

		ctrhw_entry_get(&s->hart.ctr, i, &e);
		if (!(e.source & RVP_CTRSOURCE_V) || !s->out)
			continue;
		fprintf(out_line(s), "entry %u 0x%" PRIx64 " 0x%" PRIx64
				" 0x%" PRIx64 "\n",
			i, e.source, e.target, e.data);
	}
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct sim *s, int argc, char **argv);
	bool configures;	/* allowed before the scenario proper */
} commands[] = {
	{ "layout", cmd_layout, true },
	{ "impl", cmd_impl, true },
	{ "priv", cmd_priv, false },
	{ "csrr", cmd_csrr, false },
	{ "csrw", cmd_csrw, false },
	{ "sctrclr", cmd_sctrclr, false },
	{ "xfer", cmd_xfer, false },
	{ "insn", cmd_insn, false },
	{ "trap", cmd_trap, false },
	{ "xret", cmd_xret, false },
	{ "dump", cmd_dump, false },
	{ "cycles-lost", cmd_cycles_lost, false },
};

static int run_line(struct sim *s, char *line)
{
	char *argv[MAX_TOKENS + 1];
	int argc = 0;
	char *p = strchr(line, '#');

	if (p)
		*p = '\0';
	for (p = line; *p;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (argc == MAX_TOKENS)
			return fail(s, "too many words");
		argv[argc++] = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (argc == 0)
		return 0;
	if (strcmp(argv[0], "retire") == 0 || strcmp(argv[0], "cycles") == 0) {
		s->configured = true;
		return count_cmd(s, argc, argv, argv[0][0] == 'c');
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[0], commands[i].name) == 0) {
			int r = commands[i].run(s, argc, argv);

			if (!commands[i].configures)
				s->configured = true;
			return r;
		}
	}
	return fail(s, "unknown command '%.40s'", argv[0]);
}

int scenario_run(const char *text, size_t len, FILE *out, FILE *err,
		 unsigned int flags)
{
	struct sim *s = calloc(1, sizeof(*s));
	char line[MAX_LINE + 1];
	size_t pos = 0;
	int status = 0;

	if (!s) {
		if (err)
			fputs("ctr-sim: out of memory\n", err);
		return 2;
	}
	s->out = out;
	s->err = err;
	s->line_numbers = flags & SCENARIO_LINE_NUMBERS;
	harthw_config_default(&s->cfg, CTRHW_LAYOUT_RATIFIED);
	reinit(s);
	while (pos < len) {
		size_t end = pos, n;

		while (end < len && text[end] != '\n')
			end++;
		n = end - pos;
		s->line++;
		if (n > MAX_LINE || memchr(text + pos, '\0', n)) {
			fail(s, "line too long or not text");
			status = 2;
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos = end + 1;
		if (run_line(s, line)) {
			status = 2;
			break;
		}
	}
	if (status && err)
		fprintf(err, "ctr-sim: line %lu: %s\n", s->line, s->errbuf);
	free(s);
	return status;
}
