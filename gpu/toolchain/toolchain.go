package toolchain

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The prelude directory: kernelscope_prelude.h, its libdevice part and the headers
// standing in for the CUDA toolkit's (cuda_runtime.h, cooperative_groups.h, ...).
//
//go:embed prelude
var preludeFS embed.FS

// PreludeName is the file name the prelude carries in diagnostics and in the PTX's .file table.
const PreludeName = "kernelscope_prelude.h"

// DefaultTimeout bounds a compilation when Request.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// OutputCap is the most bytes of compiler output kept from one compiler run.
const OutputCap = 4 << 20

// Request describes one compilation of CUDA source to PTX.
type Request struct {
	Source   string        // CUDA C++ source, e.g. a notebook cell
	File     string        // display name of the source, e.g. "cell.cu"
	Arch     string        // target architecture, e.g. "sm_80"
	Compiler string        // "auto", "clang" or "nvcc"; "" means auto
	Flags    []string      // extra compiler flags, checked against an allow-list
	Timeout  time.Duration // zero means DefaultTimeout
	// IncludeDir is where #include "..." is looked up after the source's own
	// directory: the source file's directory, or the notebook's; "" for none.
	IncludeDir string
	// Sandbox refuses Flags and any #include or #embed outside IncludeDir, the
	// prelude and the compiler's system include directories.
	Sandbox bool
}

// Result is a successful compilation.
type Result struct {
	PTX      []byte       // the PTX text; its .file entry for the source names Request.File
	Compiler string       // compiler and version, e.g. "clang 19.1.7"
	Command  string       // the main command line, with temp paths replaced by display names
	SASS     string       // cuobjdump -sass listing when nvcc and cuobjdump exist, else ""
	ResUsage string       // cuobjdump -res-usage listing when available, else ""
	Warnings []Diagnostic // compiler warnings, in the user's line numbering
}

// Diagnostic is one compiler message; Line and Col are in the user's source numbering.
type Diagnostic struct {
	Line, Col int    // 1-based; 0 when the message has no position in the user's source
	Severity  string // "error", "warning" or "note"
	Message   string // the message; prelude and included-file positions are named in it
	// File is the included file the message is about ("" for the user's source and
	// the prelude), relative to Request.IncludeDir when under it; FileLine and
	// FileCol are its position there, and Line is the user's line that includes it.
	File              string
	FileLine, FileCol int
}

// String formats the diagnostic as "line 5:12: error: message" (an included file's
// position is at the start of its message).
func (d Diagnostic) String() string {
	switch {
	case d.Line > 0 && d.Col > 0:
		return fmt.Sprintf("line %d:%d: %s: %s", d.Line, d.Col, d.Severity, d.Message)
	case d.Line > 0:
		return fmt.Sprintf("line %d: %s: %s", d.Line, d.Severity, d.Message)
	default:
		return fmt.Sprintf("%s: %s", d.Severity, d.Message)
	}
}

// CompileError reports a compilation that failed because of the source.
type CompileError struct {
	Diags  []Diagnostic // every diagnostic, errors, warnings and notes
	Output string       // the compiler's output with temp paths replaced by display names
}

// Error lists every error diagnostic, one per line.
func (e *CompileError) Error() string {
	var lines []string
	for _, d := range e.Diags {
		if d.Severity == "error" {
			lines = append(lines, d.String())
		}
	}
	if len(lines) == 0 {
		out := strings.TrimSpace(e.Output)
		if out == "" {
			out = "compilation failed"
		}
		return out
	}
	return strings.Join(lines, "\n")
}

// ErrNoCompiler is returned (wrapped) when no usable compiler is on PATH.
var ErrNoCompiler = errors.New("no CUDA compiler found on PATH: install clang (apt-get install clang-19) or the CUDA toolkit (nvcc)")

// Archs lists the architectures KernelScope knows, oldest first.
func Archs() []string {
	return []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120"}
}

func validArch(a string) bool {
	for _, x := range Archs() {
		if x == a {
			return true
		}
	}
	return false
}

// clangNames lists the clang executables tried by auto, newest first.
func clangNames() []string {
	names := make([]string, 0, 16)
	for v := 25; v >= 14; v-- {
		names = append(names, "clang-"+strconv.Itoa(v))
	}
	return append(names, "clang")
}

