/* collect.c - stub */
#include "config.h"
#include "collect.h"
