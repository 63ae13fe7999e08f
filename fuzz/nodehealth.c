/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nodehealth - roce-report --nodes: jobs' fragments, each job merged as
 * roce-report merges it (read, sorted, the job-level verdicts, the
 * fragments of the job's user kept) and folded into node port rows
 * (lib/report/nodehealth.c), then ranked and printed in every format (text,
 * JSON, Prometheus, HTML).  The input holds fragments separated by NUL
 * bytes; a fragment whose first byte is \x01 (dropped) starts another job.
 * The jobs are folded in twice: the second time must make no new row (a
 * node port has one row, whatever its name's length), and the JSON must
 * parse.
 */
#include "config.h"
#include "fuzz.h"
#include "fragment/fragment_read.h"
#include "report/nodehealth.h"
#include "report/nodehealth_html.h"
#include "report/nodehealth_json.h"
#include "report/nodehealth_prometheus.h"
#include "report/nodehealth_text.h"
#include "report/report.h"
#include "report/report_verdicts.h"

#define JOB "4242"
#define JOBS_MAX 16

/* Fragments [from, to) of data as one job, folded into h. */
static void one_job(struct roce_nodehealth *h, const uint8_t *data, size_t from, size_t to)
{
	struct roce_job_report r;
	struct roce_error err;
	roce_report_init(&r, JOB);
	for (size_t off = from; off < to;) {
		const uint8_t *nul = memchr(data + off, '\0', to - off);
		size_t len = nul ? (size_t)(nul - data) - off : to - off;
		size_t skip = len && data[off] == 1;
		char *text = malloc(len + 1);
		struct roce_fragment f;
		if (!text)
			abort();
		memcpy(text, data + off + skip, len - skip);
		if (roce_fragment_read(NULL, text, len - skip, JOB, &f, &err) == 0) {
			f.file_owner = 0;
			roce_report_append(&r, &f, &err);
		}
		free(text);
		off += len + 1;
	}
	roce_report_keep_uid(&r, roce_report_job_uid(&r));
	roce_report_sort(&r);
	FUZZ_CHECK(roce_report_verdicts(&r) == 0, "job verdicts failed");
	FUZZ_CHECK(roce_nodehealth_add(h, &r) == 0, "nodehealth_add failed");
	roce_report_free(&r);
}

/* Every job of the input (a chunk starting with \x01 starts the next). */
static void all_jobs(struct roce_nodehealth *h, const uint8_t *data, size_t size)
{
	size_t from = 0, jobs = 0;
	for (size_t off = 0; off < size && jobs < JOBS_MAX;) {
		const uint8_t *nul = memchr(data + off, '\0', size - off);
		size_t end = nul ? (size_t)(nul - data) : size;
		if (off > from && data[off] == 1) {
			one_job(h, data, from, off - 1);
			jobs++;
			from = off;
		}
		off = end + 1;
	}
	if (from < size && jobs < JOBS_MAX)
		one_job(h, data, from, size);
}

static void print_all(const struct roce_nodehealth *h)
{
	static FILE *null;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	roce_nodehealth_text_print(null, h);
	roce_nodehealth_prometheus_print(null, h);
	roce_nodehealth_html_print(null, h);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return;
	roce_nodehealth_json_print(mem, h);
	fclose(mem);
	json_object *o = json_tokener_parse(text);
	FUZZ_CHECK(o, "the JSON node health does not parse: %.200s", text);
	json_object_put(o);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct roce_nodehealth h;
	if (size > 1 << 20)
		return 0;
	roce_nodehealth_init(&h);
	all_jobs(&h, data, size);
	size_t rows = h.n;
	all_jobs(&h, data, size);
	FUZZ_CHECK(h.n == rows, "the same jobs again made %zu new row(s)", h.n - rows);
	roce_nodehealth_rank(&h);
	print_all(&h);
	roce_nodehealth_free(&h);
	return 0;
}
