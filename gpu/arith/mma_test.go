package arith

import (
	"strings"
	"testing"
)

const measuredTensor = "../../testdata/measured/tensor/"

// mmaForms are the mma forms recorded on the H200 (scripts/tensor/gen/variants.go).
var mmaForms = []struct{ name, mods string }{
	{"f16_f32_k16", "m16n8k16.row.col.f32.f16.f16.f32"},
	{"bf16_f32_k16", "m16n8k16.row.col.f32.bf16.bf16.f32"},
	{"f16_f16_k16", "m16n8k16.row.col.f16.f16.f16.f16"},
	{"f16_f32_k8", "m16n8k8.row.col.f32.f16.f16.f32"},
	{"bf16_f32_k8", "m16n8k8.row.col.f32.bf16.bf16.f32"},
	{"f16_f16_k8", "m16n8k8.row.col.f16.f16.f16.f16"},
	{"tf32_k8", "m16n8k8.row.col.f32.tf32.tf32.f32"},
	{"tf32_k4", "m16n8k4.row.col.f32.tf32.tf32.f32"},
	{"f64_k4", "m8n8k4.row.col.f64.f64.f64.f64"},
	{"s8_k32", "m16n8k32.row.col.s32.s8.s8.s32"},
	{"s8_k32_sat", "m16n8k32.row.col.satfinite.s32.s8.s8.s32"},
	{"u8_k32", "m16n8k32.row.col.s32.u8.u8.s32"},
	{"u8s8_k32_sat", "m16n8k32.row.col.satfinite.s32.u8.s8.s32"},
	{"s8_k16", "m16n8k16.row.col.s32.s8.s8.s32"},
	{"s8_m8n8k16", "m8n8k16.row.col.s32.s8.s8.s32"},
}

// TestMMAMeasured replays every recorded H200 mma case (calibration and validation)
// through the tensor-core model: every element of D must be bit-identical.
func TestMMAMeasured(t *testing.T) {
	for _, f := range mmaForms {
		m, err := ParseMMA(strings.Split(f.mods, "."))
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		cs, err := LoadMMACases(measuredTensor+"cases/"+f.name+".in", measuredTensor+"out/"+f.name+".out", m)
		if err != nil {
			t.Fatal(err)
		}
		cal, val, n := 0, 0, 0
		for i, c := range cs.Cases {
			k := c.Mismatches(m)
			n += len(c.D)
			if i < cs.NCal {
				cal += k
			} else {
				val += k
			}
		}
		t.Logf("%s: %d cases (%d calibration), %d elements; %d differ in calibration, %d in validation", f.name, len(cs.Cases), cs.NCal, n, cal, val)
		if cal+val != 0 {
			t.Errorf("%s: %d calibration and %d validation elements differ from the H200", f.name, cal, val)
		}
	}
}

// TestMMAModelSensitivity checks that the recorded cases can tell the model apart
// from nearby ones: each changed parameter must disagree with the H200 somewhere.
func TestMMAModelSensitivity(t *testing.T) {
	m, err := ParseMMA(strings.Split("m16n8k16.row.col.f32.f16.f16.f32", "."))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := LoadMMACases(measuredTensor+"cases/f16_f32_k16.in", measuredTensor+"out/f16_f32_k16.out", m)
	if err != nil {
		t.Fatal(err)
	}
	base := m.Model
	for name, change := range map[string]func(*FloatModel){
		"F=24":          func(md *FloatModel) { md.F = 24 },
		"F=26":          func(md *FloatModel) { md.F = 26 },
		"G=8":           func(md *FloatModel) { md.G = 8 },
		"round nearest": func(md *FloatModel) { md.StepRZ = false },
		"own exponent":  func(md *FloatModel) { md.InputExp = false },
		"subnormal exp": func(md *FloatModel) { md.SubExpMin = false },
	} {
		m.Model = base
		change(&m.Model)
		diff := 0
		for _, c := range cs.Cases {
			diff += c.Mismatches(m)
		}
		if diff == 0 {
			t.Errorf("%s: the recorded cases do not distinguish this model from the H200's", name)
		}
	}
}

func TestParseMMAErrors(t *testing.T) {
	for _, mods := range []string{
		"m16n8k16.row.row.f32.f16.f16.f32",
		"m16n8k32.row.col.f32.f16.f16.f32",
		"m16n8k16.row.col.f32.e4m3.e4m3.f32",
		"m8n8k32.row.col.s32.s4.s4.s32",
		"m16n8k16.row.col.satfinite.f32.f16.f16.f32",
		"m16n8k16.row.col.f32.f16.f16.f16",
		"m16n8k8.row.col.f16.f16.f16.f32",
	} {
		if _, err := ParseMMA(strings.Split(mods, ".")); err == nil {
			t.Errorf("%s: no error", mods)
		}
	}
}
