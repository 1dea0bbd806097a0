package sim

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"
)

// fp8 wgmma against the H200 on data not used to fit the model: the probe of
// scripts/tensor3/fp8gen (testdata/measured/tensor3, recorded with
// scripts/tensor3/device_run.sh). The fp8 model (gpu/arith/wgmma.go) was fitted on
// testdata/measured/tensor2's L_e4m3_n16 and L_e5m2_n16 only; each form here has 32
// cases, 0-15 kept as calibration for later fits and 16-31 for validation.

// fp8Forms lists the probe's forms and their D registers per thread.
var fp8Forms = []struct {
	name string
	nd   int
}{{"V_e4m3_nice", 8}, {"V_e5m2_nice", 8}, {"V_e4m3_wide", 8}, {"V_e5m2_wide", 8}, {"V_e4m3_e5m2", 8}, {"V_e5m2_e4m3", 8},
	{"V_e4m3_f16", 4}, {"V_e5m2_f16", 4}, {"V_e4m3_spec", 8}, {"V_e5m2_spec", 8}}

// runFP8Form simulates one form and returns its output and the count of differing
// 32-bit words in the calibration and the validation halves.
func runFP8Form(t *testing.T, src string, name string, nd int) (calib, valid, words int, err error) {
	t.Helper()
	m := parsePTXFile(t, tmaDir+src)
	in := readFileT(t, tmaDir+"cases/"+name+".in")
	n := int(binary.LittleEndian.Uint32(in))
	buf := bytes.Repeat([]byte{0xff}, n*128*nd*4)
	res, err := Launch(context.Background(), m, kernelNamed(t, m, "k_"+name), []Arg{{Buffer: in}, {Buffer: buf}},
		Config{Grid: [3]int{n, 1, 1}, Block: [3]int{128, 1, 1}})
	if err != nil {
		return 0, 0, 0, err
	}
	want := readFileT(t, tmaDir+"out/"+name+".out")
	got := res.Buffers[1]
	per := 128 * nd * 4
	for c := 0; c < n; c++ {
		for i := c * per; i < (c+1)*per; i += 4 {
			if !bytes.Equal(got[i:i+4], want[i:i+4]) {
				if c < n/2 {
					calib++
				} else {
					valid++
				}
			}
		}
	}
	return calib, valid, n * 128 * nd, nil
}

// TestWgmmaFP8ValidationH200: the fitted fp8 model against the held-out fp8 cases.
func TestWgmmaFP8ValidationH200(t *testing.T) {
	for _, src := range []string{"ptx/fp8_probe.nvcc.sm_90a.ptx"} {
		for _, f := range fp8Forms {
			calib, valid, words, err := runFP8Form(t, src, f.name, f.nd)
			if err != nil {
				t.Errorf("%s: %v", f.name, err)
				continue
			}
			t.Logf("%s: %d of %d words differ in cases 0-15, %d of %d in cases 16-31", f.name, calib, words/2, valid, words/2)
			if calib+valid != 0 {
				t.Errorf("%s: %d + %d words differ", f.name, calib, valid)
			}
		}
	}
}
