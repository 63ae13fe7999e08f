#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# roce-report --format html, opened in a real browser: a job written by the
# real roce-prolog and roce-epilog (one node with loss and timeouts, one
# whose fragment carries hostile text: a <script> in a verdict, markup in a
# device name, a broken fragment whose file name is an <img onerror>), the
# page written with -o (atomically: a failed run leaves the old file),
# then Debian's chromium, headless, started here with a fresh profile and no
# network: a screenshot kept in the test's output directory
# (tests/e2e/report-html.png in the build tree), and the DOM after the
# page's script ran: the loss heat map cell, the fix in the verdict list,
# the port table sorted by the #sort= fragment, and no injected script run.
set -u
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/fabric.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/lib/reportjob.sh"
REPORT=$top_builddir/prolog/roce-report

command -v jq >/dev/null || skip_all "needs jq"
netns_setup html 2
rj_conf
ok "gpu01: traffic, no loss" rj_node 601 gpu01 2 mlx5_0 counters port_xmit_data 250000000 \
	mlx5_1 counters port_xmit_data 240000000
ok "gpu02: loss and timeouts on mlx5_0" rj_node 601 gpu02 2 mlx5_0 counters port_xmit_data 200000000 \
	mlx5_0 hw_counters out_of_sequence 500 mlx5_0 hw_counters local_ack_timeout_err 40
ok "gpu03: a link down" rj_node 601 gpu03 2 mlx5_1 counters link_downed 1
is "$(jq -r '.note // "none"' "$T/reports/601/gpu02.json")" none "gpu02: counted from the prolog's snapshot (no note)"
# Hostile text, as a fragment on a shared file system may carry it (the
# parser keeps it, made printable: < > & " survive to the printer).
F=$T/reports/601/gpu03.json
PAYLOAD='<script>document.documentElement.setAttribute("data-pwned","script")</script>'
jq --arg p "$PAYLOAD" '.verdicts[0].message = "lost " + $p | .verdicts[0].fix = "fix " + $p
	| .ports[1].device = "mlx5_1<b onmouseover=x>" | .verdicts[0].subject = "mlx5_1<b onmouseover=x>:1"' \
	"$F" >"$F.new" && mv -f "$F.new" "$F" && chmod 440 "$F"
BAD="<img src=x onerror=document.documentElement.setAttribute('data-pwned','img')>.json"
printf '{"schema": 1}' >"$T/reports/601/$BAD"

OUT=$T/out/report.html
mkdir -p "$T/out"
"$REPORT" 601 --config "$T/roce.conf" --format html -o "$OUT" 2>"$T/err"
is "$?" 0 "roce-report --format html -o FILE: exit 0"
like "$(cat "$T/err")" "roce-report: fragment .*onerror" "the unusable fragment is named on stderr"
is "$(ls -A "$T/out")" "report.html" "only the page in the output directory (no temporary left)"
H=$(cat "$OUT")
like "$H" '^<!DOCTYPE html>' "a whole HTML page"
is "$(grep -o '<script' <<<"$H" | wc -l)" 1 "one <script> element: the page's own"
unlike "$H" '(src|href)="?(https?:)?//' "nothing fetched from a network"
like "$H" '&lt;script&gt;document.documentElement' "the verdict's <script> is text"
like "$H" 'mlx5_1&lt;b onmouseover=x&gt;' "the device name's markup is text"
like "$H" '&lt;img src=x onerror=' "the fragment file name's markup is text"
is "$("$REPORT" 601 --config "$T/roce.conf" --format html 2>/dev/null | cmp - "$OUT" && echo same)" same \
	"stdout and -o give the same page"

# A clean job (one node, traffic, nothing wrong): no empty Node verdicts section.
ok "gpu04: a clean one-node job" rj_node 612 gpu04 2 mlx5_0 counters port_xmit_data 250000000
H2=$("$REPORT" 612 --config "$T/roce.conf" --format html 2>&1)
like "$H2" "none: no loss, congestion or link problems seen" "a clean job: no job verdict"
unlike "$H2" "node-verdicts|Node verdicts" "a clean job: no empty Node verdicts section, no link to it"

