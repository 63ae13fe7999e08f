/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * command.h - run a program (an argv found in PATH, no shell) with a
 * deadline: what it prints is kept, and when the deadline passes it is
 * killed with its process group and reaped.
 *
 * Slurm's clients wait for slurmctld as long as their own settings say
 * (MessageTimeout, connection retries), and a health check or a job prolog
 * that waits with them hangs with them (mej/nhc issue 159: a health check
 * stuck in scontrol before slurmd registered).  Every Slurm program we run
 * (sinfo, scontrol, slurmd -V) goes through here.  Not pure: forks.
 */
#ifndef ROCE_COMMAND_H
#define ROCE_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

/* What became of one run. */
struct roce_command {
	int status;     /* exit status 0-255; -1 when it did not exit by itself */
	bool timed_out; /* still running at the deadline: killed */
	int signal;     /* died of this signal before the deadline, else 0 */
	int error;      /* no run at all (pipe, fork): errno, else 0 */
	char out[4096]; /* its standard output, cut to fit; NUL-terminated */
	char err[256];  /* the first line of its standard error, made printable */
};

/* Run argv[0] (looked up in PATH) with argv (NULL-terminated), standard
 * input /dev/null, for at most timeout_ms; its standard output into out
 * (len bytes, NUL-terminated, cut to fit; out NULL: dropped).  0 when it
 * exited with status 0; -1 otherwise, c saying why.  A program that cannot
 * be executed exits 127 with the reason in c->err. */
int roce_command_run(const char *const argv[], int timeout_ms, char *out, size_t len, struct roce_command *c);

/* Why a run failed, as a clause naming the program: "sinfo did not answer
 * within 10000 ms (killed)", "scontrol exited with status 1: slurm_update
 * error: Unable to contact slurm controller (connect failure)". */
void roce_command_describe(const char *const argv[], const struct roce_command *c, int timeout_ms, char *buf,
                           size_t len);

#endif
