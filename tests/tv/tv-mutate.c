// SPDX-License-Identifier: BSD-2-Clause
/*
 * tv-mutate - rewrites a trace group by group through the library, with
 * at most one element changed, for the tandem tests:
 *
 *   tv-mutate IN OUT none            re-encode everything (a round trip)
 *   tv-mutate IN OUT cut N           keep groups 0 to N
 *   tv-mutate IN OUT reg|mem|pc|priv FROM
 *
 * changes the first such element in an instruction group at or after
 * group FROM (a GPR value, a store's data, a pc item, a priv item) and
 * prints "GROUP ELEMENT" (ELEMENT as rvperf tv diff names it).  IN.cfg
 * is copied to OUT.cfg.
 */
#include "userspace/tv/tv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *msg, const char *arg)
{
	fprintf(stderr, "tv-mutate: %s%s\n", msg, arg);
	return 1;
}

int main(int argc, char **argv)
{
	struct tv_config cfg;
	struct tv_decoder d;
	struct tv_group g;
	struct tv_buf out = { 0 };
	char path[4096], line[256], err[120], name[40];
	uint8_t *data = NULL;
	size_t len = 0, cap = 0, n;
	const char *kind;
	uint64_t from = 0;
	bool done = false;
	enum tv_status st;
	FILE *f;

	if (argc < 4 || (strcmp(argv[3], "none") && argc < 5))
		return fail("usage: tv-mutate IN OUT none|cut|reg|mem|pc|priv [FROM]", "");
	kind = argv[3];
	if (argc > 4)
		from = strtoull(argv[4], NULL, 0);
	tv_config_default(&cfg);
	snprintf(path, sizeof(path), "%s.cfg", argv[1]);
	f = fopen(path, "r");
	if (f) {
		if (fgets(line, sizeof(line), f) && tv_config_parse(&cfg, line, err, sizeof(err)))
			return fail("bad configuration: ", err);
		fclose(f);
	}
	f = fopen(argv[1], "rb");
	if (!f)
		return fail("cannot read ", argv[1]);
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			data = realloc(data, cap);
			if (!data)
				return fail("out of memory", "");
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	tv_dec_init(&d, &cfg, TV_LENIENT);
	tv_dec_set_buffer(&d, data, len);
	while ((st = tv_dec_next(&d, &g)) == TV_GROUP) {
		struct tv_item *items = (struct tv_item *)g.items;

		if (!strcmp(kind, "cut") && g.index > from) {
			done = true;
			break;
		}
		if (!done && g.index >= from && g.has_insn && strcmp(kind, "none") &&
		    strcmp(kind, "cut")) {
			for (size_t i = 0; i < g.n_items && !done; i++) {
				struct tv_item *it = &items[i];
				struct tv_elem_ref e = { 0 };

				if (!strcmp(kind, "reg") && it->op == TV_OP_FULL_REG &&
				    TV_REG_IS_GPR(it->reg)) {
					it->value ^= 0x100;
					e.kind = TV_K_REG;
					e.reg = it->reg;
				} else if (!strcmp(kind, "mem") && it->op == TV_OP_MEM_REQ &&
					   it->id == TV_MEM_STORE) {
					it->data ^= 1;
					e.kind = TV_K_MEM;
					e.addr = it->value;
					e.size = (uint8_t)(1u << it->size);
				} else if (!strcmp(kind, "pc") && it->op == TV_OP_ADDL_STATE &&
					   it->id == TV_AS_PC) {
					it->value += 0x40;
					e.kind = TV_K_PC;
				} else if (!strcmp(kind, "priv") && it->op == TV_OP_ADDL_STATE &&
					   it->id == TV_AS_PRIV) {
					it->value ^= 2;		/* S <-> M, U <-> H */
					e.kind = TV_K_PRIV;
				} else {
					continue;
				}
				done = true;
				printf("%llu %s\n", (unsigned long long)g.index,
				       tv_elem_ref_name(&e, name, sizeof(name)));
			}
		}
		if (g.grouped)
			tv_enc_op(&out, TV_OP_BEGIN_GROUP);
		for (size_t i = 0; i < g.n_items; i++)
			tv_enc_item(&out, &cfg, &items[i]);
		if (g.grouped)
			tv_enc_op(&out, TV_OP_END_GROUP);
	}
	if (st != TV_END && !(done && !strcmp(kind, "cut")))
		return fail("trace does not decode: ", d.err.msg);
	if (strcmp(kind, "none") && strcmp(kind, "cut") && !done)
		return fail("no such element to change: ", kind);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f))
		return fail("cannot write ", argv[2]);
	snprintf(path, sizeof(path), "%s.cfg", argv[2]);
	f = fopen(path, "w");
	if (!f)
		return fail("cannot write ", path);
	tv_config_format(&cfg, line, sizeof(line));
	fprintf(f, "%s\n", line);
	fclose(f);
	tv_dec_free(&d);
	tv_buf_free(&out);
	free(data);
	return 0;
}
