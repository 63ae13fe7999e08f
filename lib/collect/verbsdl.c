/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verbsdl.c - libibverbs, loaded when first called.
 *
 * Only roce-check --verbs uses libibverbs (verbs.c), but a linked one (and
 * its libnl-route, whose start-up reads /etc/libnl/classid) is mapped and
 * relocated by every start of roce-check and of every srun that loads the
 * plugin.  So it is not linked: the calls verbs.c makes are defined here,
 * each resolving its namesake (the default symbol version, the one the
 * linker would bind) in the library dlopen()ed by the soname the build
 * saw.  A library that cannot be loaded lists no device: every port's
 * cross-check says why (ENOSYS from ibv_get_device_list()).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <infiniband/verbs.h>

static void *library(void)
{
	static void *lib;
	void *h = __atomic_load_n(&lib, __ATOMIC_ACQUIRE);
	if (!h && (h = dlopen(ROCE_IBVERBS_SONAME, RTLD_LAZY | RTLD_LOCAL)))
		__atomic_store_n(&lib, h, __ATOMIC_RELEASE);
	return h;
}

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

#define FORWARD(ret, name, params, args, fail)                         \
	ret(name) params                                               \
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
	void(name) params                                                \
	{                                                                \
		static void *slot;                                       \
		void(*f) params = (void(*) params)resolve(&slot, #name); \
		if (f)                                                   \
			f args;                                          \
	}

FORWARD(struct ibv_device **, ibv_get_device_list, (int *n), (n), NULL)
FORWARD_VOID(ibv_free_device_list, (struct ibv_device * *list), (list))
FORWARD(const char *, ibv_get_device_name, (struct ibv_device * device), (device), NULL)
FORWARD(struct ibv_context *, ibv_open_device, (struct ibv_device * device), (device), NULL)
FORWARD(int, ibv_close_device, (struct ibv_context * context), (context), -1)
/* a macro in verbs.h calls this compatibility entry for old providers */
FORWARD(int, ibv_query_port, (struct ibv_context * context, uint8_t port, struct _compat_ibv_port_attr *attr),
        (context, port, attr), -1)
FORWARD(struct ibv_pd *, ibv_alloc_pd, (struct ibv_context * context), (context), NULL)
FORWARD(int, ibv_dealloc_pd, (struct ibv_pd * pd), (pd), -1)
FORWARD(int, ibv_dereg_mr, (struct ibv_mr * mr), (mr), -1)
#if HAVE_DECL_IBV_REG_DMABUF_MR
FORWARD(struct ibv_mr *, ibv_reg_dmabuf_mr,
        (struct ibv_pd * pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access),
        (pd, offset, length, iova, fd, access), NULL)
#endif
