package analysis

import (
	"os"
	"testing"
)

// TestSASSTimingExplore prints, per golden launch, the modelled cycles with the PTX issue
// stream and with the modelled SASS stream (KS_SASS_TIMING=1): the comparison behind the
// choice of default for %timing sass.
func TestSASSTimingExplore(t *testing.T) {
	if os.Getenv("KS_SASS_TIMING") == "" {
		t.Skip("KS_SASS_TIMING=1 to print the PTX and SASS issue streams' cycles per golden launch")
	}
	ptx, sass := timeGoldenCasesWith(t, false), timeGoldenCasesWith(t, true)
	for i, r := range ptx {
		s := sass[i]
		ke, _ := r.kernelErrPct()
		ks, _ := s.kernelErrPct()
		t.Logf("%-22s H200 %6d  ptx %6d (%+6.1f%%, kernel %+6.1f%%)  sass %6d (%+6.1f%%, kernel %+6.1f%%)", r.name, r.measured, r.model, r.errPct(), ke, s.model, s.errPct(), ks)
	}
}
