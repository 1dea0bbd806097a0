package magics

import (
	"fmt"
	"strconv"
	"strings"
)

// Sandbox mode (a kernel started with --sandbox, for graders and hubs) refuses
// %flags and %compiler and caps %budget and %trace; the analysis pipeline
// applies the same caps (gpu/analysis/limits.go) and confines file() and #include.
const (
	// SandboxMaxBudget is the largest %budget in sandbox mode (analysis.SandboxMaxBudget).
	SandboxMaxBudget = 10_000_000_000
	// SandboxMaxTraceSteps is the largest %trace steps= in sandbox mode (analysis.SandboxMaxTraceSteps).
	SandboxMaxTraceSteps = 100_000
)

// SetSandbox turns sandbox mode on or off for the cells that follow.
func (s *State) SetSandbox(on bool) { s.sandbox = on }

// Sandbox reports whether sandbox mode is on.
func (s *State) Sandbox() bool { return s.sandbox }

// sandboxRefuses refuses, in sandbox mode, the magics that choose the compiler or its flags.
func (s *State) sandboxRefuses(n int, line string) error {
	if !s.sandbox {
		return nil
	}
	name := line
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		name = line[:i]
	}
	switch name {
	case "%flags", "%compiler":
		return &Error{Line: n, Magic: name, Msg: "refused in sandbox mode (the kernel was started with --sandbox): the compiler and its flags are fixed"}
	}
	return nil
}

// lastMagicLine is the 1-based line of the last of the named magics in the cell, 0 if none.
func lastMagicLine(lines []string, names ...string) (int, string) {
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		for _, n := range names {
			if t == n || strings.HasPrefix(t, n+" ") || strings.HasPrefix(t, n+"\t") {
				return i + 1, n
			}
		}
	}
	return 0, ""
}

// checkLimits checks the settings a cell leaves in force together: the grid
// times the block (one thread when automatic) cannot exceed the budget, since
// every thread executes at least one instruction; in sandbox mode the budget
// and the trace have hard caps. The error is at the cell's magic that set them.
func (s *State) checkLimits(lines []string, d defaults) error {
	if s.sandbox && d.budget > SandboxMaxBudget {
		n, _ := lastMagicLine(lines, "%budget")
		return &Error{Line: n, Magic: "%budget", Msg: fmt.Sprintf("%d thread-instructions is more than the 1e10 sandbox mode allows", d.budget)}
	}
	if s.sandbox && d.trace.Steps > SandboxMaxTraceSteps {
		n, _ := lastMagicLine(lines, "%trace")
		return &Error{Line: n, Magic: "%trace", Msg: fmt.Sprintf("steps=%d is more than the %d sandbox mode allows", d.trace.Steps, SandboxMaxTraceSteps)}
	}
	if d.grid == [3]int{} {
		return nil
	}
	perBlock := 1.0
	if d.block != [3]int{} {
		perBlock = float64(d.block[0] * d.block[1] * d.block[2])
	}
	blocks := float64(d.grid[0]) * float64(d.grid[1]) * float64(d.grid[2])
	if threads := blocks * perBlock; threads > float64(d.budget) {
		n, magic := lastMagicLine(lines, "%grid", "%block", "%budget", "%launch")
		if magic == "" {
			magic = "%grid"
		}
		what := fmt.Sprintf("%s threads", countString(threads))
		if d.block == [3]int{} {
			what = fmt.Sprintf("%s blocks (at least one thread each)", countString(blocks))
		}
		return &Error{Line: n, Magic: magic, Msg: fmt.Sprintf("grid %dx%dx%d is too large: %s, and every thread executes at least one instruction, "+
			"so the launch cannot fit the budget of %d thread-instructions (set a smaller %%grid or a larger %%budget)",
			d.grid[0], d.grid[1], d.grid[2], what, d.budget)}
	}
	return nil
}

// countString writes a count exactly when it is small enough, else in e-notation.
func countString(v float64) string {
	if v < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
