package timing

import (
	"fmt"
	"slices"
	"testing"
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
