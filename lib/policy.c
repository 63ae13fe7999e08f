/* policy.c - stub */
#include "config.h"
#include "policy.h"
