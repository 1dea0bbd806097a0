package arith

import (
	"bufio"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestTanhTable checks MUFU.TANH's recovered tables on every group of the
// binades of tanhBins against the H200's recorded outputs (one per group of
// 2^drop inputs, which the unit does not tell apart): the calibration data
// of tanhCoef (scripts/mufu/tabfit), so this proves the table reproduces it.
func TestTanhTable(t *testing.T) {
	b := gunzipMeasured(t, "tanh_groups.d32.gz")
	var o uint32
	pos, bad := 0, 0
	first := uint32(0)
	for i, bin := range tanhBins {
		if bin.first != first {
			t.Errorf("tanhBins[%d].first = %d, want %d (the segments of the binades before)", i, bin.first, first)
		}
		first += 1 << (23 - ex2SegBits - bin.drop)
		exp := uint32(tanhFirstExp + i)
		for g := uint32(0); g < 1<<(23-bin.drop); g++ {
			if 4*pos+4 > len(b) {
				t.Fatalf("tanh_groups: short at bucket %d", exp)
			}
			o += binary.LittleEndian.Uint32(b[4*pos:])
			pos++
			x := exp<<23 | g<<bin.drop
			if r, ok := mufuTanhTable(x); !ok || r != o {
				if bad < 3 {
					t.Errorf("tanh(%08x): model %08x, H200 %08x", x, r, o)
				}
				bad++
			}
		}
	}
	if int(first) != len(tanhCoef) {
		t.Errorf("tanhBins cover %d segments, tanhCoef has %d", first, len(tanhCoef))
	}
	if 4*pos != len(b) {
		t.Errorf("tanh_groups: %d bytes left over", len(b)-4*pos)
	}
	if bad > 0 {
		t.Errorf("MUFU.TANH: %d groups differ", bad)
	}
}

// TestTanhBuckets runs the whole tanh.approx.f32 model (Op.Eval) over whole
// buckets against the H200's checksums of the 2026-12-01 run and of the fifth
// run (tanhcheck.txt, 2026-12-02): the ranges recovered last ([2^-12, 2^-8),
// where the unit returns x, and [2, 4), Y in units of 2^-39), negative
// arguments, below 2^-12 and from 16 on. scripts/mufu/fullcheck.sh runs all
// 512 buckets.
func TestTanhBuckets(t *testing.T) {
	const name = "tanh.approx.f32"
	buckets := []int{116, 256 + 118, 128, 256 + 128, 112, 256 + 131}
	st := loadMufuStats(t, name)
	run5 := loadTanhCheck(t)
	f := unaryEval(t, name)
	got := make([]uint64, len(buckets))
	var wg sync.WaitGroup
	sem := make(chan bool, runtime.NumCPU())
	for i, b := range buckets {
		wg.Add(1)
		sem <- true
		go func(i, b int) {
			defer wg.Done()
			got[i] = bucketHash(b, f)
			<-sem
		}(i, b)
	}
	wg.Wait()
	for i, b := range buckets {
		if got[i] != st.hash[b] {
			t.Errorf("%s on %s: model checksum %016x, H200 %016x", name, bucketName(b), got[i], st.hash[b])
		}
		if got[i] != run5[b] {
			t.Errorf("%s on %s: model checksum %016x, H200's fifth run %016x", name, bucketName(b), got[i], run5[b])
		}
	}
}

// loadTanhCheck reads the per-bucket checksums of the fifth device run
// (testdata/measured/mufu/tanhcheck.txt: "bucket hash differing" lines).
func loadTanhCheck(t *testing.T) [512]uint64 {
	t.Helper()
	f, err := os.Open(filepath.Join(measuredMufu, "tanhcheck.txt"))
	if err != nil {
		t.Fatalf("tanhcheck: %v", err)
	}
	defer f.Close()
	var h [512]uint64
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		b, err := strconv.Atoi(fs[0])
		if len(fs) != 3 || err != nil || b < 0 || b >= 512 {
			t.Fatalf("tanhcheck: bad line %q", sc.Text())
		}
		if h[b], err = strconv.ParseUint(fs[1], 16, 64); err != nil {
			t.Fatalf("tanhcheck: bad line %q", sc.Text())
		}
		n++
	}
	if n != 512 {
		t.Fatalf("tanhcheck: %d buckets, want 512", n)
	}
	return h
}
