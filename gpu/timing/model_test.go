package timing

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// kernel parses a kernel body (one instruction a line) into a Program.
func kernel(t testing.TB, arch string, body ...string) *Program {
	t.Helper()
	src := ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 pp)\n{\n" +
		".reg .pred %p<8>;\n.reg .b32 %r<64>;\n.reg .f32 %f<64>;\n.reg .b64 %rd<64>;\n.reg .f64 %fd<64>;\n" +
		strings.Join(body, "\n") + "\n}\n"
	mod, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	tab, err := latency.For(arch)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewProgram(mod.Funcs[0], tab)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// repeat returns n copies of the lines produced by f(i).
func repeat(n int, f func(i int) string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// linear is the stream of straight-line code with one memory outcome for all memory instructions.
func linear(p *Program, mem MemClass, sectors uint8) WarpStream {
	s := make(WarpStream, len(p.Insts))
	for i := range s {
		s[i] = Event{PC: int32(i), Active: ^uint32(0), Sectors: sectors}
		switch p.Insts[i].Timing.Pipe {
		case latency.PipeMemory:
			s[i].Mem = mem
		case latency.PipeMIO:
			s[i].Mem = MemShared
		}
	}
	return s
}

// onSubpartition0 places streams on warps 0, 4, 8 ... of one block (sub-partition 0).
func onSubpartition0(streams ...WarpStream) []WarpStream {
	b := make([]WarpStream, 4*(len(streams)-1)+1)
	for i, s := range streams {
		b[4*i] = s
	}
	return b
}

func run1(t *testing.T, p *Program, cfg Config, blocks ...[]WarpStream) *Result {
	t.Helper()
	if cfg.NumSMs == 0 {
		cfg.NumSMs = 1
	}
	if cfg.BlocksPerSM == 0 {
		cfg.BlocksPerSM = 1
	}
	r, err := Run(context.Background(), p, cfg, blocks)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func within(t *testing.T, what string, got, lo, hi int64) {
	t.Helper()
	if got < lo || got > hi {
		t.Errorf("%s = %d, want in [%d, %d]", what, got, lo, hi)
	}
}

// Independent FP32 adds: one warp issues one per cycle (FP32 issue interval 1
// on sm_90); four warps on one sub-partition share its single issue slot.
func TestIssueOnePerCycle(t *testing.T) {
	const n = 200
	p := kernel(t, "sm_90", repeat(n, func(i int) string { return fmt.Sprintf("add.f32 %%f%d, %%f40, %%f41;", i%32) })...)
	one := run1(t, p, Config{}, []WarpStream{linear(p, MemNone, 0)})
	within(t, "1 warp cycles", one.Cycles, n, n+5)
	s := linear(p, MemNone, 0)
	four := run1(t, p, Config{}, onSubpartition0(s, s, s, s))
	within(t, "4 warps cycles", four.Cycles, 4*n, 4*n+5)
	if four.States[NotSelected] < 3*n-10 {
		t.Errorf("4 warps: not_selected = %d warp-cycles, want about %d", four.States[NotSelected], 3*n*4/4*3)
	}
	if four.Issued != 4*n || four.States[Selected] != 4*n {
		t.Errorf("issued %d, selected %d; want %d", four.Issued, four.States[Selected], 4*n)
	}
	// The same four warps on four sub-partitions issue in parallel.
	par := run1(t, p, Config{}, []WarpStream{s, s, s, s})
	within(t, "4 warps on 4 sub-partitions", par.Cycles, n, n+5)
}

// A dependent FP32 chain waits 4 cycles per op ("wait"); 4 warps on one
// sub-partition hide that latency completely and 8 are issue-bound.
func TestLatencyHiding(t *testing.T) {
	const n = 100
	p := kernel(t, "sm_90", repeat(n, func(int) string { return "add.f32 %f1, %f1, %f2;" })...)
	s := linear(p, MemNone, 0)
	one := run1(t, p, Config{}, []WarpStream{s})
	within(t, "1 warp chain", one.Cycles, 4*n-4, 4*n+4)
	within(t, "1 warp wait cycles", one.States[Wait], 3*n-5, 3*n+5)
	four := run1(t, p, Config{}, onSubpartition0(s, s, s, s))
	within(t, "4 warps chain", four.Cycles, 4*n-4, 4*n+8)
	eight := run1(t, p, Config{}, onSubpartition0(s, s, s, s, s, s, s, s))
	within(t, "8 warps chain", eight.Cycles, 8*n-4, 8*n+8)
	// The issue slot is busy every cycle but the last op's latency.
	if idle := eight.Cycles - eight.Issued; idle > 8 {
		t.Errorf("8 warps: %d idle issue cycles: latency not hidden", idle)
	}
	// Greedy-then-oldest: the oldest warps run first, the younger wait not selected.
	if eight.States[NotSelected] < 4*4*n-20 {
		t.Errorf("8 warps: not_selected %d, want about %d", eight.States[NotSelected], 4*4*n)
	}
}

// FP64 issues every 2 cycles on sm_90 (CPG: 64 results/clk/SM) and every
// 64 cycles on sm_86: the pipe, not the scheduler, limits.
func TestPipeThroughput(t *testing.T) {
	const n = 64
	body := repeat(n, func(i int) string { return fmt.Sprintf("add.f64 %%fd%d, %%fd40, %%fd41;", i%32) })
	p := kernel(t, "sm_90", body...)
	r := run1(t, p, Config{}, []WarpStream{linear(p, MemNone, 0)})
	within(t, "sm_90 fp64 cycles", r.Cycles, 2*n-2, 2*n+10)
	if r.States[MathPipeThrottle] < n-4 {
		t.Errorf("math_pipe_throttle = %d, want about %d", r.States[MathPipeThrottle], n)
	}
	p86 := kernel(t, "sm_86", body...)
	r86 := run1(t, p86, Config{}, []WarpStream{linear(p86, MemNone, 0)})
	within(t, "sm_86 fp64 cycles", r86.Cycles, 64*(n-1), 64*n+64)
	if r.PipeBusy[latency.PipeFP64] != 2*n {
		t.Errorf("FP64 pipe busy %d, want %d", r.PipeBusy[latency.PipeFP64], 2*n)
	}
}

// A warp waiting for a DRAM load reports long_scoreboard for about the DRAM
// latency, charged to the consuming instruction.
func TestLongScoreboard(t *testing.T) {
	p := kernel(t, "sm_90", "ld.param.u64 %rd1, [pp];", "ld.global.f32 %f1, [%rd1];", "add.f32 %f2, %f1, %f1;", "ret;")
	r := run1(t, p, Config{}, []WarpStream{linear(p, MemDRAM, 4)})
	dram := int64(p.Table.Mem.DRAM)
	within(t, "long_scoreboard", r.States[LongScoreboard], dram-5, dram+5)
	within(t, "long_scoreboard at the add", r.PerPC[2][LongScoreboard], dram-5, dram+5)
	if r.PerPC[1][LongScoreboard] != 0 {
		t.Errorf("stall charged to the load itself: %d", r.PerPC[1][LongScoreboard])
	}
	l1 := run1(t, p, Config{}, []WarpStream{linear(p, MemL1Hit, 4)})
	if l1.Cycles >= r.Cycles {
		t.Errorf("L1 hit (%d cycles) not faster than DRAM (%d)", l1.Cycles, r.Cycles)
	}
}

// A barrier holds the early warp until the late one arrives.
func TestBarrier(t *testing.T) {
	const n = 100
	body := append(repeat(n, func(int) string { return "@%p1 add.f32 %f1, %f1, %f2;" }), "bar.sync 0;", "add.f32 %f3, %f4, %f4;")
	p := kernel(t, "sm_90", body...)
	full := linear(p, MemNone, 0)
	short := WarpStream{full[n], full[n+1]} // skips the chain (branch around it)
	r := run1(t, p, Config{}, []WarpStream{full, short})
	within(t, "barrier warp-cycles", r.States[Barrier], 4*n-10, 4*n+30)
	if r.PerPC[n][Barrier] != r.States[Barrier] {
		t.Errorf("barrier stalls not charged to the bar.sync: %d of %d", r.PerPC[n][Barrier], r.States[Barrier])
	}
	// A warp that exits without reaching the barrier does not hold it.
	r2 := run1(t, p, Config{}, []WarpStream{full[:n], short})
	if r2.States[Barrier] > 4*n+30 {
		t.Errorf("exited warp held the barrier: %d", r2.States[Barrier])
	}
}

// Blocks beyond the occupancy limit wait for a slot: waves.
func TestWaves(t *testing.T) {
	const n = 100
	p := kernel(t, "sm_90", repeat(n, func(int) string { return "add.f32 %f1, %f1, %f2;" })...)
	s := linear(p, MemNone, 0)
	blk := []WarpStream{s}
	oneWave := run1(t, p, Config{BlocksPerSM: 3}, blk, blk, blk)
	threeWaves := run1(t, p, Config{BlocksPerSM: 1, RefillCycles: -1, DispatchMilli: -1}, blk, blk, blk)
	within(t, "one wave", oneWave.Cycles, 4*n-4, 4*n+10)
	within(t, "three waves", threeWaves.Cycles, 3*(4*n-4), 3*(4*n+4))
	// with the H200's refill latency each later wave starts BlockRefillCycles after the
	// block before it retired, the time charged as no_instruction
	refilled := run1(t, p, Config{BlocksPerSM: 1}, blk, blk, blk)
	within(t, "three waves with refill", refilled.Cycles, 3*(4*n-4)+2*BlockRefillCycles, 3*(4*n+4)+2*BlockRefillCycles+2)
	if got := refilled.States[NoInstruction]; got != 2*BlockRefillCycles {
		t.Errorf("no_instruction %d warp-cycles, want %d (two refills of one warp)", got, 2*BlockRefillCycles)
	}
	if threeWaves.Waves != 3 || oneWave.Waves != 1 {
		t.Errorf("waves %v and %v, want 3 and 1", threeWaves.Waves, oneWave.Waves)
	}
	spread := run1(t, p, Config{NumSMs: 3, BlocksPerSM: 1}, blk, blk, blk)
	within(t, "three SMs", spread.Cycles, 4*n-4, 4*n+10)
}

// AddBlock keeps only the resident blocks in memory.
func TestStreamingBounded(t *testing.T) {
	p := kernel(t, "sm_90", "add.f32 %f1, %f1, %f2;", "add.f32 %f1, %f1, %f2;")
	m, err := New(p, Config{NumSMs: 2, BlocksPerSM: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if err := m.AddBlock(context.Background(), []WarpStream{linear(p, MemNone, 0), linear(p, MemNone, 0)}); err != nil {
			t.Fatal(err)
		}
		if len(m.pending) > 4 {
			t.Fatalf("%d blocks resident, limit 4", len(m.pending))
		}
	}
	r, err := m.Finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.Blocks != 100 || r.Issued != 400 {
		t.Errorf("blocks %d issued %d, want 100 and 400", r.Blocks, r.Issued)
	}
	if _, err := m.Finish(context.Background()); !errors.Is(err, ErrFinished) {
		t.Errorf("second Finish: %v", err)
	}
}

// Many warps streaming from DRAM are limited by DRAM bandwidth, not latency.
func TestDRAMBandwidth(t *testing.T) {
	const loads = 16
	body := []string{"ld.param.u64 %rd1, [pp];"}
	body = append(body, repeat(loads, func(i int) string {
		return fmt.Sprintf("ld.global.v4.f32 {%%f%d, %%f%d, %%f%d, %%f%d}, [%%rd1];", 4*i%32, 4*i%32+1, 4*i%32+2, 4*i%32+3)
	})...)
	p := kernel(t, "sm_90", body...)
	s := linear(p, MemDRAM, 16) // 16 sectors: 512 bytes per request
	blk := make([]WarpStream, 32)
	for i := range blk {
		blk[i] = s
	}
	var blocks [][]WarpStream
	for i := 0; i < 132*2; i++ {
		blocks = append(blocks, blk)
	}
	r := run1(t, p, Config{NumSMs: 132, BlocksPerSM: 2}, blocks...)
	bytes := float64(132 * 2 * 32 * loads * 512)
	floor := int64(bytes / p.Table.Mem.DRAMBytesPerCycle)
	if r.Cycles < floor {
		t.Errorf("%d cycles for %.0f bytes: faster than DRAM bandwidth allows (%d)", r.Cycles, bytes, floor)
	}
	if r.Cycles > floor+int64(2*p.Table.Mem.DRAM)+2000 {
		t.Errorf("%d cycles, want close to the bandwidth floor %d", r.Cycles, floor)
	}
	if r.DRAMBytes != int64(bytes) {
		t.Errorf("DRAM bytes %d, want %.0f", r.DRAMBytes, bytes)
	}
}

// Uncoalesced shared accesses (more wavefronts) queue on the SM's MIO.
func TestSharedWavefronts(t *testing.T) {
	const n = 32
	p := kernel(t, "sm_90", repeat(n, func(i int) string { return fmt.Sprintf("ld.shared.f32 %%f%d, [%%r1];", i%32) })...)
	fast := run1(t, p, Config{}, []WarpStream{linear(p, MemShared, 1)})
	slow := run1(t, p, Config{}, []WarpStream{linear(p, MemShared, 32)})
	if slow.Cycles < int64(n*32) {
		t.Errorf("32-way conflicts: %d cycles, want at least %d", slow.Cycles, n*32)
	}
	if fast.Cycles > int64(n+p.Table.Mem.Shared+10) {
		t.Errorf("conflict-free: %d cycles", fast.Cycles)
	}
	if slow.States[MIOThrottle] == 0 {
		t.Errorf("no mio_throttle with 32-way conflicts")
	}
}

// Bad input is an error, never a panic.
func TestBadInput(t *testing.T) {
	p := kernel(t, "sm_90", "add.f32 %f1, %f1, %f2;")
	if _, err := New(p, Config{BlocksPerSM: 0}); err == nil {
		t.Error("BlocksPerSM 0 accepted")
	}
	if _, err := New(nil, Config{BlocksPerSM: 1}); err == nil {
		t.Error("nil program accepted")
	}
	m, _ := New(p, Config{BlocksPerSM: 1})
	if err := m.AddBlock(context.Background(), []WarpStream{{{PC: 5}}}); err == nil {
		t.Error("out-of-range PC accepted")
	}
	if err := m.AddBlock(context.Background(), nil); err == nil {
		t.Error("empty block accepted")
	}
	if err := m.AddBlock(context.Background(), []WarpStream{{}, {}}); err != nil {
		t.Errorf("block of empty warps: %v", err)
	}
	r, err := m.Finish(context.Background())
	if err != nil || r.Issued != 0 {
		t.Errorf("empty replay: %v, %+v", err, r)
	}
	if _, err := NewProgram(nil, p.Table); err == nil {
		t.Error("nil function accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := kernel(t, "sm_90", repeat(2000, func(int) string { return "add.f32 %f1, %f1, %f2;" })...)
	if _, err := Run(ctx, long, Config{BlocksPerSM: 1}, [][]WarpStream{{linear(long, MemNone, 0)}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}

// The timeline of a warp covers its life without gaps, and stall names are Nsight's.
func TestTimeline(t *testing.T) {
	p := kernel(t, "sm_90", "ld.param.u64 %rd1, [pp];", "ld.global.f32 %f1, [%rd1];", "add.f32 %f2, %f1, %f1;", "st.global.f32 [%rd1], %f2;")
	r := run1(t, p, Config{TimelineWarps: 1}, []WarpStream{linear(p, MemL2Hit, 1)})
	if len(r.Timelines) != 1 {
		t.Fatalf("%d timelines", len(r.Timelines))
	}
	tl := r.Timelines[0]
	var prev int64
	var sawLong bool
	for i, iv := range tl.Intervals {
		if iv.Start != prev || iv.End <= iv.Start {
			t.Fatalf("interval %d %+v does not follow %d", i, iv, prev)
		}
		prev = iv.End
		sawLong = sawLong || iv.State == LongScoreboard
	}
	if prev != tl.Finish || !sawLong {
		t.Errorf("timeline ends at %d, warp finished at %d; long_scoreboard seen %v", prev, tl.Finish, sawLong)
	}
	if LongScoreboard.String() != "long_scoreboard" || MathPipeThrottle.String() != "math_pipe_throttle" || Reason(200).String() == "" {
		t.Error("reason names")
	}
}

// Random streams over a program with every kind of instruction never panic,
// and every warp-cycle is charged to exactly one state.
func TestRandomStreams(t *testing.T) {
	p := kernel(t, "sm_90", "ld.param.u64 %rd1, [pp];", "ld.global.f32 %f1, [%rd1];", "ld.shared.f32 %f2, [%r1];",
		"add.f32 %f3, %f1, %f2;", "bar.sync 0;", "@%p1 bra $L1;", "st.global.f32 [%rd1], %f3;", "membar.gl;",
		"atom.global.add.u32 %r2, [%rd1], 1;", "shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;", "div.rn.f64 %fd1, %fd2, %fd3;",
		"$L1:", "st.shared.f32 [%r1], %f3;", "ret;")
	seed := uint64(1)
	rnd := func(n int) int { // xorshift: deterministic, no global state
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	for iter := 0; iter < 30; iter++ {
		var blocks [][]WarpStream
		for b := 0; b < 1+rnd(5); b++ {
			nw := 1 + rnd(40)
			blk := make([]WarpStream, nw)
			for w := range blk {
				n := rnd(60)
				for i := 0; i < n; i++ {
					blk[w] = append(blk[w], Event{PC: int32(rnd(len(p.Insts))), Active: uint32(rnd(1 << 30)),
						Mem: MemClass(rnd(6)), Sectors: uint8(rnd(40)), DRAMSectors: uint8(rnd(40))})
				}
			}
			blocks = append(blocks, blk)
		}
		r, err := Run(context.Background(), p, Config{NumSMs: 1 + rnd(3), BlocksPerSM: 1 + rnd(3), TimelineWarps: 5, MaxIntervals: 1 + rnd(50)}, blocks)
		if err != nil {
			t.Fatal(err)
		}
		var events int64
		for _, b := range blocks {
			for _, w := range b {
				events += int64(len(w))
			}
		}
		if r.Issued != events || r.States[Selected] != events {
			t.Fatalf("iteration %d: issued %d, selected %d, events %d", iter, r.Issued, r.States[Selected], events)
		}
		var perPC int64
		for _, s := range r.PerPC {
			for _, v := range s {
				perPC += v
			}
		}
		var total int64
		for _, v := range r.States {
			total += v
		}
		if perPC != total {
			t.Fatalf("iteration %d: per-PC states %d != total %d", iter, perPC, total)
		}
	}
	bad := &Program{Insts: []Inst{{Src: []int32{7}}}, Table: p.Table}
	if _, err := New(bad, Config{BlocksPerSM: 1}); err == nil {
		t.Error("register id beyond the program accepted")
	}
	bad = &Program{Insts: []Inst{{Timing: latency.Timing{Pipe: latency.NumPipes}}}, Table: p.Table}
	if _, err := New(bad, Config{BlocksPerSM: 1}); err == nil {
		t.Error("bad pipe accepted")
	}
}

// bar.arrive does not wait; bar.warp.sync is not a block barrier; stalls sum by line.
func TestArriveAndLines(t *testing.T) {
	p := kernel(t, "sm_90", "bar.arrive 1, 64;", "bar.warp.sync -1;", "add.f32 %f1, %f1, %f2;")
	r := run1(t, p, Config{}, []WarpStream{linear(p, MemNone, 0), linear(p, MemNone, 0)[:1]})
	if r.States[Barrier] != 0 {
		t.Errorf("bar.arrive or bar.warp.sync waited: %d barrier cycles", r.States[Barrier])
	}
	byLine := LineStalls(p, r, false)
	var sum int64
	for _, s := range byLine {
		sum += s[Selected]
	}
	if sum != r.Issued || len(LineStalls(nil, nil, true)) != 0 {
		t.Errorf("line stalls: selected %d, issued %d", sum, r.Issued)
	}
}

// Several functions share one PC space and keep their registers apart.
func TestProgramFuncs(t *testing.T) {
	src := ".version 8.0\n.target sm_90\n.address_size 64\n" +
		".func f()\n{\n.reg .f32 %f<4>;\nadd.f32 %f1, %f1, %f2;\nret;\n}\n" +
		".visible .entry k()\n{\n.reg .f32 %f<4>;\nadd.f32 %f1, %f2, %f3;\ncall f, ();\nret;\n}\n"
	mod, err := ptx.Parse("m.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	var k, f *ptx.Func
	for _, fn := range mod.Funcs {
		if fn.Entry {
			k = fn
		} else {
			f = fn
		}
	}
	p, err := NewProgramFuncs(tab, k, f)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Insts) != len(k.Insts)+len(f.Insts) {
		t.Fatalf("%d instructions", len(p.Insts))
	}
	if kd, fd := p.Insts[0].Dst[0], p.Insts[len(k.Insts)].Dst[0]; kd == fd {
		t.Errorf("%%f1 of the kernel and of f share register id %d", kd)
	}
	if _, err := NewProgramFuncs(tab); err == nil {
		t.Error("no function accepted")
	}
	if _, err := NewProgramFuncs(nil, k); err == nil {
		t.Error("nil table accepted")
	}
	if _, err := NewProgramFuncs(tab, k, nil); err == nil {
		t.Error("nil function accepted")
	}
}
