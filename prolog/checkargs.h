/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checkargs.h - roce-check's command line as parsed, and its exit codes (roce-check.c, checkrun.c). */
#ifndef ROCE_CHECKARGS_H
#define ROCE_CHECKARGS_H

#include <stdbool.h>
#include <stddef.h>

#define EXIT_OK 0
#define EXIT_FAILED 1
#define EXIT_USAGE 2

enum format { FMT_TEXT, FMT_JSON, FMT_ENV, FMT_PROMETHEUS };

struct args {
	const char *config;
	bool config_given;
	const char *sysfs_root;
	const char *mode;
	enum format format;
	const char *sets[64];
	size_t n_sets;
	bool full_gids, verbs, drain, health, matrix;
	const char *node;
	const char *topology, *gpus, *proc_root;
	bool check_config;     /* --check-config: judge the configuration, check nothing */
	const char *plugstack; /* --plugstack FILE */
};


#endif
