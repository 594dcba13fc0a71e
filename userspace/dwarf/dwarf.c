// SPDX-License-Identifier: BSD-2-Clause
/*
 * dwarf.c - line tables and inline scopes from DWARF 2-5 (see dwarf.h).
 *
 * Two passes: every line program of .debug_line becomes rows; every
 * compile unit of .debug_info is walked once, recording the subprogram
 * DIEs (for names and declaration lines, reached later through
 * DW_AT_abstract_origin and DW_AT_specification) and the address ranges
 * of the subprograms and inlined subroutines.  All reads go through a
 * cursor that stops at its end and remembers that it overran, so no
 * malformed file can read outside the image.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf.h"
#include "vec.h"

/* DWARF constants (DWARF 5 standard, sections 7.5-7.22). */
#define DW_TAG_lexical_block		0x0b
#define DW_TAG_compile_unit		0x11
#define DW_TAG_inlined_subroutine	0x1d
#define DW_TAG_partial_unit		0x3c
#define DW_TAG_skeleton_unit		0x4a
#define DW_TAG_subprogram		0x2e
#define DW_AT_name			0x03
#define DW_AT_stmt_list			0x10
#define DW_AT_low_pc			0x11
#define DW_AT_high_pc			0x12
#define DW_AT_abstract_origin		0x31
#define DW_AT_decl_line			0x3b
#define DW_AT_declaration		0x3c
#define DW_AT_specification		0x47
#define DW_AT_ranges			0x55
#define DW_AT_call_line			0x59
#define DW_AT_linkage_name		0x6e
#define DW_AT_str_offsets_base		0x72
#define DW_AT_addr_base			0x73
#define DW_AT_rnglists_base		0x74
#define DW_AT_MIPS_linkage_name		0x2007
#define DW_AT_GNU_discriminator		0x2136
#define DW_UT_compile			0x01
#define DW_UT_partial			0x03

enum form_class { FC_NONE, FC_ADDR, FC_ADDRX, FC_CONST, FC_STR, FC_STRX,
		  FC_REF, FC_REF_ADDR, FC_SECOFF, FC_RNGLISTX, FC_FLAG };

struct sec {
	const unsigned char *p;
	uint64_t size;
};

struct cur {
	const unsigned char *p, *end;
	int bad;
};

