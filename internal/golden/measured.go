package golden

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Measured is the absolute path of testdata/measured joined with elem.
func Measured(elem ...string) string {
	return filepath.Join(append([]string{Dir(), "..", "measured"}, elem...)...)
}

// ReadCSV reads a CSV file whose first non-comment line is the header (lines
// starting with # and empty lines skipped) as one map of column -> value per row.
func ReadCSV(path string) ([]map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, k := range rows[0] {
			m[k] = r[i]
		}
		out = append(out, m)
	}
	return out, nil
}

// AtomicsLaunch is one line of testdata/measured/atomics/labels.txt: the
// launch that the same row of atomics_ncu.csv profiled.
type AtomicsLaunch struct {
	Kernel         string
	Grid, Block, K int
	Rep            int // which of the case's repeated launches
}

// AtomicsNCU reads the one-shot atomics launches of testdata/measured/atomics:
// labels.txt, and atomics_ncu.csv (ReadNCURaw) with the same launches in the same order.
func AtomicsNCU() ([]AtomicsLaunch, []map[string]string, error) {
	rows, err := ReadNCURaw(Measured("atomics", "atomics_ncu.csv"))
	if err != nil {
		return nil, nil, err
	}
	launches, err := atomicsLabels(Measured("atomics", "labels.txt"))
	if err != nil {
		return nil, nil, err
	}
	if len(launches) != len(rows) {
		return nil, nil, fmt.Errorf("labels.txt has %d launches, atomics_ncu.csv %d", len(launches), len(rows))
	}
	return launches, rows, nil
}

// atomicsLabels reads labels.txt, in launch order.
func atomicsLabels(path string) ([]AtomicsLaunch, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []AtomicsLaunch
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		l = strings.TrimSpace(l)
		var a AtomicsLaunch
		if _, err := fmt.Sscanf(l, "%s grid=%d block=%d k=%d rep=%d", &a.Kernel, &a.Grid, &a.Block, &a.K, &a.Rep); err != nil {
			return nil, fmt.Errorf("%s line %d %q: %w", path, i+1, l, err)
		}
		out = append(out, a)
	}
	return out, nil
}
