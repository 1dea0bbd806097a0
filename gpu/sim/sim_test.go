package sim

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// header of the hand-written test kernels.
const header = ".version 8.0\n.target sm_90\n.address_size 64\n"

// lineOf returns the 1-based line of src containing marker.
func lineOf(t *testing.T, src, marker string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("marker %q not found", marker)
	return 0
}

func parseSrc(t *testing.T, src string) *ptx.Module {
	t.Helper()
	m, err := ptx.Parse("test.ptx", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return m
}

// runOut launches kernel k(.param .u64 out) with an out buffer of n u32 words.
func runOut(t *testing.T, src string, grid, block [3]int, n int, cfg Config) (*Result, []uint32, error) {
	t.Helper()
	m := parseSrc(t, src)
	cfg.Grid, cfg.Block = grid, block
	res, err := Launch(context.Background(), m, "k", []Arg{{Buffer: make([]byte, 4*n)}}, cfg)
	if res == nil {
		return nil, nil, err
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(res.Buffers[0][4*i:])
	}
	return res, out, err
}

// storeTail stores %r2 to out[%tid.x + %ctaid.x * %ntid.x] and returns.
const storeTail = `
	mov.u32 %r8, %ctaid.x;
	mov.u32 %r9, %ntid.x;
	mad.lo.u32 %r7, %r8, %r9, %r1;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r7, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
`

const kernelHead = `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.reg .pred %p<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
`

// steps formats the trace as "line:mask" per step for the given warp.
func steps(tr *Trace, warp int) []string {
	var s []string
	for _, st := range tr.Steps {
		if st.Warp == warp {
			s = append(s, fmt.Sprintf("%d:%08x", st.Line, st.Active))
		}
	}
	return s
}

// expectSeq checks that the (line, active mask) pairs appear in the trace in order.
func expectSeq(t *testing.T, got []string, want []string) {
	t.Helper()
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	if i != len(want) {
		t.Errorf("trace does not contain the expected sequence; matched %d of %d (next %s)\ntrace: %v", i, len(want), want[i], got)
	}
}

func TestNestedIfs(t *testing.T) {
	src := header + kernelHead + `
	setp.lt.u32 %p1, %r1, 16;
	@!%p1 bra ELSE;                // OUTER
	setp.lt.u32 %p2, %r1, 8;
	@!%p2 bra INNER_END;           // INNER
	add.u32 %r2, %r2, 1;           // ONE
INNER_END:
	add.u32 %r2, %r2, 10;          // TEN
	bra.uni END;
ELSE:
	add.u32 %r2, %r2, 100;         // HUNDRED
END:
	mov.u32 %r8, %ctaid.x;         // JOIN
` + storeTail[len("\n\tmov.u32 %r8, %ctaid.x;\n"):]
	res, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32(100)
		if i < 8 {
			want = 11
		} else if i < 16 {
			want = 10
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	L := func(m string) string { return fmt.Sprint(lineOf(t, src, m)) }
	expectSeq(t, steps(res.Trace, 0), []string{
		L("OUTER") + ":ffffffff", L("INNER") + ":0000ffff", L("ONE") + ":000000ff",
		L("TEN") + ":0000ffff", L("HUNDRED") + ":ffff0000", L("JOIN") + ":ffffffff",
	})
	if res.Stats.DivergentBranches != 2 || res.Stats.Branches != 3 {
		t.Errorf("branches %d divergent %d, want 3 and 2", res.Stats.Branches, res.Stats.DivergentBranches)
	}
	// Every lane executes the store exactly once, converged.
	for _, in := range res.Insts {
		if in.Op == "st.global.u32" && (in.WarpExecs != 1 || in.ThreadExecs != 32) {
			t.Errorf("store executed %d times by %d threads, want 1 and 32", in.WarpExecs, in.ThreadExecs)
		}
	}
}

func TestLoopWithBreak(t *testing.T) {
	src := header + kernelHead + `
LOOP:
	setp.ge.u32 %p1, %r2, %r1;     // TEST
	@%p1 bra DONE;                 // BREAK
	add.u32 %r2, %r2, 1;           // INC
	setp.lt.u32 %p2, %r2, 4;
	@%p2 bra LOOP;                 // BACK
DONE:
	mov.u32 %r8, %ctaid.x;         // AFTER
` + storeTail[len("\n\tmov.u32 %r8, %ctaid.x;\n"):]
	res, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32(min(i, 4))
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	L := func(m string) string { return fmt.Sprint(lineOf(t, src, m)) }
	// Iteration k runs INC for the lanes with tid > k.
	expectSeq(t, steps(res.Trace, 0), []string{
		L("TEST") + ":ffffffff", L("INC") + ":fffffffe", L("INC") + ":fffffffc",
		L("INC") + ":fffffff8", L("INC") + ":fffffff0", L("AFTER") + ":ffffffff",
	})
	depth := 0
	for _, st := range res.Trace.Steps {
		depth = max(depth, len(st.Stack))
	}
	if depth > 3 {
		t.Errorf("SIMT stack grew to %d entries; a divergent loop exit must not grow it per iteration", depth)
	}
	for _, in := range res.Insts {
		if in.Line == lineOf(t, src, "INC") && in.WarpExecs != 4 {
			t.Errorf("loop body issued %d times, want 4", in.WarpExecs)
		}
	}
}

func TestEarlyReturn(t *testing.T) {
	src := header + kernelHead + `
	setp.ge.u32 %p1, %r1, 20;
	@%p1 ret;                      // RET
	add.u32 %r2, %r1, 1000;        // REST
` + storeTail
	res, out, err := runOut(t, src, [3]int{2, 1, 1}, [3]int{64, 1, 1}, 128, Config{Trace: TraceConfig{Block: 1, WarpLo: 0, WarpHi: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		tid := i % 64
		want := uint32(0)
		if tid < 20 {
			want = uint32(tid + 1000)
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	L := func(m string) string { return fmt.Sprint(lineOf(t, src, m)) }
	expectSeq(t, steps(res.Trace, 0), []string{L("RET") + ":ffffffff", L("REST") + ":000fffff"})
	expectSeq(t, steps(res.Trace, 1), []string{L("RET") + ":ffffffff"})
	if n := len(steps(res.Trace, 1)); n != 4 {
		t.Errorf("warp 1 recorded %d steps; it should stop at the ret", n)
	}
	for _, st := range res.Trace.Steps {
		if st.Warp == 0 && st.Line == lineOf(t, src, "REST") && st.Exited != 0xfff00000 {
			t.Errorf("exited mask after the ret = %#x, want 0xfff00000", st.Exited)
		}
		if st.Warp > 1 {
			t.Errorf("warp %d traced; only 0-1 were asked for", st.Warp)
		}
	}
}

func TestBrxSwitch(t *testing.T) {
	src := header + kernelHead + `
	and.b32 %r3, %r1, 3;
	ts: .branchtargets C0, C1, C2, C3;
	brx.idx %r3, ts;               // SWITCH
C0:
	mov.u32 %r2, 10;               // CASE0
	bra.uni END;
C1:
	mov.u32 %r2, 11;               // CASE1
	bra.uni END;
C2:
	mov.u32 %r2, 12;               // CASE2
	bra.uni END;
C3:
	mov.u32 %r2, 13;               // CASE3
END:
	mov.u32 %r8, %ctaid.x;         // JOIN
` + storeTail[len("\n\tmov.u32 %r8, %ctaid.x;\n"):]
	res, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if want := uint32(10 + i%4); v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	L := func(m string) string { return fmt.Sprint(lineOf(t, src, m)) }
	expectSeq(t, steps(res.Trace, 0), []string{
		L("SWITCH") + ":ffffffff", L("CASE0") + ":11111111", L("CASE1") + ":22222222",
		L("CASE2") + ":44444444", L("CASE3") + ":88888888", L("JOIN") + ":ffffffff",
	})
	if res.Stats.DivergentBranches != 1 {
		t.Errorf("divergent branches %d, want 1", res.Stats.DivergentBranches)
	}
}

func TestRecursiveCall(t *testing.T) {
	src := header + `
.func (.param .b32 ret) fact(.param .b32 n)
{
	.reg .b32 %r<6>;
	.reg .pred %p<2>;
	ld.param.b32 %r1, [n];
	setp.le.u32 %p1, %r1, 1;
	@%p1 bra BASE;
	sub.u32 %r2, %r1, 1;
	{
	.param .b32 a;
	.param .b32 r;
	st.param.b32 [a], %r2;
	call.uni (r), fact, (a);
	ld.param.b32 %r3, [r];
	}
	mul.lo.u32 %r4, %r3, %r1;
	st.param.b32 [ret], %r4;
	ret;
BASE:
	mov.u32 %r5, 1;
	st.param.b32 [ret], %r5;
	ret;
}
` + kernelHead + `
	and.b32 %r3, %r1, 7;
	{
	.param .b32 a0;
	.param .b32 r0;
	st.param.b32 [a0], %r3;
	call.uni (r0), fact, (a0);
	ld.param.b32 %r2, [r0];
	}
` + storeTail
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	fact := []uint32{1, 1, 2, 6, 24, 120, 720, 5040}
	for i, v := range out {
		if v != fact[i%8] {
			t.Errorf("out[%d] = %d, want %d", i, v, fact[i%8])
		}
	}
}

// wantError checks an error's kind and PTX line.
func wantError(t *testing.T, err error, kind ErrorKind, line int) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not a *sim.Error", err)
	}
	t.Logf("%v error: %v", e.Kind, e)
	if e.Kind != kind {
		t.Errorf("kind %v, want %v (%v)", e.Kind, kind, e)
	}
	if line > 0 && e.PTXLine != line {
		t.Errorf("PTX line %d, want %d (%v)", e.PTXLine, line, e)
	}
	if !strings.Contains(e.Error(), fmt.Sprintf("PTX line %d", e.PTXLine)) {
		t.Errorf("message %q does not name the line", e.Error())
	}
	return e
}

// TestBarrierSkippedByExitingThreads: threads 0-15 skip the barrier and exit
// while the rest of their warp waits at it. As on the H200 (testdata/hw.cu,
// k1) the barrier completes: the skipping lanes run on and exit, and exited
// threads do not hold a barrier up.
func TestBarrierSkippedByExitingThreads(t *testing.T) {
	src := header + kernelHead + `
	add.u32 %r2, %r1, 3;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra SKIP;
	bar.sync 0;                    // BAR
	add.u32 %r2, %r2, 100;
SKIP:
` + storeTail
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{64, 1, 1}, 64, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32(i + 3)
		if i >= 16 {
			want += 100
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

// TestDeadlockCountedBarrier: a barrier with an explicit thread count does
// not shrink when threads exit, so 32 arrivals out of 64 never complete.
func TestDeadlockCountedBarrier(t *testing.T) {
	src := header + kernelHead + `
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra SKIP;
	bar.sync 1, 64;                // BAR
SKIP:
` + storeTail
	_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{64, 1, 1}, 64, Config{})
	e := wantError(t, err, Deadlock, lineOf(t, src, "BAR"))
	if len(e.Warps) != 1 || e.Warps[0] != 0 || !strings.Contains(e.Error(), "32 of 64") || !strings.Contains(e.Error(), "warp 1 has exited") {
		t.Errorf("error %v should name waiting warp 0, exited warp 1 and 32 of 64 threads", e)
	}
}

// TestBarrierIgnoresExitedThreads follows the PTX ISA (exit): a barrier for
// all threads of the CTA is released when only exited threads hold it up.
func TestBarrierIgnoresExitedThreads(t *testing.T) {
	src := header + kernelHead + `
	setp.ge.u32 %p1, %r1, 40;
	@%p1 ret;
	add.u32 %r2, %r1, 7;
	bar.sync 0;                    // BAR
` + storeTail
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{64, 1, 1}, 64, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32(0)
		if i < 40 {
			want = uint32(i + 7)
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

func TestDeadlockDifferentBarriers(t *testing.T) {
	src := header + kernelHead + `
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra ZERO;
	bar.sync 1;                    // BAR1
	bra.uni END;
ZERO:
	bar.sync 0;                    // BAR0
END:
` + storeTail
	_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{64, 1, 1}, 64, Config{})
	e := wantError(t, err, Deadlock, lineOf(t, src, "BAR0"))
	if len(e.Warps) != 2 || !strings.Contains(e.Error(), "32 of 64") {
		t.Errorf("error %v should name warps 0-1 and count 32 of 64 threads", e)
	}
}

func TestBarrierCompletes(t *testing.T) {
	// Each warp writes shared memory, then reads the value another warp wrote.
	src := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.shared .align 4 .b8 buf[512];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, buf;
	shl.b32 %r4, %r1, 2;
	add.u32 %r5, %r3, %r4;
	mul.lo.u32 %r6, %r1, 3;
	st.shared.u32 [%r5], %r6;
	bar.sync 0;
	xor.b32 %r7, %r1, 64;
	shl.b32 %r4, %r7, 2;
	add.u32 %r5, %r3, %r4;
	ld.shared.u32 %r2, [%r5];
	setp.lt.u32 %p1, %r1, 100;
	bar.red.popc.u32 %r10, 0, %p1;
	bar.red.or.pred %p2, 1, %p1;
	bar.red.and.pred %p3, 2, %p1;
	selp.u32 %r11, 1000, 0, %p2;
	add.u32 %r10, %r10, %r11;
	selp.u32 %r11, 10000, 0, %p3;
	add.u32 %r10, %r10, %r11;
	shl.b32 %r10, %r10, 16;
	add.u32 %r2, %r2, %r10;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
`
	src = strings.Replace(src, ".reg .b64 %rd<6>;", ".reg .b64 %rd<6>;\n\t.reg .pred %p<4>;", 1)
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{128, 1, 1}, 128, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		// popc = 100 threads with tid < 100, or = true, and = false.
		if want := uint32((i^64)*3) + (100+1000)<<16; v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

func TestOutOfBounds(t *testing.T) {
	src := header + kernelHead + `
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r2, [%rd3];     // LOAD
` + storeTail
	_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 20, Config{})
	e := wantError(t, err, OutOfBounds, lineOf(t, src, "LOAD"))
	if e.Thread != [3]int{20, 0, 0} {
		t.Errorf("thread %v, want (20,0,0)", e.Thread)
	}
	if !strings.Contains(e.Error(), "out-of-bounds global load of 4 bytes") || !strings.Contains(e.Error(), "thread (20,0,0)") {
		t.Errorf("message %q", e.Error())
	}
}

func TestMisaligned(t *testing.T) {
	src := header + kernelHead + `
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	ld.global.u32 %r2, [%rd1+2];   // LOAD
` + storeTail
	_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	wantError(t, err, Misaligned, lineOf(t, src, "LOAD"))
}

func TestSharedOutOfRange(t *testing.T) {
	src := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.shared .align 4 .b8 buf[128];
	mov.u32 %r1, %tid.x;
	shl.b32 %r4, %r1, 2;
	mov.u32 %r3, buf;
	add.u32 %r5, %r3, %r4;
	st.shared.u32 [%r5], %r1;      // STORE
	ret;
}
`
	_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{64, 1, 1}, 1, Config{})
	e := wantError(t, err, SharedOutOfRange, lineOf(t, src, "STORE"))
	if e.Thread != [3]int{32, 0, 0} {
		t.Errorf("thread %v, want (32,0,0)", e.Thread)
	}
}

func TestBudgetAndInterrupt(t *testing.T) {
	src := header + kernelHead + `
LOOP:
	add.u32 %r2, %r2, 1;
	bra.uni LOOP;                  // SPIN
` + storeTail
	_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{Budget: 100000})
	e := wantError(t, err, Budget, 0)
	if e.PTXLine != lineOf(t, src, "SPIN") && e.PTXLine != lineOf(t, src, "add.u32 %r2, %r2, 1") {
		t.Errorf("budget error at line %d, want the loop", e.PTXLine)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := parseSrc(t, src)
	_, err = Launch(ctx, m, "k", []Arg{{Buffer: make([]byte, 128)}}, Config{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}})
	wantError(t, err, Interrupted, 0)
}

func TestTrapAndUnsupported(t *testing.T) {
	src := header + kernelHead + `
	setp.eq.u32 %p1, %r1, 5;
	@%p1 trap;                     // TRAP
` + storeTail
	_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	e := wantError(t, err, Trap, lineOf(t, src, "TRAP"))
	if e.Thread != [3]int{5, 0, 0} {
		t.Errorf("thread %v, want (5,0,0)", e.Thread)
	}
	src = header + kernelHead + `
	ld.param.u64 %rd1, [out];
	suld.b.1d.b32.trap {%r2}, [%rd1, {%r1}];        // UNSUP
` + storeTail
	m, perr := ptx.Parse("t.ptx", []byte(src))
	if perr != nil {
		t.Fatalf("parse: %v", perr)
	}
	_, err = Launch(context.Background(), m, "k", []Arg{{Buffer: make([]byte, 128)}}, Config{Block: [3]int{32, 1, 1}})
	e = wantError(t, err, Unsupported, lineOf(t, src, "UNSUP"))
	if !strings.Contains(e.Error(), "suld") {
		t.Errorf("message %q should name the opcode", e.Error())
	}
}

func TestInvalidLaunch(t *testing.T) {
	src := header + kernelHead + storeTail
	m := parseSrc(t, src)
	for _, c := range []struct {
		name string
		args []Arg
		cfg  Config
	}{
		{"too many threads", []Arg{{Buffer: make([]byte, 4)}}, Config{Block: [3]int{2048, 1, 1}}},
		{"wrong arity", nil, Config{Block: [3]int{32, 1, 1}}},
	} {
		_, err := Launch(context.Background(), m, "k", c.args, c.cfg)
		var e *Error
		if !errors.As(err, &e) || e.Kind != InvalidLaunch {
			t.Errorf("%s: got %v, want an invalid-launch error", c.name, err)
		}
	}
	if _, err := Launch(context.Background(), m, "nope", nil, Config{}); err == nil || !strings.Contains(err.Error(), "kernels: k") {
		t.Errorf("unknown kernel: %v", err)
	}
}

func TestMemoryAccessesAndAddresses(t *testing.T) {
	cases := loadGoldenCases(t)
	var c *goldenCase
	for i := range cases {
		if cases[i].Name == "vector_add" {
			c = &cases[i]
		}
	}
	var loads, stores int
	var first mem.Access
	res, err := runGolden(t, c, "sm_90", Config{OnMemory: func(a *mem.Access) {
		if a.Space != mem.Global {
			t.Errorf("unexpected space %d", a.Space)
		}
		switch a.Kind {
		case mem.Load:
			if loads == 0 {
				first = *a
			}
			loads++
		case mem.Store:
			stores++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// 1000 threads in 32 warps (the last partial): two loads and one store each.
	if loads != 2*32 || stores != 32 {
		t.Errorf("loads %d stores %d, want 64 and 32", loads, stores)
	}
	if first.Mask != 0xffffffff || first.Bytes != 4 || first.Addr[1]-first.Addr[0] != 4 || (first.Addr[0] != res.Addresses[0] && first.Addr[0] != res.Addresses[1]) {
		t.Errorf("first load: mask %#x bytes %d addr %#x (buffer at %#x)", first.Mask, first.Bytes, first.Addr[0], res.Addresses[0])
	}
	for i, a := range res.Addresses[:3] {
		if a%256 != 0 || a < heapBase {
			t.Errorf("buffer %d at %#x: want 256-byte aligned addresses from %#x", i, a, heapBase)
		}
	}
}

func TestWarpLevelPartialAndSegments(t *testing.T) {
	// shfl.sync.idx over segments of 8 lanes, vote.ballot with a subset active, redux.
	src := header + kernelHead + `
	shfl.sync.idx.b32 %r3, %r1, 2, 0x181f, 0xffffffff;
	setp.lt.u32 %p1, %r1, 24;
	@!%p1 bra SKIP;
	and.b32 %r4, %r1, 1;
	setp.eq.u32 %p2, %r4, 1;
	vote.sync.ballot.b32 %r5, %p2, 0x00ffffff;
	redux.sync.add.u32 %r6, %r1, 0x00ffffff;
	add.u32 %r2, %r5, %r6;
SKIP:
	shl.b32 %r3, %r3, 16;
	add.u32 %r2, %r2, %r3;
` + storeTail
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32((i&^7)+2) << 16
		if i < 24 {
			want += 0x00aaaaaa + 276 // odd lanes of 0..23; sum 0..23
		}
		if v != want {
			t.Errorf("out[%d] = %#x, want %#x", i, v, want)
		}
	}
}

func TestAtomics(t *testing.T) {
	src := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<6>;
	.shared .align 4 .b32 cnt;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	atom.global.add.u32 %r3, [%rd1], 1;
	atom.global.inc.u32 %r4, [%rd1+4], 10;
	atom.global.dec.u32 %r4, [%rd1+8], 5;
	sub.s32 %r5, 0, %r1;
	atom.global.max.s32 %r6, [%rd1+12], %r5;
	atom.global.min.s32 %r6, [%rd1+16], %r5;
	mov.b32 %f1, 0f00000001;
	atom.global.add.f32 %f2, [%rd1+20], %f1;
	atom.global.cas.b32 %r7, [%rd1+24], %r1, 100;
	red.shared.add.u32 [cnt], 2;
	bar.sync 0;
	ld.shared.u32 %r8, [cnt];
	st.global.u32 [%rd1+28], %r8;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3+32], %r3;
	ret;
}
`
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 64, Config{})
	if err != nil {
		t.Fatal(err)
	}
	// Per the PTX manual: inc wraps to 0 after reaching b, dec wraps to b at
	// 0, atom.add.f32 flushes subnormal inputs to zero.
	want := []uint32{32, 32 % 11, 4, 0, uint32(0xffffffe1), 0, 100, 64}
	for i, w := range want {
		if out[i] != w {
			t.Errorf("out[%d] = %#x, want %#x", i, out[i], w)
		}
	}
	seen := map[uint32]bool{}
	for _, v := range out[8:40] {
		seen[v] = true
	}
	if len(seen) != 32 {
		t.Errorf("atom.add returned %d distinct old values, want 32", len(seen))
	}
}

func TestGenericLocalVectorPack(t *testing.T) {
	src := header + `.visible .entry k(.param .u64 out)
{
	.local .align 16 .b8 __local_depot0[64];
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .b32 %r<16>;
	.reg .b16 %rs<4>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 sh[1024];
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
	mov.u32 %r1, %tid.x;
	// generic store into the local array, read back through .local
	mul.wide.u32 %rd1, %r1, 0;
	add.u64 %rd2, %SP, 8;
	st.u32 [%rd2], %r1;
	ld.local.u32 %r2, [%SPL+8];
	// vector store/load in shared through a generic address
	mov.u64 %rd3, sh;
	cvta.shared.u64 %rd4, %rd3;
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd4, %rd4, %rd5;
	add.u32 %r3, %r1, 1;
	add.u32 %r4, %r1, 2;
	add.u32 %r5, %r1, 3;
	st.v4.u32 [%rd4], {%r2, %r3, %r4, %r5};
	cvta.to.shared.u64 %rd6, %rd4;
	cvt.u32.u64 %r6, %rd6;
	ld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [%r6];
	// pack two 16-bit halves and unpack them again
	mov.b32 {%rs1, %rs2}, %r8;
	mov.b32 %r11, {%rs2, %rs1};
	add.u32 %r12, %r7, %r10;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, 8;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v2.u32 [%rd3], {%r12, %r11};
	ret;
}
`
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 64, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 32; i++ {
		if want := uint32(2*i + 3); out[2*i] != want {
			t.Errorf("out[%d] = %d, want %d", 2*i, out[2*i], want)
		}
		if want := uint32(i+1) << 16; out[2*i+1] != want {
			t.Errorf("out[%d] = %#x, want %#x", 2*i+1, out[2*i+1], want)
		}
	}
}

func TestTraceContents(t *testing.T) {
	cases := loadGoldenCases(t)
	var c *goldenCase
	for i := range cases {
		if cases[i].Name == "matmul_tiled" {
			c = &cases[i]
		}
	}
	var progress []Progress
	res, err := runGolden(t, c, "sm_90", Config{NumSMs: 4, Trace: TraceConfig{Block: 5, WarpLo: 1, WarpHi: 2, MaxSteps: 300},
		Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	tr := res.Trace
	if tr == nil || len(tr.Steps) != 300 || !tr.Truncated {
		t.Fatalf("trace: %d steps truncated %v, want 300 and true", len(tr.Steps), tr.Truncated)
	}
	var sharedLd, barWait, smid bool
	for _, st := range tr.Steps {
		if st.Warp < 1 || st.Warp > 2 {
			t.Fatalf("step of warp %d", st.Warp)
		}
		if st.Text == "mov.u32" && len(st.Writes) == 1 && st.Writes[0].Reg == "%r20" {
			// %r20 = %ctaid.y of block 5 in a 4x4 grid.
			for lane, v := range st.Writes[0].Values {
				if v != 1 {
					t.Errorf("lane %d: %%ctaid.y = %d, want 1", lane, v)
				}
			}
			smid = true
		}
		for _, m := range st.Mem {
			if m.Space == "shared" && m.Kind == "load" && m.Mask == 0xffffffff {
				sharedLd = true
			}
		}
		if st.Barrier != nil && st.Barrier.Expected == 256 {
			barWait = barWait || st.Barrier.Waiting
		}
		if len(st.Stack) == 0 {
			t.Errorf("step at line %d has an empty SIMT stack", st.Line)
		}
	}
	if !sharedLd || !barWait || !smid {
		t.Errorf("trace lacks shared loads (%v), barrier waits (%v) or the %%ctaid.y write (%v)", sharedLd, barWait, smid)
	}
	if len(progress) == 0 || progress[len(progress)-1].BlocksDone != 16 || progress[len(progress)-1].BlocksTotal != 16 {
		t.Errorf("progress %v, want a final 16 of 16", progress)
	}
	if res.Stats.ThreadInstructions != progress[len(progress)-1].ThreadInstructions {
		t.Errorf("progress counts %d thread-instructions, stats %d", progress[len(progress)-1].ThreadInstructions, res.Stats.ThreadInstructions)
	}
	var sum int64
	for _, in := range res.Insts {
		sum += in.ThreadExecs
	}
	if sum != res.Stats.ThreadInstructions || res.Stats.WarpInstructions == 0 {
		t.Errorf("per-instruction thread executions sum to %d, stats say %d", sum, res.Stats.ThreadInstructions)
	}
}

func TestSpecialRegisters(t *testing.T) {
	src := header + kernelHead + `
	mov.u32 %r3, %smid;
	mov.u32 %r4, %nsmid;
	mov.u32 %r5, %laneid;
	mov.u32 %r6, %lanemask_lt;
	popc.b32 %r6, %r6;
	mad.lo.u32 %r2, %r3, 1000, %r4;
	mad.lo.u32 %r2, %r2, 100, %r5;
	sub.u32 %r2, %r2, %r6;
` + storeTail
	_, out, err := runOut(t, src, [3]int{5, 1, 1}, [3]int{64, 1, 1}, 320, Config{NumSMs: 3})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		sm := (i / 64) % 3
		if want := uint32((sm*1000+3)*100 + 0); v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

func TestCpAsync(t *testing.T) {
	src := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.shared .align 16 .b8 sh[512];
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	// out[0..31] = tid, written first; then each thread copies 16 bytes of
	// them into shared memory, of which only the first 8 are from global.
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r1;
	bar.sync 0;
	and.b32 %r2, %r1, 7;
	mul.wide.u32 %rd4, %r2, 16;
	add.s64 %rd5, %rd1, %rd4;
	mov.u32 %r3, sh;
	shl.b32 %r4, %r2, 4;
	add.u32 %r5, %r3, %r4;
	setp.lt.u32 %p1, %r1, 8;
	@%p1 cp.async.ca.shared.global [%r5], [%rd5], 16, 8;
	cp.async.commit_group;
	cp.async.wait_group 0;
	bar.sync 0;
	shl.b32 %r6, %r1, 2;
	add.u32 %r7, %r3, %r6;
	ld.shared.u32 %r8, [%r7];
	st.global.u32 [%rd3+128], %r8;
	ret;
}
`
	src = strings.Replace(src, ".reg .b64 %rd<6>;", ".reg .b64 %rd<6>;\n\t.reg .pred %p<2>;", 1)
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 64, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 32; i++ {
		// word i of shared: chunk i/4 holds out[4*(i/4)], out[4*(i/4)+1], 0, 0.
		want := uint32(0)
		if i%4 < 2 {
			want = uint32(i)
		}
		if got := out[32+i]; got != want {
			t.Errorf("shared word %d = %d, want %d", i, got, want)
		}
	}
}

// TestNoPanicOnBadArguments runs every golden kernel with 4-byte buffers and
// odd launch shapes: each run must end normally or with a typed error, never
// an internal one.
func TestNoPanicOnBadArguments(t *testing.T) {
	for _, c := range loadGoldenCases(t) {
		for _, arch := range []string{"sm_75", "sm_90"} {
			name := strings.TrimSuffix(c.Source[strings.LastIndex(c.Source, "/")+1:], ".cu")
			m := parsePTXFile(t, goldenDir+"/ptx/"+name+"."+arch+".ptx")
			args := goldenArgs(t, &c)
			for i := range args {
				if args[i].Buffer != nil {
					args[i].Buffer = make([]byte, 4)
				}
			}
			for _, block := range [][3]int{{33, 1, 1}, {7, 3, 2}} {
				_, err := Launch(context.Background(), m, c.Kernel, args, Config{Grid: [3]int{3, 2, 1}, Block: block, Budget: 1e7})
				var e *Error
				if err != nil && (!errors.As(err, &e) || e.Kind == Internal) {
					t.Errorf("%s/%s block %v: %v", c.Name, arch, block, err)
				}
			}
		}
	}
}

func TestNamedBarriersWithCounts(t *testing.T) {
	// Warps 0 and 1 meet at barrier 1 (64 threads): warp 0 only arrives
	// (producer), warp 1 waits (consumer) and then reads what warp 0 wrote.
	// Warp 2 never touches barrier 1 and must not be waited for.
	src := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	.reg .pred %p<4>;
	.shared .align 4 .b8 buf[128];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
	mov.u32 %r3, buf;
	and.b32 %r4, %r1, 31;
	shl.b32 %r4, %r4, 2;
	add.u32 %r5, %r3, %r4;
	shr.u32 %r6, %r1, 5;
	setp.eq.u32 %p1, %r6, 0;
	@!%p1 bra CONSUMER;
	add.u32 %r7, %r1, 500;
	st.shared.u32 [%r5], %r7;
	bar.arrive 1, 64;
	bra.uni END;
CONSUMER:
	setp.eq.u32 %p2, %r6, 1;
	@!%p2 bra END;
	bar.sync 1, 64;
	ld.shared.u32 %r2, [%r5];
END:
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
`
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{96, 1, 1}, 96, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32(0)
		if i >= 32 && i < 64 {
			want = uint32(i - 32 + 500)
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

func TestDynamicSharedAndGlobals(t *testing.T) {
	src := header + `.extern .shared .align 16 .b8 dyn[];
.global .align 4 .u32 table[4] = {7, 8, 9, 10};
.const .align 4 .u32 scale = 3;
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, dyn;
	shl.b32 %r4, %r1, 2;
	add.u32 %r5, %r3, %r4;
	st.shared.u32 [%r5], %r1;
	bar.sync 0;
	mov.u32 %r6, 255;
	sub.u32 %r6, %r6, %r1;
	shl.b32 %r6, %r6, 2;
	add.u32 %r6, %r3, %r6;
	ld.shared.u32 %r2, [%r6];
	and.b32 %r7, %r1, 3;
	mul.wide.u32 %rd4, %r7, 4;
	mov.u64 %rd5, table;
	add.s64 %rd5, %rd5, %rd4;
	ld.global.u32 %r8, [%rd5];
	ld.const.u32 %r9, [scale];
	mad.lo.u32 %r2, %r8, %r9, %r2;
	mov.u32 %r10, %dynamic_smem_size;
	shl.b32 %r10, %r10, 16;
	add.u32 %r2, %r2, %r10;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
`
	_, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{256, 1, 1}, 256, Config{DynamicShared: 1024})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if want := uint32(255-i) + uint32(7+i%4)*3 + 1024<<16; v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	_, _, err = runOut(t, src, [3]int{1, 1, 1}, [3]int{256, 1, 1}, 256, Config{DynamicShared: 512})
	var e *Error
	if !errors.As(err, &e) || e.Kind != SharedOutOfRange {
		t.Errorf("with 512 bytes of dynamic shared memory: %v, want a shared-out-of-range error", err)
	}
}

// printfPTX is device printf and assert as nvcc lowers them.
const printfPTX = `.extern .func (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.extern .func __assertfail
(
	.param .b64 __assertfail_param_0,
	.param .b64 __assertfail_param_1,
	.param .b32 __assertfail_param_2,
	.param .b64 __assertfail_param_3,
	.param .b64 __assertfail_param_4
)
;
.global .align 1 .b8 $str[24] = {116, 61, 37, 100, 32, 120, 61, 37, 46, 50, 102, 32, 37, 115, 32, 37, 53, 108, 100, 37, 37, 10, 0};
.global .align 1 .b8 $str1[3] = {111, 107, 0};
.global .align 1 .b8 $str2[6] = {116, 32, 60, 32, 51, 0};
.global .align 1 .b8 $str3[5] = {97, 46, 99, 117, 0};
.global .align 1 .b8 $str4[2] = {107, 0};
.visible .entry k(.param .u64 out)
{
	.local .align 8 .b8 __local_depot0[32];
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .b32 %r<6>;
	.reg .f64 %fd<2>;
	.reg .b64 %rd<12>;
	.reg .pred %p<2>;
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
	mov.u32 %r1, %tid.x;
	add.u64 %rd1, %SP, 0;
	add.u64 %rd2, %SPL, 0;
	st.local.u32 [%rd2], %r1;
	cvt.rn.f64.u32 %fd1, %r1;
	st.local.f64 [%rd2+8], %fd1;
	mov.u64 %rd3, $str1;
	cvta.global.u64 %rd4, %rd3;
	st.local.u64 [%rd2+16], %rd4;
	cvt.u64.u32 %rd5, %r1;
	st.local.u64 [%rd2+24], %rd5;
	mov.u64 %rd6, $str;
	cvta.global.u64 %rd7, %rd6;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd7;
	.param .b64 param1;
	st.param.b64 [param1], %rd1;
	.param .b32 retval0;
	call.uni (retval0), vprintf, (param0, param1);
	ld.param.b32 %r2, [retval0];
	}
	setp.lt.u32 %p1, %r1, 3;
	@%p1 bra DONE;
	mov.u64 %rd8, $str2;
	cvta.global.u64 %rd8, %rd8;
	mov.u64 %rd9, $str3;
	cvta.global.u64 %rd9, %rd9;
	mov.u64 %rd10, $str4;
	cvta.global.u64 %rd10, %rd10;
	{
	.param .b64 param0;
	st.param.b64 [param0], %rd8;
	.param .b64 param1;
	st.param.b64 [param1], %rd9;
	.param .b32 param2;
	st.param.b32 [param2], 42;
	.param .b64 param3;
	st.param.b64 [param3], %rd10;
	.param .b64 param4;
	st.param.b64 [param4], 1;
	call.uni __assertfail, (param0, param1, param2, param3, param4);   // ASSERT
	}
DONE:
	ret;
}
`

func TestPrintfAndAssert(t *testing.T) {
	src := header + printfPTX
	res, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{3, 1, 1}, 1, Config{})
	if err != nil {
		t.Fatal(err)
	}
	want := "t=0 x=0.00 ok     0%\nt=1 x=1.00 ok     1%\nt=2 x=2.00 ok     2%\n"
	if res.Stdout != want {
		t.Errorf("stdout %q, want %q", res.Stdout, want)
	}
	_, _, err = runOut(t, src, [3]int{1, 1, 1}, [3]int{4, 1, 1}, 1, Config{})
	e := wantError(t, err, Trap, lineOf(t, src, "ASSERT"))
	if e.Thread != [3]int{3, 0, 0} || !strings.Contains(e.Error(), "assertion `t < 3` failed") || !strings.Contains(e.Error(), "a.cu:42") {
		t.Errorf("assert error %v", e)
	}
}

func TestLiveRegisters(t *testing.T) {
	src := header + kernelHead + `
	add.u32 %r3, %r1, 5;           // DEF3
	add.u32 %r4, %r3, %r3;         // USE3
	add.u32 %r2, %r4, %r1;
` + storeTail
	res, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	has := func(l []string, r string) bool {
		for _, x := range l {
			if x == r {
				return true
			}
		}
		return false
	}
	for _, st := range res.Trace.Steps {
		switch st.Line {
		case lineOf(t, src, "DEF3"):
			if !has(st.Live, "%r3") || !has(st.Live, "%r1") || has(st.Live, "%r4") {
				t.Errorf("live after DEF3: %v, want %%r1 and %%r3, not %%r4", st.Live)
			}
		case lineOf(t, src, "USE3"):
			if has(st.Live, "%r3") || !has(st.Live, "%r4") {
				t.Errorf("live after USE3: %v, want %%r4, not %%r3", st.Live)
			}
		}
	}
}

// TestH200Barriers runs testdata/hw.sm_90.ptx and compares with what the
// H200 printed for it (testdata/hw.h200.out): a barrier after some threads
// returned, barriers in both branches of a warp-splitting if/else, printf.
func TestH200Barriers(t *testing.T) {
	raw, err := os.ReadFile("testdata/hw.h200.out")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	m := parsePTXFile(t, "testdata/hw.sm_90.ptx")
	for _, c := range []struct {
		kernel string
		n      int
		want   string
	}{{"_Z2k1Pi", 40, lines[1]}, {"_Z2k2Pi", 64, lines[3]}} {
		res, err := Launch(context.Background(), m, c.kernel, []Arg{{Buffer: make([]byte, 256)}}, Config{Block: [3]int{64, 1, 1}})
		if err != nil {
			t.Errorf("%s: %v", c.kernel, err)
			continue
		}
		var got strings.Builder
		for i := 0; i < c.n; i++ {
			fmt.Fprintf(&got, "%d ", int32(binary.LittleEndian.Uint32(res.Buffers[0][4*i:])))
		}
		if got.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.kernel, got.String(), c.want)
		}
	}
	res, err := Launch(context.Background(), m, "_Z2k3v", nil, Config{Block: [3]int{2, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if want := lines[4] + "\n" + lines[5] + "\n"; res.Stdout != want {
		t.Errorf("printf:\n got %q\nwant %q", res.Stdout, want)
	}
}

// TestH200Differential runs the kernels of testdata/hwdiff/hwdiff.cu from
// their sm_80 and sm_90 PTX with the launches of its main() and compares each
// output buffer with what the H200 produced.
func TestH200Differential(t *testing.T) {
	launches := []struct {
		kernel      string
		grid, block [3]int
		dyn         int
		scalar      []uint64
	}{
		{"_Z2kAPii", [3]int{1, 1, 1}, [3]int{64, 1, 1}, 0, []uint64{5}},
		{"_Z2kBPi", [3]int{1, 1, 1}, [3]int{64, 1, 1}, 0, nil},
		{"_Z2kCPj", [3]int{1, 1, 1}, [3]int{128, 1, 1}, 0, nil},
		{"_Z2kDPi", [3]int{1, 1, 1}, [3]int{64, 1, 1}, 0, nil},
		{"_Z2kEPi", [3]int{1, 1, 1}, [3]int{256, 1, 1}, 0, nil},
		{"_Z2kFPi", [3]int{2, 3, 2}, [3]int{4, 2, 3}, 24 * 4, nil},
		{"_Z2kGPf", [3]int{1, 1, 1}, [3]int{128, 1, 1}, 0, nil},
	}
	for _, arch := range []string{"sm_80", "sm_90"} {
		m := parsePTXFile(t, "testdata/hwdiff/hwdiff."+arch+".ptx")
		for _, c := range launches {
			want, err := os.ReadFile("testdata/hwdiff/" + c.kernel[3:5] + ".bin")
			if err != nil {
				t.Fatal(err)
			}
			args := []Arg{{Buffer: make([]byte, 1<<16)}}
			for _, s := range c.scalar {
				args = append(args, Arg{Scalar: s})
			}
			res, err := Launch(context.Background(), m, c.kernel, args,
				Config{Grid: c.grid, Block: c.block, DynamicShared: c.dyn, NumSMs: 132})
			if err != nil {
				t.Errorf("%s %s: %v", arch, c.kernel, err)
				continue
			}
			if msg := compareOutput(res.Buffers[0][:len(want)], want, "u32*", 0); msg != "" {
				t.Errorf("%s %s: %s", arch, c.kernel, msg)
			}
		}
	}
}

func TestDivergentCallAndReturn(t *testing.T) {
	src := header + `
.func (.param .b32 r) f(.param .b32 x)
{
	.reg .b32 %r<4>;
	.reg .pred %p<3>;
	ld.param.b32 %r1, [x];
	setp.lt.u32 %p1, %r1, 10;
	@%p1 bra SMALL;
	shl.b32 %r2, %r1, 1;
	st.param.b32 [r], %r2;
	ret;
SMALL:
	add.u32 %r2, %r1, 1000;
	st.param.b32 [r], %r2;
	setp.eq.u32 %p2, %r1, 4;
	@%p2 ret;
	add.u32 %r2, %r2, 1000;
	st.param.b32 [r], %r2;
	ret;
}
` + kernelHead + `
	mov.u32 %r2, -1;
	and.b32 %r3, %r1, 1;
	setp.ne.u32 %p1, %r3, 0;
	@%p1 bra SKIP;
	{
	.param .b32 a;
	.param .b32 v;
	st.param.b32 [a], %r1;
	call.uni (v), f, (a);
	ld.param.b32 %r2, [v];
	}
SKIP:
` + storeTail
	res, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32(0xffffffff)
		switch {
		case i%2 == 1:
		case i >= 10:
			want = uint32(2 * i)
		case i == 4:
			want = uint32(i + 1000)
		default:
			want = uint32(i + 2000)
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	var calls, rets int
	for _, st := range res.Trace.Steps {
		switch st.Event {
		case "call":
			calls++
		case "return":
			rets++
		}
	}
	if calls != 1 || rets < 2 {
		t.Errorf("trace has %d calls and %d returns, want 1 and at least 2", calls, rets)
	}
}

// TestDecodeCorpus lowers every kernel of every PTX file of the corpus and
// of testdata/: no instruction may be left unsupported.
func TestDecodeCorpus(t *testing.T) {
	var files []string
	for _, pat := range []string{goldenDir + "/ptx/*.ptx", goldenDir + "/isa/ptx/*.ptx", "testdata/*.ptx", "testdata/*/*.ptx"} {
		fs, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) < 300 {
		t.Fatalf("found only %d PTX files", len(files))
	}
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(f, src)
		if err != nil {
			continue // the two variants the H200 rejected, and whatever gpu/ptx refuses, are its concern
		}
		for _, k := range m.Kernels() {
			args := make([]Arg, len(k.Params))
			p, _, err := newProgram(m, k.Name, args, &Config{}, newHeap())
			if err != nil {
				t.Errorf("%s %s: %v", f, k.Name, err)
				continue
			}
			for i, o := range p.ops {
				n++
				if o.kind == kUnsupported {
					t.Errorf("%s line %d: %s", f, p.info[i].line, o.msg)
				}
			}
		}
	}
	t.Logf("%d ops of %d files decoded", n, len(files))
}

func TestIndirectCall(t *testing.T) {
	src := header + `
.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	shl.b32 %r2, %r1, 1;
	st.param.b32 [r], %r2;
	ret;
}
.func (.param .b32 r) plus7(.param .b32 x)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [x];
	add.u32 %r2, %r1, 7;
	st.param.b32 [r], %r2;
	ret;
}
` + kernelHead + `
	.reg .b64 %fp<3>;
	mov.u64 %fp1, twice;
	mov.u64 %fp2, plus7;
	and.b32 %r3, %r1, 1;
	setp.eq.u32 %p1, %r3, 0;
	selp.b64 %fp0, %fp1, %fp2, %p1;
	{
	.param .b32 a;
	.param .b32 v;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	st.param.b32 [a], %r1;
	call (v), %fp0, (a), proto;
	ld.param.b32 %r2, [v];
	}
` + storeTail
	res, out, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{32, 1, 1}, 32, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		want := uint32(i + 7)
		if i%2 == 0 {
			want = uint32(2 * i)
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	// The warp splits by callee: the call issues once to split, then once per callee.
	for _, in := range res.Insts {
		if in.Op == "call" && (in.WarpExecs != 3 || in.DivergentBranches != 1) {
			t.Errorf("indirect call issued %d times with %d splits, want 3 and 1", in.WarpExecs, in.DivergentBranches)
		}
	}
}

// TestMutatedKernelsNeverInternal launches mutants of the golden kernels
// (instruction lines dropped, duplicated or swapped): every launch must end
// normally or with a typed error about the program, never an internal one.
func TestMutatedKernelsNeverInternal(t *testing.T) {
	files, err := filepath.Glob(goldenDir + "/ptx/*.sm_90.ptx")
	if err != nil || len(files) == 0 {
		t.Fatalf("no PTX files: %v", err)
	}
	seed := uint64(12345)
	rnd := func(n int) int {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	launched := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		var body []int
		for i, l := range lines {
			if tl := strings.TrimSpace(l); strings.HasSuffix(tl, ";") && !strings.HasPrefix(tl, ".") && !strings.HasPrefix(tl, "//") {
				body = append(body, i)
			}
		}
		for k := 0; k < 15; k++ {
			mut := append([]string(nil), lines...)
			for j := 0; j < 1+k%6; j++ {
				a, b := body[rnd(len(body))], body[rnd(len(body))]
				switch rnd(3) {
				case 0:
					mut[a] = ""
				case 1:
					mut[a] = mut[b]
				default:
					mut[a], mut[b] = mut[b], mut[a]
				}
			}
			m, err := ptx.Parse(f, []byte(strings.Join(mut, "\n")))
			if err != nil {
				continue
			}
			for _, kf := range m.Kernels() {
				args := make([]Arg, len(kf.Params))
				for i, p := range kf.Params {
					if p.Type == ptx.U64 {
						args[i].Buffer = make([]byte, 4096)
					} else {
						args[i].Scalar = 64
					}
				}
				launched++
				_, err := Launch(context.Background(), m, kf.Name, args, Config{Grid: [3]int{2, 1, 1}, Block: [3]int{64, 1, 1}, Budget: 200000})
				var e *Error
				if err != nil && (!errors.As(err, &e) || e.Kind == Internal) {
					t.Errorf("%s mutant %d kernel %s: %v", filepath.Base(f), k, kf.Name, err)
				}
			}
		}
	}
	if launched < 100 {
		t.Errorf("only %d mutants launched", launched)
	}
}
