package sim

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// blockSumPTX reduces gid*0.1 over each block in shared memory, then thread 0
// adds the block's sum to out[0] with a float atomic (its return value, which
// depends on the order of the blocks, goes to out[1+block]) and takes a
// ticket from out[1024] (stored at out[2048+block]).
const blockSumPTX = `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	.shared .align 4 .f32 sm[128];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	cvt.rn.f32.u32 %f1, %r4;
	mul.f32 %f1, %f1, 0f3DCCCCCD;
	shl.b32 %r5, %r1, 2;
	mov.u32 %r6, sm;
	add.u32 %r7, %r6, %r5;
	st.shared.f32 [%r7], %f1;
	bar.sync 0;
	shr.u32 %r8, %r3, 1;
LOOP:
	setp.eq.u32 %p1, %r8, 0;
	@%p1 bra DONE;
	setp.ge.u32 %p2, %r1, %r8;
	@%p2 bra SKIP;
	shl.b32 %r9, %r8, 2;
	add.u32 %r10, %r7, %r9;
	ld.shared.f32 %f2, [%r10];
	ld.shared.f32 %f3, [%r7];
	add.f32 %f3, %f3, %f2;
	st.shared.f32 [%r7], %f3;
SKIP:
	bar.sync 0;
	shr.u32 %r8, %r8, 1;
	bra LOOP;
DONE:
	setp.ne.u32 %p3, %r1, 0;
	@%p3 bra END;
	ld.shared.f32 %f4, [sm];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	atom.global.add.f32 %f5, [%rd1], %f4;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.f32 [%rd3+4], %f5;
	atom.global.add.u32 %r11, [%rd1+4096], 1;
	st.global.u32 [%rd3+8192], %r11;
END:
	ret;
}
`

// lateOOBPTX stores out[gid]; blocks 37 and up store far out of bounds,
// block 37 only after a long loop, so that later blocks fail first in time.
const lateOOBPTX = `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	setp.ne.u32 %p1, %r2, 37;
	@%p1 bra GO;
	mov.u32 %r5, 0;
SPIN:
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p2, %r5, 3000;
	@%p2 bra SPIN;
GO:
	setp.lt.u32 %p3, %r2, 37;
	@%p3 bra STORE;
	add.u32 %r4, %r4, 1000000;
STORE:
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}
`

// spinPTX stores out[gid]; block 5 loops for ever (the budget ends it).
const spinPTX = `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	setp.ne.u32 %p1, %r2, 5;
	@%p1 bra STORE;
SPIN:
	add.u32 %r4, %r4, 1;
	bra SPIN;
STORE:
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}
`

// hazardPTX: every block writes out[tid] = tid (the same value: no race),
// reads out[tid^1] (written by its own warp) into out[64+gid], writes
// in[gid] (an empty() buffer) and reads in[gid^64], which the neighbouring
// block writes: a global race and, when the neighbour comes later, a read of
// bytes nobody wrote. Shared memory: a read of a word nobody wrote and
// writes of the block's warps to the same word (findings of the block's own
// checker, interleaved with the replayed global ones).
const hazardPTX = `.visible .entry k(.param .u64 out, .param .u64 in)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.shared .align 4 .b32 sm[2];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	ld.shared.u32 %r10, [sm+4];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u64 %rd5, [in];
	cvta.to.global.u64 %rd5, %rd5;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r1;
	xor.b32 %r5, %r1, 1;
	mul.wide.u32 %rd2, %r5, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r6, [%rd3];
	add.u32 %r7, %r4, 64;
	mul.wide.u32 %rd2, %r7, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r6;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd6, %rd5, %rd2;
	st.global.u32 [%rd6], %r4;
	xor.b32 %r8, %r4, 64;
	mul.wide.u32 %rd2, %r8, 4;
	add.s64 %rd6, %rd5, %rd2;
	ld.global.u32 %r9, [%rd6];
	st.shared.u32 [sm], %r1;
	ret;
}
`

