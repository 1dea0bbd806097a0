// Package program runs whole CUDA programs: host code with a main() is compiled
// natively by clang (--cuda-host-only) and linked against KernelScope's CUDA
// runtime (runtime/src/ksrt.c); the device code is compiled to PTX as for a
// kernel cell. The program runs as a child process; its device memory is a
// shared-memory file both sides map, and its CUDA calls arrive on a pipe and
// are served here, each launch simulated by gpu/analysis (docs/design.md,
// "Programs").
package program

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
	ksrt "github.com/kernelscope/kernelscope/runtime"
)

var mainRE = regexp.MustCompile(`(?m)^[ \t]*(?:int|void|auto)[ \t\n]+main[ \t]*\(`)

// IsProgram reports whether src is a whole program: it defines main() or holds a %program line.
func IsProgram(src string) bool {
	if mainRE.MatchString(src) {
		return true
	}
	for _, l := range strings.Split(src, "\n") {
		if strings.TrimSpace(l) == "%program" {
			return true
		}
	}
	return false
}

// Options are how a program is built.
type Options struct {
	File    string   // display name of the source ("prog.cu", "cell.cu")
	Arch    string   // modelled architecture; "" = sm_80
	Flags   []string // allowed compiler flags (toolchain.CheckFlags)
	BaseDir string   // directory of #include "..." headers
	Cell    bool     // a notebook cell: messages say "cell line N"
}

// Program is a built program: its executable and its device code.
type Program struct {
	Dir    string // temporary directory holding the executable; Close removes it
	Exe    string
	PTX    []byte
	Source string
	Opts   Options
}

// Close removes the build directory.
func (p *Program) Close() error { return os.RemoveAll(p.Dir) }

// BuildError is a compile or link failure with the compiler's messages.
type BuildError struct{ Msg string }

func (e *BuildError) Error() string { return e.Msg }

// Build compiles the device side to PTX and the host side to an executable.
func Build(ctx context.Context, src string, o Options) (*Program, error) {
	if o.Arch == "" {
		o.Arch = "sm_80"
	}
	if o.File == "" {
		o.File = "prog.cu"
	}
	src = dropProgramMagic(src)
	if o.BaseDir != "" {
		abs, err := filepath.Abs(o.BaseDir)
		if err != nil {
			return nil, fmt.Errorf("program: source directory %s: %w", o.BaseDir, err)
		}
		o.BaseDir = abs
	}
	dev, err := toolchain.Compile(ctx, toolchain.Request{Source: src, File: o.File, Arch: o.Arch, Compiler: "clang",
		Flags: o.Flags, IncludeDir: o.BaseDir, Timeout: 60 * time.Second})
	if err != nil {
		var ce *toolchain.CompileError
		if errors.As(err, &ce) {
			return nil, &BuildError{Msg: compileMessage(ce, o)}
		}
		return nil, fmt.Errorf("device code: %w", err)
	}
	clang, err := toolchain.FindClang()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kernelscope-prog-")
	if err != nil {
		return nil, fmt.Errorf("program: temporary directory: %w", err)
	}
	p := &Program{Dir: dir, Exe: filepath.Join(dir, "prog"), PTX: []byte(dev.PTX), Source: src, Opts: o}
	fail := func(err error) (*Program, error) { p.Close(); return nil, err }
	if err := toolchain.WritePrelude(dir); err != nil {
		return fail(err)
	}
	srcName := "prog.cu"
	files := map[string]string{srcName: src, "ksrt.c": ksrt.Source, "dummy.fatbin": "KSFB"}
	for n, t := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(t), 0o600); err != nil {
			return fail(fmt.Errorf("program: write %s: %w", n, err))
		}
	}
	host := []string{"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=" + o.Arch,
		"-O2", "-I", dir, "-include", toolchain.PreludeName,
		"-Xclang", "-fcuda-include-gpubinary", "-Xclang", filepath.Join(dir, "dummy.fatbin")}
	if o.BaseDir != "" {
		host = append(host, "-iquote", o.BaseDir)
	}
	host = append(host, hostFlags(o.Flags)...)
	host = append(host, "-c", filepath.Join(dir, srcName), "-o", filepath.Join(dir, "prog.o"))
	if err := runTool(ctx, dir, clang, host, o, src); err != nil {
		return fail(err)
	}
	if err := runTool(ctx, dir, clang, []string{"-x", "c", "-O2", "-c", filepath.Join(dir, "ksrt.c"), "-o", filepath.Join(dir, "ksrt.o")}, o, src); err != nil {
		return fail(fmt.Errorf("runtime: %w", err))
	}
	link := []string{"--driver-mode=g++", filepath.Join(dir, "prog.o"), filepath.Join(dir, "ksrt.o"), "-lm", "-o", p.Exe}
	if err := runTool(ctx, dir, clang, link, o, src); err != nil {
		return fail(err)
	}
	return p, nil
}

