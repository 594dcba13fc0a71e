// SPDX-License-Identifier: BSD-2-Clause
/*
 * nexus_cmd.c - `rvperf nexus`: record, encode, decode, dump, stat and
 * inject N-Trace (Nexus) traces with the library in userspace/nexus/.
 *
 * Every failure is one line, "rvperf nexus <sub>: <reason>", and a
 * non-zero exit: 1 for bad input data, 2 for a bad command line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "userspace/elf/elf_syms.h"
#include "userspace/nexus/nexus.h"
#include "nexus_cmd.h"
#include "userspace/perfdata/perf_data.h"
#include "record.h"
#include "qemu-model/core/insnhw.h"
#include "qemu-model/plugin/rvp_itrace.h"
#include "rvperf/ntrace.h"

#define EXIT_BAD_DATA	1
#define EXIT_USAGE	2
#define MAX_ELFS	16

static const char *sub = "nexus";

static int fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rvperf nexus %s: ", sub);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (code == EXIT_USAGE)
		fprintf(stderr, " (see 'rvperf nexus %s --help')", sub);
	fputc('\n', stderr);
	return code;
}

/* ---- options shared by the subcommands */

struct opts {
	struct nx_config cfg;
	bool cfg_given;			/* a trace option on the command line */
	const char *elf[MAX_ELFS];
	uint64_t elf_base[MAX_ELFS];
	unsigned int n_elf;
	const char *output;
	const char *input;
	const char *pcseq, *pconly, *itrace, *pcs;
	const char *format;
	const char *qemu, *plugin;
	uint64_t period;
	bool system;
	bool raw;			/* encode: no header */
	bool xlen_given;		/* --xlen on the command line */
	uint64_t max_insns;		/* --max-instructions (0: none) */
	bool max_insns_given;
	char **prog_argv;
};

/* Trace options: "--key VALUE" or "--flag" (value 1); the keys are the
 * header's. */
static const struct {
	const char *name;
	bool flag;
} trace_opts[] = {
	{ "mode", false }, { "xlen", false }, { "src-bits", false },
	{ "src-id", false }, { "timestamps", true }, { "ext-addr-msb", true },
	{ "callstack", false }, { "partial-callstack", false },
	{ "return-counter", false }, { "repeat", false }, { "seq-jump", true },
	{ "all-jumps", true }, { "sync", false }, { "sync-mode", false },
	{ "ownership", true }, { "icnt-bits", false }, { "icnt-sync", true },
	{ "hist-bits", false },
	{ "start-sync", false }, { "exts", false },
};

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

/* Parses ARGV; SUBCOMMAND-specific words are in ALLOWED ("-o --elf ..."
 * as one string of names).  Returns 0 or an exit code. */
static int parse(int argc, char **argv, const char *allowed, struct opts *o,
		 int n_positional, const char **positional)
{
	int i, np = 0;

	nx_config_default(&o->cfg);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		size_t t;
		bool known = false;

		if (!strcmp(a, "--")) {
			o->prog_argv = argv + i + 1;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (np >= n_positional)
				return fail(EXIT_USAGE, "unexpected argument '%s'", a);
			positional[np++] = a;
			continue;
		}
		for (t = 0; t < sizeof(trace_opts) / sizeof(trace_opts[0]); t++) {
			const char *val;

			if (strncmp(a, "--", 2) || strcmp(a + 2, trace_opts[t].name))
				continue;
			if (!strstr(allowed, "TRACEOPTS"))
				return fail(EXIT_USAGE, "option '%s' is not for this command", a);
			if (trace_opts[t].flag) {
				val = "1";
			} else {
				if (i + 1 >= argc)
					return fail(EXIT_USAGE, "'%s' needs a value", a);
				val = argv[++i];
			}
			if (nx_config_set(&o->cfg, trace_opts[t].name, val))
				return fail(EXIT_USAGE, "bad value '%s' for %s", val, a);
			o->cfg_given = true;
			o->xlen_given |= !strcmp(trace_opts[t].name, "xlen");
			known = true;
			break;
		}
		if (known)
			continue;
		/* Options with a value, specific to some subcommands. */
		{
			static const char *const with_value[] = {
				"-o", "--elf", "--pcseq", "--pconly", "--itrace", "--pcs",
				"--format", "--qemu", "--plugin", "-i", "--period",
				"--max-instructions",
			};
			size_t k;
			const char *val;
			char pat[32];

			snprintf(pat, sizeof(pat), " %s ", a);
			if (!strcmp(a, "--system") && strstr(allowed, " --system ")) {
				o->system = true;
				continue;
			}
			if (!strcmp(a, "--raw") && strstr(allowed, " --raw ")) {
				o->raw = true;
				continue;
			}
			for (k = 0; k < sizeof(with_value) / sizeof(with_value[0]); k++)
				if (!strcmp(a, with_value[k]))
					break;
			if (k == sizeof(with_value) / sizeof(with_value[0]) ||
			    !strstr(allowed, pat))
				return fail(EXIT_USAGE, "unknown option '%s'", a);
			if (i + 1 >= argc)
				return fail(EXIT_USAGE, "'%s' needs a value", a);
			val = argv[++i];
			if (!strcmp(a, "-o")) {
				o->output = val;
			} else if (!strcmp(a, "-i")) {
				o->input = val;
			} else if (!strcmp(a, "--elf")) {
				const char *at = strrchr(val, '@');
				char *copy;

				if (o->n_elf == MAX_ELFS)
					return fail(EXIT_USAGE, "at most %d --elf", MAX_ELFS);
				o->elf_base[o->n_elf] = NX_ELF_NATIVE_BASE;
				if (at) {
					copy = strndup(val, (size_t)(at - val));
					if (!copy || parse_u64(at + 1, &o->elf_base[o->n_elf]))
						return fail(EXIT_USAGE, "bad address in '%s'", val);
					val = copy;
				}
				o->elf[o->n_elf++] = val;
			} else if (!strcmp(a, "--pcseq")) {
				o->pcseq = val;
			} else if (!strcmp(a, "--pconly")) {
				o->pconly = val;
			} else if (!strcmp(a, "--itrace")) {
				o->itrace = val;
			} else if (!strcmp(a, "--pcs")) {
				o->pcs = val;
			} else if (!strcmp(a, "--format")) {
				o->format = val;
			} else if (!strcmp(a, "--qemu")) {
				o->qemu = val;
			} else if (!strcmp(a, "--plugin")) {
				o->plugin = val;
			} else if (!strcmp(a, "--period")) {
				if (parse_u64(val, &o->period) || !o->period)
					return fail(EXIT_USAGE, "bad period '%s'", val);
			} else if (!strcmp(a, "--max-instructions")) {
				if (parse_u64(val, &o->max_insns))
					return fail(EXIT_USAGE, "bad instruction count '%s'", val);
				o->max_insns_given = true;
			}
		}
	}
	if (nx_config_check(&o->cfg, NULL, 0)) {
		char err[128];

		nx_config_check(&o->cfg, err, sizeof(err));
		return fail(EXIT_USAGE, "%s", err);
	}
	return 0;
}

/* ---- files */

struct mapped {
	uint8_t *data;
	size_t len;
};

static int map_file(const char *path, struct mapped *m)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	m->data = NULL;
	m->len = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	m->len = (size_t)st.st_size;
	if (m->len) {
		m->data = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m->data == MAP_FAILED) {
			close(fd);
			m->data = NULL;
			return -1;
		}
	}
	close(fd);
	return 0;
}

static void unmap_file(struct mapped *m)
{
	if (m->data)
		munmap(m->data, m->len);
}

/* The XLEN of the --elf images' ELF class (all of one class): 0, or an
 * exit code after saying why. */
