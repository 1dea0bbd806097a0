package analysis

import (
	"fmt"
	"math"

	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/timing"
)

// Sampling for huge grids (issue 16), stated plainly: the functional
// simulation, the memory model and the checks always run every block, so
// outputs, counters and cache statistics are exact. Only the cycle-level
// timing model may be fed a subset: when a launch has more than
// Request.TimingWaves waves (a wave being SMs x resident blocks per SM
// blocks; DefaultTimingWaves when 0), the model is given that many waves,
// evenly spaced from the first, and its kernel cycles are extrapolated by the
// ratio of all blocks' issued warp-instructions to the modelled blocks'. The
// report says so, with an estimated error: the spread of work between the
// modelled waves (the standard error of their mean) plus 1/k for the start
// and end of the modelled part, which the extrapolation counts N/k times.
// %timing all (Request.TimingWaves < 0) models every block.

// DefaultTimingWaves is how many waves the timing model models when
// Request.TimingWaves is 0.
const DefaultTimingWaves = 16

// timingSample selects the blocks fed to the timing model and extrapolates.
type timingSample struct {
	on        bool
	waveSize  int
	nwaves, k int     // waves of the launch, waves modelled
	workAll   int64   // warp-instructions issued by every block
	workModel int64   // by the modelled blocks
	waveWork  []int64 // per modelled wave
	blocks    int     // blocks modelled
}

// newTimingSample decides whether a launch of nblocks is sampled.
func newTimingSample(nblocks, waveSize, maxWaves int) *timingSample {
	s := &timingSample{waveSize: max(waveSize, 1)}
	s.nwaves = (nblocks + s.waveSize - 1) / s.waveSize
	if maxWaves == 0 {
		maxWaves = DefaultTimingWaves
	}
	if maxWaves > 0 && s.nwaves > maxWaves {
		s.on, s.k = true, maxWaves
		s.waveWork = make([]int64, s.nwaves)
	}
	return s
}

// modelled reports whether block b is fed to the timing model: every block
// when not sampling, else those of k waves evenly spaced from wave 0.
func (s *timingSample) modelled(b int) bool {
	if !s.on {
		return true
	}
	w := b / s.waveSize
	return w == 0 || w*s.k/s.nwaves != (w-1)*s.k/s.nwaves
}

// count adds a block's issued warp-instructions.
func (s *timingSample) count(b int, warps [][]sim.Issue) {
	var n int64
	for _, w := range warps {
		n += int64(len(w))
	}
	s.workAll += n
	if s.modelled(b) {
		s.workModel += n
		s.blocks++
		if s.on {
			s.waveWork[b/s.waveSize] += n
		}
	}
}

// errorPct is the estimated relative error of the extrapolation, in percent.
func (s *timingSample) errorPct() float64 {
	var xs []float64
	for w, n := range s.waveWork {
		// Full waves only: the last one may be partial.
		if n > 0 && w < s.nwaves-1 && s.modelled(w*s.waveSize) {
			xs = append(xs, float64(n))
		}
	}
	e := 1 / float64(s.k)
	if len(xs) >= 2 {
		var mean, ss float64
		for _, x := range xs {
			mean += x
		}
		mean /= float64(len(xs))
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		sd := math.Sqrt(ss / float64(len(xs)-1))
		fpc := math.Sqrt(max(0, 1-float64(len(xs))/float64(s.nwaves)))
		e += sd / mean / math.Sqrt(float64(len(xs))) * fpc
	}
	return 100 * e
}

// apply extrapolates the model's kernel cycles to the whole launch and says
// so in the report.
func (s *timingSample) apply(rep *report.Report, nblocks int) {
	tm := rep.Timing
	if !s.on || tm == nil || s.workModel == 0 {
		return
	}
	scale := float64(s.workAll) / float64(s.workModel)
	tm.KernelCycles = int64(math.Round(float64(tm.KernelCycles) * scale))
	tm.LaunchHiddenCycles = timing.LaunchHidden(tm.KernelCycles, nblocks, rep.Block[0]*rep.Block[1]*rep.Block[2])
	tm.Cycles = tm.KernelCycles + tm.LaunchCycles - tm.LaunchHiddenCycles
	rep.Stats.Cycles = tm.Cycles
	tm.SampledBlocks, tm.TotalBlocks = s.blocks, nblocks
	tm.SampleErrorPct = math.Round(s.errorPct()*10) / 10
	tm.Modelled += fmt.Sprintf("; sampled: %d of %d waves modelled (%d of %d blocks), kernel cycles extrapolated by issued warp-instructions (x%.2f)", s.k, s.nwaves, s.blocks, nblocks, scale)
	rep.Notes = append(rep.Notes, fmt.Sprintf("timing: the launch has %d waves; the timing model modelled %d of them (%d of %d blocks, evenly spaced) and extrapolated the kernel's cycles, estimated error ±%.1f%% (stalls, pipes and timelines are the modelled blocks'); outputs, counters and memory statistics cover every block; %%timing all models everything",
		s.nwaves, s.k, s.blocks, nblocks, tm.SampleErrorPct))
}

// TimingWaves is the Request.TimingWaves for %timing on (0: the default
// sampling) or %timing all (every block).
func TimingWaves(all bool) int {
	if all {
		return -1
	}
	return 0
}
