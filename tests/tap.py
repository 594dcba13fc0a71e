# SPDX-License-Identifier: BSD-2-Clause
"""TAP for Python test programs, as tests/tap.sh and tests/tap.h are for
shell and C: ok() prints one numbered result, done() the plan and the
exit status.  Import it with tests/ on sys.path."""

_n = _failed = 0


def ok(cond, desc, diag='', max_diag=None):
    """One result; on a failure, diag's lines (the first max_diag) as
    comments.  Returns cond."""
    global _n, _failed
    _n += 1
    if not cond:
        _failed += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', _n, desc))
    if not cond and diag:
        for line in str(diag).splitlines()[:max_diag]:
            print('# ' + line)
    return cond


def done():
    """Prints the plan; returns the exit status (1 when anything failed)."""
    print('1..%d' % _n)
    return 1 if _failed else 0
