package timing

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

const golden = "../../testdata/golden"

// chainOps is the number of PTX operations in each b_* microbenchmark's
// timed region (lat_sm90.sass: 512 FADD between the two CS2R SR_CLOCKLO).
const chainOps = 512

// bench describes how to write one microbenchmark of latency_sm90.csv as PTX.
type bench struct {
	load    string   // the global load before the timed region ("" for none)
	setup   []string // untimed set-up after the load
	op      []string // one link of the dependent chain (may be several instructions)
	outcome MemClass // outcome of the chain's global loads
	sectors uint8
}

// benches maps a bench name to its PTX. The b_* benchmarks load their
// operand from global memory just before the first clock read, as
// lat_sm90.sass shows (LDG; CS2R; chain), so the chain's first op waits for
// that load inside the timed region: the buffer was copied from the host
// just before the launch, so the load is modelled as an L2 hit.
var benches = map[string]bench{
	"b_empty":        {load: "ld.global.f32 %f1, [%rd1];"},
	"b_add_f32":      {load: "ld.global.f32 %f1, [%rd1];", op: []string{"add.f32 %f1, %f1, %f2;"}},
	"b_mul_f32":      {load: "ld.global.f32 %f1, [%rd1];", op: []string{"mul.f32 %f1, %f1, %f2;"}},
	"b_fma_f32":      {load: "ld.global.f32 %f1, [%rd1];", op: []string{"fma.rn.f32 %f1, %f1, %f2, %f2;"}},
	"b_add_s32":      {load: "ld.global.u32 %r1, [%rd1];", op: []string{"add.s32 %r1, %r1, %r2;"}},
	"b_mul_lo_s32":   {load: "ld.global.u32 %r1, [%rd1];", op: []string{"mul.lo.s32 %r1, %r1, %r2;"}},
	"b_mad_lo_s32":   {load: "ld.global.u32 %r1, [%rd1];", op: []string{"mad.lo.s32 %r1, %r1, %r2, %r2;"}},
	"b_and_b32":      {load: "ld.global.u32 %r1, [%rd1];", op: []string{"and.b32 %r1, %r1, %r2;"}},
	"b_shl_b32":      {load: "ld.global.u32 %r1, [%rd1];", op: []string{"shl.b32 %r1, %r1, %r2;"}},
	"b_popc_b32":     {load: "ld.global.u32 %r1, [%rd1];", op: []string{"popc.b32 %r1, %r1;"}},
	"b_clz_b32":      {load: "ld.global.u32 %r1, [%rd1];", op: []string{"clz.b32 %r1, %r1;"}},
	"b_brev_b32":     {load: "ld.global.u32 %r1, [%rd1];", op: []string{"brev.b32 %r1, %r1;"}},
	"b_min_s32":      {load: "ld.global.u32 %r1, [%rd1];", op: []string{"min.s32 %r1, %r1, %r2;"}},
	"b_add_f64":      {load: "ld.global.f64 %fd1, [%rd1];", op: []string{"add.f64 %fd1, %fd1, %fd2;"}},
	"b_fma_f64":      {load: "ld.global.f64 %fd1, [%rd1];", op: []string{"fma.rn.f64 %fd1, %fd1, %fd2, %fd2;"}},
	"b_sin_approx":   {load: "ld.global.f32 %f1, [%rd1];", op: []string{"sin.approx.f32 %f1, %f1;"}},
	"b_ex2_approx":   {load: "ld.global.f32 %f1, [%rd1];", op: []string{"ex2.approx.f32 %f1, %f1;"}},
	"b_rsqrt_approx": {load: "ld.global.f32 %f1, [%rd1];", op: []string{"rsqrt.approx.f32 %f1, %f1;"}},
	"b_rcp_approx":   {load: "ld.global.f32 %f1, [%rd1];", op: []string{"rcp.approx.f32 %f1, %f1;"}},
	"b_sqrt_approx":  {load: "ld.global.f32 %f1, [%rd1];", op: []string{"sqrt.approx.f32 %f1, %f1;"}},
	"b_sqrt_rn":      {load: "ld.global.f32 %f1, [%rd1];", op: []string{"sqrt.rn.f32 %f1, %f1;"}},
	"b_div_rn_f32":   {load: "ld.global.f32 %f1, [%rd1];", op: []string{"div.rn.f32 %f1, %f1, %f2;"}},
	"b_div_full_f32": {load: "ld.global.f32 %f1, [%rd1];", op: []string{"div.full.f32 %f1, %f1, %f2;"}},
	"b_shfl_bfly":    {load: "ld.global.u32 %r1, [%rd1];", op: []string{"shfl.sync.bfly.b32 %r1, %r1, 1, 31, -1;"}},
	// lat_sm90.sass: the loaded value is only stored after the second clock read.
	"b_bar_sync": {load: "ld.global.u32 %r5, [%rd1];", op: []string{"bar.sync 0;"}},
	// Pointer chases (no load before the timed region): one hop per link.
	"chase_shared": {setup: []string{"mov.u32 %r1, 0;"}, op: []string{"ld.shared.u32 %r1, [%r1];"}, outcome: MemShared},
	"chase_global_l1_hit": {setup: []string{"mov.u32 %r1, 0;"}, outcome: MemL1Hit,
		op: []string{"mul.wide.u32 %rd3, %r1, 4;", "add.s64 %rd4, %rd1, %rd3;", "ld.global.ca.u32 %r1, [%rd4];"}},
	"chase_global_l2_hit": {setup: []string{"mov.u32 %r1, 0;"}, outcome: MemL2Hit,
		op: []string{"mul.wide.u32 %rd3, %r1, 4;", "add.s64 %rd4, %rd1, %rd3;", "ld.global.cg.u32 %r1, [%rd4];"}},
	"chase_global_dram": {setup: []string{"mov.u32 %r1, 0;"}, outcome: MemDRAM,
		op: []string{"mul.wide.u32 %rd3, %r1, 4;", "add.s64 %rd4, %rd1, %rd3;", "ld.global.cg.u32 %r1, [%rd4];"}},
	"chain_atom_shared": {setup: []string{"mov.u32 %r4, 0;"}, outcome: MemShared,
		op: []string{"atom.shared.add.u32 %r3, [%r4], %r2;", "shr.u32 %r5, %r3, 29;", "and.b32 %r6, %r5, 4;", "add.s32 %r4, %r2, %r6;"}},
	"chain_atom_global": {setup: []string{"mov.u64 %rd4, %rd1;"}, outcome: MemL2Hit,
		op: []string{"atom.global.add.u32 %r3, [%rd4], %r2;", "shr.u32 %r5, %r3, 31;", "mul.wide.u32 %rd3, %r5, 4;", "add.s64 %rd4, %rd1, %rd3;"}},
}

