#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Every constant of include/rvperf/*.h against the specification it comes
from, recomputed from the spec's own tables (shared/specs, or $SPECS_DIR).

One TAP result per constant.  A constant no rule derives from the spec fails
too, so nothing can be added to the headers untested.  Without the spec files
(a user's clone) the spec-derived results are reported as skipped."""

import os
import re
import subprocess
import sys

O = os.environ.get('O', 'build')
SPECS = os.environ.get('SPECS_DIR') or os.path.join('..', 'shared', 'specs')
PMU = os.path.join(SPECS, 'sbi-ext-pmu-latest.adoc')
NTRACE = os.path.join(SPECS, '001_3ceab9f712191336.txt')
CTR_V1 = os.path.join(SPECS, 'ctr-smctr-ssctr-v1.0-body.adoc')
RISCV_OPCODE_SYSTEM = 0x73	# the unprivileged ISA's SYSTEM major opcode


def bits(hi, lo):
    return ((1 << (hi - lo + 1)) - 1) << lo


def tables(text):
    """(table id, [row cells]) for every asciidoc table; continuation lines
    (no leading '|') belong to the row above."""
    out, tid, rows, inside = [], None, [], False
    for line in text.splitlines():
        m = re.match(r'^\[#([\w-]+)\]', line)
        if m and not inside:
            tid = m.group(1)
        if line.strip() == '|===':
            if inside:
                out.append((tid, rows))
                tid, rows = None, []
            inside = not inside
            continue
        if inside and line.startswith('|'):
            rows.append([c.strip() for c in line.split('|')[1:]])
    return out


def derive_pmu(text):
    """{macro: (value, where in the spec)} from the SBI PMU chapter."""
    want = {}
    reserved_shift = {
        'table_pmu_counter_cfg_match_flags': 'RVP_SBI_PMU_CFG_FLAG_RESERVED_SHIFT',
        'table_pmu_counter_start_flags': 'RVP_SBI_PMU_START_FLAG_RESERVED_SHIFT',
        'table_pmu_counter_stop_flags': 'RVP_SBI_PMU_STOP_FLAG_RESERVED_SHIFT',
    }
    event_types = {
        'Hardware general events': 'RVP_SBI_PMU_EVENT_TYPE_HW',
        'Hardware Cache events': 'RVP_SBI_PMU_EVENT_TYPE_CACHE',
        'Hardware raw events (deprecated)': 'RVP_SBI_PMU_EVENT_TYPE_RAW',
        'Hardware raw events v2': 'RVP_SBI_PMU_EVENT_TYPE_RAW_V2',
        'Firmware events': 'RVP_SBI_PMU_EVENT_TYPE_FW',
    }
    for tid, rows in tables(text):
        where = 'table ' + (tid or '?')
        for cells in rows[1:]:  # the first row names the columns
            if len(cells) < 2:
                continue
            name, val = cells[0], cells[1]
            if tid == 'table_pmu_function_list' and name.startswith('sbi_pmu_'):
                want['RVP_SBI_PMU_FID_' + name[8:].upper()] = (int(cells[2]), where)
                want['RVP_SBI_EXT_PMU'] = (int(cells[3], 16), where)
            elif tid == 'table_pmu_event_type' and cells[2] in event_types:
                want[event_types[cells[2]]] = (int(val), where)
            elif tid in reserved_shift and name == '*RESERVED*':
                want[reserved_shift[tid]] = (int(val.split(':')[0]), where)
            elif re.match(r'^SBI_\w+$', name) and re.match(r'^\d+$', val):
                want['RVP_' + name] = (int(val), where)
            elif re.match(r'^SBI_\w+$', name) and re.match(r'^(\d+):(\d+)$', val):
                hi, lo = map(int, val.split(':'))
                if hi == lo:
                    want['RVP_' + name] = (1 << lo, where)
            elif name == 'Implementation specific events':
                lo, hi = map(int, val.split('-'))
                want['RVP_SBI_PMU_FW_IMPL_FIRST'] = (lo, where)
                want['RVP_SBI_PMU_FW_IMPL_LAST'] = (hi, where)
            elif tid == 'table_snapshot_shmem_layout':
                off, size = int(val, 16), int(cells[2])
                if name == 'counter_overflow_bitmap':
                    want['RVP_SBI_PMU_SNAPSHOT_OVERFLOW_BITMAP_OFFSET'] = (off, where)
                elif name == 'counter_values':
                    want['RVP_SBI_PMU_SNAPSHOT_COUNTER_VALUES_OFFSET'] = (off, where)
                    want['RVP_SBI_PMU_SNAPSHOT_NR_COUNTER_VALUES'] = (size // 8, where)
                elif name == 'Reserved':
                    want['RVP_SBI_PMU_SNAPSHOT_RESERVED_OFFSET'] = (off, where)
                    want['RVP_SBI_PMU_SNAPSHOT_SIZE'] = (off + size, where)
            elif tid == 'table_event_info_format' and re.match(r'^\d', name):
                word = int(name.split('-')[0])
                last = int(name.split('-')[-1])
                field = {'event_idx': 'EVENT_IDX', 'output': 'OUTPUT',
                         'event_data': 'EVENT_DATA'}[val]
                want['RVP_SBI_PMU_EVENT_INFO_%s_OFFSET' % field] = (4 * word, where)
                want['RVP_SBI_PMU_EVENT_INFO_ENTRY_SIZE'] = (4 * (last + 1), where)
                if field == 'OUTPUT' and 'BIT[0] - Boolean' in cells[3]:
                    want['RVP_SBI_PMU_EVENT_INFO_OUTPUT_SUPPORTED'] = (1, where)

    # Bit-field definitions written as code: "x[hi:lo] = name".
    src = 'source block'
    for hi, lo, what in re.findall(r'event_idx\[(\d+):(\d+)\]\s*=\s*(\w+)', text):
        hi, lo = int(hi), int(lo)
        if what == 'type':
            want['RVP_SBI_PMU_EVENT_IDX_TYPE_SHIFT'] = (lo, src + ' event_idx')
            want['RVP_SBI_PMU_EVENT_IDX_TYPE_MASK'] = (bits(hi, lo), src + ' event_idx')
        elif what == 'code':
            want['RVP_SBI_PMU_EVENT_IDX_CODE_MASK'] = (bits(hi, lo), src + ' event_idx')
    m = re.search(r'event_idx is a (\d+) bits wide', text)
    if m:
        want['RVP_SBI_PMU_EVENT_IDX_MASK'] = (bits(int(m.group(1)) - 1, 0), 'event_idx width')
    for hi, lo, what in re.findall(r'event_idx\.code\[(\d+):(\d+)\]\s*=\s*(\w+)', text):
        key = {'cache_id': 'ID', 'op_id': 'OP', 'result_id': 'RESULT'}[what]
        want['RVP_SBI_PMU_CACHE_%s_SHIFT' % key] = (int(lo), src + ' cache event code')
        want['RVP_SBI_PMU_CACHE_%s_MASK' % key] = (bits(int(hi), int(lo)), src + ' cache event code')
    for hi, lo, what in re.findall(r'counter_info\[(\d+):(\d+)\]\s*=\s*(\w+)', text):
        if what == 'CSR':
            want['RVP_SBI_PMU_COUNTER_INFO_CSR_MASK'] = (bits(int(hi), int(lo)), src + ' counter_info')
        elif what == 'Width':
            want['RVP_SBI_PMU_COUNTER_INFO_WIDTH_SHIFT'] = (int(lo), src + ' counter_info')
            want['RVP_SBI_PMU_COUNTER_INFO_WIDTH_MASK'] = (bits(int(hi), int(lo)), src + ' counter_info')
    raw = re.findall(r'Bits allowed for mhpmeventX \[0:(\d+)\]', text)
    if len(raw) == 2:
        want['RVP_SBI_PMU_RAW_EVENT_MASK'] = (bits(int(raw[0]), 0), 'event type table: type 2')
        want['RVP_SBI_PMU_RAW_V2_EVENT_MASK'] = (bits(int(raw[1]), 0), 'event type table: type 3')
    m = re.search(r'shmem_phys_lo` MUST be (\d+) bytes', text)
    if m:
        want['RVP_SBI_PMU_SNAPSHOT_ALIGN'] = (int(m.group(1)), 'FID 7 text')
    m = re.search(r'not (\d+)-bytes aligned', text)
    if m:
        want['RVP_SBI_PMU_EVENT_INFO_ALIGN'] = (int(m.group(1)), 'FID 8 errors table')
    if re.search(r'all-ones bitwise', text):
        want['RVP_SBI_SHMEM_DISABLE'] = (-1, 'FID 7 text: all-ones disables')
    return want


def itype_macro(name):
    """The macro for an itype as the spec names it: 'Un-inferable tail-call'
    and 'Inferrable call' are the same words as 'Uninferable', 'Inferable'."""
    name = re.sub(r'(?i)un-inferable', 'uninferable', name)
    name = re.sub(r'(?i)inferrable', 'inferable', name)
    name = re.sub(r'(?i)co-routine', 'coroutine', name)
    return 'RVP_ITYPE_' + re.sub(r'[^A-Z0-9]+', '_', name.upper()).strip('_')


def derive_ntrace(text):
    """itype values: "N = Name" in Table 2, "N<tab>Name" rows of Table 4."""
    want = {}
    t2 = text[text.index('Table 2. Generating itype'):text.index('Table 3.')]
    for value, name in re.findall(r'\b(\d+) = ([A-Za-z][A-Za-z -]*[a-z])', t2):
        want[itype_macro(name)] = (int(value), 'N-Trace Table 2')
    t4 = text[text.index('Table 4. Handling'):]
    t4 = t4[:t4.index('As almost every ingress port cycle')]
    for value, name in re.findall(r'^(\d+)\t([A-Za-z][A-Za-z -]*[a-z])\t', t4, re.M):
        want.setdefault(itype_macro(name), (int(value), 'N-Trace Table 4'))
    return want


def derive_ctr_v1(text):
    """The ratified layout: CSR numbers from the CSR list, every field of
    every register from its wavedrom diagram, TYPE from the encoding table,
    depth encodings, SCTRCLR, the state-enable bit, the *iselect range."""
    want = {}
    # A register's diagram follows its "=== ... (`name`)" heading.
    for m in re.finditer(r'^=== .*?\(`(\w+)`\)\s*$(.*?)(?=^=== |^== )', text,
                         re.M | re.S):
        reg, body = m.group(1), m.group(2)
        d = re.search(r'\{reg: \[(.*?)\]', body, re.S)
        if not d or reg == 'sctrctl':
            continue
        pos = 0
        for n, name in re.findall(r"\{bits:\s*(\d+), name: '([^']*)'", d.group(1)):
            n = int(n)
            if re.match(r'^[A-Za-z]+$', name):
                macro = 'RVP_CTR_V1_%s_%s' % (reg.upper(), name.upper())
                want[macro] = (bits(pos + n - 1, pos), reg + ' diagram')
                if n > 1:
                    want[macro + '_SHIFT'] = (pos, reg + ' diagram')
            pos += n
    for tid, rows in tables(text):
        for cells in rows[1:]:
            if len(cells) >= 2 and re.match(r'^0x[0-9A-F]+$', cells[0]):
                want['RVP_CTR_V1_CSR_' + cells[1].strip('`').upper()] = (
                    int(cells[0], 16), 'CTR CSR List')
            if tid == 'transfer-type-defs' and re.match(r'^\d+$', cells[0]) \
                    and not cells[1].startswith('_'):
                name = re.sub(r'\s*\(.*\)', '', cells[1])
                name = re.sub(r'(?i)co-routine', 'coroutine', name)
                want['RVP_CTRDATA_TYPE_' + re.sub(r'\W+', '_', name.upper())
                     .strip('_')] = (int(cells[0]), 'transfer type encodings')
    for enc, depth in re.findall(r"^.(\d{3}) - (\d+)\s*$", text, re.M):
        want['RVP_CTR_V1_DEPTH_ENC_' + depth] = (int(enc, 2), 'sctrdepth.DEPTH encodings')
    m = re.search(r"name: 'func12', attr: \['12', 'SCTRCLR \((0x[0-9A-Fa-f]+)\)'\]", text)
    if m:
        want['RVP_CTR_V1_SCTRCLR_INSN'] = ((int(m.group(1), 16) << 20) |
                                           RISCV_OPCODE_SYSTEM, 'SCTRCLR encoding')
    m = re.search(r'The CTR bit is bit (\d+) in `mstateen0` and `hstateen0`', text)
    if m:
        want['RVP_CTR_V1_STATEEN0_CTR'] = (1 << int(m.group(1)), 'State Enable Access Control')
    m = re.search(r'index range (0x[0-9A-F]+) through (0x[0-9A-F]+) is reserved for CTR', text)
    if m:
        want['RVP_CTR_ISELECT_FIRST'] = (int(m.group(1), 16), 'Entry Registers')
        want['RVP_CTR_ISELECT_LAST'] = (int(m.group(2), 16), 'Entry Registers')
    return want


# The standard SBI error codes are not in the PMU chapter; they are from the
# SBI specification's Binary Encoding chapter, table "Standard SBI Errors".
SBI_ERRORS = {
    'SBI_SUCCESS': 0, 'SBI_ERR_FAILED': -1, 'SBI_ERR_NOT_SUPPORTED': -2,
    'SBI_ERR_INVALID_PARAM': -3, 'SBI_ERR_DENIED': -4,
    'SBI_ERR_INVALID_ADDRESS': -5, 'SBI_ERR_ALREADY_AVAILABLE': -6,
    'SBI_ERR_ALREADY_STARTED': -7, 'SBI_ERR_ALREADY_STOPPED': -8,
    'SBI_ERR_NO_SHMEM': -9, 'SBI_ERR_INVALID_STATE': -10,
    'SBI_ERR_BAD_RANGE': -11, 'SBI_ERR_TIMEOUT': -12, 'SBI_ERR_IO': -13,
    'SBI_ERR_DENIED_LOCKED': -14,
}


def transcribed():
    """{macro: (value, source)} from expected.tsv: constants of specs that
    are not in shared/specs, each with where it was read."""
    out = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'expected.tsv')
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith('#'):
                name, value, where = line.rstrip('\n').split('\t')
                out[name] = (int(value, 0), where)
    return out


def main():
    dump = subprocess.run([os.path.join(O, 'tests/spec/dump-consts')],
                          capture_output=True, text=True, check=True).stdout
    have = {}
    for line in dump.splitlines():
        name, value = line.split()
        have[name] = int(value)
    n = failed = 0

    def result(ok, text, directive=''):
        nonlocal n, failed
        n += 1
        failed += not ok and not directive
        print('%s %d - %s%s' % ('ok' if ok else 'not ok', n, text,
                                ' # ' + directive if directive else ''))

    def signed(v):
        return v - (1 << 64) if v >= 1 << 63 else v

    TRANSCRIBED = transcribed()
    specs_here = os.path.exists(PMU)
    want = derive_pmu(open(PMU).read()) if specs_here else {}
    if specs_here and os.path.exists(NTRACE):
        want.update(derive_ntrace(open(NTRACE).read()))
    if specs_here and os.path.exists(CTR_V1):
        want.update(derive_ctr_v1(open(CTR_V1).read()))
    for name in sorted(have):
        if name in want:
            value, where = want[name]
            result(have[name] == signed(value) or have[name] == value,
                   '%s = %d (%s)' % (name, value, where))
            if have[name] != value and have[name] != signed(value):
                print('# header has %d' % have[name])
        elif name in TRANSCRIBED:
            value, where = TRANSCRIBED[name]
            result(have[name] == value or have[name] == signed(value),
                   '%s = %d (%s, transcribed in expected.tsv)' % (name, value, where))
        elif name[4:] in SBI_ERRORS:
            result(have[name] == SBI_ERRORS[name[4:]],
                   '%s = %d (SBI Binary Encoding, Standard SBI Errors)' %
                   (name, SBI_ERRORS[name[4:]]))
        elif not specs_here:
            result(True, '%s from the spec' % name,
                   'SKIP spec files not found at %s' % SPECS)
        else:
            result(False, '%s is derived from the spec (no rule finds it)' % name)
    if specs_here:
        # Every error the chapter names is one the header defines.
        used = sorted(set(re.findall(r'\b(SBI_(?:SUCCESS|ERR_\w+))\b',
                                     open(PMU).read())))
        missing = [u for u in used if 'RVP_' + u not in have]
        result(not missing, 'every error code the PMU chapter uses is defined (%d)' % len(used))
        if missing:
            print('# missing: ' + ' '.join(missing))
        # Every spec value the rules found is in the header.
        absent = sorted(set(want) - set(have))
        result(not absent, 'every value the rules derive is in the header (%d)' % len(want))
        if absent:
            print('# absent: ' + ' '.join(absent))
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
