package mem

import (
	"cmp"
	"math/bits"
	"slices"
)

// String returns the space's name as the report spells it.
func (s Space) String() string {
	switch s {
	case Global:
		return "global"
	case Shared:
		return "shared"
	case Local:
		return "local"
	case Const:
		return "const"
	case Param:
		return "param"
	}
	return "unknown"
}

// String returns the PTX mnemonic of the kind.
func (k Kind) String() string {
	switch k {
	case Load:
		return "ld"
	case Store:
		return "st"
	case Atomic:
		return "atom"
	case Reduction:
		return "red"
	}
	return "unknown"
}

// numSpaces is the number of Space values a Counter keys rows by.
const numSpaces = int(Param) + 1

// InstStats aggregates every execution of one memory instruction (PC) in one space.
type InstStats struct {
	PC              int    `json:"pc"`               // instruction index in its function (Access.PC)
	PTXLine         int    `json:"ptx_line"`         // PTX source line
	CUDALine        int    `json:"cuda_line"`        // 0 when unknown; see ReportWithLines
	Space           string `json:"space"`            // "global", "shared", "local", "const" or "param"
	Op              string `json:"op"`               // "ld", "st", "atom" or "red"
	WidthBits       int    `json:"width_bits"`       // bits per lane, vector width included
	Executions      int    `json:"executions"`       // warp-level executions
	Requests        int    `json:"requests"`         // global/local requests (one per execution)
	Sectors         int    `json:"sectors"`          // 32-byte sectors touched
	IdealSectors    int    `json:"ideal_sectors"`    // fewest sectors that could hold the data
	Lines           int    `json:"lines"`            // 128-byte lines touched, summed over executions
	Wavefronts      int    `json:"wavefronts"`       // shared-memory wavefronts
	IdealWavefronts int    `json:"ideal_wavefronts"` // wavefronts without bank conflicts
	BankConflicts   int    `json:"bank_conflicts"`   // Wavefronts - IdealWavefronts
	L1Hits          int    `json:"l1_hits"`          // sectors that hit in L1
	L1Misses        int    `json:"l1_misses"`        // sectors that missed in L1
	L2Hits          int    `json:"l2_hits"`          // sectors that hit in L2
	L2Misses        int    `json:"l2_misses"`        // sectors that missed in L2
	DRAMSectors     int    `json:"dram_sectors"`     // sectors read from DRAM
	UniformLoads    int    `json:"uniform_loads"`    // load executions where 2+ lanes all read one address
	AtomicLanes     int    `json:"atomic_lanes"`     // lanes taking part in atomic executions
	AtomicAddresses int    `json:"atomic_addresses"` // distinct addresses of those executions (lanes/addresses = contention)
}

// Totals are the kernel-wide memory counters, named after Nsight Compute's metrics
// (global_load_sectors is l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum, ...).
type Totals struct {
	GlobalLoadRequests       int     `json:"global_load_requests"`        // l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
	GlobalLoadSectors        int     `json:"global_load_sectors"`         // l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
	GlobalStoreRequests      int     `json:"global_store_requests"`       // l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
	GlobalStoreSectors       int     `json:"global_store_sectors"`        // l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
	GlobalAtomRequests       int     `json:"global_atom_requests"`        // l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
	GlobalRedRequests        int     `json:"global_red_requests"`         // l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
	SharedLoadWavefronts     int     `json:"shared_load_wavefronts"`      // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
	SharedStoreWavefronts    int     `json:"shared_store_wavefronts"`     // l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
	SharedLoadBankConflicts  int     `json:"shared_load_bank_conflicts"`  // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
	SharedStoreBankConflicts int     `json:"shared_store_bank_conflicts"` // l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
	SharedAtomWavefronts     int     `json:"shared_atom_wavefronts"`      // wavefronts of shared atomics and reductions (modelled)
	SharedLoadInstructions   int     `json:"shared_load_instructions"`    // smsp__sass_inst_executed_op_shared_ld.sum
	SharedStoreInstructions  int     `json:"shared_store_instructions"`   // smsp__sass_inst_executed_op_shared_st.sum
	LocalLoadRequests        int     `json:"local_load_requests"`         // local load requests
	LocalLoadSectors         int     `json:"local_load_sectors"`          // local load sectors (interleaved layout)
	LocalStoreRequests       int     `json:"local_store_requests"`        // local store requests
	LocalStoreSectors        int     `json:"local_store_sectors"`         // local store sectors (interleaved layout)
	DRAMReadSectors          int     `json:"dram_read_sectors"`           // sectors read from DRAM
	DRAMWriteSectors         int     `json:"dram_write_sectors"`          // sectors written to DRAM so far (see Hierarchy.Flush)
	L1HitRate                float64 `json:"l1_hit_rate"`                 // L1 sector hits / L1 lookups, 0..1
	L2HitRate                float64 `json:"l2_hit_rate"`                 // L2 sector hits / L2 lookups, 0..1
}

