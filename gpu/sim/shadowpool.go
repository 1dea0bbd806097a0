package sim

import (
	"sync"
	"unsafe"
)

// ShadowPool keeps the race checker's global shadow arrays (both sides, per
// buffer word) of finished launches for later ones (Config.Shadows), so that
// an engine's launches do not allocate and fault in fresh memory for them each
// time. An array is cleared when it comes back. Safe for concurrent use; the
// zero value is ready.
type ShadowPool struct {
	mu     sync.Mutex
	reads  [][]gword
	writes [][]gwrite
	bytes  int
}

// maxShadowPool bounds the bytes a pool keeps; arrays past it are dropped.
const maxShadowPool = 256 << 20

// fit is the index of the smallest of k arrays (capacities c(i)) that holds n
// words and is at most twice that (so a small buffer does not take, and clear
// at every launch, a large array), or -1.
func fit(k int, c func(int) int, n int) int {
	best := -1
	for i := 0; i < k; i++ {
		if ci := c(i); ci >= n && ci <= 2*n+1024 && (best < 0 || ci < c(best)) {
			best = i
		}
	}
	return best
}

// readSide returns a zeroed read side of n words, pooled when one is large enough.
func (p *ShadowPool) readSide(n int) []gword {
	if p != nil {
		p.mu.Lock()
		if i := fit(len(p.reads), func(i int) int { return cap(p.reads[i]) }, n); i >= 0 {
			s := p.reads[i]
			p.reads[i] = p.reads[len(p.reads)-1]
			p.reads = p.reads[:len(p.reads)-1]
			p.bytes -= cap(s) * int(unsafe.Sizeof(gword{}))
			p.mu.Unlock()
			return s[:n]
		}
		p.mu.Unlock()
	}
	return make([]gword, n)
}

// writeSide returns a zeroed write side of n words, pooled when one is large enough.
func (p *ShadowPool) writeSide(n int) []gwrite {
	if p != nil {
		p.mu.Lock()
		if i := fit(len(p.writes), func(i int) int { return cap(p.writes[i]) }, n); i >= 0 {
			s := p.writes[i]
			p.writes[i] = p.writes[len(p.writes)-1]
			p.writes = p.writes[:len(p.writes)-1]
			p.bytes -= cap(s) * int(unsafe.Sizeof(gwrite{}))
			p.mu.Unlock()
			return s[:n]
		}
		p.mu.Unlock()
	}
	return make([]gwrite, n)
}

// release takes back the shadow arrays of a finished launch's heap, cleared.
func (p *ShadowPool) release(h *heap) {
	if p == nil || h == nil {
		return
	}
	for _, al := range h.allocs {
		if s := al.shadow; s != nil {
			al.shadow = nil
			s = s[:cap(s)]
			clear(s)
			p.mu.Lock()
			if b := cap(s) * int(unsafe.Sizeof(gword{})); p.bytes+b <= maxShadowPool {
				p.reads, p.bytes = append(p.reads, s), p.bytes+b
			}
			p.mu.Unlock()
		}
		if s := al.wshadow; s != nil {
			al.wshadow = nil
			s = s[:cap(s)]
			clear(s)
			p.mu.Lock()
			if b := cap(s) * int(unsafe.Sizeof(gwrite{})); p.bytes+b <= maxShadowPool {
				p.writes, p.bytes = append(p.writes, s), p.bytes+b
			}
			p.mu.Unlock()
		}
	}
}

// Empty reports whether the pool holds no shadow array.
func (p *ShadowPool) Empty() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.bytes == 0
}
