/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vec.h - growing arrays, the one helper the userspace libraries share.
 */
#ifndef RVPERF_UTIL_VEC_H
#define RVPERF_UTIL_VEC_H

#include <stdint.h>
#include <stdlib.h>

/*
 * Makes *arr (of *cap elements of elem bytes) hold at least need
 * elements, doubling.  0, or -1 when out of memory (or the size would
 * overflow), *arr then unchanged.
 */
static inline int vec_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;
	void *n;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (c > SIZE_MAX / elem)
		return -1;
	n = realloc(*arr, c * elem);
	if (!n)
		return -1;
	*arr = n;
	*cap = c;
	return 0;
}

#endif /* RVPERF_UTIL_VEC_H */
