package main

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
)

// seedOf derives the generator's seed from the kernel id and the argument name,
// so every input is reproducible and independent of the manifest's order.
func seedOf(id, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	h.Write([]byte{0})
	h.Write([]byte(name))
	return h.Sum64()
}

// Generate makes the raw little-endian bytes of a buffer argument.
func Generate(id string, a Arg) []byte {
	r := rand.New(rand.NewPCG(seedOf(id, a.Name), 0x5eed))
	lanes := 1
	et := a.Type
	if et == "f32x4" {
		lanes, et = 4, "f32"
	}
	n := a.Count * lanes
	out := make([]byte, 0, a.Bytes())
	for i := 0; i < n; i++ {
		var v float64
		switch a.Init {
		case "zeros":
			v = 0
		case "ones":
			v = 1
		case "fill":
			v = a.Lo
		case "arange":
			v = float64(i)
		case "rand":
			v = a.Lo + (a.Hi-a.Lo)*r.Float64()
		case "randint":
			v = a.Lo + float64(r.IntN(int(a.Hi-a.Lo)+1))
		}
		out = appendElem(out, et, v)
	}
	return out
}

func appendElem(b []byte, t string, v float64) []byte {
	switch t {
	case "f32":
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
	case "f64":
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	case "f16":
		return binary.LittleEndian.AppendUint16(b, F32ToF16(float32(v)))
	case "i8", "u8":
		return append(b, byte(int64(v)))
	case "i32", "u32":
		return binary.LittleEndian.AppendUint32(b, uint32(int64(v)))
	case "i64", "u64":
		return binary.LittleEndian.AppendUint64(b, uint64(int64(v)))
	}
	return b
}

// F32ToF16 converts to IEEE binary16 with round-to-nearest-even.
func F32ToF16(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int(bits>>23) & 0xff
	man := bits & 0x7fffff
	switch {
	case exp == 0xff: // Inf or NaN
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp == 0 && man == 0:
		return sign
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	full := man | 0x800000 // 24-bit significand
	var shift uint
	if e <= 0 { // subnormal half
		shift = uint(14 - e)
		if shift > 24 {
			return sign
		}
		e = 0
	} else {
		shift = 13
	}
	m := full >> shift
	rem := full & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rem > half || (rem == half && m&1 == 1) {
		m++
	}
	if e == 0 {
		return sign | uint16(m) // a carry into bit 10 gives the smallest normal, as it should
	}
	h := uint32(e)<<10 + (m - 0x400)
	if m >= 0x800 { // rounding carried out of the significand
		h = uint32(e+1) << 10
	}
	if h >= 0x7c00 {
		return sign | 0x7c00
	}
	return sign | uint16(h)
}
