package arith

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// loadEx2Table rebuilds the H200's MUFU.EX2 mantissa table T (2^23 entries)
// from ex2.approx.f32's recorded outputs on [1, 2) and checks it against the
// device's checksum of that bucket.
func loadEx2Table(t testing.TB) []uint32 {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(measuredMufu, "ex2_127.i8.gz"))
	if err != nil {
		t.Fatalf("measured ex2 table: %v", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("measured ex2 table: %v", err)
	}
	e, err := io.ReadAll(zr)
	if err != nil || len(e) != 1<<23 {
		t.Fatalf("measured ex2 table: %d bytes, %v", len(e), err)
	}
	T := make([]uint32, 1<<23)
	var h uint64
	for k := range T {
		in := 0x3f800000 | uint32(k)
		r := math.Float32bits(float32(math.Exp2(float64(math.Float32frombits(in)))))
		o := uint32(int32(r) + int32(int8(e[k])))
		h += mix64(uint64(in)<<32 | uint64(o))
		T[k] = o & 0x7fffff
	}
	if st := loadMufuStats(t, "ex2.approx.f32"); h != st.hash[127] {
		t.Fatalf("measured ex2 table: checksum %016x, device %016x", h, st.hash[127])
	}
	return T
}

// TestEx2ArgumentRule proves MUFU.EX2's argument handling (ex2Split, ex2Join)
// with the device's own mantissa table: the composition must give the H200's
// checksum on every bucket tested (a sample here; KS_MUFU_BUCKETS=all for all
// 512 of both ex2 forms, about a CPU-minute each).
func TestEx2ArgumentRule(t *testing.T) {
	T := loadEx2Table(t)
	dev := func(xb uint32) uint32 {
		xb = ftz32(xb)
		e, k, r, ok := ex2Split(xb)
		if !ok {
			return r
		}
		return ftz32(ex2Join(e, T[k]))
	}
	bks := []int{1, 103, 104, 105, 120, 126, 128, 132, 133, 134, 256 + 103, 256 + 104, 256 + 105, 256 + 110, 256 + 126, 256 + 127, 256 + 128, 256 + 133}
	if s := os.Getenv("KS_MUFU_BUCKETS"); s == "all" {
		bks = nil
		for b := 0; b < 512; b++ {
			bks = append(bks, b)
		}
	} else if s != "" {
		bks = nil
		for _, f := range strings.Split(s, ",") {
			n, _ := strconv.Atoi(f)
			bks = append(bks, n)
		}
	}
	for _, name := range []string{"ex2.approx.ftz.f32", "ex2.approx.f32"} {
		st := loadMufuStats(t, name)
		f := dev
		if name == "ex2.approx.f32" {
			f = func(xb uint32) uint32 { // the SASS of section 1 around the device's unit
				if !(math.Float32frombits(xb) < -126) {
					return dev(xb)
				}
				r := dev(fmul32(xb, 0x3f000000, false))
				return fmul32(r, r, false)
			}
		}
		got := make([]uint64, len(bks))
		var wg sync.WaitGroup
		sem := make(chan bool, runtime.NumCPU())
		for i, b := range bks {
			wg.Add(1)
			sem <- true
			go func(i, b int) {
				defer wg.Done()
				got[i] = bucketHash(b, f)
				<-sem
			}(i, b)
		}
		wg.Wait()
		for i, b := range bks {
			if got[i] != st.hash[b] {
				t.Errorf("%s on %s: argument rule with the device's table: checksum %016x, H200 %016x", name, bucketName(b), got[i], st.hash[b])
			}
		}
	}
}

// TestEx2Mantissa checks the recovered interpolator (ex2Mant, ex2Coef) against
// all 2^23 entries of the device's table. With TestEx2ArgumentRule (all 512
// buckets with KS_MUFU_BUCKETS=all) this proves the model of ex2.approx.f32
// and .ftz.f32 bit-exact over all 2^32 inputs.
func TestEx2Mantissa(t *testing.T) {
	T := loadEx2Table(t)
	n := 0
	for k, v := range T {
		if ex2Mant(uint32(k)) == v {
			n++
		}
	}
	t.Logf("ex2Mant equals the H200's mantissa on %d of %d fractions (%.3f %%)", n, len(T), 100*float64(n)/float64(len(T)))
	if n != len(T) {
		t.Errorf("ex2Mant: %d of 2^23 mantissas equal the H200's, want all", n)
	}
}

