package report

// Finding is one problem found by the correctness checks (DESIGN.md "sanitizer").
type Finding struct {
	Kind          string  `json:"kind"`  // race, uninitialized, barrier_divergence, warp_sync, order_dependence
	Space         string  `json:"space"` // shared, global, local; "" for synchronisation findings
	CUDALine      int     `json:"cuda_line"`
	PTXLine       int     `json:"ptx_line"`
	OtherCUDALine int     `json:"other_cuda_line"` // the other access or instruction; 0 when none
	OtherPTXLine  int     `json:"other_ptx_line"`
	Block         [3]int  `json:"block"`
	Thread        [3]int  `json:"thread"`
	OtherBlock    [3]int  `json:"other_block"`
	OtherThread   *[3]int `json:"other_thread"`           // null when there is no second thread
	Access        string  `json:"access,omitempty"`       // read, write, atomic
	OtherAccess   string  `json:"other_access,omitempty"` // read, write, atomic
	Address       uint64  `json:"address"`                // shared/local: offset in the space; global: device address
	Variable      string  `json:"variable"`               // "s[17]", "out[5]" where known
	Count         int     `json:"count"`                  // occurrences merged into this finding
	Message       string  `json:"message"`                // the whole story in words, with lines
	// CUDAFile and OtherCUDAFile name a Source (sources.go) when CUDALine or
	// OtherCUDALine is a line of a local header or kept definition, not the main source's.
	CUDAFile      string `json:"cuda_file,omitempty"`
	OtherCUDAFile string `json:"other_cuda_file,omitempty"`
	// Severity is "error", or "warning" for a hazard compute-sanitizer also
	// reports as a warning (volatile warp-synchronous code).
	Severity string `json:"severity"`
}

// Expectation is the outcome of one %expect line (DESIGN.md "expectations").
type Expectation struct {
	Text    string `json:"text"`
	Passed  bool   `json:"passed"`
	Message string `json:"message"` // why it failed (first failing index and values), or a summary
}
