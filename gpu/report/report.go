// Package report defines the Report: the plain, JSON-serialisable result of
// analysing one launch. It is the contract between the engine (gpu/analysis,
// gpu/hints) and every presentation (render, the command line, other tools).
package report

// Report is the contract between the engine and every presentation (HTML,
// text, JSON). The JSON names are stable (docs/design.md): add fields, rename none.
type Report struct {
	Kernel    string     `json:"kernel"`
	Arch      string     `json:"arch"`
	Grid      [3]int     `json:"grid"`
	Block     [3]int     `json:"block"`
	Toolchain string     `json:"toolchain"`
	Stats     Stats      `json:"stats"`
	Memory    *Memory    `json:"memory,omitempty"`
	Occupancy *Occupancy `json:"occupancy,omitempty"`
	Timing    *Timing    `json:"timing,omitempty"`
	Hints     []Hint     `json:"hints"`
	Errors    []Error    `json:"errors"`
	// Correctness (sanitizer.go): the checks that ran, what they found, the expectations.
	Checks       []string      `json:"checks,omitempty"`
	Sanitizer    []Finding     `json:"sanitizer,omitempty"`
	Expectations []Expectation `json:"expectations,omitempty"`

	// Everything below is for the views; tools may read it too.
	Name          string          `json:"name,omitempty"`        // %name of this report
	SourceFile    string          `json:"source_file,omitempty"` // "cell.cu" or the file given to `run`
	Source        string          `json:"source,omitempty"`      // CUDA source ("" for PTX input)
	Sources       []Source        `json:"sources,omitempty"`     // other user sources whose code ran: local headers, kept definitions (sources.go)
	PTX           string          `json:"ptx"`
	SASS          string          `json:"sass,omitempty"`
	ResUsage      string          `json:"res_usage,omitempty"` // cuobjdump -res-usage output when nvcc ran
	Kernels       []KernelInfo    `json:"kernels"`
	Registers     RegInfo         `json:"registers"`
	SharedStatic  int             `json:"shared_static_bytes"`
	SharedDynamic int             `json:"shared_dynamic_bytes"`
	LocalBytes    int             `json:"local_bytes_per_thread"`
	Args          []ArgInfo       `json:"args,omitempty"`
	Symbols       []ArgInfo       `json:"symbols,omitempty"` // __constant__ / __device__ variables the launch set (%symbol)
	Outputs       []Output        `json:"outputs,omitempty"`
	Stdout        string          `json:"stdout,omitempty"` // what device printf wrote
	Stderr        string          `json:"stderr,omitempty"` // what CUDA's driver would write to stderr: failed device asserts
	Lines         []LineStat      `json:"lines,omitempty"`  // per PTX line of the launched kernel
	Trace         *Trace          `json:"trace,omitempty"`
	Notes         []string        `json:"notes,omitempty"` // choices made automatically, limits of the model
	Simulated     bool            `json:"simulated"`       // false when only compiled/parsed
	Sections      map[string]bool `json:"-"`               // section -> shown (from %show/%hide)
}

// Stats are launch totals (docs/design.md "stats").
type Stats struct {
	WarpInstructions   int64 `json:"warp_instructions"`
	ThreadInstructions int64 `json:"thread_instructions"`
	Cycles             int64 `json:"cycles"`
	Branches           int64 `json:"branches"`
	DivergentBranches  int64 `json:"divergent_branches"`
	Blocks             int   `json:"blocks"`
	WarpsPerBlock      int   `json:"warps_per_block"`
	SimMillis          int64 `json:"sim_ms"`
	// SASSInstructions is the warp-level SASS instructions the launch is modelled to issue
	// (what Nsight Compute's smsp__inst_executed.sum counts); SASSSource says how (gpu/ptxas:
	// "modelled ptxas lowering" or "from SASS"); SASSPipes splits it per pipe.
	SASSInstructions int64            `json:"sass_instructions,omitempty"`
	SASSSource       string           `json:"sass_source,omitempty"`
	SASSPipes        map[string]int64 `json:"sass_pipes,omitempty"`
}

