package occupancy

import (
	"fmt"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// Point is one configuration of a sweep.
type Point struct {
	X            int     // the swept value: threads per block, registers per thread or shared bytes per block
	ActiveBlocks int     // resident blocks per SM
	ActiveWarps  int     // resident warps per SM
	OccupancyPct float64 // theoretical occupancy in percent
	Mask         int     // limiter bits
}

// SweepBlockSize varies the block size from one warp to the maximum block size in
// steps of one warp, holding everything else of in.
func SweepBlockSize(spec *arch.Spec, in Input) ([]Point, error) {
	if spec == nil || spec.WarpSize <= 0 {
		return nil, fmt.Errorf("occupancy: sweep block size: %w", ErrInvalidInput)
	}
	return sweep(spec, in, "block size", spec.WarpSize, spec.MaxThreadsPerBlock, spec.WarpSize,
		func(in *Input, x int) { in.BlockSize = x })
}

// SweepRegisters varies registers per thread from 1 to the per-thread maximum,
// holding everything else of in.
func SweepRegisters(spec *arch.Spec, in Input) ([]Point, error) {
	if spec == nil {
		return nil, fmt.Errorf("occupancy: sweep registers: %w", ErrInvalidInput)
	}
	return sweep(spec, in, "registers", 1, spec.MaxRegsPerThread, 1,
		func(in *Input, x int) { in.RegsPerThread = x })
}

// SweepShared varies the shared memory per block (static, no dynamic part)
// from 0 to the opt-in maximum in 1 KB steps. Points above the default 48 KB
// assume the kernel opts in, as they cannot launch otherwise.
func SweepShared(spec *arch.Spec, in Input) ([]Point, error) {
	if spec == nil {
		return nil, fmt.Errorf("occupancy: sweep shared memory: %w", ErrInvalidInput)
	}
	return sweep(spec, in, "shared memory", 0, spec.SharedPerBlockOptIn, arch.KB,
		func(in *Input, x int) {
			in.StaticShared, in.DynamicShared = x, 0
			in.OptIn = in.OptIn || x > spec.SharedPerBlock
		})
}

// sweep evaluates set(x) for x in [from, to] by step.
func sweep(spec *arch.Spec, in Input, what string, from, to, step int, set func(*Input, int)) ([]Point, error) {
	if step <= 0 || to < from {
		return nil, fmt.Errorf("occupancy: sweep %s on %s: empty range: %w", what, spec.Name, ErrInvalidInput)
	}
	pts := make([]Point, 0, (to-from)/step+1)
	for x := from; x <= to; x += step {
		c := in
		set(&c, x)
		r, err := Compute(spec, c)
		if err != nil {
			return nil, fmt.Errorf("occupancy: sweep %s at %d: %w", what, x, err)
		}
		pts = append(pts, Point{X: x, ActiveBlocks: r.ActiveBlocks, ActiveWarps: r.ActiveWarps, OccupancyPct: r.OccupancyPct, Mask: r.Mask})
	}
	return pts, nil
}
