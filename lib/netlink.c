/*
 * netlink.c - rtnetlink and DCB netlink collector (libmnl).
 *
 * One request at a time on one NETLINK_ROUTE socket: RTM_GETLINK by name for
 * ifindex/MTU/operstate, RTM_GETDCB DCB_CMD_IEEE_GET for PFC and the DSCP
 * APP table (what `ip link` and iproute2's `dcb pfc|app show` read).
 *
 * Parsing follows iproute2: one small mnl_attr_parse callback per attribute
 * level that only files attributes into a table by type, then each value is
 * validated (mnl_attr_validate/validate2) where it is used, so a bad
 * attribute is blamed on the reading it belongs to.  libmnl's attribute
 * iterator silently stops at an attribute that overruns its container; the
 * callbacks therefore remember where the last good attribute ended and the
 * parsers call anything left over MALFORMED instead of ignoring it.
 */
#include "config.h"
#include "netlink.h"
#include "clock.h"
#include "printable.h"

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

/* Replies are one message; RTM_NEWLINK with stats and AF_SPEC is a few KiB.
 * A bigger datagram is reported (MSG_TRUNC), never read past. */
#define NL_RECV_BUF 32768
#define NL_SEND_BUF 256
/* A netdev name in a message: IF_NAMESIZE bytes, every one possibly \xNN. */
#define SHOWN_MAX (4 * IF_NAMESIZE)

