// SPDX-License-Identifier: BSD-2-Clause
/*
 * elf_syms.c - read function symbols, load segments and the build id of an
 * ELF file.  The whole file is read into memory (programs profiled here are
 * small) and every structure is bounds-checked against its size.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_syms.h"

#define SHT_SYMTAB	2
#define SHT_NOTE	7
#define SHT_DYNSYM	11
#define PT_LOAD		1
#define PT_INTERP	3
#define ET_DYN		3
#define STT_NOTYPE	0
#define STT_FUNC	2
#define SHN_UNDEF	0
#define SHF_EXECINSTR	0x4
#define NT_GNU_BUILD_ID	3

struct image {
	const unsigned char *p;
	uint64_t size;
	int is64;
};

static int fits(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

static uint64_t rd(const struct image *im, uint64_t off, unsigned int len)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < len; i++)	/* little-endian */
		v |= (uint64_t)im->p[off + i] << (8 * i);
	return v;
}

/* Field readers that take the ELF class into account. */
#define ADDR_LEN(im)	((im)->is64 ? 8u : 4u)

static int cmp_sym(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Prefer the sized symbol at an address, then the name, so the
	 * order is the same on every run. */
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	return strcmp(x->name, y->name);
}

static __attribute__((format(printf, 2, 3)))
int fail(struct elf_syms *es, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(es->error, sizeof(es->error), fmt, ap);
	va_end(ap);
	return -1;
}

static void read_build_id(struct elf_syms *es, const struct image *im,
			  uint64_t off, uint64_t size)
{
	uint64_t end = off + size;

	while (off + 12 <= end) {
		uint64_t namesz = rd(im, off, 4), descsz = rd(im, off + 4, 4);
		uint64_t type = rd(im, off + 8, 4);
		uint64_t name = off + 12, desc = name + ((namesz + 3) & ~3ULL);

		if (desc > end || descsz > end - desc)
			return;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(im->p + name, "GNU", 4) == 0 && descsz <= 20) {
			memcpy(es->build_id, im->p + desc, descsz);
			es->build_id_size = (unsigned int)descsz;
			return;
		}
		off = desc + ((descsz + 3) & ~3ULL);
	}
}

static int load_symbols(struct elf_syms *es, const struct image *im,
			uint64_t shoff, uint64_t shentsize, uint64_t shnum,
			uint32_t want_type)
{
	uint64_t i, j, strings_used = 0;

	for (i = 0; i < shnum; i++) {
		uint64_t sh = shoff + i * shentsize, off, size, entsize, link;
		uint64_t str_off, str_size, lsh;

		if (rd(im, sh + 4, 4) != want_type)
			continue;
		off = rd(im, sh + (im->is64 ? 24 : 16), ADDR_LEN(im));
		size = rd(im, sh + (im->is64 ? 32 : 20), ADDR_LEN(im));
		link = rd(im, sh + (im->is64 ? 40 : 24), 4);
		entsize = rd(im, sh + (im->is64 ? 56 : 36), ADDR_LEN(im));
		if (!fits(im, off, size) || entsize < (im->is64 ? 24u : 16u) ||
		    link >= shnum)
			return fail(es, "symbol table at offset %llu is out of bounds",
				    (unsigned long long)off);
		lsh = shoff + link * shentsize;
		str_off = rd(im, lsh + (im->is64 ? 24 : 16), ADDR_LEN(im));
		str_size = rd(im, lsh + (im->is64 ? 32 : 20), ADDR_LEN(im));
		if (!fits(im, str_off, str_size))
			return fail(es, "string table at offset %llu is out of bounds",
				    (unsigned long long)str_off);
		es->strings = malloc(str_size + 1);
		es->syms = calloc(size / entsize + 1, sizeof(*es->syms));
		if (!es->strings || !es->syms)
			return fail(es, "out of memory");
		memcpy(es->strings, im->p + str_off, str_size);
		es->strings[str_size] = '\0';
		strings_used = str_size;
		for (j = 0; j < size / entsize; j++) {
			uint64_t s = off + j * entsize, name, value, ssize;
			unsigned int info, shndx, type;

			if (im->is64) {
				name = rd(im, s, 4);
				info = (unsigned int)rd(im, s + 4, 1);
				shndx = (unsigned int)rd(im, s + 6, 2);
				value = rd(im, s + 8, 8);
				ssize = rd(im, s + 16, 8);
			} else {
				name = rd(im, s, 4);
				value = rd(im, s + 4, 4);
				ssize = rd(im, s + 8, 4);
				info = (unsigned int)rd(im, s + 12, 1);
				shndx = (unsigned int)rd(im, s + 14, 2);
			}
			type = info & 0xf;
			/* Only code: a symbol of a section that holds
			 * instructions (not __ehdr_start and the like). */
			if (shndx == SHN_UNDEF || shndx >= shnum ||
			    !(rd(im, shoff + shndx * shentsize + 8 /* sh_flags */,
				 ADDR_LEN(im)) & SHF_EXECINSTR))
				continue;
			if (name >= strings_used ||
			    (type != STT_FUNC && type != STT_NOTYPE) ||
			    !es->strings[name] || es->strings[name] == '$' ||
			    strncmp(es->strings + name, ".L", 2) == 0 ||
			    (type == STT_NOTYPE && ssize))
				continue;
			es->syms[es->nr_syms].addr = value;
			es->syms[es->nr_syms].size = ssize;
			es->syms[es->nr_syms].name = es->strings + name;
			es->nr_syms++;
		}
		qsort(es->syms, es->nr_syms, sizeof(*es->syms), cmp_sym);
		return 0;
	}
	return 1;	/* no such table */
}

