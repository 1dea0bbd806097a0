package arith

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
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
