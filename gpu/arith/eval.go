package arith

import (
	"math"
	"math/bits"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// mask returns the low-w-bits mask.
func mask(w uint) uint64 {
	if w >= 64 {
		return math.MaxUint64
	}
	return 1<<w - 1
}

// sext sign-extends the low w bits of x to 64 bits.
func sext(x uint64, w uint) uint64 {
	if w >= 64 {
		return x
	}
	s := 64 - w
	return uint64(int64(x<<s) >> s)
}

// out converts a result to the register convention: sign-extended for signed
// types, zero-extended otherwise.
func out(t ptx.Type, x uint64) uint64 {
	w := width(t)
	if isSigned(t) {
		return sext(x, w)
	}
	return x & mask(w)
}

// val reads source bits as a 64-bit two's complement value of type t.
func val(t ptx.Type, x uint64) uint64 {
	w := width(t)
	if isSigned(t) {
		return sext(x, w)
	}
	return x & mask(w)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Eval computes one lane. src holds raw register bits (a register holds at most 64 bits; Eval takes the low bits of each source type itself); predicates are 0/1 (the simulator has already applied a `!` on a predicate source). cc is the lane's carry flag (.cc/addc/subc/madc read and write it). Results are sign-extended to 64 bits for signed integer destination types and zero-extended otherwise; predicates 0/1. The simulator truncates to the destination register's width.
func (o *Op) Eval(src *[4]uint64, cc *uint8) (d0, d1 uint64) {
	if o.hasNeg {
		s := o.negated(src)
		src = &s
	}
	if o.fast != fastNone {
		if d0, d1, ok := o.evalFast(src); ok {
			return d0, d1
		}
	}
	switch o.kind {
	case kMov:
		return out(o.t, src[0]), 0
	case kFAdd, kFSub, kFMul, kFFma, kFDiv, kFRcp, kFSqrt, kFRsqrt, kFSin, kFCos, kFLg2, kFEx2, kFTanh,
		kFAbs, kFNeg, kFMin, kFMax, kTestp, kCopysign:
		return o.evalFloat(src), 0
	case kSetp, kSet, kSelp, kSlct:
		return o.evalCmp(src)
	case kCvt, kCvtPack, kCvtUnpack, kCvtPackInt:
		return o.evalCvt(src), 0
	case kLop3:
		return o.evalLop3(src)
	case kVideo:
		return uint64(o.vid.eval(uint32(src[0]), uint32(src[1]), uint32(src[2]))), 0
	case kX2:
		if o.elem == nil {
			return 0, 0
		}
		lo := o.elem.evalInt(&[4]uint64{src[0] & 0xffff, src[1] & 0xffff}, nil)
		hi := o.elem.evalInt(&[4]uint64{src[0] >> 16 & 0xffff, src[1] >> 16 & 0xffff}, nil)
		return lo&0xffff | (hi&0xffff)<<16, 0
	}
	return o.evalInt(src, cc), 0
}

func (o *Op) evalInt(src *[4]uint64, cc *uint8) uint64 {
	t := o.t
	w := width(t)
	mk := mask(w)
	sgn := isSigned(t)
	a := val(t, src[0])
	var b, c uint64
	if o.nsrc > 1 {
		b = val(o.srcType[1], src[1])
	}
	if o.nsrc > 2 {
		c = val(o.srcType[2], src[2])
	}
	var carry uint64
	if cc != nil {
		carry = uint64(*cc & 1)
	}
	switch o.kind {
	case kAdd, kAddc:
		if o.kind == kAdd {
			carry = 0
		}
		if o.sat {
			s := int64(int32(a)) + int64(int32(b))
			return out(t, uint64(satS(s, 32)))
		}
		r := (a & mk) + (b & mk) + carry
		if o.setcc && cc != nil {
			if w == 64 {
				_, co := bits.Add64(a, b, carry)
				*cc = uint8(co)
			} else {
				*cc = uint8(r >> 32 & 1)
			}
		}
		return out(t, r)
	case kSub, kSubc:
		if o.kind == kSub {
			carry = 0
		}
		if o.sat {
			s := int64(int32(a)) - int64(int32(b))
			return out(t, uint64(satS(s, 32)))
		}
		r, bo := bits.Sub64(a&mk, b&mk, carry)
		if o.setcc && cc != nil {
			if w == 32 {
				bo = r >> 32 & 1
			}
			*cc = uint8(bo)
		}
		return out(t, r)
	case kMul:
		return o.mulPart(a, b, w, sgn, 0, 0, cc)
	case kMad, kMadc:
		cin := uint64(0)
		if o.kind == kMadc {
			cin = carry
		}
		return o.mulPart(a, b, w, sgn, c, cin, cc)
	case kMul24, kMad24:
		x, y := a&0xffffff, b&0xffffff
		if sgn {
			x, y = sext(x, 24), sext(y, 24)
		}
		p := x * y // 48-bit product, exact in 64 bits (two's complement)
		var r uint64
		if o.sub == subHi {
			r = p >> 16
		} else {
			r = p
		}
		if o.kind == kMad24 {
			if o.sat {
				return out(t, uint64(satS(int64(int32(r))+int64(int32(c)), 32)))
			}
			r += c
		}
		return out(t, r)
	case kSad:
		var d uint64
		if sgn {
			if int64(a) < int64(b) {
				d = b - a
			} else {
				d = a - b
			}
		} else if a < b {
			d = b - a
		} else {
			d = a - b
		}
		return out(t, c+d)
	case kDiv, kRem:
		return out(t, divRem(o.kind == kRem, a, b, w, sgn))
	case kAbs:
		if int64(a) < 0 {
			return out(t, -a)
		}
		return out(t, a)
	case kNeg:
		return out(t, -a)
	case kMin, kMax:
		less := a < b
		if sgn {
			less = int64(a) < int64(b)
		}
		r := b
		if less == (o.kind == kMin) {
			r = a
		}
		if o.relu && int64(r) < 0 {
			r = 0
		}
		return out(t, r)
	case kPopc:
		return uint64(bits.OnesCount64(a & mk))
	case kClz:
		return uint64(bits.LeadingZeros64(a&mk) - (64 - int(w)))
	case kBfind:
		x := a & mk
		if sgn && int64(a) < 0 {
			x = ^x & mk
		}
		if x == 0 {
			return 0xffffffff
		}
		pos := uint64(63 - bits.LeadingZeros64(x))
		if o.sub == 1 {
			return uint64(w-1) - pos
		}
		return pos
	case kFns:
		return fns(uint32(src[0]), uint32(src[1]), int32(src[2]))
	case kBrev:
		return bits.Reverse64(a&mk) >> (64 - w)
	case kBfe:
		return out(t, bfe(a, b&0xff, c&0xff, w, sgn))
	case kBfi:
		pos, ln := src[2]&0xff, src[3]&0xff
		f := b & mk
		for i := uint64(0); i < ln && pos+i < uint64(w); i++ {
			f = f&^(1<<(pos+i)) | (a>>i&1)<<(pos+i)
		}
		return f
	case kPrmt:
		return uint64(prmt(uint32(a), uint32(b), uint32(src[2]), o.imm))
	case kDp4a:
		r := c
		for i := uint(0); i < 4; i++ {
			x, y := (src[0]>>(8*i))&0xff, (src[1]>>(8*i))&0xff
			if o.at == ptx.S32 {
				x = sext(x, 8)
			}
			if o.st == ptx.S32 {
				y = sext(y, 8)
			}
			r += x * y
		}
		return out(t, r)
	case kDp2a:
		r := c
		base := uint(0)
		if o.sub == subHi {
			base = 2
		}
		for i := uint(0); i < 2; i++ {
			x, y := (src[0]>>(16*i))&0xffff, (src[1]>>(8*(base+i)))&0xff
			if o.at == ptx.S32 {
				x = sext(x, 16)
			}
			if o.st == ptx.S32 {
				y = sext(y, 8)
			}
			r += x * y
		}
		return out(t, r)
	case kShl:
		n := src[1] & 0xffffffff
		if n >= uint64(w) {
			return 0
		}
		return out(t, a<<n)
	case kShr:
		n := src[1] & 0xffffffff
		if n >= uint64(w) {
			n = uint64(w)
		}
		if sgn {
			if n >= 64 {
				n = 63
			}
			return out(t, uint64(int64(a)>>n))
		}
		if n >= 64 {
			return 0
		}
		return out(t, (a&mk)>>n)
	case kShf:
		return shf(src[0]&mk, src[1]&mk, src[2]&0xffffffff, w, o.left, o.clamp)
	case kAnd:
		return (a & b) & mk
	case kOr:
		return (a | b) & mk
	case kXor:
		return (a ^ b) & mk
	case kNot:
		return ^a & mk
	case kCnot:
		return b2u(a&mk == 0)
	case kBmsk:
		return bmsk(uint32(src[0]), uint32(src[1]), o.clamp)
	case kSzext:
		return out(t, szext(uint32(src[0]), uint32(src[1]), o.clamp, sgn))
	}
	return 0
}

// bmsk builds the bit field mask as the manual's pseudocode defines it.
func bmsk(a, b uint32, clamp bool) uint64 {
	a1 := a & 0x1f
	mask0 := ^uint32(0) << a1
	b1 := b & 0x1f
	sum := a1 + b1
	mask1 := uint32(0)
	if sum < 32 {
		mask1 = ^uint32(0) << sum
	}
	overflow := sum >= 32
	if clamp {
		if a >= 32 {
			overflow = true
			mask0 = 0
		}
		if b >= 32 {
			overflow = true
		}
	}
	if overflow {
		mask1 = 0
	} else if b1 == 0 {
		mask1 = ^uint32(0)
	}
	return uint64(mask0 &^ mask1)
}

// szext sign- or zero-extends the low b bits of a as the manual defines it.
func szext(a, b uint32, clamp, signed bool) uint64 {
	b1 := b & 0x1f
	tooLarge := b >= 32 && clamp
	mask := ^uint32(0) << b1
	if tooLarge {
		mask = 0
	}
	sign := false
	if b1 != 0 && !tooLarge && signed {
		sign = a>>((b1-1)&0x1f)&1 == 1
	}
	d := a &^ mask
	if sign {
		d |= mask
	}
	return uint64(d)
}

// satS clamps a signed value to w bits.
func satS(x int64, w uint) int64 {
	hi := int64(1)<<(w-1) - 1
	lo := -hi - 1
	if x > hi {
		return hi
	}
	if x < lo {
		return lo
	}
	return x
}

// mulPart computes mul/mad/madc .lo/.hi/.wide: (a*b) part + c + cin.
func (o *Op) mulPart(a, b uint64, w uint, sgn bool, c, cin uint64, cc *uint8) uint64 {
	t := o.t
	var hi, lo uint64 // full 2w-bit product
	if w == 64 {
		hi, lo = bits.Mul64(a, b)
		if sgn {
			if int64(a) < 0 {
				hi -= b
			}
			if int64(b) < 0 {
				hi -= a
			}
		}
	} else {
		var p uint64
		if sgn {
			p = uint64(int64(a) * int64(b))
		} else {
			p = a * b
		}
		lo = p & mask(w)
		hi = (p >> w) & mask(w)
	}
	switch o.sub {
	case subWide:
		wt := widen(t)
		full := lo | hi<<w
		return out(wt, full+val(wt, c))
	case subHi:
		if o.sat {
			s := int64(int32(hi)) + int64(int32(c))
			return out(t, uint64(satS(s, 32)))
		}
		return o.addcc(hi, c, cin, w, cc)
	}
	return o.addcc(lo, c, cin, w, cc)
}

// addcc adds x+y+cin in w bits, updating the carry flag for .cc.
func (o *Op) addcc(x, y, cin uint64, w uint, cc *uint8) uint64 {
	mk := mask(w)
	if w == 64 {
		r, co := bits.Add64(x, y, cin)
		if o.setcc && cc != nil {
			*cc = uint8(co)
		}
		return out(o.t, r)
	}
	r := (x & mk) + (y & mk) + cin
	if o.setcc && cc != nil {
		*cc = uint8(r >> w & 1)
	}
	return out(o.t, r)
}

// divRem computes integer division or remainder in w bits. Division by zero
// gives what the H200 gives: all ones for both quotient and remainder.
// The most negative value divided by -1 wraps to itself (remainder 0).
func divRem(rem bool, a, b uint64, w uint, sgn bool) uint64 {
	mk := mask(w)
	if b&mk == 0 {
		return mk
	}
	if !sgn {
		a, b = a&mk, b&mk
		if rem {
			return a % b
		}
		return a / b
	}
	x, y := int64(a), int64(b)
	if y == -1 {
		if rem {
			return 0
		}
		return uint64(-x) // wraps for the most negative value
	}
	if rem {
		return uint64(x % y)
	}
	return uint64(x / y)
}

// bfe extracts a bit field as the manual defines it.
func bfe(a, pos, ln uint64, w uint, sgn bool) uint64 {
	msb := uint64(w - 1)
	var sbit uint64
	if sgn && ln != 0 {
		i := pos + ln - 1
		if i > msb {
			i = msb
		}
		sbit = a >> i & 1
	}
	var d uint64
	for i := uint64(0); i <= msb; i++ {
		bit := sbit
		if i < ln && pos+i <= msb {
			bit = a >> (pos + i) & 1
		}
		d |= bit << i
	}
	return d
}

// fns finds the n-th set bit of mask starting at base, as the manual's
// pseudocode defines it (base above 31 is undefined; it finds nothing here).
func fns(mask uint32, base uint32, offset int32) uint64 {
	if base > 31 {
		return 0xffffffff
	}
	pos := int(base)
	if offset == 0 {
		if mask>>uint(pos)&1 == 1 {
			return uint64(pos)
		}
		return 0xffffffff
	}
	count := int64(offset)
	inc := 1
	if count < 0 {
		count, inc = -count, -1
	}
	count--
	for ; pos >= 0 && pos < 32; pos += inc {
		if mask>>uint(pos)&1 == 1 {
			if count == 0 {
				return uint64(pos)
			}
			count--
		}
	}
	return 0xffffffff
}

// prmt selects bytes of {b, a} as the manual defines it.
func prmt(a, b, c uint32, mode uint32) uint32 {
	src := uint64(b)<<32 | uint64(a)
	byteOf := func(i uint32) uint32 { return uint32(src>>(8*(i&7))) & 0xff }
	var sel [4]uint32
	switch mode {
	case 0:
		var r uint32
		for i := uint32(0); i < 4; i++ {
			s := c >> (4 * i) & 0xf
			v := byteOf(s & 7)
			if s&8 != 0 { // sign replicate
				if v&0x80 != 0 {
					v = 0xff
				} else {
					v = 0
				}
			}
			r |= v << (8 * i)
		}
		return r
	case 1: // f4e forward 4 extract
		n := c & 3
		sel = [4]uint32{n, n + 1, n + 2, n + 3}
	case 2: // b4e backward 4 extract
		n := c & 3
		sel = [4]uint32{n, n - 1, n - 2, n - 3}
		for i := range sel {
			sel[i] &= 7
		}
	case 3: // rc8 replicate 8
		n := c & 3
		sel = [4]uint32{n, n, n, n}
	case 4: // ecl edge clamp left
		n := c & 3
		for i := uint32(0); i < 4; i++ {
			sel[i] = max(i, n)
		}
	case 5: // ecr edge clamp right
		n := c & 3
		for i := uint32(0); i < 4; i++ {
			sel[i] = min(i, n)
		}
	case 6: // rc16 replicate 16
		n := c & 1
		sel = [4]uint32{2 * n, 2*n + 1, 2 * n, 2*n + 1}
	}
	var r uint32
	for i := uint32(0); i < 4; i++ {
		r |= byteOf(sel[i]&7) << (8 * i)
	}
	return r
}

// shf is the funnel shift of {b:a}.
func shf(a, b, c uint64, w uint, left, clamp bool) uint64 {
	var n uint64
	if clamp {
		n = min(c, uint64(w))
	} else {
		n = c & uint64(w-1)
	}
	if w == 32 {
		v := b<<32 | a
		if left {
			return (v << n) >> 32 & 0xffffffff
		}
		return (v >> n) & 0xffffffff
	}
	// 64-bit funnel: d = (b:a << n) >> 64 or (b:a >> n) low 64.
	if n == 0 {
		if left {
			return b
		}
		return a
	}
	if n >= 64 {
		if left {
			return a
		}
		return b
	}
	if left {
		return b<<n | a>>(64-n)
	}
	return a>>n | b<<(64-n)
}

func (o *Op) evalLop3(src *[4]uint64) (uint64, uint64) {
	a, b, c := uint32(src[0]), uint32(src[1]), uint32(src[2])
	var r uint32
	lut := o.imm
	for i := uint32(0); i < 8; i++ {
		if lut>>i&1 == 0 {
			continue
		}
		x := a
		if i&4 == 0 {
			x = ^a
		}
		y := b
		if i&2 == 0 {
			y = ^b
		}
		z := c
		if i&1 == 0 {
			z = ^c
		}
		r |= x & y & z
	}
	if o.bop == bopNone {
		return uint64(r), 0
	}
	p := r != 0
	q := src[3]&1 == 1
	if o.bop == bopAnd {
		p = p && q
	} else {
		p = p || q
	}
	return uint64(r), b2u(p)
}

// Fast paths: the most frequent computations, chosen at decode time and
// checked against the general code by TestFastPathsMatchGeneral.
const (
	fastNone uint8 = iota
	fastAdd32
	fastSub32 // fastAdd32 + 1
	fastAdd64
	fastSub64 // fastAdd64 + 1
	fastMadLo32
	fastMulLo32
	fastMulWideU32
	fastMulWideS32
	fastShl32
	fastShrU32
	fastAnd
	fastOr
	fastXor
	fastAddF32
	fastMulF32
	fastFmaF32
	fastSelp
	fastSetpS32
	fastSetpU32
	fastSetpF32Lt
	fastMov
)

// specialize picks a fast path for o, if one applies.
func (o *Op) specialize() {
	if o.setcc || o.sat || o.ftz || o.relu {
		return
	}
	t := o.t
	w := width(t)
	switch o.kind {
	case kMov:
		o.fast = fastMov
	case kAdd, kSub:
		switch {
		case w == 32 && isInt(t):
			o.fast = fastAdd32
		case w == 64 && isInt(t):
			o.fast = fastAdd64
		}
		if o.kind == kSub && o.fast != fastNone {
			o.fast++
		}
	case kMad:
		if w == 32 && o.sub == subLo {
			o.fast = fastMadLo32
		}
	case kMul:
		switch {
		case w == 32 && o.sub == subLo:
			o.fast = fastMulLo32
		case t == ptx.U32 && o.sub == subWide:
			o.fast = fastMulWideU32
		case t == ptx.S32 && o.sub == subWide:
			o.fast = fastMulWideS32
		}
	case kShl:
		if w == 32 {
			o.fast = fastShl32
		}
	case kShr:
		if w == 32 && !isSigned(t) {
			o.fast = fastShrU32
		}
	case kAnd, kOr, kXor:
		o.fast = fastAnd + uint8(o.kind-kAnd)
	case kFAdd, kFMul, kFFma:
		if t == ptx.F32 && (o.rnd == rnNone || o.rnd == rnRN) {
			o.fast = map[kind]uint8{kFAdd: fastAddF32, kFMul: fastMulF32, kFFma: fastFmaF32}[o.kind]
		}
	case kSelp:
		o.fast = fastSelp
	case kSetp:
		if o.bop != bopNone {
			return
		}
		switch {
		case o.st == ptx.S32:
			o.fast = fastSetpS32
		case o.st == ptx.U32 || o.st == ptx.B32:
			o.fast = fastSetpU32
		case o.st == ptx.F32 && o.cmp == cmpLT:
			o.fast = fastSetpF32Lt
		}
	}
}

// evalFast runs a fast path; ok is false when o has none.
func (o *Op) evalFast(src *[4]uint64) (d0, d1 uint64, ok bool) {
	const m32 = 0xffffffff
	switch o.fast {
	case fastMov:
		return out(o.t, src[0]), 0, true
	case fastAdd32:
		return out(o.t, src[0]+src[1]), 0, true
	case fastSub32:
		return out(o.t, src[0]-src[1]), 0, true
	case fastAdd64:
		return src[0] + src[1], 0, true
	case fastSub64:
		return src[0] - src[1], 0, true
	case fastMadLo32:
		return out(o.t, src[0]*src[1]+src[2]), 0, true
	case fastMulLo32:
		return out(o.t, src[0]*src[1]), 0, true
	case fastMulWideU32:
		return (src[0] & m32) * (src[1] & m32), 0, true
	case fastMulWideS32:
		return uint64(int64(int32(src[0])) * int64(int32(src[1]))), 0, true
	case fastShl32:
		n := src[1] & m32
		if n >= 32 {
			return 0, 0, true
		}
		return out(o.t, src[0]<<n), 0, true
	case fastShrU32:
		n := src[1] & m32
		if n >= 32 {
			return 0, 0, true
		}
		return (src[0] & m32) >> n, 0, true
	case fastAnd:
		return src[0] & src[1] & mask(width(o.t)), 0, true
	case fastOr:
		return (src[0] | src[1]) & mask(width(o.t)), 0, true
	case fastXor:
		return (src[0] ^ src[1]) & mask(width(o.t)), 0, true
	case fastAddF32:
		bits := math.Float32bits(math.Float32frombits(uint32(src[0])) + math.Float32frombits(uint32(src[1])))
		if bits&0x7fffffff > 0x7f800000 {
			bits = nan32
		}
		return uint64(bits), 0, true
	case fastMulF32:
		bits := math.Float32bits(math.Float32frombits(uint32(src[0])) * math.Float32frombits(uint32(src[1])))
		if bits&0x7fffffff > 0x7f800000 {
			bits = nan32
		}
		return uint64(bits), 0, true
	case fastFmaF32:
		x := float64(math.Float32frombits(uint32(src[0])))
		y := float64(math.Float32frombits(uint32(src[1])))
		z := float64(math.Float32frombits(uint32(src[2])))
		hi := math.FMA(x, y, z) // x*y is exact: only an f32 midpoint can double-round
		if ah := math.Abs(hi); ah >= 0x1p-126 && ah <= math.MaxFloat32 && math.Float64bits(hi)&0x1fffffff != 0x10000000 {
			return uint64(math.Float32bits(float32(hi))), 0, true
		}
		if math.IsNaN(hi) {
			return nan32, 0, true
		}
		return 0, 0, false
	case fastSelp:
		if src[2]&1 == 1 {
			return out(o.t, src[0]), 0, true
		}
		return out(o.t, src[1]), 0, true
	case fastSetpS32:
		t := o.compareS32(int32(src[0]), int32(src[1]))
		return b2u(t), b2u(!t), true
	case fastSetpU32:
		t := o.compareU32(uint32(src[0]), uint32(src[1]))
		return b2u(t), b2u(!t), true
	case fastSetpF32Lt:
		t := math.Float32frombits(uint32(src[0])) < math.Float32frombits(uint32(src[1]))
		return b2u(t), b2u(!t), true
	}
	return 0, 0, false
}

func (o *Op) compareS32(x, y int32) bool {
	switch o.cmp {
	case cmpEQ:
		return x == y
	case cmpNE:
		return x != y
	case cmpLT:
		return x < y
	case cmpLE:
		return x <= y
	case cmpGT:
		return x > y
	case cmpGE:
		return x >= y
	}
	return o.compareU32(uint32(x), uint32(y))
}

func (o *Op) compareU32(x, y uint32) bool {
	switch o.cmp {
	case cmpEQ:
		return x == y
	case cmpNE:
		return x != y
	case cmpLT, cmpLO:
		return x < y
	case cmpLE, cmpLS:
		return x <= y
	case cmpGT, cmpHI:
		return x > y
	case cmpGE, cmpHS:
		return x >= y
	}
	return false
}
