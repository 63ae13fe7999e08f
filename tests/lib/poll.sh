# SPDX-License-Identifier: GPL-2.0-or-later
# poll.sh - the one wait-until loop of the shell tests and tools (tap.sh and
# slurmlab.sh source it):
#   lab_poll SECONDS CMD...   CMD every 0.1 s until it succeeds; 1 after
#                             SECONDS (whole seconds, bash's $SECONDS)
#   lab_gone PID              the process PID no longer exists (lab_poll 5 lab_gone PID)
# A cap ends the wait only when things go wrong: set it generously, the
# machine may be loaded.
lab_poll() {
	local end=$((SECONDS + $1)); shift
	until "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.1
	done
}
lab_gone() { ! kill -0 "$1" 2>/dev/null; }