struct roce_nl {
	struct mnl_socket *sock;  /* NULL when opened with roce_nl_open_fd() */
	int fd;
	unsigned portid;          /* our netlink port id; 0 = accept any (test fds) */
	bool kernel_only;         /* drop datagrams not sent by the kernel (nl_pid 0) */
	unsigned seq;
	int timeout_ms;           /* per request */
	bool has_budget;
	int64_t budget_end_ms;    /* CLOCK_MONOTONIC */
	char *buf;                /* NL_RECV_BUF bytes, aligned by malloc */
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

unsigned roce_nl_portid(const struct roce_nl *nl)
{
	return nl->portid;
}

void roce_nl_set_budget(struct roce_nl *nl, int budget_ms)
{
	nl->has_budget = true;
	nl->budget_end_ms = roce_clock_ms() + budget_ms;
}

/* ------------------------------------------------------------ transport */

struct nl_result {
	enum roce_status status;  /* ROCE_OK: reply points into nl->buf */
	int err;
	char why[ROCE_WHY_MAX];
	const struct nlmsghdr *reply;
};

static void result_set(struct nl_result *res, enum roce_status s, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void result_set(struct nl_result *res, enum roce_status s, int err, const char *fmt, ...)
{
	va_list ap;
	res->status = s;
	res->err = err;
	va_start(ap, fmt);
	vsnprintf(res->why, sizeof(res->why), fmt, ap);
	va_end(ap);
}

/* libmnl's mnl_nlmsg_ok() compares (int)nlmsg_len <= len: a length with the
 * top bit set is negative as an int and passes, and the parsers would then
 * walk attributes gigabytes past the datagram.  Compare unsigned. */
static bool nlmsg_fits(const struct nlmsghdr *nlh, int len)
{
	return len >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) && nlh->nlmsg_len <= (unsigned)len;
}

/* The first message in buf[0..len) that answers request seq, or NULL.
 * Stale answers (a reply to an earlier request that timed out) and messages
 * for another port id are skipped. */
static const struct nlmsghdr *find_reply(const struct roce_nl *nl, const void *buf, int len, unsigned seq)
{
	const struct nlmsghdr *nlh = buf;
	for (; nlmsg_fits(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
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

/* Wait for the reply to seq until deadline; fills res. */
static void recv_reply(struct roce_nl *nl, unsigned seq, int64_t deadline, const char *what,
                       struct nl_result *res)
{
	for (;;) {
		int64_t left = deadline - roce_clock_ms();
		if (left <= 0)
			goto timeout;
		struct pollfd pfd = { .fd = nl->fd, .events = POLLIN };
		int n = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			result_set(res, ROCE_UNREADABLE, errno, "%s: poll: %s", what, strerror(errno));
			return;
		}
		if (n == 0)
			continue; /* re-check the clock: poll may round down */

		struct sockaddr_nl from = { 0 };
		struct iovec iov = { .iov_base = nl->buf, .iov_len = NL_RECV_BUF };
		struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t got = recvmsg(nl->fd, &msg, MSG_DONTWAIT);
		if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
			continue;
		if (got < 0) {
			result_set(res, ROCE_UNREADABLE, errno, "%s: recv: %s", what, strerror(errno));
			return;
		}
		if (msg.msg_flags & MSG_TRUNC) {
			result_set(res, ROCE_UNREADABLE, EMSGSIZE, "%s: reply larger than %d bytes", what, NL_RECV_BUF);
			return;
		}
		/* On a real netlink socket anyone may unicast to our port id:
		 * only the kernel (nl_pid 0) answers rtnetlink requests. */
		if (nl->kernel_only && (msg.msg_namelen != sizeof(from) || from.nl_family != AF_NETLINK || from.nl_pid != 0))
			continue;
		res->reply = find_reply(nl, nl->buf, (int)got, seq);
		if (res->reply) {
			res->status = ROCE_OK;
			return;
		}
	}
timeout:
	result_set(res, ROCE_TIMEOUT, ETIMEDOUT, "%s: no answer from the kernel within the deadline", what);
}

/* Send req (sequence number assigned here) and wait for its reply. */
static void transact(struct roce_nl *nl, struct nlmsghdr *req, const char *what, struct nl_result *res)
{
	int64_t deadline = roce_clock_ms() + nl->timeout_ms;
	if (nl->has_budget && nl->budget_end_ms < deadline)
		deadline = nl->budget_end_ms;
	memset(res, 0, sizeof(*res));
	if (deadline <= roce_clock_ms()) {
		result_set(res, ROCE_TIMEOUT, ETIMEDOUT, "%s: deadline passed before the request was sent", what);
		return;
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
	do
		sent = send(nl->fd, req, req->nlmsg_len, 0);
	while (sent < 0 && errno == EINTR);
	if (sent < 0) {
		result_set(res, ROCE_UNREADABLE, errno, "%s: send: %s", what, strerror(errno));
		return;
	}
	recv_reply(nl, nl->seq, deadline, what, res);
}

/* ------------------------------------------------------------ attributes */

/* One attribute level: a table by type, plus where the last attribute ended. */
struct attr_table {
	const struct nlattr **tb;
	unsigned max;
	const char *end;
};

static void note_end(const char **end, const struct nlattr *attr)
{
	*end = (const char *)attr + attr->nla_len;
}

/* iproute2's parse_rtattr(): later duplicates win, unknown types (newer
 * kernels) are skipped. */
static int table_attr_cb(const struct nlattr *attr, void *data)
{
	struct attr_table *t = data;
	note_end(&t->end, attr);
	if (mnl_attr_type_valid(attr, t->max) > 0)
		t->tb[mnl_attr_get_type(attr)] = attr;
	return MNL_CB_OK;
}

/* Only alignment padding may follow the last attribute. */
static bool fully_parsed(const char *end, const char *tail)
{
	return end <= tail && tail - end < NLA_ALIGNTO;
}

static int parse_top(const struct nlmsghdr *nlh, size_t hdrlen, struct attr_table *t)
{
	const char *start = (const char *)mnl_nlmsg_get_payload_offset(nlh, hdrlen);
	t->end = start;
	memset(t->tb, 0, (t->max + 1) * sizeof(*t->tb));
	if (mnl_attr_parse(nlh, hdrlen, table_attr_cb, t) != MNL_CB_OK)
		return -1;
	return fully_parsed(t->end, (const char *)nlh + nlh->nlmsg_len) ? 0 : -1;
}

static int parse_nested(const struct nlattr *nest, struct attr_table *t)
{
	const char *start = mnl_attr_get_payload(nest);
	t->end = start;
	memset(t->tb, 0, (t->max + 1) * sizeof(*t->tb));
	if (mnl_attr_parse_nested(nest, table_attr_cb, t) != MNL_CB_OK)
		return -1;
	return fully_parsed(t->end, start + mnl_attr_get_payload_len(nest)) ? 0 : -1;
}

/* Common envelope checks.  Returns the NLMSG_ERROR code (> 0 errno) for an
 * error reply, 0 for a message of type want with at least hdrlen bytes of
 * family header, -1 for anything else (why filled). */
static int check_envelope(const struct nlmsghdr *nlh, uint16_t want, size_t hdrlen,
                          const char *what, char *why, size_t whylen)
{
	if (!nlh || nlh->nlmsg_len < NLMSG_HDRLEN) {
		snprintf(why, whylen, "%s: reply shorter than a netlink header", what);
		return -1;
	}
	/* libmnl walks attributes up to NLMSG_ALIGN(nlmsg_len): an unaligned
	 * length would let it look at up to 3 bytes past the message.  The
	 * kernel always pads its messages. */
	if (nlh->nlmsg_len != NLMSG_ALIGN(nlh->nlmsg_len)) {
		snprintf(why, whylen, "%s: nlmsg_len %u is not 4-byte aligned", what, nlh->nlmsg_len);
		return -1;
	}
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(e->error)) {
			snprintf(why, whylen, "%s: NLMSG_ERROR of %u bytes has no error code", what, nlh->nlmsg_len);
			return -1;
		}
		if (e->error >= 0) {
			snprintf(why, whylen, "%s: unexpected %s (error %d) instead of a reply", what,
			         e->error == 0 ? "ACK" : "positive NLMSG_ERROR", e->error);
			return -1;
		}
		/* The kernel's error codes are -1..-4095 (MAX_ERRNO); INT_MIN
		 * cannot even be negated. */
		if (e->error < -4095) {
			snprintf(why, whylen, "%s: NLMSG_ERROR code %d is not an errno", what, e->error);
			return -1;
		}
		return -e->error;
	}
	if (nlh->nlmsg_type != want) {
		snprintf(why, whylen, "%s: reply has type %u, expected %u", what, nlh->nlmsg_type, want);
		return -1;
	}
	if (mnl_nlmsg_get_payload_len(nlh) < hdrlen) {
		snprintf(why, whylen, "%s: %u-byte reply too short for its %zu-byte family header",
		         what, nlh->nlmsg_len, hdrlen);
		return -1;
	}
	return 0;
}

/* The name attribute, if present, must be a NUL-terminated string equal to
 * the netdev we asked about. */
static int check_name_attr(const struct nlattr *attr, const char *name, const char *what,
                           char *why, size_t whylen)
{
	char shown[SHOWN_MAX];
	if (!attr)
		return 0;
	if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0) {
		snprintf(why, whylen, "%s: name attribute is not a NUL-terminated string", what);
		return -1;
	}
	if (strcmp(mnl_attr_get_str(attr), name) != 0) {
		char other[IF_NAMESIZE];
		snprintf(other, sizeof(other), "%s", mnl_attr_get_str(attr));
		snprintf(why, whylen, "%s: reply is about netdev %s", what, roce_printable(other, shown, sizeof(shown)));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ RTM_GETLINK */

static const char *const operstate_names[] = {
	[IF_OPER_UNKNOWN] = "UNKNOWN",
	[IF_OPER_NOTPRESENT] = "NOTPRESENT",
	[IF_OPER_DOWN] = "DOWN",
	[IF_OPER_LOWERLAYERDOWN] = "LOWERLAYERDOWN",
	[IF_OPER_TESTING] = "TESTING",
	[IF_OPER_DORMANT] = "DORMANT",
	[IF_OPER_UP] = "UP",
};

const char *roce_operstate_name(unsigned operstate)
{
	if (operstate < sizeof(operstate_names) / sizeof(operstate_names[0]))
		return operstate_names[operstate];
	return NULL;
}

/* Usable for traffic: administratively up and operationally up.  Drivers
 * that do not report carrier (loopback, some virtual and tunnel devices)
 * leave operstate UNKNOWN forever; for them IFF_UP|IFF_RUNNING is the best
 * the kernel knows, as `ip link` and NetworkManager also assume. */
static bool link_is_up(unsigned flags, unsigned operstate)
{
	if (!(flags & IFF_UP))
		return false;
	if (operstate == IF_OPER_UP)
		return true;
	return operstate == IF_OPER_UNKNOWN && (flags & IFF_RUNNING);
}

static int link_error(struct roce_netdev *nd, int err)
{
	char shown[SHOWN_MAX];
	roce_printable(nd->name, shown, sizeof(shown));
	if (err == ENODEV)
		roce_reading_set(&nd->link_read, ROCE_MISSING, err,
		                 "netdev %s does not exist in this network namespace", shown);
	else
		roce_reading_set(&nd->link_read, ROCE_UNREADABLE, err, "RTM_GETLINK %s: %s", shown, strerror(err));
	return -1;
}

int roce_parse_link_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd)
{
	char shown[SHOWN_MAX], what[48], why[ROCE_WHY_MAX];
	const struct nlattr *tb[IFLA_MAX + 1];
	struct attr_table t = { .tb = tb, .max = IFLA_MAX };

	snprintf(what, sizeof(what), "RTM_GETLINK %s", roce_printable(nd->name, shown, sizeof(shown)));
	int rc = check_envelope(nlh, RTM_NEWLINK, sizeof(struct ifinfomsg), what, why, sizeof(why));
	if (rc > 0)
		return link_error(nd, rc);
	if (rc < 0)
		goto malformed;

	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	if (parse_top(nlh, sizeof(*ifi), &t) < 0) {
		snprintf(why, sizeof(why), "%s: attribute overruns the %u-byte message", what, nlh->nlmsg_len);
		goto malformed;
	}
	if (check_name_attr(tb[IFLA_IFNAME], nd->name, what, why, sizeof(why)) < 0)
		goto malformed;
	if (!tb[IFLA_MTU] || mnl_attr_validate(tb[IFLA_MTU], MNL_TYPE_U32) < 0) {
		snprintf(why, sizeof(why), "%s: IFLA_MTU %s", what, tb[IFLA_MTU] ? "is not a u32" : "missing");
		goto malformed;
	}
	if (!tb[IFLA_OPERSTATE] || mnl_attr_validate(tb[IFLA_OPERSTATE], MNL_TYPE_U8) < 0) {
		snprintf(why, sizeof(why), "%s: IFLA_OPERSTATE %s", what, tb[IFLA_OPERSTATE] ? "is not a u8" : "missing");
		goto malformed;
	}
	if (ifi->ifi_index <= 0) {
		snprintf(why, sizeof(why), "%s: ifindex %d", what, ifi->ifi_index);
		goto malformed;
	}

	unsigned oper = mnl_attr_get_u8(tb[IFLA_OPERSTATE]);
	const char *oper_name = roce_operstate_name(oper);
	nd->ifindex = ifi->ifi_index;
	nd->mtu = mnl_attr_get_u32(tb[IFLA_MTU]);
	if (oper_name)
		snprintf(nd->operstate, sizeof(nd->operstate), "%s", oper_name);
	else
		snprintf(nd->operstate, sizeof(nd->operstate), "UNKNOWN(%u)", oper);
	nd->up = link_is_up(ifi->ifi_flags, oper);
	roce_reading_set(&nd->link_read, ROCE_OK, 0, NULL);
	return 0;
malformed:
	roce_reading_set(&nd->link_read, ROCE_MALFORMED, EPROTO, "%s", why);
	return -1;
}

/* Name checks before anything is sent: the kernel would refuse them too,
 * but with less helpful errors. */
static int name_ok(const char *name)
{
	size_t len = strnlen(name, IF_NAMESIZE);
	return len > 0 && len < IF_NAMESIZE;
}

int roce_nl_get_link(struct roce_nl *nl, struct roce_netdev *nd)
{
	char req_buf[NL_SEND_BUF] __attribute__((aligned(8)));
	char shown[SHOWN_MAX], what[48];
	struct nl_result res;

	if (!name_ok(nd->name)) {
		roce_reading_set(&nd->link_read, ROCE_MALFORMED, EINVAL, "netdev name '%s' is empty or too long",
		                 roce_printable(nd->name, shown, sizeof(shown)));
		return -1;
	}
	snprintf(what, sizeof(what), "RTM_GETLINK %s", roce_printable(nd->name, shown, sizeof(shown)));
	memset(req_buf, 0, sizeof(req_buf));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req_buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = 0; /* look up by IFLA_IFNAME */
	mnl_attr_put_strz(nlh, IFLA_IFNAME, nd->name);

	transact(nl, nlh, what, &res);
	if (res.status != ROCE_OK) {
		roce_reading_set(&nd->link_read, res.status, res.err, "%s", res.why);
		return -1;
	}
	return roce_parse_link_msg(res.reply, nd);
}

/* ------------------------------------------------------------ RTM_GETDCB */

static void dcb_set_both(struct roce_netdev *nd, enum roce_status s, int err, const char *why)
{
	roce_reading_set(&nd->pfc.read, s, err, "%s", why);
	roce_reading_set(&nd->dscp.read, s, err, "%s", why);
}

static int dcb_error(struct roce_netdev *nd, int err, const char *what)
{
	char why[ROCE_WHY_MAX];
	char shown[SHOWN_MAX];
	roce_printable(nd->name, shown, sizeof(shown));
	if (err == EOPNOTSUPP) {
		/* veth, virtio, loopback: no dcbnl_ops (or a kernel without
		 * CONFIG_DCB).  PFC state is unknown, not off. */
		snprintf(why, sizeof(why), "%s: driver has no DCB support (%s)", what, strerror(err));
		dcb_set_both(nd, ROCE_UNSUPPORTED, err, why);
	} else if (err == ENODEV) {
		snprintf(why, sizeof(why), "netdev %s does not exist in this network namespace", shown);
		dcb_set_both(nd, ROCE_MISSING, err, why);
	} else {
		snprintf(why, sizeof(why), "%s: %s", what, strerror(err));
		dcb_set_both(nd, ROCE_UNREADABLE, err, why);
	}
	return -1;
}

static int parse_pfc(const struct nlattr *attr, struct roce_pfc *pfc, const char *what)
{
	struct ieee_pfc raw;
	if (!attr) {
		/* The kernel adds DCB_ATTR_IEEE_PFC only when the driver has
		 * an ieee_getpfc op and it succeeded. */
		roce_reading_set(&pfc->read, ROCE_UNSUPPORTED, EOPNOTSUPP,
		                 "%s: driver reports no IEEE PFC (no DCB_ATTR_IEEE_PFC)", what);
		return -1;
	}
	if (mnl_attr_validate2(attr, MNL_TYPE_UNSPEC, sizeof(raw)) < 0) {
		roce_reading_set(&pfc->read, ROCE_MALFORMED, EPROTO,
		                 "%s: DCB_ATTR_IEEE_PFC has %u bytes, struct ieee_pfc is %zu",
		                 what, mnl_attr_get_payload_len(attr), sizeof(raw));
		return -1;
	}
	/* The payload is only 4-byte aligned; the struct has u64 members. */
	memcpy(&raw, mnl_attr_get_payload(attr), sizeof(raw));
	pfc->cap = raw.pfc_cap;
	pfc->enabled = raw.pfc_en;
	pfc->mbc = raw.mbc;
	pfc->delay = raw.delay;
	for (int i = 0; i < ROCE_PRIOS; i++) {
		pfc->requests[i] = raw.requests[i];
		pfc->indications[i] = raw.indications[i];
	}
	roce_reading_set(&pfc->read, ROCE_OK, 0, NULL);
	return 0;
}

/* Walk state for the APP table: entries repeat, so no table by type. */
struct app_walk {
	int8_t prio[ROCE_DSCP_MAX];
	size_t n;
	const char *end;
	char why[ROCE_WHY_MAX];   /* first problem; non-empty = MALFORMED */
	const char *what;
};

static int app_entry_cb(const struct nlattr *attr, void *data)
{
	struct app_walk *w = data;
	struct dcb_app app;

	note_end(&w->end, attr);
	/* Newer kernels put non-IEEE selectors (PCP) in DCB_ATTR_DCB_APP
	 * entries: not DSCP, not ours. */
	if (mnl_attr_get_type(attr) != DCB_ATTR_IEEE_APP)
		return MNL_CB_OK;
	if (mnl_attr_validate2(attr, MNL_TYPE_UNSPEC, sizeof(app)) < 0) {
		snprintf(w->why, sizeof(w->why), "%s: APP entry has %u bytes, struct dcb_app is %zu",
		         w->what, mnl_attr_get_payload_len(attr), sizeof(app));
		return MNL_CB_ERROR;
	}
	memcpy(&app, mnl_attr_get_payload(attr), sizeof(app));
	if (app.selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return MNL_CB_OK;
	if (app.protocol >= ROCE_DSCP_MAX || app.priority >= ROCE_PRIOS) {
		snprintf(w->why, sizeof(w->why), "%s: DSCP APP entry dscp %u -> priority %u out of range",
		         w->what, app.protocol, app.priority);
		return MNL_CB_ERROR;
	}
	/* IEEE mode allows one DSCP with several priorities; the NIC uses
	 * one of them and we cannot tell which, so the map is not usable. */
	int8_t *slot = &w->prio[app.protocol];
	if (*slot >= 0 && *slot != app.priority) {
		snprintf(w->why, sizeof(w->why), "%s: APP table maps DSCP %u to both priority %d and %u",
		         w->what, app.protocol, *slot, app.priority);
		return MNL_CB_ERROR;
	}
	if (*slot < 0)
		w->n++;
	*slot = (int8_t)app.priority;
	return MNL_CB_OK;
}

static int parse_app_table(const struct nlattr *attr, struct roce_dscp_map *dscp, const char *what)
{
	struct app_walk w = { .what = what };
	memset(w.prio, -1, sizeof(w.prio));
	if (!attr) {
		/* dcbnl_ieee_fill() always emits the nest, empty when no APP
		 * entry is configured; a reply without it (other kernels) means
		 * the same: the table was read and holds no DSCP entries.  That
		 * is a real answer ("no DSCP trust"), which check.c judges. */
		goto ok;
	}
	if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0) {
		snprintf(w.why, sizeof(w.why), "%s: DCB_ATTR_IEEE_APP_TABLE is not a nest", what);
		goto malformed;
	}
	w.end = mnl_attr_get_payload(attr);
	if (mnl_attr_parse_nested(attr, app_entry_cb, &w) != MNL_CB_OK)
		goto malformed;
	if (!fully_parsed(w.end, (const char *)mnl_attr_get_payload(attr) + mnl_attr_get_payload_len(attr))) {
		snprintf(w.why, sizeof(w.why), "%s: APP entry overruns DCB_ATTR_IEEE_APP_TABLE", what);
		goto malformed;
	}
ok:
	memcpy(dscp->prio, w.prio, sizeof(dscp->prio));
	dscp->n = w.n;
	roce_reading_set(&dscp->read, ROCE_OK, 0, NULL);
	return 0;
malformed:
	roce_reading_set(&dscp->read, ROCE_MALFORMED, EPROTO, "%s", w.why);
	return -1;
}

int roce_parse_dcb_msg(const struct nlmsghdr *nlh, struct roce_netdev *nd)
{
	char shown[SHOWN_MAX], what[48], why[ROCE_WHY_MAX];
	const struct nlattr *tb[DCB_ATTR_MAX + 1], *ieee[DCB_ATTR_IEEE_MAX + 1];
	struct attr_table t = { .tb = tb, .max = DCB_ATTR_MAX };
	struct attr_table ti = { .tb = ieee, .max = DCB_ATTR_IEEE_MAX };

	snprintf(what, sizeof(what), "RTM_GETDCB %s", roce_printable(nd->name, shown, sizeof(shown)));
	int rc = check_envelope(nlh, RTM_GETDCB, sizeof(struct dcbmsg), what, why, sizeof(why));
	if (rc > 0)
		return dcb_error(nd, rc, what);
	if (rc < 0)
		goto malformed;

	const struct dcbmsg *dcb = mnl_nlmsg_get_payload(nlh);
	if (dcb->cmd != DCB_CMD_IEEE_GET) {
		snprintf(why, sizeof(why), "%s: reply is for DCB command %u, not IEEE_GET", what, dcb->cmd);
		goto malformed;
	}
	if (parse_top(nlh, sizeof(*dcb), &t) < 0) {
		snprintf(why, sizeof(why), "%s: attribute overruns the %u-byte message", what, nlh->nlmsg_len);
		goto malformed;
	}
	if (check_name_attr(tb[DCB_ATTR_IFNAME], nd->name, what, why, sizeof(why)) < 0)
		goto malformed;
	if (!tb[DCB_ATTR_IEEE]) {
		snprintf(why, sizeof(why), "%s: reply has no DCB_ATTR_IEEE (driver has no IEEE DCB)", what);
		dcb_set_both(nd, ROCE_UNSUPPORTED, EOPNOTSUPP, why);
		return -1;
	}
	if (mnl_attr_validate(tb[DCB_ATTR_IEEE], MNL_TYPE_NESTED) < 0 || parse_nested(tb[DCB_ATTR_IEEE], &ti) < 0) {
		snprintf(why, sizeof(why), "%s: DCB_ATTR_IEEE nest is garbled", what);
		goto malformed;
	}
	int pfc_rc = parse_pfc(ieee[DCB_ATTR_IEEE_PFC], &nd->pfc, what);
	int app_rc = parse_app_table(ieee[DCB_ATTR_IEEE_APP_TABLE], &nd->dscp, what);
	return pfc_rc == 0 && app_rc == 0 ? 0 : -1;
malformed:
	dcb_set_both(nd, ROCE_MALFORMED, EPROTO, why);
	return -1;
}

int roce_nl_get_dcb(struct roce_nl *nl, struct roce_netdev *nd)
{
	char req_buf[NL_SEND_BUF] __attribute__((aligned(8)));
	char shown[SHOWN_MAX], what[48];
	struct nl_result res;

	if (!name_ok(nd->name)) {
		char why[ROCE_WHY_MAX];
		snprintf(why, sizeof(why), "netdev name '%s' is empty or too long", roce_printable(nd->name, shown, sizeof(shown)));
		dcb_set_both(nd, ROCE_MALFORMED, EINVAL, why);
		return -1;
	}
	snprintf(what, sizeof(what), "RTM_GETDCB %s", roce_printable(nd->name, shown, sizeof(shown)));
	memset(req_buf, 0, sizeof(req_buf));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req_buf);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	struct dcbmsg *dcb = mnl_nlmsg_put_extra_header(nlh, sizeof(*dcb));
	dcb->dcb_family = AF_UNSPEC;
	dcb->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, nd->name);