static int xlen_from_elf(const struct opts *o, unsigned int *xlen)
{
	char err[200];
	unsigned int i;
	int x, first = 0;

	for (i = 0; i < o->n_elf; i++) {
		x = nx_elf_xlen(o->elf[i], err, sizeof(err));
		if (x < 0)
			return fail(EXIT_BAD_DATA, "%s", err);
		if (first && x != first)
			return fail(EXIT_USAGE, "'%s' is ELF%d and '%s' ELF%d: "
				    "give --xlen", o->elf[0], first, o->elf[i], x);
		first = x;
	}
	if (first)
		*xlen = (unsigned int)first;
	return 0;
}

/* A trace file: with our header its options, else those given. */
struct trace {
	struct mapped file;
	struct nx_config cfg;
	size_t start;			/* messages begin here */
	bool has_header;
};

static int open_trace(const char *path, const struct opts *o, struct trace *t)
{
	char err[160];
	long n;

	if (map_file(path, &t->file))
		return fail(EXIT_BAD_DATA, "cannot read '%s': %s", path, strerror(errno));
	t->cfg = o->cfg;
	n = nx_header_parse(t->file.data, t->file.len, &t->cfg, err, sizeof(err));
	if (n < 0)
		return fail(EXIT_BAD_DATA, "'%s': %s", path, err);
	t->start = (size_t)n;
	t->has_header = n > 0;
	/* A raw trace (NexRv's) does not say its XLEN: the program's ELF
	 * class does, unless --xlen says otherwise. */
	if (!t->has_header && !o->xlen_given) {
		int rc = xlen_from_elf(o, &t->cfg.xlen);

		if (rc)
			return rc;
	}
	if (n > 0 && o->cfg_given)
		fprintf(stderr, "rvperf nexus %s: note: '%s' carries its options; "
			"the ones given are ignored\n", sub, path);
	return 0;
}

/*
 * Code the program's files do not hold (QEMU's signal trampoline, a vDSO)
 * that record saw executed: TRACE.code next to the trace, a header line
 * and then records of address (8 bytes), length (4) and the bytes.
 */
#define CODE_MAGIC "rvperf-nexus-code 1\n"

static int load_code(struct nx_image *img, const char *path)
{
	struct mapped m;
	size_t pos = strlen(CODE_MAGIC);
	int rc = 0;

	if (map_file(path, &m))
		return 0;	/* none: nothing ran outside the ELF files */
	if (m.len < pos || memcmp(m.data, CODE_MAGIC, pos))
		rc = fail(EXIT_BAD_DATA, "'%s' is not a code file", path);
	while (!rc && pos + 12 <= m.len) {
		uint64_t addr;
		uint32_t len;

		memcpy(&addr, m.data + pos, 8);
		memcpy(&len, m.data + pos + 8, 4);
		pos += 12;
		if (len > m.len - pos || nx_image_add_code(img, addr, m.data + pos, len))
			rc = fail(EXIT_BAD_DATA, "'%s' is damaged", path);
		pos += len;
	}
	unmap_file(&m);
	return rc;
}

static int load_images(const struct opts *o, const struct nx_config *cfg,
		       struct nx_image *img, const char *trace_path)
{
	char err[200], code[PATH_MAX];
	unsigned int i;

	nx_image_init(img, cfg);
	if (!o->n_elf)
		return fail(EXIT_USAGE, "no program image: give --elf ELF[@ADDR]");
	for (i = 0; i < o->n_elf; i++)
		if (nx_image_add_elf(img, o->elf[i], o->elf_base[i], err, sizeof(err)))
			return fail(EXIT_BAD_DATA, "%s", err);
	if (trace_path) {
		snprintf(code, sizeof(code), "%s.code", trace_path);
		return load_code(img, code);
	}
	return 0;
}

/* Output through a large buffer. */
static FILE *open_output(const char *path, const char *what)
{
	FILE *f = path && strcmp(path, "-") ? fopen(path, "wb") : stdout;

	if (!f) {
		fail(EXIT_BAD_DATA, "cannot write %s '%s': %s", what, path,
		     strerror(errno));
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

static int file_sink(void *ctx, const uint8_t *data, size_t len)
{
	return fwrite(data, 1, len, ctx) == len ? 0 : -1;
}

/* ---- how much a decode may give */

/*
 * A trace can say a run of any length: an HREPEAT or RepeatBranch count of
 * 2^60, an I-CNT around a loop.  A decode stops at this many instructions:
 * --max-instructions N (0: no limit), else INSNS_PER_CODE_BYTE for each
 * byte of code in the images, far more than a run executes its code over
 * (NexRv's t1 example: 80 per byte) but a few seconds of decoding per
 * kilobyte of code, where such a count would run for ever.
 */
#define INSNS_PER_CODE_BYTE	65536

struct insn_limit {
	uint64_t max, n;
	bool hit;
};

static void insn_limit_init(struct insn_limit *l, const struct opts *o,
			    const struct nx_image *img)
{
	uint64_t code = nx_image_code_bytes(img);

	l->n = 0;
	l->hit = false;
	if (o->max_insns_given)
		l->max = o->max_insns ? o->max_insns : UINT64_MAX;
	else
		l->max = code > UINT64_MAX / INSNS_PER_CODE_BYTE ? UINT64_MAX :
			 code * INSNS_PER_CODE_BYTE;
}

/* Counts a block's N instructions: true (stop) past the limit. */
static inline bool insn_limit_add(struct insn_limit *l, uint64_t n)
{
	l->n += n;
	if (l->n <= l->max)
		return false;
	l->hit = true;
	return true;
}

static int insn_limit_fail(const struct insn_limit *l, const struct opts *o)
{
	if (o->max_insns_given)
		return fail(EXIT_BAD_DATA, "stopped after %" PRIu64 " instructions:"
			    " the trace says more than the limit of %" PRIu64
			    " (--max-instructions)", l->n, l->max);
	return fail(EXIT_BAD_DATA, "stopped after %" PRIu64 " instructions: the "
		    "trace says more than the limit of %" PRIu64 " (%u per byte "
		    "of the images' code; --max-instructions N sets another, 0 "
		    "none)", l->n, l->max, INSNS_PER_CODE_BYTE);
}

/* ---- the events a decoder reports, on stderr */

struct dec_report {
	unsigned long damage, errors, syncs;
	bool quiet;
	bool cut;			/* the data ended inside a message */
};

static void report_event(void *ctx, enum nx_event ev, size_t offset,
			 const char *what)
{
	struct dec_report *r = ctx;

	switch (ev) {
	case NX_EV_DAMAGE:
		r->damage++;
		if (r->damage <= 20 && !r->quiet)
			fprintf(stderr, "rvperf nexus %s: damage at byte %zu: %s; "
				"resuming at the next sync\n", sub, offset, what);
		break;
	case NX_EV_ERROR_MSG:
		r->errors++;
		if (!r->quiet)
			fprintf(stderr, "rvperf nexus %s: byte %zu: Error message "
				"(the encoder lost messages)\n", sub, offset);
		break;
	case NX_EV_TRUNCATED:
		r->cut = true;
		if (!r->quiet)
			fprintf(stderr, "rvperf nexus %s: the trace ends inside "
				"the message at byte %zu (incomplete): its end is "
				"missing; what came before is decoded\n", sub,
				offset);
		break;
	case NX_EV_SYNC:
		r->syncs++;
		break;
	default:
		break;
	}
}

/* ---- decode */

struct decode_out {
	FILE *f;
	bool blocks;
	struct dec_report rep;
	struct insn_limit lim;
	/* --format pcseq: the instruction before, known once its successor
	 * is. */
	struct nx_image *img;
	unsigned int xlen, exts;
	bool have_prev;
	uint64_t prev_pc;
};

/* NexRv's PCSEQ line for the instruction at PC, whose successor is NEXT:
 * L linear, B/BN a branch taken or not, J/JI, C/CI direct or indirect
 * jumps and calls, R a return; then its size. */
static void put_pcseq(struct decode_out *d, uint64_t pc, uint64_t next)
{
	struct insnhw_class c;
	const char *t = "L";
	uint32_t w = 0;

	nx_image_word(d->img, pc, &w);
	insnhw_classify(w, d->xlen, d->exts, true, &c);
	if (c.conditional)
		t = next == pc + (uint64_t)c.offset ? "B" : "BN";
	else if (c.itype == RVP_ITYPE_INFERABLE_CALL)
		t = c.table_jump ? "CI" : "C";
	else if (c.itype == RVP_ITYPE_UNINFERABLE_CALL ||
		 c.itype == RVP_ITYPE_COROUTINE_SWAP)
		t = "CI";
	else if (c.itype == RVP_ITYPE_RETURN)
		t = "R";
	else if (c.itype == RVP_ITYPE_OTHER_UNINFERABLE_JUMP || c.table_jump)
		t = "JI";
	else if (c.direct)
		t = "J";
	fprintf(d->f, "0x%" PRIX64 ",%s%u\n", pc, t, c.length);
}

static int out_pcseq(void *ctx, uint64_t pc, unsigned int len)
{
	struct decode_out *d = ctx;

	(void)len;
	if (d->have_prev)
		put_pcseq(d, d->prev_pc, pc);
	d->have_prev = true;
	d->prev_pc = pc;
	return 0;
}

static int out_insn(void *ctx, uint64_t pc, unsigned int len)
{
	struct decode_out *d = ctx;
	static const char hex[] = "0123456789ABCDEF";
	char buf[24], *p = buf + sizeof(buf);

	(void)len;
	*--p = '\n';
	do {
		*--p = hex[pc & 15];
		pc >>= 4;
	} while (pc);
	*--p = 'x';
	*--p = '0';
	fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), d->f);
	return 0;
}

