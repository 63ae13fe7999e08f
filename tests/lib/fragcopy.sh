# SPDX-License-Identifier: GPL-2.0-or-later
# fragcopy.sh - a large job's fragments from one real one: the fragment a
# real roce-epilog wrote for node "tmpl", copied as DIR/<name>.json under
# N node names (printf format NAMEFMT of 1..N), each with its own name
# inside.  Used by report-many.sh and bench/report.sh.

fragment_copies() { # TEMPLATE N DIR NAMEFMT
	mkdir -p "$3"
	awk -v n="$2" -v dir="$3" -v fmt="$4" '
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				name = sprintf(fmt, i)
				f = dir "/" name ".json"
				for (j = 1; j <= NR; j++) {
					l = line[j]
					sub(/"name": ?"tmpl"/, "\"name\":\"" name "\"", l)
					print l > f
				}
				close(f)
			}
		}' "$1"
}
