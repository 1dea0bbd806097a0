// Command gen writes the tensor-core probe: a CUDA program with one kernel per
// mma.sync form (probe.cu) and the input cases of each form (cases/NAME.in), the
// first half calibration cases (targeted: alignment, truncation, order, subnormals,
// NaN/Inf), the second half validation cases (random values, never used to choose
// the model). Usage: go run ./scripts/tensor/gen DIR
package main

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arith"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	if err := run(dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "cases"), 0o755); err != nil {
		return err
	}
	var src strings.Builder
	src.WriteString(probeHead)
	for vi, v := range variants {
		m, err := arith.ParseMMA(strings.Split(strings.TrimPrefix(v.ptx, "mma."), "."))
		if err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		writeKernel(&src, v, m)
		cases := makeCases(m, int64(1000+vi))
		if err := os.WriteFile(filepath.Join(dir, "cases", v.name+".in"), encodeCases(m, cases), 0o644); err != nil {
			return err
		}
	}
	writeMain(&src)
	if err := writeGemmInputs(filepath.Join(dir, "gemm")); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "probe.cu"), []byte(src.String()), 0o644)
}

// mcase is one warp's matrices, element bits row-major.
type mcase struct{ a, b, c []uint64 }

// Words is the count of 32-bit words per lane of a, b, c and d.
func Words(m *arith.MMA) (na, nb, nc, nd int) {
	na, nb, nc, nd = m.Regs()
	if m.A == arith.ElemF64 {
		return 2 * na, 2 * nb, 2 * nc, 2 * nd
	}
	return
}

// pack lays the elements of x into lane's registers (loc gives an element's place).
func pack(e arith.MMAElem, nregs, cols int, x []uint64, lane int, loc func(lane, i int) (int, int), out []uint32) []uint32 {
	per := e.PerReg()
	for r := 0; r < nregs; r++ {
		var w uint64
		for i := 0; i < per; i++ {
			row, col := loc(lane, r*per+i)
			mk := ^uint64(0)
			if e.Bits() < 64 {
				mk = 1<<e.Bits() - 1
			}
			w |= (x[row*cols+col] & mk) << (i * e.Bits() % 64)
		}
		if e == arith.ElemF64 {
			out = append(out, uint32(w), uint32(w>>32))
		} else {
			out = append(out, uint32(w))
		}
	}
	return out
}

