/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nl.c - the netlink transport: socket, deadline, sequence numbers, and
 * replies taken only from the kernel.  What a reply means is for the
 * object's parser (rtlink.c, dcb.c).
 */
#include "config.h"
#include "collect/netlink/nl.h"
#include "base/clock.h"
#include "base/kread.h"
#include "collect/netlink/nlmsg.h"
#include "base/printable.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>

/* Replies are one message; RTM_NEWLINK with stats and AF_SPEC is a few KiB.
 * A bigger datagram is reported (MSG_TRUNC), never read past. */
#define NL_RECV_BUF 32768
#define NL_SEND_BUF 256

struct roce_nl {
	struct mnl_socket *sock; /* NULL when opened with roce_nl_open_fd() */
	int fd;
	unsigned portid;  /* our netlink port id; 0 = accept any (test fds) */
	bool kernel_only; /* drop datagrams not sent by the kernel (nl_pid 0) */
	unsigned seq;
	int timeout_ms; /* per request */
	bool has_budget;
	int64_t budget_end_ms; /* CLOCK_MONOTONIC */
	char *buf;             /* NL_RECV_BUF bytes, aligned by malloc */
};

/* ------------------------------------------------------------ socket */

static struct roce_nl *nl_alloc(int timeout_ms)
{
	if (timeout_ms <= 0) {
		errno = EINVAL;
		return NULL;
	}
	struct roce_nl *nl = calloc(1, sizeof(*nl));
	if (!nl)
		return NULL;
	nl->buf = malloc(NL_RECV_BUF);
	if (!nl->buf) {
		free(nl);
		errno = ENOMEM;
		return NULL;
	}
	nl->fd = -1;
	nl->timeout_ms = timeout_ms;
	return nl;
}

/* SO_RCVTIMEO is only a backstop: every receive is preceded by poll() with
 * the time left, and done with MSG_DONTWAIT. */
static void set_rcvtimeo(int fd, int timeout_ms)
{
	struct timeval tv = { .tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000 };
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

struct roce_nl *roce_nl_open(int timeout_ms)
{
	struct roce_nl *nl = nl_alloc(timeout_ms);
	int saved;
	if (!nl)
		return NULL;
	nl->sock = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl->sock)
		goto fail;
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	nl->fd = mnl_socket_get_fd(nl->sock);
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->kernel_only = true;
	set_rcvtimeo(nl->fd, timeout_ms);
	/* Error replies need not echo our request (as iproute2); older
	 * kernels without the option just echo it, which parses the same. */
	int one = 1;
	(void)setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	return nl;
fail:
	saved = errno;
	roce_nl_close(nl);
	errno = saved;
	return NULL;
}

struct roce_nl *roce_nl_open_fd(int fd, int timeout_ms)
{
	struct roce_nl *nl = nl_alloc(timeout_ms);
	if (!nl) {
		int saved = errno;
		if (fd >= 0)
			close(fd);
		errno = saved;
		return NULL;
	}
	nl->fd = fd;
	set_rcvtimeo(fd, timeout_ms);
	return nl;
}

void roce_nl_close(struct roce_nl *nl)
{
	if (!nl)
		return;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	else if (nl->fd >= 0)
		close(nl->fd);
	free(nl->buf);
	free(nl);
}

unsigned roce_nl_portid(const struct roce_nl *nl) { return nl->portid; }

void roce_nl_set_budget(struct roce_nl *nl, int budget_ms)
{
	nl->has_budget = true;
	nl->budget_end_ms = roce_clock_ms() + budget_ms;
}

/* ------------------------------------------------------------ replies */