// blockPrintfPTX is printfPTX printing 1000*block+thread, with the assert
// never taken.
func blockPrintfPTX() string {
	s := strings.Replace(printfPTX, "mov.u32 %r1, %tid.x;", "mov.u32 %r1, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n\tmad.lo.u32 %r1, %r3, 1000, %r1;", 1)
	return strings.Replace(s, "setp.lt.u32 %p1, %r1, 3;", "setp.lt.u32 %p1, %r1, 2147483647;", 1)
}

// detCase is one launch of the determinism test.
type detCase struct {
	name   string
	mod    func(t *testing.T) *ptx.Module
	kernel string
	args   func() []Arg
	cfg    Config
}

// outcome is everything of a launch that must not depend on the number of workers.
type outcome struct {
	Buffers   [][]byte
	Stats     Stats
	Insts     []InstStats
	Stdout    string
	Stderr    string
	Findings  []Finding
	Dropped   int
	Notes     []string
	Variables []Variable
	Trace     *Trace
	Err       string
	MemHash   uint64 // every observed access, in order
	MemCount  int
	IssueHash uint64 // every Issues call, in order
}

// launchOutcome runs c and gathers its outcome.
func launchOutcome(t *testing.T, m *ptx.Module, c detCase) outcome {
	t.Helper()
	mh, ih := fnv.New64a(), fnv.New64a()
	var buf [8]byte
	put := func(h interface{ Write([]byte) (int, error) }, v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	var o outcome
	cfg := c.cfg
	cfg.OnMemory = func(a *mem.Access) {
		o.MemCount++
		for _, v := range []uint64{uint64(a.PC), uint64(a.SM), uint64(a.Block), uint64(a.Warp), uint64(a.Kind), uint64(a.Space), uint64(a.Mask)} {
			put(mh, v)
		}
		for _, v := range a.Addr {
			put(mh, v)
		}
	}
	cfg.Issues = func(b int, warps [][]Issue) {
		put(ih, uint64(b))
		for _, w := range warps {
			put(ih, uint64(len(w)))
			for _, is := range w {
				put(ih, uint64(is.PC)<<32|uint64(is.Active))
			}
		}
	}
	res, err := Launch(context.Background(), m, c.kernel, c.args(), cfg)
	if err != nil {
		o.Err = err.Error()
		if e, ok := err.(*Error); ok {
			o.Err += fmt.Sprintf(" [kind %v block %v thread %v pc %d]", e.Kind, e.Block, e.Thread, e.PC)
		}
	}
	if res != nil {
		o.Stats, o.Stdout, o.Stderr = res.Stats, res.Stdout, res.Stderr
		o.Findings, o.Dropped, o.Notes, o.Variables, o.Trace = res.Findings, res.FindingsDropped, res.CheckNotes, res.Variables, res.Trace
		if err == nil {
			o.Buffers, o.Insts = res.Buffers, res.Insts
		}
	}
	o.MemHash, o.IssueHash = mh.Sum64(), ih.Sum64()
	return o
}

// TestParallelDeterminism runs launches with GOMAXPROCS 1, 2 and 4 and
// requires identical outputs, counters, findings, printf text, traces, memory
// observer sequences, Issues sequences and errors.
func TestParallelDeterminism(t *testing.T) {
	src := func(s string) func(t *testing.T) *ptx.Module {
		return func(t *testing.T) *ptx.Module { return parseSrc(t, header+s) }
	}
	golden := func(name string) func(t *testing.T) *ptx.Module {
		return func(t *testing.T) *ptx.Module {
			return parsePTXFile(t, filepath.Join(goldenDir, "ptx", name+".sm_90.ptx"))
		}
	}
	out := func(words int) func() []Arg {
		return func() []Arg { return []Arg{{Buffer: make([]byte, 4*words)}} }
	}
	hist := func() []Arg {
		const n = 40000
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*i + i/7)
		}
		return []Arg{{Buffer: data}, {Buffer: make([]byte, 1024)}, {Scalar: n}}
	}
	noTrace := TraceConfig{MaxSteps: -1}
	cases := []detCase{
		{"block sum with float atomics", src(blockSumPTX), "k", out(4096), Config{Grid: [3]int{64, 1, 1}, Block: [3]int{128, 1, 1}, NumSMs: 7, Trace: noTrace}},
		{"block sum, sync and init checks, trace of block 9", src(blockSumPTX), "k", out(4096),
			Config{Grid: [3]int{64, 1, 1}, Block: [3]int{128, 1, 1}, NumSMs: 7, Trace: TraceConfig{Block: 9, WarpLo: 0, WarpHi: 3, MaxSteps: 400}, Check: Checks{Sync: true, Init: true}}},
		{"block sum, all checks", src(blockSumPTX), "k", out(4096), Config{Grid: [3]int{64, 1, 1}, Block: [3]int{128, 1, 1}, Trace: noTrace, Check: Checks{Race: true, Sync: true, Init: true}}},
		{"block sum reversed", src(blockSumPTX), "k", out(4096), Config{Grid: [3]int{64, 1, 1}, Block: [3]int{128, 1, 1}, Trace: noTrace, Reverse: true}},
		{"global races and uninitialised reads across blocks", src(hazardPTX), "k",
			func() []Arg {
				return []Arg{{Buffer: make([]byte, 4*(64+16*64))}, {Buffer: make([]byte, 4*16*64), Undefined: true}}
			},
			Config{Grid: [3]int{16, 1, 1}, Block: [3]int{64, 1, 1}, Trace: noTrace, Check: Checks{Race: true, Init: true, Sync: true}}},
		{"the same with 3 findings kept", src(hazardPTX), "k",
			func() []Arg {
				return []Arg{{Buffer: make([]byte, 4*(64+16*64))}, {Buffer: make([]byte, 4*16*64), Undefined: true}}
			},
			Config{Grid: [3]int{16, 1, 1}, Block: [3]int{64, 1, 1}, Trace: noTrace, Check: Checks{Race: true, Init: true, MaxFindings: 3}}},
		{"printf per block", src(blockPrintfPTX()), "k", out(1), Config{Grid: [3]int{40, 1, 1}, Block: [3]int{3, 1, 1}, Trace: noTrace}},
		{"out of bounds in a late block", src(lateOOBPTX), "k", out(40 * 64), Config{Grid: [3]int{40, 1, 1}, Block: [3]int{64, 1, 1}, Trace: noTrace}},
		{"budget in block 5", src(spinPTX), "k", out(16 * 64), Config{Grid: [3]int{16, 1, 1}, Block: [3]int{64, 1, 1}, Trace: noTrace, Budget: 400000}},
		{"histogram (shared and global atomics)", golden("histogram"), "histogram256", hist, Config{Grid: [3]int{20, 1, 1}, Block: [3]int{256, 1, 1}, NumSMs: 132, Trace: noTrace}},
		{"matmul_tiled with sync checks and a trace", golden("matmul_tiled"), "matmul_tiled", func() []Arg { return matmulArgs(64) },
			Config{Grid: [3]int{4, 4, 1}, Block: [3]int{16, 16, 1}, NumSMs: 132, Trace: TraceConfig{Block: 5, WarpLo: 0, WarpHi: 1, MaxSteps: 300}, Check: Checks{Sync: true}}},
	}
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if raceDetector && (strings.Contains(c.name, "global races") || c.name == "the same with 3 findings kept") {
				t.Skip("the kernel's blocks race on global memory on purpose: Go data races under -race")
			}
			m := c.mod(t)
			var ref outcome
			for i, p := range []int{1, 2, 4} {
				runtime.GOMAXPROCS(p)
				o := launchOutcome(t, m, c)
				if c.cfg.Budget > 0 {
					// On a budget error the counters may include instructions
					// past the check point named (documented): compare the rest.
					o.Stats, o.Insts = Stats{}, nil
				}
				if i == 0 {
					ref = o
					if o.MemCount == 0 && o.Err == "" {
						t.Fatalf("no memory access observed")
					}
					continue
				}
				if !reflect.DeepEqual(o, ref) {
					ov, rv := reflect.ValueOf(o), reflect.ValueOf(ref)
					for f := 0; f < ov.NumField(); f++ {
						if !reflect.DeepEqual(ov.Field(f).Interface(), rv.Field(f).Interface()) {
							t.Errorf("GOMAXPROCS %d: %s differs from GOMAXPROCS 1:\n%.600v\nwant\n%.600v", p, ov.Type().Field(f).Name, ov.Field(f).Interface(), rv.Field(f).Interface())
						}
					}
				}
			}
			switch c.name {
			case "out of bounds in a late block":
				if !strings.Contains(ref.Err, "block [37 0 0]") {
					t.Errorf("error %q, want block 37's", ref.Err)
				}
			case "budget in block 5":
				if !strings.Contains(ref.Err, "budget") || !strings.Contains(ref.Err, "block [5 0 0]") {
					t.Errorf("error %q, want the budget in block 5", ref.Err)
				}
			case "global races and uninitialised reads across blocks":
				kinds := map[string]int{}
				for _, f := range ref.Findings {
					kinds[f.Kind+" "+f.Space] += f.Count
				}
				if kinds["race global"] == 0 || kinds["uninitialized global"] == 0 || kinds["race shared"] == 0 || kinds["uninitialized shared"] == 0 {
					t.Errorf("findings %v, want global races and uninitialised global reads", kinds)
				}
			case "printf per block":
				if !strings.HasPrefix(ref.Stdout, "t=0 x=0.00") || !strings.Contains(ref.Stdout, "t=39002") {
					t.Errorf("stdout %.200q", ref.Stdout)
				}
			}
		})
	}
}

