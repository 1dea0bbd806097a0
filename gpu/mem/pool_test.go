package mem

import (
	"math/rand/v2"
	"testing"
)

// poolWorkload is n random warp accesses (loads, stores, atomics, cache
// operators) over span bytes, on 4 SMs.
func poolWorkload(seed uint64, n int, span uint64) []Access {
	r := rand.New(rand.NewPCG(seed, 1))
	kinds := []Kind{Load, Load, Load, Store, Store, Atomic}
	ops := []CacheOp{Default, Default, CG, CS, CV, WT}
	out := make([]Access, n)
	for i := range out {
		a := &out[i]
		a.Space, a.Kind, a.Cache, a.Bytes, a.SM = Global, kinds[r.IntN(len(kinds))], ops[r.IntN(len(ops))], 4, r.IntN(4)
		a.Mask = r.Uint32() | 1
		base := 0x10000 + r.Uint64N(span)&^3
		stride := uint64(4 << r.IntN(4))
		for l := range a.Addr {
			a.Addr[l] = base + stride*uint64(l)
		}
	}
	return out
}

// TestCachePoolReuse: hierarchies whose caches come from a pool (after
// launches that used a few sets, and ones that used most) give exactly the
// outcomes of freshly made ones, untimed and timed.
func TestCachePoolReuse(t *testing.T) {
	o := Options{L1Bytes: 64 * LineBytes, L2Bytes: 4096 * LineBytes, L2FetchBytes: 64}
	to := TimedOptions{Options: o, L1Latency: 40, L2Latency: 370, DRAMLatency: 700}
	var pool CachePool
	po, pto := o, to
	po.Pool, pto.Pool = &pool, &pool
	for i, span := range []uint64{1 << 10, 1 << 22, 1 << 12, 1 << 24, 1 << 9} { // few sets, most, few, ...
		w := poolWorkload(uint64(i), 3000, span)
		fresh, pooled := NewHierarchy(nil, 4, o), NewHierarchy(nil, 4, po)
		tf, tp := NewTimedHierarchy(nil, 4, to), NewTimedHierarchy(nil, 4, pto)
		for j := range w {
			a, b := w[j], w[j]
			if x, y := fresh.Access(&a), pooled.Access(&b); x != y {
				t.Fatalf("launch %d access %d: pooled %+v, fresh %+v", i, j, y, x)
			}
			ra, oa := tf.Access(&a, int64(j))
			rb, ob := tp.Access(&b, int64(j))
			if ra != rb || oa != ob {
				t.Fatalf("launch %d access %d (timed): pooled %d %+v, fresh %d %+v", i, j, rb, ob, ra, oa)
			}
		}
		if fresh.Flush() != pooled.Flush() || fresh.L2HitRate() != pooled.L2HitRate() || tf.L2HitRate() != tp.L2HitRate() {
			t.Fatalf("launch %d: totals differ", i)
		}
		pooled.Release()
		tp.Release()
	}
	if pool.bytes == 0 {
		t.Fatal("nothing was pooled")
	}
}
