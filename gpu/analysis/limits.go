package analysis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// Limits of one launch. Sandbox mode (Request.Sandbox: `kernelscope run
// --sandbox`, a kernel started with --sandbox) has smaller hard caps.
const (
	// MaxFileBytes is the most bytes a file("x.bin") initialiser reads.
	MaxFileBytes = 1 << 30
	// SandboxMaxFileBytes is MaxFileBytes in sandbox mode.
	SandboxMaxFileBytes = 64 << 20
	// SandboxMaxBufferBytes is the most bytes one buffer may have in sandbox mode.
	SandboxMaxBufferBytes = 64 << 20
	// SandboxMaxTotalBytes is the most bytes all buffers of a launch may have together in sandbox mode.
	SandboxMaxTotalBytes = 256 << 20
	// SandboxMaxBudget is the largest budget (thread-instructions) in sandbox mode.
	SandboxMaxBudget = 10_000_000_000
	// SandboxMaxTraceSteps is the most steps the trace widget records in sandbox mode.
	SandboxMaxTraceSteps = 100_000
	// SandboxMaxSourceBytes is the largest CUDA or PTX source accepted in sandbox mode.
	SandboxMaxSourceBytes = 1 << 20
)

// defaultBudget is the budget when Request.Budget is 0 (sim.DefaultBudget).
const defaultBudget = 2_000_000_000

// checkSandbox refuses what sandbox mode does not allow in a request.
func checkSandbox(req Request) error {
	if !req.Sandbox {
		return nil
	}
	if len(req.Flags) > 0 {
		return fmt.Errorf("sandbox mode: compiler flags (%s) are refused", strings.Join(req.Flags, " "))
	}
	if c := req.Compiler; c != "" && c != "auto" {
		return fmt.Errorf("sandbox mode: the compiler choice (%s) is refused; the kernel's default (auto) is used", c)
	}
	if req.Budget > SandboxMaxBudget {
		return fmt.Errorf("sandbox mode: a budget of %d thread-instructions is more than the %s allowed", req.Budget, "1e10")
	}
	if req.Trace.Steps > SandboxMaxTraceSteps {
		return fmt.Errorf("sandbox mode: a trace of %d steps is more than the %d allowed", req.Trace.Steps, SandboxMaxTraceSteps)
	}
	if len(req.Source) > SandboxMaxSourceBytes {
		return fmt.Errorf("sandbox mode: a source of %d bytes is more than the %d (1 MiB) allowed", len(req.Source), SandboxMaxSourceBytes)
	}
	return nil
}

// checkLaunchSize enforces CUDA's limits on grid and block (grid.x < 2^31,
// grid.y and grid.z <= 65535; block x, y <= 1024, z <= 64, at most 1024
// threads) and that the launch can fit the budget: every thread executes at
// least one instruction, so more threads than the budget can never finish.
func checkLaunchSize(grid, block [3]int, budget int64) error {
	if grid[0] > math.MaxInt32 || grid[1] > 65535 || grid[2] > 65535 {
		return fmt.Errorf("grid %dx%dx%d is too large: CUDA allows x up to 2147483647 and y, z up to 65535", grid[0], grid[1], grid[2])
	}
	if block[0] > 1024 || block[1] > 1024 || block[2] > 64 || block[0]*block[1]*block[2] > 1024 {
		return fmt.Errorf("block %dx%dx%d is too large: CUDA allows x, y up to 1024, z up to 64 and at most 1024 threads", block[0], block[1], block[2])
	}
	if budget <= 0 {
		budget = defaultBudget
	}
	// At most 2^31 * 2^16 * 2^16 * 2^10 threads: count in float64 to avoid overflow.
	threads := float64(grid[0]) * float64(grid[1]) * float64(grid[2]) * float64(block[0]*block[1]*block[2])
	if threads > float64(budget) {
		return fmt.Errorf("grid %dx%dx%d of %d-thread blocks is too large: %s threads, and every thread executes at least one instruction, "+
			"so the launch cannot fit the budget of %d thread-instructions (set a smaller %%grid, or a larger %%budget)",
			grid[0], grid[1], grid[2], block[0]*block[1]*block[2], formatCount(threads), budget)
	}
	return nil
}

// formatCount writes a count exactly when it fits an int64, else in e-notation.
func formatCount(v float64) string {
	if v < 1<<62 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// readInitFile reads a file("name") initialiser: a regular file only, at most
// limit bytes, in chunks so that ctx (an interrupt) stops it. Relative names are
// looked up in baseDir. In sandbox mode the file must be under baseDir once
// symbolic links are resolved (checked on the opened file, not only the name).
func readInitFile(ctx context.Context, name, baseDir string, sandbox bool, limit int64) ([]byte, error) {
	path := name
	if !filepath.IsAbs(path) && baseDir != "" {
		path = filepath.Join(baseDir, path)
	}
	var base string
	if sandbox {
		if baseDir == "" {
			return nil, fmt.Errorf("file(%q): sandbox mode: no notebook directory to read files from", name)
		}
		b, err := filepath.Abs(baseDir)
		if err == nil {
			if r, rerr := filepath.EvalSymlinks(b); rerr == nil {
				b = r
			}
		}
		base = b
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("file(%q): %w", name, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("file(%q): %w", name, err)
		}
		if !within(real, base) {
			return nil, fmt.Errorf("file(%q): sandbox mode: %s is outside the notebook's (or source file's) directory %s", name, real, base)
		}
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		// Some (sockets) cannot even be opened: say what they are.
		return nil, fmt.Errorf("file(%q): %s is %s, not a regular file: file() reads regular files only", name, path, fileKind(fi.Mode()))
	}
	// O_NONBLOCK: opening a FIFO (swapped in after the check above) must not wait
	// for a writer; the check of the opened file below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("file(%q): %w", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("file(%q): %w", name, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("file(%q): %s is %s, not a regular file: file() reads regular files only", name, path, fileKind(fi.Mode()))
	}
	if sandbox {
		// The name was checked before opening; check what was opened (a link swapped in between).
		if real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); err == nil && !within(real, base) {
			return nil, fmt.Errorf("file(%q): sandbox mode: %s is outside the notebook's (or source file's) directory %s", name, real, base)
		}
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("file(%q): %d bytes is more than the %s a file() initialiser may read", name, fi.Size(), byteSize(limit))
	}
	buf := make([]byte, 0, fi.Size())
	chunk := make([]byte, 1<<20)
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("file(%q): interrupted while reading: %w", name, err)
		}
		n, err := f.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if int64(len(buf)) > limit {
			return nil, fmt.Errorf("file(%q): more than the %s a file() initialiser may read (the file grew while read)", name, byteSize(limit))
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("file(%q): %w", name, err)
		}
	}
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// fileKind names what a non-regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file (mode " + m.String() + ")"
}

// byteSize writes a byte count as KiB, MiB or GiB when it is a whole number of them.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// diagLocation is where a compiler message points: "cell line 3:5" or
// "file.cu:3:5", without a column it does not have; a message about an
// included file is at the line that includes it ("cell line 2", or nothing
// when the include chain does not reach the user's source).
func diagLocation(req Request, d toolchain.Diagnostic) string {
	pos := strconv.Itoa(d.Line)
	if d.Col > 0 {
		pos += ":" + strconv.Itoa(d.Col)
	}
	switch {
	case d.Line <= 0 && req.Cell:
		return "cell"
	case d.Line <= 0:
		return req.SourceFile
	case req.Cell:
		return "cell line " + pos
	}
	return req.SourceFile + ":" + pos
}