static int out_block(void *ctx, const struct nx_block *b)
{
	struct decode_out *d = ctx;

	if (d->blocks)
		fprintf(d->f, "0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 "\n", b->start,
			b->end, b->n_insns);
	return insn_limit_add(&d->lim, b->n_insns);
}

/* After a whole decode: the trace's end is missing when the data ends
 * inside a message (said as it was met) or after whole messages of which
 * the last is not a ProgTraceCorrelation.  0, or an exit code after saying
 * so. */
static int trace_end_check(const struct trace *t, const struct nx_decoder *d,
			   const struct dec_report *rep)
{
	if (rep->cut)
		return EXIT_BAD_DATA;
	if (d->ended)
		return 0;
	return fail(EXIT_BAD_DATA, "the trace ends at byte %zu without a "
		    "ProgTraceCorrelation: its end is missing (cut after a "
		    "whole message?); what came before is decoded", t->file.len);
}

static void dec_event(void *ctx, enum nx_event ev, size_t offset, const char *w)
{
	report_event(&((struct decode_out *)ctx)->rep, ev, offset, w);
}

static int cmd_decode(int argc, char **argv)
{
	const char *pos[1] = { NULL };
	struct decode_out out = { 0 };
	struct nx_decoder_ops ops = { .block = out_block, .event = dec_event,
				      .ctx = &out };
	struct nx_decoder *d;
	struct nx_image img;
	struct trace t;
	struct opts o = { 0 };
	int rc;

	rc = parse(argc, argv, " -o --elf --format --max-instructions TRACEOPTS ",
		   &o, 1, pos);
	if (rc)
		return rc;
	if (!pos[0])
		return fail(EXIT_USAGE, "no trace file given");
	if (o.format && strcmp(o.format, "pconly") && strcmp(o.format, "blocks") &&
	    strcmp(o.format, "pcseq"))
		return fail(EXIT_USAGE, "format '%s' is not pconly, pcseq or blocks",
			    o.format);
	rc = open_trace(pos[0], &o, &t);
	if (rc)
		return rc;
	rc = load_images(&o, &t.cfg, &img, pos[0]);
	if (rc)
		return rc;
	out.f = open_output(o.output, "output");
	if (!out.f)
		return EXIT_BAD_DATA;
	out.blocks = o.format && !strcmp(o.format, "blocks");
	if (o.format && !strcmp(o.format, "pcseq")) {
		ops.insn = out_pcseq;
		out.img = &img;
		out.xlen = t.cfg.xlen;
		out.exts = t.cfg.exts;
	} else if (!out.blocks) {
		ops.insn = out_insn;
	}
	d = malloc(sizeof(*d));
	if (!d)
		return fail(EXIT_BAD_DATA, "out of memory");
	insn_limit_init(&out.lim, &o, &img);
	nx_dec_init(d, &t.cfg, &img, &ops);
	nx_dec_run(d, t.file.data + t.start, t.file.len - t.start, t.start);
	if (out.have_prev)	/* the last one: nothing came after it */
		put_pcseq(&out, out.prev_pc, 0);
	if (fflush(out.f) || (out.f != stdout && fclose(out.f)))
		return fail(EXIT_BAD_DATA, "cannot write '%s'", o.output);
	if (out.lim.hit)
		rc = insn_limit_fail(&out.lim, &o);
	else
		rc = trace_end_check(&t, d, &out.rep);
	fprintf(stderr, "[ rvperf nexus decode: %" PRIu64 " instructions from %"
		PRIu64 " messages; %lu damaged stretches, %lu Error messages, "
		"%" PRIu64 " messages skipped before a sync ]\n", d->n_insns,
		d->n_msgs, out.rep.damage, out.rep.errors, d->n_skipped);
	if (out.rep.damage)
		rc = EXIT_BAD_DATA;
	free(d);
	nx_image_free(&img);
	unmap_file(&t.file);
	return rc;
}

/* ---- dump */

static void dump_fields(FILE *f, const struct nx_msg *m, uint64_t *ref,
			const struct nx_config *cfg)
{
	if (cfg->src_bits)
		fprintf(f, " SRC=%u", m->src);
	switch (m->tcode) {
	case NX_TCODE_OWNERSHIP:
		fprintf(f, " PROCESS=0x%" PRIx64 " (FORMAT=%u PRV=%u V=%u",
			m->data, (unsigned int)(m->data & 3),
			(unsigned int)((m->data >> 2) & 3), (unsigned int)((m->data >> 4) & 1));
		if ((m->data & 3) >= 2)
			fprintf(f, " CONTEXT=0x%" PRIx64, m->data >> 5);
		fputc(')', f);
		break;
	case NX_TCODE_DIRECT_BRANCH:
		fprintf(f, " ICNT=%" PRIu64, m->icnt);
		break;
	case NX_TCODE_INDIRECT_BRANCH:
	case NX_TCODE_INDIRECT_BRANCH_HIST:
		*ref ^= m->addr;
		fprintf(f, " BTYPE=%u ICNT=%" PRIu64 " UADDR=0x%" PRIx64 " (0x%" PRIx64 ")",
			m->btype, m->icnt, m->addr >> 1, *ref);
		if (m->tcode == NX_TCODE_INDIRECT_BRANCH_HIST)
			fprintf(f, " HIST=0x%" PRIx64, m->hist);
		break;
	case NX_TCODE_ERROR:
		fprintf(f, " ETYPE=%u ECODE=0x%" PRIx64, m->etype, m->data);
		break;
	case NX_TCODE_PROG_TRACE_SYNC:
	case NX_TCODE_DIRECT_BRANCH_SYNC:
	case NX_TCODE_INDIRECT_BRANCH_SYNC:
	case NX_TCODE_INDIRECT_BRANCH_HIST_SYNC:
		*ref = m->addr;
		fprintf(f, " SYNC=%u", m->sync);
		if (m->tcode == NX_TCODE_INDIRECT_BRANCH_SYNC ||
		    m->tcode == NX_TCODE_INDIRECT_BRANCH_HIST_SYNC)
			fprintf(f, " BTYPE=%u", m->btype);
		fprintf(f, " ICNT=%" PRIu64 " FADDR=0x%" PRIx64 " (0x%" PRIx64 ")",
			m->icnt, m->addr >> 1, m->addr);
		if (m->tcode == NX_TCODE_INDIRECT_BRANCH_HIST_SYNC)
			fprintf(f, " HIST=0x%" PRIx64, m->hist);
		break;
	case NX_TCODE_RESOURCE_FULL:
		fprintf(f, " RCODE=%u RDATA=0x%" PRIx64, m->rcode, m->data);
		if (m->rcode == NX_RCODE_HIST_REPEAT)
			fprintf(f, " HREPEAT=%" PRIu64, m->rdata1);
		break;
	case NX_TCODE_REPEAT_BRANCH:
		fprintf(f, " BCNT=%" PRIu64, m->data);
		break;
	case NX_TCODE_PROG_TRACE_CORRELATION:
		fprintf(f, " EVCODE=%u CDF=%u ICNT=%" PRIu64, m->evcode, m->cdf, m->icnt);
		if (m->cdf == 1)
			fprintf(f, " HIST=0x%" PRIx64, m->hist);
		break;
	default:
		fprintf(f, " (%u variable fields)", m->n_vars);
		break;
	}
	if (m->has_tstamp)
		fprintf(f, " TSTAMP=0x%" PRIx64, m->tstamp);
}

