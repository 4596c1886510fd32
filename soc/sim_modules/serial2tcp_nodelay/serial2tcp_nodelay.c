/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * serial2tcp_nodelay: LiteX sim module bridging a sim serial pad to a TCP socket.
 *
 * Derived from LiteX's litex/build/sim/core/modules/serial2tcp/serial2tcp.c (BSD-2-Clause,
 * Copyright (c) LiteX developers), patched for LiteDigest's host bridge:
 *  - TCP_NODELAY on the accepted socket (stock: ~11 accesses/s from Nagle + delayed ACK);
 *  - TX bytes are buffered and sent in one send() at the end of a burst (stock: one write()
 *    per byte);
 *  - RX reads only what fits in the ring buffer (stock overflows it on bulk writes: TCP flow
 *    control now throttles the host instead);
 *  - a closed/reset connection is dropped cleanly (stock writes to the dead fd and may die of
 *    SIGPIPE);
 *  - several clients at once (up to MAX_CLIENTS, e.g. several processes on one simulated SoC):
 *    each client's bytes go to the bridge one whole UARTBone command at a time, round-robin,
 *    and each read's answer goes back to the client that sent it (stock: one client; the
 *    module knows the command format for this); a client that disconnects mid-command has
 *    sent nothing to the bus, and answers due to it are dropped;
 *  - listens on 127.0.0.1 only; the port comes from sim_config.js ("port"), 0 is rejected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "error.h"
#include <unistd.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <event2/event.h>

#include <json-c/json.h>
#include "modules.h"

#define RXBUF_SIZE  4096
#define TXBUF_SIZE  4096
#define MAX_CLIENTS 16
#define CMD_MAX     (6 + 255 * 4) /* the longest UARTBone command: a 255-word write */
#define INBUF_SIZE  2048          /* >= CMD_MAX */
#define PENDING_MAX 1024          /* read commands forwarded whose answers are still due */

/* UARTBone (LiteX Stream2Wishbone) commands: cmd, length (words), address (4 bytes), then the
 * words of a write; a read is answered by `length` words. */
#define UB_WRITE_INCR  0x01
#define UB_READ_INCR   0x02
#define UB_WRITE_FIXED 0x03
#define UB_READ_FIXED  0x04

struct session_s;

/* One host connection. Its bytes are collected here and handed to the bridge one whole
 * command at a time, so commands of several clients never interleave on the bus. */
struct client_s {
    struct session_s *s;
    int fd;       /* 0: the entry is free */
    unsigned gen; /* bumped per connection: answers due to a closed one are dropped */
    struct event *ev;
    unsigned char in[INBUF_SIZE];
    int inlen;
    char out[TXBUF_SIZE];
    int outlen;
};

struct pending_s {
    int client;
    unsigned gen;
    int bytes; /* answer bytes still to come */
};

struct session_s {
    char *tx;
    char *tx_valid;
    char *tx_ready;
    char *rx;
    char *rx_valid;
    char *rx_ready;
    char *sys_clk;
    char databuf[RXBUF_SIZE]; /* the bridge's input: whole commands, in forwarding order */
    int data_start;
    int datalen;
    struct client_s clients[MAX_CLIENTS];
    struct pending_s pending[PENDING_MAX];
    int pend_head, pend_count;
    int rr;       /* the client served first in the next forwarding round */
    int waiting;  /* some client holds a whole command not yet forwarded */
    int tx_dirty; /* some client's out buffer holds answer bytes */
    clk_edge_state_t edge;
};

static struct event_base *base;

static int litex_sim_module_get_args(char *args, char *arg, char **val)
{
    int ret = RC_OK;
    json_object *jsobj = NULL;
    json_object *obj = NULL;
    char *value = NULL;
    int r;

    if (!arg) {
        fprintf(stderr, "litex_sim_module_get_args(): `arg` (requested .json key) is NULL!\n");
        ret = RC_JSERROR;
        goto out;
    }
    if (!args) {
        fprintf(stderr, "missing key in .json file: %s\n", arg);
        ret = RC_JSERROR;
        goto out;
    }
    jsobj = json_tokener_parse(args);
    if (NULL == jsobj) {
        fprintf(stderr, "Error parsing json arg: %s \n", args);
        ret = RC_JSERROR;
        goto out;
    }
    if (!json_object_is_type(jsobj, json_type_object)) {
        fprintf(stderr, "Arg must be type object! : %s \n", args);
        ret = RC_JSERROR;
        goto out;
    }
    obj = NULL;
    r = json_object_object_get_ex(jsobj, arg, &obj);
    if (!r) {
        fprintf(stderr, "Could not find object: \"%s\" (%s)\n", arg, args);
        ret = RC_JSERROR;
        goto out;
    }
    value = strdup(json_object_get_string(obj));

out:
    *val = value;
    return ret;
}

static int litex_sim_module_pads_get(struct pad_s *pads, char *name, void **signal)
{
    int ret = RC_OK;
    void *sig = NULL;
    int i;

    if (!pads || !name || !signal) {
        ret = RC_INVARG;
        goto out;
    }
    i = 0;
    while (pads[i].name) {
        if (!strcmp(pads[i].name, name)) {
            sig = (void *)pads[i].signal;
            break;
        }
        i++;
    }
out:
    *signal = sig;
    return ret;
}

