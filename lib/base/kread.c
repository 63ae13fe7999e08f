/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kread.c - the mark of system calls that may sleep in a driver (kread.h). */
#include "config.h"
#include "base/kread.h"

#include <unistd.h>

volatile sig_atomic_t roce_kread_depth;

ssize_t roce_kread_read(int fd, void *buf, size_t len)
{
	roce_kread_enter();
	ssize_t n = read(fd, buf, len);
	roce_kread_leave();
	return n;
}

ssize_t roce_kread_pread(int fd, void *buf, size_t len, off_t off)
{
	roce_kread_enter();
	ssize_t n = pread(fd, buf, len, off);
	roce_kread_leave();
	return n;
}