// Report is the memory section of a run: totals plus one row per instruction.
type Report struct {
	Totals
	Instructions []InstStats `json:"instructions"` // one row per instruction and space, by PTX line
}

// Counter aggregates warp accesses per instruction and in total. Plug Observe
// into the simulator's OnMemory. It is not safe for concurrent use.
type Counter struct {
	h      *Hierarchy
	rows   []InstStats
	index  []int32       // PC*numSpaces+space -> row+1, for small PCs
	far    map[int]int32 // the same for PCs beyond maxDensePC
	totals Totals
	buf    sectorBuf
	tmp    Access
}

// maxDensePC bounds the PCs indexed by slice; larger ones go to a map.
const maxDensePC = 1 << 20

// NewCounter returns a Counter; h may be nil to count without caches.
func NewCounter(h *Hierarchy) *Counter { return &Counter{h: h} }

// Observe counts one warp-level memory instruction. It allocates only when it
// first sees an instruction.
func (c *Counter) Observe(a *Access) { c.Record(a) }

// Record is Observe that also returns what the caches did for this access
// (for the trace: a hit or miss per access); for shared memory only the
// wavefronts, so that the timing model need not count them again; zero for
// const and param.
func (c *Counter) Record(a *Access) (o Outcome) {
	if a == nil || a.Mask == 0 {
		return o
	}
	row := c.row(a)
	row.Executions++
	switch a.Kind {
	case Load:
		if uniformAddress(a) {
			row.UniformLoads++
		}
	case Atomic, Reduction:
		row.AtomicLanes += bits.OnesCount32(a.Mask)
		row.AtomicAddresses += distinctAddresses(a)
	}
	t := &c.totals
	switch a.Space {
	case Global, Local:
		src := a
		if a.Space == Local { // count what the interleaved layout really touches
			toPhysical(a, &c.tmp)
			src = &c.tmp
		}
		secs := collectSectors(src, &c.buf)
		req, ideal := 1, idealSectorsFor(src)
		sec, lines := countSectorsLines(secs)
		row.Requests += req
		row.Sectors += sec
		row.IdealSectors += ideal
		row.Lines += lines
		if c.h != nil && (a.Space == Global || a.Space == Local) {
			if a.Kind == Store {
				c.h.coverage(src, secs)
			}
			o = c.h.access(a, secs)
			row.L1Hits += o.L1Hits
			row.L1Misses += o.L1Misses
			row.L2Hits += o.L2Hits
			row.L2Misses += o.L2Misses
			row.DRAMSectors += o.DRAMReads
		}
		if a.Space == Local {
			switch a.Kind {
			case Load:
				t.LocalLoadRequests += req
				t.LocalLoadSectors += sec
			case Store:
				t.LocalStoreRequests += req
				t.LocalStoreSectors += sec
			}
			return o
		}
		switch a.Kind {
		case Load:
			t.GlobalLoadRequests += req
			t.GlobalLoadSectors += sec
		case Store:
			t.GlobalStoreRequests += req
			t.GlobalStoreSectors += sec
		case Atomic:
			t.GlobalAtomRequests += req
		case Reduction:
			t.GlobalRedRequests += req
		}
	case Shared:
		w, ideal := SharedWavefronts(a)
		o.Wavefronts = w
		row.Wavefronts += w
		row.IdealWavefronts += ideal
		row.BankConflicts += w - ideal
		switch a.Kind {
		case Load:
			t.SharedLoadWavefronts += w
			t.SharedLoadBankConflicts += w - ideal
			t.SharedLoadInstructions++
		case Store:
			t.SharedStoreWavefronts += w
			t.SharedStoreBankConflicts += w - ideal
			t.SharedStoreInstructions++
		default:
			t.SharedAtomWavefronts += w
		}
	}
	return o
}

