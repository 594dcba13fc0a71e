// SPDX-License-Identifier: BSD-2-Clause
/*
 * image.c - the program images the decoder walks: code of ELF files (read
 * with libelf) or given directly, each classified once, at every halfword,
 * by the shared classifier into a table the decoder indexes by address.
 * Each linear entry also says how many linear units and instructions
 * follow it without a control transfer, so the decoder crosses a basic
 * block in one step.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nexus_int.h"
#include "qemu-model/core/insnhw.h"
#include "rvperf/ntrace.h"

#define RUN_CAP 0xFF

void nx_image_init(struct nx_image *img, const struct nx_config *cfg)
{
	memset(img, 0, sizeof(*img));
	img->cfg = *cfg;
}

void nx_image_free(struct nx_image *img)
{
	unsigned int i;

	for (i = 0; i < img->n_segs; i++) {
		free(img->segs[i].tab);
		free(img->segs[i].code);
	}
	free(img->segs);
	memset(img, 0, sizeof(*img));
}

static uint32_t word_at(const uint8_t *code, size_t size, size_t off)
{
	uint32_t w = code[off] | (uint32_t)code[off + 1] << 8;

	if ((w & 3) == 3 && off + 4 <= size)
		w |= (uint32_t)code[off + 2] << 16 | (uint32_t)code[off + 3] << 24;
	return w;
}

static void classify_at(const struct nx_image *img, const uint8_t *code,
			size_t size, size_t off, struct nx_entry *e)
{
	struct insnhw_class c;
	uint32_t w = word_at(code, size, off);
	unsigned int reg;
	int64_t imm;

	memset(e, 0, sizeof(*e));
	insnhw_classify(w, img->cfg.xlen, img->cfg.exts, true, &c);
	e->units = c.length / 2;
	if (off + c.length > size) {
		e->kind = K_INVALID;
		return;
	}
	e->kind = K_LINEAR;
	if (c.conditional) {
		e->kind = K_BRANCH;
		e->off = (int32_t)c.offset;
	} else if (c.table_jump) {
		e->kind = c.itype == RVP_ITYPE_INFERABLE_CALL ? K_ICALL : K_IJUMP;
	} else if (c.direct) {
		e->kind = c.itype == RVP_ITYPE_INFERABLE_CALL ? K_CALL : K_JUMP;
		e->off = (int32_t)c.offset;
	} else if (c.itype == RVP_ITYPE_EXCEPTION_OR_INTERRUPT_RETURN) {
		e->kind = K_XRET;
	} else if (c.itype == RVP_ITYPE_UNINFERABLE_CALL ||
		   c.itype == RVP_ITYPE_COROUTINE_SWAP ||
		   c.itype == RVP_ITYPE_RETURN ||
		   c.itype == RVP_ITYPE_OTHER_UNINFERABLE_JUMP) {
		e->kind = c.itype == RVP_ITYPE_UNINFERABLE_CALL ? K_ICALL :
			  c.itype == RVP_ITYPE_COROUTINE_SWAP ? K_SWAP :
			  c.itype == RVP_ITYPE_RETURN ? K_RET : K_IJUMP;
		if (nx_jalr_operands(w, &reg, &imm))
			e->off = (int32_t)(imm * 256) | (int32_t)reg;
	} else if (img->cfg.seq_jump) {
		unsigned int rd, rs1;
		int64_t value;
		bool pcrel;
		size_t next = off + c.length;

		if (nx_const_load(w, &rd, &value, &pcrel) && next + 2 <= size &&
		    nx_jalr_operands(word_at(code, size, next), &rs1, &imm) &&
		    rs1 == rd) {
			e->kind = K_LOADC;
			e->off = (int32_t)value | (int32_t)rd |
				 (pcrel ? ENTRY_PCREL : 0);
		}
	}
}

int nx_image_add_code(struct nx_image *img, uint64_t addr,
		      const uint8_t *code, size_t len)
{
	struct nx_image_seg *segs, *s;
	size_t n = len / 2, i;

	if (!n || (addr & 1))
		return -1;
	segs = realloc(img->segs, (img->n_segs + 1) * sizeof(*segs));
	if (!segs)
		return -1;
	img->segs = segs;
	img->last = NULL;
	s = &segs[img->n_segs];
	s->start = addr;
	s->end = addr + 2 * n;
	s->tab = malloc(n * sizeof(*s->tab));
	s->code = malloc(2 * n);
	if (!s->tab || !s->code) {
		free(s->tab);
		free(s->code);
		return -1;
	}
	memcpy(s->code, code, 2 * n);
	for (i = 0; i < n; i++)
		classify_at(img, s->code, 2 * n, 2 * i, &s->tab[i]);
	/* Linear runs, from the end backwards. */
	for (i = n; i-- > 0;) {
		struct nx_entry *e = &s->tab[i];
		size_t next = i + e->units;

		if (e->kind != K_LINEAR)
			continue;
		e->run_units = e->units;
		e->run_insns = 1;
		if (next < n && s->tab[next].run_units &&
		    s->tab[next].run_units + e->units <= RUN_CAP) {
			e->run_units += s->tab[next].run_units;
			e->run_insns += s->tab[next].run_insns;
		}
	}
	img->n_segs++;
	return 0;
}

