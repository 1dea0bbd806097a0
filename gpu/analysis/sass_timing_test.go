package analysis

import (
	"math"
	"os"
	"testing"
)

// TestSASSTimingExplore prints, per golden launch, the modelled cycles with the PTX issue
// stream and with the modelled SASS stream (KS_SASS_TIMING=1): the comparison behind the
// choice of default for %timing sass.
func TestSASSTimingExplore(t *testing.T) {
	if os.Getenv("KS_SASS_TIMING") == "" {
		t.Skip("KS_SASS_TIMING=1 (golden) or =scale to print the PTX and SASS issue streams' cycles per launch")
	}
	ptx, sass := timeGoldenCasesWith(t, false), timeGoldenCasesWith(t, true)
	if os.Getenv("KS_SASS_TIMING") == "scale" {
		ptx, sass = timeScaleCasesWith(t, false), timeScaleCasesWith(t, true)
	}
	var sums [4]float64
	for i, r := range ptx {
		s := sass[i]
		ke, _ := r.kernelErrPct()
		ks, _ := s.kernelErrPct()
		t.Logf("%-22s H200 %6d  ptx %6d (%+6.1f%%, kernel %+6.1f%%)  sass %6d (%+6.1f%%, kernel %+6.1f%%)", r.name, r.measured, r.model, r.errPct(), ke, s.model, s.errPct(), ks)
		sums[0], sums[1], sums[2], sums[3] = sums[0]+math.Abs(r.errPct()), sums[1]+math.Abs(ke), sums[2]+math.Abs(s.errPct()), sums[3]+math.Abs(ks)
	}
	n := float64(max(len(ptx), 1))
	t.Logf("mean absolute error: PTX stream %.1f%% whole, %.1f%% kernel only; SASS stream %.1f%% whole, %.1f%% kernel only (%d launches)", sums[0]/n, sums[1]/n, sums[2]/n, sums[3]/n, len(ptx))
}
