package latency

import "github.com/kernelscope/kernelscope/gpu/arch"

// Sources, abbreviated in the comments below. Only the sm_90 values are
// measurements made for this project; the others were checked in November
// 2026 against what could be read of the public sources, and each comment
// says which of these it rests on:
//
//   - H200: calibrated to testdata/golden/latency_sm90.csv (dependent chains
//     of 512 PTX instructions timed with clock64 on an H200; the SASS each
//     became is in lat_sm90.sass). Each such value is the chain's cycles per
//     op minus the tail of the one global load that precedes the timed region
//     (see TestMicrobenchmarks in gpu/timing, which replays the whole
//     benchmark and checks the reproduction within 10%).
//   - CPG: CUDA C++ Programming Guide, "Arithmetic Instructions", table
//     "Throughput of Native Arithmetic Instructions" (results per clock per
//     SM; in CUDA 13 the table is in the Best Practices Guide, section
//     12.1.1). Issue interval per sub-partition = 128 / (results per clock
//     per SM): 4 sub-partitions, 32 lanes a warp. The guide itself could not
//     be opened here; the per-architecture numbers marked "CPG" were read in
//     copies of its table: openxla/xla
//     xla/stream_executor/cuda/cuda_core_info_table.cc (FP32 64 on 7.x and
//     8.0, 128 on 8.6 and 9.0; FP64 32 on 8.0, 64 on 9.0 and 10.0) and public
//     notes reproducing the table's 8.6 column (FP32 128, FP64 2). Numbers
//     marked "CPG, not re-read" are the guide's as remembered.
//   - ABD: Abdelkhalik et al., "Demystifying the Nvidia Ampere Architecture
//     through Microbenchmarking and Instruction-level Analysis" (HPEC 2022,
//     arXiv 2208.11174), A100. Read through the transcription of its tables
//     in "[A] Demystifying NVIDIA Ampere Architecture: Notes"
//     (https://kayzee3327.github.io/the-cuda-cache/blog/demystifying-ampere-arch),
//     numbered as there: Table 2 "CPI for dependent and independent
//     instructions", Table 4 "memory accesses latencies", Table 5
//     "Instructions Clock Cycles". Table 5 times single instructions
//     (add.f32 = 2, against 4 when dependent in Table 2), not dependent
//     chains, so it is quoted below but not adopted.
//   - LUO: Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU
//     Architecture" (arXiv 2402.13499v1), Table IV, memory latency in cycles
//     for A100 / RTX 4090 / H800 (shared, L1, L2, global): 29.0/37.9/261.5/
//     466.3, 30.1/43.4/273.0/541.5, 29.0/40.7/263.0/478.8. Read in a
//     third-party copy that cites v1 Table IV; the arXiv page's table itself
//     could not be opened here. Its H800 row does not match the H200
//     calibration (shared 29.0 vs 23, L2 263 vs 366): the methods differ, so
//     values taken from it are comparable across LUO's parts, less so with
//     sm_90.
//   - JIA: Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
//     Microbenchmarking" (2018) and "Dissecting the NVidia Turing T4 GPU via
//     Microbenchmarking" (arXiv 1903.07486). Not readable here; the only T4
//     numbers seen are those ABD quotes for Turing (L2 188, global 434).
//   - modelled: no source found; the comment gives the reasoning.

// builders fill a Table for each architecture (read-only).
var builders = map[string]func(*Table, *arch.Spec){
	"sm_75":  buildSM75,
	"sm_80":  buildSM80,
	"sm_86":  buildSM86,
	"sm_89":  buildSM89,
	"sm_90":  buildSM90,
	"sm_100": buildSM100,
	"sm_120": buildSM120,
}

func (t *Table) set(c Class, lat, issue int, p Pipe, d Dep) {
	t.ops[c] = Timing{Latency: lat, IssueCycles: issue, Pipe: p, Dep: d}
}

