/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * report_render.h - ways to show a report model (report_model.h).  Each
 * renderer reads the model only; 0, or -1 when writing failed.
 */
#ifndef RVPERF_REPORT_RENDER_H
#define RVPERF_REPORT_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "report_model.h"

/* The tables as text, top rows each (report_text.c). */
int report_render_text(const struct report_model *m, FILE *f, size_t top);
/* perf report --stdio's table of the --sort view (m->sort): the header
 * naming EVENT, then Overhead, with SHOW_SAMPLES (-n) Samples, and one
 * column per key. */
int report_render_sort(const struct report_model *m, FILE *f,
		       int show_samples, const char *event);
/* One self-contained HTML page: the hot paths as a graph, then the tables
 * (report_html.c). */
int report_render_html(const struct report_model *m, FILE *f, size_t top);

#endif /* RVPERF_REPORT_RENDER_H */
