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

    // the design starts with a cycle of reset (LiteX's CRG resets the system clock domain)
    reg past_valid = 0;
    wire rst = !past_valid;

    wire in_ready, out_valid, out_last;
    wire [SB-1:0] out_slot;
    wire [DB-1:0] out_digest;
    wire [CB-1:0] round_count;
    wire [OB-1:0] occupancy;
    wire [SLOTS-1:0] busy_mask, stage_mask;
    wire [OB-1:0] stage_count;

    ld_engine dut (
        .sys_clk(clk), .sys_rst(rst),
        .sink_valid(in_valid), .sink_ready(in_ready),
        .sink_last(in_last), .sink_payload_slot(in_slot),
        .source_valid(out_valid), .source_ready(out_ready),
        .source_last(out_last), .source_payload_slot(out_slot),
        .source_payload_digest(out_digest),
        .count(round_count),
        .occupancy(occupancy),
        .busy_mask(busy_mask),
        .stage_mask(stage_mask),
        .stage_count(stage_count)
    );

    wire acc = past_valid && in_valid && in_ready;
    wire stall = past_valid && out_valid && !out_ready;
    wire pop = past_valid && out_valid && out_ready;

    reg [3:0] count = 0;              // blocks accepted, not yet taken
    reg tracking = 0, done = 0;       // a block is followed / its result was taken
    reg [SB-1:0] t_slot = 0;
    reg t_last = 0;
    reg [3:0] ahead = 0;
    reg [AW-1:0] age = 0, real_age = 0;
    reg [7:0] stall_run = 0;
    reg [AW-1:0] wait_ = 0;           // non-stalled cycles the oldest block has waited, at least
    wire t_shown = tracking && ahead == 0 && out_valid;

    always @(posedge clk) begin
        past_valid <= 1;
        stall_run <= stall ? stall_run + 1 : 0;
        if (count <= IN_FLIGHT + 1)
            count <= count + acc - pop;
        if (pop || count == 0)
            wait_ <= (count - pop + acc != 0);
        else if (!stall && wait_ <= LAT)
            wait_ <= wait_ + 1;
        if (tracking) begin
            if (!stall && age <= LAT) age <= age + 1;
            if (real_age < LAT) real_age <= real_age + 1;
            if (pop) begin
                if (ahead != 0) ahead <= ahead - 1;
                else begin tracking <= 0; done <= 1; end
            end
        end else if (acc && pick && !done) begin
            tracking <= 1;
            t_slot <= in_slot;
            t_last <= in_last;
            ahead <= count - pop;
            age <= 1;
            real_age <= 1;
        end
    end

    // the engine contract's one precondition: a block names one of the engine's slots
    always @(*) if (in_valid) assume(in_slot < SLOTS);

    // fairness (induction only): the result sink stalls at most STALL cycles in a row
    always @(*) if (STALL != 0 && stall_run >= STALL && out_valid) assume(out_ready);

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
