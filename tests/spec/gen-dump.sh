#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Writes a C program that prints every value macro (#define RVP_NAME value)
# of the given headers as "NAME VALUE", so no constant can escape the check.
set -eu
echo '#include <stdio.h>'
for h in "$@"; do echo "#include \"${h#include/}\""; done
echo 'int main(void)'
echo '{'
sed -n 's/^#define \(RVP_[A-Z0-9_]*\)[ 	].*/\1/p' "$@" | sort -u |
	while read -r name; do
		printf '\tprintf("%%s %%lld\\n", "%s", (long long)(%s));\n' "$name" "$name"
	done
echo '	return 0;'
echo '}'
