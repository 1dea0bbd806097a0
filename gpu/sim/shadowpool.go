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

// readSide returns a zeroed read side of n words, pooled when one is large enough.
func (p *ShadowPool) readSide(n int) []gword {
	if p != nil {
		p.mu.Lock()
		for i, s := range p.reads {
			if cap(s) >= n {
				p.reads[i] = p.reads[len(p.reads)-1]
				p.reads = p.reads[:len(p.reads)-1]
				p.bytes -= cap(s) * int(unsafe.Sizeof(gword{}))
				p.mu.Unlock()
				return s[:n]
			}
		}
		p.mu.Unlock()
	}
	return make([]gword, n)
}

// writeSide returns a zeroed write side of n words, pooled when one is large enough.
func (p *ShadowPool) writeSide(n int) []gwrite {
	if p != nil {
		p.mu.Lock()
		for i, s := range p.writes {
			if cap(s) >= n {
				p.writes[i] = p.writes[len(p.writes)-1]
				p.writes = p.writes[:len(p.writes)-1]
				p.bytes -= cap(s) * int(unsafe.Sizeof(gwrite{}))
				p.mu.Unlock()
				return s[:n]
			}
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
