# SPDX-License-Identifier: BSD-2-Clause
# TAP helpers for shell tests (the shell twin of tests/tap.h): source it,
# record checks, end with "tap_done; exit $?".
tap_n=0
tap_failed=0

# ok STATUS DESCRIPTION: a check passed when STATUS is 0.  Returns STATUS's
# verdict (0 or 1), so that "ok $? ...; [ $? -eq 0 ] || diag ..." shows its
# diagnostics on a failure only.
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
		return 0
	fi
	echo "not ok $tap_n - $2"
	tap_failed=$((tap_failed + 1))
	return 1
}

# todo STATUS REASON DESCRIPTION: a check of a known gap (TAP's TODO): its
# failure is expected and reported with REASON, not counted as failed.
todo() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $3 # TODO $2"
	else
		echo "not ok $tap_n - $3 # TODO $2"
	fi
	return "$1"
}

# check DESCRIPTION COMMAND...: the command must succeed.
check() {
	local desc=$1
	shift
	"$@" >/dev/null 2>&1
	ok $? "$desc"
}

# diag TEXT...: shown by the runner after a failure.
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# fails_in_one_line DESCRIPTION PATTERN COMMAND...: the command must fail
# (non-zero exit) with exactly one line of output, matching PATTERN (grep
# -E): the project's rule for bad input.
fails_in_one_line() {
	local desc=$1 pattern=$2 out status
	shift 2
	out=$("$@" 2>&1)
	status=$?
	[ $status -ne 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
		printf '%s\n' "$out" | grep -Eq -- "$pattern"
	status=$?
	ok $status "$desc"
	[ $status -eq 0 ] || diag "got:" "$out"
}