static int cmd_dump(int argc, char **argv)
{
	const char *pos[1] = { NULL };
	struct nx_reader r;
	struct nx_msg m;
	struct trace t;
	struct opts o = { 0 };
	uint64_t ref = 0, n = 0, bad = 0;
	FILE *f;
	int rc;

	rc = parse(argc, argv, " -o TRACEOPTS ", &o, 1, pos);
	if (rc)
		return rc;
	if (!pos[0])
		return fail(EXIT_USAGE, "no trace file given");
	rc = open_trace(pos[0], &o, &t);
	if (rc)
		return rc;
	f = open_output(o.output, "output");
	if (!f)
		return EXIT_BAD_DATA;
	nx_reader_init(&r, &t.cfg, t.file.data + t.start, t.file.len - t.start, t.start);
	for (;;) {
		enum nx_read_status s = nx_read(&r, &m);
		size_t i;

		if (s == NX_READ_END)
			break;
		fprintf(f, "%08zx ", m.offset);
		for (i = 0; i < m.size && i < 12; i++)
			fprintf(f, " %02x", t.file.data[m.offset + i]);
		if (m.size > 12)
			fprintf(f, " ...");
		for (; i < 13; i++)
			fputs("   ", f);
		if (s == NX_READ_BAD) {
			fprintf(f, "  BAD (%zu bytes): %s\n", m.size, r.err);
			bad++;
			continue;
		}
		fprintf(f, "  %s", nx_tcode_name(m.tcode));
		dump_fields(f, &m, &ref, &t.cfg);
		fputc('\n', f);
		n++;
	}
	fflush(f);
	if (f != stdout)
		fclose(f);
	fprintf(stderr, "[ rvperf nexus dump: %" PRIu64 " messages, %" PRIu64
		" bad stretches, %zu bytes ]\n", n, bad, t.file.len - t.start);
	unmap_file(&t.file);
	return bad ? EXIT_BAD_DATA : 0;
}

/* ---- stat */

static int count_block(void *ctx, const struct nx_block *b)
{
	return insn_limit_add(ctx, b->n_insns);
}

static int cmd_stat(int argc, char **argv)
{
	const char *pos[1] = { NULL };
	struct nx_reader r;
	struct nx_msg m;
	struct trace t;
	struct opts o = { 0 };
	uint64_t by_tcode[64] = { 0 }, bytes_by_tcode[64] = { 0 }, n = 0, bad = 0;
	uint64_t msg_bytes = 0, insns = 0;
	size_t bytes;
	unsigned int i;
	int rc;

	rc = parse(argc, argv, " --elf --max-instructions TRACEOPTS ", &o, 1, pos);
	if (rc)
		return rc;
	if (!pos[0])
		return fail(EXIT_USAGE, "no trace file given");
	rc = open_trace(pos[0], &o, &t);
	if (rc)
		return rc;
	bytes = t.file.len - t.start;
	nx_reader_init(&r, &t.cfg, t.file.data + t.start, bytes, t.start);
	for (;;) {
		enum nx_read_status s = nx_read(&r, &m);

		if (s == NX_READ_END)
			break;
		if (s == NX_READ_BAD) {
			bad++;
			continue;
		}
		by_tcode[m.tcode & 63]++;
		bytes_by_tcode[m.tcode & 63] += m.size;
		msg_bytes += m.size;
		n++;
	}
	printf("%-24s %10s %12s\n", "message", "count", "bytes");
	for (i = 0; i < 64; i++)
		if (by_tcode[i])
			printf("%-24s %10" PRIu64 " %12" PRIu64 "\n", nx_tcode_name(i),
			       by_tcode[i], bytes_by_tcode[i]);
	printf("%-24s %10" PRIu64 " %12" PRIu64 "\n", "all messages", n, msg_bytes);
	printf("%-24s %10s %12zu\n", "idle and bad bytes", "",
	       bytes - (size_t)msg_bytes);
	if (bad)
		printf("bad stretches: %" PRIu64 "\n", bad);
	if (o.n_elf) {
		struct nx_decoder *d = malloc(sizeof(*d));
		struct insn_limit lim;
		struct nx_decoder_ops ops = { .block = count_block, .ctx = &lim };
		struct nx_image img;

		rc = load_images(&o, &t.cfg, &img, pos[0]);
		if (rc || !d)
			return rc ? rc : EXIT_BAD_DATA;
		insn_limit_init(&lim, &o, &img);
		nx_dec_init(d, &t.cfg, &img, &ops);
		nx_dec_run(d, t.file.data + t.start, bytes, t.start);
		insns = lim.n;
		if (lim.hit)
			bad += insn_limit_fail(&lim, &o) != 0;
		printf("instructions: %" PRIu64 "\n", insns);
		if (insns)
			printf("bits per instruction: %.4f\n", 8.0 * (double)bytes /
			       (double)insns);
		free(d);
		nx_image_free(&img);
	}
	unmap_file(&t.file);
	return bad ? EXIT_BAD_DATA : 0;
}

/* ---- instruction sources for the encoder: the plugin's itrace, PCSEQ,
 * PCONLY + ELF */

struct insn_source {
	struct nx_itrace it;
	bool have_it;
	/* text sources */
	FILE *text;
	bool pcseq;
	struct nx_image *img;
	unsigned long line;
	char err[160];
};

/* PCSEQ: "0xADDR,TYPE[SIZE][,0xDEST]"; PCONLY: "0xADDR" (with --elf). */
static int text_next(struct insn_source *s, uint64_t *pc, uint32_t *word,
		     struct nx_insn *typed, bool *has_type)
{
	char line[256], *p, *end;

