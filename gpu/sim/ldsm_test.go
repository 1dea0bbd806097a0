package sim

import (
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// Shared-memory wavefronts and bank conflicts of ldmatrix against Nsight Compute on the
// H200 (testdata/measured/tensor3/ncu_ldsm.csv, scripts/tensor3/ldsm_probe.cu): x1, x2,
// x4, with and without .trans, on six layouts (row strides 128, 144, 64, 32 bytes,
// with and without the 128B and 64B swizzles). Validation: the bank model
// (gpu/mem/banks.go) was not changed for these.

// ncuLong reads an ncu --csv details page: per launch ID, metric name -> value.
func ncuLong(t *testing.T, path string) (ids []int, kernels map[int]string, vals map[int]map[string]float64) {
	t.Helper()
	var body []string
	for _, l := range strings.Split(string(readFileT(t, path)), "\n") {
		if strings.HasPrefix(l, `"`) {
			body = append(body, l)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(strings.Join(body, "\n"))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s: %v", path, err)
	}
	col := map[string]int{}
	for i, k := range rows[0] {
		col[k] = i
	}
	kernels, vals = map[int]string{}, map[int]map[string]float64{}
	for _, r := range rows[1:] {
		id, _ := strconv.Atoi(r[col["ID"]])
		if vals[id] == nil {
			ids = append(ids, id)
			vals[id] = map[string]float64{}
			kernels[id] = r[col["Kernel Name"]]
		}
		v, err := mem.ParseNCUNumber(r[col["Metric Value"]])
		if err == nil {
			vals[id][r[col["Metric Name"]]] = v
		}
	}
	return ids, kernels, vals
}

// TestLdmatrixBanksH200 simulates each ldsm_probe launch and compares the shared load
// wavefronts and bank conflicts of its ldmatrix instructions with ncu's.
func TestLdmatrixBanksH200(t *testing.T) {
	m := parsePTXFile(t, tmaDir+"ptx/ldsm_probe.nvcc.sm_90.ptx")
	ids, kernels, vals := ncuLong(t, tmaDir+"ncu_ldsm.csv")
	if len(ids) != 36 {
		t.Fatalf("%d launches in ncu_ldsm.csv, want 36", len(ids))
	}
	for i, id := range ids {
		layout, x, trans := i/6, []int{1, 1, 2, 2, 4, 4}[i%6], i%2
		if kernels[id] != "ldsm_k" {
			t.Fatalf("launch %d is %q, want ldsm_k", id, kernels[id])
		}
		var wf, ideal int64
		cfg := Config{Block: [3]int{32, 1, 1}, OnMemory: func(a *mem.Access) {
			if a.Space == mem.Shared && a.Kind == mem.Load {
				w, id := mem.SharedWavefronts(a)
				wf += int64(w)
				ideal += int64(id)
			}
		}}
		args := []Arg{{Buffer: make([]byte, 128)}, {Scalar: uint64(x)}, {Scalar: uint64(trans)}, {Scalar: uint64(layout)}}
		if _, err := Launch(context.Background(), m, "ldsm_k", args, cfg); err != nil {
			t.Fatalf("ldsm_k(%d, %d, %d): %v", x, trans, layout, err)
		}
		nwf := int64(vals[id]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"])
		nconf := int64(vals[id]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"])
		t.Logf("x%d trans=%d layout %d: ncu %d wavefronts %d conflicts; model %d, %d", x, trans, layout, nwf, nconf, wf, wf-ideal)
		if wf != nwf || wf-ideal != nconf {
			t.Errorf("ldmatrix x%d trans=%d layout %d: model %d wavefronts, %d conflicts; ncu %d, %d", x, trans, layout, wf, wf-ideal, nwf, nconf)
		}
	}
}
