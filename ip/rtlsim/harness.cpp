/* SPDX-License-Identifier: BSD-2-Clause */
// Verilator harness for one bare engine (ports of litedigest.ip.engines.engine_verilog), loaded
// from Python as a shared library. It drives the sink and the source with seeded random
// valid/ready stalls, and records the cycle each block is accepted and each result appears.
#include <cstdint>
#include <cstring>
#include "verilated.h"
#include "Vld_engine.h"

#ifndef LD_BLOCK_WORDS
#error "LD_BLOCK_WORDS must be defined"
#endif
#ifndef LD_CV_WORDS
#error "LD_CV_WORDS must be defined"
#endif

namespace
{
struct Sim {
    VerilatedContext ctx;
    Vld_engine *top;
    uint64_t cycle = 0;
    uint64_t rng;
    unsigned stall_in = 0, stall_out = 0; // percent of cycles without valid / ready
};

uint32_t next_rand(Sim *s)
{ // xorshift64*
    s->rng ^= s->rng >> 12;
    s->rng ^= s->rng << 25;
    s->rng ^= s->rng >> 27;
    return (uint32_t)((s->rng * 0x2545F4914F6CDD1DULL) >> 32);
}

void tick(Sim *s)
{
    s->top->sys_clk = 1;
    s->top->eval();
    s->top->sys_clk = 0;
    s->top->eval();
    s->cycle++;
}
} // namespace

extern "C" {

void *ldsim_new(uint64_t seed)
{
    Sim *s = new Sim();
    s->top = new Vld_engine(&s->ctx);
    s->rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
    s->top->sys_clk = 0;
    s->top->sys_rst = 1;
    s->top->sink_valid = 0;
    s->top->source_ready = 0;
    s->top->source_first = 0;
#ifdef LD_KEYS
    s->top->wipe = 0;
#endif
    s->top->eval();
    for (int i = 0; i < 4; i++)
        tick(s);
    s->top->sys_rst = 0;
    s->top->eval();
    return s;
}

void ldsim_free(void *p)
{
    Sim *s = (Sim *)p;
    s->top->final();
    delete s->top;
    delete s;
}

void ldsim_set_stalls(void *p, unsigned in_pct, unsigned out_pct)
{
    Sim *s = (Sim *)p;
    s->stall_in = in_pct > 95 ? 95 : in_pct;
    s->stall_out = out_pct > 95 ? 95 : out_pct;
}

uint64_t ldsim_cycle(void *p)
{
    return ((Sim *)p)->cycle;
}

// MAC engines (LD_KEYS): pulse `wipe` for one cycle; the key slots holding stored states.
#ifdef LD_KEYS
void ldsim_wipe(void *p)
{
    Sim *s = (Sim *)p;
    s->top->wipe = 1;
    s->top->sink_valid = 0;
    s->top->eval();
    tick(s);
    s->top->wipe = 0;
    s->top->eval();
}

uint32_t ldsim_keys_valid(void *p)
{
    return ((Sim *)p)->top->keys_valid;
}
#endif

// Feed n blocks, collect results. Block i: words[LD_BLOCK_WORDS*i..], slot[i], flags[i]
// (bit0 first, bit1 last, bit2 load_cv, bit3 key_init), variant[i], cv[LD_CV_WORDS*i..] (used
// with load_cv), tweak[4*i..] (the 128-bit tweak, low chunk first; engines with a tweak,
// LD_TWEAK), key[i] (the key slot; MAC engines, LD_KEYS).
// Result j (in order of appearance): out_cv[LD_CV_WORDS*j..], out_slot[j], out_last[j],
// out_cycle[j] = cycle its valid first rose. accept_cycle[i] = cycle block i was accepted.
// Returns the number of results (n on success), or -1 when max_cycles pass first.
long ldsim_run(void *p, long n, const uint32_t *blk, const uint32_t *slot, const uint32_t *flags,
               const uint32_t *variant, const uint32_t *cv, const uint32_t *tweak,
               const uint32_t *key, uint32_t *out_cv, uint32_t *out_slot, uint32_t *out_last,
               uint64_t *accept_cycle, uint64_t *out_cycle, uint64_t max_cycles)
{
    Sim *s = (Sim *)p;
    Vld_engine *t = s->top;
    long fed = 0, got = 0;
    bool presenting = false, seen_valid = false;
    uint64_t valid_since = 0, limit = s->cycle + max_cycles;
    while (got < n) {
        if (s->cycle >= limit) {
            t->sink_valid = 0;
            t->source_ready = 0;
            t->eval();
            return -1;
        }
        if (!presenting && fed < n && (next_rand(s) % 100) >= s->stall_in) {
            presenting = true;
            for (int w = 0; w < LD_BLOCK_WORDS; w++)
                t->sink_payload_data[w] = blk[(size_t)LD_BLOCK_WORDS * fed + w];
            for (int w = 0; w < LD_CV_WORDS; w++)
                t->sink_payload_cv[w] = cv[(size_t)LD_CV_WORDS * fed + w];
#ifdef LD_TWEAK
            for (int w = 0; w < 4; w++)
                t->sink_payload_tweak[w] = tweak[(size_t)4 * fed + w];
#else
            (void)tweak;
#endif
#ifdef LD_KEYS
            t->sink_payload_key = key[fed];
            t->sink_payload_key_init = (flags[fed] >> 3) & 1;
#else
            (void)key;
#endif
            t->sink_payload_slot = slot[fed];
            t->sink_payload_variant = variant[fed];
            t->sink_first = flags[fed] & 1;
            t->sink_last = (flags[fed] >> 1) & 1;
            t->sink_payload_load_cv = (flags[fed] >> 2) & 1;
        }
        t->sink_valid = presenting;
        t->source_ready = (next_rand(s) % 100) >= s->stall_out;
        t->eval();
        if (t->source_valid && !seen_valid) {
            seen_valid = true;
            valid_since = s->cycle;
        }
        bool in_fire = t->sink_valid && t->sink_ready;
        bool out_fire = t->source_valid && t->source_ready;
        if (out_fire) {
            for (int w = 0; w < LD_CV_WORDS; w++)
                out_cv[(size_t)LD_CV_WORDS * got + w] = t->source_payload_digest[w];
            out_slot[got] = t->source_payload_slot;
            out_last[got] = t->source_last;
            out_cycle[got] = valid_since;
            got++;
        }
        if (in_fire) {
            accept_cycle[fed] = s->cycle;
            fed++;
            presenting = false;
        }
        tick(s);
        // a result still valid after the edge that consumed the previous one is a new result
        if (out_fire)
            seen_valid = false;
    }
    t->sink_valid = 0;
    t->source_ready = 0;
    t->eval();
    return got;
}

} // extern "C"
