// Package arch is KernelScope's GPU specification database: per compute
// capability, the resource limits that govern occupancy and the memory-system
// sizes that the simulator's caches use, each tied to a reference part.
//
// Sources, abbreviated in the per-figure comments:
//   - NCU: Nsight Compute's occupancy module, testdata/golden/ncu_occupancy_gpu_data.json.
//   - PROPS: cudaGetDeviceProperties on the H200, testdata/golden/device_props.txt.
//   - CPG: CUDA C++ Programming Guide, "Compute Capabilities" tables and the
//     per-architecture sections (unified L1/shared sizes, carveouts, reserved 1 KB).
//   - OCC: cuda_occupancy.h (reserved shared memory per block, sub-partitions).
//   - SPEC: the vendor's product specification of the reference part (SMs,
//     boost clock, memory bandwidth, L2 size).
package arch

import (
	"fmt"
	"sort"
	"strings"
)

// Spec is the specification of one compute capability, with the figures of a reference part.
type Spec struct {
	Name   string // canonical architecture name, e.g. "sm_90"
	Major  int    // compute capability major version
	Minor  int    // compute capability minor version
	Family string // chip family as Nsight Compute names it, e.g. "GH100"
	Part   string // reference part whose SM count, clock, L2 and bandwidth are given

	SMs                int // streaming multiprocessors on the reference part
	WarpSize           int // threads per warp
	MaxWarpsPerSM      int // resident warps per SM
	MaxBlocksPerSM     int // resident thread blocks per SM
	MaxThreadsPerSM    int // resident threads per SM
	MaxThreadsPerBlock int // threads per block
	BarriersPerSM      int // hardware block barriers per SM (NCU block_barriers_per_sm)
	SubPartitions      int // SM sub-partitions (SMSPs), each with its own register file slice

	RegistersPerSM       int    // 32-bit registers per SM
	MaxRegsPerBlock      int    // 32-bit registers per block
	MaxRegsPerThread     int    // registers per thread
	RegAllocUnit         int    // registers are allocated per warp in units of this many
	RegAllocGranularity  string // unit registers are allocated to ("warp")
	WarpAllocGranularity int    // warps are allocated in groups of this many (Nsight Compute)

	SharedPerSM            int   // maximum shared memory per SM in bytes (largest carveout)
	SharedPerBlock         int   // shared memory per block without opt-in (48 KB)
	SharedPerBlockOptIn    int   // shared memory per block with cudaFuncAttributeMaxDynamicSharedMemorySize
	ReservedSharedPerBlock int   // shared memory the driver reserves per block (sm_80+)
	SharedAllocUnit        int   // shared memory allocation granularity in bytes
	Carveouts              []int // supported shared-memory carveouts in bytes, ascending

	L1SharedBytes int // unified L1 data cache + shared memory per SM in bytes
	L2Bytes       int // L2 cache of the reference part in bytes
	LineBytes     int // cache line size (L1 and L2)
	SectorBytes   int // sector size (L1 and L2)
	L2FetchBytes  int // bytes an L2 miss reads from DRAM (aligned; 32 = one sector)
	L2Partitions  int // L2 partitions joined by a fabric (0 or 1: one L2; 2: mem.DefaultL2Partitioning)

	ClockMHz        int     // boost clock of the reference part
	MemBandwidthGBs float64 // DRAM bandwidth of the reference part in GB/s
}

// L1Bytes returns the L1 data cache capacity left when carveout bytes of the
// unified array are shared memory; never negative.
func (s *Spec) L1Bytes(carveout int) int {
	if l1 := s.L1SharedBytes - carveout; l1 > 0 {
		return l1
	}
	return 0
}

// AlignCarveout returns the smallest supported carveout that holds bytes of
// shared memory, as cudaOccAlignUpShmemSizeVoltaPlus does; ok is false when
// none is large enough.
func (s *Spec) AlignCarveout(bytes int) (carveout int, ok bool) {
	for _, c := range s.Carveouts {
		if c >= bytes {
			return c, true
		}
	}
	return 0, false
}

// clone returns a deep copy so that callers can never modify the database.
func (s *Spec) clone() *Spec {
	c := *s
	c.Carveouts = append([]int(nil), s.Carveouts...)
	return &c
}

// KB is one kibibyte.
const KB = 1024

// MB is one mebibyte.
const MB = 1024 * KB

// Lookup returns the specification for an architecture name such as "sm_90",
// "sm_90a", "compute_90", "90" or "9.0". The result is a fresh copy.
func Lookup(name string) (*Spec, error) {
	base := canonical(name)
	for i := range specs {
		if specs[i].Name == base {
			return specs[i].clone(), nil
		}
	}
	return nil, fmt.Errorf("arch: unknown architecture %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// Names returns the canonical names of all known architectures, in ascending order.
func Names() []string {
	out := make([]string, 0, len(specs))
	for i := range specs {
		out = append(out, specs[i].Name)
	}
	sort.Slice(out, func(i, j int) bool { return order(out[i]) < order(out[j]) })
	return out
}

// canonical maps the accepted spellings of an architecture to "sm_NN".
func canonical(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range []string{"sm_", "compute_", "sm", "cc"} {
		if strings.HasPrefix(n, p) {
			n = n[len(p):]
			break
		}
	}
	if i := strings.IndexByte(n, '.'); i > 0 {
		n = n[:i] + n[i+1:]
	}
	// Feature-specific suffixes (sm_90a, sm_100f) share the base resources.
	n = strings.TrimRight(n, "abcdefghijklmnopqrstuvwxyz")
	return "sm_" + n
}

// order returns a numeric sort key for a canonical name.
func order(name string) int {
	v := 0
	for _, r := range strings.TrimPrefix(name, "sm_") {
		if r < '0' || r > '9' {
			break
		}
		v = v*10 + int(r-'0')
	}
	return v
}