// bandwidth fills the bandwidths from the reference part of the spec.
func (t *Table) bandwidth(s *arch.Spec) {
	peak := 0.0
	if s.ClockMHz > 0 {
		peak = s.MemBandwidthGBs * 1000 / float64(s.ClockMHz) // bytes per SM clock
	}
	t.Mem.DRAMBytesPerCycle = 0.9 * peak // modelled: 90% of the spec-sheet peak (gpu/arch) is sustainable (STREAM-like kernels)
	t.Mem.L2BytesPerCycle = 2 * peak     // modelled: L2 bandwidth about twice DRAM bandwidth on these parts
	t.Mem.L1BytesPerCycle = 128          // CPG (not re-read): 32 shared-memory banks x 4 bytes per clock per SM
	t.Mem.L1LineCycles = 2.4             // H200 (testdata/measured/l1lines lat_K, one warp, K = 1..32 lines; modelled elsewhere)
	// H200 (testdata/measured/l1lines st_2, st_4, st_8, st_sec: calibration; st_16, st_32
	// validation); other architectures assumed alike
	t.Mem.L2StoreLinesPerCycle, t.Mem.L2PartialSectorsPerCycle = 72, 66
}

// buildSM90 is the H200 (GH100) table, calibrated on the golden microbenchmarks.
func buildSM90(t *Table, s *arch.Spec) {
	// Memory (H200). The chase benchmarks time one dependent hop
	// mul.wide.u32 + add.s64 + ld (PTX), so the load latency is the hop minus
	// the address arithmetic as this table models it (4 + 4 cycles).
	t.Mem.Shared = 23 // H200: chase_shared 23.03 cycles per hop, LDS R0,[R0+UR4] chain (no address arithmetic)
	t.Mem.L1Hit = 34  // H200: chase_global_l1_hit 41.61 - 8 (IMAD.WIDE in SASS; mul.wide + add.s64 here)
	t.Mem.L2Hit = 366 // H200: chase_global_l2_hit 374.32 - 8 (.cg loads; includes TLB effects of the large footprint)
	t.Mem.DRAM = 687  // H200: chase_global_dram 695.02 - 8
	t.bandwidth(s)
	// H200: 87.5% of the datasheet's 4.8 TB/s sustained (4.2 TB/s, 2,121 B/cycle at 1.98 GHz),
	// calibrated on testdata/measured/dram's float4 streaming read (2,128 B/cycle) and
	// a + b -> c (2,108); the scale launches (scale_sm90.json) are validation. Under load a
	// DRAM load also queues (gpu/timing dramload.go).
	t.Mem.DRAMBytesPerCycle = 0.875 * s.MemBandwidthGBs * 1000 / float64(s.ClockMHz)
	t.Bar = Barrier{ArriveCycles: 2, ReleaseCycles: 12} // H200: b_bar_sync 13.98 cycles/bar with 1 warp = 2+12, 75.99 with 32 warps = 32*2+12

	t.set(ClassOther, 4, 2, PipeINT, DepFixed)                // modelled: as the ALU ops measured below
	t.set(ClassMov, 2, 1, PipeINT, DepFixed)                  // modelled: ptxas removes or dual-issues most moves; half an ALU latency
	t.set(ClassIAdd, 2, 2, PipeINT, DepFixed)                 // H200: b_add_s32 2.99/op: ptxas fuses each pair of adds into one IMAD/LEA (~5 cycles); CPG 64/clk
	t.set(ClassIAdd64, 4, 4, PipeINT, DepFixed)               // modelled: IADD3 + IADD3.X (carry-dependent pair); two 64/clk ops
	t.set(ClassIMinMax, 2, 2, PipeINT, DepFixed)              // H200: b_min_s32 2.51/op: pairs fused into VIMNMX3 (4 cycles); CPG 64/clk
	t.set(ClassLogic, 4, 2, PipeINT, DepFixed)                // modelled: b_and_b32 is folded by ptxas into one LOP3 (no latency measurable); LOP3 assumed like SHF; CPG 64/clk
	t.set(ClassShift, 4, 2, PipeINT, DepFixed)                // H200: b_shl_b32 4.50/op (SHF.L.U32); CPG 64/clk
	t.set(ClassIMul, 4, 2, PipeINT, DepFixed)                 // H200: b_mul_lo_s32 4.52, b_mad_lo_s32 4.50 (IMAD); CPG 64/clk
	t.set(ClassIMul64, 12, 8, PipeINT, DepFixed)              // modelled: 3 dependent IMAD-class SASS ops (IMAD.WIDE.U32 + 2 IMAD)
	t.set(ClassIDiv, 85, 16, PipeINT, DepShort)               // modelled: I2F.RP + MUFU.RCP + F2I (3 x 17) + ~8 IMAD/IADD (4)
	t.set(ClassIDiv64, 300, 64, PipeINT, DepShort)            // modelled: __internal 64-bit division subroutine, ~70 dependent ops
	t.set(ClassBitCount, 17, 8, PipeSFU, DepShort)            // H200: b_popc_b32 17.50, b_brev_b32 17.50 (POPC, BREV); CPG 16/clk
	t.set(ClassClz, 23, 8, PipeSFU, DepShort)                 // H200: b_clz_b32 23.50 (FLO.U32 + IADD3 per op); CPG 16/clk
	t.set(ClassSetp, 4, 2, PipeINT, DepFixed)                 // modelled: ISETP/FSETP like the other ALU ops; CPG 64/clk compares
	t.set(ClassSelp, 4, 2, PipeINT, DepFixed)                 // modelled: SEL/FSEL like the other ALU ops
	t.set(ClassFAdd, 4, 1, PipeFP32, DepFixed)                // H200: b_add_f32 4.52, b_mul_f32 4.50, b_fma_f32 4.52 (FADD/FMUL/FFMA); CPG 128/clk
	t.set(ClassFMinMax, 4, 2, PipeINT, DepFixed)              // modelled: FMNMX runs on the ALU pipe; CPG 64/clk
	t.set(ClassF16, 4, 1, PipeFP32, DepFixed)                 // modelled: HADD2/HFMA2 on the FMA pipe like FFMA; CPG 256 half results/clk
	t.set(ClassFAdd64, 8, 2, PipeFP64, DepFixed)              // H200: b_add_f64 8.52, b_fma_f64 8.50 (DADD/DFMA); CPG 64/clk
	t.set(ClassDivFull, 12, 3, PipeFP32, DepFixed)            // H200: b_div_full_f32 12.54 (3 dependent FMULs; MUFU.RCP of the loop-invariant divisor hoisted)
	t.set(ClassDivRN, 297, 32, PipeFP32, DepShort)            // H200: b_div_rn_f32 297.50 (FCHK + call to the slow-path subroutine: the chain left the fast path's range)
	t.set(ClassSqrtRN, 130, 16, PipeFP32, DepShort)           // H200: b_sqrt_rn 130.88 (MUFU.RSQ + Newton FFMAs inside BSSY/BSYNC + call); rcp.rn assumed alike
	t.set(ClassDivRN64, 130, 32, PipeFP64, DepShort)          // modelled: MUFU.RCP64H + ~12 dependent DFMA (8) + checks, like sqrt.rn.f32's subroutine
	t.set(ClassMufu, 17, 8, PipeSFU, DepShort)                // H200: b_ex2_approx 17.53 (MUFU.EX2 chain); CPG 16/clk
	t.set(ClassRcpApprox, 41, 8, PipeSFU, DepShort)           // H200: b_rcp_approx 41.50 (FSETP/FSEL/FMUL scaling around MUFU.RCP)
	t.set(ClassRsqrtApprox, 39, 8, PipeSFU, DepShort)         // H200: b_rsqrt_approx 39.52, b_sqrt_approx 39.51; lg2 assumed alike
	t.set(ClassSinCos, 23, 8, PipeSFU, DepShort)              // H200: b_sin_approx 23.49 (FMUL.RZ + MUFU.SIN)
	t.set(ClassCvt, 17, 8, PipeSFU, DepShort)                 // modelled: I2F/F2I/F2F on the XU like MUFU (17 measured); CPG 16/clk conversions
	t.set(ClassCvtInt, 4, 2, PipeINT, DepFixed)               // modelled: sign/zero extension, f16 packing on the ALU
	t.set(ClassSReg, 20, 2, PipeMIO, DepShort)                // modelled: S2R is a variable-latency MIO read, ~ shared-load latency
	t.set(ClassClock, 2, 1, PipeINT, DepFixed)                // modelled: CS2R SR_CLOCKLO is fixed-latency
	t.set(ClassLdParam, 4, 1, PipeINT, DepFixed)              // modelled: parameters become c[] operands or LDC hits in the constant cache
	t.set(ClassLdShared, t.Mem.Shared, 1, PipeMIO, DepShort)  // H200: chase_shared (above)
	t.set(ClassStShared, 0, 1, PipeMIO, DepShort)             // no register result
	t.set(ClassLdGlobal, t.Mem.L1Hit, 1, PipeMemory, DepLong) // latency by outcome; the L1-hit value is the default
	t.set(ClassStGlobal, 0, 1, PipeMemory, DepLong)           // no register result
	t.set(ClassAtomShared, 26, 2, PipeMIO, DepShort)          // H200: chain_atom_shared 35.91 per hop - shr(4) - and(4) - add(2) (ATOMS.ADD)
	t.set(ClassAtomGlobal, 298, 2, PipeMemory, DepLong)       // H200: chain_atom_global 310.17 per hop - shr(4) - mul.wide(4) - add.s64(4) (ATOMG at L2)
	t.set(ClassShfl, 24, 4, PipeShuffle, DepShort)            // H200: b_shfl_bfly (32 threads) 24.54; CPG 32/clk
	t.set(ClassVote, 4, 2, PipeINT, DepFixed)                 // modelled: VOTE runs on the ALU
	t.set(ClassRedux, 24, 8, PipeShuffle, DepShort)           // modelled: like a shuffle; CPG 16/clk warp reductions
	t.set(ClassBra, 4, 2, PipeControl, DepFixed)              // modelled: cycles until the branch target can issue (branch_resolving)
	t.set(ClassCall, 8, 2, PipeControl, DepFixed)             // modelled: CALL/RET, two branch resolutions
	t.set(ClassExit, 0, 1, PipeControl, DepFixed)
	t.set(ClassBar, 0, 1, PipeControl, DepFixed)                // timed by t.Bar
	t.set(ClassMembarCTA, 4, 1, PipeControl, DepFixed)          // modelled: waits for the warp's outstanding accesses, then a few cycles
	t.set(ClassMembarGL, t.Mem.L2Hit, 1, PipeControl, DepFixed) // modelled: an L2 round trip after the outstanding accesses
	t.set(ClassNop, 0, 1, PipeINT, DepFixed)
	t.set(ClassTensor, 24, 6, PipeTensor, DepShort) // H200: dependent mma.m16n8k16.f32 chain 23.96 cycles; pipe 6 cycles per HMMA.16816 (ncu 768 active / 128; testdata/measured/tensor)
}

