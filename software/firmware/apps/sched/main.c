/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest scheduler firmware (LiteX, bare metal): for every hash peripheral of the SoC,
 * the C library's message scheduler (ld_sched.h) hashes p messages of 16 KiB (p = the
 * engine's slots) on the DMA and the CSR path, timed with the peripheral's cycle counter;
 * utilization = blocks x interval / cycles, over the engine's run (from the release of the
 * first wave of jobs to the last job seen done) and end to end (the whole ld_hw_schedule call,
 * padding and digest reads included). Then a mixed batch (more messages than slots, random
 * lengths, every algorithm of the family) checks refills, and bad messages check errors.
 * Every digest is printed (LDDIGEST lines: the algorithm, where the message lies in msgs_buf,
 * which the host regenerates from the same generator) and checked on the host against
 * hashlib / pyskein: hashing the references on the simulated CPU would take most of the run
 * (software Skein alone ~440 cycles a byte).
 * Output: "LDTIMER ...", "LDSCHED ...", "LDDIGEST ..." and "LDCHECK ..." lines, then "LDDONE". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "litedigest/ld_md.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_sched.h"
#include "litedigest/ld_hw_skein.h"
#include "../ld_app.h"

#define MSG_BYTES 16384
#define MAX_SLOTS 8
#define MIX_MSGS  19

static uint8_t msgs_buf[MAX_SLOTS * MSG_BYTES] LD_DMA_ALIGNED;
static ld_sched_slot slots[MAX_SLOTS];
static ld_sched_msg msgs[MIX_MSGS];
/* aligned: a SHA-1/SHA-256/SHA-512 digest is written here by the peripheral, the others copied */
static uint8_t outs[MIX_MSGS][LD_MD_MAX_DIGEST_SIZE] LD_DMA_ALIGNED;

typedef struct {
    const char *name, *engine;
    ld_hw_dev dev;
    int algs[6];
    int nalgs;
} periph;

static const periph periphs[] = {
#ifdef CSR_SHA256_BASE
    {"sha256",
     SHA256_ENGINE,
     LD_APP_DEV(SHA256, LD_FAMILY_SHA256),
     {LD_ALG_SHA256, LD_ALG_SHA224},
     2},
#endif
#ifdef CSR_SHA1_BASE
    {"sha1", SHA1_ENGINE, LD_APP_DEV(SHA1, LD_FAMILY_SHA1), {LD_ALG_SHA1}, 1},
#endif
#ifdef CSR_SHA512_BASE
    {"sha512",
     SHA512_ENGINE,
     LD_APP_DEV(SHA512, LD_FAMILY_SHA512),
     {LD_ALG_SHA512, LD_ALG_SHA384, LD_ALG_SHA512_224, LD_ALG_SHA512_256},
     4},
#endif
#ifdef CSR_SKEIN512_BASE
    {"skein512",
     SKEIN512_ENGINE,
     LD_APP_DEV_SKEIN(SKEIN512),
     {LD_ALG_SKEIN512(512), LD_ALG_SKEIN512(256), LD_ALG_SKEIN512(384), LD_ALG_SKEIN512(224),
      LD_ALG_SKEIN512(160), LD_ALG_SKEIN512(128)},
     6},
#endif
};

static void check_of(const char *pname, const char *name, int ok)
{
    printf("LDCHECK name=%s_%s ok=%d\n", pname, name, ok ? 1 : 0);
}

static uint32_t rng = 12345u;
static uint32_t rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* a finished message: its digest goes to the host (LDDIGEST); 0 when it failed */
static int report(const periph *pp, const char *run, const ld_sched_msg *m)
{
    size_t bits = ld_skein512_alg_bits(m->alg);

    if (m->result != LD_OK)
        return 0;
    printf("LDDIGEST instance=%s run=%s alg=", pp->name, run);
    if (bits)
        printf("skein512-%u", (unsigned)bits);
    else
        printf("%s", ld_md_name(m->alg));
    printf(" off=%u len=%u hex=", (unsigned)((const uint8_t *)m->data - msgs_buf),
           (unsigned)m->len);
    put_hex(m->out, ld_sched_digest_size(m->alg));
    printf("\n");
    return 1;
}