static void result_set(struct roce_nl_result *res, enum roce_status s, int err, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static void result_set(struct roce_nl_result *res, enum roce_status s, int err, const char *fmt, ...)
{
	va_list ap;
	res->status = s;
	res->err = err;
	va_start(ap, fmt);
	vsnprintf(res->why, sizeof(res->why), fmt, ap);
	va_end(ap);
}

/* The first message in buf[0..len) that answers request seq, or NULL.
 * Stale answers (a reply to an earlier request that timed out) and messages
 * for another port id are skipped. */
static const struct nlmsghdr *find_reply(const struct roce_nl *nl, const void *buf, int len, unsigned seq)
{
	const struct nlmsghdr *nlh = buf;
	for (; roce_nlmsg_fits(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nl->portid && nlh->nlmsg_pid != nl->portid)
			continue;
		if (nlh->nlmsg_type == NLMSG_NOOP)
			continue;
		return nlh;
	}
	return NULL;
}

/* One datagram into nl->buf: its length, 0 to wait again (interrupted, or
 * not from the kernel), -1 with res filled on a failure. */
static ssize_t recv_datagram(struct roce_nl *nl, const char *what, struct roce_nl_result *res)
{
	struct sockaddr_nl from = { 0 };
	struct iovec iov = { .iov_base = nl->buf, .iov_len = NL_RECV_BUF };
	struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1 };
	roce_kread_enter();
	ssize_t got = recvmsg(nl->fd, &msg, MSG_DONTWAIT);
	roce_kread_leave();
	if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (got < 0) {
		result_set(res, ROCE_UNREADABLE, errno, "%s: recv: %s", what, strerror(errno));
		return -1;
	}
	if (msg.msg_flags & MSG_TRUNC) {
		result_set(res, ROCE_UNREADABLE, EMSGSIZE, "%s: reply larger than %d bytes", what, NL_RECV_BUF);
		return -1;
	}
	/* On a real netlink socket anyone may unicast to our port id: only the
	 * kernel (nl_pid 0) answers rtnetlink requests.  A datagram of 0 bytes
	 * holds no message, so waiting again loses nothing. */
	if (nl->kernel_only && (msg.msg_namelen != sizeof(from) || from.nl_family != AF_NETLINK || from.nl_pid != 0))
		return 0;
	return got;
}

/* Wait for the reply to seq until deadline; fills res.  rtnetlink answers
 * inside the send, so the reply is usually queued already: a receive is
 * tried before each wait. */
static void recv_reply(struct roce_nl *nl, unsigned seq, int64_t deadline, const char *what, struct roce_nl_result *res)
{
	for (bool waited = false;; waited = true) {
		if (waited) {
			int64_t left = deadline - roce_clock_ms();
			if (left <= 0)
				break;
			struct pollfd pfd = { .fd = nl->fd, .events = POLLIN };
			roce_kread_enter();
			int n = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
			roce_kread_leave();
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				result_set(res, ROCE_UNREADABLE, errno, "%s: poll: %s", what, strerror(errno));
				return;
			}
			if (n == 0)
				continue; /* re-check the clock: poll may round down */
		}
		ssize_t got = recv_datagram(nl, what, res);
		if (got < 0)
			return;
		if (got == 0)
			continue; /* nothing yet (or not from the kernel): wait */
		res->reply = find_reply(nl, nl->buf, (int)got, seq);
		if (res->reply) {
			res->status = ROCE_OK;
			return;
		}
	}
	result_set(res, ROCE_TIMEOUT, ETIMEDOUT, "%s: no answer from the kernel within the deadline", what);
}

/* ------------------------------------------------------------ requests */

/* Name checks before anything is sent: the kernel would refuse them too,
 * but with less helpful errors. */
static bool name_ok(const char *name)
{
	size_t len = strnlen(name, IF_NAMESIZE);
	return len > 0 && len < IF_NAMESIZE;
}

/* Send req (sequence number assigned here): 0, or -1 with res filled;
 * *deadline: when its answer must have come. */
static int send_request(struct roce_nl *nl, struct nlmsghdr *req, const char *what, int64_t *deadline,
                        struct roce_nl_result *res)
{
	*deadline = roce_clock_ms() + nl->timeout_ms;
	if (nl->has_budget && nl->budget_end_ms < *deadline)
		*deadline = nl->budget_end_ms;
	if (*deadline <= roce_clock_ms()) {
		result_set(res, ROCE_TIMEOUT, ETIMEDOUT, "%s: deadline passed before the request was sent", what);
		return -1;
	}
	if (++nl->seq == 0)
		nl->seq = 1;
	req->nlmsg_seq = nl->seq;
	req->nlmsg_pid = 0;
	/* send() without an address goes to the kernel (dst port id 0) on a
	 * netlink socket, and to the peer on a connected test socket.  It runs
	 * the kernel handler synchronously; nothing can bound that wait (the
	 * handler may sleep on rtnl_lock), only the wait for the reply. */
	ssize_t sent;
	roce_kread_enter();
	do
		sent = send(nl->fd, req, req->nlmsg_len, 0);
	while (sent < 0 && errno == EINTR);
	roce_kread_leave();
	if (sent < 0) {
		result_set(res, ROCE_UNREADABLE, errno, "%s: send: %s", what, strerror(errno));
		return -1;
	}
	return 0;
}

/* Send req and wait for its reply. */
static void transact(struct roce_nl *nl, struct nlmsghdr *req, const char *what, struct roce_nl_result *res)
{
	int64_t deadline;
	if (send_request(nl, req, what, &deadline, res) == 0)
		recv_reply(nl, nl->seq, deadline, what, res);
}

/* ------------------------------------------------------------ dumps */

