/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * elf_syms.h - function symbols of an ELF file, for naming addresses.
 *
 * Reads little-endian ELF32 and ELF64 (RISC-V or any other machine):
 * .symtab, or .dynsym when the file is stripped; FUNC symbols (and
 * zero-sized ones, which assembly often leaves untyped) sorted by address.
 * Every offset read from the file is bounds-checked.
 */
#ifndef RVPERF_ELF_SYMS_H
#define RVPERF_ELF_SYMS_H

#include <stddef.h>
#include <stdint.h>

struct elf_sym {
	uint64_t addr, size;
	const char *name;		/* points into elf_syms.strings */
};

struct elf_segment {			/* a PT_LOAD: file offset -> vaddr */
	uint64_t offset, vaddr, filesz, memsz;
	uint32_t flags;			/* p_flags: 1 X, 2 W, 4 R */
};

#define ELF_PF_X	1

struct elf_syms {
	uint16_t machine;		/* e_machine; 243 is RISC-V */
	int elf_class;			/* 32 or 64 */
	int pie;			/* ET_DYN */
	int interp;			/* has PT_INTERP: dynamically linked */
	uint64_t entry;			/* e_entry */
	struct elf_sym *syms;
	size_t nr_syms;
	struct elf_segment *segments;
	size_t nr_segments;
	char *strings;
	unsigned char build_id[20];
	unsigned int build_id_size;
	char error[200];
};

#define ELF_MACHINE_RISCV	243

/* Returns 0, or -1 with es->error set ("not an ELF file", offsets...). */
int elf_syms_load(struct elf_syms *es, const char *path);
void elf_syms_free(struct elf_syms *es);

/* The symbol containing addr (a link-time address), or NULL. */
const struct elf_sym *elf_syms_find(const struct elf_syms *es, uint64_t addr);

/* A file offset to the link-time address of the segment holding it;
 * returns 0 when no PT_LOAD covers it. */
int elf_offset_to_vaddr(const struct elf_syms *es, uint64_t offset,
			uint64_t *vaddr);

#endif /* RVPERF_ELF_SYMS_H */