/* p messages of 16 KiB on one path: the utilization figure. warm: the call is made twice,
 * the first untimed, so that the timed one runs with warm caches, as in the demo (the first
 * call of a run is the cold figure). timer: the counter's own cost (timer_cost), which the
 * statistics' interval (c0 .. c1, latched by the library) contains once, as the demo's does:
 * subtracted, the raw interval printed too. */
/* The timed calls alone in the hot block (the reporting below is not timed). The device and
 * the message table they read are copied onto the stack beside the calls' own frames: the
 * data cache is direct-mapped (4 KiB), and a table elsewhere whose lines share sets with
 * those frames would be evicted and refetched at every access (which of the instances
 * suffered moved with every change of the image's layout: Skein's whole call by 400 cycles). */
LD_APP_HOT
static int timed_calls(const periph *pp, int path, unsigned p, int warm, ld_sched_stats *st)
{
    ld_hw_dev dev = pp->dev;
    ld_sched_msg m[MAX_SLOTS];
    unsigned i;
    int r;

    memcpy(m, msgs, p * sizeof m[0]);
    if (warm) {
        ld_hw_schedule(&dev, path, m, p, slots, p, NULL);
        memcpy(m, msgs, p * sizeof m[0]);
    }
    r = ld_hw_schedule(&dev, path, m, p, slots, p, st);
    for (i = 0; i < p; i++)
        msgs[i].result = m[i].result;
    return r;
}

static void full_run(const periph *pp, int path, unsigned p, int warm, uint64_t timer)
{
    ld_sched_stats st;
    unsigned i;
    int r, ok = 1;
    uint64_t busy, cycles;

    for (i = 0; i < p; i++) {
        msgs[i].data = msgs_buf + (size_t)i * MSG_BYTES;
        msgs[i].len = MSG_BYTES;
        msgs[i].alg = pp->algs[0];
        msgs[i].out = outs[i];
    }
    memset(&st, 0, sizeof st);
    r = timed_calls(pp, path, p, warm, &st);
    for (i = 0; i < p; i++)
        ok &= report(pp, path == LD_PATH_DMA ? "full_dma" : "full_csr", &msgs[i]);
    busy = st.in_flight ? (uint64_t)st.blocks * st.period / st.in_flight : 0;
    cycles = call_cycles(st.cycles, timer);
    printf("LDSCHED instance=%s engine=%s path=%s msgs=%u bytes=%u cycles=", pp->name, pp->engine,
           path == LD_PATH_DMA ? "dma" : "csr", p, (unsigned)MSG_BYTES);
    put_u64(cycles);
    printf(" raw=");
    put_u64(st.cycles);
    printf(" blocks=%u interval=%u period=%u in_flight=%u jobs=%u busy=", (unsigned)st.blocks,
           (unsigned)st.interval, (unsigned)st.period, (unsigned)st.in_flight, (unsigned)st.jobs);
    put_u64(busy);
    printf(" util_ppm=");
    put_u64(cycles ? busy * 1000000u / cycles : 0);
    printf(" run_cycles=");
    put_u64(st.run_cycles);
    printf(" run_util_ppm=");
    put_u64(st.run_cycles ? busy * 1000000u / st.run_cycles : 0);
    printf(" warm=%d ok=%d ret=%d\n", warm, ok && r == LD_OK, r);
}

