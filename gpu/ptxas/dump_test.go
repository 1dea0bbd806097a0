package ptxas

import (
	"os"
	"strings"
	"testing"
)

// TestDumpLowering prints the modelled lowering of one kernel of a PTX file, per PTX
// instruction (KS_PTXAS_DUMP=path.ptx:kernel); the tool used to compare with a listing.
func TestDumpLowering(t *testing.T) {
	spec := os.Getenv("KS_PTXAS_DUMP")
	if spec == "" {
		t.Skip("KS_PTXAS_DUMP=file.ptx:kernel to print a kernel's modelled lowering")
	}
	path, kernel, _ := strings.Cut(spec, ":")
	m := parsePTX(t, path)
	for _, fn := range m.Funcs {
		if fn.Name != kernel || !fn.HasBody {
			continue
		}
		low, err := Lower(m, fn, "sm_90")
		if err != nil {
			t.Fatal(err)
		}
		labels := map[int]string{}
		for _, lb := range fn.Labels {
			labels[lb.Index] = lb.Name
		}
		for pc, in := range fn.Insts {
			if n, ok := labels[pc]; ok {
				t.Logf("%s:", n)
			}
			t.Logf("%4d %-50.50s %5.2f %s", pc, in.Text(), low.Insts[pc].Issue, low.Insts[pc].Why)
		}
		t.Logf("entry %.0f static %.1f", low.Entry, low.Static())
	}
}