static uint64_t rd(struct cur *c, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static void skip(struct cur *c, uint64_t n)
{
	if (c->bad || (uint64_t)(c->end - c->p) < n) {
		c->bad = 1;
		c->p = c->end;
		return;
	}
	c->p += n;
}

static uint64_t uleb(struct cur *c)
{
	uint64_t v = 0;
	unsigned int shift = 0;
	unsigned char b;

	do {
		if (c->bad || c->p >= c->end) {
			c->bad = 1;
			return 0;
		}
		b = *c->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

static int64_t sleb(struct cur *c)
{
	int64_t v = 0;
	unsigned int shift = 0;
	unsigned char b;

	do {
		if (c->bad || c->p >= c->end) {
			c->bad = 1;
			return 0;
		}
		b = *c->p++;
		if (shift < 64)
			v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= -((int64_t)1 << shift);
	return v;
}

static const char *cstr(struct cur *c)
{
	const unsigned char *s = c->p;

	while (c->p < c->end && *c->p)
		c->p++;
	if (c->p >= c->end) {
		c->bad = 1;
		return NULL;
	}
	c->p++;
	return (const char *)s;
}

/* The NUL-terminated string at off in sec, or NULL. */
static const char *sec_str(const struct sec *s, uint64_t off)
{
	if (!s->p || off >= s->size || !memchr(s->p + off, 0, s->size - off))
		return NULL;
	return (const char *)s->p + off;
}

/* Unit length: 32-bit, or 0xffffffff then 64-bit.  *offsz gets 4 or 8. */
static uint64_t unit_length(struct cur *c, unsigned int *offsz)
{
	uint64_t len = rd(c, 4);

	*offsz = 4;
	if (len == 0xffffffff) {
		*offsz = 8;
		len = rd(c, 8);
	}
	return len;
}

static void warn(struct dw_info *di, const char *fmt, ...)
{
	va_list ap;

	if (di->warning[0])
		return;
	va_start(ap, fmt);
	vsnprintf(di->warning, sizeof(di->warning), fmt, ap);
	va_end(ap);
}

/* ---- ELF sections */

struct secs {
	struct sec info, abbrev, line, str, line_str, rnglists, ranges, addr,
		str_offsets;
};

static int elf_sections(struct dw_info *di, struct secs *s)
{
	const unsigned char *im = di->image;
	struct cur c = { im, im + di->size, 0 };
	uint64_t shoff, i, shnum, shstrndx, shentsize;

	int is64;
	struct sec shstr = { NULL, 0 };

	if (di->size < 52 || memcmp(im, "\177ELF", 4)) {
		snprintf(di->error, sizeof(di->error), "not an ELF file");
		return -1;
	}
	if (im[5] != 1) {
		snprintf(di->error, sizeof(di->error),
			 "big-endian ELF is not supported");
		return -1;
	}
	is64 = im[4] == 2;
	c.p = im + 16;
	if (rd(&c, 2) == 1) {
		snprintf(di->error, sizeof(di->error),
			 "relocatable object: link it first (its debug information needs relocating)");
		return -1;
	}
	if (is64) {
		c.p = im + 40;
		shoff = rd(&c, 8);
		c.p = im + 58;
	} else {
		c.p = im + 32;
		shoff = rd(&c, 4);
		c.p = im + 46;
	}
	shentsize = rd(&c, 2);
	shnum = rd(&c, 2);
	shstrndx = rd(&c, 2);
	if (c.bad || shentsize < (is64 ? 64u : 40u) || shoff > di->size ||
	    shnum * shentsize > di->size - shoff) {
		snprintf(di->error, sizeof(di->error),
			 "section header table at offset %llu is outside the file",
			 (unsigned long long)shoff);
		return -1;
	}
	if (shstrndx < shnum) {
		uint64_t type, off, size;

		c.p = im + shoff + shstrndx * shentsize + 4;
		type = rd(&c, 4);
		skip(&c, is64 ? 16 : 8);
		off = rd(&c, is64 ? 8 : 4);
		size = rd(&c, is64 ? 8 : 4);
		if (!c.bad && type != 8 && off <= di->size &&
		    size <= di->size - off) {
			shstr.p = im + off;
			shstr.size = size;
		}
	}
	if (!shstr.p) {
		snprintf(di->error, sizeof(di->error),
			 "no section name table");
		return -1;
	}
	for (i = 0; i < shnum; i++) {
		uint64_t name, type, flags, off, size;
		const char *nm;
		struct sec *dst = NULL;

		c.p = im + shoff + i * shentsize;
		c.bad = 0;
		name = rd(&c, 4);
		type = rd(&c, 4);
		if (is64) {
			flags = rd(&c, 8);
			skip(&c, 8);
			off = rd(&c, 8);
			size = rd(&c, 8);
		} else {
			flags = rd(&c, 4);
			skip(&c, 4);
			off = rd(&c, 4);
			size = rd(&c, 4);
		}
		nm = sec_str(&shstr, name);
		if (!nm || type == 8 /* SHT_NOBITS */)
			continue;
		if (!strcmp(nm, ".debug_info"))
			dst = &s->info;
		else if (!strcmp(nm, ".debug_abbrev"))
			dst = &s->abbrev;
		else if (!strcmp(nm, ".debug_line"))
			dst = &s->line;
		else if (!strcmp(nm, ".debug_str"))
			dst = &s->str;
		else if (!strcmp(nm, ".debug_line_str"))
			dst = &s->line_str;
		else if (!strcmp(nm, ".debug_rnglists"))
			dst = &s->rnglists;
		else if (!strcmp(nm, ".debug_ranges"))
			dst = &s->ranges;
		else if (!strcmp(nm, ".debug_addr"))
			dst = &s->addr;
		else if (!strcmp(nm, ".debug_str_offsets"))
			dst = &s->str_offsets;
		if (!dst)
			continue;
		if (flags & 0x800 /* SHF_COMPRESSED */) {
			snprintf(di->error, sizeof(di->error),
				 "%s is compressed; relink with --compress-debug-sections=none",
				 nm);
			return -1;
		}
		if (off > di->size || size > di->size - off) {
			snprintf(di->error, sizeof(di->error),
				 "%s at offset %llu runs past the end of the file",
				 nm, (unsigned long long)off);
			return -1;
		}
		dst->p = im + off;
		dst->size = size;
	}
	return 0;
}

/* ---- line programs */

struct linehdr_entry_fmt {
	uint64_t type, form;
};

/* Reads one attribute value of a v5 directory/file entry. */
static int entry_value(struct cur *c, uint64_t form, unsigned int offsz,
		       const struct secs *s, const char **str, uint64_t *num)
{
	*str = NULL;
	*num = 0;
	switch (form) {
	case 0x08: *str = cstr(c); break;			/* string */
	case 0x1f: *str = sec_str(&s->line_str, rd(c, offsz)); break;
	case 0x0e: *str = sec_str(&s->str, rd(c, offsz)); break;
	case 0x0f: *num = uleb(c); break;			/* udata */
	case 0x0b: *num = rd(c, 1); break;
	case 0x05: *num = rd(c, 2); break;
	case 0x06: *num = rd(c, 4); break;
	case 0x07: *num = rd(c, 8); break;
	case 0x1e: skip(c, 16); break;				/* data16 */
	case 0x09: skip(c, uleb(c)); break;			/* block */
	default:
		return -1;
	}
	return c->bad ? -1 : 0;
}

struct rows_acc {
	struct dw_row *rows;
	size_t nr, cap;
};

static int add_row(struct rows_acc *a, uint64_t addr, uint32_t file,
		   uint32_t line, uint32_t disc, uint32_t unit, int end)
{
	struct dw_row *r;

	if (vec_grow((void **)&a->rows, &a->cap, a->nr + 1, sizeof(*a->rows)))
		return -1;
	r = &a->rows[a->nr++];
	r->addr = addr;
	r->file = file;
	r->line = line;
	r->discriminator = disc;
	r->unit = unit;
	r->end = end;
	return 0;
}

/* One line program at c; returns -1 for malformed (message in di). */
static int line_program(struct dw_info *di, const struct secs *s,
			struct cur *c, uint32_t unit, struct rows_acc *acc,
			struct dw_unit_files *files, size_t *files_cap)
{
	const unsigned char *start = c->p;
	unsigned int offsz, version, min_inst, line_base_u, line_range,
		opcode_base, i;
	int line_base, default_is_stmt;
	uint64_t len, hlen;
	unsigned char std_len[256];
	struct cur prog, hdr;
	uint64_t addr = 0;
	uint32_t file = 1, line = 1, disc = 0;
	size_t dirs_n = 0;

	(void)files_cap;
	len = unit_length(c, &offsz);
	if (c->bad || len > (uint64_t)(c->end - c->p))
		goto bad;
	prog.p = c->p;
	prog.end = c->p + len;
	prog.bad = 0;
	c->p = prog.end;
	version = rd(&prog, 2);
	if (version < 2 || version > 5)
		goto bad;
	if (version >= 5) {
		skip(&prog, 1);		/* address_size */
		skip(&prog, 1);		/* segment_selector_size */
	}
	hlen = rd(&prog, offsz);
	if (prog.bad || hlen > (uint64_t)(prog.end - prog.p))
		goto bad;
	hdr.p = prog.p;
	hdr.end = prog.p + hlen;
	hdr.bad = 0;
	prog.p = hdr.end;
	min_inst = rd(&hdr, 1);
	if (version >= 4)
		skip(&hdr, 1);	/* maximum_operations_per_instruction */
	default_is_stmt = (int)rd(&hdr, 1);
	(void)default_is_stmt;
	line_base_u = rd(&hdr, 1);
	line_base = (int)(signed char)line_base_u;
	line_range = rd(&hdr, 1);
	opcode_base = rd(&hdr, 1);
	if (hdr.bad || !line_range || !opcode_base)
		goto bad;
	memset(std_len, 0, sizeof(std_len));
	for (i = 1; i < opcode_base; i++)
		std_len[i] = rd(&hdr, 1);
	files->names = NULL;
	files->count = 0;
	if (version < 5) {
		size_t cap = 0;

		while (!hdr.bad && hdr.p < hdr.end && *hdr.p)
			cstr(&hdr), dirs_n++;
		skip(&hdr, 1);
		/* File 0 is unused before DWARF 5: keep indices as-is. */
		if (vec_grow((void **)&files->names, &cap, 1, sizeof(char *)))
			return -1;
		files->names[files->count++] = "";
		while (!hdr.bad && hdr.p < hdr.end && *hdr.p) {
			const char *n = cstr(&hdr);

			uleb(&hdr);
			uleb(&hdr);
			uleb(&hdr);
			if (vec_grow((void **)&files->names, &cap, files->count + 1,
				 sizeof(char *)))
				return -1;
			files->names[files->count++] = n;
		}
	} else {
		struct linehdr_entry_fmt fmt[16];
		unsigned int nfmt, k;
		uint64_t n, j;
		size_t cap = 0;

		for (int pass = 0; pass < 2; pass++) {
			nfmt = rd(&hdr, 1);
			if (nfmt > 16)
				goto bad;
			for (k = 0; k < nfmt; k++) {
				fmt[k].type = uleb(&hdr);
				fmt[k].form = uleb(&hdr);
			}
			n = uleb(&hdr);
			if (hdr.bad || n > hlen)
				goto bad;
			for (j = 0; j < n; j++) {
				const char *name = NULL, *str;
				uint64_t num;

				for (k = 0; k < nfmt; k++) {
					if (entry_value(&hdr, fmt[k].form,
							offsz, s, &str, &num))
						goto bad;
					if (fmt[k].type == 1 /* DW_LNCT_path */)
						name = str;
				}
				if (pass == 0)
					continue;
				if (vec_grow((void **)&files->names, &cap,
					 files->count + 1, sizeof(char *)))
					return -1;
				files->names[files->count++] = name ? name : "";
			}
		}
	}
	if (hdr.bad)
		goto bad;

	/* The state machine (DWARF 5 section 6.2.5). */
	while (prog.p < prog.end && !prog.bad) {
		unsigned int op = rd(&prog, 1);

		if (op >= opcode_base) {
			unsigned int adj = op - opcode_base;

			addr += (uint64_t)(adj / line_range) * min_inst;
			line += line_base + (int)(adj % line_range);
			if (add_row(acc, addr, file, line, disc, unit, 0))
				return -1;
			disc = 0;
			continue;
		}
		switch (op) {
		case 0: {			/* extended */
			uint64_t elen = uleb(&prog);
			const unsigned char *next = prog.p + elen;
			unsigned int eop;

			if (prog.bad || elen == 0 ||
			    elen > (uint64_t)(prog.end - prog.p))
				goto bad;
			eop = rd(&prog, 1);
			if (eop == 1) {		/* end_sequence */
				if (add_row(acc, addr, file, line, 0, unit, 1))
					return -1;
				addr = 0;
				file = 1;
				line = 1;
				disc = 0;
			} else if (eop == 2) {	/* set_address */
				addr = rd(&prog, (unsigned int)(elen - 1 > 8 ?
								8 : elen - 1));
			} else if (eop == 4) {	/* set_discriminator */
				disc = (uint32_t)uleb(&prog);
			}
			prog.p = next;
			break;
		}
		case 1:				/* copy */
			if (add_row(acc, addr, file, line, disc, unit, 0))
				return -1;
			disc = 0;
			break;
		case 2:
			addr += uleb(&prog) * min_inst;
			break;
		case 3:
			line += (int32_t)sleb(&prog);
			break;
		case 4:
			file = (uint32_t)uleb(&prog);
			break;
		case 5:
			uleb(&prog);
			break;
		case 8:				/* const_add_pc */
			addr += (uint64_t)((255 - opcode_base) / line_range) *
				min_inst;
			break;
		case 9:				/* fixed_advance_pc */
			addr += rd(&prog, 2);
			break;
		case 6: case 7: case 10: case 11:
			break;
		default:			/* unknown standard opcode */
			for (i = 0; i < std_len[op]; i++)
				uleb(&prog);
		}
	}
	if (prog.bad)
		goto bad;
	return 0;
bad:
	warn(di, ".debug_line: malformed line program at offset %llu, skipped",
	     (unsigned long long)(start - s->line.p));
	return 1;
}

struct row_idx {
	struct dw_row r;
	size_t idx;		/* position in program order */
};

/* By address; at one address a sequence's end goes first (the next
 * sequence starts there), then rows in program order, so a lookup that
 * takes the last row at or below an address takes the row the program
 * stated last for it. */
static int row_cmp(const void *a, const void *b)
{
	const struct row_idx *x = a, *y = b;

	if (x->r.addr != y->r.addr)
		return x->r.addr < y->r.addr ? -1 : 1;
	if (x->r.end != y->r.end)
		return x->r.end ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* ---- .debug_info */

struct abbrev_attr {
	uint64_t name, form;
	int64_t implicit;
};

struct abbrev {
	uint64_t code, tag;
	int children;
	struct abbrev_attr *attrs;
	size_t nr;
};

struct abbrev_table {
	struct abbrev *a;
	size_t nr, cap;
	struct abbrev_attr *pool;
	size_t pool_nr, pool_cap;
};

static int parse_abbrevs(const struct sec *s, uint64_t off,
			 struct abbrev_table *t)
{
	struct cur c;
	size_t i;

	t->nr = 0;
	t->pool_nr = 0;
	if (off >= s->size)
		return -1;
	c.p = s->p + off;
	c.end = s->p + s->size;
	c.bad = 0;
	for (;;) {
		uint64_t code = uleb(&c), tag;
		struct abbrev *ab;
		size_t first = t->pool_nr;

		if (c.bad)
			return -1;
		if (!code)
			break;
		tag = uleb(&c);
		if (vec_grow((void **)&t->a, &t->cap, t->nr + 1, sizeof(*t->a)))
			return -1;
		ab = &t->a[t->nr++];
		ab->code = code;
		ab->tag = tag;
		ab->children = (int)rd(&c, 1);
		for (;;) {
			uint64_t name = uleb(&c), form = uleb(&c);
			int64_t imp = 0;

			if (c.bad)
				return -1;
			if (form == 0x21)	/* implicit_const */
				imp = sleb(&c);
			if (!name && !form)
				break;
			if (vec_grow((void **)&t->pool, &t->pool_cap,
				 t->pool_nr + 1, sizeof(*t->pool)))
				return -1;
			t->pool[t->pool_nr].name = name;
			t->pool[t->pool_nr].form = form;
			t->pool[t->pool_nr].implicit = imp;
			t->pool_nr++;
		}
		ab->nr = t->pool_nr - first;
		ab->attrs = (struct abbrev_attr *)(uintptr_t)first;
	}
	for (i = 0; i < t->nr; i++)
		t->a[i].attrs = t->pool + (uintptr_t)t->a[i].attrs;
	return 0;
}

static const struct abbrev *find_abbrev(const struct abbrev_table *t,
					uint64_t code)
{
	size_t i;

	if (code && code <= t->nr && t->a[code - 1].code == code)
		return &t->a[code - 1];
	for (i = 0; i < t->nr; i++)
		if (t->a[i].code == code)
			return &t->a[i];
	return NULL;
}

struct unit_ctx {
	unsigned int version, offsz, addrsz;
	uint64_t cu_off;		/* .debug_info offset of the unit header */
	uint64_t base;			/* the CU's low_pc */
	uint64_t str_offsets_base, addr_base, rnglists_base;
	int have_rnglists_base;
};

struct aval {
	enum form_class cls;
	uint64_t u;
	const char *s;
};

/* Reads one attribute value of the given form. */
static int read_form(struct cur *c, uint64_t form, int64_t implicit,
		     const struct unit_ctx *u, const struct secs *s,
		     struct aval *v)
{
	v->cls = FC_NONE;
	v->u = 0;
	v->s = NULL;
	switch (form) {
	case 0x01: v->cls = FC_ADDR; v->u = rd(c, u->addrsz); break;
	case 0x1b: v->cls = FC_ADDRX; v->u = uleb(c); break;
	case 0x29: v->cls = FC_ADDRX; v->u = rd(c, 1); break;
	case 0x2a: v->cls = FC_ADDRX; v->u = rd(c, 2); break;
	case 0x2b: v->cls = FC_ADDRX; v->u = rd(c, 3); break;
	case 0x2c: v->cls = FC_ADDRX; v->u = rd(c, 4); break;
	case 0x1f01: v->cls = FC_ADDRX; v->u = uleb(c); break;
	case 0x0b: v->cls = FC_CONST; v->u = rd(c, 1); break;
	case 0x05: v->cls = FC_CONST; v->u = rd(c, 2); break;
	case 0x06: v->cls = FC_CONST; v->u = rd(c, 4); break;
	case 0x07: v->cls = FC_CONST; v->u = rd(c, 8); break;
	case 0x1e: skip(c, 16); break;
	case 0x0d: v->cls = FC_CONST; v->u = (uint64_t)sleb(c); break;
	case 0x0f: v->cls = FC_CONST; v->u = uleb(c); break;
	case 0x21: v->cls = FC_CONST; v->u = (uint64_t)implicit; break;
	case 0x08: v->cls = FC_STR; v->s = cstr(c); break;
	case 0x0e: v->cls = FC_STR; v->s = sec_str(&s->str, rd(c, u->offsz));
		break;
	case 0x1f: v->cls = FC_STR;
		v->s = sec_str(&s->line_str, rd(c, u->offsz));
		break;
	case 0x1a: case 0x1f02: v->cls = FC_STRX; v->u = uleb(c); break;
	case 0x25: v->cls = FC_STRX; v->u = rd(c, 1); break;
	case 0x26: v->cls = FC_STRX; v->u = rd(c, 2); break;
	case 0x27: v->cls = FC_STRX; v->u = rd(c, 3); break;
	case 0x28: v->cls = FC_STRX; v->u = rd(c, 4); break;
	case 0x11: v->cls = FC_REF; v->u = rd(c, 1); break;
	case 0x12: v->cls = FC_REF; v->u = rd(c, 2); break;
	case 0x13: v->cls = FC_REF; v->u = rd(c, 4); break;
	case 0x14: v->cls = FC_REF; v->u = rd(c, 8); break;
	case 0x15: v->cls = FC_REF; v->u = uleb(c); break;
	case 0x10: v->cls = FC_REF_ADDR;
		v->u = rd(c, u->version <= 2 ? u->addrsz : u->offsz);
		break;
	case 0x17: v->cls = FC_SECOFF; v->u = rd(c, u->offsz); break;
	case 0x23: v->cls = FC_RNGLISTX; v->u = uleb(c); break;
	case 0x22: uleb(c); break;			/* loclistx */
	case 0x0c: v->cls = FC_FLAG; v->u = rd(c, 1); break;
	case 0x19: v->cls = FC_FLAG; v->u = 1; break;
	case 0x0a: skip(c, rd(c, 1)); break;		/* block1 */
	case 0x03: skip(c, rd(c, 2)); break;
	case 0x04: skip(c, rd(c, 4)); break;
	case 0x09: case 0x18: skip(c, uleb(c)); break;	/* block, exprloc */
	case 0x20: skip(c, 8); break;			/* ref_sig8 */
	case 0x1c: case 0x1d: case 0x1f20: case 0x1f21:	/* sup/alt files */
		skip(c, u->offsz);
		break;
	case 0x24: skip(c, 8); break;
	case 0x16: {					/* indirect */
		uint64_t f = uleb(c);

		if (f == 0x16 || c->bad)
			return -1;
		return read_form(c, f, 0, u, s, v);
	}
	default:
		return -1;
	}
	return c->bad ? -1 : 0;
}

static const char *aval_str(const struct aval *v, const struct unit_ctx *u,
			    const struct secs *s)
{
	struct cur c;

	if (v->cls == FC_STR)
		return v->s;
	if (v->cls != FC_STRX || !s->str_offsets.p)
		return NULL;
	{
		uint64_t at = u->str_offsets_base + v->u * u->offsz;

		if (at > s->str_offsets.size ||
		    s->str_offsets.size - at < u->offsz)
			return NULL;
		c.p = s->str_offsets.p + at;
		c.end = s->str_offsets.p + s->str_offsets.size;
		c.bad = 0;
		return sec_str(&s->str, rd(&c, u->offsz));
	}
}

static int aval_addr(const struct aval *v, const struct unit_ctx *u,
		     const struct secs *s, uint64_t *addr)
{
	struct cur c;
	uint64_t at;

	if (v->cls == FC_ADDR) {
		*addr = v->u;
		return 0;
	}
	if (v->cls != FC_ADDRX || !s->addr.p)
		return -1;
	at = u->addr_base + v->u * u->addrsz;
	if (at > s->addr.size || s->addr.size - at < u->addrsz)
		return -1;
	c.p = s->addr.p + at;
	c.end = s->addr.p + s->addr.size;
	c.bad = 0;
	*addr = rd(&c, u->addrsz);
	return 0;
}

struct die_rec {		/* a subprogram DIE, for name resolution */
	uint64_t off;
	const char *name, *linkage;
	uint32_t decl_line;
	uint64_t origin, spec;	/* 0: none */
};

struct range_rec {		/* a scope before its function is resolved */
	uint64_t lo, hi;
	uint64_t die;		/* the DIE whose name and decl_line count */
	uint32_t depth, call_line, call_disc;
};

struct info_acc {
	struct die_rec *dies;
	size_t nr_dies, cap_dies;
	struct range_rec *ranges;
	size_t nr_ranges, cap_ranges;
};

static int add_range(struct info_acc *a, uint64_t lo, uint64_t hi,
		     uint64_t die, uint32_t depth, uint32_t call_line,
		     uint32_t call_disc)
{
	struct range_rec *r;

	if (hi <= lo)
		return 0;
	if (vec_grow((void **)&a->ranges, &a->cap_ranges, a->nr_ranges + 1,
		 sizeof(*a->ranges)))
		return -1;
	r = &a->ranges[a->nr_ranges++];
	r->lo = lo;
	r->hi = hi;
	r->die = die;
	r->depth = depth;
	r->call_line = call_line;
	r->call_disc = call_disc;
	return 0;
}

/* DW_AT_ranges: a DWARF 5 range list or a DWARF 2-4 .debug_ranges list. */
static int add_range_list(struct info_acc *a, const struct unit_ctx *u,
			  const struct secs *s, const struct aval *v,
			  uint64_t die, uint32_t depth, uint32_t call_line,
			  uint32_t call_disc)
{
	struct cur c;
	uint64_t off, base = u->base;
	int guard = 0;

	if (u->version < 5) {
		if (v->cls != FC_SECOFF && v->cls != FC_CONST)
			return 1;
		if (!s->ranges.p || v->u >= s->ranges.size)
			return 1;
		c.p = s->ranges.p + v->u;
		c.end = s->ranges.p + s->ranges.size;
		c.bad = 0;
		while (!c.bad && guard++ < 100000) {
			uint64_t b = rd(&c, u->addrsz), e = rd(&c, u->addrsz);
			uint64_t all = u->addrsz == 8 ? ~0ull : 0xffffffffull;

			if (c.bad || (!b && !e))
				break;
			if (b == all) {
				base = e;
				continue;
			}
			if (add_range(a, base + b, base + e, die, depth,
				      call_line, call_disc))
				return -1;
		}
		return c.bad;
	}
	if (!s->rnglists.p)
		return 1;
	if (v->cls == FC_RNGLISTX) {
		uint64_t at = u->rnglists_base + v->u * u->offsz;

		if (!u->have_rnglists_base || at > s->rnglists.size ||
		    s->rnglists.size - at < u->offsz)
			return 1;
		c.p = s->rnglists.p + at;
		c.end = s->rnglists.p + s->rnglists.size;
		c.bad = 0;
		off = u->rnglists_base + rd(&c, u->offsz);
	} else if (v->cls == FC_SECOFF || v->cls == FC_CONST) {
		off = v->u;
	} else {
		return 1;
	}
	if (off >= s->rnglists.size)
		return 1;
	c.p = s->rnglists.p + off;
	c.end = s->rnglists.p + s->rnglists.size;
	c.bad = 0;
	while (!c.bad && guard++ < 100000) {
		unsigned int kind = rd(&c, 1);
		struct aval x = { FC_ADDRX, 0, NULL };
		uint64_t lo, hi;

		switch (kind) {
		case 0:				/* end_of_list */
			return 0;
		case 1:				/* base_addressx */
			x.u = uleb(&c);
			if (aval_addr(&x, u, s, &base))
				return 1;
			continue;
		case 2:				/* startx_endx */
			x.u = uleb(&c);
			if (aval_addr(&x, u, s, &lo))
				return 1;
			x.u = uleb(&c);
			if (aval_addr(&x, u, s, &hi))
				return 1;
			break;
		case 3:				/* startx_length */
			x.u = uleb(&c);
			if (aval_addr(&x, u, s, &lo))
				return 1;
			hi = lo + uleb(&c);
			break;
		case 4:				/* offset_pair */
			lo = base + uleb(&c);
			hi = base + uleb(&c);
			break;
		case 5:				/* base_address */
			base = rd(&c, u->addrsz);
			continue;
		case 6:				/* start_end */
			lo = rd(&c, u->addrsz);
			hi = rd(&c, u->addrsz);
			break;
		case 7:				/* start_length */
			lo = rd(&c, u->addrsz);
			hi = lo + uleb(&c);
			break;
		default:
			return 1;
		}
		if (c.bad)
			return 1;
		if (add_range(a, lo, hi, die, depth, call_line, call_disc))
			return -1;
	}
	return 1;
}

#define MAX_DEPTH 256

/* Walks one unit's DIEs.  Returns 0, 1 (malformed: skipped), -1 (memory). */
static int walk_unit(struct dw_info *di, const struct secs *s,
		     struct unit_ctx *u, struct cur *c,
		     struct abbrev_table *abbrevs, struct info_acc *acc)
{
	/* For each DIE nesting level: the inline depth of the innermost
	 * enclosing scope (-1: none). */
	int scope_depth[MAX_DEPTH + 1];
	int level = 0;
	int first = 1;

	scope_depth[0] = -1;
	while (c->p < c->end && !c->bad) {
		uint64_t die_off = (uint64_t)(c->p - s->info.p);
		uint64_t code = uleb(c);
		const struct abbrev *ab;
		struct aval v;
		const char *name = NULL, *linkage = NULL;
		uint64_t origin = 0, spec = 0, low = 0, high = 0;
		uint32_t decl_line = 0, call_line = 0, disc = 0;
		int have_low = 0, high_kind = 0, declaration = 0;
		struct aval ranges = { FC_NONE, 0, NULL };
		struct aval low_v = { FC_NONE, 0, NULL };
		struct aval name_v = { FC_NONE, 0, NULL };
		struct aval link_v = { FC_NONE, 0, NULL };
		size_t i;
		int is_scope;

		if (c->bad)
			return 1;
		if (!code) {
			if (level > 0)
				level--;
			continue;
		}
		ab = find_abbrev(abbrevs, code);
		if (!ab)
			return 1;
		for (i = 0; i < ab->nr; i++) {
			const struct abbrev_attr *at = &ab->attrs[i];

			if (read_form(c, at->form, at->implicit, u, s, &v))
				return 1;
			switch (at->name) {
			case DW_AT_name: name_v = v; break;
			case DW_AT_linkage_name:
			case DW_AT_MIPS_linkage_name: link_v = v; break;
			case DW_AT_low_pc: low_v = v; break;
			case DW_AT_high_pc:
				high = v.u;
				high_kind = v.cls == FC_CONST ? 2 :
					(v.cls == FC_ADDR || v.cls == FC_ADDRX) ?
					1 : 0;
				if (high_kind == 1 && aval_addr(&v, u, s, &high))
					high_kind = 0;
				break;
			case DW_AT_ranges: ranges = v; break;
			case DW_AT_abstract_origin:
			case DW_AT_specification:
				if (v.cls == FC_REF)
					v.u += u->cu_off;
				else if (v.cls != FC_REF_ADDR)
					break;
				if (at->name == DW_AT_abstract_origin)
					origin = v.u;
				else
					spec = v.u;
				break;
			case DW_AT_decl_line:
				decl_line = (uint32_t)v.u;
				break;
			case DW_AT_call_line:
				call_line = (uint32_t)v.u;
				break;
			case DW_AT_GNU_discriminator:
				disc = (uint32_t)v.u;
				break;
			case DW_AT_declaration:
				declaration = v.u != 0;
				break;
			case DW_AT_str_offsets_base:
				u->str_offsets_base = v.u;
				break;
			case DW_AT_addr_base:
				u->addr_base = v.u;
				break;
			case DW_AT_rnglists_base:
				u->rnglists_base = v.u;
				u->have_rnglists_base = 1;
				break;
			}
		}
		/* The unit DIE's bases are known only after all its
		 * attributes, so strings and addresses resolve here. */
		name = aval_str(&name_v, u, s);
		linkage = aval_str(&link_v, u, s);
		have_low = low_v.cls != FC_NONE && !aval_addr(&low_v, u, s, &low);
		if (high_kind == 2)
			high += low;
		if (first) {
			first = 0;
			if (ab->tag != DW_TAG_compile_unit &&
			    ab->tag != DW_TAG_partial_unit &&
			    ab->tag != DW_TAG_skeleton_unit)
				return 0;	/* a type unit: nothing for us */
			if (have_low)
				u->base = low;
		}
		if (ab->tag == DW_TAG_subprogram) {
			struct die_rec *d;

			if (vec_grow((void **)&acc->dies, &acc->cap_dies,
				 acc->nr_dies + 1, sizeof(*acc->dies)))
				return -1;
			d = &acc->dies[acc->nr_dies++];
			d->off = die_off;
			d->name = name;
			d->linkage = linkage;
			d->decl_line = decl_line;
			d->origin = origin;
			d->spec = spec;
		}
		is_scope = (ab->tag == DW_TAG_subprogram && !declaration) ||
			   ab->tag == DW_TAG_inlined_subroutine;
		{
			int outer = scope_depth[level];
			int depth = is_scope ?
				(ab->tag == DW_TAG_subprogram && outer < 0 ?
				 0 : outer + 1) : outer;
			uint64_t fdie = ab->tag == DW_TAG_inlined_subroutine ?
				origin : die_off;

			if (is_scope && depth >= 0) {
				int r = 0;

				if (ranges.cls != FC_NONE)
					r = add_range_list(acc, u, s, &ranges,
							   fdie, (uint32_t)depth,
							   call_line, disc);
				else if (have_low && high_kind)
					r = add_range(acc, low, high, fdie,
						      (uint32_t)depth,
						      call_line, disc);
				if (r < 0)
					return -1;
				if (r > 0)
					warn(di, ".debug_info: bad ranges of the DIE at offset %llu",
					     (unsigned long long)die_off);
			}
			if (ab->children) {
				if (level >= MAX_DEPTH)
					return 1;
				scope_depth[++level] = depth;
			}
		}
	}
	return c->bad ? 1 : 0;
}

static int die_cmp(const void *a, const void *b)
{
	const struct die_rec *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static const struct die_rec *find_die(const struct info_acc *a, uint64_t off)
{
	size_t lo = 0, hi = a->nr_dies;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (a->dies[mid].off == off)
			return &a->dies[mid];
		if (a->dies[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Name and declaration line of the function a DIE defines, following
 * abstract_origin and specification. */
static void resolve_func(const struct info_acc *a, uint64_t off,
			 const char **name, uint32_t *decl_line)
{
	const char *nm = NULL, *lk = NULL;
	uint32_t dl = 0;
	int hops;

	for (hops = 0; hops < 8 && off; hops++) {
		const struct die_rec *d = find_die(a, off);

		if (!d)
			break;
		if (!lk && d->linkage)
			lk = d->linkage;
		if (!nm && d->name)
			nm = d->name;
		if (!dl && d->decl_line)
			dl = d->decl_line;
		off = d->origin ? d->origin : d->spec;
	}
	*name = lk ? lk : nm ? nm : "??";
	*decl_line = dl;
}

static int scope_cmp(const void *a, const void *b)
{
	const struct dw_scope *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static int load_info(struct dw_info *di, const struct secs *s)
{
	struct info_acc acc = { 0 };
	struct abbrev_table abbrevs = { 0 };
	struct cur c;
	size_t i, nf = 0, capf = 0;
	int ret = -1;

	if (!s->info.p || !s->abbrev.p)
		return 0;
	c.p = s->info.p;
	c.end = s->info.p + s->info.size;
	c.bad = 0;
	while (c.p < c.end) {
		struct unit_ctx u = { 0 };
		uint64_t len, abbrev_off;
		struct cur unit;
		unsigned int ut = DW_UT_compile;
		int r;

		u.cu_off = (uint64_t)(c.p - s->info.p);
		len = unit_length(&c, &u.offsz);
		if (c.bad || len > (uint64_t)(c.end - c.p)) {
			warn(di, ".debug_info: unit at offset %llu runs past the section",
			     (unsigned long long)u.cu_off);
			break;
		}
		unit.p = c.p;
		unit.end = c.p + len;
		unit.bad = 0;
		c.p = unit.end;
		u.version = rd(&unit, 2);
		if (u.version >= 5) {
			ut = rd(&unit, 1);
			u.addrsz = rd(&unit, 1);
			abbrev_off = rd(&unit, u.offsz);
			if (ut != DW_UT_compile && ut != DW_UT_partial)
				continue;
		} else {
			abbrev_off = rd(&unit, u.offsz);
			u.addrsz = rd(&unit, 1);
		}
		if (unit.bad || u.version < 2 || u.version > 5 ||
		    (u.addrsz != 4 && u.addrsz != 8) ||
		    parse_abbrevs(&s->abbrev, abbrev_off, &abbrevs)) {
			warn(di, ".debug_info: unit at offset %llu has a bad header, skipped",
			     (unsigned long long)u.cu_off);
			continue;
		}
		r = walk_unit(di, s, &u, &unit, &abbrevs, &acc);
		if (r < 0)
			goto out;
		if (r > 0)
			warn(di, ".debug_info: malformed DIE in the unit at offset %llu, rest of the unit skipped",
			     (unsigned long long)u.cu_off);
	}
	qsort(acc.dies, acc.nr_dies, sizeof(*acc.dies), die_cmp);
	di->scopes = calloc(acc.nr_ranges ? acc.nr_ranges : 1,
			    sizeof(*di->scopes));
	if (!di->scopes)
		goto out;
	for (i = 0; i < acc.nr_ranges; i++) {
		const struct range_rec *r = &acc.ranges[i];
		struct dw_scope *sc = &di->scopes[i];
		const char *name;
		uint32_t decl;
		size_t f;

		resolve_func(&acc, r->die, &name, &decl);
		for (f = 0; f < nf; f++)
			if (di->funcs[f].die == r->die)
				break;
		if (f == nf) {
			if (vec_grow((void **)&di->funcs, &capf, nf + 1,
				 sizeof(*di->funcs)))
				goto out;
			di->funcs[nf].die = r->die;
			di->funcs[nf].name = name;
			di->funcs[nf].decl_line = decl;
			nf++;
		}
		sc->lo = r->lo;
		sc->hi = r->hi;
		sc->func = (uint32_t)f;
		sc->depth = r->depth;
		sc->call_line = r->call_line;
		sc->call_discriminator = r->call_disc;
	}
	di->nr_funcs = nf;
	di->nr_scopes = acc.nr_ranges;
	qsort(di->scopes, di->nr_scopes, sizeof(*di->scopes), scope_cmp);
	for (i = 0; i < di->nr_scopes; i++)
		di->scopes[i].max_hi = i && di->scopes[i - 1].max_hi >
			di->scopes[i].hi ? di->scopes[i - 1].max_hi :
			di->scopes[i].hi;
	ret = 0;
out:
	free(acc.dies);
	free(acc.ranges);
	free(abbrevs.a);
	free(abbrevs.pool);
	if (ret)
		snprintf(di->error, sizeof(di->error), "out of memory");
	return ret;
}

/* ---- loading and lookup */

int dw_load(struct dw_info *di, const char *path)
{
	struct secs s;
	struct rows_acc acc = { 0 };
	size_t ucap = 0;
	FILE *f;
	long sz;

	memset(di, 0, sizeof(*di));
	memset(&s, 0, sizeof(s));
	f = fopen(path, "rb");
	if (!f) {
		snprintf(di->error, sizeof(di->error), "%s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		snprintf(di->error, sizeof(di->error), "%s: cannot size it",
			 path);
		fclose(f);
		return -1;
	}
	di->size = (size_t)sz;
	di->image = malloc(di->size ? di->size : 1);
	if (!di->image || fread(di->image, 1, di->size, f) != di->size) {
		snprintf(di->error, sizeof(di->error), "%s: read failed", path);
		fclose(f);
		dw_free(di);
		return -1;
	}
	fclose(f);
	if (elf_sections(di, &s))
		goto fail;
	if (s.line.p) {
		struct cur c = { s.line.p, s.line.p + s.line.size, 0 };

		while (c.p < c.end) {
			struct dw_unit_files files;
			int r;

			if (vec_grow((void **)&di->units, &ucap, di->nr_units + 1,
				 sizeof(*di->units)))
				goto nomem;
			r = line_program(di, &s, &c, (uint32_t)di->nr_units,
					 &acc, &files, NULL);
			if (r < 0)
				goto nomem;
			if (r > 0)
				break;	/* cannot find the next unit */
			di->units[di->nr_units++] = files;
		}
	}
	{
		struct row_idx *tmp;
		size_t i;

		tmp = malloc((acc.nr ? acc.nr : 1) * sizeof(*tmp));
		if (!tmp)
			goto nomem;
		for (i = 0; i < acc.nr; i++) {
			tmp[i].r = acc.rows[i];
			tmp[i].idx = i;
		}
		qsort(tmp, acc.nr, sizeof(*tmp), row_cmp);
		for (i = 0; i < acc.nr; i++)
			acc.rows[i] = tmp[i].r;
		free(tmp);
	}
	di->rows = acc.rows;
	di->nr_rows = acc.nr;
	if (load_info(di, &s))
		goto fail;
	return 0;
nomem:
	snprintf(di->error, sizeof(di->error), "out of memory");
	free(acc.rows);
fail:
	dw_free(di);
	return -1;
}

void dw_free(struct dw_info *di)
{
	size_t i;

	for (i = 0; i < di->nr_units; i++)
		free(di->units[i].names);
	free(di->units);
	free(di->rows);
	free(di->scopes);
	free(di->funcs);
	free(di->image);
	di->units = NULL;
	di->rows = NULL;
	di->scopes = NULL;
	di->funcs = NULL;
	di->image = NULL;
	di->nr_units = di->nr_rows = di->nr_scopes = di->nr_funcs = 0;
}

/* The line-table row covering addr, or NULL. */
static const struct dw_row *find_row(const struct dw_info *di, uint64_t addr)
{
	size_t lo = 0, hi = di->nr_rows;

	while (lo < hi) {	/* first row with row.addr > addr */
		size_t mid = (lo + hi) / 2;

		if (di->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || di->rows[lo - 1].end)
		return NULL;
	return &di->rows[lo - 1];
}

#define MAX_CHAIN 64

/* The scopes holding addr, one per depth: chain[d] (NULL where none). */
static int scopes_at(const struct dw_info *di, uint64_t addr,
		     const struct dw_scope **chain)
{
	size_t lo = 0, hi = di->nr_scopes;
	int n = 0;

	while (lo < hi) {	/* first scope with lo > addr */
		size_t mid = (lo + hi) / 2;

		if (di->scopes[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	memset(chain, 0, MAX_CHAIN * sizeof(*chain));
	while (lo-- > 0 && di->scopes[lo].max_hi > addr) {
		const struct dw_scope *sc = &di->scopes[lo];

		if (addr >= sc->hi || sc->depth >= MAX_CHAIN)
			continue;
		/* The innermost (latest starting) scope of each depth. */
		if (!chain[sc->depth])
			chain[sc->depth] = sc;
		if ((int)sc->depth + 1 > n)
			n = (int)sc->depth + 1;
	}
	return n;
}

int dw_lookup(const struct dw_info *di, uint64_t addr, struct dw_frame *frames,
	      int max)
{
	const struct dw_scope *chain[MAX_CHAIN];
	const struct dw_row *row = find_row(di, addr);
	int n, d, k = 0;

	if (!row || max < 1)
		return 0;
	n = scopes_at(di, addr, chain);
	/* Only a gap-free chain from depth 0 is trustworthy. */
	for (d = 0; d < n; d++)
		if (!chain[d])
			break;
	n = d;
	if (n == 0) {
		frames[0].name = "??";
		frames[0].decl_line = 0;
		frames[0].line = row->line;
		frames[0].discriminator = row->discriminator;
		frames[0].file = NULL;
		k = 1;
	}
	for (d = n - 1; d >= 0 && k < max; d--, k++) {
		const struct dw_func *f = &di->funcs[chain[d]->func];

		frames[k].name = f->name;
		frames[k].decl_line = f->decl_line;
		frames[k].file = NULL;
		if (d == n - 1) {
			frames[k].line = row->line;
			frames[k].discriminator = row->discriminator;
		} else {
			frames[k].line = chain[d + 1]->call_line;
			frames[k].discriminator =
				chain[d + 1]->call_discriminator;
		}
	}
	if (row->unit < di->nr_units &&
	    row->file < di->units[row->unit].count)
		frames[0].file = di->units[row->unit].names[row->file];
	return k;
}

const struct dw_func *dw_function_at(const struct dw_info *di, uint64_t addr,
				     uint64_t *lo)
{
	const struct dw_scope *chain[MAX_CHAIN];

	if (!scopes_at(di, addr, chain) || !chain[0])
		return NULL;
	if (lo)
		*lo = chain[0]->lo;
	return &di->funcs[chain[0]->func];
}