// folded lists the rows that do not measure a PTX latency, with the SASS
// evidence that is checked against lat_sm90.sass: ptxas folded the chain.
var folded = map[string]struct {
	fn, sassOp string // mangled function and the SASS op of the chain
	most       int    // the chain has at most this many of them
}{
	// x = x & a repeated is x & a: one LOP3.LUT instead of 512.
	"b_and_b32": {fn: "_Z9b_and_b32PiPxii", sassOp: "LOP3.LUT", most: 2},
}

// benchPTX writes the kernel of a bench with n links; it returns the text
// and the indices of the two clock reads.
func benchPTX(b bench, n int) (string, int, int) {
	var sb strings.Builder
	sb.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n")
	sb.WriteString(".visible .entry k(.param .u64 pp, .param .u32 pi, .param .f32 pf, .param .f64 pd)\n{\n")
	sb.WriteString(".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n.reg .f64 %fd<8>;\n")
	lines := []string{"ld.param.u64 %rd1, [pp];", "ld.param.u32 %r2, [pi];", "ld.param.f32 %f2, [pf];", "ld.param.f64 %fd2, [pd];"}
	if b.load != "" {
		lines = append(lines, b.load)
	}
	lines = append(lines, b.setup...)
	c1 := len(lines)
	lines = append(lines, "mov.u64 %rd5, %clock64;")
	for i := 0; i < n; i++ {
		lines = append(lines, b.op...)
	}
	c2 := len(lines)
	lines = append(lines, "mov.u64 %rd6, %clock64;", "st.global.u64 [%rd1], %rd6;", "ret;")
	for _, l := range lines {
		sb.WriteString("\t" + l + "\n")
	}
	sb.WriteString("}\n")
	return sb.String(), c1, c2
}

// straightStream is the dynamic stream of straight-line code: every PC once.
func straightStream(p *Program, chain MemClass, sectors uint8) WarpStream {
	s := make(WarpStream, len(p.Insts))
	for i := range s {
		e := Event{PC: int32(i), Active: 1, Sectors: sectors}
		switch p.Insts[i].Timing.Class {
		case latency.ClassLdShared, latency.ClassStShared, latency.ClassAtomShared:
			e.Mem = MemShared
		case latency.ClassLdGlobal, latency.ClassAtomGlobal:
			e.Mem = chain
			if chain == MemNone || chain == MemShared {
				e.Mem = MemL2Hit // the b_* operand load: in L2 after the host copy
			}
		case latency.ClassStGlobal:
			e.Mem = MemL2Hit
		}
		s[i] = e
	}
	return s
}

type csvRow struct {
	bench   string
	threads int
	cpo     float64
}