func encodeCases(m *arith.MMA, cs []mcase) []byte {
	na, nb, nc, _ := m.Regs()
	var w []uint32
	w = append(w, uint32(len(cs)), uint32(len(cs)/2))
	for _, c := range cs {
		for lane := 0; lane < 32; lane++ {
			w = pack(m.A, na, m.K, c.a, lane, m.ALoc, w)
			w = pack(m.B, nb, m.N, c.b, lane, m.BLoc, w)
			w = pack(m.C, nc, m.N, c.c, lane, m.CLoc, w)
		}
	}
	b := make([]byte, 4*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func writeKernel(s *strings.Builder, v variant, m *arith.MMA) {
	na, nb, nc, nd := m.Regs()
	wa, wb, wc, wd := Words(m)
	wide := m.A == arith.ElemF64
	cons := "r"
	if wide {
		cons = "l"
	}
	fmt.Fprintf(s, "#if defined(ALL) || defined(V_%s)\n", v.name)
	fmt.Fprintf(s, "__global__ void k_%s(const unsigned* in, unsigned* out) {\n", v.name)
	fmt.Fprintf(s, "  const unsigned* p = in + 2 + ((size_t)blockIdx.x * 32 + threadIdx.x) * %d;\n", wa+wb+wc)
	fmt.Fprintf(s, "  unsigned* q = out + ((size_t)blockIdx.x * 32 + threadIdx.x) * %d;\n", wd)
	typ := "unsigned"
	if wide {
		typ = "unsigned long long"
	}
	fmt.Fprintf(s, "  %s a[%d], b[%d], c[%d], d[%d];\n", typ, na, nb, nc, nd)
	load := func(name string, n, off int) {
		for i := 0; i < n; i++ {
			if wide {
				fmt.Fprintf(s, "  %s[%d] = (unsigned long long)p[%d] | (unsigned long long)p[%d] << 32;\n", name, i, off+2*i, off+2*i+1)
			} else {
				fmt.Fprintf(s, "  %s[%d] = p[%d];\n", name, i, off+i)
			}
		}
	}
	load("a", na, 0)
	load("b", nb, wa)
	load("c", nc, wa+wb)
	var ops []string
	idx := 0
	list := func(n int) string {
		var l []string
		for i := 0; i < n; i++ {
			l = append(l, fmt.Sprintf("%%%d", idx))
			idx++
		}
		return "{" + strings.Join(l, ",") + "}"
	}
	dl, al, bl, cl := list(nd), list(na), list(nb), list(nc)
	for i := 0; i < nd; i++ {
		ops = append(ops, fmt.Sprintf("\"=%s\"(d[%d])", cons, i))
	}
	var ins []string
	for i := 0; i < na; i++ {
		ins = append(ins, fmt.Sprintf("\"%s\"(a[%d])", cons, i))
	}
	for i := 0; i < nb; i++ {
		ins = append(ins, fmt.Sprintf("\"%s\"(b[%d])", cons, i))
	}
	for i := 0; i < nc; i++ {
		ins = append(ins, fmt.Sprintf("\"%s\"(c[%d])", cons, i))
	}
	fmt.Fprintf(s, "  asm volatile(\"%s %s, %s, %s, %s;\" : %s : %s);\n", v.ptx, dl, al, bl, cl, strings.Join(ops, ", "), strings.Join(ins, ", "))
	for i := 0; i < nd; i++ {
		if wide {
			fmt.Fprintf(s, "  q[%d] = (unsigned)d[%d]; q[%d] = (unsigned)(d[%d] >> 32);\n", 2*i, i, 2*i+1, i)
		} else {
			fmt.Fprintf(s, "  q[%d] = d[%d];\n", i, i)
		}
	}
	s.WriteString("}\n\n")
	fmt.Fprintf(s, "static void run_%s(const char* dir) { run_probe(dir, \"%s\", k_%s, %d, %d); }\n", v.name, v.name, v.name, wa+wb+wc, wd)
	fmt.Fprintf(s, "#else\nstatic void run_%s(const char*) {}\n#endif\n\n", v.name)
}

func writeMain(s *strings.Builder) {
	s.WriteString("int main(int argc, char** argv) {\n  const char* dir = argc > 1 ? argv[1] : \".\";\n")
	for _, v := range variants {
		fmt.Fprintf(s, "  run_%s(dir);\n", v.name)
	}
	s.WriteString("  run_matrix_probes(dir);\n  run_latency(dir);\n  return 0;\n}\n")
}

// ---- cases ----

// fbits builds the bits of a finite float of a format from sign, unbiased exponent and
// fraction (clamped into the format's range: below the normal range it becomes subnormal).
type ffmt struct{ mant, bias, width int }

var (
	fmF16  = ffmt{10, 15, 16}
	fmBF16 = ffmt{7, 127, 16}
	fmF32  = ffmt{23, 127, 32}
	fmF64  = ffmt{52, 1023, 64}
)

// num encodes (-1)^neg * m * 2^e exactly (m must fit; the caller keeps it representable).
func (f ffmt) num(neg bool, m uint64, e int) uint64 {
	var s uint64
	if neg {
		s = 1 << (f.width - 1)
	}
	if m == 0 {
		return s
	}
	for m >= 2<<f.mant {
		if m&1 != 0 {
			panic("not representable")
		}
		m >>= 1
		e++
	}
	for m < 1<<f.mant {
		m <<= 1
		e--
	}
	be := e + f.mant + f.bias
	if be <= 0 { // subnormal: shift right, must stay exact
		sh := 1 - be
		if sh > 63 || m&(1<<sh-1) != 0 {
			panic("not representable subnormal")
		}
		return s | m>>sh
	}
	if be >= 1<<(f.width-1-f.mant)-1 {
		panic("overflow")
	}
	return s | uint64(be)<<f.mant | (m - 1<<f.mant)
}

func (f ffmt) inf(neg bool) uint64 {
	v := uint64(1<<(f.width-1-f.mant)-1) << f.mant
	if neg {
		v |= 1 << (f.width - 1)
	}
	return v
}

func (f ffmt) nan() uint64 { return f.inf(false) | 1<<(f.mant-1) }

// rnd returns a random value with p significant bits and exponent in [lo, hi].
func (f ffmt) rnd(r *rand.Rand, p, lo, hi int) uint64 {
	if p > f.mant+1 {
		p = f.mant + 1
	}
	lo, hi = max(lo, 1-f.bias), min(hi, f.bias)
	m := uint64(1)<<(p-1) | uint64(r.Int63n(1<<(p-1)))
	e := lo + r.Intn(hi-lo+1)
	return f.num(r.Intn(2) == 0, m, e-(p-1))
}

func fmtOf(e arith.MMAElem) ffmt {
	switch e {
	case arith.ElemF16:
		return fmF16
	case arith.ElemBF16:
		return fmBF16
	case arith.ElemF64:
		return fmF64
	}
	return fmF32
}

func makeCases(m *arith.MMA, seed int64) []mcase {
	r := rand.New(rand.NewSource(seed))
	const n = 48 // calibration cases; as many validation cases follow
	var cs []mcase
	for i := 0; i < n; i++ {
		cs = append(cs, calCase(m, r, i))
	}
	rv := rand.New(rand.NewSource(seed + 7777))
	for i := 0; i < n; i++ {
		cs = append(cs, valCase(m, rv, i))
	}
	return cs
}

func newCase(m *arith.MMA) mcase {
	return mcase{a: make([]uint64, m.M*m.K), b: make([]uint64, m.K*m.N), c: make([]uint64, m.M*m.N)}
}

func isInt(e arith.MMAElem) bool { return e == arith.ElemS8 || e == arith.ElemU8 || e == arith.ElemS32 }

func intCase(m *arith.MMA, r *rand.Rand, kind int) mcase {
	c := newCase(m)
	el := func(e arith.MMAElem) uint64 {
		if kind == 0 {
			return uint64(int8(r.Intn(7)-3)) & 0xff
		}
		if e == arith.ElemS8 && kind == 2 {
			return uint64(0x80 - r.Intn(2)) // -128 or 127
		}
		return uint64(r.Intn(256))
	}
	for i := range c.a {
		c.a[i] = el(m.A)
	}
	for i := range c.b {
		c.b[i] = el(m.B)
	}
	for i := range c.c {
		switch {
		case kind == 0:
			c.c[i] = uint64(uint32(int32(r.Intn(100) - 50)))
		case r.Intn(3) == 0:
			c.c[i] = uint64(uint32(0x7fffffff - int32(r.Intn(1<<20))))
		case r.Intn(2) == 0:
			c.c[i] = uint64(uint32(int32(-0x80000000 + r.Intn(1<<20))))
		default:
			c.c[i] = uint64(r.Uint32())
		}
	}
	return c
}

// calCase builds targeted cases: kinds cycle through layout, cancellation/truncation,
// order, accumulator magnitude, subnormals, specials and tf32 low bits.
func calCase(m *arith.MMA, r *rand.Rand, i int) mcase {
	if isInt(m.A) {
		return intCase(m, r, i%3)
	}
	fa, fb, fc := fmtOf(m.A), fmtOf(m.B), fmtOf(m.C)
	c := newCase(m)
	small := func(f ffmt, v int) uint64 {
		if v < 0 {
			return f.num(true, uint64(-v), 0)
		}
		return f.num(false, uint64(v), 0)
	}
	pow2 := func(f ffmt, e int) uint64 { return f.num(r.Intn(2) == 0, 1, e) }
	kind := i % 8
	// exponent ranges that keep values representable
	elo, ehi := -12, 12
	if m.A == arith.ElemF16 {
		elo, ehi = -14, 14
	}
	switch kind {
	case 0: // small integers: exact in any model; checks the fragment layouts
		for j := range c.a {
			c.a[j] = small(fa, r.Intn(9)-4)
		}
		for j := range c.b {
			c.b[j] = small(fb, r.Intn(9)-4)
		}
		for j := range c.c {
			c.c[j] = small(fc, r.Intn(17)-8)
		}
	case 1, 2: // one large product and many small ones: alignment and truncation
		for row := 0; row < m.M; row++ {
			big := r.Intn(m.K)
			for k := 0; k < m.K; k++ {
				if k == big {
					c.a[row*m.K+k] = fa.rnd(r, 11, 0, 3)
				} else {
					c.a[row*m.K+k] = fa.rnd(r, 1+r.Intn(11), -(8 + r.Intn(20)), -4)
				}
			}
		}
		for j := range c.b {
			c.b[j] = pow2(fb, r.Intn(3)-1)
		}
		for j := range c.c {
			switch r.Intn(4) {
			case 0:
				c.c[j] = 0
			case 1:
				c.c[j] = fc.rnd(r, 24, -30, -10)
			case 2:
				c.c[j] = fc.rnd(r, 24, 4, 6)
			default:
				c.c[j] = fc.rnd(r, 24, -2, 2)
			}
		}
	case 3: // +X and -X at two places with a small value: grouping and order of steps
		for row := 0; row < m.M; row++ {
			k1, k2, k3 := r.Intn(m.K), r.Intn(m.K), r.Intn(m.K)
			for k := 0; k < m.K; k++ {
				c.a[row*m.K+k] = 0
			}
			x := fa.rnd(r, 11, 6, 10)
			c.a[row*m.K+k1] = x
			c.a[row*m.K+k2] = x ^ 1<<(fa.width-1)
			if k3 != k1 && k3 != k2 {
				c.a[row*m.K+k3] = fa.rnd(r, 11, -14, -6)
			}
		}
		for j := range c.b {
			c.b[j] = fb.num(false, 1, 0)
		}
		for j := range c.c {
			if r.Intn(2) == 0 {
				c.c[j] = 0
			} else {
				c.c[j] = fc.rnd(r, 11, -16, -4)
			}
		}
	case 4: // accumulator much larger or much smaller than the products
		for j := range c.a {
			c.a[j] = fa.rnd(r, 11, -3, 3)
		}
		for j := range c.b {
			c.b[j] = fb.rnd(r, 11, -3, 3)
		}
		for j := range c.c {
			if r.Intn(2) == 0 {
				c.c[j] = fc.rnd(r, 24, 14, 15)
			} else {
				c.c[j] = fc.rnd(r, 24, -40, -8)
			}
		}
	case 5: // subnormal inputs and results
		sub := func(f ffmt) uint64 {
			if f == fmF16 {
				return f.num(r.Intn(2) == 0, uint64(1+r.Intn(1023)), -24)
			}
			return f.rnd(r, 8, -126, -110)
		}
		for j := range c.a {
			if r.Intn(2) == 0 {
				c.a[j] = sub(fa)
			} else {
				c.a[j] = fa.rnd(r, 11, elo, elo+6)
			}
		}
		for j := range c.b {
			if r.Intn(3) == 0 {
				c.b[j] = sub(fb)
			} else {
				c.b[j] = fb.rnd(r, 11, elo, elo+4)
			}
		}
		for j := range c.c {
			switch r.Intn(3) {
			case 0:
				if fc == fmF16 {
					c.c[j] = fc.num(r.Intn(2) == 0, uint64(1+r.Intn(1023)), -24)
				} else {
					c.c[j] = fc.num(r.Intn(2) == 0, uint64(1+r.Intn(1<<20)), -149)
				}
			case 1:
				c.c[j] = 0 | uint64(r.Intn(2))<<(fc.width-1)
			default:
				c.c[j] = fc.rnd(r, 11, elo-2, elo+2)
			}
		}
	case 6: // NaN, Inf, zeros with signs
		for j := range c.a {
			c.a[j] = fa.rnd(r, 11, -2, 2)
		}
		for j := range c.b {
			c.b[j] = fb.rnd(r, 11, -2, 2)
		}
		for j := range c.c {
			c.c[j] = fc.rnd(r, 11, -2, 2)
		}
		for row := 0; row < m.M; row++ {
			k := r.Intn(m.K)
			switch row % 8 {
			case 0:
				c.a[row*m.K+k] = fa.nan()
			case 1:
				c.a[row*m.K+k] = fa.inf(r.Intn(2) == 0)
			case 2:
				c.a[row*m.K+k] = fa.inf(false)
				c.a[row*m.K+(k+1)%m.K] = fa.inf(true)
			case 3:
				c.a[row*m.K+k] = fa.inf(false)
				c.b[k*m.N+r.Intn(m.N)] = 0
			case 4: // all zero products with signed zero accumulators
				for kk := 0; kk < m.K; kk++ {
					c.a[row*m.K+kk] = uint64(r.Intn(2)) << (fa.width - 1)
				}
				for col := 0; col < m.N; col++ {
					c.c[row*m.N+col] = uint64(r.Intn(2)) << (fc.width - 1)
				}
			case 5: // exact cancellation to zero
				for kk := 0; kk < m.K; kk++ {
					c.a[row*m.K+kk] = 0
				}
				c.a[row*m.K+k] = fa.num(false, 3, 0)
				c.a[row*m.K+(k+1)%m.K] = fa.num(true, 3, 0)
				for col := 0; col < m.N; col++ {
					c.c[row*m.N+col] = uint64(r.Intn(2)) << (fc.width - 1)
				}
			}
		}
		c.c[r.Intn(len(c.c))] = fc.nan()
		c.c[r.Intn(len(c.c))] = fc.inf(true)
	case 7: // wide exponents (tf32: random low 13 bits, which tf32 ignores or rounds)
		for j := range c.a {
			c.a[j] = fa.rnd(r, 24, elo, ehi)
		}
		for j := range c.b {
			c.b[j] = fb.rnd(r, 24, elo, ehi)
		}
		for j := range c.c {
			c.c[j] = fc.rnd(r, 24, 2*elo, 2*ehi)
		}
	}
	return c
}

// valCase: random values as GEMMs see them (uniform in [-1, 1) at the format's precision)
// and random exponents; never used to choose the model.
func valCase(m *arith.MMA, r *rand.Rand, i int) mcase {
	if isInt(m.A) {
		return intCase(m, r, 1+i%2)
	}
	fa, fb, fc := fmtOf(m.A), fmtOf(m.B), fmtOf(m.C)
	c := newCase(m)
	lo := -6
	if i%2 == 1 {
		lo = -12
	}
	for j := range c.a {
		c.a[j] = fa.rnd(r, 24, lo, -1)
	}
	for j := range c.b {
		c.b[j] = fb.rnd(r, 24, lo, -1)
	}
	for j := range c.c {
		c.c[j] = fc.rnd(r, 24, lo, 2)
	}
	return c
}

// writeGemmInputs writes the 64x64 inputs of the course GEMMs: f16 and bf16 values in
// (-1, 1) at full precision, and a C of small integers.
func writeGemmInputs(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	r := rand.New(rand.NewSource(21))
	put := func(name string, n, width int, gen func() uint64) error {
		b := make([]byte, n*width/8)
		for i := 0; i < n; i++ {
			v := gen()
			if width == 16 {
				binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
			} else {
				binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
			}
		}
		return os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	const n = 64 * 64
	for _, f := range []struct {
		name string
		ff   ffmt
	}{{"a_f16.bin", fmF16}, {"b_f16.bin", fmF16}, {"a_bf16.bin", fmBF16}, {"b_bf16.bin", fmBF16}} {
		if err := put(f.name, n, 16, func() uint64 { return f.ff.rnd(r, 11, -8, -1) }); err != nil {
			return err
		}
	}
	if err := put("c_f32.bin", n, 32, func() uint64 {
		v := r.Intn(21) - 10
		if v < 0 {
			return fmF32.num(true, uint64(-v), 0)
		}
		return fmF32.num(false, uint64(v), 0)
	}); err != nil {
		return err
	}
	return put("bulk_in.bin", 4*8*1024, 32, func() uint64 { return fmF32.rnd(r, 24, -6, 2) })
}
