package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// nonFinitePTX writes NaN, +Inf and -Inf into out[0..2] and 0/0, 1/0, -1/0 computed
// on the device into out[3..5].
const nonFinitePTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry nonfinite(.param .u64 out)
{
  .reg .b64 %rd<3>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.f32 %f1, 0f7FC00000;
  mov.f32 %f2, 0f7F800000;
  mov.f32 %f3, 0fFF800000;
  st.global.f32 [%rd2], %f1;
  st.global.f32 [%rd2+4], %f2;
  st.global.f32 [%rd2+8], %f3;
  mov.f32 %f4, 0f00000000;
  mov.f32 %f5, 0f3F800000;
  div.rn.f32 %f6, %f4, %f4;
  st.global.f32 [%rd2+12], %f6;
  div.rn.f32 %f6, %f5, %f4;
  st.global.f32 [%rd2+16], %f6;
  neg.f32 %f7, %f5;
  div.rn.f32 %f6, %f7, %f4;
  st.global.f32 [%rd2+20], %f6;
  ret;
}
`

// TestRunJSONNonFinite runs a kernel that writes NaN and ±Inf: run --json exits 0 and
// the report is complete, with the values spelled as DESIGN.md says.
func TestRunJSONNonFinite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nonfinite.ptx")
	if err := os.WriteFile(path, []byte(nonFinitePTX), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI("run", "--json", "--grid", "1", "--block", "1", "--launch", "nonfinite(zeros(8):f32)", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("run --json output is not JSON: %v", err)
	}
	for _, k := range []string{"kernel", "stats", "memory", "occupancy", "timing", "hints", "errors", "outputs"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("report lacks %q", k)
		}
	}
	outs, _ := rep["outputs"].([]any)
	if len(outs) != 1 {
		t.Fatalf("outputs: %v", rep["outputs"])
	}
	o := outs[0].(map[string]any)
	if o["sum"] != "NaN" {
		t.Errorf("sum = %v, want \"NaN\"", o["sum"])
	}
	first, _ := o["first"].([]any)
	want := []string{"NaN", "Infinity", "-Infinity", "NaN", "Infinity", "-Infinity", "0", "0"}
	if len(first) != len(want) {
		t.Fatalf("first = %v, want %v", first, want)
	}
	for i := range want {
		if first[i] != want[i] {
			t.Errorf("first[%d] = %v, want %q", i, first[i], want[i])
		}
	}
}
