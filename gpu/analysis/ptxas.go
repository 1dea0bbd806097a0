package analysis

import (
	"math"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/ptxas"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sass"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// Memory counting modes the report names (report.Memory.Counting).
const (
	countingModelled = "modelled ptxas merging"
	countingSASS     = "from SASS"
)

// Issue streams of the timing model (report.Timing.Stream, Request.SASSIssues).
const (
	StreamSASS = "sass" // each PTX instruction issues as its SASS (gpu/ptxas)
	StreamPTX  = "ptx"  // one issue per PTX instruction
)

// sassStream is the timing model's per-PC SASS issue stream of kernel when the request asks
// for it (nil, with a note when it was asked for and cannot be made: the PTX stream then times
// the launch), and where it came from.
func sassStream(rep *report.Report, req *Request, p *ptxas.Program, kernel string) ([]ptxas.TimingIssue, string) {
	if !req.SASSIssues {
		return nil, ""
	}
	if p == nil {
		rep.Notes = append(rep.Notes, "timing: the PTX issue stream timed the launch (no SASS lowering of the module)")
		return nil, ""
	}
	issues, err := p.TimingByPC(kernel)
	if err != nil {
		rep.Notes = append(rep.Notes, "timing: the PTX issue stream timed the launch: "+err.Error())
		return nil, ""
	}
	return issues, string(p.Source)
}

// sassLowering is the ptxas view of the module: from the nvdisasm listing when nvcc built
// it (listing non-empty and parsable), else the modelled lowering. nil (with a note) when
// neither can be made.
func sassLowering(mod *ptx.Module, arch, listing string) (*ptxas.Program, string) {
	if listing != "" {
		if lst, err := sass.Parse(listing); err == nil {
			if p, err := ptxas.LowerModuleFromSASS(mod, arch, lst); err == nil {
				return p, ""
			}
		}
	}
	p, err := ptxas.LowerModule(mod, arch)
	if err != nil {
		return nil, "SASS instruction count not modelled: " + err.Error()
	}
	return p, ""
}

// mergedObserver returns the memory observer that counts one access per merged SASS
// instruction (ptxas merging), and the filter (nil when there is no lowering).
func mergedObserver(p *ptxas.Program, mod *ptx.Module, counter *mem.Counter) (func(*mem.Access), *ptxas.MergeFilter) {
	if p == nil {
		return counter.Observe, nil
	}
	f := ptxas.NewMergeFilter(p, mod, counter.Observe)
	return f.Observe, f
}

// recordMerged is counter.Record through the merge filter: a merged member other than the
// leader is not counted and gets a zero outcome.
func recordMerged(f *ptxas.MergeFilter, counter *mem.Counter, a *mem.Access) mem.Outcome {
	if f == nil {
		return counter.Record(a)
	}
	ca, keep := f.Filter(a)
	if !keep {
		return mem.Outcome{}
	}
	return counter.Record(ca)
}

// fillSASSCounts puts the modelled (or listing-based) SASS instruction count of the launch
// into the report, and says how the memory counters were counted.
func fillSASSCounts(rep *report.Report, p *ptxas.Program, f *ptxas.MergeFilter, kernel string, res *sim.Result, warps int64) {
	if p == nil || res == nil {
		return
	}
	c, err := p.Count(kernel, res.Insts, warps)
	if err != nil {
		rep.Notes = append(rep.Notes, "SASS instruction count not modelled: "+err.Error())
		return
	}
	rep.Stats.SASSInstructions = int64(math.Round(c.Total))
	rep.Stats.SASSSource = string(c.Source)
	rep.Stats.SASSPipes = map[string]int64{}
	for i, v := range c.Pipes {
		if v > 0 {
			rep.Stats.SASSPipes[ptxas.Pipe(i).String()] = int64(math.Round(v))
		}
	}
	if rep.Memory != nil {
		rep.Memory.Counting = countingModelled
		if p.Source == ptxas.FromSASS {
			rep.Memory.Counting = countingSASS
		}
		if f != nil {
			rep.Memory.MergedAccesses = f.Merged
		}
	}
}
