/* SPDX-License-Identifier: BSD-2-Clause */
/* LiteDigest packet-authentication firmware (LiteX, bare metal): the papers' application
 * (Michail et al. 2012, HMAC-SHA-256 for IPsec), HMAC-SHA-256-128 (RFC 4868: HMAC-SHA-256
 * truncated to 16 bytes, as IPsec's ESP and AH use it) over packet streams, each packet under
 * the key of one of NSA security associations. The streams: STREAM packets of the simple IMIX
 * (64, 576 and 1,500 bytes in the proportion 7:4:1; size 0 in the output), then SIZED packets
 * of each IMIX size alone. On each stream:
 *   - software on this CPU (ld_hmac_copy of the association's keyed context, update, final),
 *     packet by packet, over the first SW_PACKETS (IMIX) or SIZED_SW packets;
 *   - the HMAC peripheral (instance hmac_sha256): the NSA keys in its key slots; the stream
 *     taken in receive bursts, each burst one ld_hw_mac_batch_keys call (each packet under
 *     its association's key slot, in stream order); bursts of SMALL_BURST and BURST (IMIX) or
 *     BURST;
 *   - the sha256 peripheral from stored key states (ld_hw_hmac, DMA path), packet by packet,
 *     over as many packets as software;
 * each path's MACs compared on the CPU with the software ones it has. The packets and keys
 * come from LCGs (socdemo.packet_stream() makes the same on the host, which checks each
 * line's "macs", the SHA-256 of its 16-byte MACs in stream order: every MAC against Python's).
 * Output: "LDPACKETS ..." lines (cycles, bytes, inner blocks), "LDPACKETS_DRIVER ..." (the
 * walker runs' share of a burst run), "LDCHECK ...", "LDDONE". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <system.h>

#include "litedigest/ld_md.h"
#include "litedigest/ld_hw.h"
#include "litedigest/ld_hmac.h"
#include "litedigest/ld_hw_hmac.h"
#include "../ld_app.h"

#define NSA         4    /* security associations, one key each (the HMAC peripheral's slots) */
#define KEY_BYTES   32   /* RFC 4868: HMAC-SHA-256-128 keys are 256 bits */
#define MAC_BYTES   16   /* the truncated MAC */
#define DECK        12   /* the simple IMIX: 7 x 64, 4 x 576, 1 x 1500 in each deck of 12 */
#define NBUF        240  /* distinct IMIX packets in memory (20 decks) */
#define STREAM      2400 /* IMIX packets in the stream: packet i is buffer packet i % NBUF */
#define SIZED       240  /* packets of a one-size stream */
#define SW_PACKETS  240  /* software and the sha256 peripheral on the IMIX stream (20 decks) */
#define SIZED_SW    24   /* ... and on a one-size stream */
#define SMALL_BURST 32
#define BURST       240
#define ALIGN       64 /* every packet starts on a DMA-aligned address */
#define SLOT_BYTES  (7 * 64 + 4 * 576 + 1536)

static const uint16_t IMIX[DECK] = {64, 64, 64, 64, 64, 64, 64, 576, 576, 576, 576, 1500};

static uint8_t data[NBUF / DECK * SLOT_BYTES] LD_DMA_ALIGNED;
static const uint8_t *imix_pkt[NBUF];
static uint16_t imix_len[NBUF];
static uint8_t keys[NSA][KEY_BYTES];
/* the stream as a receive ring holds it: each packet's address, length and association */
static const void *pkt[STREAM];
static size_t pkt_len[STREAM];
static uint8_t sa_of[STREAM];
static uint8_t ref[SW_PACKETS][MAC_BYTES]; /* the software MACs, the CPU's reference */
static size_t nref;
/* (words: a MAC is copied as four word loads and stores; a byte copy is sixteen stores, each
 * a bus write through the write-through D-cache) */
static uint32_t got[STREAM][MAC_BYTES / 4];

/* a burst's batch: its table and where each MAC lands */
static ld_hw_batch_desc table[BURST] __attribute__((aligned(LD_HW_BATCH_DESC_ALIGN)));
static uint32_t macs[BURST * 32 / 4] LD_DMA_ALIGNED;

#ifdef CSR_HMAC_SHA256_BASE
static const ld_hw_dev mac_dev = LD_APP_DEV_MAC(HMAC_SHA256, LD_FAMILY_HMAC_SHA256);
#define CLOCK (&mac_dev) /* the cycle counter every path is timed with */
#endif
#ifdef CSR_SHA256_BASE
static const ld_hw_dev sha_dev = LD_APP_DEV(SHA256, LD_FAMILY_SHA256);
#ifndef CLOCK
#define CLOCK (&sha_dev)
#endif
#endif

