package main

import (
	"encoding/binary"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Diff is the comparison of one buffer with the H200's.
type Diff struct {
	Equal     bool
	SizeWant  int
	SizeGot   int
	Differing int    // elements that differ
	Index     int    // first differing element
	Want, Got string // its values
	ULP       uint64 // its distance in units in the last place (floats) or absolute difference (integers)
	MaxULP    uint64 // the largest distance over all elements
}

// String is a one-line description.
func (d Diff) String() string {
	switch {
	case d.Equal:
		return "exact"
	case d.SizeWant != d.SizeGot:
		return fmt.Sprintf("size %d bytes, H200 %d", d.SizeGot, d.SizeWant)
	}
	return fmt.Sprintf("%d elements differ; first [%d] = %s, H200 %s (%d ulp; max %d)", d.Differing, d.Index, d.Got, d.Want, d.ULP, d.MaxULP)
}

// CompareBytes compares got with want element by element, elements of type t.
func CompareBytes(t string, want, got []byte) Diff {
	d := Diff{SizeWant: len(want), SizeGot: len(got), Index: -1}
	if len(want) != len(got) {
		return d
	}
	if t == "f32x4" {
		t = "f32"
	}
	es := ElemSize(t)
	if es == 0 {
		es = 1
	}
	for i := 0; i+es <= len(want); i += es {
		w, g := want[i:i+es], got[i:i+es]
		if string(w) == string(g) {
			continue
		}
		u := distance(t, w, g)
		if d.Differing == 0 {
			d.Index, d.Want, d.Got, d.ULP = i/es, formatElem(t, w), formatElem(t, g), u
		}
		d.Differing++
		if u > d.MaxULP {
			d.MaxULP = u
		}
	}
	d.Equal = d.Differing == 0
	return d
}

// orderedBits maps a float's bits onto integers that are ordered as the floats are.
func orderedBits(bits uint64, width uint) int64 {
	sign := uint64(1) << (width - 1)
	if bits&sign != 0 {
		return -int64(bits &^ sign)
	}
	return int64(bits)
}

func distance(t string, w, g []byte) uint64 {
	var a, b int64
	switch t {
	case "f32":
		a, b = orderedBits(uint64(binary.LittleEndian.Uint32(w)), 32), orderedBits(uint64(binary.LittleEndian.Uint32(g)), 32)
	case "f64":
		a, b = orderedBits(binary.LittleEndian.Uint64(w), 64), orderedBits(binary.LittleEndian.Uint64(g), 64)
	case "f16":
		a, b = orderedBits(uint64(binary.LittleEndian.Uint16(w)), 16), orderedBits(uint64(binary.LittleEndian.Uint16(g)), 16)
	case "i32":
		a, b = int64(int32(binary.LittleEndian.Uint32(w))), int64(int32(binary.LittleEndian.Uint32(g)))
	case "u32":
		a, b = int64(binary.LittleEndian.Uint32(w)), int64(binary.LittleEndian.Uint32(g))
	case "i64", "u64":
		a, b = int64(binary.LittleEndian.Uint64(w)), int64(binary.LittleEndian.Uint64(g))
	default:
		a, b = int64(w[0]), int64(g[0])
	}
	if a > b {
		return uint64(a - b)
	}
	return uint64(b - a)
}

func formatElem(t string, b []byte) string {
	switch t {
	case "f32":
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 'g', -1, 32)
	case "f64":
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', -1, 64)
	case "f16":
		return fmt.Sprintf("0x%04x", binary.LittleEndian.Uint16(b))
	case "i32":
		return strconv.Itoa(int(int32(binary.LittleEndian.Uint32(b))))
	case "u32":
		return strconv.FormatUint(uint64(binary.LittleEndian.Uint32(b)), 10)
	case "i64":
		return strconv.FormatInt(int64(binary.LittleEndian.Uint64(b)), 10)
	case "u64":
		return strconv.FormatUint(binary.LittleEndian.Uint64(b), 10)
	}
	return fmt.Sprintf("%x", b)
}

// NCURows reads `ncu --csv --page raw` output: one map per profiled kernel, keyed by column.
// Lines ncu writes about connecting to processes and the units row are skipped.
func NCURows(r io.Reader) ([]map[string]string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "\"") {
			keep = append(keep, l)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(keep, "\n"))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("ncu csv: %w", err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("ncu csv: no header")
	}
	head := recs[0]
	var rows []map[string]string
	for _, rec := range recs[1:] {
		if len(rec) != len(head) || rec[0] == "" {
			continue // units row
		}
		m := map[string]string{}
		for i, h := range head {
			m[h] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows, nil
}

// NCUNumber parses a number as Nsight Compute prints it ("3,968", "12.5").
func NCUNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
	if err != nil {
		return 0, fmt.Errorf("ncu number %q: %w", s, err)
	}
	return v, nil
}

// Counter pairs a KernelScope JSON memory field with its Nsight Compute metric.
type Counter struct{ JSON, NCU string }

// Counters are the 8 memory counters compared (docs/design.md names them after ncu's metrics).
var Counters = []Counter{
	{"global_load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
	{"global_load_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
	{"global_store_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"},
	{"global_store_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"},
	{"shared_load_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
	{"shared_store_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
	{"shared_load_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"},
	{"shared_store_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
}

// CounterMatch counts the counters that equal the H200's and names the others.
func CounterMatch(model map[string]float64, ncu map[string]string) (equal int, diffs []string) {
	for _, c := range Counters {
		want, err := NCUNumber(ncu[c.NCU])
		if err != nil {
			diffs = append(diffs, c.JSON+" (no ncu value)")
			continue
		}
		got, ok := model[c.JSON]
		if ok && got == want {
			equal++
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s %g vs %g", c.JSON, got, want))
	}
	return equal, diffs
}

// RelErr is (model-measured)/measured.
func RelErr(model, measured float64) float64 {
	if measured == 0 {
		return math.NaN()
	}
	return (model - measured) / measured
}