	transact(nl, nlh, what, &res);
	if (res.status != ROCE_OK) {
		dcb_set_both(nd, res.status, res.err, res.why);
		return -1;
	}
	return roce_parse_dcb_msg(res.reply, nd);
}

/* ------------------------------------------------------------ collector */

int roce_nl_collect(struct roce_nl *nl, struct roce_node *node)
{
	int not_ok = 0;
	for (size_t i = 0; i < node->n_netdevs; i++) {
		struct roce_netdev *nd = &node->netdevs[i];
		int rc = roce_nl_get_link(nl, nd);
		/* DCB is asked even when the link is down: PFC settings are
		 * configuration and readable on a down port.  Not when the
		 * netdev does not exist: the answer is known. */
		if (nd->link_read.status == ROCE_MISSING) {
			dcb_set_both(nd, ROCE_MISSING, nd->link_read.err, nd->link_read.why);
			not_ok++;
			continue;
		}
		if (roce_nl_get_dcb(nl, nd) < 0)
			rc = -1;
		if (rc < 0)
			not_ok++;
	}
	return not_ok;
}

static int add_port_netdevs(struct roce_node *node)
{
	for (size_t d = 0; d < node->n_devices; d++) {
		const struct roce_device *dev = &node->devices[d];
		for (size_t p = 0; p < dev->n_ports; p++) {
			char name[IF_NAMESIZE];
			/* memcpy + terminate: the model field may lack a NUL. */
			memcpy(name, dev->ports[p].netdev, sizeof(name));
			name[sizeof(name) - 1] = '\0';
			if (name[0] && !roce_node_add_netdev(node, name)) {
				errno = ENOMEM;
				return -1;
			}
		}
	}
	return 0;
}

int roce_collect_netlink(struct roce_node *node, int timeout_ms)
{
	if (add_port_netdevs(node) < 0)
		return -1;
	struct roce_nl *nl = roce_nl_open(timeout_ms);
	if (!nl) {
		int err = errno;
		char why[ROCE_WHY_MAX];
		snprintf(why, sizeof(why), "cannot open a NETLINK_ROUTE socket: %s", strerror(err));
		for (size_t i = 0; i < node->n_netdevs; i++) {
			roce_reading_set(&node->netdevs[i].link_read, ROCE_UNREADABLE, err, "%s", why);
			dcb_set_both(&node->netdevs[i], ROCE_UNREADABLE, err, why);
		}
		errno = err;
		return -1;
	}
	roce_nl_set_budget(nl, timeout_ms);
	int rc = roce_nl_collect(nl, node);
	roce_nl_close(nl);
	return rc;
}
