/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwlocdl.c - libhwloc, loaded when first called.
 *
 * Only the locality step (a job with GPUs, --topology, --matrix) uses
 * hwloc, but a linked libhwloc (and its libudev) is mapped and relocated by
 * every start of roce-check and of every srun that loads the plugin: a
 * third of a healthy roce-check's own time.  So libhwloc is not linked:
 * the hwloc functions topo.c and locality.c call (and those the header's
 * inline helpers call) are defined here, each resolving its namesake in
 * the library dlopen()ed by the soname the build saw (where the process
 * has it already, as slurmstepd does, the same copy).  The types and the
 * inline helpers are the header's.  A library that cannot be loaded fails
 * hwloc_topology_init() (ENOSYS): "topology cannot be loaded", as any
 * failure to load one.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <hwloc.h>

/* The library, once per process (a race loads it twice: dlopen counts). */
static void *library(void)
{
	static void *lib;
	void *h = __atomic_load_n(&lib, __ATOMIC_ACQUIRE);
	if (!h && (h = dlopen(ROCE_HWLOC_SONAME, RTLD_LAZY | RTLD_LOCAL)))
		__atomic_store_n(&lib, h, __ATOMIC_RELEASE);
	return h;
}

/* name's address in the library, kept in *slot; NULL when it has none. */
static void *resolve(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (!f) {
		void *h = library();
		if (h && (f = dlsym(h, name)))
			__atomic_store_n(slot, f, __ATOMIC_RELEASE);
	}
	return f;
}

/* A function that forwards to its namesake; fail is returned without one. */
#define FORWARD(ret, name, params, args, fail)                         \
	ret name params                                                \
	{                                                              \
		static void *slot;                                     \
		ret(*f) params = (ret(*) params)resolve(&slot, #name); \
		if (!f) {                                              \
			errno = ENOSYS;                                \
			return fail;                                   \
		}                                                      \
		return f args;                                         \
	}
#define FORWARD_VOID(name, params, args)                                 \
	void name params                                                 \
	{                                                                \
		static void *slot;                                       \
		void(*f) params = (void(*) params)resolve(&slot, #name); \
		if (f)                                                   \
			f args;                                          \
	}

FORWARD(unsigned, hwloc_get_api_version, (void), (), 0)
FORWARD(int, hwloc_topology_init, (hwloc_topology_t * t), (t), -1)
FORWARD(int, hwloc_topology_load, (hwloc_topology_t t), (t), -1)
FORWARD_VOID(hwloc_topology_destroy, (hwloc_topology_t t), (t))
FORWARD(int, hwloc_topology_set_flags, (hwloc_topology_t t, unsigned long flags), (t, flags), -1)
FORWARD(int, hwloc_topology_set_io_types_filter, (hwloc_topology_t t, enum hwloc_type_filter_e filter), (t, filter), -1)
FORWARD(int, hwloc_topology_set_components, (hwloc_topology_t t, unsigned long flags, const char *name),
        (t, flags, name), -1)
FORWARD(int, hwloc_topology_set_xmlbuffer, (hwloc_topology_t t, const char *buffer, int size), (t, buffer, size), -1)
FORWARD(int, hwloc_topology_export_xmlbuffer, (hwloc_topology_t t, char **buffer, int *len, unsigned long flags),
        (t, buffer, len, flags), -1)
FORWARD_VOID(hwloc_free_xmlbuffer, (hwloc_topology_t t, char *buffer), (t, buffer))
FORWARD(int, hwloc_obj_add_info, (hwloc_obj_t obj, const char *name, const char *value), (obj, name, value), -1)
FORWARD(int, hwloc_get_type_depth, (hwloc_topology_t t, hwloc_obj_type_t type), (t, type), HWLOC_TYPE_DEPTH_UNKNOWN)
FORWARD(hwloc_obj_t, hwloc_get_obj_by_depth, (hwloc_topology_t t, int depth, unsigned idx), (t, depth, idx), NULL)
FORWARD(int, hwloc_bitmap_isequal, (hwloc_const_bitmap_t a, hwloc_const_bitmap_t b), (a, b), 0)
FORWARD(int, hwloc_bitmap_list_snprintf, (char *buf, size_t len, hwloc_const_bitmap_t b), (buf, len, b), -1)
