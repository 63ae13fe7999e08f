/* plan.c - stub */
#include "config.h"
#include "plan.h"
