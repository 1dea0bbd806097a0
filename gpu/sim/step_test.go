package sim

import (
	"bytes"
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
