package sim

import (
	"math/rand"
	"testing"
	"unsafe"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// The compact access log gives back every access exactly: contiguous,
// strided (also downwards and wrapping), broadcast, one-lane, no-lane,
// affine per half-warp and scattered accesses, interleaved, with inactive
// lanes' addresses 0; and it keeps each mode in the bytes it promises.
func TestAccLogRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var l accLog
	var want []mem.Access
	for i := 0; i < 5000; i++ {
		a := mem.Access{PC: r.Intn(5000), Line: r.Intn(1 << 20), SM: r.Intn(132), Block: r.Intn(1 << 40), Warp: r.Intn(32),
			Space: mem.Space(r.Intn(4)), Kind: mem.Kind(r.Intn(3)), Cache: mem.CacheOp(r.Intn(3)), Bytes: 1 << uint(r.Intn(5))}
		switch r.Intn(4) {
		case 0:
			a.Mask = ^uint32(0)
		case 1:
			a.Mask = 1 << uint(r.Intn(32))
		case 2:
			a.Mask = 0
		default:
			a.Mask = r.Uint32()
		}
		if a.Space == mem.Shared && r.Intn(2) == 0 {
			a.DSMEM = a.Mask & r.Uint32() // lanes in another block's shared memory
		}
		base, stride := r.Uint64(), uint64(r.Intn(9))*uint64(a.Bytes)
		if r.Intn(3) == 0 {
			stride = -stride
		}
		scatter, halves := r.Intn(3) == 0, r.Intn(3) == 0
		base1, stride1 := r.Uint64(), uint64(r.Intn(5))*uint64(a.Bytes)
		for lane := 0; lane < 32; lane++ {
			if a.Mask&(1<<uint(lane)) == 0 {
				continue
			}
			a.Addr[lane] = base + uint64(lane)*stride
			if halves && lane >= 16 { // two rows of a block 16 threads wide
				a.Addr[lane] = base1 + uint64(lane)*stride1
			}
			if scatter && r.Intn(4) == 0 {
				a.Addr[lane] = r.Uint64()
			}
		}
		want = append(want, a)
		l.add(&a)
		a.Addr = [32]uint64{} // the caller reuses its Access
	}
	if l.len() != len(want) {
		t.Fatalf("%d logged, want %d", l.len(), len(want))
	}
	var got mem.Access
	for i := range want {
		got.Addr[3] = 99 // stale contents must not survive
		l.at(i, &got)
		if got != want[i] {
			t.Fatalf("access %d: got %+v\nwant %+v", i, got, want[i])
		}
	}
	var modes [2][3]int // partial and full masks (add's two paths)
	for _, e := range l.ents {
		full := 0
		if e.mask == ^uint32(0) {
			full = 1
		}
		modes[full][e.mode]++
	}
	for _, m := range modes {
		if m[addrAffine] == 0 || m[addrHalves] == 0 || m[addrList] == 0 {
			t.Errorf("modes used %v (partial masks, full masks): the cases do not cover every mode", modes)
		}
	}
	if unsafe.Sizeof(logAcc{}) > 64 {
		t.Errorf("a logged access takes %d bytes, want at most 64", unsafe.Sizeof(logAcc{}))
	}
	l.reset()
	if l.len() != 0 || len(l.addrs) != 0 {
		t.Fatalf("reset left %d accesses, %d addresses", l.len(), len(l.addrs))
	}
}

// BenchmarkAccLog logs and replays a full-warp access of each kind (the
// consumer's path), against copying the whole mem.Access as the log once did.
func BenchmarkAccLog(b *testing.B) {
	var contig, rows mem.Access
	contig.Mask, rows.Mask = ^uint32(0), ^uint32(0)
	for lane := range 32 {
		contig.Addr[lane] = 0x7000_0000 + uint64(lane)*4
		rows.Addr[lane] = 0x400 + uint64(lane/16)*64 + uint64(lane%16)*4
	}
	for _, c := range []struct {
		name string
		a    *mem.Access
	}{{"contiguous", &contig}, {"two-rows", &rows}} {
		b.Run(c.name, func(b *testing.B) {
			var l accLog
			var got mem.Access
			for i := 0; i < b.N; i++ {
				if l.len() == 1024 {
					l.reset()
				}
				l.add(c.a)
				l.at(l.len()-1, &got)
			}
		})
		b.Run(c.name+"/copy", func(b *testing.B) {
			log := make([]mem.Access, 0, 1024)
			var sink uint64
			for i := 0; i < b.N; i++ {
				if len(log) == 1024 {
					log = log[:0]
				}
				log = append(log, *c.a)
				sink += log[len(log)-1].Addr[31]
			}
			_ = sink
		})
	}
}