/* more messages than slots, random lengths, every algorithm of the family; `run` names it */
static void mixed_run(const periph *pp, int path, unsigned p, const char *run)
{
    unsigned i, n = MIX_MSGS;
    int r, ok = 1;

    for (i = 0; i < n; i++) {
        uint32_t len = rnd() % 3000u;
        uint32_t off = (rnd() % ((MAX_SLOTS * MSG_BYTES - 4096u) / 64u)) * 64u;
        if (i == 3)
            len = 0;
        msgs[i].data = msgs_buf + off;
        msgs[i].len = len;
        msgs[i].alg = pp->algs[i % pp->nalgs];
        msgs[i].out = outs[i];
    }
    r = ld_hw_schedule(&pp->dev, path, msgs, n, slots, p, NULL);
    for (i = 0; i < n; i++)
        ok &= report(pp, run, &msgs[i]);
    check_of(pp->name, run, ok && r == LD_OK);
}

/* bad messages fail alone: the others still complete */
static void bad_messages(const periph *pp, unsigned p)
{
    int r, other = pp->dev.family == LD_FAMILY_SHA1 ? LD_ALG_SHA256 : LD_ALG_SHA1;
    unsigned i;

    for (i = 0; i < 4; i++) {
        msgs[i].data = msgs_buf + 64u * i;
        msgs[i].len = 200;
        msgs[i].alg = pp->algs[0];
        msgs[i].out = outs[i];
    }
    msgs[1].alg = other;                                                     /* wrong family */
    msgs[2].data = (const void *)(uintptr_t)(MAIN_RAM_BASE + MAIN_RAM_SIZE); /* outside RAM */
    r = ld_hw_schedule(&pp->dev, LD_PATH_DMA, msgs, 4, slots, p, NULL);
    check_of(pp->name, "bad_msgs_reported",
             r != LD_OK && msgs[1].result == LD_ERR_ARG && msgs[2].result == LD_ERR_RANGE);
    check_of(pp->name, "bad_msgs_others_ok",
             report(pp, "bad", &msgs[0]) && report(pp, "bad", &msgs[3]));
}

int main(void)
{
    unsigned k, i;

    { /* the messages: word i = the i-th state of an LCG from seed 1, stored little-endian
         * (socdemo.sched_message_buffer() makes the same on the host) */
        uint32_t w = 1u, *words = (uint32_t *)(void *)msgs_buf;
        for (i = 0; i < sizeof msgs_buf / 4; i++) {
            w = w * 1664525u + 1013904223u;
            words[i] = w;
        }
    }
    printf("\nLiteDigest scheduler: %u peripheral(s)\n",
           (unsigned)(sizeof periphs / sizeof periphs[0]));
    for (k = 0; k < sizeof periphs / sizeof periphs[0]; k++) {
        const periph *pp = &periphs[k];
        ld_hw_info info;
        unsigned p;
        uint64_t timer;
        if (ld_hw_get_info(&pp->dev, &info) != LD_OK) {
            check_of(pp->name, "info", 0);
            continue;
        }
        timer = timer_cost(&pp->dev);
        printf("LDTIMER instance=%s cycles=", pp->name);
        put_u64(timer);
        printf("\n");
        p = info.slots < MAX_SLOTS ? info.slots : MAX_SLOTS;
        printf("# %s: engine %s, latency %u, stages %u, slots %u, interval %u, dma align %u\n",
               pp->name, pp->engine, info.latency, info.stages, info.slots, info.interval,
               info.dma_align);
        full_run(pp, LD_PATH_DMA, p, 0, timer); /* cold, then warm */
        full_run(pp, LD_PATH_DMA, p, 1, timer);
        full_run(pp, LD_PATH_CSR, p, 0, timer);
        mixed_run(pp, LD_PATH_DMA, p, "mixed_dma");
        mixed_run(pp, LD_PATH_CSR, p, "mixed_csr");
        if (p > 2) /* refills on two slots only (see tests/soc/test_sched_soc.py) */
            mixed_run(pp, LD_PATH_DMA, 2, "mixed_dma2");
        bad_messages(pp, p);
    }
    printf("LDDONE\n");
    while (1) {
    }
    return 0;
}
