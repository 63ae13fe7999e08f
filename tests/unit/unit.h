/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit.h - common includes for cmocka unit tests. */
#ifndef ROCE_UNIT_H
#define ROCE_UNIT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#endif
