package mem

import "sync"

// CachePool keeps the arrays of the caches of finished hierarchies
// (Hierarchy.Release, TimedHierarchy.Release) for later ones of the same
// sizes, so that an engine's launches do not allocate and zero tens of
// megabytes each. A released cache is reset to empty in time proportional to
// the sets it used. A pool is safe for concurrent use; the zero value is ready.
type CachePool struct {
	mu     sync.Mutex
	caches map[poolKey][]*cache
	timed  map[poolKey][]*timedCache
	bytes  int
}

// poolKey is a cache's geometry.
type poolKey struct{ sets, ways int }

// maxPoolBytes bounds what a pool keeps; caches released past it are dropped.
const maxPoolBytes = 256 << 20

// cacheBytes is the memory of a cache's arrays (not its lazily made ready chunks).
func (c *cache) bytes() int { return len(c.tags) * (8 + 1 + 1 + 8) }

// get returns an empty pooled cache of sets x ways, or nil.
func (p *CachePool) get(sets, ways int) *cache {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k := poolKey{sets, ways}
	l := p.caches[k]
	if len(l) == 0 {
		return nil
	}
	c := l[len(l)-1]
	l[len(l)-1] = nil
	p.caches[k] = l[:len(l)-1]
	p.bytes -= c.bytes()
	return c
}

// getTimed returns an empty pooled timed cache of sets x ways, or nil.
func (p *CachePool) getTimed(sets, ways int) *timedCache {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	k := poolKey{sets, ways}
	l := p.timed[k]
	if len(l) == 0 {
		return nil
	}
	t := l[len(l)-1]
	l[len(l)-1] = nil
	p.timed[k] = l[:len(l)-1]
	p.bytes -= t.bytes()
	return t
}

// put resets c and keeps it (nil is ignored).
func (p *CachePool) put(c *cache) {
	if p == nil || c == nil || !c.track {
		return
	}
	c.reset()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+c.bytes() > maxPoolBytes {
		return
	}
	if p.caches == nil {
		p.caches = map[poolKey][]*cache{}
	}
	k := poolKey{c.sets, c.ways}
	p.caches[k] = append(p.caches[k], c)
	p.bytes += c.bytes()
}

// putTimed resets t and keeps it (nil is ignored).
func (p *CachePool) putTimed(t *timedCache) {
	if p == nil || t == nil || !t.c.track {
		return
	}
	t.reset()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+t.bytes() > maxPoolBytes {
		return
	}
	if p.timed == nil {
		p.timed = map[poolKey][]*timedCache{}
	}
	k := poolKey{t.c.sets, t.c.ways}
	p.timed[k] = append(p.timed[k], t)
	p.bytes += t.bytes()
}

// bytes is the memory of a timed cache's arrays.
func (t *timedCache) bytes() int { return t.c.bytes() + len(t.ready)*8 + len(t.along) }

// markSet records that the set at way index base got a line (fill), so that
// reset clears only the sets used.
func (c *cache) markSet(base int) {
	s := base / c.ways
	if c.mark[s>>6]&(1<<(s&63)) == 0 {
		c.mark[s>>6] |= 1 << (s & 63)
		c.used = append(c.used, int32(s))
	}
}

// reset empties the cache: as newCache made it.
func (c *cache) reset() {
	if len(c.used) > c.sets/4 {
		clear(c.tags)
		clear(c.valid)
		clear(c.dirty)
		clear(c.stamp)
		clear(c.mark)
	} else {
		for _, s := range c.used {
			b, e := int(s)*c.ways, (int(s)+1)*c.ways
			clear(c.tags[b:e])
			clear(c.valid[b:e])
			clear(c.dirty[b:e])
			clear(c.stamp[b:e])
			c.mark[s>>6] = 0
		}
	}
	c.used = c.used[:0]
	c.clock = 0
	c.readyOn, c.ready = false, nil
}

// reset empties the timed cache: as newTimedCache made it.
func (t *timedCache) reset() {
	c := t.c
	if len(c.used) > c.sets/4 {
		clear(t.ready)
		clear(t.along)
	} else {
		for _, s := range c.used {
			b, e := int(s)*c.ways, (int(s)+1)*c.ways
			clear(t.ready[b*sectorsPerLine : e*sectorsPerLine])
			clear(t.along[b:e])
		}
	}
	c.reset()
}

// Empty reports whether the pool holds no cache.
func (p *CachePool) Empty() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.bytes == 0
}
