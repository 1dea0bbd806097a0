// Command kernelscope is a Jupyter kernel for CUDA that compiles each cell to
// PTX, simulates the launch warp by warp on a modelled NVIDIA GPU and shows
// what happened. The same pipeline runs from the command line.
//
//	kernelscope install [--user | --sys-prefix | --prefix DIR] [--sandbox]
//	kernelscope kernel [--sandbox] -f CONNECTION_FILE
//	kernelscope run [--sandbox] [flags] FILE.cu|FILE.ptx
//	kernelscope parse [--json] FILE.cu|FILE.ptx
//	kernelscope occupancy --arch A --block B --regs R --smem S [--json]
//	kernelscope samples | version
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/kernelscope/kernelscope/engine"
	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/kernel"
	"github.com/kernelscope/kernelscope/kernelspec"
	"github.com/kernelscope/kernelscope/magics"
	"github.com/kernelscope/kernelscope/render"
	"github.com/kernelscope/kernelscope/samples"
)

// version is the kernelscope version (set with -ldflags "-X main.version=...").
var version = "0.1.0"

// usageError is a command-line misuse (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

const usage = `kernelscope: a Jupyter kernel and command-line tool that shows what a CUDA kernel does on the GPU.

usage:
  kernelscope install [--user | --sys-prefix | --prefix DIR] [--sandbox]
  kernelscope kernel [--sandbox] -f CONNECTION_FILE
  kernelscope run [--sandbox] [--arch A] [--grid X[,Y,Z]] [--block X[,Y,Z]] [--launch 'NAME(args)'] [--dynamic-smem N] [--symbol 'NAME=init'] [--compiler C]
                  [--flags F] [--budget N] [--timing on|off|all[,nocaches][,sass|,ptx][,interleaved|,replay]] [--check race,init,sync,order|all|off] [--expect EXPR]...
                  [--json] [--html FILE] [--dump DIR] FILE.cu|FILE.ptx
  kernelscope run [--arch A] [--flags F] [--budget N] [--timing on|off] [--check ...] [--json] PROGRAM.cu [-- ARGS...]
                  (a .cu with main(): built, run with stdin/stdout/stderr, exits with its status)
  kernelscope parse [--json] [--compiler C] [--arch A] FILE.cu|FILE.ptx
  kernelscope occupancy --arch A --block B --regs R --smem S [--dynamic-smem D] [--optin] [--json]
  kernelscope samples
  kernelscope version
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "install":
		err = cmdInstall(args[1:], stdout)
	case "kernel":
		err = cmdKernel(args[1:], stderr)
	case "run":
		err = cmdRun(args[1:], stdout, stderr)
	case "parse":
		err = cmdParse(args[1:], stdout)
	case "occupancy":
		err = cmdOccupancy(args[1:], stdout)
	case "samples":
		for _, s := range samples.List() {
			fmt.Fprintf(stdout, "%-22s %s\n", s.Name, s.Title)
		}
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "kernelscope %s\n", version)
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
	default:
		err = &usageError{fmt.Sprintf("unknown command %q", args[0])}
	}
	if err == nil {
		return 0
	}
	var ec *exitCodeError
	if errors.As(err, &ec) {
		return ec.code
	}
	var xe *expectationError
	if errors.As(err, &xe) {
		fmt.Fprintf(stderr, "kernelscope: %v\n", err)
		return 3
	}
	var ue *usageError
	if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "kernelscope: %v\n\n", err)
		}
		fmt.Fprint(stderr, usage)
		return 2
	}
	fmt.Fprintf(stderr, "kernelscope: %v\n", err)
	return 1
}

// newFlags makes a flag set whose errors are returned, not printed and exited on.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &usageError{fmt.Sprintf("%s: %v", fs.Name(), err)}
	}
	return nil
}

func cmdInstall(args []string, stdout io.Writer) error {
	fs := newFlags("install")
	user := fs.Bool("user", false, "install for the current user (honours JUPYTER_DATA_DIR)")
	sysPrefix := fs.Bool("sys-prefix", false, "install into the Python environment's prefix")
	prefix := fs.String("prefix", "", "install under DIR/share/jupyter/kernels")
	sandbox := fs.Bool("sandbox", false, "the kernel runs with --sandbox (for graders and hubs)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &usageError{"install takes no arguments"}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program's path: %w", err)
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	dir, err := kernelspec.Install(kernelspec.InstallOptions{User: *user || (!*sysPrefix && *prefix == ""), SysPrefix: *sysPrefix, Prefix: *prefix, Executable: exe, Sandbox: *sandbox})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed kernelspec kernelscope in %s (the kernel runs its copy of this binary there)\n", dir)
	return nil
}

func cmdKernel(args []string, stderr io.Writer) error {
	fs := newFlags("kernel")
	conn := fs.String("f", "", "connection file")
	sandbox := fs.Bool("sandbox", false, "sandbox mode: no %flags or %compiler, files and includes only under the working directory, hard caps")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *conn == "" {
		return &usageError{"kernel: -f CONNECTION_FILE is required"}
	}
	log, closeLog := kernelLog(stderr)
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	wd, _ := os.Getwd()
	var opts []engine.Option
	if *sandbox {
		opts = append(opts, engine.WithSandbox())
		log.Info("sandbox mode", "dir", wd)
	}
	eng := engine.New(wd, log, opts...)
	info := kernel.Info{
		Banner:  fmt.Sprintf("KernelScope %s: CUDA cells compiled to PTX and simulated warp by warp on a modelled NVIDIA GPU. Type %%help.", version),
		Version: version,
		HelpLinks: []kernel.HelpLink{
			{Text: "PTX ISA", URL: "https://docs.nvidia.com/cuda/parallel-thread-execution/"},
			{Text: "CUDA C++ Programming Guide", URL: "https://docs.nvidia.com/cuda/cuda-c-programming-guide/"},
		},
	}
	return kernel.Run(ctx, *conn, eng, info, log)
}

// kernelLog is the kernel's logger: warnings and errors on stderr (a front end
// such as jupyter console shows the kernel's stderr in its terminal), or, when
// KERNELSCOPE_LOG names a file, everything from info level on into that file.
func kernelLog(stderr io.Writer) (*slog.Logger, func()) {
	if path := os.Getenv("KERNELSCOPE_LOG"); path != "" {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err == nil {
			return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})), func() { _ = f.Close() }
		}
		fmt.Fprintf(stderr, "kernelscope: KERNELSCOPE_LOG: %v; logging warnings to stderr\n", err)
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), func() {}
}

// sourceInput reads a .cu or .ptx file.
func sourceInput(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	isPTX := strings.HasSuffix(path, ".ptx")
	return b, isPTX, nil
}

// parseDims reads "X[,Y,Z]" or "XxY".
func parseDims(s string) ([3]int, error) {
	var d [3]int
	if s == "" {
		return d, nil
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == 'x' || r == 'X' })
	if len(parts) == 0 || len(parts) > 3 {
		return d, fmt.Errorf("expected 1-3 positive integers like 4, 4,2 or 4x2, found %q", s)
	}
	d = [3]int{1, 1, 1}
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n <= 0 {
			return d, fmt.Errorf("expected 1-3 positive integers like 4, 4,2 or 4x2, found %q", s)
		}
		d[i] = n
	}
	return d, nil
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run")
	archName := fs.String("arch", "sm_80", "architecture (sm_75 ... sm_120)")
	grid := fs.String("grid", "", "grid X[,Y,Z]")
	block := fs.String("block", "", "block X[,Y,Z]")
	launch := fs.String("launch", "", "kernel and arguments in %launch syntax: 'NAME(a=rand(1000), n=1000)' or 'NAME<<<grid, block, shared>>>(...)'")
	dynSmem := fs.String("dynamic-smem", "", "dynamic shared memory per block in bytes, as %shared (1024, 4K, 256*sizeof(float))")
	var symbols []string
	fs.Func("symbol", "set a __constant__/__device__ variable before the launch, as %symbol: 'c_Kernel=file(\"k.bin\"):f32' (repeatable)", func(v string) error {
		symbols = append(symbols, v)
		return nil
	})
	var tmaps []string
	fs.Func("tensormap", "a tiled tensor map for a CUtensorMap parameter, as %tensormap: 'tmA=tiled(A, dims=[1024,1024], box=[64,64], swizzle=128B)' (repeatable)", func(v string) error {
		tmaps = append(tmaps, v)
		return nil
	})
	compiler := fs.String("compiler", "auto", "auto, clang or nvcc")
	flags := fs.String("flags", "", "extra compiler flags")
	budget := fs.Float64("budget", 0, "most thread-instructions to simulate (default 2e9)")
	timing := fs.String("timing", "on", "on, off or all (all: no sampling of huge grids), then optionally ,nocaches (no time-aware caches and atomic units, which are on by default), ,ptx (issue one slot per PTX instruction instead of the default SASS stream: the nvdisasm listing when nvcc built it, else the modelled ptxas lowering) and ,interleaved or ,replay (execution- or trace-driven; default: interleaved for kernels with global atomics or ordered global loads)")
	asJSON := fs.Bool("json", false, "print the JSON report")
	htmlOut := fs.String("html", "", "write the HTML report to FILE")
	dump := fs.String("dump", "", "write each buffer argument after the launch to DIR/NAME.bin")
	sandbox := fs.Bool("sandbox", false, "sandbox mode: no --flags or --compiler, file() and #include only under the source's directory, hard caps")
	checkList := fs.String("check", "race,init,sync", "correctness checks: race,init,sync,order (any of them), all or off")
	var expects []string
	fs.Func("expect", "an expectation over the buffers and scalars after the launch, as %expect: 'out == a + b' (repeatable; exit status 3 when one fails)", func(v string) error {
		expects = append(expects, v)
		return nil
	})
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	tmode, terr := magics.ParseTiming(*timing)
	if terr != nil {
		return &usageError{"run: --timing: " + terr.Error()}
	}
	if fs.NArg() >= 1 && programMode(fs) { // a whole program (main_program.go)
		return runProgram(fs.Arg(0), fs.Args()[1:], programFlags{arch: *archName, flags: strings.Fields(*flags), budget: int64(*budget),
			timing: tmode.On, noCache: !tmode.Caches, json: *asJSON, sandbox: *sandbox, checks: *checkList}, stdout, stderr)
	}
	if fs.NArg() != 1 {
		return &usageError{"run: give exactly one FILE.cu or FILE.ptx"}
	}
	g, err := parseDims(*grid)
	if err != nil {
		return &usageError{"run: --grid: " + err.Error()}
	}
	b, err := parseDims(*block)
	if err != nil {
		return &usageError{"run: --block: " + err.Error()}
	}
	path := fs.Arg(0)
	src, isPTX, err := sourceInput(path)
	if err != nil {
		return err
	}
	req := analysis.Request{
		Source: src, SourceFile: filepath.Base(path), IsPTX: isPTX, Arch: *archName, Compiler: *compiler,
		Flags: strings.Fields(*flags), Grid: g, Block: b, Budget: int64(*budget), Timing: tmode.On, TimingWaves: analysis.TimingWaves(tmode.All),
		TimedCaches: tmode.Caches, SASSIssues: !tmode.PTX, TimingPath: tmode.Path,
		BaseDir: filepath.Dir(path), Trace: magics.Trace{WarpLo: 0, WarpHi: 1, Steps: 5000}, Sandbox: *sandbox,
	}
	if req.Checks, err = analysis.ParseChecks(*checkList); err != nil {
		return &usageError{"run: --check: " + err.Error()}
	}
	req.Expect = expects
	if *launch != "" {
		l, err := magics.ParseLaunch(*launch)
		if err != nil {
			return fmt.Errorf("--launch: %w", err)
		}
		req.Launch = l
	}
	if *dynSmem != "" || len(symbols) > 0 || len(tmaps) > 0 {
		if req.Launch == nil {
			req.Launch = &magics.Launch{}
		}
		if *dynSmem != "" {
			n, err := magics.ParseBytes(*dynSmem)
			if err != nil {
				return fmt.Errorf("--dynamic-smem: %w", err)
			}
			req.Launch.Shared, req.Launch.SharedSet = n, true
		}
		for _, v := range symbols {
			sym, err := magics.ParseSymbol(v)
			if err != nil {
				return fmt.Errorf("--symbol: %w", err)
			}
			req.Launch.Symbols = append(req.Launch.Symbols, sym)
		}
		for _, v := range tmaps {
			m, err := magics.ParseTensorMap(v)
			if err != nil {
				return fmt.Errorf("--tensormap: %w", err)
			}
			req.Launch.TensorMaps = append(req.Launch.TensorMaps, m)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, runErr := analysis.Run(ctx, req)
	if rep != nil && *htmlOut != "" {
		h, err := render.ShownHTML(rep, render.Options{})
		if err != nil {
			return err
		}
		page := "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta name=\"color-scheme\" content=\"light dark\"><title>KernelScope: " +
			html.EscapeString(rep.Kernel) + "</title></head><body class=\"ks-page\">" + h + "</body></html>"
		if err := os.WriteFile(*htmlOut, []byte(page), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", *htmlOut, err)
		}
	}
	if rep != nil && *dump != "" && runErr == nil {
		if err := os.MkdirAll(*dump, 0o755); err != nil {
			return err
		}
		for _, o := range rep.Outputs {
			if err := os.WriteFile(filepath.Join(*dump, o.Name+".bin"), o.Bytes, 0o644); err != nil {
				return fmt.Errorf("writing %s: %w", o.Name, err)
			}
		}
	}
	if rep != nil && *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else if rep != nil && runErr == nil {
		fmt.Fprint(stdout, render.Text(rep))
	}
	if runErr != nil {
		var f *analysis.Failure
		if errors.As(runErr, &f) {
			return fmt.Errorf("%s: %s", path, f.Error())
		}
		return runErr
	}
	return failedExpectations(rep)
}

// expectationError is an --expect that did not hold (exit status 3).
type expectationError struct{ msg string }

func (e *expectationError) Error() string { return e.msg }

// failedExpectations reports the expectations of rep that failed.
func failedExpectations(rep *report.Report) error {
	var failed []string
	for _, e := range rep.Expectations {
		if !e.Passed {
			failed = append(failed, fmt.Sprintf("expectation failed: %s: %s", e.Text, e.Message))
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return &expectationError{strings.Join(failed, "\n")}
}

func cmdParse(args []string, stdout io.Writer) error {
	fs := newFlags("parse")
	asJSON := fs.Bool("json", false, "print JSON")
	compiler := fs.String("compiler", "auto", "auto, clang or nvcc")
	archName := fs.String("arch", "sm_80", "architecture")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &usageError{"parse: give exactly one FILE.cu or FILE.ptx"}
	}
	path := fs.Arg(0)
	src, isPTX, err := sourceInput(path)
	if err != nil {
		return err
	}
	pr, perr := analysis.ParseOnly(context.Background(), analysis.Request{Source: src, SourceFile: filepath.Base(path), IsPTX: isPTX, Arch: *archName, Compiler: *compiler, BaseDir: filepath.Dir(path)})
	if *asJSON && pr != nil {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(pr); err != nil {
			return err
		}
	} else if pr != nil {
		fmt.Fprintf(stdout, "PTX %s, target %s\n", pr.PTX.Version, pr.PTX.Target)
		for _, k := range pr.Kernels {
			fmt.Fprintf(stdout, "%s: %d instructions, ~%d registers (estimated)", k.Name, k.Instructions, k.RegistersEstimated)
			var ps []string
			for _, p := range k.Params {
				ps = append(ps, p.Name+" "+p.Type)
			}
			fmt.Fprintf(stdout, " (%s)\n", strings.Join(ps, ", "))
		}
		for _, e := range pr.Errors {
			fmt.Fprintf(stdout, "%s:%d:%d: %s\n", path, e.Line, e.Col, e.Message)
		}
	}
	if perr != nil {
		return fmt.Errorf("%s: %w", path, perr)
	}
	return nil
}

func cmdOccupancy(args []string, stdout io.Writer) error {
	fs := newFlags("occupancy")
	archName := fs.String("arch", "", "architecture (sm_75 ... sm_120)")
	block := fs.Int("block", 0, "threads per block")
	regs := fs.Int("regs", 0, "registers per thread")
	smem := fs.Int("smem", 0, "static shared memory per block in bytes")
	dyn := fs.Int("dynamic-smem", 0, "dynamic shared memory per block in bytes")
	optin := fs.Bool("optin", false, "the kernel opted in to more than 48 KB of dynamic shared memory")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *archName == "" || *block <= 0 {
		return &usageError{"occupancy: --arch and a positive --block are required"}
	}
	spec, err := arch.Lookup(*archName)
	if err != nil {
		return err
	}
	res, err := occupancy.Compute(spec, occupancy.Input{BlockSize: *block, RegsPerThread: *regs, StaticShared: *smem, DynamicShared: *dyn, OptIn: *optin})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		return enc.Encode(res.JSON())
	}
	fmt.Fprintf(stdout, "%s: %d active blocks per SM, occupancy %.1f%%, limited by %s\n", spec.Name, res.ActiveBlocks, res.OccupancyPct, strings.Join(res.Limiting, ", "))
	return nil
}
