package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/kernelscope/kernelscope/render"
)

// reuseCell is a kernel over n elements in blocks of block threads that
// stores expr in c, with the timing model and the default checks (the race
// checker's global shadow, both cache models).
func reuseCell(n, block int, expr string) string {
	return fmt.Sprintf(`%%launch vector_add(a=rand(%d), b=rand(%d), c=zeros(%d), n=%d)
%%block %d
%%timing on
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = %s;
}
`, n, n, n, n, block, expr)
}

// cellReport is the report of a cell's one display, without the wall-clock field.
func cellReport(t *testing.T, e *Engine, code string) map[string]any {
	t.Helper()
	r, err := run(t, e, code)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.displays) != 1 {
		t.Fatalf("expected one display, got %d", len(r.displays))
	}
	js, err := json.Marshal(r.displays[0][render.MIMEReport])
	if err != nil {
		t.Fatal(err)
	}
	var rep map[string]any
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	if st, ok := rep["stats"].(map[string]any); ok {
		delete(st, "sim_ms")
	}
	return rep
}

// TestCellAgainReusesEngineArrays: cells on one engine take the cache
// models' arrays and the race checker's shadow from the engine's pools, left
// there by an earlier launch with other blocks and values (1.5 times the size:
// the shadow pool hands out arrays of up to twice the words asked), then by
// their own first run, and give the report of the same cell on a fresh
// engine; a stale cache or shadow would change hit rates, timing or findings.
func TestCellAgainReusesEngineArrays(t *testing.T) {
	needClang(t)
	cell := reuseCell(1<<16, 256, "a[i] + b[i] + (i > 0 ? a[i - 1] : 0.0f)")
	want := cellReport(t, newEngine(t), cell)
	e := newEngine(t)
	// other blocks write other values to the words of c: a shadow kept stale
	// would make the cell's stores races
	cellReport(t, e, reuseCell(3<<15, 128, "2.0f * a[i]"))
	if e.caches.Empty() || e.shadows.Empty() {
		t.Fatal("the first launch left nothing in the engine's pools")
	}
	for run := 1; run <= 2; run++ {
		if got := cellReport(t, e, cell); !reflect.DeepEqual(got, want) {
			a, _ := json.MarshalIndent(want, "", " ")
			b, _ := json.MarshalIndent(got, "", " ")
			t.Fatalf("run %d on the engine gives another report than a fresh engine's:\nfresh:\n%.3000s\nthis:\n%.3000s", run, a, b)
		}
	}
}