# -o never leaves a partial or wrong file: a failed run keeps the old one.
cp "$OUT" "$T/before"
"$REPORT" 699 --report-dir "$T/reports" --format html -o "$OUT" >/dev/null 2>&1
is "$?" 1 "no report for job 699: exit 1"
ok "the old page is untouched" cmp -s "$OUT" "$T/before"
"$REPORT" 601 --config "$T/roce.conf" --format html -o "$T/nodir/r.html" 2>"$T/err2"
is "$?" 2 "-o into a missing directory: exit 2"
like "$(cat "$T/err2")" "cannot write $T/nodir/r.html" "and the error names the file"

# A fragment no epilog writes: "seconds": 5e-324 made every rate infinite
# and the heat map index its levels with INT_MIN + 1 (SIGSEGV; UBSan: index
# out of bounds).  Refused, naming the key; the other nodes still reported.
cp -a "$T/reports/601" "$T/reports/602"
for f in "$T"/reports/602/gpu0*.json; do
	jq -c '.job_id = "602"' "$f" >"$f.new" && mv -f "$f.new" "$f"
done
rm -f "$T/reports/602/"*onerror*
F=$T/reports/602/gpu01.json
jq -c '.seconds = 0.5 | .ports[0].counters.port_xmit_bytes = 1000' "$F" | sed 's/"seconds":0.5/"seconds":5e-324/' >"$F.new" &&
	mv -f "$F.new" "$F"
out=$("$REPORT" 602 --report-dir "$T/reports" --format html 2>"$T/err3"); rc=$?
is "$rc" 0 "\"seconds\": 5e-324 in a fragment: roce-report --format html exit 0 (no crash)"
like "$(cat "$T/err3")" 'fragment gpu01.json: "seconds" = 4.9406564584124654e-324 is not what an epilog writes' \
	"and the fragment is refused, naming the key"
like "$out" 'gpu02' "the other nodes are reported"
unlike "$out" 'data-v="inf' "no infinite number on the page"

# ---------------------------------------------------------------- the browser
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip "chromium not installed (scripts/deps installs it): no browser checks"
	done_testing
	exit
fi
browse() { # browse ARGS...: headless chromium, a fresh profile, no network
	rm -rf "$T/profile"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--disable-dev-shm-usage --user-data-dir="$T/profile" "$@" 2>>"$T/chromium.err"
}
SHOT=$top_builddir/tests/e2e/report-html.png
rm -f "$SHOT"
browse --window-size=1400,2400 --screenshot="$SHOT" "file://$OUT" >/dev/null
ok "screenshot kept: $SHOT" test -s "$SHOT"
is "$(head -c 8 "$SHOT" | od -An -c | tr -d ' ')" '211PNG\r\n032\n' "the screenshot is a PNG"

DOM=$(browse --dump-dom "file://$OUT#sort=-loss")
like "$DOM" '<body' "the DOM after the page's script ran (--dump-dom)"
cell=$(grep -oE '<rect [^>]*data-node="gpu02" data-port="mlx5_0:1"[^>]*>' <<<"$DOM" | grep 'class="cell loss ')
like "$cell" 'class="cell loss l4[ "]' "heat map: gpu02's mlx5_0:1 cell has the loss class at the darkest level"
like "$cell" 'data-v="500"' "heat map: and its value, 500"
like "$(grep -oE '<rect [^>]*data-node="gpu01" data-port="mlx5_0:1"[^>]*>' <<<"$DOM" | grep 'class="cell loss ')" \
	'class="cell loss l0[ "]' "heat map: gpu01's cell is at level 0"
item=$(tr '\n' ' ' <<<"$DOM" | grep -oE '<li class="verdict sev-warn" data-code="packet_loss">.*' | sed 's|</li>.*||')
like "$item" 'gpu02' "verdict list: packet_loss names gpu02"
like "$item" '<div class="fix">fix: [^<]*PFC' "verdict list: and the fix"
like "$DOM" '<table id="ports" data-sorted="-loss"' "the #sort=-loss fragment sorted the table"
first=$(tr '\n' ' ' <<<"$DOM" | grep -oE '<tbody>[^/]*' | grep -oE 'gpu0[0-9]' | head -1)
is "$first" gpu02 "the port with loss is now the first row (gpu01 is first in node order)"
like "$(tr '\n' ' ' <<<"$DOM" | grep -oE '<th[^>]*data-key="loss"[^>]*>')" 'aria-sort="descending"' \
	"the sorted column says so (aria-sort)"
unlike "$DOM" '<html[^>]*data-pwned' "no injected script or handler ran (no data-pwned on <html>)"
like "$DOM" 'lost &lt;script&gt;document' "the injected script is shown as text"
done_testing
