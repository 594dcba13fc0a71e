// SPDX-License-Identifier: BSD-2-Clause
/*
 * script.c - `rvperf script`: the samples of a perf.data file, one line
 * each, as perf 6.12's `perf script -F FIELDS` prints them for the fields
 * both have (builtin-script.c: perf_sample__fprintf_start, process_event,
 * the brstack printers): comm, tid, pid, time, period, addr, ip, sym,
 * symoff, dso, brstack, brstacksym.  Symbols are perf's own choice of the
 * mapped files' symbols (elf_syms_load_perf), looked up through each
 * process's mappings as perf's thread maps do.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "userspace/elf/elf_syms.h"
#include "userspace/perfdata/perf_data.h"
#include "script.h"

#define EXIT_BAD_DATA	1
#define EXIT_USAGE	2

enum script_field {
	F_COMM = 1 << 0, F_TID = 1 << 1, F_PID = 1 << 2, F_TIME = 1 << 3,
	F_PERIOD = 1 << 4, F_ADDR = 1 << 5, F_IP = 1 << 6, F_SYM = 1 << 7,
	F_SYMOFF = 1 << 8, F_DSO = 1 << 9, F_BRSTACK = 1 << 10,
	F_BRSTACKSYM = 1 << 11,
};

/* Each field, and the sample_type bit perf requires for it. */
static const struct {
	const char *name;
	unsigned int field;
	uint64_t needs;
	const char *needs_name;
} field_names[] = {
	{ "comm", F_COMM, 0, NULL },
	{ "tid", F_TID, PERF_SAMPLE_TID, "TID" },
	{ "pid", F_PID, PERF_SAMPLE_TID, "TID" },
	{ "time", F_TIME, PERF_SAMPLE_TIME, "TIME" },
	{ "period", F_PERIOD, 0, NULL },	/* else the attr's */
	{ "addr", F_ADDR, PERF_SAMPLE_ADDR, "ADDR" },
	{ "ip", F_IP, PERF_SAMPLE_IP, "IP" },
	{ "sym", F_SYM, 0, NULL },
	{ "symoff", F_SYMOFF, 0, NULL },
	{ "dso", F_DSO, 0, NULL },
	{ "brstack", F_BRSTACK, PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ "brstacksym", F_BRSTACKSYM, PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
};

#define NR_FIELDS (sizeof(field_names) / sizeof(field_names[0]))

static int parse_fields(const char *spec, unsigned int *fields)
{
	char buf[256], *tok, *save = NULL;
	size_t i;

	if (strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	*fields = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_FIELDS; i++)
			if (!strcmp(tok, field_names[i].name))
				break;
		if (i == NR_FIELDS)
			return -1;
		*fields |= field_names[i].field;
	}
	return *fields ? 0 : -1;
}

/* ---- processes: names, mappings, the symbols of mapped files */

struct dso {
	char *name;
	struct elf_syms syms;
	int loaded;		/* tried: syms holds what there is */
};

struct mapping {
	uint32_t pid;
	uint64_t start, len, pgoff;
	struct dso *dso;
};

struct comm {
	uint32_t tid;
	char name[32];
};

struct script {
	unsigned int fields;
	struct comm *comms;
	size_t nr_comms;
	struct mapping *maps;
	size_t nr_maps;
	struct dso **dsos;
	size_t nr_dsos;
};

/* perf names a thread without COMM ":TID" (thread__new). */
static const char *comm_of(const struct script *sc, uint32_t tid, char *buf,
			   size_t size)
{
	size_t i = sc->nr_comms;

	while (i--)
		if (sc->comms[i].tid == tid)
			return sc->comms[i].name;
	snprintf(buf, size, ":%" PRId32, (int32_t)tid);
	return buf;
}

static struct dso *dso_of(struct script *sc, const char *name)
{
	struct dso **list, *d;
	size_t i;

	for (i = 0; i < sc->nr_dsos; i++)
		if (!strcmp(sc->dsos[i]->name, name))
			return sc->dsos[i];
	list = realloc(sc->dsos, (sc->nr_dsos + 1) * sizeof(*list));
	if (!list)
		return NULL;
	sc->dsos = list;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	return sc->dsos[sc->nr_dsos++] = d;
}

