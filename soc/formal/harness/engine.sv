// SPDX-License-Identifier: BSD-2-Clause
// The engine contract (docs/ARCHITECTURE.md) as properties, around `ld_engine`: an engine of
// litedigest.ip made by Migen with its datapath abstracted (soc/formal/units.py), so the
// solver sees the handshakes, the slot and last tags and the timing only.
//
// The harness counts the blocks accepted (sink valid & ready) and not yet taken from the
// source (`count`), and follows one of them, chosen by the solver (`pick` when it is
// accepted): its slot, last flag, the blocks accepted before it still outstanding (`ahead`),
// its age in cycles (`real_age`) and in cycles the result sink did not stall (`age`; a cycle
// with source valid and not ready is a stall). Every block may be the one followed, so what
// holds for it holds for all:
//   E1 no result without a block: source valid -> count != 0;
//   E2 in order and for its slot: when the followed block's turn comes (ahead == 0) the
//      result shown carries its slot and last flag;
//   E3 not early: its result appears no earlier than LAT cycles after its accept;
//   E4 within the latency: its age never exceeds LAT, and at age LAT its result is shown:
//      every block gets exactly one result, LAT cycles after its accept when nothing stalls;
//   E5 in flight: at most IN_FLIGHT blocks inside the engine besides the result shown;
//   E6 hold: source valid and not ready -> next cycle valid again, slot, last and digest
//      unchanged;
//   E7 progress: while blocks are outstanding, a result is shown at the latest LAT
//      non-stalled cycles after the previous one was taken (or after the first accept):
//      the oldest block is never older than that, so this holds for every block, not just
//      the one followed;
//   E8 bookkeeping: the engine's own record of the blocks inside (`busy` of a one-block
//      engine, the bits of `slot_busy` of a pipeline or a Skein engine: one block per slot)
//      counts the blocks accepted and not yet shown: a slot is never left marked busy.
// Both streams' partners behave arbitrarily (any valid, any ready, any of the SLOTS slots);
// with STALL > 0
// the result sink stalls at most STALL cycles in a row (fairness, for the induction only).
// Auxiliary, so that the induction closes early: the round counter of a one-block engine
// stays within its ROUNDS (ROUNDS = 0: the engine has none).
`include "job_env.svh"

module engine_formal #(
    parameter LAT = 33,
    parameter IN_FLIGHT = 1,
    parameter SB = 1,          // slot bits
    parameter SLOTS = 1,       // slots (messages the engine holds)
    parameter DB = 256,        // digest bits
    parameter ROUNDS = 32,
    parameter CB = 6,          // round counter bits
    parameter OB = 2,          // bits of the engine's count of blocks inside
    parameter PIPE = 0,        // a SHA pipeline: stage registers s<i>_valid / s<i>_slot
    parameter STALL = 0,
    parameter AUX = 1,
    parameter [15:0] CHECKS = 16'hffff   // the property groups checked (bit n: group n)
) (
    input clk,
    input in_valid,
    input [SB-1:0] in_slot,
    input in_last,
    input out_ready,
    input pick
);
    localparam AW = $clog2(LAT + 2);

    `LD_RESET_CYCLE

    `LD_ENGINE_WIRES
    wire [CB-1:0] round_count;
    wire [OB-1:0] occupancy;
    wire [SLOTS-1:0] busy_mask, stage_mask;
    wire [OB-1:0] stage_count;

    ld_engine dut (
        `LD_ENGINE_PORTS,
        .count(round_count),
        .occupancy(occupancy),
        .busy_mask(busy_mask),
        .stage_mask(stage_mask),
        .stage_count(stage_count)
    );

    `LD_ENGINE_HANDSHAKES
    `LD_ENGINE_COUNT_DECL             // count: blocks accepted, not yet taken; wait_
    reg tracking = 0, done = 0;       // a block is followed / its result was taken
    reg [SB-1:0] t_slot = 0;
    reg t_last = 0;
    reg [3:0] ahead = 0;
    reg [AW-1:0] age = 0, real_age = 0;
    wire t_shown = tracking && ahead == 0 && out_valid;

    always @(posedge clk) begin
        `LD_ENGINE_COUNT_STEP
        if (tracking) begin
            if (!stall && age <= LAT) age <= age + 1;
            if (real_age < LAT) real_age <= real_age + 1;
            if (pop) begin
                if (ahead != 0) ahead <= ahead - 1;
                else begin tracking <= 0; done <= 1; end
            end
        end else if (acc && pick && !done) begin
            ahead <= count - pop;
            `LD_ENGINE_FOLLOW
        end
    end

    // the engine contract's one precondition: a block names one of the engine's slots
    always @(*) if (in_valid) assume(in_slot < SLOTS);

    // fairness (induction only): the result sink stalls at most STALL cycles in a row
    `LD_SINK_FAIRNESS

    always @(*) if (past_valid) begin
        if (CHECKS[1]) if (out_valid) assert(count != 0);                                 // E1
        if (CHECKS[2]) if (t_shown) assert(out_slot == t_slot && out_last == t_last);     // E2
        if (CHECKS[3]) if (t_shown) assert(real_age >= LAT);                              // E3
        if (tracking) begin
            if (CHECKS[4]) assert(age <= LAT);                                            // E4
            if (CHECKS[4]) if (age == LAT) assert(t_shown);                               // E4
            if (AUX) assert(ahead < count);
        end
        if (CHECKS[5]) assert(count <= IN_FLIGHT + out_valid);                            // E5
        if (CHECKS[7]) if (count != 0) assert(wait_ <= LAT && (wait_ < LAT || out_valid)); // E7
        if (CHECKS[8]) assert(count == occupancy + out_valid);                            // E8
        if (CHECKS[8]) if (PIPE) assert(busy_mask == stage_mask && stage_count == occupancy);  // E8
        if (AUX && ROUNDS != 0) assert(round_count <= ROUNDS);                    // (auxiliary)
    end

    always @(posedge clk)
        if (past_valid && $past(past_valid) && $past(stall))
            if (CHECKS[6]) assert(out_valid && $stable(out_slot) && $stable(out_last) && $stable(out_digest));  // E6
endmodule



// The engine contract of a MAC engine (`hmac-sha256:opt:pN`, ip/hmac_sha256.py) around its
// `ld_engine` (units.engine_unit: datapath abstracted; the stage registers of both cores
// shown as `mac_<i|o>_<field>`, stage 0 first), harness `engine_mac_formal`. The sink also
// takes a key slot (`key`) and `key_init` (the block is a key K0: K0 ^ ipad runs through the
// inner core and K0 ^ opad through the outer core beside it, both from the accept on); the
// key slot, key_init and the other sink fields are free every cycle, and so is `wipe`.
// The groups of `engine_formal`, with what the MAC engine's contract says: every accepted
// block, a key initialization too, has exactly one result; results are in order for their
// slot (a key initialization enters the outer core at once and may overtake the blocks of
// other slots in the inner core); a message block's result comes LAT cycles after its
// accept, a key initialization's KLAT cycles after (its outer half alone: one core).
// The harness counts the blocks accepted and not yet taken, in all (`count`) and per slot
// (`cnt`, CW bits a slot), and follows one block chosen by the solver (`pick`): its slot,
// last flag and key_init, the blocks of its slot accepted before it still outstanding
// (`ahead`), its age (`real_age`) and its age in cycles the result sink did not stall (`age`):
//   E1 no result without a block: source valid -> a block of the result's slot outstanding;
//   E2 in order for its slot: the followed block's result is the first result of its slot
//      after those of the blocks of its slot accepted before it, and carries its last flag;
//   E3 not early: that result appears no earlier than the block's latency (LAT, a key
//      initialization KLAT) after its accept;
//   E4 within the latency: its age never exceeds its latency, and at its latency its result
//      is shown: exactly one result, exactly the latency after the accept without stalls;
//   E5 in flight: at most IN_FLIGHT blocks inside the engine besides the result shown;
//   E6 hold: source valid and not ready -> next cycle valid again, slot, last and digest
//      unchanged;
//   E7 progress: while blocks are outstanding a result is shown at the latest LAT non-stalled
//      cycles after the previous one was taken (or after the first accept);
//   E8 bookkeeping, from the engine's registers: the blocks inside are the message blocks of
//      the inner stages and the blocks of the outer stages (a passenger, a message's last
//      block, a key initialization's outer half); per slot, they and the result shown are
//      the blocks accepted and not yet taken, and no slot has more than BPS
//      (blocks_per_slot) inside; `slot_busy` marks exactly the slots of the inner stages,
//      one block a slot there; `key_busy` marks only key slots whose initialization is inside.
// Preconditions: a block names one of the engine's SLOTS slots and KEYS key slots. With
// STALL > 0 the result sink stalls at most STALL cycles in a row (fairness).
// Auxiliary invariants (they make every property inductive, so k-induction closes at a
// small k without fairness): a key initialization's halves stay side by side (inner and
// outer stage j, same slot and key); a slot's message block in the outer core is at a stage
// no lower than its block in the inner core, and there is one at most; the followed block
// is the ahead-th oldest block of its slot inside (result register, outer stages from the
// last, inner stages from the last), with its last flag and key_init, and its progress (the
// cycles since its accept the pipeline moved: stage * PER + the cycle in the stage) lies
// between `age` and `real_age`; with no result shown, the oldest block has progressed at
// least the non-stalled cycles waited (`wait_`).
module engine_mac_formal #(
    parameter LAT = 65,
    parameter KLAT = 33,
    parameter IN_FLIGHT = 2,
    parameter SB = 1,          // slot bits
    parameter SLOTS = 2,
    parameter KB = 2,          // key slot bits
    parameter KEYS = 4,        // key slots
    parameter DB = 256,
    parameter P = 1,           // pipeline stages a core
    parameter PER = 32,        // cycles a stage period
    parameter PB = 5,          // phase bits
    parameter BPS = 2,         // a slot's blocks inside at once (engine.blocks_per_slot)
    parameter STALL = 0,
    parameter AUX = 1,
    parameter [15:0] CHECKS = 16'hffff
) (
    input clk,
    input in_valid,
    input [SB-1:0] in_slot,
    input in_last,
    input [KB-1:0] in_key,
    input in_key_init,
    input wipe,
    input out_ready,
    input pick
);
    localparam AW = $clog2(LAT + 2);
    localparam CW = 4;

    `LD_RESET_CYCLE

    `LD_ENGINE_WIRES
    wire [KEYS-1:0] keys_valid, key_busy;
    wire [SLOTS-1:0] slot_busy;
    wire [PB-1:0] phase;
    wire handover;                    // the engine's handover register (set a cycle ahead)
    wire [P-1:0] i_valid, i_kinit, i_last, o_valid, o_kinit, o_last;
    wire [P*SB-1:0] i_slot, o_slot;
    wire [P*KB-1:0] i_key, o_key;

    ld_engine dut (
        `LD_ENGINE_PORTS,
        .sink_payload_key(in_key), .sink_payload_key_init(in_key_init),
        .wipe(wipe), .keys_valid(keys_valid),
        .mac_i_valid(i_valid), .mac_i_key_init(i_kinit), .mac_i_slot(i_slot), .mac_i_key(i_key),
        .mac_i_last(i_last),
        .mac_o_valid(o_valid), .mac_o_key_init(o_kinit), .mac_o_slot(o_slot), .mac_o_key(o_key),
        .mac_o_last(o_last),
        .mac_slot_busy(slot_busy), .mac_key_busy(key_busy), .mac_phase(phase), .mac_handover(handover)
    );

    `LD_ENGINE_HANDSHAKES
    `LD_ENGINE_COUNT_DECL             // count: blocks accepted, not yet taken; wait_
    reg [CW*SLOTS-1:0] cnt = 0;       // count, per slot
    reg tracking = 0, done = 0;
    reg [SB-1:0] t_slot = 0;
    reg t_last = 0, t_kinit = 0;
    reg [CW-1:0] ahead = 0;
    reg [AW-1:0] age = 0, real_age = 0;
    wire [AW-1:0] t_lat = t_kinit ? KLAT : LAT;
    wire [CW-1:0] cnt_in = cnt >> (CW * in_slot);
    wire [CW-1:0] cnt_out = cnt >> (CW * out_slot);
    wire [CW-1:0] cnt_t = cnt >> (CW * t_slot);
    wire t_shown = tracking && ahead == 0 && out_valid && out_slot == t_slot;

    // the blocks inside, from the engine's stage registers
    // a block enters stage 0 at the end of a handover cycle (phase PER - 1), so in stage j
    // at phase k it has progressed j * PER + k + 1 cycles
    wire [AW-1:0] ph = phase + 1;
    reg [CW*SLOTS-1:0] inside;        // per slot
    reg [CW-1:0] occupancy;           // in all
    reg [SLOTS-1:0] inner_mask;       // the slots of the inner stages
    reg inner_twice;                  // two inner stages hold blocks of one slot
    reg [KEYS-1:0] key_mask;          // the key slots of the key initializations inside
    reg halves, order;                // (auxiliary)
    reg [AW-1:0] m, m_max;            // a block's progress; the oldest's
    reg [CW-1:0] rank;                // blocks of the followed block's slot older than this one
    reg f_found, f_res, f_last, f_kinit;
    reg [AW-1:0] f_m;
    integer s, j, k;
    always @(*) begin
        inside = 0; occupancy = 0; inner_mask = 0; inner_twice = 0; key_mask = 0;
        halves = 1; order = 1; m_max = 0;
        for (j = 0; j < P; j = j + 1) begin
            if (i_valid[j]) inner_mask = inner_mask | (1 << i_slot[j*SB +: SB]);
            if (o_valid[j] && o_kinit[j]) key_mask = key_mask | (1 << o_key[j*KB +: KB]);
            occupancy = occupancy + (i_valid[j] && !i_kinit[j]) + o_valid[j];
            for (s = 0; s < SLOTS; s = s + 1)
                inside[CW*s +: CW] = inside[CW*s +: CW] + (i_valid[j] && !i_kinit[j] && i_slot[j*SB +: SB] == s)
                                     + (o_valid[j] && o_slot[j*SB +: SB] == s);
            if ((i_valid[j] && i_kinit[j]) != (o_valid[j] && o_kinit[j])) halves = 0;
            if (i_valid[j] && i_kinit[j] && (i_slot[j*SB +: SB] != o_slot[j*SB +: SB]
                                             || i_key[j*KB +: KB] != o_key[j*KB +: KB])) halves = 0;
            for (k = 0; k < P; k = k + 1) begin
                if (k > j && i_valid[j] && i_valid[k] && i_slot[j*SB +: SB] == i_slot[k*SB +: SB])
                    inner_twice = 1;
                // a slot's message block in the outer core (stage k): one at most, at a stage
                // no lower than the slot's block in the inner core (stage j)
                if (o_valid[k] && !o_kinit[k] && i_valid[j] && o_slot[k*SB +: SB] == i_slot[j*SB +: SB] && k < j)
                    order = 0;
                if (k > j && o_valid[k] && !o_kinit[k] && o_valid[j] && !o_kinit[j]
                    && o_slot[k*SB +: SB] == o_slot[j*SB +: SB])
                    order = 0;
            end
            m = j * PER + ph;
            if (i_valid[j] && !i_kinit[j] && m > m_max) m_max = m;
            m = (o_kinit[j] ? j : P + j) * PER + ph;
            if (o_valid[j] && m > m_max) m_max = m;
        end
        // the followed block: the ahead-th oldest of its slot (the result shown, the outer
        // stages from the last, the inner stages from the last)
        rank = 0; f_found = 0; f_res = 0; f_last = 0; f_kinit = 0; f_m = 0;
        if (out_valid && out_slot == t_slot) begin
            if (rank == ahead) begin f_found = 1; f_res = 1; end
            rank = rank + 1;
        end
        for (j = P - 1; j >= 0; j = j - 1)
            if (o_valid[j] && o_slot[j*SB +: SB] == t_slot) begin
                if (rank == ahead) begin
                    f_found = 1; f_last = o_last[j]; f_kinit = o_kinit[j];
                    f_m = (o_kinit[j] ? j : P + j) * PER + ph;
                end
                rank = rank + 1;
            end
        for (j = P - 1; j >= 0; j = j - 1)
            if (i_valid[j] && !i_kinit[j] && i_slot[j*SB +: SB] == t_slot) begin
                if (rank == ahead) begin
                    f_found = 1; f_last = i_last[j]; f_kinit = 0; f_m = j * PER + ph;
                end
                rank = rank + 1;
            end
    end

    always @(posedge clk) begin
        `LD_ENGINE_COUNT_STEP
        for (s = 0; s < SLOTS; s = s + 1)
            if (cnt[CW*s +: CW] <= BPS + 1)
                cnt[CW*s +: CW] <= cnt[CW*s +: CW] + (acc && in_slot == s) - (pop && out_slot == s);
        if (tracking) begin
            if (!stall && age <= t_lat) age <= age + 1;
            if (real_age < LAT) real_age <= real_age + 1;
            if (pop && out_slot == t_slot) begin
                if (ahead != 0) ahead <= ahead - 1;
                else begin tracking <= 0; done <= 1; end
            end
        end else if (acc && pick && !done) begin
            ahead <= cnt_in - (pop && out_slot == in_slot);
            t_kinit <= in_key_init;
            `LD_ENGINE_FOLLOW
        end
    end

    // the contract's preconditions: a block names one of the engine's slots and key slots
    always @(*) if (in_valid) assume(in_slot < SLOTS && in_key < KEYS);

    // fairness: the result sink stalls at most STALL cycles in a row
    `LD_SINK_FAIRNESS

    always @(*) if (past_valid) begin
        if (CHECKS[1]) if (out_valid) assert(cnt_out != 0);                               // E1
        if (CHECKS[2]) if (t_shown) assert(out_last == t_last);                           // E2
        if (CHECKS[3]) if (t_shown) assert(real_age >= t_lat);                            // E3
        if (tracking) begin
            if (CHECKS[4]) assert(age <= t_lat);                                          // E4
            if (CHECKS[4]) if (age == t_lat) assert(t_shown);                             // E4
        end
        if (CHECKS[5]) assert(count <= IN_FLIGHT + out_valid);                            // E5
        if (CHECKS[7]) if (count != 0) assert(wait_ <= LAT && (wait_ < LAT || out_valid)); // E7
        if (CHECKS[8]) assert(count == occupancy + out_valid);                            // E8
        if (CHECKS[8]) assert(slot_busy == inner_mask && !inner_twice);                   // E8
        if (CHECKS[8]) assert((key_busy & ~key_mask) == 0);                               // E8
    end

    always @(*) if (past_valid && AUX) begin                                      // (auxiliary)
        assert(halves && order);
        assert(handover == (phase == PER - 1));
        if (count != 0 && !out_valid) assert(wait_ <= m_max);
        if (tracking) assert(ahead < cnt_t && f_found);
        if (tracking && !f_res) assert(f_last == t_last && f_kinit == t_kinit && age <= f_m && f_m <= real_age);
    end

    genvar g;
    generate for (g = 0; g < SLOTS; g = g + 1) begin : per_slot
        always @(*) if (past_valid) begin
            if (CHECKS[8]) assert(cnt[CW*g +: CW] == inside[CW*g +: CW] + (out_valid && out_slot == g)); // E8
            if (CHECKS[8]) assert(inside[CW*g +: CW] <= BPS);                             // E8
        end
    end endgenerate

    always @(posedge clk)
        if (past_valid && $past(past_valid) && $past(stall))
            if (CHECKS[6]) assert(out_valid && $stable(out_slot) && $stable(out_last) && $stable(out_digest));  // E6
endmodule
