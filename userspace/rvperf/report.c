// SPDX-License-Identifier: BSD-2-Clause
/*
 * report.c - `rvperf report`: reads a perf.data into the report model
 * (report_model.h) and shows it with one of the renderers
 * (report_render.h).  This file is the perf.data producer; the analysis
 * and the ways of showing it live elsewhere.
 */
#include <stdio.h>

#include "perf_data.h"
#include "report.h"
#include "report_model.h"
#include "report_render.h"

/* Feeds the recording's mappings and samples to the model.  0;
 * REPORT_BAD_DATA after saying why when the file is cut or damaged (the
 * model holds what came before); -1 after saying why when it is no
 * perf.data at all.  *nomem is set when the model ran out of memory. */
static int read_perf_data(struct report_model *m, const char *input,
			  int *nomem)
{
	struct pd_reader r;
	struct pd_record rec;
	int err, status = 0;

	err = pd_open(&r, input);
	if (err) {
		fprintf(stderr, "rvperf report: %s: %s\n", input, r.error);
		pd_close(&r);
		return -1;
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
					     rec.map_pgoff, rec.name))
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
	return status;
}

int report_run(const struct report_options *opt)
{
	const struct report_symbols syms = {
		.elf = opt->elf, .elf_match = opt->elf_match,
		.symfs = opt->symfs,
	};
	struct report_model m;
	int nomem = 0, status;

	if (report_model_init(&m, opt->input, &syms)) {
		fprintf(stderr, "rvperf report: out of memory\n");
		return REPORT_BAD_DATA;
	}
	status = read_perf_data(&m, opt->input, &nomem);
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