/* The mapping of pid holding addr: the latest, as a newer mapping
 * replaces what it overlaps in perf's maps. */
static const struct mapping *mapping_at(const struct script *sc, uint32_t pid,
					uint64_t addr)
{
	size_t i = sc->nr_maps;

	while (i--) {
		const struct mapping *m = &sc->maps[i];

		if (m->pid == pid && addr >= m->start && addr - m->start < m->len)
			return m;
	}
	return NULL;
}

/* The symbol at addr and its offset, or NULL (perf: "[unknown]"). */
static const struct elf_sym *symbol_at(const struct mapping *m, uint64_t addr,
				       uint64_t *offset)
{
	struct dso *d = m ? m->dso : NULL;
	const struct elf_sym *s;
	uint64_t vaddr;

	if (!d)
		return NULL;
	if (!d->loaded) {
		/* One line per file whose addresses cannot all be named (not
		 * found, no symbol table); perf names them "[unknown]"
		 * without a word. */
		d->loaded = 1;
		if (elf_syms_load_perf(&d->syms, d->name)) {
			if (!elf_pseudo_file(d->name))
				fprintf(stderr, "rvperf script: warning: %s: %s "
					"(its addresses stay [unknown])\n",
					d->name, d->syms.error);
			memset(&d->syms, 0, sizeof(d->syms));
		} else if (d->syms.no_symtab) {
			fprintf(stderr, "rvperf script: warning: %s: %s\n",
				d->name, d->syms.warning);
		}
	}
	if (!elf_offset_to_vaddr(&d->syms, addr - m->start + m->pgoff, &vaddr))
		return NULL;
	s = elf_syms_find(&d->syms, vaddr);
	if (s)
		*offset = vaddr - s->addr;
	return s;
}

/* ---- printing */

static void print_dso(const struct mapping *m)
{
	printf(" (%s)", m ? m->dso->name : "[unknown]");
}

static void print_sym(const struct mapping *m, uint64_t addr)
{
	uint64_t off = 0;
	const struct elf_sym *s = symbol_at(m, addr, &off);

	if (s)
		printf("%s+0x%" PRIx64, s->name, off);
	else
		fputs("[unknown]", stdout);
}

static char mispred_char(uint64_t flags)
{
	if (!PD_BR_MISPRED(flags) && !PD_BR_PREDICTED(flags))
		return '-';
	return PD_BR_PREDICTED(flags) ? 'P' : 'M';
}

static void print_branch_flags(uint64_t flags)
{
	static const char *const spec[] = {
		"N/A", "SPEC_WRONG_PATH", "NON_SPEC_CORRECT_PATH",
		"SPEC_CORRECT_PATH",
	};

	printf("/%c/%c/%c/%u/%s/%s ", mispred_char(flags),
	       PD_BR_IN_TX(flags) ? 'X' : '-', PD_BR_ABORT(flags) ? 'A' : '-',
	       PD_BR_CYCLES(flags),
	       pd_branch_type_name(PD_BR_TYPE(flags), PD_BR_NEW_TYPE(flags)),
	       PD_BR_SPEC(flags) ? spec[PD_BR_SPEC(flags)] : "-");
}