// buildSM100 is B200 (GB100): no measurements here; the H200 calibration is used.
func buildSM100(t *Table, s *arch.Spec) {
	// modelled: every latency and the memory system as calibrated on the H200
	// (no B200 microbenchmark could be read here); the issue intervals agree
	// with CPG 10.0 for FP32 (128/clk) and FP64 (64/clk, also in openxla/xla).
	buildSM90(t, s)
	t.bandwidth(s)
}

// consumerFP64 sets the FP64 timing of the parts with 2 FP64 results per clock per SM.
func consumerFP64(t *Table) {
	// Issue: CPG 2 FP64 results/clk/SM -> 64 cycles a warp (8.6 seen in a copy
	// of the table; 7.5, 8.9 and 12.0 are CPG, not re-read). Latency modelled:
	// no source read; 48 cycles (6 x the H200 DADD) is the order of a DFMA on
	// the 2/clk parts; a public RTX 2080 Ti in-core benchmark reports 48.2.
	t.set(ClassFAdd64, 48, 64, PipeFP64, DepShort)
	t.set(ClassDivRN64, 700, 512, PipeFP64, DepShort) // modelled: ~12 dependent DFMA at 48 plus checks
}

// buildSM120 is the RTX 5090 (GB202): modelled after sm_89.
func buildSM120(t *Table, s *arch.Spec) {
	// modelled: the Blackwell consumer SM is assumed to time like Ada's
	// (FP32 128/clk and FP64 2/clk as on 8.9: CPG, not re-read), memory
	// latencies included (LUO measured no Blackwell part).
	buildSM89(t, s)
	t.bandwidth(s)
}