static int serial2tcp_nodelay_start(void *b)
{
    base = (struct event_base *)b;
    printf("[serial2tcp_nodelay] loaded (%p)\n", base);
    return RC_OK;
}

static void drop_client(struct client_s *c)
{
    if (c->ev) {
        event_del(c->ev);
        event_free(c->ev);
        c->ev = NULL;
    }
    if (c->fd > 0)
        close(c->fd);
    c->fd = 0;
    c->gen++;
    c->inlen = 0; /* a partial command of a closed client is never forwarded */
    c->outlen = 0;
}

/* Bytes of the command at the start of c->in (0: its header is incomplete), its answer's
 * bytes in *reply; -1 for an unknown command (the client is dropped). */
static int command_size(const struct client_s *c, int *reply)
{
    int words;

    *reply = 0;
    if (c->inlen < 2)
        return 0;
    words = c->in[1];
    switch (c->in[0]) {
    case UB_WRITE_INCR:
    case UB_WRITE_FIXED:
        return 6 + 4 * words;
    case UB_READ_INCR:
    case UB_READ_FIXED:
        *reply = 4 * words;
        return 6;
    default:
        return -1;
    }
}

static int has_command(struct client_s *c)
{
    int reply, n = command_size(c, &reply);

    if (n < 0) {
        eprintf("serial2tcp_nodelay: unknown bridge command 0x%02x, client dropped\n", c->in[0]);
        drop_client(c);
        return 0;
    }
    return n > 0 && c->inlen >= n;
}

/* Hand whole commands to the bridge, one per client per round (round-robin), while the
 * bridge's input has room for them. */
static void forward_commands(struct session_s *s)
{
    int progress = 1, i, waiting;

    while (progress) {
        progress = 0;
        for (i = 0; i < MAX_CLIENTS; i++) {
            struct client_s *c = &s->clients[(s->rr + i) % MAX_CLIENTS];
            int reply, n, k;

            if (c->fd <= 0 || !has_command(c))
                continue;
            n = command_size(c, &reply);
            if (RXBUF_SIZE - s->datalen < n || (reply && s->pend_count == PENDING_MAX))
                return; /* the bridge is full: go on at a later tick, in the same order */
            for (k = 0; k < n; k++)
                s->databuf[(s->data_start + s->datalen + k) % RXBUF_SIZE] = c->in[k];
            s->datalen += n;
            if (reply) {
                struct pending_s *p = &s->pending[(s->pend_head + s->pend_count) % PENDING_MAX];
                p->client = c - s->clients;
                p->gen = c->gen;
                p->bytes = reply;
                s->pend_count++;
            }
            memmove(c->in, c->in + n, c->inlen - n);
            c->inlen -= n;
            s->rr = (c - s->clients + 1) % MAX_CLIENTS;
            progress = 1;
        }
    }
    waiting = 0;
    for (i = 0; i < MAX_CLIENTS; i++)
        if (s->clients[i].fd > 0 && has_command(&s->clients[i]))
            waiting = 1;
    s->waiting = waiting;
}