// Available lists the compilers found on PATH: nvcc first, then clangs newest first.
func Available() []string {
	var out []string
	if _, err := exec.LookPath("nvcc"); err == nil {
		out = append(out, "nvcc")
	}
	for _, n := range clangNames() {
		if _, err := exec.LookPath(n); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// chooseCompiler resolves "auto", "clang" or "nvcc" to an executable name.
func chooseCompiler(kind string, lookPath func(string) (string, error)) (string, error) {
	findClang := func() (string, error) {
		for _, n := range clangNames() {
			if _, err := lookPath(n); err == nil {
				return n, nil
			}
		}
		return "", fmt.Errorf("clang not found on PATH (tried clang-25 ... clang-14, clang): install it with apt-get install clang-19: %w", ErrNoCompiler)
	}
	switch kind {
	case "", "auto":
		if _, err := lookPath("nvcc"); err == nil {
			return "nvcc", nil
		}
		n, err := findClang()
		if err != nil {
			return "", fmt.Errorf("compiler auto: neither nvcc nor clang on PATH: install clang with apt-get install clang-19: %w", ErrNoCompiler)
		}
		return n, nil
	case "clang":
		return findClang()
	case "nvcc":
		if _, err := lookPath("nvcc"); err != nil {
			return "", fmt.Errorf("nvcc not found on PATH: install the CUDA toolkit, or use %%compiler clang (apt-get install clang-19): %w", ErrNoCompiler)
		}
		return "nvcc", nil
	}
	return "", fmt.Errorf("unknown compiler %q: valid choices are auto, clang, nvcc", kind)
}

// ptxFeature is the PTX ISA version clang is asked to emit for an architecture.
func ptxFeature(arch string) string {
	if arch == "sm_90a" {
		return "+ptx80"
	}
	return "+ptx78"
}

// UnrollThreshold is the LLVM loop-unroll cost threshold the clang path uses. LLVM's
// -O3 default (300) leaves constant-trip loops of register-tile code rolled, so their
// register arrays live in local memory where nvcc unrolls and keeps them in registers;
// at 1000 clang fully unrolls what nvcc 13 was measured to fully unroll (a 64-iteration
// sum, a 2x2 warp tile of 8x4) and, like nvcc, not a 256-iteration one (docs/clang-parity.md).
const UnrollThreshold = 1000

// UnrollMaxCount caps LLVM's partial and runtime unrolling at nvcc's factor: nvcc 13
// unrolls a loop of runtime trip count by 4 where LLVM's NVPTX default takes 8
// (olcf row/column sums, a scan: the same global loads as nvcc with 4, not with 8).
const UnrollMaxCount = 4

// ClangArgs is the clang command line (without the executable) for a source file in dir.
// Contraction stays on for the cell (like nvcc's default -fmad=true) but honours the
// prelude's "#pragma clang fp contract(off)", which its math functions rely on.
// includeDir ("" for none) is searched for #include "..." after the source's own
// directory; flags are checked again here and dropped entirely if any is not allowed.
// Loop unrolling is nvcc-like (see UnrollThreshold and UnrollMaxCount).
func ClangArgs(arch string, flags []string, dir, includeDir, src, out string) []string {
	args := []string{"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch, "-nocudainc", "-nocudalib",
		"-O3", "-gline-tables-only", "-S", "-Xclang", "-target-feature", "-Xclang", ptxFeature(arch),
		"-ffp-contract=fast-honor-pragmas", "-mllvm", "-unroll-threshold=" + strconv.Itoa(UnrollThreshold),
		"-mllvm", "-unroll-max-count=" + strconv.Itoa(UnrollMaxCount), "-I", dir, "-include", PreludeName}
	if includeDir != "" {
		args = append(args, "-iquote", includeDir)
	}
	args = append(args, clangFlags(flags, includeDir)...)
	return append(args, src, "-o", out)
}

// NvccArgs is the nvcc command line producing PTX (kind "ptx") or a cubin (kind "cubin");
// includeDir ("" for none) is searched for #include "..." (nvcc has no -iquote: -I).
func NvccArgs(kind, arch string, flags []string, includeDir, src, out string) []string {
	args := []string{"-" + kind, "-lineinfo", "-arch=" + arch}
	if includeDir != "" {
		args = append(args, "-I", includeDir)
	}
	args = append(args, nvccFlags(flags, includeDir)...)
	return append(args, src, "-o", out)
}

// Compile compiles req.Source to PTX with the chosen compiler.
func Compile(ctx context.Context, req Request) (*Result, error) {
	return compile(ctx, req, exec.LookPath)
}

func compile(ctx context.Context, req Request, lookPath func(string) (string, error)) (*Result, error) {
	if req.Arch == "" {
		req.Arch = "sm_80"
	}
	if !validArch(req.Arch) {
		return nil, fmt.Errorf("unknown architecture %q: valid choices are %s", req.Arch, strings.Join(Archs(), ", "))
	}
	if req.Sandbox && len(req.Flags) > 0 {
		return nil, fmt.Errorf("compiler flags (%s) are refused in sandbox mode", strings.Join(req.Flags, " "))
	}
	if err := CheckFlags(req.Flags); err != nil {
		return nil, err
	}
	if req.IncludeDir != "" {
		abs, err := filepath.Abs(req.IncludeDir)
		if err != nil {
			return nil, fmt.Errorf("toolchain: include directory %s: %w", req.IncludeDir, err)
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		req.IncludeDir = abs
	}
	if req.File == "" {
		req.File = "cell.cu"
	}
	if req.Timeout <= 0 {
		req.Timeout = DefaultTimeout
	}
	exe, err := chooseCompiler(req.Compiler, lookPath)
	if err != nil {
		return nil, err
	}
	dir, err := makeTempDir()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	srcName := sanitizeName(req.File)
	if err := os.WriteFile(filepath.Join(dir, srcName), []byte(req.Source), 0o600); err != nil {
		return nil, fmt.Errorf("toolchain: write source: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	if exe != "nvcc" {
		if err := writePrelude(dir); err != nil {
			return nil, err
		}
	}
	if req.Sandbox {
		if err := checkIncludes(ctx, req, exe, dir, srcName, lookPath); err != nil {
			return nil, err
		}
	}
	if exe == "nvcc" {
		return compileNvcc(ctx, req, dir, srcName, lookPath)
	}
	return compileClang(ctx, req, exe, dir, srcName)
}

// sanitizeName keeps a display name's base as a safe file name ending in .cu.
func sanitizeName(name string) string {
	base := filepath.Base(name)
	var b strings.Builder
	for _, r := range base {
		if r == '.' || r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.TrimLeft(b.String(), ".-")
	if s == "" {
		s = "cell"
	}
	if !strings.HasSuffix(s, ".cu") {
		s += ".cu"
	}
	return s
}

// writePrelude puts the prelude headers (every file under prelude/, the stand-ins
// for the toolkit's headers included) and an empty crt/sm_70_rt.hpp that clang's
// intrinsics header includes into dir.
func writePrelude(dir string) error {
	err := fs.WalkDir(preludeFS, "prelude", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "prelude"), "/")
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, filepath.FromSlash(rel)), 0o700)
		}
		b, err := preludeFS.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), b, 0o600)
	})
	if err != nil {
		return fmt.Errorf("toolchain: write prelude: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "crt"), 0o700); err != nil {
		return fmt.Errorf("toolchain: write prelude: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crt", "sm_70_rt.hpp"), []byte("// empty: provided by KernelScope\n"), 0o600); err != nil {
		return fmt.Errorf("toolchain: write prelude: %w", err)
	}
	return nil
}

