package arith

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// interpSqRef is the truncated squarer written out bit by bit.
func interpSqRef(t uint32, n, w int) int64 {
	var r int64
	for i := 0; i < n; i++ {
		for k := i; k < n; k++ {
			if t>>uint(i)&1 == 0 || t>>uint(k)&1 == 0 {
				continue
			}
			wt := i + k // diagonal term t_i*2^(2i)
			if k != i {
				wt++ // folded cross term 2*t_i*t_k*2^(i+k)
			}
			if wt >= w {
				r += 1 << uint(wt)
			}
		}
	}
	return r >> uint(n)
}

// TestInterpSq checks the fast truncated squarer against the bit-by-bit sum
// and that it drops only the low columns (t^2 >> n minus at most (w+1)*2^(w-n)).
func TestInterpSq(t *testing.T) {
	for _, c := range []struct{ n, w int }{{16, 17}, {17, 19}} {
		rng := rand.New(rand.NewSource(1))
		for i := 0; i < 20000; i++ {
			v := uint32(rng.Intn(1 << uint(c.n)))
			if i < 64 {
				v = uint32(1<<uint(c.n)) - 1 - uint32(i) // the top end too
			}
			got, want := interpSq(v, c.n, c.w), interpSqRef(v, c.n, c.w)
			if got != want {
				t.Fatalf("n=%d w=%d t=%#x: interpSq %d, bit by bit %d", c.n, c.w, v, got, want)
			}
			full := int64(v) * int64(v) >> uint(c.n)
			if got > full || full-got > int64(c.w+1)<<uint(c.w-c.n) {
				t.Fatalf("n=%d w=%d t=%#x: truncated square %d far from t^2>>n = %d", c.n, c.w, v, got, full)
			}
		}
	}
}

// TestMufuInterpChecksums compares the interpolation model of MUFU.RCP/RSQ/SQRT
// with the H200's checksum over whole buckets (2^23 inputs each). The binades
// the tables were fitted on (rcp +2^0; rsqrt and sqrt +2^0, +2^1) check that
// the Go code is the fitted model (calibration); every other bucket is
// validation: the same tables under other exponents and signs, the results
// flushed below 2^-126, and the PTX forms' scaling sequences. scripts/mufu/
// fullcheck.sh runs all 512 buckets.
func TestMufuInterpChecksums(t *testing.T) {
	cases := []struct {
		name    string
		buckets []int
	}{
		{"rcp.approx.ftz.f32", []int{127, 127 + 256, 1, 253, 253 + 256, 200}},
		{"rcp.approx.f32", []int{126 + 256, 60, 254}},
		{"rsqrt.approx.ftz.f32", []int{127, 128, 1, 254}},
		{"rsqrt.approx.f32", []int{129, 30, 170}},
		{"sqrt.approx.ftz.f32", []int{127, 128, 2, 253}},
		{"sqrt.approx.f32", []int{131, 100}},
	}
	var wg sync.WaitGroup
	for _, c := range cases {
		st := loadMufuStats(t, c.name)
		f := unaryEval(t, c.name)
		for _, b := range c.buckets {
			wg.Add(1)
			go func(name string, b int) {
				defer wg.Done()
				if h := bucketHash(b, f); h != st.hash[b] {
					t.Errorf("%s on %s: model checksum %016x, H200 %016x", name, bucketName(b), h, st.hash[b])
				}
			}(c.name, b)
		}
	}
	wg.Wait()
}

