/* rdma.c - stub */
#include "config.h"
#include "rdma.h"