// loopPTX loops 10 times, or 5000 times in block 2, then stores out[gid].
const loopPTX = `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	mov.u32 %r6, 10;
	setp.ne.u32 %p1, %r2, 2;
	@%p1 bra START;
	mov.u32 %r6, 5000;
START:
	mov.u32 %r5, 0;
LOOP:
	add.u32 %r5, %r5, 1;
	setp.lt.u32 %p2, %r5, %r6;
	@%p2 bra LOOP;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}
`

// TestIssuesBoundedPerBlock checks that a block issuing more than the bound
// is handed to Config.Issues with nil streams and the others in full.
func TestIssuesBoundedPerBlock(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	for _, p := range []int{1, 2} {
		runtime.GOMAXPROCS(p)
		got := map[int]int{}
		cfg := Config{Grid: [3]int{6, 1, 1}, Block: [3]int{64, 1, 1}, Trace: TraceConfig{MaxSteps: -1},
			Issues: func(b int, warps [][]Issue) {
				if warps == nil {
					got[b] = -1
					return
				}
				for _, w := range warps {
					got[b] += len(w)
				}
			}}
		cfg.sched.issues = 10000
		res, err := Launch(context.Background(), parseSrc(t, header+loopPTX), "k", []Arg{{Buffer: make([]byte, 4*6*64)}}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 6 || got[2] != -1 {
			t.Fatalf("GOMAXPROCS %d: issues per block %v, want block 2 cut (-1)", p, got)
		}
		var sum int64
		for b, n := range got {
			if b != 2 {
				sum += int64(n)
			}
		}
		if sum <= 0 || sum >= res.Stats.WarpInstructions {
			t.Errorf("GOMAXPROCS %d: %d issues of the other blocks, %d warp-instructions in all", p, sum, res.Stats.WarpInstructions)
		}
	}
}
