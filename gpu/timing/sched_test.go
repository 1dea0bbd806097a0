package timing

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
)

// order is the PCs of one straight-line program in the schedule's issue order.
func order(p *Program, s *Schedule) []int32 {
	ws := make(WarpStream, len(p.Insts))
	for i := range ws {
		ws[i] = Event{PC: int32(i)}
	}
	s.Reorder(ws, nil)
	out := make([]int32, len(ws))
	for i, e := range ws {
		out[i] = e.PC
	}
	return out
}

// TestScheduleHoistsIndependentLoads: two load-use pairs issue as both loads,
// then both uses; every register dependence is kept.
func TestScheduleHoistsIndependentLoads(t *testing.T) {
	p := kernel(t, "sm_90",
		"ld.global.f32 %f1, [%rd1];",
		"add.f32 %f2, %f1, %f1;",
		"ld.global.f32 %f3, [%rd2];",
		"add.f32 %f4, %f3, %f3;",
		"ret;")
	got := order(p, NewSchedule(p, len(p.Insts), nil))
	if want := []int32{0, 2, 1, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// TestScheduleKeepsMemoryOrder: a load does not pass a store it may alias (same
// space, or a generic address), but passes a store to another space; a region
// does not cross a label or a barrier.
func TestScheduleKeepsMemoryOrder(t *testing.T) {
	cases := []struct {
		name  string
		store string
		want  []int32
	}{
		{"shared store, global load", "st.shared.f32 [%rd3], %f9;", []int32{0, 2, 1, 3, 4}},
		{"global store, global load", "st.global.f32 [%rd3], %f9;", []int32{0, 1, 2, 3, 4}},
		{"generic store, global load", "st.f32 [%rd3], %f9;", []int32{0, 1, 2, 3, 4}},
	}
	for _, c := range cases {
		p := kernel(t, "sm_90",
			"ld.global.f32 %f1, [%rd1];",
			c.store,
			"ld.global.f32 %f3, [%rd2];",
			"add.f32 %f4, %f3, %f1;",
			"ret;")
		// the store's data is independent of both loads: only memory order holds it
		if got := order(p, NewSchedule(p, len(p.Insts), nil)); !slices.Equal(got, c.want) {
			t.Errorf("%s: order %v, want %v", c.name, got, c.want)
		}
	}
	p := kernel(t, "sm_90",
		"ld.global.f32 %f1, [%rd1];",
		"add.f32 %f2, %f1, %f1;",
		"bar.sync 0;",
		"ld.global.f32 %f3, [%rd2];",
		"add.f32 %f4, %f3, %f3;",
		"ret;")
	if got, want := order(p, NewSchedule(p, len(p.Insts), nil)), []int32{0, 1, 2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("across a barrier: order %v, want %v", got, want)
	}
	p = kernel(t, "sm_90",
		"ld.global.f32 %f1, [%rd1];",
		"add.f32 %f2, %f1, %f1;",
		"ld.global.f32 %f3, [%rd2];",
		"add.f32 %f4, %f3, %f3;",
		"ret;")
	if got, want := order(p, NewSchedule(p, len(p.Insts), []int{2})), []int32{0, 1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("across a label: order %v, want %v", got, want)
	}
}

// TestScheduleOnlyWholeRegions: a partial execution of a region (a trace that
// left it early) keeps program order.
func TestScheduleOnlyWholeRegions(t *testing.T) {
	p := kernel(t, "sm_90",
		"ld.global.f32 %f1, [%rd1];",
		"add.f32 %f2, %f1, %f1;",
		"ld.global.f32 %f3, [%rd2];",
		"add.f32 %f4, %f3, %f3;",
		"ret;")
	s := NewSchedule(p, len(p.Insts), nil)
	ws := WarpStream{{PC: 0}, {PC: 1}, {PC: 2}}
	s.Reorder(ws, nil)
	for i, e := range ws {
		if e.PC != int32(i) {
			t.Fatalf("partial region reordered: %v", ws)
		}
	}
}

// TestScheduleSpeedsUpLoadUse: the modelled schedule lets a warp's independent
// loads overlap, so the same stream takes fewer cycles than in program order.
func TestScheduleSpeedsUpLoadUse(t *testing.T) {
	body := repeat(8, func(i int) string {
		return fmt.Sprintf("ld.global.f32 %%f%d, [%%rd%d];\nadd.f32 %%f%d, %%f%d, %%f0;", 2*i+1, i+1, 2*i+2, 2*i+1)
	})
	p := kernel(t, "sm_90", append(body, "ret;")...)
	inOrder := linear(p, MemL2Hit, 1)
	sched := linear(p, MemL2Hit, 1)
	NewSchedule(p, len(p.Insts), nil).Reorder(sched, nil)
	a := run1(t, p, Config{}, []WarpStream{inOrder})
	b := run1(t, p, Config{}, []WarpStream{sched})
	if b.Cycles*2 > a.Cycles {
		t.Fatalf("scheduled %d cycles, program order %d: want under half", b.Cycles, a.Cycles)
	}
}

// TestScheduleUnrollsLoops: four trips of a loop ptxas unrolls issue as one
// region of renamed copies (every copy's load before the first copy's use of its
// own, the pointer increments between them), so a latency-bound loop of one load
// a trip takes well under half the cycles of the trips in order; a partial group
// of trips keeps the one-trip schedule.
func TestScheduleUnrollsLoops(t *testing.T) {
	p := kernel(t, "sm_90",
		"$L:",
		"ld.global.f32 %f1, [%rd1];",
		"add.f32 %f2, %f2, %f1;",
		"add.s64 %rd1, %rd1, 4;",
		"setp.ne.s64 %p1, %rd1, %rd2;",
		"@%p1 bra $L;",
		"ret;")
	n := len(p.Insts)
	trips := func(k int) WarpStream {
		var ws WarpStream
		for range k {
			for pc := range 5 {
				e := Event{PC: int32(pc), Active: ^uint32(0), Sectors: 1}
				if pc == 0 {
					e.Mem = MemL2Hit
				}
				ws = append(ws, e)
			}
		}
		return append(ws, Event{PC: 5, Active: ^uint32(0)})
	}
	plain := trips(8)
	a := run1(t, p, Config{}, []WarpStream{plain})
	s := NewSchedule(p, n, []int{0})
	s.Unroll(p, [][2]int{{0, 4}}, 4)
	if s.Unrolled() != 1 || len(p.Insts) != n+20 {
		t.Fatalf("unrolled %d loops, %d instructions (want 1 and %d)", s.Unrolled(), len(p.Insts), n+20)
	}
	ws := trips(8)
	s.Reorder(ws, nil)
	lastLoad, firstUse := -1, -1
	for i, e := range ws[:20] {
		in := &p.Insts[e.PC]
		if int(e.PC) < n {
			t.Fatalf("event %d still at the loop's own PC %d", i, e.PC)
		}
		switch in.Timing.Pipe {
		case latency.PipeMemory:
			lastLoad = i
		case latency.PipeFP32:
			if firstUse < 0 {
				firstUse = i
			}
		}
	}
	if firstUse < lastLoad {
		t.Errorf("a float add issues at %d, before the last trip's load at %d", firstUse, lastLoad)
	}
	if last := ws[19].PC; p.Insts[last].Line != p.Insts[4].Line {
		t.Errorf("the group's last event is PC %d, want the back edge's copy", last)
	}
	b := run1(t, p, Config{}, []WarpStream{ws})
	if b.Cycles*2 > a.Cycles {
		t.Errorf("unrolled %d cycles, trips in order %d: want under half", b.Cycles, a.Cycles)
	}
	part, one := trips(3), trips(3)
	s.Reorder(part, nil)
	NewSchedule(p, n, []int{0}).Reorder(one, nil)
	if !slices.Equal(part, one) {
		t.Errorf("a partial group: %v, want the one-trip schedule %v", part, one)
	}
}
