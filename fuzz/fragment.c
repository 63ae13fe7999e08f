/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fragment - per-node report fragments read by roce-report: JSON text ->
 * roce_fragment_read() (the reader of ReportDir's files, raw bytes as a
 * file holds them) and roce_report_append() into a job report, then every
 * output format (text, JSON, Prometheus, HTML with its heat maps).  The
 * input may hold several fragments separated by NUL bytes (several nodes of
 * one job).  The streamed JSON must be valid JSON; no HTML number is
 * infinite or NaN.  (roce-report --nodes: nodehealth.c.)
 */
#include "config.h"
#include "fuzz.h"
#include "fragment/fragment_read.h"
#include "report/report.h"
#include "report/report_html.h"
#include "report/report_json.h"
#include "report/report_prometheus.h"
#include "report/report_text.h"
#include "report/report_verdicts.h"

#define JOB "4242"

/* One tokener for the whole run, reset per document: json_tokener_new()
 * (a depth stack, a print buffer and a duplicated locale) cost about as
 * much as parsing a small fragment, twice per input.  Parsing is json-c's
 * and roce-report's job, not the code under test here. */
static json_object *parse(const char *text, size_t len)
{
	static struct json_tokener *tok;
	if (!tok && !(tok = json_tokener_new()))
		abort();
	json_tokener_reset(tok);
	json_object *o = json_tokener_parse_ex(tok, text, (int)len);
	if (o && (json_tokener_get_error(tok) != json_tokener_success || (size_t)tok->char_offset != len)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct roce_job_report r;
	struct roce_error err;
	if (size > 1 << 20)
		return 0;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	roce_report_init(&r, JOB);
	for (size_t off = 0; off < size;) {
		const uint8_t *nul = memchr(data + off, '\0', size - off);
		size_t len = nul ? (size_t)(nul - data) - off : size - off;
		char *text = malloc(len + 1);
		struct roce_fragment f;
		if (!text)
			abort();
		memcpy(text, data + off, len);
		err.msg[0] = '\0';
		if (roce_fragment_read(NULL, text, len, JOB, &f, &err) < 0)
			FUZZ_CHECK(err.msg[0] && !f.name && !f.ports, "refused without a reason, or not emptied");
		else if (roce_report_append(&r, &f, &err) < 0)
			FUZZ_CHECK(err.msg[0], "refused without a reason");
		free(text);
		off += len + 1;
	}
	roce_report_sort(&r);
	FUZZ_CHECK(roce_report_verdicts(&r) == 0, "job verdicts failed");
	(void)roce_report_job_uid(&r);
	roce_report_text_print(null, &r, NULL);
	roce_report_prometheus_print(null, &r);
	char *streamed = NULL;
	size_t slen = 0;
	FILE *mem = open_memstream(&streamed, &slen);
	if (mem) {
		roce_report_json_print(mem, &r, NULL);
		fclose(mem);
		while (slen > 0 && (streamed[slen - 1] == '\n' || streamed[slen - 1] == ' '))
			slen--;
		json_object *back = parse(streamed, slen);
		FUZZ_CHECK(back || slen == 0, "streamed JSON report does not parse: %.200s", streamed);
		json_object_put(back);
		free(streamed);
	}
	char *html = NULL;
	size_t hlen = 0;
	mem = open_memstream(&html, &hlen);
	if (mem) {
		roce_report_html_print(mem, &r, NULL);
		fclose(mem);
		FUZZ_CHECK(!strstr(html, "=\"inf") && !strstr(html, "=\"-inf") && !strstr(html, "nan\""),
		           "a number on the HTML page is not finite");
		free(html);
	}
	roce_report_free(&r);
	return 0;
}