// Memory holds memory counters named after Nsight Compute's metrics.
type Memory struct {
	GlobalLoadRequests       int64            `json:"global_load_requests"`
	GlobalLoadSectors        int64            `json:"global_load_sectors"`
	GlobalStoreRequests      int64            `json:"global_store_requests"`
	GlobalStoreSectors       int64            `json:"global_store_sectors"`
	SharedLoadWavefronts     int64            `json:"shared_load_wavefronts"`
	SharedStoreWavefronts    int64            `json:"shared_store_wavefronts"`
	SharedLoadBankConflicts  int64            `json:"shared_load_bank_conflicts"`
	SharedStoreBankConflicts int64            `json:"shared_store_bank_conflicts"`
	L1HitRate                float64          `json:"l1_hit_rate"`
	L2HitRate                float64          `json:"l2_hit_rate"`
	Instructions             []MemInstruction `json:"instructions"`
	// Counting says how accesses became counted instructions: "modelled ptxas merging" or
	// "from SASS" (adjacent accesses ptxas merges into one LDS.64/128 count once);
	// MergedAccesses is the warp accesses folded into a merged leader.
	Counting       string `json:"counting,omitempty"`
	MergedAccesses int64  `json:"merged_accesses,omitempty"`
	// HitRates: the time-aware caches' sector hit rates, when the timing model ran them
	// (L1HitRate and L2HitRate above are the functional-order caches').
	HitRates *HitRates `json:"hit_rates,omitempty"`
}

// HitRates are the sector hit rates (0..1) the time-aware caches gave, counted as Nsight
// Compute's l1tex__t_sector_hit_rate and lts__t_sector_hit_rate count them: an L1 lookup of a
// sector in flight is a hit, an L2 lookup of a sector a fetch brought along is a miss.
type HitRates struct {
	L1 float64 `json:"l1"`
	L2 float64 `json:"l2"`
	// Source says what produced them ("modelled: time-aware caches, issue order").
	Source string `json:"source"`
}

// MemInstruction is the traffic of one memory instruction over the launch.
type MemInstruction struct {
	PTXLine         int    `json:"ptx_line"`
	CUDALine        int    `json:"cuda_line"`           // a line of CUDAFile, or of the main source when that is ""
	CUDAFile        string `json:"cuda_file,omitempty"` // a Source's File when the line is not the main source's
	Space           string `json:"space"`
	Op              string `json:"op"`
	WidthBits       int    `json:"width_bits"`
	Requests        int64  `json:"requests"`
	Sectors         int64  `json:"sectors"`
	IdealSectors    int64  `json:"ideal_sectors"`
	Wavefronts      int64  `json:"wavefronts"`
	IdealWavefronts int64  `json:"ideal_wavefronts"`
	L1Hits          int64  `json:"l1_hits"`
	L2Hits          int64  `json:"l2_hits"`
	Executions      int64  `json:"executions"`
	UniformLoads    int64  `json:"uniform_loads,omitempty"`    // executions in which 2+ lanes all read one address
	AtomicLanes     int64  `json:"atomic_lanes,omitempty"`     // lanes of atomic executions
	AtomicAddresses int64  `json:"atomic_addresses,omitempty"` // distinct addresses they updated
	Text            string `json:"text,omitempty"`             // the PTX instruction
}

// Occupancy is the theoretical occupancy of the launch.
type Occupancy struct {
	ActiveBlocksPerSM   int            `json:"active_blocks_per_sm"`
	OccupancyPct        float64        `json:"occupancy_pct"`
	LimitingFactors     []string       `json:"limiting_factors"`
	RegistersPerThread  int            `json:"registers_per_thread"`
	SharedBytesPerBlock int            `json:"shared_bytes_per_block"`
	Limits              map[string]int `json:"limits,omitempty"`
	Charts              []Chart        `json:"-"`
}

// Chart is a rendered chart (SVG with embedded fonts and PNG).
type Chart struct {
	ID    string // "occupancy_block_size", "stalls", "timeline", ...
	Title string
	SVG   []byte
	PNG   []byte
}

