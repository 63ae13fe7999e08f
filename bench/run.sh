#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: every bench/*.sh with the build directory as first argument.
B=$1
for s in "$(dirname "$0")"/*.sh; do
	[ "$(basename "$s")" = run.sh ] && continue
	echo "### $(basename "$s")"
	bash "$s" "$B" || echo "### $(basename "$s") failed"
done