// Prelude returns the text of the prelude header and of its libdevice part.
func Prelude() (prelude, libdevice string) {
	a, _ := preludeFS.ReadFile("prelude/" + PreludeName)
	b, _ := preludeFS.ReadFile("prelude/kernelscope_libdevice.h")
	return string(a), string(b)
}

// LibdeviceFunctions lists the libdevice (__nv_*) functions the prelude defines, sorted.
func LibdeviceFunctions() []string {
	_, lib := Prelude()
	extra, _ := preludeFS.ReadFile("prelude/kernelscope_math_extra.h")
	lib += string(extra)
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`KS_NV [^(]*?\b(__nv_[A-Za-z0-9_#]+)\(`).FindAllStringSubmatch(lib, -1) {
		name := m[1]
		if strings.HasSuffix(name, "_##M") {
			base := strings.TrimSuffix(name, "##M")
			for _, mode := range []string{"rn", "rz", "rd", "ru"} {
				seen[base+mode] = true
			}
			continue
		}
		seen[name] = true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func compileClang(ctx context.Context, req Request, exe, dir, srcName string) (*Result, error) {
	return compileClangRewrite(ctx, req, exe, dir, srcName, nvccContraction)
}

// compileClangRewrite is compileClang with the IR rewrite of the nvcc-contraction
// path given (tests pass the identity to check the two-step compile changes nothing else).
func compileClangRewrite(ctx context.Context, req Request, exe, dir, srcName string, rewrite func([]byte) []byte) (*Result, error) {
	version := toolVersion(ctx, dir, exe)
	args := ClangArgs(req.Arch, req.Flags, dir, req.IncludeDir, srcName, "out.ptx")
	nvccRule := NvccContraction(req.Flags)
	if nvccRule {
		args = append(args[:len(args)-2:len(args)-2], "-emit-llvm", "-Xclang", "-emit-llvm-uselists", "-o", "out.ll")
	}
	out, runErr := run(ctx, dir, exe, args...)
	text := cleanIncludeDir(cleanPaths(out, dir, srcName, req.File), req.IncludeDir)
	diags := ParseClangDiagnostics(text, req.File)
	cmd := cleanPaths(exe+" "+strings.Join(args, " "), dir, srcName, req.File)
	if nvccRule && runErr == nil {
		var irCmd string
		irCmd, runErr = clangIRToPTX(ctx, req, exe, dir, rewrite)
		cmd += " && " + irCmd
		if runErr != nil && ctx.Err() == nil {
			return nil, runErr
		}
	}
	if runErr != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("toolchain: %s killed after %v: %w", exe, req.Timeout, ctx.Err())
		}
		var ee *exec.ExitError
		if errors.As(runErr, &ee) {
			return nil, &CompileError{Diags: diags, Output: text}
		}
		return nil, fmt.Errorf("toolchain: run %s: %w", exe, runErr)
	}
	ptx, err := os.ReadFile(filepath.Join(dir, "out.ptx"))
	if err != nil {
		return nil, fmt.Errorf("toolchain: read PTX: %w", err)
	}
	if nvccRule {
		ptx = stripLabelNames(ptx)
	}
	ptx = rewriteFileTable(ptx, dir, srcName, req.File)
	if ext := externLibdevice(ptx); len(ext) > 0 {
		return nil, &CompileError{Diags: ext, Output: text}
	}
	return &Result{PTX: ptx, Compiler: version, Command: cmd, Warnings: onlyWarnings(diags)}, nil
}

