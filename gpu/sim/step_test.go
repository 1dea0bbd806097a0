package sim

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
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
