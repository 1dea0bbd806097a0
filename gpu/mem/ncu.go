package mem

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ncuMetric maps each Totals field to its Nsight Compute metric.
var ncuMetric = [...]struct {
	metric string
	field  func(*Totals) *int
}{
	{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", func(t *Totals) *int { return &t.GlobalLoadRequests }},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", func(t *Totals) *int { return &t.GlobalLoadSectors }},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", func(t *Totals) *int { return &t.GlobalStoreRequests }},
	{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", func(t *Totals) *int { return &t.GlobalStoreSectors }},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", func(t *Totals) *int { return &t.GlobalAtomRequests }},
	{"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", func(t *Totals) *int { return &t.GlobalRedRequests }},
	{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", func(t *Totals) *int { return &t.SharedLoadWavefronts }},
	{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", func(t *Totals) *int { return &t.SharedStoreWavefronts }},
	{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", func(t *Totals) *int { return &t.SharedLoadBankConflicts }},
	{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", func(t *Totals) *int { return &t.SharedStoreBankConflicts }},
	{"smsp__sass_inst_executed_op_shared_ld.sum", func(t *Totals) *int { return &t.SharedLoadInstructions }},
	{"smsp__sass_inst_executed_op_shared_st.sum", func(t *Totals) *int { return &t.SharedStoreInstructions }},
}

// NCUMemoryMetrics lists the Nsight Compute metrics that LoadNCU maps to Totals.
func NCUMemoryMetrics() []string {
	out := make([]string, len(ncuMetric))
	for i, m := range ncuMetric {
		out[i] = m.metric
	}
	return out
}

// ParseNCUNumber parses a number as Nsight Compute prints it ("3,968", "250.000000").
func ParseNCUNumber(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
	if err != nil {
		return 0, fmt.Errorf("ncu number %q: %w", s, err)
	}
	return v, nil
}

// LoadNCU reads an ncu_sm90.json-style file (case name -> metric -> string) and
// returns, per case, the memory Totals Nsight Compute measured (hit rates left 0:
// ncu's hit-rate metrics count differently and are not comparable).
func LoadNCU(path string) (map[string]Totals, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load ncu counters: %w", err)
	}
	var doc map[string]map[string]string
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("load ncu counters %s: %w", path, err)
	}
	out := make(map[string]Totals, len(doc))
	for name, metrics := range doc {
		var t Totals
		for _, m := range ncuMetric {
			s, ok := metrics[m.metric]
			if !ok {
				return nil, fmt.Errorf("load ncu counters %s: case %s lacks %s", path, name, m.metric)
			}
			v, err := ParseNCUNumber(s)
			if err != nil {
				return nil, fmt.Errorf("load ncu counters %s: case %s: %w", path, name, err)
			}
			*m.field(&t) = int(v)
		}
		out[name] = t
	}
	return out, nil
}
