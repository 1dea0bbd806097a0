package analysis

import (
	"fmt"
	"path/filepath"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// A fault inside code inlined from a header (clang's __trap() in
// __clang_cuda_device_functions.h, the prelude's replacements) carries that header's
// .loc, and clang-19 writes no inlined_at for it, so the call site in the cell is not
// in the line table. The innermost user frame we can name is the nearest cell line
// before the faulting instruction in the function's code: the statement that led into
// the inlined code (exact when the call shares its line with the condition or statement
// before it, as in `if (bad) __trap();`).

// userFrameLine returns the cell line of the nearest instruction before (or at) PTX
// line ptxLine, in the same function, whose .loc is in the user's file; 0 if none.
func userFrameLine(mod *ptx.Module, ptxLine int, file string) int {
	for _, f := range mod.Funcs {
		if !f.HasBody || ptxLine < int(f.Pos.Line) || (f.EndPos.Line > 0 && ptxLine > int(f.EndPos.Line)) {
			continue
		}
		at := -1
		for i, in := range f.Insts {
			if int(in.Pos.Line) <= ptxLine {
				at = i
			}
		}
		for i := at; i >= 0; i-- {
			if l := cudaLine(mod, f.Insts[i].Loc, file); l > 0 {
				return l
			}
		}
		return 0
	}
	return 0
}

// locFileName is the base name of .file index idx ("" if absent).
func locFileName(mod *ptx.Module, idx int) string {
	for _, f := range mod.Files {
		if f.Index == idx {
			return filepath.Base(f.Name)
		}
	}
	return ""
}

// atUserLine rewrites a simulator error located in a header to name the cell's line
// (see userFrameLine) and where the instruction came from; ok is false when the error
// is already in the user's file or no user line precedes it.
func atUserLine(se *sim.Error, mod *ptx.Module, file string) (msg string, line int, ok bool) {
	if se.Loc.File == 0 || cudaLine(mod, se.Loc, file) > 0 {
		return "", 0, false
	}
	line = userFrameLine(mod, se.PTXLine, file)
	if line == 0 {
		return "", 0, false
	}
	c := *se
	hdr, hdrLine := locFileName(mod, int(se.Loc.File)), se.Loc.Line
	c.Loc = ptx.Loc{File: se.Loc.File, Line: int32(line)}
	return fmt.Sprintf("%s; the instruction is inlined from %s:%d, and line %d is the nearest line of %s before it",
		c.Error(), hdr, hdrLine, line, file), line, true
}