static uint32_t lcg(uint32_t *r)
{
    *r = *r * 1664525u + 1013904223u;
    return *r;
}

/* The packets' bytes (fill_pool's LCG over the buffer), the IMIX packets (each deck shuffled
 * by Fisher-Yates with the LCG from 2027: j = (r >> 16) % (i + 1), i from 11 down, the packets
 * at ALIGN-aligned offsets), each stream packet's association ((r >> 16) % NSA, the same LCG
 * going on) and the keys (fill_pool's byte rule from 2028) */
static void make_packets(void)
{
    uint32_t r = 2027u;
    size_t d, i, off = 0;

    fill_pool(data, 1, sizeof data);
    for (d = 0; d < NBUF / DECK; d++) {
        uint16_t deck[DECK];
        memcpy(deck, IMIX, sizeof deck);
        for (i = DECK - 1; i > 0; i--) {
            size_t j = (lcg(&r) >> 16) % (i + 1);
            uint16_t t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        for (i = 0; i < DECK; i++) {
            imix_pkt[d * DECK + i] = data + off;
            imix_len[d * DECK + i] = deck[i];
            off += (deck[i] + ALIGN - 1) / ALIGN * ALIGN;
        }
    }
    for (i = 0; i < STREAM; i++)
        sa_of[i] = (uint8_t)((lcg(&r) >> 16) % NSA);
    r = 2028u;
    for (i = 0; i < NSA * KEY_BYTES; i++)
        keys[i / KEY_BYTES][i % KEY_BYTES] = (uint8_t)(lcg(&r) >> 8);
}

/* The stream of `size` (0: the IMIX one; else packet i of `size` bytes at the buffer's
 * (i mod m)-th ALIGN-rounded place, m the places the buffer has) */
static size_t make_stream(unsigned size)
{
    size_t i, place = (size + ALIGN - 1) / ALIGN * ALIGN, n = size ? SIZED : STREAM;

    for (i = 0; i < n; i++) {
        pkt[i] = size ? data + i % (sizeof data / place) * place : imix_pkt[i % NBUF];
        pkt_len[i] = size ? size : imix_len[i % NBUF];
    }
    return n;
}

/* "LDPACKETS instance=I engine=E path=P size=Z burst=B packets=N bytes=S blocks=K cycles=C
 * ok=OK macs=SHA-256 of the N 16-byte MACs": blocks, the inner hash's (the key's block is
 * stored): ceil((len + 9) / 64) a packet */
static void put_run(const char *instance, const char *engine, const char *path, unsigned size,
                    size_t burst, size_t n, uint64_t cycles)
{
    uint32_t bytes = 0, blocks = 0;
    uint8_t sum[32];
    size_t i;
    int bad = 0;

    for (i = 0; i < n; i++) {
        bytes += pkt_len[i];
        blocks += (pkt_len[i] + 9u + 63u) / 64u;
        if (i < nref)
            bad |= memcmp(got[i], ref[i], MAC_BYTES) != 0;
    }
    ld_sha256(LD_SHA256, got, n * MAC_BYTES, sum);
    printf("LDPACKETS instance=%s engine=%s path=%s size=%u burst=%u packets=%u bytes=%u "
           "blocks=%u cycles=",
           instance, engine, path, size, (unsigned)burst, (unsigned)n, (unsigned)bytes,
           (unsigned)blocks);
    put_u64(cycles);
    printf(" ok=%d macs=", !bad);
    put_hex(sum, sizeof sum);
    printf("\n");
}

/* software: each association's keyed context made once, copied for each packet; its MACs
 * are the reference the others are compared with on the CPU */
static void run_sw(unsigned size, size_t n)
{
    static ld_hmac_ctx sa[NSA];
    ld_hmac_ctx c;
    uint8_t d[32];
    uint64_t t0, t1;
    size_t i;
    int r = LD_OK;

    for (i = 0; i < NSA; i++)
        r |= ld_hmac_init(&sa[i], LD_ALG_SHA256, keys[i], KEY_BYTES);
    nref = 0;
    t0 = now(CLOCK);
    for (i = 0; i < n; i++) {
        r |= ld_hmac_copy(&c, &sa[sa_of[i]]);
        r |= ld_hmac_update(&c, pkt[i], pkt_len[i]);
        r |= ld_hmac_final(&c, d);
        memcpy(got[i], d, MAC_BYTES);
    }
    t1 = now(CLOCK);
    check(size ? "sw_sized" : "sw_imix", r == LD_OK);
    put_run("sw", "cpu", "sw", size, 1, n, t1 - t0);
    memcpy(ref, got, n * MAC_BYTES);
    nref = n;
}

#ifdef CSR_HMAC_SHA256_BASE
/* n packets through the walker in bursts of `burst`: each burst one ld_hw_mac_batch_keys
 * call, each packet under its association's key slot, the MACs in stream order. *in_driver:
 * the cycles inside the batch calls (each timed apart, the counter's own cost taken off), the
 * rest is this loop's copying. */
static int mac_stream(size_t n, size_t burst, uint64_t timer, uint64_t *in_driver)
{
    size_t first, k, done;
    int r = LD_OK;

    for (first = 0; first < n; first += burst) {
        size_t m = first + burst < n ? burst : n - first;
        uint64_t t0 = now(CLOCK);
        r |= ld_hw_mac_batch_keys(&mac_dev, sa_of + first, table, pkt + first, pkt_len + first, m,
                                  (uint8_t *)macs, &done);
        *in_driver += call_cycles(now(CLOCK) - t0, timer);
        /* the MACs truncated (what a gateway compares with the packet's) */
        for (k = 0; k < m; k++) {
            const uint32_t *mac = macs + 8 * k;
            uint32_t *g = got[first + k];
            g[0] = mac[0];
            g[1] = mac[1];
            g[2] = mac[2];
            g[3] = mac[3];
        }
    }
    return r;
}

static void run_mac_peripheral(unsigned size, size_t n)
{
    static const size_t bursts[2] = {SMALL_BURST, BURST};
    uint64_t t0, t1;
    size_t b;
    unsigned s;
    int r = LD_OK;

    for (s = 0; s < NSA; s++)
        r |= ld_hw_mac_set_key(&mac_dev, s, keys[s], KEY_BYTES);
    check("mac_keys", r == LD_OK && (ld_hw_mac_keys(&mac_dev) & 0xfu) == 0xfu);
    for (b = size ? 1 : 0; b < 2; b++) {
        uint64_t timer = timer_cost(CLOCK), in_driver = 0;
        memset(got, 0, sizeof got);
        flush_cpu_dcache();
        t0 = now(CLOCK);
        r = mac_stream(n, bursts[b], timer, &in_driver);
        t1 = now(CLOCK);
        check(size                 ? "mac_sized"
              : bursts[b] == BURST ? "mac_imix_burst"
                                   : "mac_imix_small_burst",
              r == LD_OK);
        put_run("hmac_sha256", HMAC_SHA256_ENGINE, "batch", size, bursts[b], n, t1 - t0);
        printf("LDPACKETS_DRIVER size=%u burst=%u cycles=", size, (unsigned)bursts[b]);
        put_u64(in_driver);
        printf("\n");
    }
    ld_hw_mac_wipe(&mac_dev);
}
#endif

#ifdef CSR_SHA256_BASE
static void run_hash_peripheral(unsigned size, size_t n)
{
    static ld_hw_hmac_key k[NSA];
    uint8_t d[32];
    uint64_t t0, t1;
    size_t i;
    int r = LD_OK;

    for (i = 0; i < NSA; i++)
        r |= ld_hw_hmac_key_init(&k[i], &sha_dev, LD_ALG_SHA256, LD_PATH_DMA, keys[i], KEY_BYTES);
    memset(got, 0, sizeof got);
    t0 = now(CLOCK);
    for (i = 0; i < n; i++) {
        r |= ld_hw_hmac(&k[sa_of[i]], pkt[i], pkt_len[i], d);
        memcpy(got[i], d, MAC_BYTES);
    }
    t1 = now(CLOCK);
    check(size ? "hash_sized" : "hash_imix", r == LD_OK);
    put_run("sha256", SHA256_ENGINE, "one", size, 1, n, t1 - t0);
    for (i = 0; i < NSA; i++)
        ld_hw_hmac_key_wipe(&k[i]);
}
#endif

int main(void)
{
    static const unsigned sizes[4] = {0, 64, 576, 1500};
    size_t z;

    make_packets();
    for (z = 0; z < 4; z++) {
        size_t n = make_stream(sizes[z]), sw = sizes[z] ? SIZED_SW : SW_PACKETS;
        run_sw(sizes[z], sw);
#ifdef CSR_HMAC_SHA256_BASE
        run_mac_peripheral(sizes[z], n);
#endif
#ifdef CSR_SHA256_BASE
        run_hash_peripheral(sizes[z], sw);
#endif
    }
    printf("LDDONE\n");
    return 0;
}