	*has_type = false;
	for (;;) {
		if (!fgets(line, sizeof(line), s->text))
			return 0;
		s->line++;
		p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || *p == '#' || !*p)
			continue;
		break;
	}
	errno = 0;
	*pc = strtoull(p, &end, 16);
	if (errno || end == p) {
		snprintf(s->err, sizeof(s->err), "line %lu: no address", s->line);
		return -1;
	}
	*word = 0;
	if (s->img && nx_image_word(s->img, *pc, word)) {
		snprintf(s->err, sizeof(s->err), "line %lu: 0x%" PRIx64
			 " is outside the ELF images", s->line, *pc);
		return -1;
	}
	if (s->pcseq && *end == ',' && !s->img) {
		char *t = end + 1;
		unsigned int itype = RVP_ITYPE_NO_SPECIAL_TYPE;
		bool ind = t[1] == 'I';

		switch (t[0]) {
		case 'L': itype = RVP_ITYPE_NO_SPECIAL_TYPE; break;
		case 'B': itype = t[1] == 'N' ? RVP_ITYPE_NON_TAKEN_BRANCH
					      : RVP_ITYPE_TAKEN_BRANCH; break;
		case 'J': itype = ind ? RVP_ITYPE_OTHER_UNINFERABLE_JUMP
				      : RVP_ITYPE_OTHER_INFERABLE_JUMP; break;
		case 'C': itype = ind ? RVP_ITYPE_UNINFERABLE_CALL
				      : RVP_ITYPE_INFERABLE_CALL; break;
		case 'R': itype = RVP_ITYPE_RETURN; break;
		default:
			snprintf(s->err, sizeof(s->err), "line %lu: unknown type '%c'",
				 s->line, t[0]);
			return -1;
		}
		while (*t >= 'A' && *t <= 'Z')
			t++;
		memset(typed, 0, sizeof(*typed));
		typed->addr = *pc;
		typed->itype = itype;
		typed->len = *t == '2' ? 2 : 4;
		*has_type = true;
	}
	return 1;
}

/* Encodes what SRC gives into OUT (with the header unless RAW), also
 * writing the PC sequence to PCS when given. */
struct enc_stats {
	uint64_t insns, msgs, bytes;
};

static int encode_stream(struct insn_source *src, const struct nx_config *cfg,
			 bool raw, FILE *out, FILE *pcs, struct enc_stats *st)
{
	struct nx_encoder *e = malloc(sizeof(*e));
	struct nx_ingress g;
	struct nx_insn in;
	char hdr[1024];
	uint64_t n = 0;
	size_t hl;
	int r;

	if (!e)
		return fail(EXIT_BAD_DATA, "out of memory");
	hl = raw ? 0 : nx_header_format(cfg, hdr, sizeof(hdr));
	if (hl && fwrite(hdr, 1, hl, out) != hl) {
		free(e);
		return fail(EXIT_BAD_DATA, "cannot write the trace");
	}
	nx_enc_init(e, cfg, file_sink, out);
	nx_ingress_init(&g, cfg);
	/* The plugin's blocks go in whole (nx_ingress_block); the PC list
	 * needs them one by one. */
	while (src->have_it && !pcs) {
		struct nx_itrace_block *b;
		unsigned int priv;
		bool bad;

		b = nx_itrace_next_block(&src->it, &priv, &bad);
		if (!b) {
			if (bad) {
				free(e);
				return fail(EXIT_BAD_DATA, "the instruction trace is damaged");
			}
			break;
		}
		nx_ingress_block(&g, e, b, priv, n);
		n += b->n;
	}
	for (; !src->have_it || pcs;) {
		uint64_t pc;
		uint32_t word;
		unsigned int priv = 0;
		bool typed = false;

		if (src->text)
			r = text_next(src, &pc, &word, &in, &typed);
		else
			r = nx_itrace_next(&src->it, &pc, &word, &priv);
		if (r < 0) {
			free(e);
			return fail(EXIT_BAD_DATA, "%s", src->text ? src->err :
				    "the instruction trace is damaged");
		}
		if (!r)
			break;
		if (pcs)
			fprintf(pcs, "0x%" PRIX64 "\n", pc);
		if (typed) {
			in.tstamp = n;
			nx_enc_insn(e, &in);
		} else if (nx_ingress_step(&g, pc, word, priv, n, &in)) {
			nx_enc_insn(e, &in);
		}
		n++;
	}
	if (nx_ingress_flush(&g, &in))
		nx_enc_insn(e, &in);
	/* The traced run stops, as a hart entering debug mode (what NexRv
	 * writes too). */
	if (nx_enc_finish(e, NX_EVCODE_DEBUG)) {
		free(e);
		return fail(EXIT_BAD_DATA, "cannot write the trace");
	}
	st->insns = e->n_insns;
	st->msgs = e->n_msgs;
	st->bytes = e->n_bytes;
	free(e);
	return 0;
}

static void print_enc_stats(const char *what, const struct enc_stats *st,
			    const char *path)
{
	fprintf(stderr, "[ rvperf nexus %s: %" PRIu64 " instructions, %" PRIu64
		" messages, %" PRIu64 " bytes, %.4f bits per instruction, "
		"written to %s ]\n", what, st->insns, st->msgs, st->bytes,
		st->insns ? 8.0 * (double)st->bytes / (double)st->insns : 0.0, path);
}

static int cmd_encode(int argc, char **argv)
{
	struct opts o = { 0 };
	struct insn_source src;
	struct enc_stats st = { 0 };
	struct nx_image img;
	struct mapped m = { 0 };
	FILE *out, *pcs = NULL;
	int rc, given;

	rc = parse(argc, argv, " -o --elf --pcseq --pconly --itrace --pcs --raw "
		   "TRACEOPTS ", &o, 0, NULL);
	if (rc)
		return rc;
	given = !!o.pcseq + !!o.pconly + !!o.itrace;
	if (given != 1)
		return fail(EXIT_USAGE, "give one of --pcseq, --pconly or --itrace");
	if (!o.output)
		return fail(EXIT_USAGE, "no output: give -o TRACE");
	memset(&src, 0, sizeof(src));
	if (o.itrace) {
		if (map_file(o.itrace, &m) || nx_itrace_open(&src.it, m.data, m.len))
			return fail(EXIT_BAD_DATA, "'%s' is not a plugin instruction trace",
				    o.itrace);
		src.have_it = true;
	} else {
		if (o.pconly && !o.n_elf)
			return fail(EXIT_USAGE, "--pconly needs the program: --elf ELF");
		if (o.n_elf) {
			/* The program's class is its XLEN, unless --xlen
			 * says otherwise. */
			if (!o.xlen_given && (rc = xlen_from_elf(&o, &o.cfg.xlen)))
				return rc;
			rc = load_images(&o, &o.cfg, &img, NULL);
			if (rc)
				return rc;
			src.img = &img;
		}
		src.pcseq = !!o.pcseq;
		src.text = fopen(o.pcseq ? o.pcseq : o.pconly, "r");
		if (!src.text)
			return fail(EXIT_BAD_DATA, "cannot read '%s'",
				    o.pcseq ? o.pcseq : o.pconly);
	}
	out = open_output(o.output, "trace");
	if (!out)
		return EXIT_BAD_DATA;
	if (o.pcs && !(pcs = open_output(o.pcs, "PC list")))
		return EXIT_BAD_DATA;
	rc = encode_stream(&src, &o.cfg, o.raw, out, pcs, &st);
	if (!rc && (fclose(out) || (pcs && fclose(pcs))))
		rc = fail(EXIT_BAD_DATA, "cannot write '%s'", o.output);
	if (!rc)
		print_enc_stats("encode", &st, o.output);
	if (src.text)
		fclose(src.text);
	if (src.have_it)
		nx_itrace_free(&src.it);
	unmap_file(&m);
	return rc;
}

/* ---- record */

/* Writes TRACE.code: the blocks of the instruction trace outside the
 * program's ELF file, merged where they touch. */
