// Package occupancy computes theoretical occupancy exactly as NVIDIA's
// cuda_occupancy.h does (the rules that cudaOccupancyMaxActiveBlocksPerMultiprocessor
// and Nsight Compute apply), with every limiter, and sweeps it over block size,
// registers per thread and shared memory per block.
package occupancy

import (
	"errors"
	"fmt"
	"math"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// NoLimit is the limit reported for a resource that does not constrain blocks (INT_MAX).
const NoLimit = math.MaxInt32

// Limiter bits of Result.Mask, as in cuda_occupancy.h's limiting-factor mask.
const (
	LimitWarps     = 1
	LimitRegisters = 2
	LimitShared    = 4
	LimitBlocks    = 8
	LimitBarriers  = 16
)

// limiterNames pairs each mask bit with its stable JSON name.
var limiterNames = [...]struct {
	bit  int
	name string
}{
	{LimitWarps, "warps"}, {LimitRegisters, "registers"}, {LimitShared, "shared_memory"},
	{LimitBlocks, "blocks"}, {LimitBarriers, "barriers"},
}

// Input describes a kernel launch configuration.
type Input struct {
	BlockSize     int  // threads per block
	RegsPerThread int  // registers per thread (cudaFuncAttributes.numRegs)
	StaticShared  int  // static shared memory per block in bytes
	DynamicShared int  // dynamic shared memory per block in bytes
	OptIn         bool // the kernel opted in to more than 48 KB (cudaFuncAttributeMaxDynamicSharedMemorySize)
	Barriers      int  // block barriers the kernel uses; 0 means the header's default of 1
	// Carveout is the preferred shared-memory carveout in percent (0..100,
	// cudaFuncAttributePreferredSharedMemoryCarveout); a negative value or
	// zero with CarveoutSet false means the default (maximum shared memory).
	Carveout    int
	CarveoutSet bool // Carveout was given explicitly
}

// Limits are the blocks per SM each resource allows (NoLimit when unconstrained).
type Limits struct {
	Registers    int `json:"registers"`     // blocks the register file allows
	SharedMemory int `json:"shared_memory"` // blocks shared memory allows
	Warps        int `json:"warps"`         // blocks the warp slots allow
	Blocks       int `json:"blocks"`        // block slots per SM
	Barriers     int `json:"barriers"`      // blocks the barrier slots allow (cc 9.0+)
}

// Result is the theoretical occupancy of one configuration.
type Result struct {
	ActiveBlocks      int      // resident blocks per SM
	ActiveWarps       int      // resident warps per SM
	OccupancyPct      float64  // ActiveWarps / MaxWarpsPerSM * 100
	Limits            Limits   // per-resource block limits
	Limiting          []string // names of the limiters that set ActiveBlocks
	Mask              int      // limiter bits: 1 warps 2 registers 4 shared 8 blocks 16 barriers
	AllocRegsPerBlock int      // registers allocated per block (per-warp rounding)
	AllocSmemPerBlock int      // shared memory allocated per block (reserved + rounding)
	WarpsPerBlock     int      // warps per block
	SharedPerSM       int      // shared memory per SM the carveout selection gives this launch
}

// JSONResult is the `kernelscope occupancy --json` document.
type JSONResult struct {
	ActiveBlocksPerSM int      `json:"active_blocks_per_sm"` // resident blocks per SM
	OccupancyPct      float64  `json:"occupancy_pct"`        // theoretical occupancy, percent, 2 decimals
	LimitingFactors   []string `json:"limiting_factors"`     // names of the limiters, never null
	Limits            Limits   `json:"limits"`               // per-resource block limits
}

// JSON returns the stable JSON form of r (docs/design.md's occupancy --json).
func (r Result) JSON() JSONResult {
	lf := r.Limiting
	if lf == nil {
		lf = []string{}
	}
	return JSONResult{ActiveBlocksPerSM: r.ActiveBlocks, OccupancyPct: math.Round(r.OccupancyPct*100) / 100,
		LimitingFactors: lf, Limits: r.Limits}
}

// ErrInvalidInput is wrapped by every error about the launch configuration itself.
var ErrInvalidInput = errors.New("invalid occupancy input")

// Compute returns the theoretical occupancy of in on spec. A configuration
// that cannot launch (too many threads, registers or shared memory) is not an
// error: it yields zero active blocks with the offending limit at zero, as the
// header does. Errors are for inputs that are meaningless (negative sizes).
func Compute(spec *arch.Spec, in Input) (Result, error) {
	if spec == nil {
		return Result{}, fmt.Errorf("occupancy: nil architecture: %w", ErrInvalidInput)
	}
	if spec.WarpSize <= 0 || spec.SubPartitions <= 0 || spec.RegAllocUnit <= 0 || spec.SharedAllocUnit <= 0 {
		return Result{}, fmt.Errorf("occupancy: %s: incomplete specification: %w", spec.Name, ErrInvalidInput)
	}
	switch {
	case in.BlockSize <= 0:
		return Result{}, fmt.Errorf("occupancy: block size %d must be positive: %w", in.BlockSize, ErrInvalidInput)
	case in.RegsPerThread < 0:
		return Result{}, fmt.Errorf("occupancy: registers per thread %d is negative: %w", in.RegsPerThread, ErrInvalidInput)
	case in.StaticShared < 0 || in.DynamicShared < 0:
		return Result{}, fmt.Errorf("occupancy: shared memory %d+%d is negative: %w", in.StaticShared, in.DynamicShared, ErrInvalidInput)
	case in.Barriers < 0:
		return Result{}, fmt.Errorf("occupancy: barriers %d is negative: %w", in.Barriers, ErrInvalidInput)
	case in.CarveoutSet && (in.Carveout < 0 || in.Carveout > 100):
		return Result{}, fmt.Errorf("occupancy: carveout %d%% outside 0..100: %w", in.Carveout, ErrInvalidInput)
	case in.BlockSize > 1<<20 || in.RegsPerThread > 1<<16 || in.StaticShared > 1<<30 || in.DynamicShared > 1<<30:
		return Result{}, fmt.Errorf("occupancy: configuration out of range: %w", ErrInvalidInput)
	}

	var r Result
	warps := divUp(in.BlockSize, spec.WarpSize)
	r.WarpsPerBlock = warps

	// Warps: resident warps per SM over warps per block; a block larger than
	// the maximum block size cannot launch at all.
	r.Limits.Warps = (spec.MaxThreadsPerSM / spec.WarpSize) / warps
	if in.BlockSize > spec.MaxThreadsPerBlock {
		r.Limits.Warps = 0
	}

	// Blocks: the hardware block slots.
	r.Limits.Blocks = spec.MaxBlocksPerSM

	r.Limits.Registers, r.AllocRegsPerBlock = regsLimit(spec, in.RegsPerThread, warps)
	r.Limits.SharedMemory, r.AllocSmemPerBlock, r.SharedPerSM = smemLimit(spec, in)

	l := &r.Limits
	r.ActiveBlocks = min(l.Warps, l.Registers, l.SharedMemory, l.Blocks)
	values := [...]int{l.Warps, l.Registers, l.SharedMemory, l.Blocks}
	for i, v := range values {
		if v == r.ActiveBlocks {
			r.Mask |= limiterNames[i].bit
		}
	}

	// Barriers (cc 9.0 and later): two barrier slots per block slot, shared by
	// the barriers each block uses. As in the header, this limit is applied
	// after the other limiters' bits are set, so those bits stay even when the
	// barrier limit is lower.
	l.Barriers = NoLimit
	if spec.Major >= 9 {
		used := in.Barriers
		if used == 0 {
			used = 1 // the header's default for numBlockBarriers
		}
		l.Barriers = (l.Blocks * 2) / used
		r.ActiveBlocks = min(r.ActiveBlocks, l.Barriers)
		if r.ActiveBlocks == l.Barriers {
			r.Mask |= LimitBarriers
		}
	}
	for _, ln := range limiterNames {
		if r.Mask&ln.bit != 0 {
			r.Limiting = append(r.Limiting, ln.name)
		}
	}
	r.ActiveWarps = r.ActiveBlocks * warps
	r.OccupancyPct = float64(r.ActiveWarps) / float64(spec.MaxWarpsPerSM) * 100
	return r, nil
}

// regsLimit is cudaOccMaxBlocksPerSMRegsLimit with partitioned global caching off.
func regsLimit(spec *arch.Spec, regs, warps int) (limit, allocPerBlock int) {
	perWarp := roundUp(regs*spec.WarpSize, spec.RegAllocUnit)
	allocPerBlock = perWarp * warps
	// The hardware check assumes registers go to every sub-partition at once,
	// so the block's warps are rounded up to a multiple of the sub-partitions.
	assumed := perWarp * roundUp(warps, spec.SubPartitions)
	switch {
	case assumed > spec.MaxRegsPerBlock || allocPerBlock > spec.MaxRegsPerBlock || regs > spec.MaxRegsPerThread:
		return 0, allocPerBlock
	case perWarp == 0:
		return NoLimit, allocPerBlock
	}
	// Each sub-partition holds a whole number of warps' registers.
	warpsPerSub := (spec.RegistersPerSM / spec.SubPartitions) / perWarp
	return warpsPerSub * spec.SubPartitions / warps, allocPerBlock
}

// smemLimit is cudaOccMaxBlocksPerSMSmemLimit: the per-block allocation, the
// per-block maximum (default or opt-in, plus the reserved memory), and the
// carveout the launch gets.
func smemLimit(spec *arch.Spec, in Input) (limit, allocPerBlock, perSM int) {
	static := in.StaticShared + spec.ReservedSharedPerBlock
	allocPerBlock = roundUp(static+in.DynamicShared, spec.SharedAllocUnit)

	maxPerBlock := spec.SharedPerBlock
	if in.OptIn && static+in.DynamicShared > spec.SharedPerBlock {
		maxPerBlock = spec.SharedPerBlockOptIn
	}
	if spec.Major >= 8 {
		maxPerBlock += spec.ReservedSharedPerBlock
	}
	if allocPerBlock > maxPerBlock {
		return 0, allocPerBlock, 0
	}

	// The preferred carveout; the default is the largest shared-memory configuration.
	pref := spec.SharedPerSM
	if in.CarveoutSet {
		want := in.Carveout * spec.SharedPerSM / 100
		if c, ok := spec.AlignCarveout(want); ok {
			pref = c
		}
	}
	perSM = pref
	if pref < allocPerBlock {
		// The preference is overridden by what one block needs (Volta and later).
		c, ok := spec.AlignCarveout(allocPerBlock)
		if !ok {
			return 0, allocPerBlock, 0
		}
		perSM = c
	}
	if allocPerBlock == 0 {
		return NoLimit, 0, perSM
	}
	return perSM / allocPerBlock, allocPerBlock, perSM
}

// PickCarveout returns the smallest supported carveout that still holds the
// shared memory of r.ActiveBlocks blocks: the shared-memory size an SM is
// configured with for this launch, leaving the rest of the unified array to L1.
// This is an assumption about the driver's choice (it favours L1 whenever that
// costs no occupancy); cuda_occupancy.h only states the preference rules.
func PickCarveout(spec *arch.Spec, r Result) int {
	if spec == nil || len(spec.Carveouts) == 0 {
		return 0
	}
	need := r.ActiveBlocks * r.AllocSmemPerBlock
	if c, ok := spec.AlignCarveout(need); ok {
		return c
	}
	return spec.Carveouts[len(spec.Carveouts)-1]
}

func divUp(a, b int) int { return (a + b - 1) / b }

func roundUp(a, b int) int { return divUp(a, b) * b }
