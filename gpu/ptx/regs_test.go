package ptx

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/sass"
)

// TestEstimateRegistersGolden measures EstimateRegisters against the REG
// column of cuobjdump -res-usage for every golden kernel and architecture,
// logs the error distribution per architecture, and fails when one estimate
// is far off (by more than max(6, REG/2)) or the mean error of an
// architecture grows beyond 4 registers: the estimate ignores ptxas's
// scheduling, so it is a bound on regressions, not a claim of exactness.
func TestEstimateRegistersGolden(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/res/*.txt")
	if err != nil || len(files) < 60 {
		t.Fatalf("res files: %d %v", len(files), err)
	}
	type stat struct {
		n, sumAbs, maxAbs, sumSigned int
	}
	stats := map[string]*stat{}
	var rows []string
	for _, path := range files {
		base := strings.TrimSuffix(filepath.Base(path), ".txt") // NAME.sm_XX
		arch := base[strings.LastIndexByte(base, '.')+1:]
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sass.ParseResUsage(string(data))
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(filepath.Join("../../testdata/golden/ptx", base+".ptx"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(base, src)
		if err != nil {
			t.Fatal(err)
		}
		for name, r := range res {
			f := m.Func(name)
			if f == nil {
				t.Errorf("%s: no PTX function %s", base, name)
				continue
			}
			est := EstimateRegisters(f)
			d := est - r.Registers
			s := stats[arch]
			if s == nil {
				s = &stat{}
				stats[arch] = s
			}
			s.n++
			s.sumAbs += abs(d)
			s.sumSigned += d
			s.maxAbs = max(s.maxAbs, abs(d))
			rows = append(rows, fmt.Sprintf("%-8s %-20s REG %3d estimate %3d error %+d", arch, name, r.Registers, est, d))
			if float64(abs(d)) > math.Max(6, float64(r.Registers)/2) {
				t.Errorf("%s %s: estimate %d, ptxas %d", arch, name, est, r.Registers)
			}
		}
	}
	sort.Strings(rows)
	for _, r := range rows {
		t.Log(r)
	}
	archs := make([]string, 0, len(stats))
	for a := range stats {
		archs = append(archs, a)
	}
	sort.Strings(archs)
	for _, a := range archs {
		s := stats[a]
		mean := float64(s.sumAbs) / float64(s.n)
		t.Logf("%s: %d kernels, mean |error| %.2f, max |error| %d, mean signed error %+.2f", a, s.n, mean, s.maxAbs, float64(s.sumSigned)/float64(s.n))
		if mean > 4 {
			t.Errorf("%s: mean |error| %.2f registers", a, mean)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