func onlyWarnings(ds []Diagnostic) []Diagnostic {
	var w []Diagnostic
	for _, d := range ds {
		if d.Severity == "warning" {
			w = append(w, d)
		}
	}
	return w
}

// run executes exe in dir, returning combined output capped at OutputCap.
func run(ctx context.Context, dir, exe string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 2 * time.Second
	w := &capWriter{max: OutputCap}
	cmd.Stdout = w
	cmd.Stderr = w
	err := cmd.Run()
	out := w.buf.String()
	if w.dropped > 0 {
		out += fmt.Sprintf("\n[output truncated: %d bytes dropped]\n", w.dropped)
	}
	return out, err
}

type capWriter struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (c *capWriter) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room >= len(p) {
		c.buf.Write(p)
		return len(p), nil
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped += len(p) - max(room, 0)
	return len(p), nil
}

var versionRE = regexp.MustCompile(`(?:clang version|release [0-9.]+, V)\s*([0-9]+\.[0-9]+(?:\.[0-9]+)?)`)

// toolVersion returns e.g. "clang 19.1.7" or "nvcc 13.0.88"; the bare name when unknown.
func toolVersion(ctx context.Context, dir, exe string) string {
	out, err := run(ctx, dir, exe, "--version")
	name := "clang"
	if exe == "nvcc" {
		name = "nvcc"
	}
	if err != nil {
		return exe
	}
	return ParseVersion(name, out)
}

