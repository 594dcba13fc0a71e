// SPDX-License-Identifier: BSD-2-Clause
/*
 * report.c - `rvperf report`: reads a perf.data into the report model
 * (report_model.h) and shows it with one of the renderers
 * (report_render.h).  This file is the perf.data producer: it decides
 * where each mapping's symbols come from, as perf does (the mapped path
 * under --symfs; --elf only where the recording's build id is the
 * ELF's), and refuses wrong input with one line before any analysis.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elf_syms.h"
#include "perf_data.h"
#include "report.h"
#include "report_model.h"
#include "report_render.h"

/* perf's HEADER_ARCH (uname -m) to the ELF machine it runs; 0: unknown. */
static unsigned int arch_machine(const char *arch)
{
	static const struct {
		const char *prefix;
		unsigned int machine;
	} table[] = {
		{ "riscv", 243 }, { "x86_64", 62 }, { "i386", 3 }, { "i686", 3 },
		{ "aarch64", 183 }, { "arm64", 183 }, { "arm", 40 },
		{ "ppc64", 21 }, { "s390", 22 }, { "mips", 8 },
		{ "loongarch", 258 },
	};
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strncmp(arch, table[i].prefix, strlen(table[i].prefix)))
			return table[i].machine;
	return 0;
}

static void hex(const unsigned char *id, unsigned int size, char *out)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * size] = '\0';
	if (!size)
		strcpy(out, "none");
}

/* Where the symbols of the mapped files come from. */
struct symbol_source {
	const struct report_options *opt;
	struct elf_syms elf;		/* --elf, when given */
	unsigned int matched;		/* mappings whose build id is --elf's */
	char mismatch[200];		/* the first mapping whose is not */
};

/* The file a mapping's symbols are read from, in buf. */
static const char *symbol_file(struct symbol_source *src,
			       const struct pd_reader *r,
			       const struct pd_record *rec, char *buf,
			       size_t size)
{
	const struct report_options *opt = src->opt;
	const char *base = strrchr(rec->name, '/');
	const unsigned char *id;
	unsigned int id_size;
	size_t len;

	base = base ? base + 1 : rec->name;
	if (opt->elf && (!opt->elf_match || !strcmp(base, opt->elf_match))) {
		id = pd_mapping_build_id(r, rec, &id_size);
		if (!id || opt->force)
			return opt->elf;
		if (id_size == src->elf.build_id_size &&
		    !memcmp(id, src->elf.build_id, id_size)) {
			src->matched++;
			return opt->elf;
		}
		if (!src->mismatch[0]) {
			char want[41], have[41];

			hex(id, id_size, want);
			hex(src->elf.build_id, src->elf.build_id_size, have);
			snprintf(src->mismatch, sizeof(src->mismatch),
				 "build id %s, the recording's %s has %s",
				 have, base, want);
		}
	}
	if (!opt->symfs)
		return rec->name;
	/* DIR and DIR/ alike, before an absolute or a relative path. */
	len = strlen(opt->symfs);
	while (len > 1 && opt->symfs[len - 1] == '/')
		len--;
	snprintf(buf, size, "%.*s%s%s", (int)len, opt->symfs,
		 rec->name[0] == '/' ? "" : "/", rec->name);
	return buf;
}

/* Feeds the recording's mappings and samples to the model.  0;
 * REPORT_BAD_DATA after saying why when the file is cut or damaged (the
 * model holds what came before); -1 after saying why when nothing should
 * be reported (no perf.data, an --elf of another machine).  *nomem is set
 * when the model ran out of memory. */