static void print_sample(struct script *sc, const struct pd_sample *s)
{
	unsigned int f = sc->fields;
	char buf[32];
	uint64_t i;

	if (f & F_COMM)
		printf("%16s ", comm_of(sc, s->tid, buf, sizeof(buf)));
	if ((f & F_PID) && (f & F_TID))
		printf("%7" PRId32 "/%-7" PRId32 " ", (int32_t)s->pid,
		       (int32_t)s->tid);
	else if (f & F_PID)
		printf("%7" PRId32 " ", (int32_t)s->pid);
	else if (f & F_TID)
		printf("%7" PRId32 " ", (int32_t)s->tid);
	if (f & F_TIME) {
		snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64,
			 s->time / 1000000000, s->time % 1000000000 / 1000);
		printf("%12s: ", buf);
	}
	if (f & F_PERIOD)	/* a fixed period is the attr's alone */
		printf("%10" PRIu64 " ", s->attr && !(s->attr->sample_type &
						       PERF_SAMPLE_PERIOD) ?
		       (uint64_t)s->attr->sample_period : s->period);
	/* perf names the sample's addr only for page faults and BTS. */
	if (f & F_ADDR)
		printf("%16" PRIx64, s->addr);
	/* sym, symoff and dso describe the IP: nothing without ip. */
	if (f & F_IP) {
		const struct mapping *m = mapping_at(sc, s->pid, s->ip);

		printf(" %16" PRIx64, s->ip);
		if (f & F_SYM) {
			putchar(' ');
			if (f & F_SYMOFF) {
				print_sym(m, s->ip);
			} else {
				uint64_t off;
				const struct elf_sym *sym =
					symbol_at(m, s->ip, &off);

				fputs(sym ? sym->name : "[unknown]", stdout);
			}
		}
		if (f & F_DSO)
			print_dso(m);
	}
	/* brstack wins over brstacksym, as in perf. */
	for (i = 0; (f & (F_BRSTACK | F_BRSTACKSYM)) && i < s->nr_branches;
	     i++) {
		const struct pd_branch *b = &s->branches[i];
		const struct mapping *from = mapping_at(sc, s->pid, b->from);
		const struct mapping *to = mapping_at(sc, s->pid, b->to);

		if (f & F_BRSTACK) {
			printf(" 0x%" PRIx64, b->from);
			if (f & F_DSO)
				print_dso(from);
			printf("/0x%" PRIx64, b->to);
			if (f & F_DSO)
				print_dso(to);
		} else {
			print_sym(from, b->from);
			if (f & F_DSO)
				print_dso(from);
			putchar('/');
			print_sym(to, b->to);
			if (f & F_DSO)
				print_dso(to);
		}
		print_branch_flags(b->flags);
	}
	putchar('\n');
}

/* perf refuses a field whose data the samples lack, before printing. */
static int check_fields(const struct pd_reader *r, unsigned int fields,
			const char *input)
{
	unsigned int a;
	size_t i;

	for (a = 0; a < r->nr_attrs; a++)
		for (i = 0; i < NR_FIELDS; i++)
			if ((fields & field_names[i].field) &&
			    field_names[i].needs &&
			    !(r->attrs[a].sample_type & field_names[i].needs)) {
				fprintf(stderr, "rvperf script: %s: the samples "
					"have no %s: cannot print '%s'\n", input,
					field_names[i].needs_name,
					field_names[i].name);
				return -1;
			}
	return 0;
}

static int add_comm(struct script *sc, const struct pd_record *rec)
{
	struct comm *t = realloc(sc->comms, (sc->nr_comms + 1) * sizeof(*t));

	if (!t)
		return -1;
	sc->comms = t;
	t[sc->nr_comms].tid = rec->tid;
	snprintf(t[sc->nr_comms].name, sizeof(t[sc->nr_comms].name), "%s",
		 rec->name);
	sc->nr_comms++;
	return 0;
}

static int add_mapping(struct script *sc, const struct pd_record *rec)
{
	struct mapping *m = realloc(sc->maps, (sc->nr_maps + 1) * sizeof(*m));

	if (!m)
		return -1;
	sc->maps = m;
	m += sc->nr_maps;
	m->pid = rec->pid;
	m->start = rec->map_start;
	m->len = rec->map_len;
	m->pgoff = rec->map_pgoff;
	m->dso = dso_of(sc, rec->name);
	if (!m->dso)
		return -1;
	sc->nr_maps++;
	return 0;
}

/* A new process has its parent's mappings and a new thread its parent
 * thread's comm, until records of its own say otherwise (perf's
 * thread__fork). */
