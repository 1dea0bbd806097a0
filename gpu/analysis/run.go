package analysis

import (
	"context"
	"errors"
	"fmt"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/report"
	"sort"
	"strings"
	"time"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sass"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// Request is one launch to analyse.
type Request struct {
	Source     []byte // CUDA or PTX text
	SourceFile string // "cell.cu" in a notebook, the file name for `run`
	IsPTX      bool
	Cell       bool   // a notebook cell: messages say "cell line N" rather than "file:N"
	Arch       string // "sm_80" when empty
	Compiler   string // auto, clang, nvcc
	Prebuilt   []byte // PTX to use instead of compiling (bundled samples where no compiler exists)
	Flags      []string
	Launch     *launch.Launch // nil: first kernel, automatic arguments
	Grid       [3]int         // zero: automatic
	Block      [3]int         // zero: automatic
	Budget     int64          // thread-instructions; 0 = 2e9
	Timing     bool
	Trace      launch.Trace
	BaseDir    string // where file("x.bin") and #include "x.cuh" are looked up
	// TimingWaves is the most waves the timing model models before it samples
	// (sample.go): 0 = DefaultTimingWaves, negative = every block (%timing all).
	TimingWaves int
	// ExtraSources are the texts of sources compiled into Source under #line
	// directives, by the file name the directive gives ("define:NAME" for a kept
	// definition), so the Source view can show their lines that ran (sources.go).
	ExtraSources map[string]string
	// Sandbox: no flags or compiler choice, files and includes only under BaseDir,
	// the hard caps of limits.go.
	Sandbox   bool
	ParseOnly bool // compile and parse, do not simulate
	Name      string
	Progress  func(Progress)
	Checks    Checks   // correctness checks (check.go); the zero value runs none
	Expect    []string // %expect expressions over the buffers and scalars after the launch
	// Program, when set, is a launch made by a host program (gpu/program):
	// raw parameter bytes, device memory used in place, symbols carried over.
	Program *ProgramLaunch
	// CompileCache, when set, answers a compilation done before (the same source,
	// flags and compiler) without running the compiler (toolchain.Cache).
	CompileCache *toolchain.Cache
	// CachePool, when set, lends the cache models (gpu/mem) their arrays and
	// takes them back after the launch, so an engine's launches reuse them.
	CachePool *mem.CachePool
	// ShadowPool, when set, lends the race checker its global shadow arrays
	// and takes them back after the launch (sim.Config.Shadows).
	ShadowPool *sim.ShadowPool
	// TimedCaches (with Timing): the timing model consults the time-aware L1/L2
	// and the atomic units of gpu/mem at issue time (docs/caches.md).
	TimedCaches bool
	// SASSIssues (with Timing): the timing model issues each PTX instruction as
	// the SASS instruction count gpu/ptxas gives it (0 when folded, n for an
	// expansion) instead of one slot. The front ends (magics, CLI) set it by default
	// (`%timing on`; `%timing on ptx` clears it); TestTimingAgainstNsight reports both.
	SASSIssues bool
	// ProgramOrder (with Timing): the replay path issues each warp's instructions in
	// program order instead of the modelled ptxas list schedule of each straight-line
	// region (timing.Schedule); the interleaved path always issues program order.
	ProgramOrder bool
	// TimingPath (with Timing) chooses how the model is fed: TimingAuto,
	// TimingInterleaved (execution-driven) or TimingReplay (driven.go).
	TimingPath string
}

// ProgramLaunch is the part of a launch that a host program supplies.
type ProgramLaunch struct {
	Params  [][]byte          // each kernel parameter's bytes, as the host stub passed them
	Memory  []sim.Region      // the program's device allocations, used in place
	Symbols map[string][]byte // __constant__/__device__ contents set by the program, by PTX name
	After   func(*sim.Result) // called with the simulator's result (variables after the launch)
}

// Progress is reported while a launch runs.
type Progress struct {
	BlocksDone, BlocksTotal int
	ThreadInstructions      int64
	Elapsed                 time.Duration
}

// Failure is an error that ended the analysis, with its kind and location.
type Failure struct {
	Err report.Error
	// Diags are all compiler or parser messages when there were several.
	Diags []report.Error
}

func (f *Failure) Error() string {
	if len(f.Diags) > 1 {
		var b strings.Builder
		for i, d := range f.Diags {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(d.Message)
		}
		return b.String()
	}
	return f.Err.Message
}

// ErrorName is the Jupyter ename of the failure.
func (f *Failure) ErrorName() string {
	switch f.Err.Kind {
	case "compile":
		return "CompileError"
	case "ptx":
		return "PTXError"
	case "interrupted":
		return "KeyboardInterrupt"
	case "launch", "args":
		return "LaunchError"
	case "budget":
		return "BudgetExceeded"
	case "deadlock":
		return "Deadlock"
	}
	return "SimulationError"
}

const defaultArch = "sm_80"

// Run compiles, parses and simulates one launch. On failure it returns the
// partial report (what was computed before the failure) and a *Failure.
func Run(ctx context.Context, req Request) (*report.Report, error) {
	if req.Arch == "" {
		req.Arch = defaultArch
	}
	if req.SourceFile == "" {
		req.SourceFile = "cell.cu"
	}
	rep := &report.Report{Arch: req.Arch, SourceFile: req.SourceFile, Hints: []report.Hint{}, Errors: []report.Error{}, Name: req.Name}
	fail := func(e report.Error, diags []report.Error) (*report.Report, error) {
		rep.Errors = append(rep.Errors, e)
		return rep, &Failure{Err: e, Diags: diags}
	}
	if err := checkSandbox(req); err != nil {
		return fail(report.Error{Kind: "launch", Message: err.Error()}, nil)
	}
	ptxText, err := compile(ctx, req, rep)
	if err != nil {
		var f *Failure
		if errors.As(err, &f) {
			rep.Errors = append(rep.Errors, f.Err)
		}
		return rep, err
	}
	rep.PTX = string(ptxText)
	mod, err := ptx.Parse(ptxFileName(req), ptxText)
	if err != nil {
		if ctx.Err() != nil {
			return fail(report.Error{Kind: "interrupted", Message: "interrupted"}, nil)
		}
		var el ptx.ErrorList
		if errors.As(err, &el) && len(el) > 0 {
			var diags []report.Error
			for _, e := range el {
				diags = append(diags, report.Error{Kind: "ptx", PTXLine: int(e.Pos.Line), Col: int(e.Pos.Col), Message: e.Error()})
			}
			return fail(diags[0], diags)
		}
		return fail(report.Error{Kind: "ptx", Message: err.Error()}, nil)
	}
	cuda := map[string][]cudaParam{}
	if !req.IsPTX {
		cuda = fillFromClang(ctx, req.Source, req.BaseDir, req.Sandbox, mod, cudaKernels(string(req.Source)))
	}
	rep.Kernels = kernelInfos(mod, cuda)
	setPTXASRegisters(rep.Kernels, rep.ResUsage)
	if len(rep.Kernels) == 0 {
		return fail(report.Error{Kind: "launch", Message: "the cell defines no kernel (__global__ function / .entry) to launch"}, nil)
	}
	if req.ParseOnly {
		return rep, nil
	}
	return simulate(ctx, req, rep, mod, cuda, fail)
}

// kernelInfos describes the module's kernels, with CUDA parameter names where the source is known.
func kernelInfos(mod *ptx.Module, cuda map[string][]cudaParam) []report.KernelInfo {
	var out []report.KernelInfo
	for _, k := range mod.Kernels() {
		ki := report.KernelInfo{Name: k.Name, Instructions: len(k.Insts), RegistersEstimated: ptx.EstimateRegisters(k)}
		cps := cuda[demangle(k.Name)]
		for i, p := range k.Params {
			pi := report.ParamInfo{Name: p.Name, Type: p.Type.String()}
			if len(cps) == len(k.Params) {
				pi.Name = cps[i].name
				pi.Type = cps[i].ctype
			}
			ki.Params = append(ki.Params, pi)
		}
		ki.SharedStatic = staticShared(mod, k)
		out = append(out, ki)
	}
	return out
}

// ptxFileName names the PTX text in messages.
func ptxFileName(req Request) string {
	if req.IsPTX {
		return req.SourceFile
	}
	return strings.TrimSuffix(req.SourceFile, ".cu") + ".ptx"
}

// staticShared sums the .shared variables a kernel can reach (its own and module-scope ones it names).
func staticShared(m *ptx.Module, f *ptx.Func) int {
	total := 0
	for _, v := range f.Vars {
		if v.Space == ptx.SpaceShared {
			total = alignUp(total, max(v.Align, 1)) + v.Size()
		}
	}
	used := map[string]bool{}
	for _, in := range f.Insts {
		for _, a := range in.Args {
			if a.Kind == ptx.OpSym || (a.Kind == ptx.OpAddr && !a.BaseReg) {
				used[a.Name] = true
			}
		}
	}
	for _, v := range m.Globals {
		if v.Space == ptx.SpaceShared && used[v.Name] {
			total = alignUp(total, max(v.Align, 1)) + v.Size()
		}
	}
	return total
}

// staticLocal is the per-thread local memory the PTX declares for a kernel: its .local
// variables (the __local_depot frame) and module-scope .local variables it names, plus
// the largest frame of the functions it calls, as the simulator stacks them.
func staticLocal(m *ptx.Module, f *ptx.Func) int {
	return localFrame(m, f, map[string]bool{})
}

func localFrame(m *ptx.Module, f *ptx.Func, onPath map[string]bool) int {
	if f == nil || onPath[f.Name] {
		return 0 // a recursive call: its depth is only known when it runs
	}
	onPath[f.Name] = true
	defer delete(onPath, f.Name)
	total := 0
	for _, v := range f.Vars {
		if v.Space == ptx.SpaceLocal {
			total = alignUp(total, max(v.Align, 1)) + v.Size()
		}
	}
	used := map[string]bool{}
	callee := 0
	for _, in := range f.Insts {
		for _, a := range in.Args {
			if a.Kind == ptx.OpSym || (a.Kind == ptx.OpAddr && !a.BaseReg) {
				used[a.Name] = true
				if in.Op == "call" {
					if g := m.Func(a.Name); g != nil && g != f && !g.Entry && g.HasBody {
						callee = max(callee, localFrame(m, g, onPath))
					}
				}
			}
		}
	}
	for _, v := range m.Globals {
		if v.Space == ptx.SpaceLocal && used[v.Name] {
			total = alignUp(total, max(v.Align, 1)) + v.Size()
		}
	}
	if callee > 0 {
		total = alignUp(total, 16) + callee
	}
	return total
}

func alignUp(n, a int) int { return (n + a - 1) / a * a }

// pickKernel chooses the kernel to launch: by its PTX name, its plain name or,
// for a template instance, its plain name with template arguments (MatrixMul<16>).
func pickKernel(mod *ptx.Module, spec *launch.Launch) (*ptx.Func, error) {
	ks := mod.Kernels()
	if spec == nil || spec.Kernel == "" {
		return ks[0], nil
	}
	want := spec.Kernel
	if spec.TemplateArgs != "" {
		want += "<" + normTemplateArgs(spec.TemplateArgs) + ">"
	}
	var byBase []*ptx.Func
	for _, k := range ks {
		if k.Name == spec.Kernel || normTemplateArgs(kernelDisplayName(k.Name)) == normTemplateArgs(want) {
			return k, nil
		}
		if spec.TemplateArgs == "" && demangle(k.Name) == spec.Kernel {
			byBase = append(byBase, k)
		}
	}
	if len(byBase) == 1 {
		return byBase[0], nil
	}
	var names []string
	for _, k := range ks {
		names = append(names, kernelDisplayName(k.Name))
	}
	sort.Strings(names)
	if len(byBase) > 1 {
		var inst []string
		for _, k := range byBase {
			inst = append(inst, kernelDisplayName(k.Name))
		}
		sort.Strings(inst)
		return nil, fmt.Errorf("%%launch: %s is a template with %d instances (%s): name one, e.g. %%launch %s(...)", spec.Kernel, len(inst), strings.Join(inst, ", "), inst[0])
	}
	return nil, fmt.Errorf("%%launch: no kernel named %q in the cell (kernels: %s)", want, strings.Join(names, ", "))
}

// normTemplateArgs drops blanks and integer suffixes so MatrixMul<16u> and MatrixMul< 16 > match.
func normTemplateArgs(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c == 'u' || c == 'U') && i > 0 && s[i-1] >= '0' && s[i-1] <= '9' && (i+1 == len(s) || s[i+1] == ',' || s[i+1] == '>') {
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// cudaLine maps an instruction's .loc to a line of the user's source file.
func cudaLine(mod *ptx.Module, loc ptx.Loc, file string) int {
	if loc.File == 0 {
		return 0
	}
	if fileIs(mod, int(loc.File), file) {
		return int(loc.Line)
	}
	if loc.InlinedFile != 0 && fileIs(mod, int(loc.InlinedFile), file) {
		return int(loc.InlinedLine)
	}
	return 0
}

// fileIs reports whether .file index idx is the user's file; "" accepts any
// file (PTX given by the user: its .loc lines refer to whatever it was made from).
func fileIs(mod *ptx.Module, idx int, file string) bool {
	if file == "" {
		return true
	}
	for _, f := range mod.Files {
		if f.Index == idx {
			return f.Name == file || strings.HasSuffix(f.Name, "/"+file)
		}
	}
	return false
}

// failure makes a *Failure from its first error and all diagnostics.
func failure(e report.Error, diags []report.Error) *Failure { return &Failure{Err: e, Diags: diags} }

// compile turns the request's source into PTX text (or takes it as given).
func compile(ctx context.Context, req Request, rep *report.Report) ([]byte, error) {
	var ptxText []byte
	if req.IsPTX {
		ptxText = req.Source
		rep.Toolchain = "PTX given"
	} else if req.Prebuilt != nil {
		rep.Source = string(req.Source)
		ptxText = req.Prebuilt
		rep.Toolchain = "pre-built PTX (no compiler installed)"
	} else {
		rep.Source = string(req.Source)
		src, userLines := instantiateTemplate(req)
		res, err := req.CompileCache.Compile(ctx, toolchain.Request{
			Source: src, File: req.SourceFile, Arch: req.Arch,
			Compiler: req.Compiler, Flags: req.Flags, Timeout: 60 * time.Second,
			IncludeDir: req.BaseDir, Sandbox: req.Sandbox,
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil, failure(report.Error{Kind: "interrupted", Message: "interrupted while compiling"}, nil)
			}
			var ce *toolchain.CompileError
			if errors.As(err, &ce) && len(ce.Diags) > 0 {
				var diags []report.Error
				for _, d := range ce.Diags {
					if d.Severity != "error" && d.Severity != "fatal error" {
						continue
					}
					if d.File == "" && d.Line > userLines {
						// The line instantiateTemplate appended: the launch's template arguments.
						diags = append(diags, report.Error{Kind: "launch", Message: fmt.Sprintf(
							"%%launch %s<%s>: the kernel cannot be instantiated with these template arguments: %s",
							req.Launch.Kernel, req.Launch.TemplateArgs, d.Message)})
						continue
					}
					loc := diagLocation(req, d)
					diags = append(diags, report.Error{Kind: "compile", CUDALine: d.Line, Col: d.Col,
						Message: fmt.Sprintf("%s: %s: %s", loc, d.Severity, d.Message)})
				}
				if len(diags) == 0 {
					diags = []report.Error{{Kind: "compile", Message: err.Error()}}
				}
				return nil, failure(diags[0], diags)
			}
			return nil, failure(report.Error{Kind: "compile", Message: err.Error()}, nil)
		}
		ptxText = res.PTX
		rep.Toolchain = res.Compiler
		rep.SASS = res.SASS
		rep.ResUsage = res.ResUsage
	}
	return ptxText, nil
}

// setPTXASRegisters fills registers_ptxas from cuobjdump -res-usage output, when nvcc ran.
func setPTXASRegisters(ks []report.KernelInfo, resUsage string) {
	if resUsage == "" {
		return
	}
	res, err := sass.ParseResUsage(resUsage)
	if err != nil {
		return
	}
	for i := range ks {
		if r, ok := res[ks[i].Name]; ok && r.Registers > 0 {
			n := r.Registers
			ks[i].RegistersPTXAS = &n
		}
	}
}

// instantiateTemplate returns the source to compile and the number of the user's
// lines in it. A launch that names a template kernel with its arguments
// (%launch Reduce<256>(...)) instantiates it the way host code's launch would: a
// line appended after the user's code takes the instance's address, so the
// compiler emits that kernel even when nothing in the cell launches it. Line
// numbers of the user's code are unchanged.
func instantiateTemplate(req Request) (string, int) {
	src := string(req.Source)
	lines := strings.Count(src, "\n")
	if !strings.HasSuffix(src, "\n") {
		lines++
	}
	if req.Launch == nil || req.Launch.TemplateArgs == "" || req.Launch.Kernel == "" {
		return src, lines
	}
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	return src + fmt.Sprintf("static void *__kernelscope_instance_ = (void *)&%s<%s>;\n", req.Launch.Kernel, req.Launch.TemplateArgs), lines
}
