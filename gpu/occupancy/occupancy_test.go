package occupancy

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

const golden = "../../testdata/golden/"

func mustSpec(t *testing.T, name string) *arch.Spec {
	t.Helper()
	s, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCudaOccupancyHeaderTable checks every row of NVIDIA's cuda_occupancy.h table.
func TestCudaOccupancyHeaderTable(t *testing.T) {
	f, err := os.Open(golden + "occupancy_cuda_occupancy_h.csv")
	if err != nil {
		t.Fatalf("open golden: %v", err)
	}
	defer f.Close()
	rd := csv.NewReader(f)
	head, err := rd.Read()
	if err != nil {
		t.Fatalf("header: %v", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	rows, bad := 0, 0
	perArch := map[string]int{}
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("row %d: %v", rows+2, err)
		}
		rows++
		num := func(name string) int {
			v, err := strconv.Atoi(rec[col[name]])
			if err != nil {
				t.Fatalf("row %d %s: %v", rows+1, name, err)
			}
			return v
		}
		spec := mustSpec(t, rec[col["arch"]])
		perArch[spec.Name]++
		in := Input{BlockSize: num("block"), RegsPerThread: num("regs"), StaticShared: num("smem_static"),
			DynamicShared: num("smem_dynamic"), OptIn: num("optin") == 1}
		r, err := Compute(spec, in)
		if err != nil {
			t.Fatalf("row %d %+v: %v", rows+1, in, err)
		}
		pct, _ := strconv.ParseFloat(rec[col["occupancy_pct"]], 64)
		got := []int{r.ActiveBlocks, r.Limits.Registers, r.Limits.SharedMemory, r.Limits.Warps, r.Limits.Blocks, r.Mask, r.AllocRegsPerBlock, r.AllocSmemPerBlock}
		want := []int{num("active_blocks"), num("limit_regs"), num("limit_smem"), num("limit_warps"), num("limit_blocks"), num("limiting_factors"), num("alloc_regs_per_block"), num("alloc_smem_per_block")}
		mismatch := strconv.FormatFloat(r.OccupancyPct, 'f', 2, 64) != rec[col["occupancy_pct"]] && (r.OccupancyPct-pct > 0.006 || pct-r.OccupancyPct > 0.006)
		for i := range got {
			if got[i] != want[i] {
				mismatch = true
			}
		}
		if mismatch {
			bad++
			if bad <= 10 {
				t.Errorf("%s %+v: got blocks,regs,smem,warps,blocks,mask,allocR,allocS=%v pct %.2f; want %v pct %s",
					spec.Name, in, got, r.OccupancyPct, want, rec[col["occupancy_pct"]])
			}
		}
	}
	if rows != 14950 {
		t.Errorf("read %d rows, want 14950", rows)
	}
	if len(perArch) != 7 {
		t.Errorf("architectures in table: %v", perArch)
	}
	if bad > 0 {
		t.Errorf("%d of %d rows differ", bad, rows)
	}
	t.Logf("%d rows over %d architectures, %d mismatches", rows, len(perArch), bad)
}

// TestH200DriverActiveBlocks reproduces cudaOccupancyMaxActiveBlocksPerMultiprocessor
// on the H200 for every case and block size in cases.json.
func TestH200DriverActiveBlocks(t *testing.T) {
	raw, err := os.ReadFile(golden + "cases.json")
	if err != nil {
		t.Fatalf("read golden: %v", err)
	}
	var cases []struct {
		Name  string `json:"name"`
		Attrs struct {
			NumRegs int `json:"num_regs"`
			Shared  int `json:"shared_size_bytes"`
		} `json:"sm_90_attributes"`
		Active map[string]int `json:"sm_90_active_blocks_per_sm"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatalf("parse cases.json: %v", err)
	}
	spec := mustSpec(t, "sm_90")
	n := 0
	for _, c := range cases {
		if len(c.Active) == 0 {
			t.Errorf("%s: no driver answers", c.Name)
		}
		for bs, want := range c.Active {
			b, err := strconv.Atoi(bs)
			if err != nil {
				t.Fatalf("%s: block %q: %v", c.Name, bs, err)
			}
			r, err := Compute(spec, Input{BlockSize: b, RegsPerThread: c.Attrs.NumRegs, StaticShared: c.Attrs.Shared})
			if err != nil {
				t.Fatalf("%s block %d: %v", c.Name, b, err)
			}
			n++
			if r.ActiveBlocks != want {
				t.Errorf("%s block %d (regs %d smem %d): %d blocks, driver says %d", c.Name, b, c.Attrs.NumRegs, c.Attrs.Shared, r.ActiveBlocks, want)
			}
		}
	}
	if n < len(cases)*32 {
		t.Errorf("only %d driver answers checked", n)
	}
	t.Logf("%d cases, %d block sizes checked", len(cases), n)
}

// TestNsightLaunchLimits compares with ncu's launch__occupancy_limit_* for each case's launch.
func TestNsightLaunchLimits(t *testing.T) {
	raw, err := os.ReadFile(golden + "cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name  string `json:"name"`
		Block []int  `json:"block"`
		Attrs struct {
			NumRegs int `json:"num_regs"`
			Shared  int `json:"shared_size_bytes"`
		} `json:"sm_90_attributes"`
		SharedBytes int `json:"shared_bytes"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	raw, err = os.ReadFile(golden + "ncu_sm90.json")
	if err != nil {
		t.Fatal(err)
	}
	var ncu map[string]map[string]string
	if err := json.Unmarshal(raw, &ncu); err != nil {
		t.Fatal(err)
	}
	spec := mustSpec(t, "sm_90")
	val := func(m map[string]string, k string) int {
		f, err := strconv.ParseFloat(strings.ReplaceAll(m[k], ",", ""), 64)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		return int(f)
	}
	for _, c := range cases {
		m, ok := ncu[c.Name]
		if !ok {
			t.Errorf("%s missing from ncu_sm90.json", c.Name)
			continue
		}
		r, err := Compute(spec, Input{BlockSize: c.Block[0] * c.Block[1] * c.Block[2], RegsPerThread: c.Attrs.NumRegs,
			StaticShared: c.Attrs.Shared, DynamicShared: c.SharedBytes})
		if err != nil {
			t.Fatal(err)
		}
		got := [4]int{r.Limits.Registers, r.Limits.SharedMemory, r.Limits.Warps, r.Limits.Blocks}
		want := [4]int{val(m, "launch__occupancy_limit_registers"), val(m, "launch__occupancy_limit_shared_mem"),
			val(m, "launch__occupancy_limit_warps"), val(m, "launch__occupancy_limit_blocks")}
		if got[0] != want[0] || got[2] != want[2] || got[3] != want[3] {
			t.Errorf("%s: limits regs,smem,warps,blocks = %v, ncu %v", c.Name, got, want)
		}
		// ncu's shared-memory limit is the carveout the driver picked for the launch
		// over our per-block allocation: some supported carveout must give it.
		found := -1
		for _, cv := range spec.Carveouts {
			if r.AllocSmemPerBlock > 0 && cv/r.AllocSmemPerBlock == want[1] {
				found = cv
				break
			}
		}
		if found < 0 {
			t.Errorf("%s: no carveout gives ncu's shared-memory limit %d for %d bytes per block", c.Name, want[1], r.AllocSmemPerBlock)
		} else {
			t.Logf("%s: driver carveout %d KB (limit %d at %d B/block; our default-carveout limit %d, PickCarveout %d KB)",
				c.Name, found/1024, want[1], r.AllocSmemPerBlock, got[1], PickCarveout(spec, r)/1024)
		}
	}
}

func TestHandComputed(t *testing.T) {
	h200 := mustSpec(t, "sm_90")
	// 256 threads x 32 regs: 1024 regs/warp, 8 warps; 16 warps per sub-partition -> 64 warps -> 8 blocks;
	// warps 64/8 = 8 -> limiters registers and warps, 100 %.
	r, err := Compute(h200, Input{BlockSize: 256, RegsPerThread: 32})
	if err != nil {
		t.Fatal(err)
	}
	if r.ActiveBlocks != 8 || r.OccupancyPct != 100 || r.Mask != LimitWarps|LimitRegisters || strings.Join(r.Limiting, ",") != "warps,registers" {
		t.Errorf("256x32: %+v", r)
	}
	// 33 regs -> 1056 -> rounded to 1280 per warp; 16384/1280 = 12 warps per sub-partition -> 48 -> 6 blocks.
	r, _ = Compute(h200, Input{BlockSize: 256, RegsPerThread: 33})
	if r.ActiveBlocks != 6 || r.Limits.Registers != 6 || r.AllocRegsPerBlock != 1280*8 {
		t.Errorf("256x33: %+v", r)
	}
	// 40 KB static + 1 KB reserved = 41 KB; 228 KB / 41 KB = 5 blocks.
	r, _ = Compute(h200, Input{BlockSize: 128, RegsPerThread: 16, StaticShared: 40 * 1024})
	if r.Limits.SharedMemory != 5 || r.AllocSmemPerBlock != 41*1024 || r.Mask != LimitShared {
		t.Errorf("40KB: %+v", r)
	}
	// 64 KB dynamic needs opt-in.
	r, _ = Compute(h200, Input{BlockSize: 128, DynamicShared: 64 * 1024})
	if r.ActiveBlocks != 0 {
		t.Errorf("64KB without opt-in launched: %+v", r)
	}
	r, _ = Compute(h200, Input{BlockSize: 128, DynamicShared: 64 * 1024, OptIn: true})
	if r.ActiveBlocks != 3 { // 228 / 65
		t.Errorf("64KB opt-in: %+v", r)
	}
	// Barriers: 8 barriers per block on sm_90 -> 2*32/8 = 8 blocks. The header sets
	// the block-slot bit first (32 was the limit before barriers), then the barrier bit.
	r, _ = Compute(h200, Input{BlockSize: 32, RegsPerThread: 16, Barriers: 8})
	if r.ActiveBlocks != 8 || r.Mask != LimitBlocks|LimitBarriers || r.Limits.Barriers != 8 {
		t.Errorf("barriers: %+v", r)
	}
	// 1025 threads cannot launch: the warp limit is 0.
	r, _ = Compute(h200, Input{BlockSize: 1025})
	if r.ActiveBlocks != 0 || r.Limits.Warps != 0 || r.Mask&LimitWarps == 0 {
		t.Errorf("1025 threads: %+v", r)
	}
	// A 50 % carveout preference: 116736 rounds up to the 132 KB configuration: 132/33 = 4 blocks.
	r, _ = Compute(h200, Input{BlockSize: 64, StaticShared: 32 * 1024, Carveout: 50, CarveoutSet: true})
	if r.Limits.SharedMemory != 4 || r.SharedPerSM != 132*1024 {
		t.Errorf("carveout 50%%: %+v", r)
	}
	if c := PickCarveout(h200, r); c != 132*1024 {
		t.Errorf("PickCarveout = %d", c)
	}
}

func TestErrorsAndJSON(t *testing.T) {
	h200 := mustSpec(t, "sm_90")
	for _, in := range []Input{{}, {BlockSize: -1}, {BlockSize: 32, RegsPerThread: -1}, {BlockSize: 32, StaticShared: -5},
		{BlockSize: 32, Carveout: 101, CarveoutSet: true}, {BlockSize: 1 << 30}} {
		if _, err := Compute(h200, in); !errors.Is(err, ErrInvalidInput) {
			t.Errorf("%+v: err %v", in, err)
		}
	}
	if _, err := Compute(nil, Input{BlockSize: 32}); err == nil {
		t.Error("nil spec accepted")
	}
	r, _ := Compute(h200, Input{BlockSize: 96, RegsPerThread: 12})
	b, err := json.Marshal(r.JSON())
	if err != nil {
		t.Fatal(err)
	}
	// The 1 KB reserved per block makes even a kernel without shared memory use 1 KB: 228 blocks.
	want := `{"active_blocks_per_sm":21,"occupancy_pct":98.44,"limiting_factors":["warps"],"limits":{"registers":42,"shared_memory":228,"warps":21,"blocks":32,"barriers":64}}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
}

func TestSweeps(t *testing.T) {
	h200 := mustSpec(t, "sm_90")
	in := Input{BlockSize: 256, RegsPerThread: 12}
	bs, err := SweepBlockSize(h200, in)
	if err != nil || len(bs) != 32 || bs[0].X != 32 || bs[31].X != 1024 {
		t.Fatalf("block sweep: %v %d", err, len(bs))
	}
	// Same as the driver's answers for vector_add (12 registers).
	for _, p := range bs {
		if p.X == 96 && p.ActiveBlocks != 21 || p.X == 1024 && p.ActiveBlocks != 2 {
			t.Errorf("block sweep %+v", p)
		}
	}
	rs, err := SweepRegisters(h200, in)
	if err != nil || len(rs) != 255 {
		t.Fatalf("regs sweep: %v %d", err, len(rs))
	}
	if rs[31].X != 32 || rs[31].OccupancyPct != 100 || rs[254].ActiveBlocks != 1 { // 255 regs -> 8192 per warp x 8 warps = 65536: exactly one block
		t.Errorf("regs sweep: %+v %+v", rs[31], rs[254])
	}
	for i := 1; i < len(rs); i++ {
		if rs[i].OccupancyPct > rs[i-1].OccupancyPct {
			t.Errorf("occupancy rises with registers at %d", rs[i].X)
		}
	}
	ss, err := SweepShared(h200, in)
	if err != nil || len(ss) != 228 || ss[0].X != 0 || ss[227].X != 227*1024 {
		t.Fatalf("shared sweep: %v %d", err, len(ss))
	}
	if ss[227].ActiveBlocks != 1 || ss[0].ActiveBlocks != 8 {
		t.Errorf("shared sweep ends: %+v %+v", ss[0], ss[227])
	}
}

// TestRandomInputsInvariants checks invariants over random inputs on every architecture.
func TestRandomInputsInvariants(t *testing.T) {
	seed := uint64(7)
	next := func(n int) int { // xorshift: deterministic and dependency-free
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed%uint64(n)) - n/8
	}
	for _, name := range arch.Names() {
		spec := mustSpec(t, name)
		for i := 0; i < 3000; i++ {
			in := Input{BlockSize: next(1200), RegsPerThread: next(300), StaticShared: next(120000),
				DynamicShared: next(260000), OptIn: next(2) > 0, Barriers: next(20), Carveout: next(120), CarveoutSet: next(3) > 0}
			r, err := Compute(spec, in)
			if err != nil {
				if !errors.Is(err, ErrInvalidInput) {
					t.Fatalf("%s %+v: unexpected error kind %v", name, in, err)
				}
				continue
			}
			l := r.Limits
			if r.ActiveBlocks < 0 || r.ActiveBlocks > min(l.Warps, l.Registers, l.SharedMemory, l.Blocks, l.Barriers) ||
				r.ActiveWarps > spec.MaxWarpsPerSM || r.OccupancyPct < 0 || r.OccupancyPct > 100 || r.Mask == 0 || len(r.Limiting) == 0 {
				t.Fatalf("%s %+v: %+v", name, in, r)
			}
		}
	}
}
