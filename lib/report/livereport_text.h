/* SPDX-License-Identifier: GPL-2.0-or-later */
/* livereport_text.h - roce-report --live as text: a row per node port, the changes seen while the job runs.  Pure. */
#ifndef ROCE_LIVEREPORT_TEXT_H
#define ROCE_LIVEREPORT_TEXT_H

#include <stdio.h>
#include "report/livereport.h"

/* 0, or -1 on a write error. */
int roce_livereport_text_print(FILE *out, const struct roce_livereport *r);

#endif
