// Command fit compares candidate tensor-core arithmetic models (arith.FloatModel)
// with the H200's outputs in testdata/measured/tensor: for each mma form it prints,
// per model, the elements that differ on the calibration cases (the first half of
// each case file, targeted inputs) and on the validation cases (random inputs).
// The model is chosen on calibration only. Usage: go run ./scripts/tensor/fit [DIR] [FORM]
package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arith"
)

var forms = map[string]string{
	"f16_f32_k16":  "m16n8k16.row.col.f32.f16.f16.f32",
	"bf16_f32_k16": "m16n8k16.row.col.f32.bf16.bf16.f32",
	"f16_f16_k16":  "m16n8k16.row.col.f16.f16.f16.f16",
	"f16_f32_k8":   "m16n8k8.row.col.f32.f16.f16.f32",
	"bf16_f32_k8":  "m16n8k8.row.col.f32.bf16.bf16.f32",
	"f16_f16_k8":   "m16n8k8.row.col.f16.f16.f16.f16",
	"tf32_k8":      "m16n8k8.row.col.f32.tf32.tf32.f32",
	"tf32_k4":      "m16n8k4.row.col.f32.tf32.tf32.f32",
	"f64_k4":       "m8n8k4.row.col.f64.f64.f64.f64",
}

func main() {
	dir := "testdata/measured/tensor"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	only := ""
	if len(os.Args) > 2 {
		only = os.Args[2]
	}
	for _, name := range []string{"f16_f32_k16", "bf16_f32_k16", "f16_f16_k16", "f16_f32_k8", "bf16_f32_k8", "f16_f16_k8", "tf32_k8", "tf32_k4", "f64_k4"} {
		if only != "" && name != only {
			continue
		}
		m, err := arith.ParseMMA(strings.Split(forms[name], "."))
		if err != nil {
			panic(err)
		}
		cs, err := arith.LoadMMACases(filepath.Join(dir, "cases", name+".in"), filepath.Join(dir, "out", name+".out"), m)
		if err != nil {
			panic(err)
		}
		fmt.Printf("== %s (%d cases, %d calibration)\n", name, len(cs.Cases), cs.NCal)
		if os.Getenv("FIT_EXPLAIN") != "" {
			md := arith.DefaultModel(m.A, m.K)
			if os.Getenv("FIT_ZP") != "" {
				md.ZeroPlus = true
			}
			if os.Getenv("FIT_F16") != "" {
				md.F16StepF16 = true
			}
			if os.Getenv("FIT_SUBRN") != "" {
				md.SubRN = true
			}
			if os.Getenv("FIT_SUBEXP") == "0" {
				md.SubExpMin = false
			}
			fmt.Printf("  default model %+v\n", md)
			explain(m, cs, md)
			continue
		}
		best := -1
		for _, md := range candidates(m) {
			m.Model = md
			cal, val := 0, 0
			for i, c := range cs.Cases {
				n := c.Mismatches(m)
				if i < cs.NCal {
					cal += n
				} else {
					val += n
				}
			}
			if best < 0 || cal <= best {
				best = cal
				fmt.Printf("  %+v: calibration %d differ, validation %d differ\n", md, cal, val)
			}
		}
	}
	_ = binary.LittleEndian
}

func candidates(m *arith.MMA) []arith.FloatModel {
	var out []arith.FloatModel
	if m.A == arith.ElemF64 {
		return []arith.FloatModel{{F64Chain: true}, {F64Chain: false}}
	}
	for _, g := range []int{4, 8, 16} {
		if g > m.K {
			continue
		}
		for f := 23; f <= 30; f++ {
			for _, ie := range []bool{false, true} {
				for _, rz := range []bool{true, false} {
					for _, nc := range []bool{false, true} {
						for _, se := range []bool{false, true} {
							if se && !ie {
								continue
							}
							md := arith.FloatModel{G: g, F: f, InputExp: ie, StepRZ: rz, NoCInAlign: nc, SubExpMin: se}
							if m.A == arith.ElemTF32 {
								for _, rn := range []bool{false, true} {
									md.TF32RN = rn
									out = append(out, md)
								}
								continue
							}
							if m.D == arith.ElemF16 {
								for _, s16 := range []bool{false, true} {
									md.F16StepF16 = s16
									out = append(out, md)
								}
								continue
							}
							out = append(out, md)
						}
					}
				}
			}
		}
	}
	return out
}

// explain prints the differing elements of model md (FIT_EXPLAIN=1).
func explain(m *arith.MMA, cs *arith.MMACases, md arith.FloatModel) {
	m.Model = md
	shown := 0
	for ci, c := range cs.Cases {
		d := make([]uint64, len(c.D))
		m.Compute(c.A, c.B, c.C, d)
		for i := range d {
			if d[i] == c.D[i] || shown > 12 {
				continue
			}
			shown++
			row, col := i/m.N, i%m.N
			fmt.Printf("  case %d (kind %d) D[%d][%d]: model %#x device %#x; c=%#x a=", ci, ci%8, row, col, d[i], c.D[i], c.C[i])
			for k := 0; k < m.K; k++ {
				fmt.Printf("%#x ", c.A[row*m.K+k])
			}
			fmt.Printf(" b=")
			for k := 0; k < m.K; k++ {
				fmt.Printf("%#x ", c.B[k*m.N+col])
			}
			fmt.Println()
		}
	}
}