// buildSM89 is the RTX 4090 (AD102).
func buildSM89(t *Table, s *arch.Spec) {
	// modelled: core pipe latencies as measured on the H200 (no Ada
	// instruction latency could be read here); FP32 128/clk (CPG, not re-read).
	buildSM90(t, s)
	consumerFP64(t)
	t.Mem.Shared = 30 // LUO Table IV, RTX 4090 shared memory 30.1
	t.Mem.L1Hit = 43  // LUO Table IV, RTX 4090 L1 cache 43.4
	t.Mem.L2Hit = 273 // LUO Table IV, RTX 4090 L2 cache 273.0
	t.Mem.DRAM = 542  // LUO Table IV, RTX 4090 global memory 541.5
	t.fixMem()
	t.bandwidth(s)
}

// buildSM86 is the RTX 3090 (GA102).
func buildSM86(t *Table, s *arch.Spec) {
	// modelled: core pipe latencies as on the H200 (no GA102 instruction
	// latency could be read here); FP32 128/clk and FP64 2/clk (CPG).
	buildSM90(t, s)
	consumerFP64(t)
	t.Mem.Shared = 23 // modelled: same SM generation as sm_80 (ABD Table 4, A100: 23)
	t.Mem.L1Hit = 33  // modelled: same SM generation as sm_80 (ABD Table 4, A100: 33)
	t.Mem.L2Hit = 230 // modelled: no GA102 measurement found; between the A100 (200-262) and RTX 4090 (273) values
	t.Mem.DRAM = 470  // modelled: no GA102 measurement found; GDDR6X placed between the A100 (466) and RTX 4090 (542)
	t.fixMem()
	t.bandwidth(s)
}