int elf_syms_load(struct elf_syms *es, const char *path)
{
	uint64_t phoff, shoff, phentsize, phnum, shentsize, shnum, i;
	struct image im = { NULL, 0, 0 };
	unsigned char *buf = NULL;
	long size;
	FILE *f;
	int err;

	memset(es, 0, sizeof(*es));
	f = fopen(path, "rb");
	if (!f) {
		snprintf(es->error, sizeof(es->error), "%s", strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return fail(es, "cannot read the file");
	}
	buf = malloc((size_t)size + 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(buf);
		return fail(es, "cannot read the file");
	}
	fclose(f);
	im.p = buf;
	im.size = (uint64_t)size;
	err = -1;
	if (im.size < 52 || memcmp(buf, "\177ELF", 4)) {
		fail(es, "offset 0: not an ELF file");
		goto out;
	}
	if (buf[4] != 1 && buf[4] != 2) {
		fail(es, "offset 4: unknown ELF class %u", buf[4]);
		goto out;
	}
	if (buf[5] != 1) {
		fail(es, "offset 5: big-endian ELF (data encoding %u) is not supported",
		     buf[5]);
		goto out;
	}
	im.is64 = buf[4] == 2;
	es->elf_class = im.is64 ? 64 : 32;
	if (im.is64 && im.size < 64) {
		fail(es, "offset 0: %llu bytes is too short for an ELF64 header",
		     (unsigned long long)im.size);
		goto out;
	}
	es->pie = rd(&im, 16, 2) == ET_DYN;
	es->machine = (uint16_t)rd(&im, 18, 2);
	es->entry = rd(&im, 24, ADDR_LEN(&im));
	phoff = rd(&im, im.is64 ? 32 : 28, ADDR_LEN(&im));
	shoff = rd(&im, im.is64 ? 40 : 32, ADDR_LEN(&im));
	phentsize = rd(&im, im.is64 ? 54 : 42, 2);
	phnum = rd(&im, im.is64 ? 56 : 44, 2);
	shentsize = rd(&im, im.is64 ? 58 : 46, 2);
	shnum = rd(&im, im.is64 ? 60 : 48, 2);
	if (phnum && (phentsize < (im.is64 ? 56u : 32u) ||
		      !fits(&im, phoff, phnum * phentsize))) {
		fail(es, "offset %llu: program headers out of bounds",
		     (unsigned long long)phoff);
		goto out;
	}
	if (shnum && (shentsize < (im.is64 ? 64u : 40u) ||
		      !fits(&im, shoff, shnum * shentsize))) {
		fail(es, "offset %llu: section headers out of bounds",
		     (unsigned long long)shoff);
		goto out;
	}
	es->segments = calloc(phnum + 1, sizeof(*es->segments));
	if (!es->segments) {
		fail(es, "out of memory");
		goto out;
	}
	for (i = 0; i < phnum; i++) {
		uint64_t ph = phoff + i * phentsize;
		struct elf_segment *seg = &es->segments[es->nr_segments];

		if (rd(&im, ph, 4) == PT_INTERP)
			es->interp = 1;
		if (rd(&im, ph, 4) != PT_LOAD)
			continue;
		seg->flags = rd(&im, ph + (im.is64 ? 4 : 24), 4);
		seg->memsz = rd(&im, ph + (im.is64 ? 40 : 20), ADDR_LEN(&im));
		seg->offset = rd(&im, ph + (im.is64 ? 8 : 4), ADDR_LEN(&im));
		seg->vaddr = rd(&im, ph + (im.is64 ? 16 : 8), ADDR_LEN(&im));
		seg->filesz = rd(&im, ph + (im.is64 ? 32 : 16), ADDR_LEN(&im));
		es->nr_segments++;
	}
	for (i = 0; i < shnum; i++) {
		uint64_t sh = shoff + i * shentsize, off, sz;

		if (rd(&im, sh + 4, 4) != SHT_NOTE)
			continue;
		off = rd(&im, sh + (im.is64 ? 24 : 16), ADDR_LEN(&im));
		sz = rd(&im, sh + (im.is64 ? 32 : 20), ADDR_LEN(&im));
		if (fits(&im, off, sz))
			read_build_id(es, &im, off, sz);
	}
	err = load_symbols(es, &im, shoff, shentsize, shnum, SHT_SYMTAB);
	if (err > 0)
		err = load_symbols(es, &im, shoff, shentsize, shnum,
				   SHT_DYNSYM);
	if (err > 0)
		err = 0;	/* no symbols at all: addresses stay numbers */
out:
	free(buf);
	if (err)
		elf_syms_free(es);
	return err ? -1 : 0;
}

void elf_syms_free(struct elf_syms *es)
{
	char error[sizeof(es->error)];

	memcpy(error, es->error, sizeof(error));
	free(es->syms);
	free(es->strings);
	free(es->segments);
	memset(es, 0, sizeof(*es));
	memcpy(es->error, error, sizeof(error));
}

const struct elf_sym *elf_syms_find(const struct elf_syms *es, uint64_t addr)
{
	size_t lo = 0, hi = es->nr_syms;
	const struct elf_sym *s;

	/* The last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &es->syms[lo - 1];
	/* A sized symbol covers only its size; an unsized one runs to the
	 * next symbol. */
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	return s;
}

int elf_offset_to_vaddr(const struct elf_syms *es, uint64_t offset,
			uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < es->nr_segments; i++) {
		const struct elf_segment *seg = &es->segments[i];

		if (offset >= seg->offset && offset - seg->offset < seg->filesz) {
			*vaddr = seg->vaddr + (offset - seg->offset);
			return 1;
		}
	}
	return 0;
}
