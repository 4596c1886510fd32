// SPDX-License-Identifier: BSD-2-Clause
// The environment the harnesses share, one macro each, so a property every proof assumes is
// written once: axi.sv, dma.sv and engine.sv (and slots.sv, for the reset) include this file
// and use the macros in their module (the names each macro reads are listed above it).
// Macros rather than included module bodies: a macro expands on one line, so the lines of the
// assertions after it, which the proofs' reports map to property groups, are the file's own.
`ifndef LD_JOB_ENV_SVH
`define LD_JOB_ENV_SVH

// The design starts with a cycle of reset (LiteX's CRG resets the system clock domain):
// `past_valid` is low in the first cycle only, `rst` is the unit's reset. Reads: clk.
`define LD_RESET_CYCLE \
    reg past_valid = 0; \
    wire rst = !past_valid; \
    always @(posedge clk) past_valid <= 1;

// A DMA reader's jobs as the peripheral starts them (core.py's wiring, SlotControl's checks
// proven in slots.sv): a job starts only on a slot of the reader with no job running there
// (`h_act`, the harness's model of the running jobs); a DMA job's segments lie in main RAM
// [RAM_BASE_ROW, RAM_END_ROW), whole blocks of rows (BB: log2 of a block's rows) unless a
// `pad` job (its rows: the message's bytes rounded up to rows, no tail); a CSR job is no pad
// job; `allow` names running jobs only. Reads: S, LOGROW, BB, RAM_BASE_ROW, RAM_END_ROW, the
// job ports (job_start, job_slot, job_csr, job_pad, seg_*), allow, h_act, past_valid.
`define LD_JOB_START_ENV \
    wire [33:0] pad_rows = (seg_bytes + (1 << LOGROW) - 1) >> LOGROW; \
    always @(*) if (past_valid) begin \
        if (job_start) begin \
            assume(!h_act[job_slot] && job_slot < S); \
            if (!job_csr) begin \
                assume(seg_row >= RAM_BASE_ROW && seg_row + seg_rows <= RAM_END_ROW); \
                if (job_pad) \
                    assume(seg_rows == pad_rows && seg_tail_rows == 0); \
                else begin \
                    assume(seg_rows != 0 && seg_rows[BB-1:0] == 0 && seg_tail_rows[BB-1:0] == 0); \
                    assume(seg_tail_rows == 0 || \
                           (seg_tail_row >= RAM_BASE_ROW && seg_tail_row + seg_tail_rows <= RAM_END_ROW)); \
                end \
                assume({seg_row, {LOGROW{1'b0}}} + seg_bytes <= {RAM_END_ROW, {LOGROW{1'b0}}}); \
            end else \
                assume(!job_pad); \
        end \
        assume((allow & ~h_act) == 0); \
    end

// A result sink that stalls (out_valid and not out_ready, `stall`) at most STALL cycles in a
// row when STALL > 0 (fairness, for the induction); `stall_run` counts the stalled cycles in
// a row. Reads: clk, stall, STALL, out_valid, out_ready.
`define LD_SINK_FAIRNESS \
    reg [7:0] stall_run = 0; \
    always @(posedge clk) stall_run <= stall ? stall_run + 1 : 0; \
    always @(*) if (STALL != 0 && stall_run >= STALL && out_valid) assume(out_ready);

`endif
