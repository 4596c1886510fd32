// SPDX-License-Identifier: BSD-2-Clause
// The environment the harnesses share, one macro each, so what several proofs assume (and how
// the two DMA readers' harnesses declare, model and wire their jobs) is written once: axi.sv,
// dma.sv and engine.sv (and slots.sv, for the reset; engine.sv's two harnesses for the engine) include this file and use the macros in
// their module (the names each macro reads are listed above it).
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

// A DMA reader's job inputs, free but for the assumptions above, in the harness's port list:
// a job's start, slot and flags, its segments (rows of RB bits), `allow` (a bit a slot) and
// `pause`. Reads: S, SB, RB.
`define LD_JOB_INPUTS \
    input job_start, input [SB-1:0] job_slot, input job_csr, job_first, job_last, job_pad, \
    input [RB-1:0] seg_row, seg_rows, seg_tail_row, seg_tail_rows, \
    input [31:0] seg_bytes, \
    input [S-1:0] allow, \
    input pause

// The harness's model of a DMA reader's jobs: which slots run one (h_act), which of them is a
// DMA `pad` job (h_pad), and each slot's rows still to read: the segment's next row and count
// (h_row, h_rows), then the tail's (h_trow, h_trows); `s`, the harnesses' slot index. At a job
// start (LD_JOB_MODEL_START, in the harness's clocked block, under `if (job_start)`) the slot
// runs with the rows of its segments, none for a CSR job. Reads: S, RB, the job ports, seg_*.
`define LD_JOB_MODEL \
    (* mem2reg *) reg [RB-1:0] h_row [0:S-1]; \
    (* mem2reg *) reg [RB-1:0] h_rows [0:S-1]; \
    (* mem2reg *) reg [RB-1:0] h_trow [0:S-1]; \
    (* mem2reg *) reg [RB-1:0] h_trows [0:S-1]; \
    reg [S-1:0] h_act = 0, h_pad = 0; \
    integer s; \
    initial for (s = 0; s < S; s = s + 1) begin \
        h_row[s] = 0; h_rows[s] = 0; h_trow[s] = 0; h_trows[s] = 0; \
    end

`define LD_JOB_MODEL_START \
    h_act[job_slot] <= 1; \
    h_pad[job_slot] <= job_pad && !job_csr; \
    h_row[job_slot] <= job_csr ? 0 : seg_row; \
    h_rows[job_slot] <= job_csr ? 0 : seg_rows; \
    h_trow[job_slot] <= seg_tail_row; \
    h_trows[job_slot] <= job_csr ? 0 : seg_tail_rows;

// A DMA reader's job, block and fetch ports (ld_dma, ld_axi: the same DMA reader interface)
// wired to the harness's signals of the same names, in a port list: the job (no tweak stage, no
// load_cv, variant 0), its segments, allow/pause/more, the fetches and aborts, the block
// stream's handshake and tags. Reads: S, the job ports, seg_*, allow, pause, more, fetch_*,
// abort_*, bus_error, src_*.
`define LD_READER_PORTS \
        .job_start(job_start), .job_slot(job_slot), .job_csr(job_csr), .job_first(job_first), \
        .job_load_cv(1'b0), .job_last(job_last), .job_variant(4'd0), .job_out(1'b0), \
        .job_pad(job_pad), \
        .segments_row(seg_row), .segments_rows(seg_rows), .segments_tail_row(seg_tail_row), \
        .segments_tail_rows(seg_tail_rows), .segments_bytes(seg_bytes), \
        .allow(allow), .pause(pause), .more(more), \
        .fetch_valid(fetch_valid), .fetch_slot(fetch_slot), \
        .abort_valid(abort_valid), .abort_slot(abort_slot), .bus_error(bus_error), \
        .tweak_out_pending({S{1'b0}}), \
        .source_valid(src_valid), .source_ready(src_ready), .source_first(src_first), \
        .source_last(src_last), .source_payload_slot(src_slot), \
        .source_payload_load_cv(src_load_cv), .source_payload_variant(src_variant)

// A result sink that stalls (out_valid and not out_ready, `stall`) at most STALL cycles in a
// row when STALL > 0 (fairness, for the induction); `stall_run` counts the stalled cycles in
// a row. Reads: clk, stall, STALL, out_valid, out_ready.
`define LD_SINK_FAIRNESS \
    reg [7:0] stall_run = 0; \
    always @(posedge clk) stall_run <= stall ? stall_run + 1 : 0; \
    always @(*) if (STALL != 0 && stall_run >= STALL && out_valid) assume(out_ready);

// The two engine harnesses' view of `ld_engine`'s streams: the wires of the engine's outputs
// (LD_ENGINE_WIRES, reads SB, DB), the stream ports of the instance (LD_ENGINE_PORTS, in its
// port list), a block accepted / the result sink stalled / a result taken (LD_ENGINE_HANDSHAKES,
// reads past_valid and the wires), the blocks accepted and not yet taken and the non-stalled
// cycles the oldest of them has waited (LD_ENGINE_COUNT_DECL, LD_ENGINE_COUNT_STEP in the
// clocked block; reads IN_FLIGHT, LAT, AW and the handshakes), and the start of following the
// block accepted (LD_ENGINE_FOLLOW, in the clocked block: its slot, last flag and ages).
`define LD_ENGINE_WIRES \
    wire in_ready, out_valid, out_last; \
    wire [SB-1:0] out_slot; \
    wire [DB-1:0] out_digest;

`define LD_ENGINE_PORTS \
    .sys_clk(clk), .sys_rst(rst), \
    .sink_valid(in_valid), .sink_ready(in_ready), \
    .sink_last(in_last), .sink_payload_slot(in_slot), \
    .source_valid(out_valid), .source_ready(out_ready), \
    .source_last(out_last), .source_payload_slot(out_slot), \
    .source_payload_digest(out_digest)

`define LD_ENGINE_HANDSHAKES \
    wire acc = past_valid && in_valid && in_ready; \
    wire stall = past_valid && out_valid && !out_ready; \
    wire pop = past_valid && out_valid && out_ready;

`define LD_ENGINE_COUNT_DECL \
    reg [3:0] count = 0; \
    reg [AW-1:0] wait_ = 0;

`define LD_ENGINE_COUNT_STEP \
    if (count <= IN_FLIGHT + 1) \
        count <= count + acc - pop; \
    if (pop || count == 0) \
        wait_ <= (count - pop + acc != 0); \
    else if (!stall && wait_ <= LAT) \
        wait_ <= wait_ + 1;

`define LD_ENGINE_FOLLOW \
    tracking <= 1; \
    t_slot <= in_slot; \
    t_last <= in_last; \
    age <= 1; \
    real_age <= 1;

`endif
