/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probewire - the path probe's datagrams (lib/probe/probewire.c), as a
 * responder reads a probe and a prober reads an answer off the fabric: the
 * input is one datagram.  The promises: a datagram taken under the fuzz key
 * is refused under any other key, builds back byte for byte (its header; a
 * probe's length is its size field), and an answer is 40 bytes.
 */
#include "config.h"
#include "fuzz.h"
#include "probe/probewire.h"

/* The key the seeds are tagged with (seeds.c). */
static const struct roce_probewire_key fuzz_key = { { 'f', 'u', 'z', 'z' } };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct roce_probewire_msg m, again;
	struct roce_probewire_key other = fuzz_key;
	other.k[31] ^= 1;
	if (roce_probewire_parse(&fuzz_key, data, size, &m) < 0)
		return 0;
	FUZZ_CHECK(roce_probewire_parse(&other, data, size, &again) < 0, "taken under another key");
	FUZZ_CHECK(m.kind == ROCE_PROBEWIRE_PROBE || m.kind == ROCE_PROBEWIRE_ANSWER || m.kind == ROCE_PROBEWIRE_DONE,
	           "kind %d", (int)m.kind);
	FUZZ_CHECK(m.kind != ROCE_PROBEWIRE_DONE || (m.bytes == 0 && m.tos == 0 && !m.tos_known), "a done with a size");
	FUZZ_CHECK(m.kind == ROCE_PROBEWIRE_PROBE ? m.bytes == size : size == ROCE_PROBEWIRE_HDR, "%zu bytes", size);
	uint8_t *buf = malloc(size);
	if (!buf)
		return 0;
	again = m;
	FUZZ_CHECK(roce_probewire_build(&fuzz_key, &again, buf, size) == 0, "does not build back");
	FUZZ_CHECK(memcmp(buf, data, ROCE_PROBEWIRE_HDR) == 0, "builds back other bytes");
	free(buf);
	return 0;
}