static int read_perf_data(struct report_model *m, struct symbol_source *src,
			  int *nomem)
{
	const struct report_options *opt = src->opt;
	const char *input = opt->input;
	char path[4096];
	struct pd_reader r;
	struct pd_record rec;
	int err, status = 0;

	err = pd_open(&r, input);
	if (err) {
		fprintf(stderr, "rvperf report: %s: %s\n", input, r.error);
		pd_close(&r);
		return -1;
	}
	if (opt->elf) {
		/* A recording without HEADER_ARCH is taken as RISC-V's. */
		unsigned int want = r.arch[0] ? arch_machine(r.arch) : 243;

		if (want && src->elf.machine != want) {
			fprintf(stderr, "rvperf report: %s: not a program for "
				"%s, where %s was recorded (ELF machine %u)\n",
				opt->elf, r.arch[0] ? r.arch : "riscv", input,
				src->elf.machine);
			pd_close(&r);
			return -1;
		}
	}
	if (r.warning[0])
		fprintf(stderr, "rvperf report: %s: warning: %s\n", input,
			r.warning);
	while ((err = pd_next(&r, &rec)) != PD_END) {
		if (err) {
			fprintf(stderr, "rvperf report: %s: %s%s\n", input,
				r.error, err == PD_TRUNCATED ?
				" (reporting what came before)" : "");
			status = REPORT_BAD_DATA;
			if (err == PD_TRUNCATED || err == PD_ERR_IO)
				break;
			continue;
		}
		if ((rec.header.type == PERF_RECORD_MMAP ||
		     rec.header.type == PERF_RECORD_MMAP2) &&
		    report_model_add_mapping(m, rec.map_start, rec.map_len,
					     rec.map_pgoff,
					     symbol_file(src, &r, &rec, path,
							 sizeof(path))))
			*nomem = 1;
		if (rec.header.type == PERF_RECORD_SAMPLE &&
		    report_model_add_sample(m, rec.sample.ip,
					    rec.sample.branches,
					    rec.sample.nr_branches))
			*nomem = 1;
		if (*nomem)
			break;
	}
	pd_close(&r);
	/* An --elf that is none of the recorded binaries would name every
	 * address wrongly and with confidence. */
	if (!*nomem && src->mismatch[0] && !src->matched) {
		fprintf(stderr, "rvperf report: %s: %s (--force uses it "
			"anyway)\n", opt->elf, src->mismatch);
		return -1;
	}
	return status;
}

int report_run(const struct report_options *opt)
{
	struct symbol_source src = { .opt = opt };
	struct report_model m;
	struct stat st;
	int nomem = 0, status;

	if (opt->symfs && stat(opt->symfs, &st)) {
		fprintf(stderr, "rvperf report: --symfs %s: %s\n", opt->symfs,
			strerror(errno));
		return REPORT_BAD_DATA;
	}
	if (opt->symfs && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "rvperf report: --symfs %s: not a directory\n",
			opt->symfs);
		return REPORT_BAD_DATA;
	}
	if (opt->elf && elf_syms_load(&src.elf, opt->elf)) {
		fprintf(stderr, "rvperf report: %s: %s\n", opt->elf,
			src.elf.error);
		return REPORT_BAD_DATA;
	}
	if (report_model_init(&m, opt->input)) {
		fprintf(stderr, "rvperf report: out of memory\n");
		elf_syms_free(&src.elf);
		return REPORT_BAD_DATA;
	}
	status = read_perf_data(&m, &src, &nomem);
	elf_syms_free(&src.elf);
	if (status < 0) {
		report_model_free(&m);
		return REPORT_BAD_DATA;
	}
	if (nomem || report_model_analyse(&m, opt->top)) {
		fprintf(stderr, "rvperf report: out of memory\n");
		status = REPORT_BAD_DATA;
	} else if (opt->html) {
		FILE *f = fopen(opt->html, "w");

		if (!f || report_render_html(&m, f, opt->top) || fclose(f)) {
			fprintf(stderr, "rvperf report: %s: cannot write\n",
				opt->html);
			status = REPORT_BAD_DATA;
		}
	} else {
		report_render_text(&m, stdout, opt->top);
	}
	report_model_free(&m);
	return status;
}
