package sim

import (
	"os"
	"path/filepath"
	"testing"
)

// allChecks turns every simulator check on.
var allChecks = Checks{Race: true, Init: true, Sync: true}

// TestGoldenCasesClean: the golden kernels (all race-free, checked on the
// H200) give no finding with every check on, for nvcc's PTX of each
// architecture, in both schedules, and still give the H200's bytes.
func TestGoldenCasesClean(t *testing.T) {
	cases := loadGoldenCases(t)
	launches := 0
	defer func() { t.Logf("%d golden launches checked", launches) }()
	for i := range cases {
		c := &cases[i]
		for _, arch := range goldenArchs {
			for _, rev := range []bool{false, true} {
				launches++
				res, err := runGolden(t, c, arch, Config{Trace: TraceConfig{MaxSteps: -1}, Check: allChecks, Reverse: rev})
				if err != nil {
					t.Errorf("%s/%s: %v", c.Name, arch, err)
					continue
				}
				for _, f := range res.Findings {
					t.Errorf("%s/%s reverse=%v: %s at PTX line %d (other %d): %s", c.Name, arch, rev, f.Kind, f.PTXLine, f.OtherPTXLine, f.Detail)
				}
				for j, a := range c.Args {
					if a.Output == "" {
						continue
					}
					want, err := os.ReadFile(filepath.Join(goldenDir, a.Output))
					if err != nil {
						t.Fatal(err)
					}
					if msg := compareOutput(res.Buffers[j], want, a.Type, c.ToleranceRel); msg != "" {
						t.Errorf("%s/%s: %s: %s", c.Name, arch, a.Name, msg)
					}
				}
			}
		}
	}
}
