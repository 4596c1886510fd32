// SPDX-License-Identifier: BSD-2-Clause
// The Wishbone DMA reader (soc/peripheral/dma_reader.py, DMAReader) around `ld_dma` made by
// Migen, SHA configuration (no tweak stage: its port reads zero). The environment is what the
// peripheral gives the reader (core.py wiring, SlotControl's checks proven in slots.sv):
//   - a job starts only on a slot of the reader, with no job running there (a job runs from
//     its start until its slot has nothing more to fetch and the reader holds no block of
//     it); a DMA job's segments lie in main RAM [RAM_BASE_ROW, RAM_END_ROW), whole blocks of
//     rows unless a `pad` job (its rows: the message's bytes rounded up, no tail);
//   - `allow` names running jobs only; `pause`, `source.ready` and the flags are free;
//   - the bus answers (ack or err, not both) only a request; with ACKW > 0 (fairness, the
//     bound D8) within ACKW cycles.
// The harness's model of each slot: the rows still to read in the current segment and the
// tail (h_row/h_rows, h_trow/h_trows), the job's flags; and which slot the reader fetches
// for (h_fs, from `fetch`) and the blocks it holds (fetched, not yet out or dropped).
//   D1 no read outside the programmed segments: every request reads the slot's next row of
//      its segment, then of the tail: in order, none skipped, none twice, none after a bus
//      error abandoned the job;
//   D2 Wishbone (classic, reads only): cyc == stb, we low, all byte lanes; a request is held
//      with the same address until ack or err; no request without a fetch;
//   D3 the block stream: source valid held until ready, payload (data, slot, flags) stable;
//   D4 one fill buffer: at most one block held; a fetch starts only when none is held (or the
//      held one leaves in that cycle); the block shown and a dropped fetch are the slot's
//      fetched;
//   D5 a fetch only for a slot allowed, with work, not paused;
//   D6 `more` only for a running job, and set while the job has rows left;
//   D7 `last` exactly on the last block of a job with `last` (not checked for a pad job: its
//      last block is the padding's);
//   D8 with the fairness: a fetch ends (its block shown, or dropped) within RPB*(ACKW+1)+1
//      cycles.
`include "job_env.svh"

module dma_formal #(
    parameter S = 4, SB = 2,
    parameter RPB = 4,                 // rows per block
    parameter LOGROW = 4,              // log2 of the row bytes
    parameter RB = 28,                 // row address bits
    parameter [31:0] RAM_BASE_ROW = 32'h4000000,
    parameter [31:0] RAM_END_ROW = 32'h4004000,
    parameter ACKW = 0,
    parameter AUX = 1,
    parameter NOPAD = 0,               // (debugging: no pad jobs)
    parameter [15:0] CHECKS = 16'hffff   // the property groups checked (bit n: group n)
) (
    input clk,
    `LD_JOB_INPUTS,
    input bus_ack, bus_err,
    input src_ready
);
    localparam BB = $clog2(RPB) > 0 ? $clog2(RPB) : 1;     // log2 of a block's rows

    `LD_RESET_CYCLE

    wire [RB-1:0] adr;
    wire cyc, stb, we;
    wire [(1 << LOGROW)-1:0] sel;
    wire [S-1:0] more;
    wire fetch_valid, abort_valid, bus_error;
    wire [SB-1:0] fetch_slot, abort_slot, src_slot;
    wire src_valid, src_first, src_last, src_load_cv;
    wire [3:0] src_variant;
    wire [RPB*(8 << LOGROW)-1:0] src_data;
    wire [S*RB-1:0] aux_cur_row, aux_cur_rows, aux_tail_row, aux_tail_rows;
    wire [SB-1:0] aux_fs;
    wire [S-1:0] aux_jlast;
    wire filling;
    wire [7:0] aux_fill_cnt;
    wire [S-1:0] aux_pmore;
    wire [S-1:0] aux_live;

    ld_dma dut (
        .sys_clk(clk), .sys_rst(rst),
        .bus_adr(adr), .bus_cyc(cyc), .bus_stb(stb), .bus_we(we), .bus_sel(sel),
        .bus_ack(bus_ack), .bus_err(bus_err),
        `LD_READER_PORTS,
        .source_payload_data(src_data),
        .aux_cur_row(aux_cur_row), .aux_cur_rows(aux_cur_rows), .aux_tail_row(aux_tail_row),
        .aux_tail_rows(aux_tail_rows), .aux_fs(aux_fs),
        .aux_jlast(aux_jlast), .filling(filling), .aux_fill_cnt(aux_fill_cnt), .aux_pmore(aux_pmore),
        .aux_live(aux_live)
    );

    // --- the model ------------------------------------------------------------------------
    `LD_JOB_MODEL
    reg [S-1:0] h_last = 0;
    reg [SB-1:0] h_fs = 0;             // the slot of the latest fetch
    reg [1:0] h_hold = 0;              // blocks fetched and not yet out or dropped
    reg [7:0] h_wait = 0, h_fetch_age = 0;

    wire req = past_valid && cyc && stb;
    wire take = past_valid && src_valid && src_ready;
    wire fetch = past_valid && fetch_valid;
    wire abort = past_valid && abort_valid;
    wire ack = req && bus_ack;
    wire [S-1:0] held;                 // the slot of the block held (fetching or shown)
    genvar g;
    generate for (g = 0; g < S; g = g + 1) begin : per_slot
        assign held[g] = h_hold != 0 && h_fs == g;
    end endgenerate

    // the environment: the peripheral's jobs (job_env.svh), the bus
    `LD_JOB_START_ENV
    always @(*) if (past_valid) begin
        if (NOPAD) assume(!job_pad);
        assume(!(bus_ack && bus_err));
        if (!req) assume(!bus_ack && !bus_err);
        if (ACKW != 0 && req && h_wait >= ACKW) assume(bus_ack || bus_err);
    end

    always @(posedge clk) begin
        h_wait <= req && !bus_ack && !bus_err ? h_wait + 1 : 0;
        h_fetch_age <= fetch ? 0 : h_fetch_age + (h_fetch_age != 8'hff);
        if (past_valid) begin
            h_hold <= h_hold + fetch - take - abort;
            if (fetch) h_fs <= fetch_slot;
            if (ack) begin
                if (h_rows[h_fs] == 1 && h_trows[h_fs] != 0) begin
                    h_row[h_fs] <= h_trow[h_fs];
                    h_rows[h_fs] <= h_trows[h_fs];
                    h_trows[h_fs] <= 0;
                end else begin
                    h_row[h_fs] <= h_row[h_fs] + 1;
                    h_rows[h_fs] <= h_rows[h_fs] - 1;
                end
            end
            if (req && bus_err) begin          // the job is abandoned
                h_rows[h_fs] <= 0;
                h_trows[h_fs] <= 0;
            end
            for (s = 0; s < S; s = s + 1)
                if (h_act[s] && !more[s] && !held[s] && !(fetch && fetch_slot == s)) h_act[s] <= 0;
            if (job_start) begin
                `LD_JOB_MODEL_START
                h_last[job_slot] <= job_last;
            end
        end
    end

    // --- properties ------------------------------------------------------------------------
    always @(*) if (past_valid) begin
        if (CHECKS[1]) if (req) assert(h_rows[h_fs] != 0 && adr == h_row[h_fs]);              // D1
        if (CHECKS[2]) assert(cyc == stb && !we && &sel);                                      // D2
        if (CHECKS[2]) if (req) assert(h_hold == 1 && !src_valid);                             // D2
        if (CHECKS[4]) assert(h_hold <= 1);                                                    // D4
        if (CHECKS[4]) if (fetch) assert(h_hold == 0 || take);                                 // D4
        if (CHECKS[4]) if (src_valid) assert(h_hold == 1 && src_slot == h_fs);                 // D4
        if (CHECKS[4]) if (abort) assert(h_hold == 1 && !src_valid && abort_slot == h_fs);     // D4
        if (CHECKS[5]) if (fetch) assert(allow[fetch_slot] && more[fetch_slot] && !pause);     // D5
        if (CHECKS[6]) assert((more & ~h_act) == 0);                                           // D6
        for (s = 0; s < S; s = s + 1)
            if (CHECKS[6]) if (h_rows[s] != 0 || h_trows[s] != 0) assert(more[s] || (held[s] && h_hold != 0 && !src_valid));  // D6
        if (CHECKS[7]) if (src_valid && !h_pad[src_slot])                                      // D7
            assert(src_last == (h_last[src_slot] && h_rows[src_slot] == 0 && h_trows[src_slot] == 0));
        if (CHECKS[8]) if (ACKW != 0 && h_hold != 0 && !src_valid) begin                       // D8
            assert(h_fetch_age <= RPB * (ACKW + 1) + 1);
            if (AUX) assert(h_fetch_age <= aux_fill_cnt * (ACKW + 1) + h_wait + 1 && h_wait <= ACKW);
        end
        // (auxiliary: the reader's row pointers and fetched slot are the model's)
        if (AUX) for (s = 0; s < S; s = s + 1) begin
            if (!h_act[s]) assert(h_rows[s] == 0 && h_trows[s] == 0);
            assert(aux_cur_rows[RB*s +: RB] == h_rows[s] && aux_tail_rows[RB*s +: RB] == h_trows[s]);
            assert(aux_live[s] == (h_rows[s] != 0));    // the reader's own "rows left" bit
            if (h_rows[s] != 0) assert(aux_cur_row[RB*s +: RB] == h_row[s]);
            if (h_trows[s] != 0) assert(aux_tail_row[RB*s +: RB] == h_trow[s]);
        end
        if (AUX && h_hold != 0) assert(aux_fs == h_fs);
        if (AUX) assert(h_hold == (filling || src_valid) && !(filling && src_valid));
        if (AUX) assert(aux_fill_cnt <= RPB && (!filling || aux_fill_cnt < RPB));
        if (AUX) for (s = 0; s < S; s = s + 1) begin
            // a segment stays in main RAM; a DMA job's rows left are whole blocks but for the
            // rows of the block being filled
            if (h_rows[s] != 0) assert(h_row[s] >= RAM_BASE_ROW && h_row[s] + h_rows[s] <= RAM_END_ROW);
            if (h_trows[s] != 0) assert(h_trow[s] >= RAM_BASE_ROW && h_trow[s] + h_trows[s] <= RAM_END_ROW);
            if (h_pad[s]) assert(h_trows[s] == 0);
            if (!h_pad[s]) begin
                assert(!aux_pmore[s]);
                assert(h_trows[s][BB-1:0] == 0);
                if (filling && h_fs == s)
                    assert(((h_rows[s] + aux_fill_cnt) & (RPB - 1)) == 0 || (h_rows[s] == 0 && h_trows[s] == 0));
                else
                    assert((h_rows[s] & (RPB - 1)) == 0);
            end
        end
        if (AUX) assert(aux_jlast == h_last && h_fs < S && (h_hold == 0 || h_act[h_fs]));
    end

    always @(posedge clk) if (past_valid && $past(past_valid)) begin
        if (CHECKS[2]) if ($past(req && !bus_ack && !bus_err))                                // D2
            assert(req && $stable(adr));
        if (CHECKS[3]) if ($past(src_valid && !src_ready))                                     // D3
            assert(src_valid && $stable(src_slot) && $stable(src_first) && $stable(src_last)
                   && $stable(src_load_cv) && $stable(src_variant)
                   && $stable(src_data));
    end
endmodule
