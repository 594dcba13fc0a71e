// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_decode - libFuzzer target on the trace decoder.  The first byte
 * chooses XLEN/FLEN/MLEN, the mode and a chunk size; the rest is the trace,
 * fed in chunks.  Invariants: the decoder ends (no endless loop), offsets
 * only grow and stay inside the input, chunked decoding gives the groups and
 * items of whole-buffer decoding (small chunks keep the buffer short: the
 * decoder's general path, against its fast path over the whole buffer),
 * and every group re-encoded decodes to itself.
 */
#include "userspace/tv/tv.h"

#include <stdlib.h>
#include <string.h>

static void check(int cond)
{
	if (!cond)
		abort();
}

static int same(const struct tv_item *a, const struct tv_item *b)
{
	return a->op == b->op && a->id == b->id && a->reg == b->reg &&
	       a->value == b->value && a->size == b->size &&
	       a->result == b->result && a->data == b->data &&
	       a->has_data == b->has_data;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int mlens[] = { 32, 34, 56, 64 };
	struct tv_config cfg;
	struct tv_decoder whole, chunked, again;
	struct tv_group g, h, k;
	enum tv_status st, st2;
	size_t chunk, fed = 0;
	uint64_t last = 0;
	unsigned int steps = 0;

	if (size < 1)
		return 0;
	cfg.xlen = data[0] & 1 ? 32 : 64;
	cfg.flen = (data[0] >> 1 & 1) ? 32 : 64;
	cfg.mlen = mlens[data[0] >> 2 & 3];
	cfg.absent = 0;
	chunk = 1 + (data[0] >> 5);
	data++;
	size--;
	tv_dec_init(&whole, &cfg, data[-1] & 16 ? TV_LENIENT : TV_STRICT);
	tv_dec_init(&chunked, &cfg, whole.mode);
	tv_dec_set_buffer(&whole, data, size);
	for (;;) {
		st = tv_dec_next(&whole, &g);
		check(++steps <= 2 * size + 2);
		if (st == TV_END)
			break;
		if (st == TV_ERROR) {
			check(whole.err.offset < size);
		} else {
			struct tv_buf b = { 0 };

			check(st == TV_GROUP);
			check(g.offset >= last && g.end_offset <= size &&
			      g.end_offset > g.offset);
			last = g.end_offset;
			/* Round trip: the group re-encoded decodes to itself. */
			if (g.grouped)
				tv_enc_op(&b, TV_OP_BEGIN_GROUP);
			for (size_t i = 0; i < g.n_items; i++)
				tv_enc_item(&b, &cfg, &g.items[i]);
			if (g.grouped)
				tv_enc_op(&b, TV_OP_END_GROUP);
			tv_dec_init(&again, &cfg, TV_LENIENT);
			tv_dec_set_buffer(&again, b.data, b.len);
			check(tv_dec_next(&again, &k) == TV_GROUP);
			check(k.n_items == g.n_items);
			for (size_t i = 0; i < g.n_items; i++)
				check(same(&k.items[i], &g.items[i]));
			tv_dec_free(&again);
			tv_buf_free(&b);
		}
		/* The chunked decoder must say the same. */
		do {
			st2 = tv_dec_next(&chunked, &h);
			if (st2 == TV_MORE) {
				size_t n = size - fed < chunk ? size - fed : chunk;

				if (n)
					tv_dec_feed(&chunked, data + fed, n);
				else
					tv_dec_finish(&chunked);
				fed += n;
			}
		} while (st2 == TV_MORE);
		check(st2 == st);
		if (st == TV_GROUP) {
			check(h.offset == g.offset && h.n_items == g.n_items &&
			      h.end_offset == g.end_offset);
			/* Item by item: a short buffer takes the general path,
			 * a long one the fast path, which must agree. */
			for (size_t i = 0; i < g.n_items; i++)
				check(same(&h.items[i], &g.items[i]) &&
				      h.items[i].offset == g.items[i].offset);
		}
		else
			check(chunked.err.offset == whole.err.offset);
	}
	tv_dec_free(&whole);
	tv_dec_free(&chunked);
	return 0;
}
