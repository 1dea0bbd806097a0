package timing

import (
	"math"
	"math/bits"
)

// The event queue: each sub-partition with warps is filed under its wake,
// the first cycle it may change state. Wakes less than wheelSize cycles
// ahead go into a timing wheel of per-cycle bitsets over the sub-partitions
// (bit = SM x 4 + sub-partition, so a cycle's due set comes out in SM order
// at O(1) per sub-partition); later ones (and "never", until a barrier
// releases them) into a small heap. Between cycles every filed wake is
// >= now and < now + wheelSize in the wheel, so a wheel bucket holds one cycle.
const (
	wheelBits = 10
	wheelSize = 1 << wheelBits
	wheelMask = wheelSize - 1
)

// events is the model's event queue.
type events struct {
	byOrder  []*subpart
	words    int                    // uint64 words per bitset
	wheel    []uint64               // wheelSize bitsets of words each
	nonEmpty [wheelSize / 64]uint64 // bucket has a bit set
	due      []uint64               // scratch: the bitset being stepped
	far      []*subpart             // heap on (wake, order) of wakes beyond the wheel
}

func (e *events) init(sms []*sm) {
	for _, s := range sms {
		for j := range s.sp {
			e.byOrder = append(e.byOrder, &s.sp[j])
		}
	}
	e.words = (len(e.byOrder) + 63) / 64
	e.wheel = make([]uint64, wheelSize*e.words)
	e.due = make([]uint64, e.words)
}

// file puts sp (sp.wake >= now) under its wake; a sub-partition without warps is not filed.
func (e *events) file(sp *subpart, now int64) {
	if len(sp.warps) == 0 {
		return
	}
	sp.filed = sp.wake
	if sp.wake-now < wheelSize {
		b := int(sp.wake & wheelMask)
		e.wheel[b*e.words+int(sp.order)/64] |= 1 << (uint(sp.order) % 64)
		e.nonEmpty[b/64] |= 1 << (uint(b) % 64)
		return
	}
	sp.oi = int32(len(e.far))
	e.far = append(e.far, sp)
	e.up(int(sp.oi))
}

// unfile takes sp out of the queue, if it is filed.
func (e *events) unfile(sp *subpart) {
	if sp.filed < 0 {
		return
	}
	if sp.oi >= 0 {
		e.remove(sp)
	} else {
		b := int(sp.filed & wheelMask)
		w := e.wheel[b*e.words : (b+1)*e.words]
		w[int(sp.order)/64] &^= 1 << (uint(sp.order) % 64)
		if isZero(w) {
			e.nonEmpty[b/64] &^= 1 << (uint(b) % 64)
		}
	}
	sp.filed = -1
}

func isZero(w []uint64) bool {
	for _, x := range w {
		if x != 0 {
			return false
		}
	}
	return true
}

// takeDue empties the bucket of cycle now, adds the far sub-partitions due
// then, and returns them as a bitset (valid until the next call). They stay
// marked filed at now, so waking one that is due changes nothing.
func (e *events) takeDue(now int64) []uint64 {
	b := int(now & wheelMask)
	w := e.wheel[b*e.words : (b+1)*e.words]
	copy(e.due, w)
	clear(w)
	e.nonEmpty[b/64] &^= 1 << (uint(b) % 64)
	for len(e.far) > 0 && e.far[0].wake <= now {
		sp := e.far[0]
		e.remove(sp)
		sp.filed = now
		e.due[int(sp.order)/64] |= 1 << (uint(sp.order) % 64)
	}
	return e.due
}

// next is the earliest filed wake after now (math.MaxInt64: none).
func (e *events) next(now int64) int64 {
	best := int64(math.MaxInt64)
	if len(e.far) > 0 {
		best = e.far[0].wake
	}
	start := int(now+1) & wheelMask
	// Scan the non-empty bits circularly from start.
	for k := 0; k <= wheelSize/64; k++ {
		wi := (start/64 + k) % (wheelSize / 64)
		word := e.nonEmpty[wi]
		if k == 0 {
			word &= ^uint64(0) << (uint(start) % 64)
		} else if k == wheelSize/64 {
			word &= (1 << (uint(start) % 64)) - 1
		}
		if word == 0 {
			continue
		}
		b := wi*64 + bits.TrailingZeros64(word)
		d := int64((b - start + wheelSize) & wheelMask)
		return min(best, now+1+d)
	}
	return best
}

// less orders the far heap: earlier wake first, then SM order.
func (e *events) less(i, j int) bool {
	a, b := e.far[i], e.far[j]
	return a.wake < b.wake || (a.wake == b.wake && a.order < b.order)
}

func (e *events) swap(i, j int) {
	q := e.far
	q[i], q[j] = q[j], q[i]
	q[i].oi, q[j].oi = int32(i), int32(j)
}

func (e *events) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !e.less(i, p) {
			return
		}
		e.swap(i, p)
		i = p
	}
}

func (e *events) down(i int) {
	n := len(e.far)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && e.less(r, l) {
			c = r
		}
		if !e.less(c, i) {
			return
		}
		e.swap(i, c)
		i = c
	}
}

// remove takes sp off the far heap.
func (e *events) remove(sp *subpart) {
	i, n := int(sp.oi), len(e.far)-1
	if i != n {
		e.swap(i, n)
	}
	e.far[n] = nil
	e.far = e.far[:n]
	sp.oi = -1
	if i < n {
		e.down(i)
		e.up(i)
	}
}
