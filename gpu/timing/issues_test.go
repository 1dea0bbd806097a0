package timing

import (
	"context"
	"fmt"
	"testing"
)

// run1 replays one warp of straight-line code on one SM.
func runOne(t *testing.T, p *Program) *Result {
	t.Helper()
	r, err := Run(context.Background(), p, Config{NumSMs: 1, BlocksPerSM: 1}, [][]WarpStream{{linear(p, MemL1Hit, 1)}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFoldedInstructionIssuesNothing: an instruction that issues as no SASS
// instruction (Issues 0) costs no cycle and no issue, and its result is
// ready when its source is: a chain through a folded mov times as the chain
// without it.
func TestFoldedInstructionIssuesNothing(t *testing.T) {
	with := kernel(t, "sm_90", "add.s32 %r1, %r1, 1;", "mov.b32 %r2, %r1;", "add.s32 %r3, %r2, 1;", "add.s32 %r4, %r3, 1;")
	without := kernel(t, "sm_90", "add.s32 %r1, %r1, 1;", "add.s32 %r3, %r1, 1;", "add.s32 %r4, %r3, 1;")
	with.Insts[1].Issues = 0
	a, b := runOne(t, with), runOne(t, without)
	if a.Cycles != b.Cycles || a.Issued != b.Issued || a.Issued != 3 || a.PipeBusy != b.PipeBusy {
		t.Errorf("folded mov: %d cycles, %d issued, pipes %v; without it: %d cycles, %d issued, pipes %v",
			a.Cycles, a.Issued, a.PipeBusy, b.Cycles, b.Issued, b.PipeBusy)
	}
	// A stream of folded instructions only: the warp issues nothing.
	all := kernel(t, "sm_90", "mov.b32 %r2, %r1;")
	all.Insts[0].Issues = 0
	if r := runOne(t, all); r.Issued != 0 {
		t.Errorf("an all-folded warp issued %d", r.Issued)
	}
}

// TestSeveralIssueSlots: an instruction of n SASS instructions takes n issue
// slots of its sub-partition and n issue intervals of its pipe; its result
// is ready n-1 cycles after that of a single-slot one.
func TestSeveralIssueSlots(t *testing.T) {
	body := make([]string, 10)
	for i := range body {
		body[i] = fmt.Sprintf("add.f32 %%f%d, %%f40, %%f41;", i) // independent
	}
	one := kernel(t, "sm_90", body...)
	three := kernel(t, "sm_90", body...)
	for i := range three.Insts {
		three.Insts[i].Issues = 3
	}
	a, b := runOne(t, one), runOne(t, three)
	ic := int64(max(one.Insts[0].Timing.IssueCycles, 1))
	lat := int64(one.Insts[0].Timing.Latency)
	if b.Issued != 3*a.Issued || b.Issued != 30 {
		t.Errorf("issued %d with 3 slots each, %d with 1", b.Issued, a.Issued)
	}
	p := one.Insts[0].Timing.Pipe
	if b.PipeBusy[p] != 3*a.PipeBusy[p] {
		t.Errorf("pipe busy %d with 3 slots each, %d with 1", b.PipeBusy[p], a.PipeBusy[p])
	}
	// One warp: instruction i issues at i x spacing, spacing max(slots, slots x
	// issue interval); the last result is ready slots-1 + latency later.
	s1, s3 := max(1, ic), max(3, 3*ic)
	want := a.Cycles + 9*(s3-s1) + 2
	if b.Cycles != want {
		t.Errorf("10 independent adds of 3 slots: %d cycles, want %d (1 slot: %d; issue interval %d, latency %d)", b.Cycles, want, a.Cycles, ic, lat)
	}
	if b.States[Selected] != 30 {
		t.Errorf("selected for %d warp-cycles, want 30 (one per slot)", b.States[Selected])
	}
	bad := kernel(t, "sm_90", body[0])
	bad.Insts[0].Issues = -1
	if _, err := New(bad, Config{BlocksPerSM: 1}); err == nil {
		t.Error("a negative issue count was accepted")
	}
}
