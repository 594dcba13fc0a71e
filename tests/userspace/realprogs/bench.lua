-- SPDX-License-Identifier: BSD-2-Clause
-- The Lua workload of realprogs-test.sh and bench-record.sh: calls, string
-- building and a sort, so the interpreter's hot paths all show.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local t = {}
for i = 1, 20000 do t[i] = string.format("%d:%s", i, string.rep("x", i % 7)) end
table.sort(t)
local s = 0
for i = 1, #t do s = s + #t[i] end
print(fib(22), s)
