#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""`rvperf report --html`: one self-contained page that parses, fetches
nothing, shows branchy's hot paths, and renders in headless Chromium: the
screenshot must contain the graph's boxes and edges.  Twice: on branch
stacks that follow branchy's control flow, and on a real recording.  And
the layout, as Chromium lays the page out at 1280 px (a copy of the page
with a script that measures it): no two labels of the graph overlap, each
box's text stays inside it, nothing is wider than the window, no box reads
0.0 % -- on both and on a real program, Lua 5.4 running a script
(tests/userspace/realprogs, when built)."""

import json

import html.parser
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import tap  # noqa: E402
from tap import done  # noqa: E402

O = os.environ.get('O', 'build')


def ok(cond, desc, diag=''):
    """tap.ok with at most 20 lines of diagnostics (page excerpts are long)."""
    return tap.ok(cond, desc, diag, max_diag=20)


class Page(html.parser.HTMLParser):
    VOID = {'meta', 'br', 'img', 'input', 'link', 'hr', 'rect', 'path'}

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.text, self.attrs = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.attrs += attrs
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.attrs += attrs

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append('unbalanced </%s> (open: %s)' % (tag, self.stack[-3:]))
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def png_pixels(path):
    """(width, height, rows of RGB tuples) of an 8-bit RGB(A) PNG."""
    data = open(path, 'rb').read()
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), 'unexpected PNG format'
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride, rows, prev = w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def near(px, rgb, tol=40):
    return all(abs(p - q) <= tol for p, q in zip(px, rgb))


MEASURE = """<script>
window.addEventListener('load', function () {
  function box(e) { var r = e.getBoundingClientRect();
                    return {l: r.left, t: r.top, r: r.right, b: r.bottom}; }
  function over(a, b) { return a.l < b.r - 0.5 && b.l < a.r - 0.5 &&
                               a.t < b.b - 0.5 && b.t < a.b - 0.5; }
  var texts = Array.prototype.slice.call(document.querySelectorAll('svg.graph text'));
  var res = {overlaps: [], outside: [], width: document.documentElement.scrollWidth,
             window: window.innerWidth, texts: texts.length};
  for (var i = 0; i < texts.length; i++)
    for (var j = i + 1; j < texts.length; j++)
      if (over(box(texts[i]), box(texts[j])))
        res.overlaps.push(texts[i].textContent + ' / ' + texts[j].textContent);
  document.querySelectorAll('svg.graph g.fn').forEach(function (g) {
    var r = box(g.querySelector('rect'));
    g.querySelectorAll('text').forEach(function (t) {
      var b = box(t);
      if (b.l < r.l || b.r > r.r || b.t < r.t || b.b > r.b)
        res.outside.push(t.textContent);
    });
  });
  var pre = document.createElement('pre');
  pre.id = 'layout';
  pre.textContent = JSON.stringify(res);
  document.body.appendChild(pre);
});
</script>"""


def check_layout(tmp, page, label):
    """The graph as Chromium lays it out at 1280 px: labels apart, text
    inside its box, nothing wider than the window, no 0.0 % box."""
    text = open(page, encoding='utf-8').read()
    titles = [t.split('</title>')[0] for t in text.split('<title>')[1:]]
    zero = [t for t in titles if '(0.0%)' in t]
    ok(not zero, '%s: no box of the graph reads 0.0 %%' % label, zero[:3])
    # a box under 0.1 % is there only as a caller on the hot paths
    callers = {html.unescape(t).split(': ', 1)[1].split(' -> ')[0]
               for t in titles if ' calls: ' in t}
    cold = [html.unescape(t).split(': ')[0] for t in titles if '(&lt; 0.1%)' in t]
    ok(all(c in callers for c in cold), '%s: a box under 0.1 %% only as a caller (%d)' % (label, len(cold)),
       [c for c in cold if c not in callers])
    # drill-down: the boxes of the annotated functions (the hottest dozen
    # with a symbol) link to their annotations, and each link lands
    links = [l.split('"')[0] for l in text.split('<a href="#')[1:]]
    ids = {i.split('"')[0] for i in text.split(' id="')[1:]}
    ok(len(links) >= 3 and all(l in ids for l in links),
       '%s: %d boxes of the graph link to their functions\' annotations' % (label, len(links)),
       [l for l in links if l not in ids])
    chromium = shutil.which('chromium') or shutil.which('chromium-browser')
    if not chromium:
        ok(True, '%s: the layout in headless Chromium # SKIP chromium not installed' % label)
        return
    probe = os.path.join(tmp, label + '-layout.html')
    with open(probe, 'w', encoding='utf-8') as f:
        f.write(text.replace('</body>', MEASURE + '</body>'))
    r = subprocess.run([chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
                        '--no-first-run', '--disable-background-networking', '--disable-component-update',
                        '--disable-sync', '--user-data-dir=' + os.path.join(tmp, 'profile'),
                        '--window-size=1280,900', '--dump-dom', 'file://' + probe],
                       capture_output=True, text=True, timeout=120)
    m = r.stdout.split('<pre id="layout">', 1)
    res = json.loads(html.unescape(m[1].split('</pre>', 1)[0])) if len(m) == 2 else None
    ok(res is not None and res['texts'] > 0, '%s: Chromium lays the page out (%s labels)' %
       (label, res and res['texts']), r.stderr[-2000:])
    if res is None:
        return
    ok(not res['overlaps'], '%s: no two labels of the graph overlap' % label, res['overlaps'][:10])
    ok(not res['outside'], "%s: each box's text stays inside it" % label, res['outside'][:10])
    ok(res['width'] <= res['window'], '%s: nothing is wider than the window (%d <= %d px)' %
       (label, res['width'], res['window']))


def check_page(tmp, data, label, min_calls):
    """Every check of one recording's page; LABEL names the recording."""
    page = os.path.join(tmp, label + '.html')
    r = subprocess.run([os.path.join(O, 'userspace/rvperf'), 'report', '-i', data, '--html', page],
                       capture_output=True, text=True)
    ok(r.returncode == 0 and os.path.getsize(page) > 1000, '%s: rvperf report --html writes a page' % label,
       r.stderr)
    text = open(page, encoding='utf-8').read()
    p = Page()
    p.feed(text)
    p.close()
    ok(not p.errors and not p.stack, '%s: the page parses with every element closed' % label,
       p.errors or p.stack)
    refs = [v for k, v in p.attrs if k in ('src', 'href') and not (v or '').startswith('#')]
    ok(not refs and '@import' not in text and 'url(http' not in text and '<script' not in text,
       '%s: the page is self-contained: no script, nothing fetched' % label, refs)
    body = ''.join(p.text)
    ok('hot_loop' in body and 'loop \u00d7' in body, '%s: the graph shows hot_loop with its loop badge' % label)
    ok(all('op_' + x in body for x in ('add', 'xor', 'mul', 'rot')) and 'recurse' in body,
       '%s: the graph shows the callees: the four operations, recurse' % label)
    if label == 'synthetic':
        ok('leaf' in body, '%s: and leaf, which recurse and hot_loop call' % label)
    ok(text.count('class="call"') >= min_calls,
       '%s: the graph has an edge per call path (%d)' % (label, text.count('class="call"')))
    check_layout(tmp, page, label)

    chromium = shutil.which('chromium') or shutil.which('chromium-browser')
    if not chromium:
        ok(True, '%s: the page renders in headless Chromium # SKIP chromium not installed' % label)
        return
    shot = os.path.join(tmp, label + '.png')
    r = subprocess.run([chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
                        '--no-first-run', '--disable-background-networking', '--disable-component-update',
                        '--disable-sync', '--user-data-dir=' + os.path.join(tmp, 'profile'),
                        '--screenshot=' + shot, '--window-size=1000,620', 'file://' + page],
                       capture_output=True, text=True, timeout=120)
    ok(r.returncode == 0 and os.path.exists(shot), '%s: headless Chromium takes a screenshot' % label,
       r.stderr[-2000:])
    if os.path.exists(shot):
        w, h, rows = png_pixels(shot)
        # Inside the graph's area: the hot box's orange, the boxes' blue,
        # the edges' green, in real numbers of pixels.
        area = [px for row in rows[130:600] for px in row[20:880]]
        orange = sum(near(px, (0xd9, 0x73, 0x1a)) for px in area)
        blue = sum(near(px, (0x5b, 0x7b, 0xd5)) for px in area)
        green = sum(near(px, (0x9c, 0xc0, 0x80), 50) for px in area)
        ok(w == 1000 and h == 620, '%s: the screenshot is %dx%d' % (label, w, h))
        ok(orange > 300 and blue > 1000 and green > 1500,
           '%s: the screenshot shows the graph: hot boxes, boxes and edges '
           '(%d orange, %d blue, %d green pixels)' % (label, orange, blue, green))