static int add_fork(struct script *sc, const struct pd_record *rec)
{
	size_t i, n = sc->nr_maps;
	struct comm *c;
	char buf[32];
	const char *parent = comm_of(sc, rec->ptid, buf, sizeof(buf));

	if (rec->pid != rec->ppid) {
		for (i = 0; i < n; i++) {
			struct mapping *m;

			if (sc->maps[i].pid != rec->ppid)
				continue;
			m = realloc(sc->maps, (sc->nr_maps + 1) * sizeof(*m));
			if (!m)
				return -1;
			sc->maps = m;
			m[sc->nr_maps] = m[i];
			m[sc->nr_maps++].pid = rec->pid;
		}
	}
	if (parent == buf)	/* no comm to inherit */
		return 0;
	c = realloc(sc->comms, (sc->nr_comms + 1) * sizeof(*c));
	if (!c)
		return -1;
	sc->comms = c;
	c[sc->nr_comms].tid = rec->tid;
	snprintf(c[sc->nr_comms].name, sizeof(c[sc->nr_comms].name), "%s",
		 parent);
	sc->nr_comms++;
	return 0;
}

static void free_script(struct script *sc)
{
	size_t i;

	for (i = 0; i < sc->nr_dsos; i++) {
		elf_syms_free(&sc->dsos[i]->syms);
		free(sc->dsos[i]->name);
		free(sc->dsos[i]);
	}
	free(sc->dsos);
	free(sc->maps);
	free(sc->comms);
}

int rvperf_script(int argc, char **argv)
{
	struct script sc = { .fields = F_COMM | F_TID | F_IP | F_BRSTACK };
	const char *input = "perf.data";
	struct pd_reader r;
	struct pd_record rec;
	struct pd_order order;
	int i, err, status = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
			input = argv[++i];
		} else if (strcmp(argv[i], "-F") == 0 && i + 1 < argc) {
			if (parse_fields(argv[++i], &sc.fields)) {
				fprintf(stderr, "rvperf script: unknown field "
					"list '%s' (see 'rvperf script "
					"--help')\n", argv[i]);
				return EXIT_USAGE;
			}
		} else {
			fprintf(stderr, "rvperf script: unexpected argument "
				"'%s' (see 'rvperf script --help')\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	err = pd_open(&r, input);
	if (err) {
		fprintf(stderr, "rvperf script: %s: %s\n", input, r.error);
		pd_close(&r);
		return EXIT_BAD_DATA;
	}
	if (check_fields(&r, sc.fields, input)) {
		pd_close(&r);
		return EXIT_BAD_DATA;
	}
	if (r.warning[0])
		fprintf(stderr, "rvperf script: %s: warning: %s\n", input,
			r.warning);
	/* In time order, as perf script prints them (see order.c). */
	if (pd_order_open(&r, &order)) {
		fprintf(stderr, "rvperf script: out of memory\n");
		pd_close(&r);
		return EXIT_BAD_DATA;
	}
	while ((err = pd_order_next(&r, &order, &rec)) != PD_END) {
		if (err == PD_TRUNCATED || err == PD_ERR_IO) {
			fprintf(stderr, "rvperf script: %s: %s\n", input, r.error);
			status = EXIT_BAD_DATA;
			break;
		}
		if (err) {	/* one malformed record: say so, go on */
			fprintf(stderr, "rvperf script: %s: %s\n", input, r.error);
			status = EXIT_BAD_DATA;
			continue;
		}
		if ((rec.header.type == PERF_RECORD_COMM && add_comm(&sc, &rec)) ||
		    (rec.header.type == PERF_RECORD_FORK && add_fork(&sc, &rec)) ||
		    ((rec.header.type == PERF_RECORD_MMAP ||
		      rec.header.type == PERF_RECORD_MMAP2) &&
		     add_mapping(&sc, &rec))) {
			fprintf(stderr, "rvperf script: out of memory\n");
			status = EXIT_BAD_DATA;
			break;
		}
		if (rec.header.type == PERF_RECORD_SAMPLE)
			print_sample(&sc, &rec.sample);
	}
	free_script(&sc);
	pd_order_close(&order);
	pd_close(&r);
	return status;
}
