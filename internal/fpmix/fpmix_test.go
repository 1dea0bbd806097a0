package fpmix

import (
	"os"
	"regexp"
	"testing"
)

// TestPtxasModelOnPatterns: the ptxas fusion model applied to nvcc's recorded PTX of
// testdata/contract/patterns.cu gives the counts of the recorded SASS for every pattern
// but the loops (ptxas unrolls them further) and p42/p25 (NVVM-level fusions that are in
// nvcc's PTX already, so the model sees fma there too and must agree).
func TestPtxasModelOnPatterns(t *testing.T) {
	ptx, err := os.ReadFile("../../testdata/contract/nvcc_sm90.ptx")
	if err != nil {
		t.Fatal(err)
	}
	sass, err := os.ReadFile("../../testdata/contract/nvcc_sm90.sass")
	if err != nil {
		t.Fatal(err)
	}
	model, truth := PTXAfterPtxas(string(ptx)), SASS(string(sass))
	raw := PTX(string(ptx))
	if len(truth) != 44 || len(model) != 44 {
		t.Fatalf("%d kernels in the SASS, %d in the PTX, want 44", len(truth), len(model))
	}
	loops := regexp.MustCompile(`p13_|p27_|p43_`)
	same, rawSame := 0, 0
	for name, want := range truth {
		got, ok := model[name]
		if !ok {
			t.Errorf("%s: not in the PTX", name)
			continue
		}
		if Equal(raw[name], want) {
			rawSame++
		}
		if Equal(got, want) {
			same++
		} else if !loops.MatchString(name) {
			t.Errorf("%s: model %s, SASS %s (PTX as written %s)", name, got, want, raw[name])
		}
	}
	t.Logf("model = SASS in %d of %d patterns (the PTX as written: %d)", same, len(truth), rawSame)
	if rawSame >= same {
		t.Errorf("the model (%d) is no better than the PTX as written (%d)", same, rawSame)
	}
}

func TestCountsString(t *testing.T) {
	c := Counts{"mul.f32": 1, "fma.f32": 2, "add.f64": 0}
	if s := c.String(); s != "fma.f32×2 mul.f32×1" {
		t.Errorf("String() = %q", s)
	}
	if !Equal(c, Counts{"fma.f32": 2, "mul.f32": 1}) || Equal(c, Counts{"fma.f32": 2}) {
		t.Error("Equal")
	}
	if (Counts{}).String() != "-" {
		t.Error("empty")
	}
}