static void read_handler(int fd, short event, void *arg)
{
    struct client_s *c = (struct client_s *)arg;
    ssize_t read_len;
    int room;

    room = INBUF_SIZE - c->inlen;
    if (room <= 0)
        return; /* level-triggered: we are called again once its command went to the bridge */
    read_len = recv(fd, c->in + c->inlen, room, 0);
    if (read_len == 0 ||
        (read_len < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
        drop_client(c);
        return;
    }
    if (read_len > 0) {
        c->inlen += read_len;
        if (has_command(c))
            c->s->waiting = 1;
    }
}

static void event_handler(int fd, short event, void *arg)
{
    if (event & EV_READ)
        read_handler(fd, event, arg);
}

static void accept_conn_cb(struct evconnlistener *listener, evutil_socket_t fd,
                           struct sockaddr *address, int socklen, void *ctx)
{
    struct session_s *s = (struct session_s *)ctx;
    struct client_s *c = NULL;
    int one = 1, i;

    for (i = 0; i < MAX_CLIENTS && !c; i++)
        if (s->clients[i].fd <= 0)
            c = &s->clients[i];
    if (!c) {
        eprintf("serial2tcp_nodelay: more than %d clients, connection refused\n", MAX_CLIENTS);
        close(fd);
        return;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    c->s = s;
    c->fd = fd;
    c->inlen = 0;
    c->outlen = 0;
    c->ev = event_new(base, fd, EV_READ | EV_PERSIST, event_handler, c);
    event_add(c->ev, NULL);
}

static void accept_error_cb(struct evconnlistener *listener, void *ctx)
{
    struct event_base *b = evconnlistener_get_base(listener);
    eprintf("serial2tcp_nodelay: accept error\n");
    event_base_loopexit(b, NULL);
}

static int serial2tcp_nodelay_new(void **sess, char *args)
{
    int ret = RC_OK;
    struct session_s *s = NULL;
    char *cport = NULL;
    int port = 0;
    struct evconnlistener *listener;
    struct sockaddr_in sin;

    if (!sess) {
        ret = RC_INVARG;
        goto out;
    }
    ret = litex_sim_module_get_args(args, "port", &cport);
    if (RC_OK != ret)
        goto out;
    sscanf(cport, "%d", &port);
    free(cport);
    if (port <= 0 || port > 65535) {
        ret = RC_ERROR;
        fprintf(stderr, "serial2tcp_nodelay: invalid port %d\n", port);
        goto out;
    }

    s = (struct session_s *)malloc(sizeof(struct session_s));
    if (!s) {
        ret = RC_NOENMEM;
        goto out;
    }
    memset(s, 0, sizeof(struct session_s));

    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sin.sin_port = htons(port);
    listener =
        evconnlistener_new_bind(base, accept_conn_cb, s, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE,
                                -1, (struct sockaddr *)&sin, sizeof(sin));
    if (!listener) {
        ret = RC_ERROR;
        fprintf(stderr, "serial2tcp_nodelay: can't bind port %d\n", port);
        goto out;
    }
    evconnlistener_set_error_cb(listener, accept_error_cb);
    printf("[serial2tcp_nodelay] listening on 127.0.0.1:%d\n", port);
    fflush(stdout);

out:
    *sess = (void *)s;
    return ret;
}

static int serial2tcp_nodelay_add_pads(void *sess, struct pad_list_s *plist)
{
    int ret = RC_OK;
    struct session_s *s = (struct session_s *)sess;
    struct pad_s *pads;

    if (!sess || !plist) {
        ret = RC_INVARG;
        goto out;
    }
    pads = plist->pads;
    if (!strcmp(plist->name, "serial")) {
        litex_sim_module_pads_get(pads, "sink_data", (void **)&s->rx);
        litex_sim_module_pads_get(pads, "sink_valid", (void **)&s->rx_valid);
        litex_sim_module_pads_get(pads, "sink_ready", (void **)&s->rx_ready);
        litex_sim_module_pads_get(pads, "source_data", (void **)&s->tx);
        litex_sim_module_pads_get(pads, "source_valid", (void **)&s->tx_valid);
        litex_sim_module_pads_get(pads, "source_ready", (void **)&s->tx_ready);
    }
    if (!strcmp(plist->name, "sys_clk"))
        litex_sim_module_pads_get(pads, "sys_clk", (void **)&s->sys_clk);
out:
    return ret;
}

static void flush_client(struct client_s *c)
{
    int off = 0;
    ssize_t n;

    while (c->fd > 0 && off < c->outlen) {
        n = send(c->fd, c->out + off, c->outlen - off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                /* The listener makes sockets non-blocking; the host is not reading: wait a bit. */
                usleep(100);
                continue;
            }
            drop_client(c);
            break;
        }
        off += n;
    }
    c->outlen = 0;
}

static void flush_tx(struct session_s *s)
{
    int i;

    for (i = 0; i < MAX_CLIENTS; i++)
        if (s->clients[i].outlen)
            flush_client(&s->clients[i]);
    s->tx_dirty = 0;
}

/* A byte the bridge answered: it belongs to the oldest read whose answer is due. */
static void answer_byte(struct session_s *s, char byte)
{
    struct pending_s *p;
    struct client_s *c;

    if (!s->pend_count)
        return; /* nobody asked (cannot happen with whole commands) */
    p = &s->pending[s->pend_head];
    c = &s->clients[p->client];
    if (c->fd > 0 && c->gen == p->gen) {
        c->out[c->outlen++] = byte;
        s->tx_dirty = 1;
        if (c->outlen == TXBUF_SIZE)
            flush_client(c);
    }
    if (--p->bytes == 0) {
        s->pend_head = (s->pend_head + 1) % PENDING_MAX;
        s->pend_count--;
    }
}

static int serial2tcp_nodelay_tick(void *sess, uint64_t time_ps)
{
    struct session_s *s = (struct session_s *)sess;

    if (!clk_pos_edge(&s->edge, *s->sys_clk))
        return RC_OK;

    *s->tx_ready = 1;
    if (*s->tx_valid)
        answer_byte(s, *s->tx);
    else if (s->tx_dirty)
        flush_tx(s); /* end of a burst */

    if (s->waiting)
        forward_commands(s);
    *s->rx_valid = 0;
    if (s->datalen) {
        *s->rx = s->databuf[s->data_start];
        *s->rx_valid = 1;
        if (*s->rx_ready) {
            s->data_start = (s->data_start + 1) % RXBUF_SIZE;
            s->datalen--;
        }
    }
    return RC_OK;
}

static struct ext_module_s ext_mod = {"serial2tcp_nodelay",
                                      serial2tcp_nodelay_start,
                                      serial2tcp_nodelay_new,
                                      serial2tcp_nodelay_add_pads,
                                      NULL,
                                      serial2tcp_nodelay_tick};

int litex_sim_ext_module_init(int (*register_module)(struct ext_module_s *))
{
    return register_module(&ext_mod);
}
