package sim

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// ptxas's contraction of unrounded mul/add pairs (gpu/arith/contract.go) against
// the H200: testdata/ptxas_contract, hand-written PTX probes compiled by CUDA
// 13.0's ptxas and run there (README there). Each set's kernels run in the
// simulator on the recorded inputs and must give the H200's bytes exactly.
// Set h200 is the one the rule was read from (calibration); set h200_v2 (new
// inputs, extra cases) was recorded after the rule was written (validation).

const contractDir = "../../testdata/ptxas_contract/"

// contractSet is one recorded run: its kernels' PTX, inputs and outputs.
type contractSet struct {
	src, out string // folders of the PTX/inputs and of the H200's outputs
}

var contractSets = []contractSet{{src: "", out: "h200/"}, {src: "v2/", out: "v2/h200/"}}

func elemSize(t string) int {
	switch t {
	case "f64":
		return 8
	case "f32", "f16x2", "bf16x2":
		return 4
	}
	return 2
}

func TestPtxasContractionH200(t *testing.T) {
	for _, set := range contractSets {
		dir := contractDir + set.src
		if _, err := os.Stat(dir + "cases.txt"); err != nil && set.src != "" {
			t.Logf("%s: not recorded", dir)
			continue
		}
		rows := strings.Split(strings.TrimSpace(string(readFileT(t, dir+"cases.txt"))), "\n")
		byType := map[string][]string{}
		var order []string
		for _, r := range rows {
			f := strings.Fields(r)
			if len(f) != 3 {
				t.Fatalf("%scases.txt: bad row %q", dir, r)
			}
			if byType[f[1]] == nil {
				order = append(order, f[1])
			}
			byType[f[1]] = append(byType[f[1]], f[0])
		}
		for _, ty := range order {
			m := parsePTXFile(t, dir+"contract_"+ty+".ptx")
			in := readFileT(t, dir+"in_"+ty+".bin")
			want := readFileT(t, contractDir+set.out+"contract_"+ty+".out")
			es := elemSize(ty)
			n := len(in) / (3 * es)
			per := 2 * n * es
			if len(want) != per*len(byType[ty]) {
				t.Fatalf("%s: %d bytes recorded, want %d", ty, len(want), per*len(byType[ty]))
			}
			for k, name := range byType[ty] {
				res, err := Launch(context.Background(), m, name, []Arg{{Buffer: make([]byte, per)}, {Buffer: in}},
					Config{Grid: [3]int{n / 128}, Block: [3]int{128}})
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				w := want[k*per : (k+1)*per]
				if got := res.Buffers[0]; !bytes.Equal(got, w) {
					bad, first := 0, -1
					for i := 0; i+es <= len(got); i += es {
						if !bytes.Equal(got[i:i+es], w[i:i+es]) {
							bad++
							if first < 0 {
								first = i / es
							}
						}
					}
					t.Errorf("%s%s: %d of %d results differ from the H200 (first %d: %x, H200 %x)", set.out, name, bad, 2*n,
						first, got[first*es:first*es+es], w[first*es:first*es+es])
				}
			}
		}
	}
}

var sassFunc = regexp.MustCompile(`Function : (\S+)`)

// TestPtxasContractionSASS checks the rule's decisions against the recorded
// SASS where the instruction names are unambiguous (the scalar types: one FFMA,
// DFMA or HFMA2 per fused add/sub; the x2 types' plain muls are HFMA2.MMA too).
func TestPtxasContractionSASS(t *testing.T) {
	for _, set := range contractSets {
		dir := contractDir + set.src
		if _, err := os.Stat(dir + "cases.txt"); err != nil && set.src != "" {
			continue
		}
		for _, ty := range []string{"f32", "f64", "f16", "bf16"} {
			sass := gunzipFile(t, contractDir+set.out+"contract_"+ty+".sass.gz")
			fmas := map[string]int{}
			cur := ""
			for _, l := range strings.Split(sass, "\n") {
				if m := sassFunc.FindStringSubmatch(l); m != nil {
					cur = m[1]
					fmas[cur] = 0
					continue
				}
				for _, op := range []string{" FFMA", " DFMA", " HFMA2"} {
					if strings.Contains(l, op) {
						fmas[cur]++
					}
				}
			}
			m := parsePTXFile(t, dir+"contract_"+ty+".ptx")
			for _, f := range m.Funcs {
				g, err := ptx.BuildCFG(f)
				if err != nil {
					t.Fatal(err)
				}
				got := len(arith.Contractions(f, g.BlockOf))
				want, ok := fmas[f.Name]
				if !ok {
					t.Errorf("%s: no SASS recorded", f.Name)
					continue
				}
				if got != want {
					t.Errorf("%s%s: the rule fuses %d add/sub, ptxas made %d fma", set.out, f.Name, got, want)
				}
			}
		}
	}
}

func gunzipFile(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(b)
}
