# SPDX-License-Identifier: GPL-2.0-or-later
# prom.sh - a real Prometheus scraping a real node_exporter's textfile
# collector (Debian's prometheus and prometheus-node-exporter), on 127.0.0.1
# only, at free ports, with everything in one scratch directory.  One pair per
# test file: starting Prometheus costs a second or two.
#   prom_available            both daemons, curl and jq are installed
#   prom_start DIR [RULES...] node_exporter reading DIR/textfile/*.prom and
#                             Prometheus scraping it every second (storage in
#                             DIR/data, rule files RULES evaluated every
#                             second); 1 when either does not come up (its log
#                             is DIR/*.log).  Call prom_stop at exit.
#   prom_textfile NAME        write stdin to DIR/textfile/NAME atomically, as
#                             etc/prometheus.md says to
#   prom_scraped              a scrape that began after the last prom_textfile
#                             has ended (the target's up sample is newer)
#   prom_query EXPR [TIME]    GET /api/v1/query: the JSON answer on stdout, 1
#                             unless status "success"
#   prom_query_range EXPR START END STEP    the same with /api/v1/query_range
#   prom_api PATH [CURL-ARGS...]             any other GET of the API
#   prom_stop                 both daemons ended (idempotent)
# $PROM_URL is Prometheus's address; $PROM_NE the node_exporter's.
PROM_PIDS=""

prom_available() {
	command -v prometheus >/dev/null && command -v prometheus-node-exporter >/dev/null &&
		command -v curl >/dev/null && command -v jq >/dev/null
}

# A TCP port nothing listens on at 127.0.0.1 (the daemon's bind may still
# lose a race: prom_start then tries another).
prom__port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 40000))
		[ -z "$(ss -Hltn "sport = :$p" 2>/dev/null)" ] && { echo "$p"; return; }
	done
}

# prom__up URL: the daemon at URL answers.
prom__up() { curl -sf -o /dev/null --max-time 2 "$1"; }

# prom__spawn NAME READY-PATH CMD...: start CMD with a listen address
# 127.0.0.1:PORT appended, wait until READY-PATH answers; up to three ports
# (another process may take one first).  The port is left in PROM__PORT (not
# printed: a command substitution would be the daemon's parent, and wait for
# its output).
prom__spawn() {
	local name=$1 path=$2 pid try
	shift 2
	for try in 1 2 3; do
		PROM__PORT=$(prom__port)
		"$@" "127.0.0.1:$PROM__PORT" >"$PROM_DIR/$name.log" 2>&1 </dev/null &
		pid=$!
		PROM_PIDS="$PROM_PIDS $pid"
		lab_poll 30 prom__alive_up "$pid" "http://127.0.0.1:$PROM__PORT$path"
		kill -0 "$pid" 2>/dev/null && prom__up "http://127.0.0.1:$PROM__PORT$path" && return 0
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		PROM_PIDS=${PROM_PIDS% $pid}
	done
	return 1
}
# Up, or dead (then the poll ends at once: success, judged by the caller).
prom__alive_up() { ! kill -0 "$1" 2>/dev/null || prom__up "$2"; }

prom_start() {
	local rules="" r
	PROM_DIR=$1
	shift
	mkdir -p "$PROM_DIR/textfile" "$PROM_DIR/data" || return 1
	for r in "$@"; do rules="$rules  - $r"$'\n'; done
	prom__spawn node-exporter /metrics prometheus-node-exporter --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$PROM_DIR/textfile" \
		--web.listen-address || return 1
	PROM_NE=127.0.0.1:$PROM__PORT
	cat >"$PROM_DIR/prometheus.yml" <<-EOF
		global:
		  scrape_interval: 1s
		  scrape_timeout: 1s
		  evaluation_interval: 1s
		rule_files:
		${rules:-  []}
		scrape_configs:
		  - job_name: node
		    static_configs:
		      - targets: ['$PROM_NE']
	EOF
	prom__spawn prometheus /-/ready prometheus --config.file="$PROM_DIR/prometheus.yml" \
		--storage.tsdb.path="$PROM_DIR/data" --log.level=warn --web.listen-address || return 1
	PROM_URL=http://127.0.0.1:$PROM__PORT
}

prom_stop() {
	local pid
	for pid in $PROM_PIDS; do kill "$pid" 2>/dev/null; done
	for pid in $PROM_PIDS; do wait "$pid" 2>/dev/null; done
	PROM_PIDS=""
}

prom_textfile() {
	cat >"$PROM_DIR/textfile/.$1.$$" && mv -f "$PROM_DIR/textfile/.$1.$$" "$PROM_DIR/textfile/$1" &&
		PROM_WRITTEN=$(date +%s.%N)
}

# The newest scrape's start (the timestamp of its up sample) is after the write.
prom_scraped() {
	local t
	t=$(prom_query 'timestamp(up{job="node"})' | jq -r '.data.result[0].value[1] // empty') || return 1
	[ -n "$t" ] && awk -v a="$t" -v b="${PROM_WRITTEN:-0}" 'BEGIN { exit !(a > b) }'
}

prom_api() {
	local path=$1 out
	shift
	out=$(curl -sS --max-time 10 -G "$PROM_URL$path" "$@") || return 1
	printf '%s\n' "$out"
	[ "$(jq -r .status <<<"$out" 2>/dev/null)" = success ]
}
prom_query() {
	prom_api /api/v1/query --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"}
}
prom_query_range() {
	prom_api /api/v1/query_range --data-urlencode "query=$1" --data-urlencode "start=$2" \
		--data-urlencode "end=$3" --data-urlencode "step=$4"
}