struct dump {
	roce_nl_msg_fn cb;
	void *data;
	const char *what;
};

/* NLMSG_DONE: its payload, when there is one, is 0 or the dump's -errno. */
static int dump_done(const struct nlmsghdr *nlh, const char *what, struct roce_nl_result *res)
{
	int32_t code = 0;
	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(code))
		memcpy(&code, mnl_nlmsg_get_payload(nlh), sizeof(code));
	if (code < 0 && code >= -4095) {
		result_set(res, roce_status_for_errno(-code), -code, "%s: the dump failed: %s", what, strerror(-code));
		return -1;
	}
	if (code != 0) {
		result_set(res, ROCE_MALFORMED, EPROTO, "%s: NLMSG_DONE says %d", what, code);
		return -1;
	}
	res->status = ROCE_OK;
	return 1;
}

/* The messages of one datagram (len bytes in nl->buf) that answer seq: 1
 * when NLMSG_DONE came, 0 when more are to come, -1 with res filled. */
static int dump_datagram(const struct roce_nl *nl, int len, unsigned seq, const struct dump *d,
                         struct roce_nl_result *res)
{
	const struct nlmsghdr *nlh = (const void *)nl->buf;
	char why[ROCE_WHY_MAX];
	for (; roce_nlmsg_fits(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_seq != seq || (nl->portid && nlh->nlmsg_pid != nl->portid) ||
		    nlh->nlmsg_type == NLMSG_NOOP)
			continue;
		if (nlh->nlmsg_type == NLMSG_DONE)
			return dump_done(nlh, d->what, res);
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			int e = roce_nlmsg_envelope(nlh, NLMSG_ERROR, 0, d->what, why, sizeof(why));
			if (e > 0)
				result_set(res, roce_status_for_errno(e), e, "%s: %s", d->what, strerror(e));
			else
				result_set(res, ROCE_MALFORMED, EPROTO, "%s", why);
			return -1;
		}
		why[0] = '\0';
		if (d->cb(nlh, d->data, why) != MNL_CB_OK) {
			result_set(res, ROCE_MALFORMED, EPROTO, "%s", why[0] ? why : "the dump's message was refused");
			return -1;
		}
	}
	return 0;
}

static void recv_dump(struct roce_nl *nl, unsigned seq, int64_t deadline, const struct dump *d,
                      struct roce_nl_result *res)
{
	for (;;) {
		int64_t left = deadline - roce_clock_ms();
		if (left <= 0)
			break;
		struct pollfd pfd = { .fd = nl->fd, .events = POLLIN };
		int n = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			result_set(res, ROCE_UNREADABLE, errno, "%s: poll: %s", d->what, strerror(errno));
			return;
		}
		if (n == 0)
			continue;
		ssize_t got = recv_datagram(nl, d->what, res);
		if (got < 0)
			return;
		if (got > 0 && dump_datagram(nl, (int)got, seq, d, res) != 0)
			return;
	}
	result_set(res, ROCE_TIMEOUT, ETIMEDOUT, "%s: the kernel's answer did not end within the deadline", d->what);
}

void roce_nl_dump(struct roce_nl *nl, uint16_t type, const void *fam, size_t famlen, const char *what,
                  roce_nl_msg_fn cb, void *data, struct roce_nl_result *res)
{
	char req_buf[NL_SEND_BUF] __attribute__((aligned(8)));
	struct dump d = { cb, data, what };
	int64_t deadline;

	memset(res, 0, sizeof(*res));
	memset(req_buf, 0, sizeof(req_buf));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req_buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	memcpy(mnl_nlmsg_put_extra_header(nlh, famlen), fam, famlen);
	if (send_request(nl, nlh, what, &deadline, res) == 0)
		recv_dump(nl, nl->seq, deadline, &d, res);
}

void roce_nl_ask(struct roce_nl *nl, uint16_t type, const void *fam, size_t famlen, uint16_t name_type,
                 const char *name, const char *what, struct roce_nl_result *res)
{
	char req_buf[NL_SEND_BUF] __attribute__((aligned(8)));
	char shown[ROCE_NLMSG_SHOWN_MAX];

	memset(res, 0, sizeof(*res));
	if (!name_ok(name)) {
		result_set(res, ROCE_MALFORMED, EINVAL, "netdev name '%s' is empty or too long",
		           roce_printable(name, shown, sizeof(shown)));
		return;
	}
	memset(req_buf, 0, sizeof(req_buf));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req_buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	memcpy(mnl_nlmsg_put_extra_header(nlh, famlen), fam, famlen);
	mnl_attr_put_strz(nlh, name_type, name);
	transact(nl, nlh, what, res);
}
