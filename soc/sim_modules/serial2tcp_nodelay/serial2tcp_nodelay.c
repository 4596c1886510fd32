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
 *    SIGPIPE); a new connection may follow;
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

#define RXBUF_SIZE 4096
#define TXBUF_SIZE 4096

struct session_s {
  char *tx;
  char *tx_valid;
  char *tx_ready;
  char *rx;
  char *rx_valid;
  char *rx_ready;
  char *sys_clk;
  struct event *ev;
  char databuf[RXBUF_SIZE];
  int data_start;
  int datalen;
  char txbuf[TXBUF_SIZE];
  int txlen;
  int fd;
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

  if(!arg) {
    fprintf(stderr, "litex_sim_module_get_args(): `arg` (requested .json key) is NULL!\n");
    ret = RC_JSERROR;
    goto out;
  }
  if(!args) {
    fprintf(stderr, "missing key in .json file: %s\n", arg);
    ret = RC_JSERROR;
    goto out;
  }
  jsobj = json_tokener_parse(args);
  if(NULL == jsobj) {
    fprintf(stderr, "Error parsing json arg: %s \n", args);
    ret = RC_JSERROR;
    goto out;
  }
  if(!json_object_is_type(jsobj, json_type_object)) {
    fprintf(stderr, "Arg must be type object! : %s \n", args);
    ret = RC_JSERROR;
    goto out;
  }
  obj = NULL;
  r = json_object_object_get_ex(jsobj, arg, &obj);
  if(!r) {
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

  if(!pads || !name || !signal) {
    ret = RC_INVARG;
    goto out;
  }
  i = 0;
  while(pads[i].name) {
    if(!strcmp(pads[i].name, name)) {
      sig = (void*)pads[i].signal;
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

static void drop_connection(struct session_s *s)
{
  if(s->ev) {
    event_del(s->ev);
    event_free(s->ev);
    s->ev = NULL;
  }
  if(s->fd > 0)
    close(s->fd);
  s->fd = 0;
  s->txlen = 0;
}

static void read_handler(int fd, short event, void *arg)
{
  struct session_s *s = (struct session_s*)arg;
  char buffer[RXBUF_SIZE];
  ssize_t read_len;
  int i, room;

  room = RXBUF_SIZE - s->datalen;
  if(room <= 0)
    return; /* level-triggered: we are called again once the sim drained the ring */
  read_len = recv(fd, buffer, room, 0);
  if(read_len == 0 || (read_len < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
    drop_connection(s);
    return;
  }
  for(i = 0; i < read_len; i++) {
    s->databuf[(s->data_start + s->datalen) % RXBUF_SIZE] = buffer[i];
    s->datalen++;
  }
}

static void event_handler(int fd, short event, void *arg)
{
  if(event & EV_READ)
    read_handler(fd, event, arg);
}

static void accept_conn_cb(struct evconnlistener *listener, evutil_socket_t fd,
                           struct sockaddr *address, int socklen, void *ctx)
{
  struct session_s *s = (struct session_s*)ctx;
  int one = 1;

  if(s->fd > 0)
    drop_connection(s); /* one client at a time: the newest wins */
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  s->fd = fd;
  s->txlen = 0;
  s->data_start = 0; /* bytes of a previous client are not replayed to this one */
  s->datalen = 0;
  s->ev = event_new(base, fd, EV_READ | EV_PERSIST, event_handler, s);
  event_add(s->ev, NULL);
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

  if(!sess) {
    ret = RC_INVARG;
    goto out;
  }
  ret = litex_sim_module_get_args(args, "port", &cport);
  if(RC_OK != ret)
    goto out;
  sscanf(cport, "%d", &port);
  free(cport);
  if(port <= 0 || port > 65535) {
    ret = RC_ERROR;
    fprintf(stderr, "serial2tcp_nodelay: invalid port %d\n", port);
    goto out;
  }

  s = (struct session_s*)malloc(sizeof(struct session_s));
  if(!s) {
    ret = RC_NOENMEM;
    goto out;
  }
  memset(s, 0, sizeof(struct session_s));

  memset(&sin, 0, sizeof(sin));
  sin.sin_family = AF_INET;
  sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  sin.sin_port = htons(port);
  listener = evconnlistener_new_bind(base, accept_conn_cb, s, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE,
                                     -1, (struct sockaddr*)&sin, sizeof(sin));
  if(!listener) {
    ret = RC_ERROR;
    fprintf(stderr, "serial2tcp_nodelay: can't bind port %d\n", port);
    goto out;
  }
  evconnlistener_set_error_cb(listener, accept_error_cb);
  printf("[serial2tcp_nodelay] listening on 127.0.0.1:%d\n", port);
  fflush(stdout);

out:
  *sess = (void*)s;
  return ret;
}

static int serial2tcp_nodelay_add_pads(void *sess, struct pad_list_s *plist)
{
  int ret = RC_OK;
  struct session_s *s = (struct session_s*)sess;
  struct pad_s *pads;

  if(!sess || !plist) {
    ret = RC_INVARG;
    goto out;
  }
  pads = plist->pads;
  if(!strcmp(plist->name, "serial")) {
    litex_sim_module_pads_get(pads, "sink_data", (void**)&s->rx);
    litex_sim_module_pads_get(pads, "sink_valid", (void**)&s->rx_valid);
    litex_sim_module_pads_get(pads, "sink_ready", (void**)&s->rx_ready);
    litex_sim_module_pads_get(pads, "source_data", (void**)&s->tx);
    litex_sim_module_pads_get(pads, "source_valid", (void**)&s->tx_valid);
    litex_sim_module_pads_get(pads, "source_ready", (void**)&s->tx_ready);
  }
  if(!strcmp(plist->name, "sys_clk"))
    litex_sim_module_pads_get(pads, "sys_clk", (void**)&s->sys_clk);
out:
  return ret;
}

static void flush_tx(struct session_s *s)
{
  int off = 0;
  ssize_t n;

  while(s->fd > 0 && off < s->txlen) {
    n = send(s->fd, s->txbuf + off, s->txlen - off, MSG_NOSIGNAL);
    if(n < 0) {
      if(errno == EINTR)
        continue;
      if(errno == EAGAIN || errno == EWOULDBLOCK) {
        /* The listener makes sockets non-blocking; the host is not reading: wait a bit. */
        usleep(100);
        continue;
      }
      drop_connection(s);
      break;
    }
    off += n;
  }
  s->txlen = 0;
}

static int serial2tcp_nodelay_tick(void *sess, uint64_t time_ps)
{
  struct session_s *s = (struct session_s*)sess;

  if(!clk_pos_edge(&s->edge, *s->sys_clk))
    return RC_OK;

  *s->tx_ready = 1;
  if(*s->tx_valid) {
    if(s->fd > 0) {
      s->txbuf[s->txlen++] = *s->tx;
      if(s->txlen == TXBUF_SIZE)
        flush_tx(s);
    }
  } else if(s->txlen) {
    flush_tx(s); /* end of a burst */
  }

  *s->rx_valid = 0;
  if(s->datalen) {
    *s->rx = s->databuf[s->data_start];
    *s->rx_valid = 1;
    if(*s->rx_ready) {
      s->data_start = (s->data_start + 1) % RXBUF_SIZE;
      s->datalen--;
    }
  }
  return RC_OK;
}

static struct ext_module_s ext_mod = {
  "serial2tcp_nodelay",
  serial2tcp_nodelay_start,
  serial2tcp_nodelay_new,
  serial2tcp_nodelay_add_pads,
  NULL,
  serial2tcp_nodelay_tick
};

int litex_sim_ext_module_init(int (*register_module)(struct ext_module_s *))
{
  return register_module(&ext_mod);
}
