package analysis

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// refSummarise is summarise as it was before summary.go (every element
// formatted and parsed back), kept as the reference of the tests below.
func refSummarise(name, elem string, before, after []byte) report.Output {
	size := launch.ElemSizes[elem]
	n := len(after) / size
	out := report.Output{Name: name, Type: elem, Count: n, Bytes: after}
	for i := 0; i < n && i < 16; i++ {
		out.First = append(out.First, launch.FormatElem(after[i*size:], elem))
	}
	h := fnv.New64a()
	h.Write(after)
	out.Checksum = fmt.Sprintf("%016x", h.Sum64())
	for i := 0; i < n; i++ {
		e := after[i*size : (i+1)*size]
		out.Sum += launch.ElemValue(e, elem)
		if i*size+size <= len(before) && string(before[i*size:(i+1)*size]) != string(e) {
			out.Changed++
		}
	}
	return out
}

// sameOutput compares two outputs field by field (a NaN sum equals a NaN sum) and as JSON.
func sameOutput(t *testing.T, what string, got, want report.Output) {
	t.Helper()
	gs, ws := got.Sum, want.Sum
	got.Sum, want.Sum = 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	if math.Float64bits(gs) != math.Float64bits(ws) && !(math.IsNaN(gs) && math.IsNaN(ws)) {
		t.Fatalf("%s: sum %v (%#x), want %v (%#x)", what, gs, math.Float64bits(gs), ws, math.Float64bits(ws))
	}
	got.Sum, want.Sum = gs, ws
	gj, err1 := json.Marshal(report.Report{Outputs: []report.Output{got}})
	wj, err2 := json.Marshal(report.Report{Outputs: []report.Output{want}})
	if err1 != nil || err2 != nil || string(gj) != string(wj) {
		t.Fatalf("%s: JSON %s (%v), want %s (%v)", what, gj, err1, wj, err2)
	}
}

// interestingBits draws element bits: uniform random patterns (NaN, Inf,
// subnormals and extremes included), small integers, decimal ties and
// numbers near powers of ten, zeros of both signs.
func interestingBits(r *rand.Rand, elem string) uint64 {
	size := launch.ElemSizes[elem]
	mask := uint64(1)<<(8*size) - 1
	if size == 8 {
		mask = ^uint64(0)
	}
	var v float64
	switch r.IntN(8) {
	case 0, 1, 2:
		return r.Uint64() & mask
	case 3:
		v = float64(r.IntN(2000) - 1000)
	case 4: // k + 1/2 at the digit the format rounds to
		v = (float64(r.IntN(1<<20)) + 0.5) * math.Pow(2, float64(r.IntN(40)-20))
	case 5:
		v = math.Pow(10, float64(r.IntN(80)-40)) * (1 + float64(r.IntN(3)-1)*1e-7)
	case 6:
		v = r.NormFloat64() * math.Pow(10, float64(r.IntN(20)-10))
	default:
		return []uint64{0, mask, mask >> 1, 1 << (8*size - 1)}[r.IntN(4)]
	}
	if r.IntN(2) == 0 {
		v = -v
	}
	b := make([]byte, 8)
	switch elem {
	case "f32":
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case "f64":
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	case "f16":
		binary.LittleEndian.PutUint16(b, launch.F16Bits(float32(v)))
	case "bf16":
		binary.LittleEndian.PutUint16(b, uint16(math.Float32bits(float32(v))>>16))
	default:
		return uint64(int64(v)) & mask
	}
	return binary.LittleEndian.Uint64(b) & mask
}

