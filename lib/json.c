/* json.c - stub */
#include "config.h"
#include "json.h"
