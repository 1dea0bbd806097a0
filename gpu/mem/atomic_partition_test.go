package mem

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/csv"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// traceTar holds the CAS traces and per-SM atomic round trips measured on the
// H200 by scripts/contention/trace.sh (testdata/contention/README.md).
var traceTar = filepath.Join(golden, "..", "contention", "trace.tar.gz")

// tarFiles reads the named members of the gzipped tar at path.
func tarFiles(t *testing.T, path string, names ...string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string][]byte{}
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if want[h.Name] {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			out[h.Name] = b
		}
	}
	for _, n := range names {
		if out[n] == nil {
			t.Fatalf("%s: no %s", path, n)
		}
	}
	return out
}

// tarCSV reads member name of the gzipped tar at path as CSV rows (header dropped).
func tarCSV(t *testing.T, path, name string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(tarFiles(t, path, name)[name])).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return rows[1:]
}

// TestAtomicPartitionsFromTrace checks that DefaultAtomicCosts.Home and
// FarLatency are what lat.csv measured (calibration data): the SMs whose lone
// dependent atomicAdd round trip is below the midpoint of the fastest and
// slowest are Home, and FarLatency is the difference of the two groups' medians.
func TestAtomicPartitionsFromTrace(t *testing.T) {
	rows := tarCSV(t, traceTar, "lat.csv")
	type smLat struct {
		sm  int
		lat float64
	}
	var ls []smLat
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		sm, err1 := strconv.Atoi(r[1])
		l, err2 := strconv.ParseFloat(r[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("lat.csv row %v", r)
		}
		ls = append(ls, smLat{sm, l})
		lo, hi = min(lo, l), max(hi, l)
	}
	if len(ls) != 132 {
		t.Fatalf("lat.csv: %d SMs, want 132", len(ls))
	}
	var home [4]uint64
	var near, far []float64
	for _, x := range ls {
		if x.lat < (lo+hi)/2 {
			home[x.sm/64] |= 1 << (x.sm % 64)
			near = append(near, x.lat)
		} else {
			far = append(far, x.lat)
		}
	}
	median := func(v []float64) float64 {
		sort.Float64s(v)
		if len(v)%2 == 1 {
			return v[len(v)/2]
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	t.Logf("near %d SMs (median %.1f cycles), far %d (median %.1f)", len(near), median(near), len(far), median(far))
	if home != DefaultAtomicCosts.Home {
		t.Errorf("Home %#x, lat.csv gives %#x", DefaultAtomicCosts.Home, home)
	}
	if d := median(far) - median(near); math.Abs(d-DefaultAtomicCosts.FarLatency) > 1 {
		t.Errorf("FarLatency %.0f, lat.csv gives %.1f", DefaultAtomicCosts.FarLatency, d)
	}
}

// casTrace reads cas_GxB.bin of the trace: the successes, their runs by
// partition (consecutive successes from SMs on one side of Home) and the sum of
// every thread's CAS attempts.
func casTrace(t *testing.T, name string) (n, runs int, attempts int64) {
	b := tarFiles(t, traceTar, name)[name]
	const rec = 24 // struct Rec of trace.cu: sm, block, thread, attempts uint32; globaltimer uint64
	prev := -1
	for i := 0; i+rec <= len(b); i += rec {
		sm := int(binary.LittleEndian.Uint32(b[i:]))
		attempts += int64(binary.LittleEndian.Uint32(b[i+12:]))
		side := 0
		if sm < 256 && DefaultAtomicCosts.Home[sm/64]&(1<<(sm%64)) != 0 {
			side = 1
		}
		if side != prev {
			runs++
			prev = side
		}
		n++
	}
	return n, runs, attempts
}

// TestCASAttemptsByPartition replays the CAS loop of the trace's 132 x 64
// launch (validation: the trace's attempt count was not used to set a cost):
// the H200's threads made 44% of the attempts of one success per round of all
// queued lanes; serving the server's own partition first gives 50%, arrival
// order alone 99%. Both are printed with the successes' runs by partition
// (H200 12: the successes come in long stretches from one partition).
func TestCASAttemptsByPartition(t *testing.T) {
	n, runs, attempts := casTrace(t, "cas_132x64.bin")
	round := float64(n) * float64(n+1) / 2
	t.Logf("H200 132x64: %d successes in %d runs by partition, %d attempts (%.1f%% of one success per round)", n, runs, attempts, 100*float64(attempts)/round)
	if n != 8448 {
		t.Fatalf("trace: %d successes", n)
	}
	one := DefaultAtomicCosts
	one.Home, one.FarLatency = [4]uint64{}, 0
	for _, c := range []struct {
		name  string
		costs AtomicCosts
		near  bool // within 25% of the H200's attempts
	}{{"partitioned", DefaultAtomicCosts, true}, {"one partition", one, false}} {
		var sides []bool
		_, got := casLoopSides(NewAtomicUnits(132, c.costs), 132, 64, 132, &sides)
		r := 1
		for i := 1; i < len(sides); i++ {
			if sides[i] != sides[i-1] {
				r++
			}
		}
		e := float64(got-attempts) / float64(attempts)
		t.Logf("model (%s): %d attempts (%.1f%% of one per round, %+.1f%% vs H200), %d runs by partition", c.name, got, 100*float64(got)/round, 100*e, r)
		if c.near != (math.Abs(e) <= 0.25) {
			t.Errorf("model (%s): attempts %+.1f%% from the H200's; want within 25%%: %v", c.name, 100*e, c.near)
		}
	}
}
