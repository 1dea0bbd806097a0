package timing

import (
	"math/rand"
	"testing"
)

// The compact encoding gives back every field the model reads (all but
// Active), on streams of runs longer than a header holds, backward and far
// jumps, memory events of every class and Acc that rises, falls and skips.
func TestCompactRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var w warp
	for trial := 0; trial < 200; trial++ {
		n := r.Intn(300)
		s := make(WarpStream, n)
		pc, acc := int32(0), int32(0)
		var lastMem Event
		for i := range s {
			switch k := r.Intn(10); {
			case k < 6:
				pc++
			case k < 8:
				pc = int32(r.Intn(1 << uint(1+r.Intn(30))))
			default:
				pc = max(0, pc-int32(r.Intn(40)))
			}
			e := Event{PC: pc, Active: r.Uint32()}
			switch k := r.Intn(6); {
			case k == 0:
				e.Mem, e.Sectors = MemClass(r.Intn(5)), uint8(r.Intn(256))
				if r.Intn(2) == 0 {
					e.DRAMSectors = uint8(r.Intn(256))
				}
				lastMem = e
			case k == 1: // the last memory fields again
				e.Mem, e.Sectors, e.DRAMSectors = lastMem.Mem, lastMem.Sectors, lastMem.DRAMSectors
			case k == 2: // DRAM sectors alone
				e.DRAMSectors = uint8(1 + r.Intn(255))
			}
			if r.Intn(4) == 0 {
				acc += int32(r.Intn(2000)) - 500
				e.Acc = acc
			}
			s[i] = e
		}
		if trial%7 == 0 { // one long run of plain events
			for i := range s {
				s[i] = Event{PC: int32(i)}
			}
		}
		w.load(s)
		if w.n != n {
			t.Fatalf("trial %d: %d events, want %d", trial, w.n, n)
		}
		for i := range s {
			if w.pos != i {
				t.Fatalf("trial %d: pos %d, want %d", trial, w.pos, i)
			}
			want := s[i]
			want.Active = 0
			if w.cur != want {
				t.Fatalf("trial %d event %d: decoded %+v, want %+v", trial, i, w.cur, want)
			}
			w.step()
		}
		if w.pos != n {
			t.Fatalf("trial %d: ended at %d of %d", trial, w.pos, n)
		}
		if trial%7 == 0 && n > 0 {
			if max := 1 + n/(runMax+1); len(w.enc) > max {
				t.Errorf("trial %d: %d plain events took %d bytes, want at most %d", trial, n, len(w.enc), max)
			}
		}
	}
}