// gunzipMeasured reads a gzip file of testdata/measured/mufu.
func gunzipMeasured(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(measuredMufu, name))
	if err != nil {
		t.Fatalf("measured %s: %v", name, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("measured %s: %v", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("measured %s: %v", name, err)
	}
	return b
}

// deltaU32 undoes the delta coding of the .d32 records (each u32 minus the previous).
func deltaU32(t *testing.T, name string) []uint32 {
	t.Helper()
	b := gunzipMeasured(t, name)
	if len(b) != 4<<23 {
		t.Fatalf("measured %s: %d bytes, want 2^25", name, len(b))
	}
	o := make([]uint32, 1<<23)
	var acc uint32
	for i := range o {
		acc += binary.LittleEndian.Uint32(b[4*i:])
		o[i] = acc
	}
	return o
}

// TestLg2Table checks MUFU.LG2's recovered interpolator on all 2^23 inputs of
// [1, 2) against the H200's recorded outputs (checked against the device's
// checksum of that bucket first).
func TestLg2Table(t *testing.T) {
	dev := deltaU32(t, "lg2_127.d32.gz")
	var h uint64
	for k, v := range dev {
		h += mix64(uint64(0x3f800000|uint32(k))<<32 | uint64(v))
	}
	if st := loadMufuStats(t, "lg2.approx.ftz.f32"); h != st.hash[127] {
		t.Fatalf("measured lg2 table: checksum %016x, device %016x", h, st.hash[127])
	}
	bad := 0
	for k, v := range dev {
		if g := mufuLg2(0x3f800000 | uint32(k)); g != v {
			if bad < 3 {
				t.Errorf("lg2(1 + %d 2^-23): model %08x, H200 %08x", k, g, v)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("lg2 on [1, 2): %d of 2^23 outputs differ", bad)
	}
}

// TestSinTable checks MUFU.SIN's recovered quarter-wave table on all 2^23
// entries: Q[u] is MUFU.SIN of r = u 2^-25 (exact in f32).
func TestSinTable(t *testing.T) {
	Q := deltaU32(t, "sin_q.d32.gz")
	bad := 0
	for u, v := range Q {
		r := math.Float32bits(float32(u) * (1.0 / (1 << 25)))
		if g := mufuSinCos(false, r); g != v {
			if bad < 3 {
				t.Errorf("MUFU.SIN quarter-wave entry %d: model %08x, H200 %08x", u, g, v)
			}
			bad++
		}
		if g := mufuSinCos(true, r^sgn32); u > 0 && g != cosOfQuarter(Q, u) {
			if bad < 3 {
				t.Errorf("MUFU.COS(-%d 2^-25): model %08x, table gives %08x", u, g, cosOfQuarter(Q, u))
			}
			bad++
		}
	}
	if bad > 0 {
		t.Errorf("MUFU.SIN/COS: %d of 2^24 table checks differ", bad)
	}
}

// cosOfQuarter is cos(2 pi u 2^-25) read from the sin table the way the unit
// folds it: p = u + 2^23 lies in the second quadrant, mirrored by one's
// complement.
func cosOfQuarter(Q []uint32, u int) uint32 { return Q[1<<23-1-u] }

// TestMufuExpBuckets runs the whole model (through Op.Eval, with the SASS
// sequences around the unit) over whole buckets of every ex2/lg2/sin/cos
// form against the H200's checksums: a sample of the paths (negative
// arguments, the scaled subnormal paths, the quadrant folds, huge arguments);
// scripts/mufu/fullcheck.sh runs all 512 buckets.
func TestMufuExpBuckets(t *testing.T) {
	cases := []struct {
		name    string
		buckets []int
	}{
		{"ex2.approx.f32", []int{120, 256 + 126, 256 + 133}},
		{"ex2.approx.ftz.f32", []int{127, 256 + 121}},
		{"lg2.approx.f32", []int{0, 126}},
		{"lg2.approx.ftz.f32", []int{127, 140}},
		{"sin.approx.f32", []int{125, 256 + 129}},
		{"sin.approx.ftz.f32", []int{110, 256 + 127}},
		{"cos.approx.f32", []int{124, 256 + 130}},
		{"cos.approx.ftz.f32", []int{128, 256 + 119}},
		{"tanh.approx.f32", []int{122, 256 + 127}},
	}
	type job struct {
		name string
		b    int
		f    func(uint32) uint32
		want uint64
	}
	var jobs []job
	for _, c := range cases {
		st := loadMufuStats(t, c.name)
		f := unaryEval(t, c.name)
		for _, b := range c.buckets {
			jobs = append(jobs, job{c.name, b, f, st.hash[b]})
		}
	}
	got := make([]uint64, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan bool, runtime.NumCPU())
	for i, j := range jobs {
		wg.Add(1)
		sem <- true
		go func(i int, j job) {
			defer wg.Done()
			got[i] = bucketHash(j.b, j.f)
			<-sem
		}(i, j)
	}
	wg.Wait()
	for i, j := range jobs {
		if got[i] != j.want {
			t.Errorf("%s on %s: model checksum %016x, H200 %016x", j.name, bucketName(j.b), got[i], j.want)
		}
	}
}

// TestISAOracleExpExact requires every row of the ISA oracle's ex2, lg2,
// sin and cos variants bit-exact (TestISAOracle accepts rows within the
// manual's bound).
func TestISAOracleExpExact(t *testing.T) {
	want := map[string]bool{"sin.approx.f32": true, "sin.approx.ftz.f32": true, "cos.approx.ftz.f32": true,
		"lg2.approx.f32": true, "lg2.approx.ftz.f32": true, "ex2.approx.f32": true, "ex2.approx.f16": true, "ex2.approx.f16x2": true}
	seen := 0
	for _, v := range loadISA(t) {
		if !want[v.Name] || v.Status != "ok" {
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
		for k, p := range v.Inputs {
			if l.inputs[k], err = os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(p, "isa/"))); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
		}
		out, err := os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(v.Output, "isa/")))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		esz := len(out) / v.N
		for i := 0; i < v.N; i++ {
			l.regs, l.cc, l.stored = map[string]uint64{}, 0, false
			if err := l.run(i); err != nil {
				t.Errorf("%s row %d: %v", v.Name, i, err)
				continue
			}
			var w uint64
			for k := 0; k < esz; k++ {
				w |= uint64(out[i*esz+k]) << (8 * k)
			}
			if !l.stored || l.store != w {
				t.Errorf("%s row %d: inputs %s: model %#x, H200 %#x", v.Name, i, rowInputs(l, v, i), l.store, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d ISA variants", seen, len(want))
	}
}
