package main

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepeatRecorded: the recorded H200 repeats load, and Describe places a value
// against them (one of the runs, inside their range, outside it).
func TestRepeatRecorded(t *testing.T) {
	r, err := LoadRepeat(filepath.Join("..", "..", RepeatFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"olcf_atomic_red", "olcf_reduce_ws", "lc_dot_prod_f32"} {
		for buf, runs := range r[id] {
			if len(runs) != 20 {
				t.Errorf("%s.%s: %d runs, want 20", id, buf, len(runs))
			}
		}
		if len(r[id]) != 1 {
			t.Errorf("%s: %d buffers, want 1", id, len(r[id]))
		}
	}
	word := func(v float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)) }
	runs := r["olcf_atomic_red"]["out"]
	one := make([]byte, 4)
	binary.LittleEndian.PutUint32(one, runs[0])
	for _, c := range []struct {
		got  []byte
		want string
	}{
		{one, "is one of them"},
		{word(32720.95), "is inside that range"},
		{word(32700), "is outside that range"},
	} {
		s := r.Describe("olcf_atomic_red", "out", c.got)
		if !strings.HasPrefix(s, "the H200 gave 19 distinct values in 20 runs") || !strings.HasSuffix(s, c.want) {
			t.Errorf("Describe = %q, want 19 distinct values and %q", s, c.want)
		}
	}
	if s := r.Describe("no_such_kernel", "out", one); s != "" {
		t.Errorf("Describe of a kernel without repeats = %q", s)
	}
}