// hostFlags keeps the allowed flags that matter to host code (-D, -U, -O, -std, warnings).
func hostFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		if strings.HasPrefix(f, "-D") || strings.HasPrefix(f, "-U") || strings.HasPrefix(f, "-std=") || strings.HasPrefix(f, "-W") || f == "-w" {
			out = append(out, f)
		}
	}
	return out
}

func dropProgramMagic(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "%program" {
			lines[i] = "" // keep line numbers
		}
	}
	return strings.Join(lines, "\n")
}

var undefRE = regexp.MustCompile("undefined reference to `([^'(]+)")
var diagRE = regexp.MustCompile(`(?m)^[^\s:]*prog\.cu:(\d+):(\d+): (error|warning|note): (.*)$`)

// runTool runs a compiler step and turns its failure into a BuildError naming lines.
func runTool(ctx context.Context, dir, exe string, args []string, o Options, src string) error {
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("program build interrupted: %w", ctx.Err())
		}
		text := out.String()
		var msgs []string
		for _, m := range diagRE.FindAllStringSubmatch(text, -1) {
			if m[3] != "error" {
				continue
			}
			msgs = append(msgs, fmt.Sprintf("%s: host code: error: %s", where(o, m[1]), m[4]))
		}
		seen := map[string]bool{}
		for _, m := range undefRE.FindAllStringSubmatch(text, -1) {
			name := m[1]
			if seen[name] {
				continue
			}
			seen[name] = true
			if name == "main" {
				msgs = append(msgs, where(o, "1")+": the program defines no main function: a %program cell or file needs int main()")
				continue
			}
			msgs = append(msgs, fmt.Sprintf("%s: %s is not provided by KernelScope's CUDA runtime (yet)", where(o, strconv.Itoa(firstUse(name, src))), name))
		}
		if len(msgs) == 0 {
			msgs = append(msgs, "host build failed: "+strings.TrimSpace(text))
		}
		return &BuildError{Msg: strings.Join(msgs, "\n")}
	}
	return nil
}

// compileMessage lists the compiler's errors, each naming its line as the rest of KernelScope does.
func compileMessage(ce *toolchain.CompileError, o Options) string {
	var lines []string
	for _, d := range ce.Diags {
		if d.Severity != "error" {
			continue
		}
		if d.Line > 0 {
			lines = append(lines, fmt.Sprintf("%s: error: %s", where(o, strconv.Itoa(d.Line)), d.Message))
		} else {
			lines = append(lines, "error: "+d.Message)
		}
	}
	if len(lines) == 0 {
		return ce.Error()
	}
	return strings.Join(lines, "\n")
}

// where names a source line the way the rest of KernelScope does.
func where(o Options, line string) string {
	if o.Cell {
		return "cell line " + line
	}
	return o.File + ":" + line
}

// firstUse is the first source line naming ident (1 if none), for link errors.
func firstUse(ident string, src string) int {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(ident) + `\b`)
	for i, l := range strings.Split(src, "\n") {
		if re.MatchString(l) {
			return i + 1
		}
	}
	return 1
}