int nx_image_word(struct nx_image *img, uint64_t addr, uint32_t *word)
{
	unsigned int i;

	for (i = 0; i < img->n_segs; i++) {
		struct nx_image_seg *s = &img->segs[i];

		if (addr >= s->start && addr + 2 <= s->end) {
			*word = word_at(s->code, s->end - s->start, addr - s->start);
			return 0;
		}
	}
	return -1;
}

/*
 * Opens PATH for libelf and checks it is a RISC-V ELF file: 0 with *FD,
 * *ELF, *EH and *NPH set (the caller ends both), or -1 with a reason in
 * ERR and nothing left open.
 */
static int open_riscv_elf(const char *path, int *fd, Elf **elf, GElf_Ehdr *eh,
			  size_t *nph, char *err, size_t errlen)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	*fd = open(path, O_RDONLY);
	if (*fd < 0) {
		snprintf(err, errlen, "cannot open '%s'", path);
		return -1;
	}
	*elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF || !gelf_getehdr(*elf, eh) ||
	    elf_getphdrnum(*elf, nph)) {
		snprintf(err, errlen, "'%s' is not an ELF file", path);
	} else if (eh->e_machine != EM_RISCV) {
		snprintf(err, errlen, "'%s' is not a RISC-V ELF file", path);
	} else {
		return 0;
	}
	if (*elf)
		elf_end(*elf);
	close(*fd);
	return -1;
}

int nx_elf_xlen(const char *path, char *err, size_t errlen)
{
	GElf_Ehdr eh;
	size_t nph;
	Elf *elf;
	int fd, cls;

	if (open_riscv_elf(path, &fd, &elf, &eh, &nph, err, errlen))
		return -1;
	cls = gelf_getclass(elf);
	elf_end(elf);
	close(fd);
	if (cls == ELFCLASS32 || cls == ELFCLASS64)
		return cls == ELFCLASS32 ? 32 : 64;
	snprintf(err, errlen, "'%s': ELF class %d is neither 32 nor 64 bits",
		 path, cls);
	return -1;
}

uint64_t nx_image_code_bytes(const struct nx_image *img)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < img->n_segs; i++)
		n += img->segs[i].end - img->segs[i].start;
	return n;
}

int nx_image_exec_ranges(const char *path, uint64_t (*r)[2], int max,
			 char *err, size_t errlen)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t nph, i;
	Elf *elf;
	int fd, n = 0;

	if (open_riscv_elf(path, &fd, &elf, &eh, &nph, err, errlen))
		return -1;
	for (i = 0; i < nph && n < max; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || !ph.p_filesz)
			continue;
		r[n][0] = ph.p_vaddr;
		r[n][1] = ph.p_vaddr + ph.p_filesz;
		n++;
	}
	elf_end(elf);
	close(fd);
	return n;
}

int nx_image_add_elf(struct nx_image *img, const char *path, uint64_t base,
		     char *err, size_t errlen)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	size_t nph, i, size;
	uint64_t low = UINT64_MAX, bias = 0;
	char *raw;
	Elf *elf;
	int fd, ret = -1;

	if (open_riscv_elf(path, &fd, &elf, &eh, &nph, err, errlen))
		return -1;
	raw = elf_rawfile(elf, &size);
	if (!raw) {
		snprintf(err, errlen, "'%s': %s", path, elf_errmsg(-1));
		goto out;
	}
	for (i = 0; i < nph; i++)
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD &&
		    ph.p_vaddr < low)
			low = ph.p_vaddr & ~0xFFFull;
	if (base != NX_ELF_NATIVE_BASE && low != UINT64_MAX)
		bias = base - low;
	ret = 0;
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || !ph.p_filesz)
			continue;
		if (ph.p_offset > size || ph.p_filesz > size - ph.p_offset) {
			snprintf(err, errlen, "'%s': a segment runs past the file", path);
			ret = -1;
			break;
		}
		if (nx_image_add_code(img, ph.p_vaddr + bias,
				      (uint8_t *)raw + ph.p_offset, ph.p_filesz)) {
			snprintf(err, errlen, "'%s': out of memory", path);
			ret = -1;
			break;
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