// TestMufuInterpDiv checks div.approx/div.full (RCP then FMUL) against the
// H200 over whole buckets of the divisor with the dividend fixed, where RCP's
// interpolation decides the result (validation: none of these records was
// used in the fit).
func TestMufuInterpDiv(t *testing.T) {
	cases := []struct {
		name, rec string
		fixed     uint32
		buckets   []int
	}{
		{"div.approx.f32", "a3f800000", 0x3f800000, []int{127, 130 + 256}},
		{"div.approx.ftz.f32", "a3f9d70a4", 0x3f9d70a4, []int{127}},
		{"div.full.f32", "a4049fdb0", 0x4049fdb0, []int{128 + 256}},
		{"div.full.ftz.f32", "abf3504f3", 0xbf3504f3, []int{125}},
	}
	var wg sync.WaitGroup
	for _, c := range cases {
		st := loadMufuStats(t, c.name+"_"+c.rec)
		o := dec(t, c.name, 2)
		for _, b := range c.buckets {
			wg.Add(1)
			go func(name, rec string, fixed uint32, b int) {
				defer wg.Done()
				f := func(x uint32) uint32 {
					s := [4]uint64{uint64(fixed), uint64(x)}
					var cc uint8
					d, _ := o.Eval(&s, &cc)
					return uint32(d)
				}
				if h := bucketHash(b, f); h != st.hash[b] {
					t.Errorf("%s (%s) on %s: model checksum %016x, H200 %016x", name, rec, bucketName(b), h, st.hash[b])
				}
			}(c.name, c.rec, c.fixed, b)
		}
	}
	wg.Wait()
}

// TestMufuDivAllBuckets reports, for every recorded div.* record, which of
// the buckets in KS_MUFU_BUCKETS (default: a spread) the model reproduces.
// Skipped unless KS_MUFU_DIV is set (scripts/mufu/fullcheck.sh).
func TestMufuDivAllBuckets(t *testing.T) {
	if os.Getenv("KS_MUFU_DIV") == "" {
		t.Skip("set KS_MUFU_DIV=1 (minutes of CPU)")
	}
	recs := []string{"a3f800000", "a3f9d70a4", "a3fc00000", "a3fffffff", "a4049fdb0", "abf3504f3",
		"b3f800000", "b3f9d70a4", "b3fc00000", "b3fffffff", "b4049fdb0", "bbf3504f3"}
	bks := []int{0, 1, 2, 60, 125, 126, 127, 128, 129, 200, 252, 253, 254, 255}
	for _, name := range []string{"div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32"} {
		o := dec(t, name, 2)
		for _, rec := range recs {
			st := loadMufuStats(t, name+"_"+rec)
			var fixed uint32
			for _, ch := range rec[1:] {
				fixed = fixed<<4 | uint32(hexVal(byte(ch)))
			}
			divisorFixed := rec[0] == 'b'
			var bad []string
			var mu sync.Mutex
			var wg sync.WaitGroup
			for _, b0 := range bks {
				for _, b := range []int{b0, b0 + 256} {
					wg.Add(1)
					go func(b int) {
						defer wg.Done()
						h := bucketHash(b, func(x uint32) uint32 {
							s := [4]uint64{uint64(fixed), uint64(x)}
							if divisorFixed {
								s = [4]uint64{uint64(x), uint64(fixed)}
							}
							var cc uint8
							d, _ := o.Eval(&s, &cc)
							return uint32(d)
						})
						if h != st.hash[b] {
							mu.Lock()
							bad = append(bad, bucketName(b))
							mu.Unlock()
						}
					}(b)
				}
			}
			wg.Wait()
			t.Logf("%s_%s: %d of %d buckets differ %v", name, rec, len(bad), 2*len(bks), bad)
		}
	}
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return 0
}

