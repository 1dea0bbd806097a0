package sim

import (
	"bytes"
	"errors"
	"testing"
)

// roundRobin is a Driver that keeps up to resident blocks and steps their
// ready warps one instruction each in turn (a stand-in for a timing model).
func roundRobin(resident int) Driver {
	return func(st *Stepper) error {
		type res struct{ slot, live int }
		var slots []res
		for {
			for len(slots) < resident && st.Started() < st.Blocks() {
				s, err := st.Start(st.Started() % 132)
				if err != nil {
					return err
				}
				slots = append(slots, res{s, st.WarpsPerBlock()})
			}
			if len(slots) == 0 {
				return st.Finish()
			}
			progressed := false
			k := 0
			for _, r := range slots {
				live := 0
				for w := 0; w < st.WarpsPerBlock(); w++ {
					_, s, err := st.Peek(r.slot, w)
					if err != nil {
						return err
					}
					if s == WarpDone {
						continue
					}
					live++
					if s != WarpReady {
						continue
					}
					if _, err := st.Step(r.slot, w); err != nil {
						return err
					}
					progressed = true
				}
				if live > 0 {
					slots[k] = r
					k++
				}
			}
			slots = slots[:k]
			if !progressed && len(slots) > 0 {
				return st.Deadlock()
			}
		}
	}
}

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
		got, err := runGolden(t, &c, "sm_90", Config{Trace: TraceConfig{MaxSteps: -1}, Driver: roundRobin(3)})
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
	_, err := runGolden(t, &cs[0], "sm_90", Config{Trace: TraceConfig{MaxSteps: -1}, Check: Checks{Race: true}, Driver: roundRobin(1)})
	var e *Error
	if !errors.As(err, &e) || e.Kind != InvalidLaunch {
		t.Fatalf("want an invalid-launch error, got %v", err)
	}
}