// uniformAddress reports whether two or more lanes took part and all used one address.
func uniformAddress(a *Access) bool {
	if bits.OnesCount32(a.Mask) < 2 {
		return false
	}
	first := a.Addr[bits.TrailingZeros32(a.Mask)]
	for m := a.Mask; m != 0; m &= m - 1 {
		if a.Addr[bits.TrailingZeros32(m)] != first {
			return false
		}
	}
	return true
}

// distinctAddresses counts the different addresses the active lanes used.
func distinctAddresses(a *Access) int {
	n := 0
	for m := a.Mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		seen := false
		for p := a.Mask & (1<<uint(l) - 1); p != 0; p &= p - 1 {
			if a.Addr[bits.TrailingZeros32(p)] == a.Addr[l] {
				seen = true
				break
			}
		}
		if !seen {
			n++
		}
	}
	return n
}

// row returns the stats row for a's instruction and space, creating it once.
// Rows are keyed by PTX line and kind when there is a line (PCs count from 0
// in every function, so kernel and device-function PCs collide; a line holds
// one instruction in all but hand-packed PTX), else by PC.
func (c *Counter) row(a *Access) *InstStats {
	sp := int(a.Space)
	if sp >= numSpaces {
		sp = numSpaces - 1
	}
	pc := max(a.PC, 0)
	if a.Line > 0 {
		pc = a.Line*4 + int(a.Kind&3)
	}
	key := pc*numSpaces + sp
	if pc < maxDensePC {
		if key >= len(c.index) {
			c.index = append(c.index, make([]int32, key+1-len(c.index))...)
		}
		if i := c.index[key]; i > 0 {
			return &c.rows[i-1]
		}
	} else if i := c.far[key]; i > 0 {
		return &c.rows[i-1]
	}
	c.rows = append(c.rows, InstStats{PC: max(a.PC, 0), PTXLine: a.Line, Space: a.Space.String(), Op: a.Kind.String(), WidthBits: a.Bytes * 8})
	if pc < maxDensePC {
		c.index[key] = int32(len(c.rows))
	} else {
		if c.far == nil {
			c.far = map[int]int32{}
		}
		c.far[key] = int32(len(c.rows))
	}
	return &c.rows[len(c.rows)-1]
}

// Totals returns the kernel-wide counters, with hit rates from the hierarchy.
func (c *Counter) Totals() Totals {
	t := c.totals
	if c.h != nil {
		o := c.h.Totals()
		t.DRAMReadSectors, t.DRAMWriteSectors = o.DRAMReads, o.DRAMWrites
		t.L1HitRate, t.L2HitRate = c.h.L1HitRate(), c.h.L2HitRate()
	}
	return t
}

// Instructions returns a copy of the per-instruction rows ordered by PTX line, then PC and space.
func (c *Counter) Instructions() []InstStats {
	out := slices.Clone(c.rows)
	slices.SortFunc(out, func(a, b InstStats) int {
		return cmp.Or(cmp.Compare(a.PTXLine, b.PTXLine), cmp.Compare(a.PC, b.PC), cmp.Compare(a.Space, b.Space))
	})
	return out
}

// Report returns totals and rows, ready for JSON (instructions never null).
func (c *Counter) Report() Report {
	r := Report{Totals: c.Totals(), Instructions: c.Instructions()}
	if r.Instructions == nil {
		r.Instructions = []InstStats{}
	}
	return r
}

// ReportWithLines is Report with each row's cuda_line filled from cudaLine
// (a PTX line -> CUDA line map, e.g. from the PTX .loc directives).
func (c *Counter) ReportWithLines(cudaLine func(ptxLine int) int) Report {
	r := c.Report()
	if cudaLine != nil {
		for i := range r.Instructions {
			r.Instructions[i].CUDALine = cudaLine(r.Instructions[i].PTXLine)
		}
	}
	return r
}

// Excess returns how far a row is from ideal: extra sectors for global and
// local rows, bank-conflict wavefronts for shared rows (for worst-first tables).
func (s InstStats) Excess() int {
	if s.Space == "shared" {
		return s.Wavefronts - s.IdealWavefronts
	}
	return s.Sectors - s.IdealSectors
}