// TestSummariseMatchesReference checks that summarise gives the same
// report.Output (first elements, checksum, sum, changed count, JSON) as the
// string-based implementation, on random buffers of every element type.
func TestSummariseMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 3))
	for elem, size := range launch.ElemSizes {
		for trial := range 60 {
			n := []int{0, 1, 7, 16, 17, 1000, 4099}[trial%7]
			after := make([]byte, n*size+trial%3) // a ragged tail is ignored
			for i := 0; i < n; i++ {
				v := interestingBits(r, elem)
				for j := range size {
					after[i*size+j] = byte(v >> (8 * j))
				}
			}
			before := append([]byte(nil), after...)
			for i := 0; i < n; i++ {
				if r.IntN(3) == 0 {
					before[i*size+r.IntN(size)] ^= byte(1 + r.IntN(255))
				}
			}
			if trial%3 == 2 {
				before = nil // no input (an empty() buffer)
			}
			if trial%5 == 4 {
				before = before[:len(before)/2] // shorter than the output
			}
			what := fmt.Sprintf("%s trial %d (%d elements)", elem, trial, n)
			sameOutput(t, what, summarise("buf", elem, before, after), refSummarise("buf", elem, before, after))
		}
	}
}

// TestRoundDecimalMatchesText checks each float type's element value against
// the parsed text: f16 and bf16 on every bit pattern, f32 and f64 on random ones.
func TestRoundDecimalMatchesText(t *testing.T) {
	check := func(elem string, e []byte) {
		t.Helper()
		want := launch.ElemValue(e, elem)
		got := sumElems(e, elem)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) && !(got == 0 && want == 0) {
			t.Fatalf("%s %x: %v, text gives %v (%s)", elem, e, got, want, launch.FormatElem(e, elem))
		}
	}
	e := make([]byte, 8)
	for h := range 1 << 16 {
		binary.LittleEndian.PutUint16(e, uint16(h))
		check("f16", e[:2])
		check("bf16", e[:2])
	}
	r := rand.New(rand.NewPCG(7, 7))
	for range 300000 {
		binary.LittleEndian.PutUint32(e, uint32(interestingBits(r, "f32")))
		check("f32", e[:4])
		binary.LittleEndian.PutUint64(e, interestingBits(r, "f64"))
		check("f64", e[:8])
	}
}

// TestSummariseDoesNotAllocatePerElement checks a large buffer's summary
// allocates as a small one's does, for values of magnitude below 1e9 and above 1e-10 (an
// element below about 1e-16 for f32, 1e-13 for f64, or above 1.8e19 falls back
// to its text).
func TestSummariseDoesNotAllocatePerElement(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, elem := range []string{"f32", "f64", "f16", "bf16", "i32", "u64"} {
		size := launch.ElemSizes[elem]
		small, large := make([]byte, 16*size), make([]byte, 1<<16*size)
		for i := 0; i < len(large); i += size {
			v := float64(1-2*r.IntN(2)) * (0.1 + r.Float64()) * math.Pow(10, float64(r.IntN(18)-8))
			launchPut(large[i:], elem, v)
		}
		copy(small, large)
		a := testing.AllocsPerRun(3, func() { summarise("x", elem, nil, small) })
		b := testing.AllocsPerRun(3, func() { summarise("x", elem, nil, large) })
		if b > a {
			t.Errorf("%s: %v allocations for 65536 elements, %v for 16", elem, b, a)
		}
	}
}

// BenchmarkSummarise summarises a 4M-element f32 buffer, from the raw bytes
// and with the string-based reference it replaced.
func BenchmarkSummarise(b *testing.B) {
	after := make([]byte, 4<<22)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(after); i += 4 {
		binary.LittleEndian.PutUint32(after[i:], math.Float32bits(r.Float32()*100))
	}
	before := make([]byte, len(after))
	for _, impl := range []struct {
		name string
		f    func(string, string, []byte, []byte) report.Output
	}{{"bytes", summarise}, {"strings", refSummarise}} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				impl.f("x", "f32", before, after)
			}
		})
	}
}

// launchPut writes v into b as an element of type elem.
func launchPut(b []byte, elem string, v float64) {
	switch elem {
	case "f32":
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case "f64":
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	case "f16":
		binary.LittleEndian.PutUint16(b, launch.F16Bits(float32(v)))
	case "bf16":
		binary.LittleEndian.PutUint16(b, uint16(math.Float32bits(float32(v))>>16))
	case "i32":
		binary.LittleEndian.PutUint32(b, uint32(int32(v)))
	default:
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	}
}