static int write_code(const struct mapped *m, const char *prog,
		      const struct nx_config *cfg, const char *trace_path)
{
	struct { uint64_t start, end; const uint32_t *w; uint32_t n; } *blk = NULL;
	const uint32_t *w = (const uint32_t *)(m->data + 12);
	size_t nw = (m->len - 12) / 4, pos = 0, n = 0, cap = 0, i;
	char path[PATH_MAX], err[200];
	uint64_t ranges[16][2];
	uint8_t *bytes = NULL;
	FILE *f = NULL;
	int rc = 0, nr, ri;

	(void)cfg;
	nr = nx_image_exec_ranges(prog, ranges, 16, err, sizeof(err));
	if (nr < 0) {
		fprintf(stderr, "rvperf nexus record: note: %s; no code file written\n", err);
		return 0;
	}
	while (pos < nw) {
		uint32_t v = w[pos++];
		uint32_t k, len = 0;

		if (v == RVP_ITRACE_VCPU || v == RVP_ITRACE_PRIV) {
			pos++;
			continue;
		}
		if (v != RVP_ITRACE_DEF)
			continue;
		if (pos + 4 > nw || pos + 4 + w[pos + 1] > nw)
			break;
		for (k = 0; k < w[pos + 1]; k++)
			len += (w[pos + 4 + k] & 3) == 3 ? 4 : 2;
		{
			uint64_t start = w[pos + 2] | (uint64_t)w[pos + 3] << 32;
			bool inside = false;

			for (ri = 0; ri < nr; ri++)
				inside |= start - ranges[ri][0] < ranges[ri][1] - ranges[ri][0];
			if (!inside) {
				if (n == cap) {
					cap = cap * 2 + 16;
					blk = realloc(blk, cap * sizeof(*blk));
					if (!blk)
						return fail(EXIT_BAD_DATA, "out of memory");
				}
				blk[n].start = start;
				blk[n].end = start + len;
				blk[n].w = w + pos + 4;
				blk[n].n = w[pos + 1];
				n++;
			}
		}
		pos += 4 + w[pos + 1];
	}
	snprintf(path, sizeof(path), "%s.code", trace_path);
	if (!n) {
		unlink(path);
		free(blk);
		return 0;
	}
	f = fopen(path, "wb");
	if (!f) {
		free(blk);
		return fail(EXIT_BAD_DATA, "cannot write '%s'", path);
	}
	fputs(CODE_MAGIC, f);
	for (i = 0; i < n; i++) {
		uint32_t len = (uint32_t)(blk[i].end - blk[i].start), k, at = 0;

		bytes = realloc(bytes, len);
		if (!bytes) {
			rc = fail(EXIT_BAD_DATA, "out of memory");
			break;
		}
		for (k = 0; k < blk[i].n; k++) {
			uint32_t word = blk[i].w[k];

			memcpy(bytes + at, &word, (word & 3) == 3 ? 4 : 2);
			at += (word & 3) == 3 ? 4 : 2;
		}
		fwrite(&blk[i].start, 8, 1, f);
		fwrite(&len, 4, 1, f);
		fwrite(bytes, 1, len, f);
	}
	if (fclose(f) && !rc)
		rc = fail(EXIT_BAD_DATA, "cannot write '%s'", path);
	fprintf(stderr, "[ rvperf nexus record: %zu blocks ran outside %s: their code "
		"is in %s ]\n", n, prog, path);
	free(bytes);
	free(blk);
	return rc;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* PCS: the PC of every instruction in the instruction trace (PCONLY). */
static int write_pcs(const struct mapped *m, const char *path)
{
	struct nx_itrace it;
	uint64_t pc;
	uint32_t word;
	unsigned int priv;
	FILE *f;
	int r;

	if (nx_itrace_open(&it, m->data, m->len))
		return fail(EXIT_BAD_DATA, "the plugin wrote no instruction trace");
	f = open_output(path, "PC list");
	if (!f) {
		nx_itrace_free(&it);
		return EXIT_BAD_DATA;
	}
	while ((r = nx_itrace_next(&it, &pc, &word, &priv)) > 0)
		fprintf(f, "0x%" PRIX64 "\n", pc);
	nx_itrace_free(&it);
	if (fclose(f) || r < 0)
		return fail(EXIT_BAD_DATA, r < 0 ? "the instruction trace is damaged"
			    : "cannot write '%s'", path);
	return 0;
}

/* Appends ",nx-KEY=VALUE" for every option of CFG (the header's lines)
 * to ARG: the plugin encodes with exactly these.  sync-mode goes after
 * sync, which would otherwise turn it on. */
static int plugin_trace_opts(const struct nx_config *cfg, char *arg, size_t len)
{
	char hdr[1024], *line, *save = NULL, sync_mode[64] = "";
	size_t n = strlen(arg);

	nx_header_format(cfg, hdr, sizeof(hdr));
	for (line = strtok_r(hdr, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strchr(line, '='))
			continue;	/* the magic and "end" */
		if (!strncmp(line, "sync-mode=", 10)) {
			snprintf(sync_mode, sizeof(sync_mode), "%s", line);
			continue;
		}
		n += (size_t)snprintf(arg + n, n < len ? len - n : 0, ",nx-%s", line);
	}
	n += (size_t)snprintf(arg + n, n < len ? len - n : 0, ",nx-%s", sync_mode);
	return n < len ? 0 : -1;
}

static int cmd_record(int argc, char **argv)
{
	char plugin_buf[PATH_MAX], plugin_arg[PATH_MAX * 4];
	char tmp_path[PATH_MAX];
	const char *output, *qemu, *side;
	struct opts o = { 0 };
	struct mapped m = { 0 };
	struct stat sb;
	char *args[64 + 256];
	double t0, t1;
	int rc = 0, n = 0, i, status, fd;
	pid_t pid;

	rc = parse(argc, argv, " -o --pcs --qemu --plugin --itrace --system TRACEOPTS ",
		   &o, 0, NULL);
	if (rc)
		return rc;
	if (!o.prog_argv || !o.prog_argv[0])
		return fail(EXIT_USAGE, "no program: rvperf nexus record [OPTIONS] -- PROG [ARGS]");
	output = o.output ? o.output : "trace.nxt";
	if (!strcmp(output, "-"))
		return fail(EXIT_USAGE, "the plugin writes the trace to a file: give -o FILE");
	{
		const char *env = getenv(o.system ? "RVPERF_QEMU_SYSTEM" : "RVPERF_QEMU");

		qemu = o.qemu ? o.qemu : env && *env ? env :
		       o.system ? "qemu-system-riscv64" : "qemu-riscv64";
	}
	if (!o.plugin)
		o.plugin = rvperf_plugin_path("RVPERF_PLUGIN", "librvperf-ctr.so",
					      plugin_buf, sizeof(plugin_buf));
	if (!o.plugin || stat(o.plugin, &sb))
		return fail(EXIT_USAGE, "no plugin at '%s' (build it, or pass --plugin)",
			    o.plugin ? o.plugin : "?");
	/* The plugin encodes while QEMU runs (nexus=OUTPUT).  Beside the
	 * trace it writes the blocks it saw (blocks=, for OUTPUT.code), or
	 * with --itrace or --pcs the whole instruction trace (itrace=), the
	 * ground truth the PC list comes from. */
	if (o.itrace) {
		side = o.itrace;
	} else {
		rvperf_temp_template(tmp_path, sizeof(tmp_path), "rvperf-itrace");
		fd = mkstemp(tmp_path);
		if (fd < 0)
			return fail(EXIT_BAD_DATA, "cannot create a temporary file");
		close(fd);
		side = tmp_path;
	}
	if (strchr(output, ',') || strchr(side, ',') || strchr(o.plugin, ',')) {
		rc = fail(EXIT_USAGE, "a path with ',' cannot be a QEMU plugin option");
		goto out;
	}
	snprintf(plugin_arg, sizeof(plugin_arg), "%s,out=/dev/null,event=none,%s=%s,nexus=%s",
		 o.plugin, o.itrace || o.pcs ? "itrace" : "blocks", side, output);
	if (plugin_trace_opts(&o.cfg, plugin_arg, sizeof(plugin_arg))) {
		rc = fail(EXIT_USAGE, "the plugin's options are too long");
		goto out;
	}
	args[n++] = (char *)qemu;
	if (o.system) {
		/* The rest of the QEMU command line is the user's. */
		args[n++] = "-plugin";
		args[n++] = plugin_arg;
	} else {
		if (access("/usr/riscv64-linux-gnu", F_OK) == 0) {
			args[n++] = "-L";
			args[n++] = "/usr/riscv64-linux-gnu";
		}
		args[n++] = "-plugin";
		args[n++] = plugin_arg;
	}
	for (i = 0; o.prog_argv[i] && n < (int)(sizeof(args) / sizeof(args[0])) - 1; i++)
		args[n++] = o.prog_argv[i];
	args[n] = NULL;
	/* A trace left from before must not pass for this run's. */
	unlink(output);
	t0 = now();
	pid = fork();
	if (pid < 0) {
		rc = fail(EXIT_BAD_DATA, "cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		execvp(qemu, args);
		fprintf(stderr, "rvperf nexus record: cannot run %s: %s\n", qemu,
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			rc = fail(EXIT_BAD_DATA, "waitpid: %s", strerror(errno));
			goto out;
		}
	}
	t1 = now();
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		rc = fail(EXIT_BAD_DATA, "could not run %s", qemu);
		goto out;
	}
	if (stat(output, &sb) || map_file(side, &m) || m.len < 12 ||
	    memcmp(m.data, RVP_ITRACE_MAGIC, 8)) {
		rc = fail(EXIT_BAD_DATA, "the plugin wrote no trace (did QEMU load %s?)",
			  o.plugin);
		goto out;
	}
	if (o.pcs)
		rc = write_pcs(&m, o.pcs);
	if (!rc) {
		/* The program: PROG, or qemu-system's -kernel. */
		const char *prog = o.system ? NULL : o.prog_argv[0];

		for (i = 0; o.system && o.prog_argv[i] && o.prog_argv[i + 1]; i++)
			if (!strcmp(o.prog_argv[i], "-kernel"))
				prog = o.prog_argv[i + 1];
		if (prog)
			rc = write_code(&m, prog, &o.cfg, output);
	}
	if (!rc)
		fprintf(stderr, "[ rvperf nexus record: QEMU ran %.2f s (encoding "
			"included), then %.2f s ]\n", t1 - t0, now() - t1);
	if (!rc && WIFEXITED(status) && WEXITSTATUS(status))
		rc = WEXITSTATUS(status);
	else if (!rc && WIFSIGNALED(status))
		rc = 128 + WTERMSIG(status);
out:
	unmap_file(&m);
	if (!o.itrace)
		unlink(tmp_path);
	return rc;
}

/* ---- inject: perf samples with branch stacks from a decoded trace */

#define INJECT_DEPTH	16

struct inject {
	struct pd_writer w;
	struct nx_image *img;
	unsigned int xlen, exts;
	uint64_t period, left, insns;
	uint32_t pid;
	struct pd_branch ring[INJECT_DEPTH];
	unsigned int head, n;
	uint64_t samples;
	bool due;		/* a sample waits for the next block */
	int rc;
	struct insn_limit lim;
};

/* The perf branch type of the transfer at PC (the shared classifier). */
static unsigned int perf_type(struct inject *in, uint64_t pc)
{
	struct insnhw_class c;
	uint32_t word;

	if (nx_image_word(in->img, pc, &word))
		return PERF_BR_UNKNOWN;
	insnhw_classify(word, in->xlen, in->exts, true, &c);
	if (c.conditional)
		return PERF_BR_COND;
	switch (c.itype) {
	case RVP_ITYPE_INFERABLE_CALL: return PERF_BR_CALL;
	case RVP_ITYPE_UNINFERABLE_CALL: return PERF_BR_IND_CALL;
	case RVP_ITYPE_RETURN: return PERF_BR_RET;
	case RVP_ITYPE_OTHER_UNINFERABLE_JUMP: return PERF_BR_IND;
	case RVP_ITYPE_EXCEPTION: return PERF_BR_SYSCALL;
	case RVP_ITYPE_EXCEPTION_OR_INTERRUPT_RETURN: return PERF_BR_ERET;
	default: return PERF_BR_UNCOND;
	}
}

static uint64_t last_insn(struct nx_image *img, uint64_t start, uint64_t end)
{
	uint64_t pc = start, last = start;
	uint32_t w;

	while (pc < end && !nx_image_word(img, pc, &w)) {
		last = pc;
		pc += (w & 3) == 3 ? 4 : 2;
	}
	return last;
}

static void write_sample(struct inject *in, uint64_t ip)
{
	struct pd_branch br[INJECT_DEPTH];
	struct pd_sample s = { 0 };
	unsigned int i;

	for (i = 0; i < in->n; i++)	/* newest first */
		br[i] = in->ring[(in->head + INJECT_DEPTH - 1 - i) % INJECT_DEPTH];
	s.ip = ip;
	s.pid = s.tid = in->pid;
	s.time = in->insns;
	s.period = in->period;
	s.nr_branches = in->n;
	s.branches = br;
	s.has_hw_idx = 1;
	in->rc |= pd_write_sample(&in->w, &s);
	in->samples++;
}

/*
 * The counter overflows as the PERIOD-th instruction retires, and as with
 * the CTR plugin the sample is taken there: its ip the next instruction,
 * its stack the transfers up to there, and the next period counted from
 * the instruction after it.  An overflow at a block's last instruction
 * waits for the next block, which gives the transfer's target.
 */
static int inject_block(void *ctx, const struct nx_block *b)
{
	struct inject *in = ctx;
	uint64_t pc = b->start, left_in_block = b->n_insns;

	if (in->due) {		/* due at the end of the previous block */
		write_sample(in, b->start);
		in->due = false;
	}
	while (left_in_block) {
		uint32_t w;
		unsigned int len;

		if (nx_image_word(in->img, pc, &w))
			w = 0;
		len = (w & 3) == 3 ? 4 : 2;
		in->insns++;
		left_in_block--;
		if (!--in->left) {
			in->left = in->period;	/* the handler rearms it */
			if (left_in_block)
				write_sample(in, pc + len);
			else
				in->due = true;
		}
		pc += len;
	}
	if (b->end_kind == NX_END_TRANSFER) {
		uint64_t from = last_insn(in->img, b->start, b->end);
		struct pd_branch *e = &in->ring[in->head];

		e->from = from;
		e->to = 0;	/* filled by the next block */
		e->flags = pd_branch_flags(0, 0, 0, perf_type(in, from), 0,
					   b->priv == 0 ? PERF_BR_PRIV_USER :
					   PERF_BR_PRIV_KERNEL);
		in->head = (in->head + 1) % INJECT_DEPTH;
		if (in->n < INJECT_DEPTH)
			in->n++;
	}
	return in->rc;
}

/* The target of the newest transfer is the next block's start. */
static int inject_block_first(void *ctx, const struct nx_block *b)
{
	struct inject *in = ctx;

	if (in->n) {
		struct pd_branch *e = &in->ring[(in->head + INJECT_DEPTH - 1) % INJECT_DEPTH];

		if (!e->to)
			e->to = b->start;
	}
	if (insn_limit_add(&in->lim, b->n_insns))
		return 1;
	return inject_block(ctx, b);
}

static int cmd_inject(int argc, char **argv)
{
	struct pd_writer_config pcfg = {
		.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
		.exclude_kernel = 1, .exclude_hv = 1,
		.arch = "riscv64", .osrelease = "N-Trace (rvperf nexus inject)",
		.nr_cpus = 1,
	};
	struct nx_decoder_ops ops = { .block = inject_block_first };
	struct inject *in;
	struct nx_decoder *d;
	struct nx_image img;
	struct elf_syms es;
	struct trace t;
	struct opts o = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0, pgoff = 0;
	const char *output;
	size_t i;
	int rc;

	rc = parse(argc, argv, " -i -o --elf --period --max-instructions TRACEOPTS ",
		   &o, 0, NULL);
	if (rc)
		return rc;
	if (!o.input)
		return fail(EXIT_USAGE, "no trace: give -i TRACE");
	if (o.n_elf != 1 || o.elf_base[0] != NX_ELF_NATIVE_BASE)
		return fail(EXIT_USAGE, "give the traced program once: --elf ELF");
	output = o.output ? o.output : "perf.data";
	rc = open_trace(o.input, &o, &t);
	if (rc)
		return rc;
	rc = load_images(&o, &t.cfg, &img, o.input);
	if (rc)
		return rc;
	if (elf_syms_load(&es, o.elf[0]))
		return fail(EXIT_BAD_DATA, "cannot read '%s'", o.elf[0]);
	in = calloc(1, sizeof(*in));
	d = malloc(sizeof(*d));
	if (!in || !d)
		return fail(EXIT_BAD_DATA, "out of memory");
	in->img = &img;
	in->xlen = t.cfg.xlen;
	in->exts = t.cfg.exts;
	in->period = o.period ? o.period : 10007;
	in->left = in->period;
	in->pid = 1;
	pcfg.sample_period = in->period;
	if (pd_writer_open(&in->w, output, &pcfg))
		return fail(EXIT_BAD_DATA, "cannot write '%s'", output);
	for (i = 0; i < es.nr_segments; i++) {
		const struct elf_segment *s = &es.segments[i];

		if (!(s->flags & ELF_PF_X))
			continue;
		if (s->vaddr < lo) {
			lo = s->vaddr;
			pgoff = s->offset;
		}
		if (s->vaddr + s->memsz > hi)
			hi = s->vaddr + s->memsz;
	}
	{
		const char *base = strrchr(o.elf[0], '/');

		in->rc |= pd_write_comm(&in->w, in->pid, in->pid,
					base ? base + 1 : o.elf[0], 0);
	}
	if (lo < hi)
		in->rc |= pd_write_mmap2(&in->w, in->pid, in->pid, lo & ~0xfffULL,
					 hi - (lo & ~0xfffULL), pgoff & ~0xfffULL,
					 o.elf[0], es.build_id, es.build_id_size, 0);
	ops.ctx = in;
	insn_limit_init(&in->lim, &o, &img);
	nx_dec_init(d, &t.cfg, &img, &ops);
	nx_dec_run(d, t.file.data + t.start, t.file.len - t.start, t.start);
	if (pd_writer_close(&in->w) || in->rc)
		return fail(EXIT_BAD_DATA, "cannot write '%s'", output);
	fprintf(stderr, "[ rvperf nexus inject: %" PRIu64 " samples of %u branches "
		"from %" PRIu64 " instructions, written to %s%s ]\n", in->samples,
		INJECT_DEPTH, d->n_insns, output, d->n_damage ? "; the trace has damage" : "");
	rc = d->n_damage ? EXIT_BAD_DATA : 0;
	if (in->lim.hit)
		rc = insn_limit_fail(&in->lim, &o);
	free(in);
	free(d);
	elf_syms_free(&es);
	nx_image_free(&img);
	unmap_file(&t.file);
	return rc;
}

/* ---- dispatch */

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;
} subs[] = {
	{ "record", cmd_record,
	  "rvperf nexus record [-o FILE] [--pcs PCS] [TRACE OPTIONS] [--qemu QEMU]\n"
	  "                    [--plugin SO] [--itrace KEEP] [--system] -- PROG [ARGS]\n"
	  "  Runs PROG under qemu-riscv64 (or QEMU, $RVPERF_QEMU; with --system\n"
	  "  qemu-system-riscv64 or $RVPERF_QEMU_SYSTEM) with the plugin, which\n"
	  "  encodes N-Trace block by block as it runs into FILE (default\n"
	  "  trace.nxt, with its options in a header).  --itrace KEEP also keeps\n"
	  "  the plugin's instruction trace, the ground truth ('rvperf nexus\n"
	  "  encode --itrace KEEP' with the same options writes the same bytes);\n"
	  "  --pcs writes the executed PCs from it (PCONLY form).  --system: the\n"
	  "  words after -- are a qemu-system-riscv64 command line (privilege\n"
	  "  modes from QEMU 9.0's register API, else guessed from the address).\n"
	  "  Code that ran outside PROG (or -kernel) goes to FILE.code, which\n"
	  "  decode reads with FILE." },
	{ "decode", cmd_decode,
	  "rvperf nexus decode TRACE --elf ELF[@ADDR]... [-o OUT]\n"
	  "                    [--format pconly|pcseq|blocks] [--max-instructions N]\n"
	  "                    [TRACE OPTIONS]\n"
	  "  Rebuilds the executed instructions from TRACE and the program images\n"
	  "  (ELF at its own addresses, or its lowest segment loaded at ADDR):\n"
	  "  pconly (default) prints one 0xPC per instruction, pcseq NexRv's\n"
	  "  0xPC,TYPE lines, blocks 'start end count' per run.  A raw trace (no\n"
	  "  header) decodes with the options it was encoded with; its XLEN is\n"
	  "  the ELF's class unless --xlen says it.  Stops (exit 1) after N\n"
	  "  instructions (default: 65536 per byte of the images' code; 0: no\n"
	  "  limit), and exits 1 when the trace's end is missing (cut inside a\n"
	  "  message, or no ProgTraceCorrelation last), saying where." },
	{ "encode", cmd_encode,
	  "rvperf nexus encode (--pcseq FILE | --pconly FILE --elf ELF | --itrace FILE)\n"
	  "                    -o TRACE [--pcs PCS] [--raw] [TRACE OPTIONS]\n"
	  "  Encodes an instruction sequence: NexRv's PCSEQ text (0xADDR,TYPE;\n"
	  "  with --elf the types come from our classifier instead), PCONLY text\n"
	  "  with the ELF, or the plugin's instruction trace.  With --elf, XLEN is\n"
	  "  the ELF's class unless --xlen says it.  --raw: the messages alone,\n"
	  "  no header (as NexRv writes them; decode them with the same options)." },
	{ "dump", cmd_dump,
	  "rvperf nexus dump TRACE [-o OUT] [TRACE OPTIONS]\n"
	  "  Every message with its byte offset, bytes and fields." },
	{ "stat", cmd_stat,
	  "rvperf nexus stat TRACE [--elf ELF[@ADDR]...] [--max-instructions N]\n"
	  "                  [TRACE OPTIONS]\n"
	  "  Messages and bytes by type; with the program, the instructions and\n"
	  "  bits per instruction." },
	{ "inject", cmd_inject,
	  "rvperf nexus inject -i TRACE --elf ELF [-o perf.data] [--period N]\n"
	  "                    [--max-instructions N]\n"
	  "  perf samples every N instructions (default 10007), each with the 16\n"
	  "  transfers before it as its branch stack, for rvperf report, rvperf\n"
	  "  autofdo and perf report -b." },
};

