package golden

import (
	"archive/tar"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"
)

// NCURow is one launch of an Nsight Compute CSV export: the kernel's name
// (without its parameter list), grid and block as ncu prints them ("(132, 1, 1)")
// and the value of one metric.
type NCURow struct {
	Kernel, Grid, Block, Value string
}

// NCUTar reads every member of the gzipped tar at path whose name starts with
// prefix as an `ncu --csv` export and returns metric's value per launch, in order.
func NCUTar(path, prefix, metric string) ([]NCURow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []NCURow
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if !strings.HasPrefix(h.Name, prefix) {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, h.Name, err)
		}
		var lines []string
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "\"") {
				lines = append(lines, l)
			}
		}
		rows, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, h.Name, err)
		}
		if len(rows) < 2 {
			continue
		}
		col := map[string]int{}
		for i, c := range rows[0] {
			col[c] = i
		}
		for _, name := range []string{"Kernel Name", "Grid Size", "Block Size", metric} {
			if _, ok := col[name]; !ok {
				return nil, fmt.Errorf("%s: %s: no column %q", path, h.Name, name)
			}
		}
		for _, r := range rows[2:] { // rows[1] holds the units
			k := r[col["Kernel Name"]]
			out = append(out, NCURow{k[:strings.IndexByte(k+"(", '(')], r[col["Grid Size"]], r[col["Block Size"]], r[col[metric]]})
		}
	}
}

// ReadNCURaw reads an `ncu --csv --page raw` log: one map of metric -> value per
// profiled launch, in launch order. Lines before the header are ncu's notes; the
// row after the header holds the units.
func ReadNCURaw(path string) ([]map[string]string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var body []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, `"`) {
			body = append(body, l)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(strings.Join(body, "\n"))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) < 3 {
		return nil, fmt.Errorf("%s: no launches", path)
	}
	out := make([]map[string]string, 0, len(rows)-2)
	for _, r := range rows[2:] {
		m := make(map[string]string, len(rows[0]))
		for i, k := range rows[0] {
			if i < len(r) {
				m[k] = r[i]
			}
		}
		out = append(out, m)
	}
	return out, nil
}
