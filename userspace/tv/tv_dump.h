/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tv_dump.h - the trace listing of `rvperf tv dump`: one paragraph per
 * group (its pc, disassembled instruction and control transfer), one line
 * per item with its byte offset, and the decoder's errors in between.
 *
 * The text is formatted into a buffer of the listing's own and written out
 * in large blocks: no stdio call per field or line.
 */
#ifndef RVPERF_TV_DUMP_H
#define RVPERF_TV_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tv.h"

struct tv_dump_dis;
struct tv_dump_name;

struct tv_dump {
	struct tv_config cfg;
	FILE *out;		/* NULL: the text is formatted, counted, dropped */
	uint64_t pc;		/* after the groups so far (tv_shadow_apply's rule) */
	uint64_t written;	/* bytes handed to OUT (or dropped) */
	bool write_error;	/* a write to OUT failed */
	char *buf;		/* text not yet written */
	size_t len;
	struct tv_dump_dis *dis;	/* disassemblies by instruction (and pc) */
	struct tv_dump_name *names;	/* of register addresses below TV_NREGS */
	/* The last group's index and its decimal text (the next one's is
	 * its increment, digit by digit). */
	uint64_t index;
	unsigned int index_len;
	char index_text[24];
};

int tv_dump_init(struct tv_dump *dp, const struct tv_config *cfg, FILE *out);
/* The paragraph of a group the decoder gave. */
void tv_dump_group(struct tv_dump *dp, const struct tv_group *g);
/* The line of a decoding error (the decoder then resynchronises). */
void tv_dump_error(struct tv_dump *dp, const struct tv_error *err);
/* Writes what is buffered; -1 when a write failed (now or before). */
int tv_dump_flush(struct tv_dump *dp);
void tv_dump_free(struct tv_dump *dp);

#endif /* RVPERF_TV_DUMP_H */