// Timing is the output of the timing model.
type Timing struct {
	Cycles       int64              `json:"cycles"`        // KernelCycles + LaunchCycles - LaunchHiddenCycles
	KernelCycles int64              `json:"kernel_cycles"` // the cycle-level model's time for the instructions
	LaunchCycles int64              `json:"launch_cycles"` // launch overhead: an empty kernel's cycles for this grid, measured on the H200
	Stalls       map[string]int64   `json:"stalls"`        // warp-cycles per state (Nsight Compute's names)
	PerIssue     map[string]float64 `json:"per_issue"`     // the same per issued instruction (ncu's ..._per_issue_active ratios)
	Issued       int64              `json:"issued"`
	Pipes        map[string]int64   `json:"pipes"`       // busy cycles per pipe, summed over sub-partitions
	PipeColors   map[string]string  `json:"pipe_colors"` // display colour of each pipe
	Timelines    []WarpTimeline     `json:"timelines,omitempty"`
	Modelled     string             `json:"modelled,omitempty"`
	// Sampled launches (gpu/analysis sample.go): the blocks the model was fed,
	// the launch's blocks and the estimated error of the extrapolated cycles.
	SampledBlocks  int     `json:"sampled_blocks,omitempty"`
	TotalBlocks    int     `json:"total_blocks,omitempty"`
	SampleErrorPct float64 `json:"sample_error_pct,omitempty"`
	// Path is how the model was fed: "interleaved" (execution-driven: the
	// simulator executed each instruction when the model issued it) or
	// "replay" (trace-driven: blocks simulated to completion, then replayed);
	// PathReason says why that path was chosen.
	Path       string `json:"path,omitempty"`
	PathReason string `json:"path_reason,omitempty"`

	// LaunchHiddenCycles is the part of LaunchCycles the kernel hides (the
	// dispatch of blocks beyond 1056 overlaps the earlier blocks' work).
	LaunchHiddenCycles int64 `json:"launch_hidden_cycles,omitempty"`

	// Stream is the instruction stream the model issued: "sass" (each PTX instruction as
	// the SASS instructions gpu/ptxas gives it, the default) or "ptx" (one issue per PTX
	// instruction, %timing on ptx); StreamSource says where the SASS came from ("from SASS":
	// the nvdisasm listing of the nvcc build, or "modelled ptxas lowering").
	Stream       string `json:"stream,omitempty"`
	StreamSource string `json:"stream_source,omitempty"`
}

// WarpTimeline is one warp's issue and stall intervals.
type WarpTimeline struct {
	Block        int        `json:"block"`
	Warp         int        `json:"warp"`
	SM           int        `json:"sm"`
	SubPartition int        `json:"subpartition"`
	Truncated    bool       `json:"truncated,omitempty"`
	Intervals    []Interval `json:"intervals"`
}

// Interval is a stretch of cycles a warp spent in one state.
type Interval struct {
	Start int64  `json:"start"`
	End   int64  `json:"end"`
	State string `json:"state"`
}

