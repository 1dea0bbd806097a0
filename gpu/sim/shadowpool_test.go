package sim

import (
	"context"
	"reflect"
	"testing"
)

// TestShadowPoolReuse: launches whose race checker takes its global shadow
// from a pool that earlier launches (larger buffers, then the same ones) left
// arrays in find exactly the races and uninitialised reads of a launch with a
// fresh shadow.
func TestShadowPoolReuse(t *testing.T) {
	m := parseSrc(t, header+hazardPTX)
	args := func(scale int) []Arg {
		return []Arg{{Buffer: make([]byte, 4*(64+16*64)*scale)}, {Buffer: make([]byte, 4*16*64*scale), Undefined: true}}
	}
	cfg := Config{Grid: [3]int{16, 1, 1}, Block: [3]int{64, 1, 1}, Trace: TraceConfig{MaxSteps: -1}, Check: Checks{Race: true, Init: true, Sync: true}, Workers: 1}
	want, err := Launch(context.Background(), m, "k", args(1), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Findings) == 0 {
		t.Fatal("the hazard kernel found nothing: the comparison would prove nothing")
	}
	var pool ShadowPool
	cfg.Shadows = &pool
	for i, scale := range []int{4, 1, 1, 2, 1} {
		got, err := Launch(context.Background(), m, "k", args(scale), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if pool.bytes == 0 {
			t.Fatalf("launch %d left nothing in the pool", i)
		}
		if scale != 1 {
			continue
		}
		if !reflect.DeepEqual(got.Findings, want.Findings) || got.FindingsDropped != want.FindingsDropped || !reflect.DeepEqual(got.CheckNotes, want.CheckNotes) {
			t.Fatalf("launch %d with a pooled shadow: findings %+v, want %+v", i, got.Findings, want.Findings)
		}
		if !reflect.DeepEqual(got.Buffers, want.Buffers) {
			t.Fatalf("launch %d: buffers differ", i)
		}
	}
}