// ParseVersion extracts the version from a compiler's --version text.
func ParseVersion(name, text string) string {
	if m := versionRE.FindStringSubmatch(text); m != nil {
		return name + " " + m[1]
	}
	return name
}

// cleanPaths replaces the temp dir paths in compiler text with display names.
func cleanPaths(s, dir, srcName, display string) string {
	s = strings.ReplaceAll(s, filepath.Join(dir, srcName), display)
	s = strings.ReplaceAll(s, dir+"/./", "")
	s = strings.ReplaceAll(s, dir+"/", "")
	s = strings.ReplaceAll(s, dir, ".")
	if srcName != display {
		s = replaceWord(s, srcName, display)
	}
	return s
}

// replaceWord replaces old by repl where it is not part of a longer file name.
func replaceWord(s, old, repl string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		before := i == 0 || !isNameByte(s[i-1])
		after := i+len(old) >= len(s) || !isNameByte(s[i+len(old)])
		b.WriteString(s[:i])
		if before && after {
			b.WriteString(repl)
		} else {
			b.WriteString(old)
		}
		s = s[i+len(old):]
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c == '/' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

var fileLineRE = regexp.MustCompile(`(?m)^(\s*\.file\s+\d+\s+)"([^"]*)"(.*)$`)

// rewriteFileTable makes the PTX's .file entries name the display file and the prelude.
func rewriteFileTable(ptx []byte, dir, srcName, display string) []byte {
	return fileLineRE.ReplaceAllFunc(ptx, func(line []byte) []byte {
		m := fileLineRE.FindSubmatch(line)
		p := string(m[2])
		switch {
		case p == filepath.Join(dir, srcName) || p == srcName:
			p = display
		case strings.HasPrefix(p, dir+"/"):
			p = strings.TrimPrefix(strings.TrimPrefix(p, dir+"/"), "./")
		}
		return []byte(string(m[1]) + strconv.Quote(p) + string(m[3]))
	})
}

var driverDiagRE = regexp.MustCompile(`^([A-Za-z0-9_.+-]+): (error|warning): (.*)$`)

var clangDiagRE = regexp.MustCompile(`^(.*?):(\d+):(\d+): (fatal error|error|warning|note|remark): (.*)$`)

// includedFromRE is a line of clang's include chain: "In file included from cell.cu:3:"
// or its continuation "                 from a.cuh:1:".
var includedFromRE = regexp.MustCompile(`^(?:In file included from|\s+from) (.*?):(\d+):$`)

// ParseClangDiagnostics turns clang's "file:line:col: severity: message" lines into
// diagnostics; positions in other files (the prelude, clang's headers) go into the message.
func ParseClangDiagnostics(out, display string) []Diagnostic {
	var ds []Diagnostic
	incLine := 0 // the user's line that includes the file of the next diagnostics
	inChain := false
	for _, line := range strings.Split(out, "\n") {
		if im := includedFromRE.FindStringSubmatch(strings.TrimRight(line, "\r")); im != nil {
			if !inChain && strings.HasPrefix(line, "In file") {
				incLine = 0
			}
			inChain = true
			if im[1] == display {
				incLine, _ = strconv.Atoi(im[2])
			}
			continue
		}
		inChain = false
		m := clangDiagRE.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			// driver messages: "clang-19: error: unsupported CUDA gpu architecture: sm_100"
			if dm := driverDiagRE.FindStringSubmatch(strings.TrimRight(line, "\r")); dm != nil {
				msg := dm[1] + ": " + dm[3]
				if strings.Contains(dm[3], "unsupported CUDA gpu architecture") {
					msg += " (this clang is too old for it: install a newer clang, or pick an older %arch)"
				}
				ds = append(ds, Diagnostic{Severity: dm[2], Message: msg})
			}
			continue
		}
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		sev := m[4]
		if sev == "fatal error" {
			sev = "error"
		}
		d := Diagnostic{Severity: sev, Message: m[5]}
		if strings.HasPrefix(m[5], "'cub/") || strings.HasPrefix(m[5], "'thrust/") {
			if strings.HasSuffix(m[5], "' file not found") {
				d.Message += " (CUB and Thrust are Debian's libcub-dev and libthrust-dev: install libcub-dev)"
			}
		}
		if m[1] == display || filepath.Base(m[1]) == filepath.Base(display) && !strings.HasSuffix(m[1], ".h") {
			d.Line, d.Col = ln, col
		} else {
			where := filepath.Base(m[1])
			if where == PreludeName || where == "kernelscope_libdevice.h" {
				d.Message = fmt.Sprintf("in the KernelScope prelude (%s:%d): %s", where, ln, m[5])
			} else {
				d.Message = fmt.Sprintf("in %s:%d:%d: %s", m[1], ln, col, m[5])
				d.File, d.FileLine, d.FileCol = m[1], ln, col
				d.Line = incLine
			}
		}
		ds = append(ds, d)
	}
	return ds
}