with tempfile.TemporaryDirectory() as tmp:
    elf = os.path.join(O, 'guest/bin/branchy')
    if not os.path.exists(elf):
        print('1..0 # SKIP %s not built (make guest-image)' % elf)
        sys.exit(0)
    # Branch stacks that follow branchy's control flow (gen-trace), then a
    # real recording of it (rvperf record: qemu-riscv64 and our plugin).
    data = os.path.join(tmp, 'synthetic.data')
    subprocess.run([os.path.join(O, 'tests/userspace/gen-trace'), data, elf, '400'], check=True)
    check_page(tmp, data, 'synthetic', 7)
    if shutil.which('qemu-riscv64'):
        data = os.path.join(tmp, 'recorded.data')
        r = subprocess.run([os.path.join(O, 'userspace/rvperf'), 'record', '-o', data, '--', elf],
                           capture_output=True, text=True)
        ok(r.returncode == 0, 'rvperf record branchy', r.stderr)
        check_page(tmp, data, 'recorded', 5)
    else:
        ok(True, 'a real recording # SKIP qemu-riscv64 not installed')
    # A real program: Lua running a script (realprogs/build.sh builds it
    # from Debian's sources into the cache; without it, SKIP).
    r = subprocess.run(['tests/userspace/realprogs/build.sh'], capture_output=True, text=True)
    if r.returncode == 0 and shutil.which('qemu-riscv64'):
        lua = os.path.join(r.stdout.strip(), 'lua-pie')
        script = os.path.join(tmp, 'bench.lua')
        with open(script, 'w') as f:
            f.write('local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end\n'
                    'local t = {}\n'
                    'for i = 1, 20000 do t[i] = string.format("%d:%s", i, string.rep("x", i % 7)) end\n'
                    'table.sort(t)\n'
                    'print(fib(22), #t)\n')
        data = os.path.join(tmp, 'lua.data')
        r = subprocess.run([os.path.join(O, 'userspace/rvperf'), 'record', '-o', data, '--', lua, script],
                           capture_output=True, text=True)
        ok(r.returncode == 0, 'rvperf record lua-pie (a real program)', r.stderr)
        page = os.path.join(tmp, 'lua.html')
        r = subprocess.run([os.path.join(O, 'userspace/rvperf'), 'report', '-i', data, '--html', page],
                           capture_output=True, text=True)
        ok(r.returncode == 0 and 'luaV_execute' in open(page, encoding='utf-8').read(),
           'lua: rvperf report --html names luaV_execute', r.stderr)
        check_layout(tmp, page, 'lua')
    else:
        ok(True, 'a real program # SKIP the real programs are not built or no qemu-riscv64: %s' %
           (r.stderr.strip().splitlines() or [''])[-1])
sys.exit(done())