// TestISAOracleRcpExact requires every row of the ISA oracle's variants that
// go through MUFU.RCP, RSQ or SQRT (f32) or RSQ64H to be the H200's bits, where
// TestISAOracle accepts the manual's error bound for .approx forms.
func TestISAOracleRcpExact(t *testing.T) {
	forms := map[string]bool{"div.approx.f32": true, "div.approx.ftz.f32": true, "div.full.f32": true,
		"div.full.ftz.f32": true, "rcp.approx.f32": true, "rcp.approx.ftz.f32": true, "rsqrt.approx.f32": true,
		"rsqrt.approx.ftz.f32": true, "sqrt.approx.f32": true, "sqrt.approx.ftz.f32": true,
		"rsqrt.approx.f64": true, "rsqrt.approx.ftz.f64": true, "rcp.approx.ftz.f64": true}
	seen := 0
	for _, v := range loadISA(t) {
		if !forms[v.Name] || v.Status != "ok" {
			continue
		}
		seen++
		src, err := os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(v.PTX, "isa/")))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		mod, err := ptx.Parse(v.PTX, src)
		if err != nil {
			t.Fatalf("%s: parse: %v", v.Name, err)
		}
		l := &lane{f: mod.Func("isa"), ops: map[*ptx.Inst]*Op{}}
		if l.f == nil {
			t.Fatalf("%s: no kernel isa", v.Name)
		}
		for k, p := range v.Inputs {
			if l.inputs[k], err = os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(p, "isa/"))); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
		}
		want, err := os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(v.Output, "isa/")))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		esz := len(want) / v.N
		bad := 0
		for i := 0; i < v.N; i++ {
			l.regs, l.cc, l.stored = map[string]uint64{}, 0, false
			if err := l.run(i); err != nil {
				t.Fatalf("%s row %d: %v", v.Name, i, err)
			}
			var w uint64
			for k := 0; k < esz; k++ {
				w |= uint64(want[i*esz+k]) << (8 * k)
			}
			if !l.stored || l.store != w {
				if bad < 3 {
					t.Errorf("%s row %d: inputs %s: got %#x, H200 %#x", v.Name, i, rowInputs(l, v, i), l.store, w)
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d rows differ", v.Name, bad, v.N)
		}
	}
	if seen < 7 {
		t.Errorf("only %d of the expected RCP/RSQ/SQRT variants in the ISA oracle", seen)
	}
}

// f64Stats reads testdata/measured/mufu/f64_stats.txt.gz: per f64 form and per
// bucket of the high word (hi >> 20), the sum of mix64(hi<<32 ^ mix64(out))
// over the 2^20 high words of the bucket with the low word zero.
func f64Stats(t testing.TB) map[string]*[4096]uint64 {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(measuredMufu, "f64_stats.txt.gz"))
	if err != nil {
		t.Fatalf("f64 stats: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("f64 stats: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("f64 stats: %v", err)
	}
	st := map[string]*[4096]uint64{}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 || strings.HasPrefix(l, "#") {
			continue
		}
		bk, err1 := strconv.ParseUint(f[1], 16, 16)
		h, err2 := strconv.ParseUint(f[2], 16, 64)
		if err1 != nil || err2 != nil || bk >= 4096 {
			t.Fatalf("f64 stats: bad line %q", l)
		}
		if st[f[0]] == nil {
			st[f[0]] = new([4096]uint64)
		}
		st[f[0]][bk] = h
	}
	return st
}

// bucketHash64 is f64Stats' checksum of one bucket for f.
func bucketHash64(b int, f func(uint64) uint64) uint64 {
	var h uint64
	for i := uint64(0); i < 1<<20; i++ {
		hi := uint64(b)<<20 | i
		h += mix64(hi<<32 ^ mix64(f(hi<<32)))
	}
	return h
}

// f64Buckets is the spread of high-word buckets the CI test checks (with
// KS_MUFU_F64=N every Nth of the 4096 instead; 1: all, hours of CPU):
// zero/subnormal, small, around 1, huge, Inf/NaN, both signs.
func f64Buckets() []int {
	if n, err := strconv.Atoi(os.Getenv("KS_MUFU_F64")); err == nil && n > 0 {
		var bs []int
		for i := 0; i < 4096; i += n {
			bs = append(bs, i)
		}
		return bs
	}
	var bs []int
	for _, b := range []int{0, 1, 2, 300, 1021, 1022, 1023, 1024, 1025, 1800, 2045, 2046, 2047} {
		bs = append(bs, b, b+2048)
	}
	return bs
}

