package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// RepeatFile is where the H200's run-to-run repeats of the float-atomic kernels are
// recorded (testdata/realcuda/atomics/README.md), relative to the repository root.
const RepeatFile = "testdata/realcuda/atomics/h200_repeat.tsv"

// Repeat is the H200's output word of each repeated run: kernel, then buffer, then runs.
type Repeat map[string]map[string][]uint32

// LoadRepeat reads h200_repeat.tsv (kernel, run, buffer, bits, value); a missing file is empty.
func LoadRepeat(path string) (Repeat, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return Repeat{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("repeat runs: %w", err)
	}
	defer f.Close()
	r := Repeat{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		fs := strings.Split(l, "\t")
		if len(fs) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 tab-separated fields, got %d", path, n, len(fs))
		}
		bits, err := strconv.ParseUint(strings.TrimPrefix(fs[3], "0x"), 16, 32)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: bits %q: %w", path, n, fs[3], err)
		}
		if r[fs[0]] == nil {
			r[fs[0]] = map[string][]uint32{}
		}
		r[fs[0]][fs[2]] = append(r[fs[0]][fs[2]], uint32(bits))
	}
	return r, sc.Err()
}

// Describe says how the H200's repeated runs of kernel id spread for buffer buf (a float
// word) and where KernelScope's word got lies: "" when there are no repeats of it.
func (r Repeat) Describe(id, buf string, got []byte) string {
	runs := r[id][buf]
	if len(runs) == 0 {
		return ""
	}
	distinct := map[uint32]bool{}
	vals := make([]float64, 0, len(runs))
	for _, b := range runs {
		distinct[b] = true
		vals = append(vals, float64(math.Float32frombits(b)))
	}
	sort.Float64s(vals)
	s := fmt.Sprintf("the H200 gave %d distinct values in %d runs (%.8g .. %.8g)", len(distinct), len(runs), vals[0], vals[len(vals)-1])
	if len(got) == 4 {
		g := binary.LittleEndian.Uint32(got)
		v := float64(math.Float32frombits(g))
		switch {
		case distinct[g]:
			s += fmt.Sprintf("; KernelScope's %.8g is one of them", v)
		case v >= vals[0] && v <= vals[len(vals)-1]:
			s += fmt.Sprintf("; KernelScope's %.8g is inside that range", v)
		default:
			s += fmt.Sprintf("; KernelScope's %.8g is outside that range", v)
		}
	}
	return s
}
