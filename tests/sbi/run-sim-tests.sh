#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs every tests/sbi/*.sim script through sbi-sim as one TAP stream: each
# 'expect' line is a check naming the spec section it tests, and each script
# adds a check that the core touched no missing CSR and no memory outside
# S-mode RAM.
O=${O:-build}
exec "$O/opensbi-ext/sbi-sim" --tap "$(dirname "$0")"/*.sim