// TestMufu64Checksums compares rsqrt.approx.f64, rsqrt.approx.ftz.f64 and
// rcp.approx.ftz.f64 (MUFU.RSQ64H/RCP64H: the f32 tables, mufu_rcp.go) with
// the H200's checksums (scripts/mufu/f64.cu; validation: none of these was
// used to fit the tables).
func TestMufu64Checksums(t *testing.T) {
	st := f64Stats(t)
	for _, name := range []string{"rsqrt.approx.f64", "rsqrt.approx.ftz.f64", "rcp.approx.ftz.f64"} {
		o := dec(t, name, 1)
		f := func(x uint64) uint64 {
			s := [4]uint64{x}
			var cc uint8
			d, _ := o.Eval(&s, &cc)
			return d
		}
		want := st[name]
		if want == nil {
			t.Fatalf("no stats for %s", name)
		}
		var bad []string
		var mu sync.Mutex
		var wg sync.WaitGroup
		sem := make(chan bool, runtime.NumCPU())
		for _, b := range f64Buckets() {
			wg.Add(1)
			sem <- true
			go func(b int) {
				defer wg.Done()
				if h := bucketHash64(b, f); h != want[b] {
					mu.Lock()
					bad = append(bad, strconv.FormatInt(int64(b), 16))
					mu.Unlock()
				}
				<-sem
			}(b)
		}
		wg.Wait()
		if len(bad) > 0 {
			sort.Strings(bad)
			t.Errorf("%s: %d buckets differ from the H200: %v", name, len(bad), bad)
		}
	}
}

// TestRsqrtApprox64Random replays rsqrt.approx.f64 on H200 inputs with random
// low words (f64_rand.bin.gz: 8192 in [1, 4), 8192 with exponents over
// [2^-1000, 2^1000)), where the refinement reads the whole operand.
func TestRsqrtApprox64Random(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(measuredMufu, "f64_rand.bin.gz"))
	if err != nil {
		t.Fatalf("f64 rand: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("f64 rand: %v", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil || len(b) != 16*16384 {
		t.Fatalf("f64 rand: %d bytes, %v", len(b), err)
	}
	o := dec(t, "rsqrt.approx.f64", 1)
	bad := 0
	for i := 0; i < len(b); i += 16 {
		x, want := binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
		s := [4]uint64{x}
		var cc uint8
		got, _ := o.Eval(&s, &cc)
		if got != want {
			if bad < 3 {
				t.Errorf("rsqrt.approx.f64(%#x) = %#x, H200 %#x", x, got, want)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(b)/16)
	}
}

// BenchmarkEvalRsqrtApproxF32 is one rsqrt.approx.f32 through the interpolation.
func BenchmarkEvalRsqrtApproxF32(b *testing.B) {
	o := dec(b, "rsqrt.approx.f32", 1)
	src := [4]uint64{0x3fc00000}
	var sink uint64
	for b.Loop() {
		d, _ := o.Eval(&src, nil)
		sink += d
		src[0] = 0x3f800000 | (src[0]*0x9e3779b1+d)&0x00ffffff
	}
	_ = sink
}

// BenchmarkEvalRcpApproxFtzF32 is one rcp.approx.ftz.f32 through the interpolation.
func BenchmarkEvalRcpApproxFtzF32(b *testing.B) {
	o := dec(b, "rcp.approx.ftz.f32", 1)
	src := [4]uint64{0x3fc00000}
	var sink uint64
	for b.Loop() {
		d, _ := o.Eval(&src, nil)
		sink += d
		src[0] = 0x3f800000 | (src[0]*0x9e3779b1+d)&0x00ffffff
	}
	_ = sink
}

// TestRcpApproxF64Rejected: PTX has rcp.approx.ftz.f64 only.
func TestRcpApproxF64Rejected(t *testing.T) {
	if _, err := Decode(mk("rcp.approx.f64", 1)); err == nil || !strings.Contains(err.Error(), "rcp.approx.ftz.f64") {
		t.Errorf("rcp.approx.f64: err = %v, want a message naming rcp.approx.ftz.f64", err)
	}
	if _, err := Decode(mk("rcp.approx.ftz.f64", 1)); err != nil {
		t.Errorf("rcp.approx.ftz.f64: %v", err)
	}
}