// buildSM80 is the A100 (GA100).
func buildSM80(t *Table, s *arch.Spec) {
	buildSM90(t, s)                              // modelled: classes ABD does not give keep the H200 values
	t.set(ClassFAdd, 4, 2, PipeFP32, DepFixed)   // ABD Table 2: mad.rn.f32 dependent CPI 4; CPG 8.0: 64 FP32 results/clk/SM
	t.set(ClassIAdd, 4, 2, PipeINT, DepFixed)    // ABD Table 2: add.u32 dependent CPI 4 (no pair fusion seen, unlike the H200's 2.99)
	t.set(ClassIMul, 3, 2, PipeINT, DepFixed)    // ABD Table 2: mul.lo.u32 dependent CPI 3
	t.set(ClassF16, 3, 1, PipeFP32, DepFixed)    // ABD Table 2: add.f16 dependent CPI 3; CPG 8.0: 256 half results/clk
	t.set(ClassFAdd64, 5, 4, PipeFP64, DepFixed) // ABD Table 2: add.f64 dependent CPI 5; CPG 8.0: 32 FP64/clk
	// modelled: ~12 dependent DFMA + checks, as for sm_90. ABD Table 5 times
	// div.rn.f64 at 426 (a single-instruction timing, not adopted).
	t.set(ClassDivRN64, 130, 64, PipeFP64, DepShort)
	t.Mem.Shared = 23 // ABD Table 4: shared memory load 23 (LUO Table IV: 29.0)
	t.Mem.L1Hit = 33  // ABD Table 4: L1 cache 33 (LUO Table IV: 37.9)
	t.Mem.L2Hit = 200 // ABD Table 4: L2 cache 200 (LUO Table IV: 261.5; A100's L2 has near and far partitions)
	t.Mem.DRAM = 466  // LUO Table IV: A100 global memory 466.3. ABD Table 4 gives 290, below the A100/H800 DRAM latencies LUO reports, so not used
	t.fixMem()
	t.bandwidth(s)
}

// buildSM75 is the T4 (TU104).
func buildSM75(t *Table, s *arch.Spec) {
	// modelled: core pipe latencies as on the H200 (JIA's T4 instruction
	// latencies could not be read here).
	buildSM90(t, s)
	t.set(ClassFAdd, 4, 2, PipeFP32, DepFixed) // CPG 7.x: 64 FP32 results/clk/SM; latency modelled as the H200's
	t.set(ClassF16, 4, 2, PipeFP32, DepFixed)  // CPG 7.5: 128 half results/clk/SM (not re-read); latency modelled
	consumerFP64(t)
	t.Mem.Shared = 19 // modelled: JIA's T4 value as remembered, not found in the sources read
	t.Mem.L1Hit = 32  // modelled: JIA's T4 value as remembered; ABD only says L1 latency is comparable across generations
	t.Mem.L2Hit = 188 // ABD (memory-latency discussion, Turing for comparison): L2 188
	t.Mem.DRAM = 434  // ABD (memory-latency discussion, Turing for comparison): global memory 434
	t.fixMem()
	t.bandwidth(s)
}

// fixMem re-derives the classes whose timing follows the memory latencies.
func (t *Table) fixMem() {
	t.ops[ClassLdShared].Latency = t.Mem.Shared
	t.ops[ClassLdGlobal].Latency = t.Mem.L1Hit
	t.ops[ClassMembarGL].Latency = t.Mem.L2Hit
	t.ops[ClassAtomShared].Latency = t.Mem.Shared + 3 // modelled: H200 offset (26 vs 23)
	t.ops[ClassAtomGlobal].Latency = t.Mem.L2Hit      // modelled: atomics are served at L2
	// The barrier (t.Bar) and every class not set by a builder keep the H200
	// values on all architectures: modelled.
}
