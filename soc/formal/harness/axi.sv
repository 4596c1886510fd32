// SPDX-License-Identifier: BSD-2-Clause
// The AXI4 burst reader (soc/peripheral/axi_reader.py, AXIBurstReader) around `ld_axi` made by
// Migen, SHA configuration. The environment is the peripheral's (as in dma.sv: jobs only on
// free slots with their segments in main RAM, `allow` for running jobs only, anything else
// free) and an AXI4 slave that returns, in order, the beats of the bursts it accepted (RVALID
// only while beats are owed; ARREADY, RVALID and RRESP otherwise arbitrary).
// The harness's model: each slot's rows still to request (h_row/h_rows, h_trow/h_trows), the
// rows of the latest fetch still to be requested on AR (h_ar_row/h_ar_rows), the beats
// owed by the slave, the blocks in the buffer (per slot and in all), the slots whose job a
// bus error abandoned; and one fetched block, chosen by the solver, with the blocks ahead
// of it in the buffer.
//   X1 AR handshake: ARVALID stays until ARREADY with ARADDR, ARLEN, ARSIZE, ARBURST unchanged;
//   X2 burst shape: INCR, ARSIZE the row, 1..RPB beats, row-aligned, ARID 0; the write
//      channels stay idle (AWVALID, WVALID low);
//   X3 no burst crosses a 4 KiB boundary;
//   X4 no more outstanding than allowed: the beats requested and not yet received never
//      exceed what the buffer holds (DEPTH blocks of RPB rows), a slot never has more than
//      PER_SLOT blocks in the buffer (what SlotControl's count allows for);
//   X5 no read outside the programmed segments: every burst reads the next rows of the
//      fetched slot's segment, then its tail, in order, none twice, none past the end;
//   X6 RREADY: low for at most DEPTH cycles in a row while beats are owed (a block without
//      rows to receive is skipped in one cycle);
//   X7 the block stream: source valid held until ready with its slot and flags unchanged,
//      also when a bus error abandons the slot while its block is shown (a finding of these
//      proofs, fixed: docs/RELIABILITY.md);
//      blocks leave (shown and taken, or dropped) in the order they were fetched; a fetch
//      only for an allowed slot with work, not paused;
//   X8 a bus error (RRESP != OKAY) abandons the slot's job: no block of it is shown until its
//      next job (but the one shown when the error came, held until taken), its blocks are
//      dropped (abort), nothing more is requested for it.
`include "job_env.svh"

module axi_formal #(
    parameter S = 1, SB = 1,
    parameter RPB = 8,
    parameter LOGROW = 3,
    parameter RB = 29,
    parameter DEPTH = 16,
    parameter PER_SLOT = 8,
    parameter [31:0] RAM_BASE_ROW = 32'h8000000,
    parameter [31:0] RAM_END_ROW = 32'h8008000,
    parameter PW = 5,                  // ring pointer bits (with the wrap bit)
    parameter ERB = 4,                 // bits of an entry's row count
    parameter AUX = 1,
    parameter RLOW = 1,                 // check X6 (BMC only: not inductive)
    parameter [15:0] CHECKS = 16'hffff   // the property groups checked (bit n: group n)
) (
    input clk,
    `LD_JOB_INPUTS,
    input ar_ready, r_valid,
    input [1:0] r_resp,
    input src_ready,
    input pick
);
    localparam ROW = 1 << LOGROW;
    localparam BB = $clog2(RPB) > 0 ? $clog2(RPB) : 1;

    `LD_RESET_CYCLE

    wire ar_valid, r_ready, aw_valid, w_valid;
    wire [31:0] ar_addr;
    wire [7:0] ar_len;
    wire [2:0] ar_size;
    wire [1:0] ar_burst;
    wire [3:0] ar_cache;
    wire ar_id;
    wire [S-1:0] more;
    wire fetch_valid, abort_valid, bus_error;
    wire [SB-1:0] fetch_slot, abort_slot, src_slot;
    wire src_valid, src_first, src_last, src_load_cv;
    wire [3:0] src_variant;
    wire [SB-1:0] t_fill_slot;         // the slot of the block the beats fill (the design's)
    // auxiliary ports: the design's state the model is checked against (for the induction)
    wire [PW-1:0] aux_used, aux_filled, aux_head;
    wire [SB*DEPTH-1:0] aux_e_slot;
    wire [ERB*DEPTH-1:0] aux_e_rows;
    wire [8*S-1:0] aux_in_buf;
    wire [S-1:0] aux_drop, aux_pmore;
    wire aux_ar_busy;
    wire [RB-1:0] aux_ar_row;
    wire [7:0] aux_ar_rows, aux_beat;
    wire [S*RB-1:0] aux_cur_row, aux_cur_rows, aux_tail_row, aux_tail_rows;

    ld_axi dut (
        .sys_clk(clk), .sys_rst(rst),
        .aw_valid(aw_valid), .w_valid(w_valid),
        .ar_valid(ar_valid), .ar_ready(ar_ready), .ar_payload_addr(ar_addr),
        .ar_payload_len(ar_len), .ar_payload_size(ar_size), .ar_payload_burst(ar_burst),
        .ar_payload_cache(ar_cache), .ar_param_id(ar_id),
        .r_valid(r_valid), .r_ready(r_ready), .r_payload_resp(r_resp),
        `LD_READER_PORTS,
        .aux_fill_slot(t_fill_slot),
        .aux_used(aux_used), .aux_filled(aux_filled), .aux_head(aux_head),
        .aux_e_slot(aux_e_slot), .aux_e_rows(aux_e_rows), .aux_in_buf(aux_in_buf),
        .aux_drop(aux_drop), .aux_pmore(aux_pmore), .aux_ar_busy(aux_ar_busy),
        .aux_ar_row(aux_ar_row), .aux_ar_rows(aux_ar_rows), .aux_beat(aux_beat),
        .aux_cur_row(aux_cur_row), .aux_cur_rows(aux_cur_rows), .aux_tail_row(aux_tail_row),
        .aux_tail_rows(aux_tail_rows)
    );

    // --- the model ------------------------------------------------------------------------
    `LD_JOB_MODEL
    (* mem2reg *) reg [7:0] h_buf [0:S-1];      // the slot's blocks in the buffer
    reg [S-1:0] h_err = 0;
    reg h_held = 0;                    // the block on source was shown and not taken last cycle
    always @(posedge clk) h_held <= src_valid && !src_ready;
    reg [RB-1:0] h_ar_row = 0;
    reg [7:0] h_ar_rows = 0;
    reg [SB-1:0] h_ar_slot = 0;
    reg [15:0] h_beats = 0;            // beats owed by the slave
    reg [7:0] h_total = 0;             // blocks in the buffer
    reg [7:0] h_rlow = 0;              // cycles RREADY was low while beats were owed
    reg tracking = 0, tracked_done = 0;
    reg [SB-1:0] t_slot = 0;
    reg [7:0] t_ahead = 0;
    initial for (s = 0; s < S; s = s + 1) h_buf[s] = 0;

    wire fetch = past_valid && fetch_valid;
    wire ar = past_valid && ar_valid && ar_ready;
    wire beat = past_valid && r_valid && r_ready;
    wire take = past_valid && src_valid && src_ready;
    wire abort = past_valid && abort_valid;
    wire release_ = take || abort;
    wire [SB-1:0] rel_slot = src_valid ? src_slot : abort_slot;
    wire [RB-1:0] f_rows = h_rows[fetch_slot];
    wire [RB-1:0] f_live = f_rows >= RPB ? RPB : f_rows;
    wire [11:0] ar_off = ar_addr[11:0];
    wire [12:0] ar_end = ar_off + ((ar_len + 1) << LOGROW);

    // the environment: the peripheral's jobs (job_env.svh), the slave's beats
    `LD_JOB_START_ENV
    always @(*) if (past_valid) if (h_beats == 0) assume(!r_valid);

    always @(posedge clk) begin
        if (past_valid) begin
            h_beats <= h_beats + (ar ? ar_len + 1 : 0) - beat;
            h_total <= h_total + fetch - release_;
            h_rlow <= (h_beats != 0 && !r_ready) ? h_rlow + 1 : 0;
            for (s = 0; s < S; s = s + 1)
                h_buf[s] <= h_buf[s] + (fetch && fetch_slot == s) - (release_ && rel_slot == s);
            if (ar) begin
                h_ar_row <= h_ar_row + ar_len + 1;
                h_ar_rows <= h_ar_rows - (ar_len + 1);
            end
            if (fetch) begin           // the block's rows: the next of the segment (or none)
                h_ar_slot <= fetch_slot;
                h_ar_row <= h_row[fetch_slot];
                h_ar_rows <= f_live;
                if (f_rows <= RPB && h_trows[fetch_slot] != 0) begin
                    h_row[fetch_slot] <= h_trow[fetch_slot];
                    h_rows[fetch_slot] <= h_trows[fetch_slot];
                    h_trows[fetch_slot] <= 0;
                end else begin
                    h_row[fetch_slot] <= h_row[fetch_slot] + f_live;
                    h_rows[fetch_slot] <= f_rows - f_live;
                end
            end
            if (bus_error) begin       // the slot of the block being filled
                h_err[t_fill_slot] <= 1;
                h_rows[t_fill_slot] <= 0;
                h_trows[t_fill_slot] <= 0;
            end
            // tracking one block through the buffer
            if (tracking && release_) begin
                if (t_ahead != 0) t_ahead <= t_ahead - 1;
                else begin tracking <= 0; tracked_done <= 1; end
            end
            if (!tracking && !tracked_done && fetch && pick) begin
                tracking <= 1;
                t_slot <= fetch_slot;
                t_ahead <= h_total - release_;
            end
            for (s = 0; s < S; s = s + 1)
                if (h_act[s] && !more[s] && h_buf[s] == 0 && !(fetch && fetch_slot == s)) h_act[s] <= 0;
            if (job_start) begin
                `LD_JOB_MODEL_START
                h_err[job_slot] <= 0;
            end
        end
    end


    // --- properties ------------------------------------------------------------------------
    always @(*) if (past_valid) begin
        if (CHECKS[2]) assert(!aw_valid && !w_valid);                                          // X2
        if (ar_valid) begin
            if (CHECKS[2]) assert(ar_burst == 2'b01 && ar_size == LOGROW && ar_id == 0);       // X2
            if (CHECKS[2]) assert(ar_len < RPB && ar_addr[LOGROW-1:0] == 0);                   // X2
            if (CHECKS[3]) assert(ar_end <= 4096);                                             // X3
            if (CHECKS[5]) assert(ar_addr[31:LOGROW] == h_ar_row && ar_len < h_ar_rows);       // X5
        end
        if (CHECKS[4]) assert(h_beats <= DEPTH * RPB);                                         // X4
        if (CHECKS[4]) assert(h_total <= DEPTH);                                               // X4
        if (CHECKS[4]) for (s = 0; s < S; s = s + 1) assert(h_buf[s] <= PER_SLOT);             // X4
        if (CHECKS[6]) if (RLOW) assert(h_rlow <= DEPTH);                                      // X6
        if (CHECKS[7]) if (fetch) assert(allow[fetch_slot] && more[fetch_slot] && !pause);     // X7
        if (CHECKS[7]) if (tracking && t_ahead == 0 && release_) assert(rel_slot == t_slot);   // X7
        if (AUX && tracking) assert(t_ahead < h_total);
        if (CHECKS[8]) if (src_valid) assert(h_total != 0 && (!h_err[src_slot] || h_held));     // X8
        if (CHECKS[8]) if (abort) assert(h_err[abort_slot] && !src_valid && h_total != 0);     // X8
        if (CHECKS[8]) if (fetch) assert(!h_err[fetch_slot]);                                  // X8
        if (CHECKS[7]) assert((more & ~h_act) == 0);                                           // X7
        if (AUX) begin : aux_checks
            // the model is the design's: blocks in the buffer, per slot, abandoned slots, the
            // rows still to request, the burst being requested, the beats owed, the order
            reg [15:0] owed;
            reg [7:0] n [0:S-1];
            reg [7:0] sum;
            integer i, j;
            assert(aux_used == h_total && aux_filled <= aux_used);
            assert(aux_drop == h_err);
            owed = 0;
            for (i = 0; i < DEPTH; i = i + 1)
                if (((i - aux_head - aux_filled) & (DEPTH - 1)) < aux_used - aux_filled)
                    owed = owed + aux_e_rows[ERB*i +: ERB];
            assert(h_beats + aux_beat + (aux_ar_busy ? aux_ar_rows : 0) == owed);
            for (i = 0; i < DEPTH; i = i + 1) assert(aux_e_rows[ERB*i +: ERB] <= RPB);
            if (aux_filled == aux_used) assert(aux_beat == 0);
            else assert(aux_beat == 0 || aux_beat < aux_e_rows[ERB*((aux_head + aux_filled) & (DEPTH - 1)) +: ERB]);
            // the entries in the buffer belong to the slots the model counts
            sum = 0;
            for (j = 0; j < S; j = j + 1) begin
                n[j] = 0;
                sum = sum + h_buf[j];
            end
            for (i = 0; i < DEPTH; i = i + 1)
                if (((i - aux_head) & (DEPTH - 1)) < aux_used)
                    for (j = 0; j < S; j = j + 1)
                        if (aux_e_slot[SB*i +: SB] == j) n[j] = n[j] + 1;
            assert(sum == h_total);
            for (j = 0; j < S; j = j + 1) assert(n[j] == h_buf[j]);
            assert(aux_ar_busy ? (aux_ar_row == h_ar_row && aux_ar_rows == h_ar_rows) : h_ar_rows == 0);
            for (i = 0; i < S; i = i + 1) begin
                assert(aux_in_buf[8*i +: 8] == h_buf[i]);
                assert(aux_cur_rows[RB*i +: RB] == h_rows[i] && aux_tail_rows[RB*i +: RB] == h_trows[i]);
                if (h_rows[i] != 0) assert(aux_cur_row[RB*i +: RB] == h_row[i]);
                if (h_trows[i] != 0) assert(aux_tail_row[RB*i +: RB] == h_trow[i]);
                if (!h_act[i]) assert(h_rows[i] == 0 && h_trows[i] == 0 && h_buf[i] == 0);
                if (!h_pad[i]) assert(!aux_pmore[i] && h_rows[i][BB-1:0] == 0 && h_trows[i][BB-1:0] == 0);
                if (h_pad[i]) assert(h_trows[i] == 0);
                if (h_rows[i] == 0) assert(h_trows[i] == 0);
                if (h_err[i]) assert(h_rows[i] == 0 && h_trows[i] == 0 && !aux_pmore[i]);
                if (h_rows[i] != 0) assert(h_row[i] >= RAM_BASE_ROW && h_row[i] + h_rows[i] <= RAM_END_ROW);
                if (h_trows[i] != 0) assert(h_trow[i] >= RAM_BASE_ROW && h_trow[i] + h_trows[i] <= RAM_END_ROW);
            end
            if (h_ar_rows != 0) assert(h_ar_row >= RAM_BASE_ROW && h_ar_row + h_ar_rows <= RAM_END_ROW
                                       && h_ar_rows <= RPB && h_act[h_ar_slot] && h_ar_slot < S);
            if (tracking) assert(aux_e_slot[SB*((aux_head + t_ahead) & (DEPTH - 1)) +: SB] == t_slot);
        end
    end

    always @(posedge clk) if (past_valid && $past(past_valid)) begin
        if (CHECKS[1]) if ($past(ar_valid && !ar_ready))                                       // X1
            assert(ar_valid && $stable(ar_addr) && $stable(ar_len) && $stable(ar_size)
                   && $stable(ar_burst) && $stable(ar_cache));
        if (CHECKS[7]) if ($past(src_valid && !src_ready)) begin                               // X7
            assert(src_valid && $stable(src_slot) && $stable(src_first) && $stable(src_last)
                   && $stable(src_load_cv) && $stable(src_variant));
        end
    end
endmodule
