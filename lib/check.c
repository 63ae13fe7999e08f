/* check.c - stub */
#include "config.h"
#include "check.h"
