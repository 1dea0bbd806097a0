package sim

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// TestStepperGolden: the golden launches stepped one instruction at a time
// by a round-robin driver, with several blocks resident, give the bytes and
// counters of the block scheduler (race-free kernels).
func TestStepperGolden(t *testing.T) {
	for _, c := range loadGoldenCases(t) {
		c := c
		want, err := runGolden(t, &c, "sm_90", Config{Trace: TraceConfig{MaxSteps: -1}})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got, err := runGolden(t, &c, "sm_90", Config{Trace: TraceConfig{MaxSteps: -1}, Driver: RoundRobin(3)})
		if err != nil {
			t.Fatalf("%s stepped: %v", c.Name, err)
		}
		for i := range want.Buffers {
			if !bytes.Equal(want.Buffers[i], got.Buffers[i]) {
				t.Errorf("%s: buffer %d differs when stepped", c.Name, i)
			}
		}
		if want.Stats != got.Stats {
			t.Errorf("%s: stats %+v stepped, %+v scheduled", c.Name, got.Stats, want.Stats)
		}
		for i := range want.Insts {
			if want.Insts[i].WarpExecs != got.Insts[i].WarpExecs || want.Insts[i].ThreadExecs != got.Insts[i].ThreadExecs {
				t.Errorf("%s: pc %d executed %d/%d times stepped, %d/%d scheduled", c.Name, i,
					got.Insts[i].WarpExecs, got.Insts[i].ThreadExecs, want.Insts[i].WarpExecs, want.Insts[i].ThreadExecs)
				break
			}
		}
	}
}

// TestStepperChecksRefused: the checks need the block scheduler; a stepped
// launch with them is an invalid launch, said plainly.
func TestStepperChecksRefused(t *testing.T) {
	cs := loadGoldenCases(t)
	_, err := runGolden(t, &cs[0], "sm_90", Config{Trace: TraceConfig{MaxSteps: -1}, Check: Checks{Race: true}, Driver: RoundRobin(1)})
	var e *Error
	if !errors.As(err, &e) || e.Kind != InvalidLaunch {
		t.Fatalf("want an invalid-launch error, got %v", err)
	}
}

// TestStepperWgmma: a wgmma probe (warpgroups of 4 warps, shared-memory
// descriptors, async groups) stepped round-robin with 2 resident blocks gives
// the block scheduler's bytes.
func TestStepperWgmma(t *testing.T) {
	m := parsePTXFile(t, wgmmaDir+"ptx/wgmma_probe.nvcc.sm_90a.ptx")
	for _, v := range wgmmaLayout[:min(2, len(wgmmaLayout))] {
		in := readFileT(t, wgmmaDir+"cases/"+v.name+".in")
		n := int(binary.LittleEndian.Uint32(in))
		var outs [2][]byte
		for i, d := range []Driver{nil, RoundRobin(2)} {
			buf := bytes.Repeat([]byte{0xff}, n*128*v.nd*4)
			res, err := Launch(context.Background(), m, kernelNamed(t, m, "k_"+v.name), []Arg{{Buffer: in}, {Buffer: buf}},
				Config{Grid: [3]int{n, 1, 1}, Block: [3]int{128, 1, 1}, Driver: d})
			if err != nil {
				t.Fatalf("%s (driver %v): %v", v.name, d != nil, err)
			}
			outs[i] = res.Buffers[1]
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: stepped output differs", v.name)
		}
	}
}

// spinSrc: out[0] is a flag; warp 0 of the last block computes ITERS
// iterations and then sets it; every other block spins on it and copies it to
// out[1+ctaid].
const spinSrc = header + `
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<5>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd3, %rd1;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r6, %nctaid.x;
	add.s32 %r6, %r6, -1;
	setp.eq.s32 %p1, %r1, %r6;
	@%p1 bra WRITER;
SPIN:
	ld.volatile.global.u32 %r2, [%rd3];
	setp.eq.s32 %p2, %r2, 0;
	@%p2 bra SPIN;
	add.s32 %r5, %r1, 1;
	mul.wide.u32 %rd5, %r5, 4;
	add.s64 %rd5, %rd3, %rd5;
	st.global.u32 [%rd5], %r2;
	ret;
WRITER:
	mov.u32 %r8, %tid.x;
	setp.ge.u32 %p3, %r8, 32;
	@%p3 bra OUT;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
WORK:
	add.s32 %r3, %r3, 3;
	add.s32 %r4, %r4, 1;
	setp.lt.s32 %p4, %r4, ITERS;
	@%p4 bra WORK;
	st.volatile.global.u32 [%rd3], %r3;
OUT:
	ret;
}
`

// TestStepperSpin: blocks spinning on a flag that a working warp sets after a
// long computation (far more spins than the limit) finish; blocks spinning on
// a flag nobody sets end in a deadlock error naming them and the line.
func TestStepperSpin(t *testing.T) {
	src := strings.Replace(spinSrc, "ITERS", "20000", 1)
	cfg := Config{Trace: TraceConfig{MaxSteps: -1}, Driver: RoundRobin(8), sched: schedule{spins: 2000}}
	_, out, err := runOut(t, src, [3]int{8, 1, 1}, [3]int{64, 1, 1}, 9, cfg)
	if err != nil {
		t.Fatalf("long producer: %v", err)
	}
	for b := 1; b < 8; b++ {
		if out[b] != 60000 {
			t.Fatalf("out = %v, want 60000 from block 1 on", out)
		}
	}
	// 3 resident at a time: blocks 0-2 spin, the writer (block 7) never starts
	cfg.Driver = RoundRobin(3)
	_, _, err = runOut(t, src, [3]int{8, 1, 1}, [3]int{64, 1, 1}, 9, cfg)
	var e *Error
	if !errors.As(err, &e) || e.Kind != Deadlock || e.PTXLine != lineOf(t, src, "ld.volatile") ||
		!strings.Contains(e.Error(), "blocks 0, 1, 2") || !strings.Contains(e.Error(), "cannot become resident") {
		t.Fatalf("want a spin deadlock naming blocks 0-2 at the volatile load, got %v", err)
	}
}