var nvccDiagRE = regexp.MustCompile(`^(.*?)\((\d+)\): (error|warning|remark|catastrophic error)(?: #[0-9A-Za-z-]+)?: (.*)$`)

// ParseNvccDiagnostics turns nvcc's "file(line): error: message" lines into
// diagnostics. When nvcc echoes the source line with a caret under the column, the
// column is recovered by matching the echoed text against source (the cell).
func ParseNvccDiagnostics(out, display, source string) []Diagnostic {
	var ds []Diagnostic
	srcLines := strings.Split(strings.ReplaceAll(source, "\r\n", "\n"), "\n")
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		m := nvccDiagRE.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			if strings.HasPrefix(line, "ptxas error") || strings.HasPrefix(line, "ptxas fatal") {
				ds = append(ds, Diagnostic{Severity: "error", Message: strings.TrimSpace(line)})
			}
			continue
		}
		ln, _ := strconv.Atoi(m[2])
		sev := m[3]
		if sev == "catastrophic error" {
			sev = "error"
		}
		d := Diagnostic{Severity: sev, Message: m[4]}
		if filepath.Base(m[1]) == filepath.Base(display) {
			d.Line = ln
			if i+2 < len(lines) && ln >= 1 && ln <= len(srcLines) && strings.TrimSpace(lines[i+2]) == "^" {
				d.Col = colFromCaret(srcLines[ln-1], lines[i+1], lines[i+2])
			}
		} else {
			d.Message = fmt.Sprintf("in %s:%d: %s", m[1], ln, m[4])
			d.File, d.FileLine = m[1], ln
		}
		ds = append(ds, d)
	}
	return ds
}

// colFromCaret maps the caret under nvcc's echo of a source line to a 1-based
// column of the real line; 0 when the echo is not that line (e.g. a macro expansion).
func colFromCaret(src, echo, caret string) int {
	c := strings.IndexByte(caret, '^')
	ts, te := strings.TrimLeft(src, " \t"), strings.TrimLeft(echo, " \t")
	if c < 0 || strings.TrimRight(ts, " \t\r") != strings.TrimRight(te, " \t\r") {
		return 0
	}
	col := c - (len(echo) - len(te)) + (len(src) - len(ts)) + 1
	if col < 1 || col > len(src)+1 {
		return 0
	}
	return col
}

var externRE = regexp.MustCompile(`(?m)^\s*\.extern\s+\.func\s*(?:\([^)]*\)\s*)?(__nv_[A-Za-z0-9_]+)`)
var locRE = regexp.MustCompile(`^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)`)

