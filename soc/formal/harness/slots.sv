// SPDX-License-Identifier: BSD-2-Clause
// Job and slot control (soc/peripheral/slots.py, SlotControl) against soc/REGISTERS.md, around
// `ld_slots` made by Migen. Every input is free (the ctrl writes, the job registers, ack,
// the batch lock, din's word count) except what the neighbours guarantee (each one a property
// of their own proof, or of the peripheral's wiring in core.py):
//   - the reader fetches only for a slot whose job runs and that has work (`active`, `more`);
//   - blocks fetched (or a CSR job's block) and not yet out of the engine: at most OUT per slot
//     (DMAReader: its fill buffer, the block register, the engine); a block leaves (retire) or
//     is dropped (abort) only if one is outstanding;
//   - `more` of a slot is set only while its job runs, and once clear stays clear until the
//     slot's next job starts;
//   - with JOB > 0 (fairness, the bound): a job has work at most JOB cycles after its start,
//     and a slot with blocks outstanding sees one leave at least every RET cycles.
// The harness keeps its own model of the slots (h_act: a job runs from its start until its
// slot has nothing to fetch and nothing outstanding, REGISTERS.md / the slots.py docstring)
// and of a pending load_cv. Checked every cycle:
//   J1 a rejected job never starts: a request that fails a check of REGISTERS.md (slot out
//      of range or busy, a second pending load_cv, a batch owning the slots, a bad `pad` job,
//      the peripheral's own check (`extra_bad`: a MAC peripheral's key slot rules),
//      a CSR block short or still waiting, bad DMA lengths, a segment outside main RAM or not
//      row-aligned) does not start the engine or the reader (job.start);
//   J2 a good request starts its job, on its slot, with the segments it asked for (rows,
//      a pad job's rows rounded up, the tail only with `tail`);
//   J3 a rejected request (or a refused command, `refuse`) sets `done` and its error bit
//      (err_state, else err_len, else err_addr) in the next cycle and raises the event;
//   J4 the slots: `active` is the model's; every started job ends within JOB + OUT*RET + 2
//      cycles (with the fairness); when it ends its slots_done bit and `done` are set, and
//      finish_cycles takes the cycle counter;
//   J5 slots_done is set only by a job's end, and cleared by slots_ack (a bit acked in the
//      cycle its job ends stays set);
//   J6 ack clears `done` and the error bits (unless a request is rejected in that cycle);
//   J7 nothing is lost: a bus error sets err_bus, and a job's end sets `done`, even in the
//      cycle of an ack (a finding of these proofs, fixed: docs/RELIABILITY.md).
`include "job_env.svh"

module slots_formal #(
    parameter S = 4, SB = 2,
    parameter BLOCK = 64,              // block bytes
    parameter LOGROW = 6,              // log2 of the DMA row bytes
    parameter [33:0] RAM_BASE = 34'h40000000,
    parameter [33:0] RAM_SIZE = 34'h40000,
    parameter OUT = 3,
    parameter OUT_BLOCK = 0,           // Skein: `out` allowed with `pad`
    parameter JOB = 0, RET = 3,
    parameter AUX = 1,                  // the auxiliary invariants (for the induction)
    parameter [15:0] CHECKS = 16'hffff   // the property groups checked (bit n: group n)
) (
    input clk,
    input req_start, req_dma_start,
    input [7:0] req_slot,
    input req_first, req_last, req_load_cv, req_tail, req_out, req_pad,
    input [31:0] req_base, req_length, req_tail_base, req_tail_length,
    input [6:0] req_final_bytes,
    input locked, owner, ack,
    input extra_bad, refuse,           // the peripheral's own checks (a MAC's key slots), free
    input [S-1:0] ack_slots,
    input [7:0] csr_words,
    input csr_busy,
    input [S-1:0] more,
    input fetch_valid, input [SB-1:0] fetch_slot,
    input abort_valid, input [SB-1:0] abort_slot,
    input retire_valid, input [SB-1:0] retire_slot,
    input cv_taken, bus_error,
    input [63:0] now
);
    localparam RB = 32 - LOGROW;
    localparam ROW = 1 << LOGROW;
    localparam BOUND = JOB + OUT * RET + 2;

    `LD_RESET_CYCLE

    wire job_start, job_csr, job_first, job_load_cv, job_last, job_pad;
    wire [SB-1:0] job_slot;
    wire [RB-1:0] seg_row, seg_rows, seg_tail_row, seg_tail_rows;
    wire [S-1:0] active, done_slots;
    wire st_busy, st_done, st_err_len, st_err_addr, st_err_state, st_err_bus, event_;
    wire [63:0] finish_cycles;
    wire cv_pending;
    wire [4*S-1:0] outst;

    ld_slots dut (
        .sys_clk(clk), .sys_rst(rst),
        .request_start(req_start), .request_dma_start(req_dma_start), .request_slot(req_slot),
        .request_first(req_first), .request_last(req_last), .request_load_cv(req_load_cv),
        .request_tail(req_tail), .request_out(req_out), .request_pad(req_pad),
        .request_variant(4'd0), .request_base(req_base), .request_length(req_length),
        .request_tail_base(req_tail_base), .request_tail_length(req_tail_length),
        .request_final_bytes(req_final_bytes),
        .locked(locked), .owner(owner), .ack(ack), .ack_slots(ack_slots),
        .csr_words(csr_words), .csr_busy(csr_busy), .more(more),
        .fetch_valid(fetch_valid), .fetch_slot(fetch_slot),
        .abort_valid(abort_valid), .abort_slot(abort_slot),
        .retire_valid(retire_valid), .retire_slot(retire_slot),
        .cv_taken(cv_taken), .overflow(1'b0), .bus_error(bus_error), .now(now), .stamp(1'b0),
        .extra_bad(extra_bad), .refuse(refuse),
        .job_start(job_start), .job_slot(job_slot), .job_csr(job_csr), .job_first(job_first),
        .job_load_cv(job_load_cv), .job_last(job_last), .job_pad(job_pad),
        .segments_row(seg_row), .segments_rows(seg_rows),
        .segments_tail_row(seg_tail_row), .segments_tail_rows(seg_tail_rows),
        .active(active), .done_slots(done_slots),
        .status_busy(st_busy), .status_done(st_done), .status_err_len(st_err_len),
        .status_err_addr(st_err_addr), .status_err_state(st_err_state), .status_err_bus(st_err_bus),
        .finish_cycles(finish_cycles), .event_1(event_), .cv_pending(cv_pending), .outst(outst)
    );

    // --- the spec's admission checks (REGISTERS.md, status) -------------------------------
    reg [S-1:0] h_act = 0;             // the model's running jobs
    reg h_cv_pending = 0;              // a load_cv job whose first block has not entered
    wire req = past_valid && (req_start || req_dma_start);
    wire slot_bad = req_slot >= S;
    wire slot_busy = !slot_bad && h_act[req_slot[SB-1:0]];
    wire pad_bad = req_pad && (req_tail || !req_first || (!OUT_BLOCK && req_out) || req_start);
    wire state_bad = slot_bad || slot_busy || (req_load_cv && !req_first && h_cv_pending)
                     || (locked && !owner) || pad_bad || extra_bad;
    wire fb_bad = req_final_bytes > BLOCK;
    wire csr_bad = req_start && (state_bad || csr_busy || req_out || csr_words != BLOCK / 4 || fb_bad);
    wire [33:0] end_ = req_base + req_length, tend = req_tail_base + req_tail_length;
    wire in_ram = req_base % ROW == 0 && req_base >= RAM_BASE && end_ <= RAM_BASE + RAM_SIZE;
    wire tail_in_ram = req_tail_base % ROW == 0 && req_tail_base >= RAM_BASE && tend <= RAM_BASE + RAM_SIZE;
    wire len_bad = !req_pad && (req_length == 0 || req_length % BLOCK != 0
                                || (req_tail && req_tail_length % BLOCK != 0) || fb_bad);
    wire addr_bad = !in_ram || (req_tail && req_tail_length != 0 && !tail_in_ram);
    wire dma_bad = req_dma_start && !req_start && (state_bad || len_bad || addr_bad);
    wire bad = csr_bad || dma_bad;
    wire [33:0] rows_up = req_length + (ROW - 1);

    // --- the neighbours --------------------------------------------------------------------
    reg [3:0] h_out [0:S-1];           // blocks fetched (or a CSR block) not out of the engine
    reg [7:0] h_age [0:S-1];           // cycles since the slot's job started
    reg [7:0] h_wait [0:S-1];          // cycles the slot's oldest outstanding block waited
    reg [S-1:0] h_may_more = 0;        // `more` may still be set (the job's work not done)
    integer s;
    initial for (s = 0; s < S; s = s + 1) begin h_out[s] = 0; h_age[s] = 0; h_wait[s] = 0; end

    wire [S-1:0] fetch_s, retire_s, abort_s, start_s, end_s;
    genvar g;
    generate for (g = 0; g < S; g = g + 1) begin : per_slot
        assign fetch_s[g] = past_valid && fetch_valid && fetch_slot == g;
        assign retire_s[g] = past_valid && retire_valid && retire_slot == g;
        assign abort_s[g] = past_valid && abort_valid && abort_slot == g;
        assign start_s[g] = past_valid && job_start && job_slot == g;
        // the spec's end of a job: nothing to fetch, nothing outstanding
        assign end_s[g] = h_act[g] && !more[g] && h_out[g] == 0;
        always @(*) if (past_valid) begin
            if (fetch_s[g]) assume(active[g] && more[g]);
            assume(h_out[g] + fetch_s[g] + (start_s[g] && job_csr) <= OUT);
            assume(retire_s[g] + abort_s[g] <= h_out[g]);
            if (more[g]) assume(h_may_more[g]);
            if (JOB != 0 && h_age[g] >= JOB) assume(!more[g]);
            if (JOB != 0 && h_out[g] != 0 && h_wait[g] >= RET) assume(retire_s[g] || abort_s[g]);
        end
        always @(posedge clk) begin
            h_out[g] <= h_out[g] + fetch_s[g] + (start_s[g] && job_csr) - retire_s[g] - abort_s[g];
            h_wait[g] <= (h_out[g] == 0 || retire_s[g] || abort_s[g]) ? 0 : h_wait[g] + (h_wait[g] != 8'hff);
            h_age[g] <= start_s[g] ? 0 : h_age[g] + (h_age[g] != 8'hff);
            if (past_valid && !more[g]) h_may_more[g] <= 0;
            if (end_s[g]) h_act[g] <= 0;
            if (start_s[g]) begin h_act[g] <= 1; h_may_more[g] <= 1; end
        end
    end endgenerate

    always @(posedge clk) begin
        if (past_valid && cv_taken) h_cv_pending <= 0;
        if (past_valid && job_start && req_load_cv && !req_first) h_cv_pending <= 1;
    end

    // --- properties ------------------------------------------------------------------------
    always @(*) if (past_valid) begin
        if (CHECKS[1]) if (job_start) assert(req && !bad);                                     // J1
        if (CHECKS[2]) if (req && !bad) begin                                                  // J2
            assert(job_start && job_slot == req_slot[SB-1:0] && job_csr == req_start);
            if (!req_start) begin
                assert(seg_row == req_base[31:LOGROW]);
                assert(seg_rows == (req_pad ? rows_up[31:LOGROW] : req_length[31:LOGROW]));
                assert(seg_tail_rows == (req_tail ? req_tail_length[31:LOGROW] : 0));
                if (req_tail) assert(seg_tail_row == req_tail_base[31:LOGROW]);
            end
        end
        if (CHECKS[3]) if (bad || refuse) assert(event_);                                      // J3
        if (CHECKS[4]) assert(active == h_act);                                                // J4
        if (AUX) assert(cv_pending == h_cv_pending);     // (auxiliary: the pending load_cv is the model's)
        if (CHECKS[4]) assert(st_busy == (h_act != 0));                                        // J4
        for (s = 0; s < S; s = s + 1) begin
            if (CHECKS[4]) if (JOB != 0 && h_act[s]) assert(h_age[s] <= BOUND);              // J4
            if (AUX) assert(h_out[s] <= OUT);
            if (AUX) assert(outst[4*s +: 4] == h_out[s]);    // (auxiliary: the slot's count is the model's)
        end
    end

    always @(posedge clk) if (past_valid && $past(past_valid)) begin
        if (CHECKS[3]) if ($past(bad)) begin                                                   // J3
            assert(st_done);
            if ($past(csr_bad ? (state_bad || csr_busy || req_out) : state_bad))
                assert(st_err_state);
            else if ($past(len_bad || csr_bad))
                assert(st_err_len);
            else
                assert(st_err_addr);
        end
        for (s = 0; s < S; s = s + 1) begin
            if (CHECKS[4]) if ($past(end_s[s])) assert(done_slots[s]);                          // J4
            if (CHECKS[5]) if (!$past(done_slots[s]) && done_slots[s]) assert($past(end_s[s]));   // J5
            if (CHECKS[5]) if ($past(ack_slots[s] && !end_s[s])) assert(!done_slots[s]);         // J5
        end
        if (CHECKS[4]) if ($past(end_s != 0)) assert(finish_cycles == $past(now));             // J4
        if (CHECKS[3]) if ($past(refuse)) assert(st_done && st_err_state);                     // J3
        if (CHECKS[6]) if ($past(ack && !bad && !refuse)) begin                                // J6
            assert(!st_err_len && !st_err_addr && !st_err_state);
            assert(!st_done || $past(end_s != 0));
            assert(!st_err_bus || $past(bus_error));
        end
        if (CHECKS[7]) begin                                                         // J7
            if ($past(bus_error)) assert(st_err_bus);
            if ($past(end_s != 0)) assert(st_done);
        end
    end
endmodule