#define TRACE_OPTIONS_HELP \
	"\ntrace options (stored in the trace's header; for a raw trace, say them\n" \
	"again when decoding): --mode btm|htm  --callstack N | --return-counter N |\n" \
	"  --partial-callstack N  --repeat 0|1|2|3  --timestamps  --sync N\n" \
	"  [--sync-mode messages|icnt]  --ownership  --seq-jump  --all-jumps\n" \
	"  --ext-addr-msb  --src-bits N --src-id N  --icnt-bits N  --icnt-sync\n" \
	"  --hist-bits N\n" \
	"  --xlen 32|64  --start-sync N  --exts N\n"

int rvperf_nexus(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		puts("usage: rvperf nexus SUBCOMMAND [ARGS]\n\nsubcommands:");
		for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
			printf("  %s\n", subs[i].usage);
		fputs(TRACE_OPTIONS_HELP, stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		if (strcmp(argv[1], subs[i].name))
			continue;
		sub = subs[i].name;
		if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			printf("usage: %s\n", subs[i].usage);
			fputs(TRACE_OPTIONS_HELP, stdout);
			return 0;
		}
		return subs[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "rvperf nexus: '%s' is not a subcommand (see 'rvperf nexus --help')\n",
		argv[1]);
	return EXIT_USAGE;
}