// externLibdevice reports each libdevice function the prelude does not provide, at
// the first user-source line that calls it.
func externLibdevice(ptx []byte) []Diagnostic {
	ms := externRE.FindAllSubmatch(ptx, -1)
	if len(ms) == 0 {
		return nil
	}
	userFile := ""
	for _, m := range fileLineRE.FindAllSubmatch(ptx, -1) {
		if !strings.HasSuffix(string(m[2]), ".h") {
			userFile = strings.Fields(string(m[1]))[1]
			break
		}
	}
	names := map[string]bool{}
	for _, m := range ms {
		names[string(m[1])] = true
	}
	// A call inlined from a header sits under the header's .loc: it belongs to the
	// next user-source .loc; a call under a user .loc belongs to that line.
	firstLine := map[string]int{}
	pending := map[string]bool{}
	curUser, line := false, 0
	for _, l := range strings.Split(string(ptx), "\n") {
		if m := locRE.FindStringSubmatch(l); m != nil {
			curUser = m[1] == userFile
			if curUser {
				line, _ = strconv.Atoi(m[2])
				for n := range pending {
					firstLine[n] = line
					delete(pending, n)
				}
			}
			continue
		}
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, ".extern") || strings.HasPrefix(t, ".param") || strings.HasPrefix(t, "//") {
			continue
		}
		for n := range names {
			if _, done := firstLine[n]; done || pending[n] {
				continue
			}
			if t == n+"," || t == n || strings.Contains(t, " "+n+",") || strings.Contains(t, " "+n+";") {
				if curUser {
					firstLine[n] = line
				} else {
					pending[n] = true
				}
			}
		}
	}
	var ds []Diagnostic
	for n := range names {
		ds = append(ds, Diagnostic{Line: firstLine[n], Severity: "error",
			Message: fmt.Sprintf("%s needs libdevice's %s, which the KernelScope prelude does not provide (see the table in gpu/toolchain's documentation)", strings.TrimPrefix(n, "__nv_"), n)})
	}
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].Line != ds[j].Line {
			return ds[i].Line < ds[j].Line
		}
		return ds[i].Message < ds[j].Message
	})
	return ds
}

func compileNvcc(ctx context.Context, req Request, dir, srcName string, lookPath func(string) (string, error)) (*Result, error) {
	version := toolVersion(ctx, dir, "nvcc")
	args := NvccArgs("ptx", req.Arch, req.Flags, req.IncludeDir, srcName, "out.ptx")
	out, runErr := run(ctx, dir, "nvcc", args...)
	text := cleanIncludeDir(cleanPaths(out, dir, srcName, req.File), req.IncludeDir)
	diags := ParseNvccDiagnostics(text, req.File, req.Source)
	cmd := cleanPaths("nvcc "+strings.Join(args, " "), dir, srcName, req.File)
	if runErr != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("toolchain: nvcc killed after %v: %w", req.Timeout, ctx.Err())
		}
		var ee *exec.ExitError
		if errors.As(runErr, &ee) {
			return nil, &CompileError{Diags: diags, Output: text}
		}
		return nil, fmt.Errorf("toolchain: run nvcc: %w", runErr)
	}
	ptx, err := os.ReadFile(filepath.Join(dir, "out.ptx"))
	if err != nil {
		return nil, fmt.Errorf("toolchain: read PTX: %w", err)
	}
	res := &Result{PTX: rewriteFileTable(ptx, dir, srcName, req.File), Compiler: version, Command: cmd, Warnings: onlyWarnings(diags)}
	if _, err := lookPath("cuobjdump"); err == nil {
		cargs := NvccArgs("cubin", req.Arch, req.Flags, req.IncludeDir, srcName, "out.cubin")
		if _, err := run(ctx, dir, "nvcc", cargs...); err == nil {
			// nvdisasm -g keeps the CUDA line of each instruction ("//## File ..., line N"),
			// which links SASS to the source in the report; cuobjdump -sass does not.
			if _, err := lookPath("nvdisasm"); err == nil {
				if s, err := run(ctx, dir, "nvdisasm", "-c", "-g", "out.cubin"); err == nil {
					res.SASS = cleanPaths(s, dir, srcName, req.File)
				}
			}
			if res.SASS == "" {
				if s, err := run(ctx, dir, "cuobjdump", "-sass", "out.cubin"); err == nil {
					res.SASS = s
				}
			}
			if s, err := run(ctx, dir, "cuobjdump", "-res-usage", "out.cubin"); err == nil {
				res.ResUsage = s
			}
		}
	}
	return res, nil
}

// WritePrelude writes the prelude headers into dir (for a host-side build of a program, gpu/program).
func WritePrelude(dir string) error { return writePrelude(dir) }

// FindClang returns the newest clang on PATH.
func FindClang() (string, error) { return chooseCompiler("clang", exec.LookPath) }