func readLatencyCSV(t *testing.T) []csvRow {
	t.Helper()
	f, err := os.Open(filepath.Join(golden, "latency_sm90.csv"))
	if err != nil {
		t.Fatalf("golden latency table: %v", err)
	}
	defer f.Close()
	var rows []csvRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(strings.TrimSpace(sc.Text()), ",")
		if len(fs) != 3 || fs[0] == "bench" {
			continue
		}
		th, err1 := strconv.Atoi(fs[1])
		v, err2 := strconv.ParseFloat(fs[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %q", sc.Text())
		}
		rows = append(rows, csvRow{fs[0], th, v})
	}
	if len(rows) == 0 {
		t.Fatal("empty latency table")
	}
	return rows
}

// sassCount counts the instructions with the given opcode in one function of
// lat_sm90.sass (stored gzipped: lat_sm90.sass.gz).
func sassCount(t *testing.T, fn, op string) int {
	t.Helper()
	f, err := os.Open(filepath.Join(golden, "lat_sm90.sass.gz"))
	if err != nil {
		t.Fatalf("lat_sm90.sass.gz: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("lat_sm90.sass.gz: %v", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("lat_sm90.sass.gz: %v", err)
	}
	in, n := false, 0
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "Function : ") {
			in = strings.Contains(l, "Function : "+fn)
			continue
		}
		if in && strings.Contains(l, " "+op+" ") {
			n++
		}
	}
	return n
}

// modelBench replays one bench and returns the modelled cycles per op.
func modelBench(t *testing.T, tab *latency.Table, name string, threads int) (float64, error) {
	b, ok := benches[name]
	if !ok {
		return 0, fmt.Errorf("no PTX written for %s", name)
	}
	n := chainOps
	if b.op == nil {
		n = 0
	}
	src, c1, c2 := benchPTX(b, n)
	mod, err := ptx.Parse(name+".ptx", []byte(src))
	if err != nil {
		return 0, fmt.Errorf("parse: %v", err)
	}
	prog, err := NewProgram(mod.Funcs[0], tab)
	if err != nil {
		return 0, err
	}
	sec := uint8(1)
	if threads >= 32 {
		sec = 4
	}
	warps := make([]WarpStream, max(1, threads/32))
	for i := range warps {
		warps[i] = straightStream(prog, b.outcome, sec)
	}
	var t1, t2 int64 = -1, -1
	cfg := Config{NumSMs: 1, BlocksPerSM: 1, Probe: func(blk, w, pos int, cyc int64) {
		if blk == 0 && w == 0 && pos == c1 {
			t1 = cyc
		}
		if blk == 0 && w == 0 && pos == c2 {
			t2 = cyc
		}
	}}
	if _, err := Run(context.Background(), prog, cfg, [][]WarpStream{warps}); err != nil {
		return 0, err
	}
	if t1 < 0 || t2 < 0 {
		return 0, fmt.Errorf("clock reads not issued")
	}
	return float64(t2-t1) / chainOps, nil
}

// TestMicrobenchmarks replays every row of latency_sm90.csv through the
// sm_90 table and the timing model: cycles per op within 10% of the H200.
func TestMicrobenchmarks(t *testing.T) {
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	var sumErr float64
	var n int
	for _, r := range readLatencyCSV(t) {
		if f, ok := folded[r.bench]; ok {
			if c := sassCount(t, f.fn, f.sassOp); c > f.most {
				t.Errorf("%s: listed as folded by ptxas but %s has %d %s", r.bench, f.fn, c, f.sassOp)
			}
			got, err := modelBench(t, tab, r.bench, r.threads)
			if err != nil {
				t.Errorf("%s: %v", r.bench, err)
				continue
			}
			t.Logf("%-22s %5d thr  measured %7.2f  modelled %7.2f  (not compared: ptxas folded the chain)", r.bench, r.threads, r.cpo, got)
			continue
		}
		got, err := modelBench(t, tab, r.bench, r.threads)
		if err != nil {
			t.Errorf("%s: %v", r.bench, err)
			continue
		}
		if r.cpo < 0.05 {
			if got > 0.05 {
				t.Errorf("%s: measured %.2f, modelled %.3f", r.bench, r.cpo, got)
			}
			t.Logf("%-22s %5d thr  measured %7.2f  modelled %7.2f", r.bench, r.threads, r.cpo, got)
			continue
		}
		rel := (got - r.cpo) / r.cpo
		sumErr += math.Abs(rel)
		n++
		t.Logf("%-22s %5d thr  measured %7.2f  modelled %7.2f  error %+6.1f%%", r.bench, r.threads, r.cpo, got, 100*rel)
		if math.Abs(rel) > 0.10 {
			t.Errorf("%s (%d threads): modelled %.2f cycles/op, measured %.2f (%+.1f%%)", r.bench, r.threads, got, r.cpo, 100*rel)
		}
	}
	if n > 0 {
		t.Logf("mean absolute error over %d rows: %.1f%%", n, 100*sumErr/float64(n))
	}
}
