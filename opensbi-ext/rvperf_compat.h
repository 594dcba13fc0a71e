/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rvperf_compat.h - the OpenSBI interfaces rvperf's glue uses that differ
 * between the releases it builds against (v1.8.1, v1.9 and master as of
 * the README's "verified with" lines).  Everything version-dependent is
 * here; platform.c, generic_override.c and rvperf_sbi.c use only the
 * names below.
 */
#ifndef RVPERF_OPENSBI_COMPAT_H
#define RVPERF_OPENSBI_COMPAT_H

#include "rvperf_sbi.h"

#include <sbi/sbi_version.h>
#include <sbi/sbi_hart.h>
#include <sbi/sbi_scratch.h>
#include <sbi_utils/fdt/fdt_helper.h>

#define RVPERF_OPENSBI_AT_LEAST(major, minor)				\
	(OPENSBI_VERSION_MAJOR > (major) ||				\
	 (OPENSBI_VERSION_MAJOR == (major) &&				\
	  OPENSBI_VERSION_MINOR >= (minor)))

#if RVPERF_OPENSBI_AT_LEAST(1, 9)
/*
 * v1.9: extensions_init() runs once per boot with a cold_boot flag and
 * parses the ISA string of every hart itself.
 */
#define RVPERF_EXTENSIONS_INIT_ARGS	bool cold_boot
#define RVPERF_EXTENSIONS_INIT_CALL	cold_boot
static inline int rvperf_parse_isa_extensions(bool cold_boot)
{
	if (!cold_boot)
		return 0;
	return fdt_parse_isa_extensions_all_harts(fdt_get_address());
}
#define RVPERF_PARSE_ISA_EXTENSIONS()	rvperf_parse_isa_extensions(cold_boot)
/* rvperf_hart_extensions() for every hart, once all are parsed. */
static inline void rvperf_hart_extensions_all(bool cold_boot)
{
	if (!cold_boot)
		return;
	sbi_for_each_hartindex(i)
		rvperf_hart_extensions(
			sbi_hart_features_ptr(sbi_hartindex_to_scratch(i)),
			sbi_hartindex_to_hartid(i));
}
#define RVPERF_EXTENSIONS_INIT()	rvperf_hart_extensions_all(cold_boot)
#else
/* v1.8: extensions_init() runs on each hart for its own features. */
#define RVPERF_EXTENSIONS_INIT_ARGS	struct sbi_hart_features *hfeatures
#define RVPERF_EXTENSIONS_INIT_CALL	hfeatures
#define RVPERF_PARSE_ISA_EXTENSIONS()					\
	fdt_parse_isa_extensions(fdt_get_address(), current_hartid(),	\
				 hfeatures->extensions)
#define RVPERF_EXTENSIONS_INIT()					\
	rvperf_hart_extensions(hfeatures, current_hartid())
#endif

#endif /* RVPERF_OPENSBI_COMPAT_H */
