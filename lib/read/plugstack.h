/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugstack.h - does this node's Slurm load spank_roce.so, and with which
 * words?  Read as slurmd reads it: slurm.conf ($SLURM_CONF, else
 * /etc/slurm/slurm.conf, else configless slurmd's /run/slurm/conf/slurm.conf)
 * names the plugstack file (PlugStackConfig=, default plugstack.conf beside
 * slurm.conf); its lines are `required|optional PATH [ARGS...]` and
 * `include GLOB` (relative to the including file's directory), '#' starting
 * a comment; a missing plugstack file is an empty one.  Slurm loads the
 * first line naming a plugin and refuses a second.
 *
 * A node whose plugstack does not load the plugin runs every step
 * unchecked, --roce=strict ones included (the option is unknown there and
 * slurmd logs only 'option "roce" not found'): roce-check says so.
 */
#ifndef ROCE_PLUGSTACK_H
#define ROCE_PLUGSTACK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "base/error.h"

#define ROCE_PLUGSTACK_SO "spank_roce.so"
#define ROCE_PLUGSTACK_ARGS_MAX 64
#define ROCE_PLUGSTACK_LINE_MAX 4096 /* as slurmd's fgets() buffer */

struct roce_plugstack_line {
	char file[PATH_MAX];
	int line; /* 0: none */
	bool required;
	char path[PATH_MAX]; /* the plugin's path as written (relative: in PluginDir) */
	int ac;
	char *av[ROCE_PLUGSTACK_ARGS_MAX]; /* the words after the path, pointing into text */
	char text[ROCE_PLUGSTACK_LINE_MAX];
};

struct roce_plugstack {
	char slurm_conf[PATH_MAX]; /* the slurm.conf read */
	char stack[PATH_MAX];      /* the plugstack file slurmd reads */
	char plugin_dir[PATH_MAX]; /* slurm.conf's PluginDir= ("" not set) */
	size_t n_files;            /* plugstack files read: it and what it includes */
	size_t n_loads;            /* lines that load spank_roce.so (slurmd takes the first) */
	struct roce_plugstack_line first;
	char commented_file[PATH_MAX]; /* a commented-out line naming spank_roce.so */
	int commented_line;            /* 0: none */
	struct roce_error problem;     /* an include that could not be read ("" none) */
};

/* slurm_conf NULL: as above; stack NULL: the one slurm.conf names.  0, or
 * -1 with err when slurm.conf or the plugstack file cannot be read. */
int roce_plugstack_find(const char *slurm_conf, const char *stack, struct roce_plugstack *ps, struct roce_error *err);

#endif