// Hint is one piece of advice pinned to a line.
type Hint struct {
	Severity string `json:"severity"` // info, warning, critical
	Category string `json:"category"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Evidence string `json:"evidence,omitempty"`
	Gain     string `json:"gain,omitempty"` // estimated gain if fixed
	CUDALine int    `json:"cuda_line"`
	PTXLine  int    `json:"ptx_line"`
	CUDAFile string `json:"cuda_file,omitempty"` // a Source's File when CUDALine is not the main source's
	// GainCycles is the estimated kernel cycles a fix saves (gpu/hints says how); 0 when not estimated.
	GainCycles int64 `json:"gain_cycles,omitempty"`
	// GainPct is GainCycles as a percentage of the timing model's kernel cycles.
	GainPct float64 `json:"gain_pct,omitempty"`
	// CUDALines and PTXLines list every line of the one cause the hint covers (CUDALine/PTXLine is the first).
	CUDALines []int `json:"cuda_lines,omitempty"`
	PTXLines  []int `json:"ptx_lines,omitempty"`
}

// Error is a failure that ended the cell, located as precisely as known.
type Error struct {
	Kind     string  `json:"kind"` // compile, magic, ptx, launch, out_of_bounds, deadlock, budget, interrupted, ...
	Message  string  `json:"message"`
	CUDALine int     `json:"cuda_line,omitempty"`
	PTXLine  int     `json:"ptx_line,omitempty"`
	Col      int     `json:"col,omitempty"`
	Block    *[3]int `json:"block,omitempty"`
	Thread   *[3]int `json:"thread,omitempty"`
}

// KernelInfo describes one kernel of the module (also `parse --json`).
type KernelInfo struct {
	Name               string      `json:"name"`
	Params             []ParamInfo `json:"params"`
	Instructions       int         `json:"instructions"`
	RegistersEstimated int         `json:"registers_estimated"`
	RegistersPTXAS     *int        `json:"registers_ptxas"`
	SharedStatic       int         `json:"shared_static_bytes"`
}

// ParamInfo is one kernel parameter.
type ParamInfo struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// RegInfo says how many registers per thread the report uses and where the figure came from.
type RegInfo struct {
	PerThread int    `json:"per_thread"`
	Source    string `json:"source"` // "ptxas" or "estimated from PTX liveness"
}

// ArgInfo is one launch argument as it was chosen.
type ArgInfo struct {
	Name    string `json:"name"`
	Type    string `json:"type"` // element type for buffers ("f32"), scalar type otherwise
	Buffer  bool   `json:"buffer"`
	Count   int    `json:"count,omitempty"` // elements
	Init    string `json:"init"`            // "rand(1000)", "1000", ...
	Auto    bool   `json:"auto"`            // chosen automatically
	Address uint64 `json:"address,omitempty"`
}

// Output is one buffer after the launch.
type Output struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Count    int      `json:"count"`
	First    []string `json:"first"`    // the first elements, formatted
	Checksum string   `json:"checksum"` // FNV-1a 64 of the bytes
	Sum      float64  `json:"sum"`
	Changed  int      `json:"changed"`          // elements that differ from the input
	Symbol   string   `json:"symbol,omitempty"` // "const" or "global" for a __constant__ / __device__ variable, "" for a buffer argument
	Bytes    []byte   `json:"-"`
}

// LineStat are the per-PTX-line counters of the Source view.
type LineStat struct {
	PTXLine           int    `json:"ptx_line"`
	CUDALine          int    `json:"cuda_line"`           // a line of CUDAFile, or of the main source when that is ""
	CUDAFile          string `json:"cuda_file,omitempty"` // a Source's File when the line is not the main source's
	WarpExecs         int64  `json:"warp_execs"`
	ThreadExecs       int64  `json:"thread_execs"`
	Branches          int64  `json:"branches,omitempty"`
	DivergentBranches int64  `json:"divergent_branches,omitempty"`
	Requests          int64  `json:"requests,omitempty"`
	Sectors           int64  `json:"sectors,omitempty"`
	IdealSectors      int64  `json:"ideal_sectors,omitempty"`
	Wavefronts        int64  `json:"wavefronts,omitempty"`
	IdealWavefronts   int64  `json:"ideal_wavefronts,omitempty"`
	StallCycles       int64  `json:"stall_cycles,omitempty"`
	// Stalls are the warp-cycles spent waiting to issue this line, per state
	// (Nsight Compute\'s names; "selected" excluded).
	Stalls map[string]int64 `json:"stalls,omitempty"`
}

// Trace is what the stepping widget shows: recorded warp instructions.
type Trace struct {
	Block     int         `json:"block"`
	Warps     []int       `json:"warps"`
	Truncated bool        `json:"truncated"`
	Steps     []TraceStep `json:"steps"`
}

// TraceStep is one executed warp instruction.
type TraceStep struct {
	Warp     int          `json:"w"`
	PC       int          `json:"pc"`
	PTXLine  int          `json:"pl"`
	CUDALine int          `json:"cl"`
	CUDAFile string       `json:"cf,omitempty"` // a Source's File when CUDALine is not the main source's
	Active   uint32       `json:"m"`
	Exited   uint32       `json:"x"`
	Text     string       `json:"t"`
	Writes   []TraceWrite `json:"wr,omitempty"`
	Mem      *TraceMem    `json:"mem,omitempty"`
	Stack    []StackEntry `json:"st,omitempty"`
	Event    string       `json:"ev,omitempty"`
}

// TraceWrite is one register written by a step, with every lane's value.
type TraceWrite struct {
	Reg    string   `json:"r"`
	Values []string `json:"v"` // 32 lanes, formatted for the register's type
}

// TraceMem is the memory side of a step: each lane's address and its bank or sector.
type TraceMem struct {
	Space      string   `json:"sp"`
	Bytes      int      `json:"b"`
	Addr       []string `json:"a"`
	Unit       []int    `json:"u"` // bank (shared) or sector index (global), -1 for inactive lanes
	Wavefronts int      `json:"wf,omitempty"`
	Sectors    int      `json:"sec,omitempty"`
	Ideal      int      `json:"ideal,omitempty"`
	// Cache outcome in sectors (global and local accesses).
	Cached   bool `json:"cached,omitempty"`
	L1Hits   int  `json:"l1h,omitempty"`
	L1Misses int  `json:"l1m,omitempty"`
	L2Hits   int  `json:"l2h,omitempty"`
	L2Misses int  `json:"l2m,omitempty"`
}

// StackEntry is one SIMT-stack entry: lanes in Mask run from PC (PTX line
// Line) until they reach Reconv (PTX line ReconvLine), where they meet the
// lanes of the entries below.
type StackEntry struct {
	PC         int    `json:"pc"`
	Line       int    `json:"pl"`
	Reconv     int    `json:"r"` // reconvergence PC (-1 = exit)
	ReconvLine int    `json:"l"` // its PTX line
	Mask       uint32 `json:"m"`
}
