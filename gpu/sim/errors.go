package sim

import (
	"fmt"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// ErrorKind classifies a launch error.
type ErrorKind uint8

// The kinds of launch errors.
const (
	OutOfBounds      ErrorKind = iota + 1 // global, local, const or param access outside any allocation
	Misaligned                            // address not a multiple of the access size
	SharedOutOfRange                      // shared access beyond the block's allocation
	Trap                                  // trap instruction or an invalid operation (bad brx.idx index, stack overflow)
	Deadlock                              // a barrier that can never complete
	Budget                                // thread-instruction budget exhausted
	Interrupted                           // context cancelled
	Unsupported                           // an instruction the simulator does not implement
	InvalidLaunch                         // bad configuration or arguments
	Internal                              // a bug in the simulator, trapped
)

var kindNames = [...]string{
	OutOfBounds: "out-of-bounds", Misaligned: "misaligned", SharedOutOfRange: "shared-out-of-range",
	Trap: "trap", Deadlock: "deadlock", Budget: "budget", Interrupted: "interrupted",
	Unsupported: "unsupported", InvalidLaunch: "invalid-launch", Internal: "internal",
}

// String names the kind ("out-of-bounds").
func (k ErrorKind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("ErrorKind(%d)", k)
}

// Error is a launch that ended in an error; it says where and why.
type Error struct {
	Kind    ErrorKind // what went wrong
	Block   [3]int    // block index of the offending thread
	Thread  [3]int    // thread index within the block
	Warps   []int     // warps involved (deadlock: the waiting warps)
	PC      int       // index into Result.Insts; -1 when not tied to an instruction
	PTXLine int       // PTX line; 0 when unknown
	Loc     ptx.Loc   // CUDA location; Line 0 when unknown
	Addr    uint64    // faulting address for memory errors
	Msg     string    // what happened, plainly ("out-of-bounds global load of 4 bytes at 0x...")
	Cause   string    // why, when known ("no allocation contains this address")
	noWhere bool      // block and thread are meaningless (launch-level errors)
}

// Error formats the whole story: what, who, where and why.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Msg)
	if !e.noWhere {
		if e.Kind == Deadlock || e.Kind == Budget || e.Kind == Interrupted {
			fmt.Fprintf(&b, " in block (%d,%d,%d)", e.Block[0], e.Block[1], e.Block[2])
			if len(e.Warps) > 0 {
				fmt.Fprintf(&b, " %s", warpsNoun(e.Warps))
			}
		} else {
			fmt.Fprintf(&b, " by block (%d,%d,%d) thread (%d,%d,%d)",
				e.Block[0], e.Block[1], e.Block[2], e.Thread[0], e.Thread[1], e.Thread[2])
		}
	}
	if e.PTXLine > 0 {
		fmt.Fprintf(&b, " at PTX line %d", e.PTXLine)
		if e.Loc.Line > 0 {
			fmt.Fprintf(&b, " (CUDA line %d)", e.Loc.Line)
		}
	}
	if e.Cause != "" {
		b.WriteString(": ")
		b.WriteString(e.Cause)
	}
	return b.String()
}

// warpList formats warp indices compactly: "0-3,6".
func warpList(ws []int) string {
	var parts []string
	for i := 0; i < len(ws); {
		j := i
		for j+1 < len(ws) && ws[j+1] == ws[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ws[i], ws[j]))
		} else {
			parts = append(parts, fmt.Sprint(ws[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// launchError is an error about the launch itself, not tied to a thread.
func launchError(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, PC: -1, Msg: fmt.Sprintf(format, args...), noWhere: true}
}

// warpsNoun formats "warp 3" or "warps 0-3,6".
func warpsNoun(ws []int) string {
	if len(ws) == 1 {
		return fmt.Sprintf("warp %d", ws[0])
	}
	return "warps " + warpList(ws)
}
