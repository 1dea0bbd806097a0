package timing

import (
	"context"
	"reflect"
	"testing"
)

// Config.Release gets every stream of every block exactly once, and only
// once the model reads it no more (at dispatch, since the model keeps a compact copy): a caller that overwrites each stream
// it is given (as the analysis does when it reuses them) changes nothing,
// on waves of blocks with barriers, branches, memory and uneven lengths.
func TestReleaseAfterRetire(t *testing.T) {
	p := kernel(t, "sm_90", "ld.param.u64 %rd1, [pp];", "ld.global.f32 %f1, [%rd1];", "ld.shared.f32 %f2, [%r1];",
		"add.f32 %f3, %f1, %f2;", "bar.sync 0;", "@%p1 bra $L1;", "st.global.f32 [%rd1], %f3;", "membar.gl;",
		"$L1:", "st.shared.f32 [%r1], %f3;", "ret;")
	mk := func() [][]WarpStream {
		var blocks [][]WarpStream
		for b := 0; b < 40; b++ {
			blk := make([]WarpStream, 4+b%5)
			for w := range blk {
				for i := 0; i < 3+(b*7+w*3)%23; i++ {
					pc := int32((b + w + i) % len(p.Insts))
					if p.Insts[pc].Timing.Class == 0 && (b+i)%2 == 0 {
						pc = 4 // the barrier: every warp reaches some
					}
					blk[w] = append(blk[w], Event{PC: pc, Mem: MemClass(1 + (i+w)%4), Sectors: uint8(1 + i%8)})
				}
				blk[w] = append(blk[w], Event{PC: 4})
			}
			blocks = append(blocks, blk)
		}
		return blocks
	}
	cfg := Config{NumSMs: 3, BlocksPerSM: 2, TimelineWarps: 8}
	want, err := Run(context.Background(), p, cfg, mk())
	if err != nil {
		t.Fatal(err)
	}
	blocks := mk()
	given := map[*Event]int{}
	total := 0
	for _, b := range blocks {
		for _, s := range b {
			if len(s) > 0 {
				given[&s[0]] = 0
				total++
			}
		}
	}
	released := 0
	cfg.Release = func(s WarpStream) {
		if len(s) == 0 {
			return
		}
		n, ok := given[&s[0]]
		if !ok || n > 0 {
			t.Errorf("released a stream not given or twice (%v, %d)", ok, n)
		}
		given[&s[0]] = n + 1
		released++
		for i := range s {
			s[i] = Event{PC: 0, Mem: MemDRAM, Sectors: 255} // the caller reuses the memory
		}
	}
	got, err := Run(context.Background(), p, cfg, blocks)
	if err != nil {
		t.Fatal(err)
	}
	if released != total {
		t.Errorf("released %d of %d streams", released, total)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results differ once released streams are overwritten: cycles %d vs %d, issued %d vs %d", got.Cycles, want.Cycles, got.Issued, want.Issued)
	}
}
