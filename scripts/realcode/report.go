package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/timing"
)

// PathResult is what one path (clang on CUDA, or nvcc's PTX) gave for one kernel.
type PathResult struct {
	Tried     bool
	Compiles  bool
	Runs      bool
	Exact     bool
	Compared  bool // the H200's buffers were there to compare with
	Cause     string
	Diffs     []string
	CountersN int // counters equal to ncu's, of 8
	CountersD []string
	HasNCU    bool
	CycErr    float64 // (model-measured)/measured; NaN when absent
	KCycErr   float64 // the same without the launch: (cycles-launch)/(ncu cycles-launch); NaN when absent
	KMeasured float64 // the measured kernel part, ncu cycles-launch
	Fault     bool    // KernelScope stopped on an access the H200 also faulted on
	Findings  []string
	Checked   bool // the run had the sanitizer's checks on
	// H200Varies: the H200's own repeated runs of this kernel differ (RepeatFile)
	H200Varies bool
}

type ksFinding struct {
	Kind          string `json:"kind"`
	Space         string `json:"space"`
	CUDALine      int    `json:"cuda_line"`
	OtherCUDALine int    `json:"other_cuda_line"`
	Variable      string `json:"variable"`
	Count         int    `json:"count"`
	Message       string `json:"message"`
	Severity      string `json:"severity"` // "warning" for a volatile warp-synchronous hazard
}

type ksReport struct {
	Memory map[string]any `json:"memory"`
	Timing *struct {
		Cycles       float64 `json:"cycles"`
		KernelCycles float64 `json:"kernel_cycles"`
		LaunchCycles float64 `json:"launch_cycles"`
	} `json:"timing"`
	Checks    []string    `json:"checks"`
	Sanitizer []ksFinding `json:"sanitizer"`
}

// findingText is one sanitizer finding in a line.
func findingText(f ksFinding) string {
	kind := f.Kind
	if f.Severity == "warning" {
		kind += " warning"
	}
	return fmt.Sprintf("%s (%s, CUDA line %d/%d, %s, ×%d): %s", kind, f.Space, f.CUDALine, f.OtherCUDALine, f.Variable, f.Count, f.Message)
}

// faultRE is KernelScope's message for an access outside every allocation.
var faultRE = regexp.MustCompile(`out-of-bounds|beyond the block's allocation|the block has \d+ bytes of shared memory`)

func readRC(base string) (int, bool) {
	b, err := os.ReadFile(base + ".rc")
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return n, err == nil
}

func firstLine(path string) string {
	b, _ := os.ReadFile(path)
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			l = strings.ReplaceAll(l, "|", "\\|")
			if i := strings.Index(l, "/build/realcode/"); i >= 0 {
				if j := strings.LastIndex(l[:i], " "); j >= 0 {
					l = l[:j+1] + l[i+len("/build/realcode/"):]
				} else {
					l = l[i+len("/build/realcode/"):]
				}
			}
			if len(l) > 220 {
				l = l[:220] + "…"
			}
			return l
		}
	}
	return "(no message)"
}

// evalPath compares one path's results for kernel k with the H200's.
// locked says the ground truth's counters were taken at ncu's locked base clocks.
func evalPath(k *Kernel, base string, isClang bool, kt *KernelTruth, locked bool, dataDir, h200, raw string, repeat Repeat) PathResult {
	r := PathResult{CycErr: math.NaN(), KCycErr: math.NaN()}
	if isClang {
		prc, ok := readRC(base + ".parse")
		if !ok {
			return r
		}
		r.Tried = true
		r.Compiles = prc == 0
		if !r.Compiles {
			r.Cause = "compile: " + firstLine(base+".parse.err")
			return r
		}
	}
	rc, ok := readRC(base)
	if !ok {
		return r
	}
	r.Tried = true
	if !isClang {
		r.Compiles = true
	}
	r.Runs = rc == 0
	var rep ksReport
	if b, err := os.ReadFile(base + ".json"); err == nil {
		_ = json.Unmarshal(b, &rep)
	}
	r.Checked = len(rep.Checks) > 0
	for _, f := range rep.Sanitizer {
		r.Findings = append(r.Findings, findingText(f))
	}
	if !r.Runs {
		r.Cause = firstLine(base + ".err")
		if kt != nil && kt.Built && !kt.Ran && strings.Contains(kt.RunError, "illegal memory access") && faultRE.MatchString(r.Cause) {
			r.Fault = true
			r.Cause = "faults as the H200 does (" + strings.SplitN(kt.RunError, "\n", 2)[0] + "): " + r.Cause
		}
		return r
	}
	if kt == nil || !kt.Ran {
		r.Cause = "no H200 ground truth"
		return r
	}
	r.Compared = true
	r.Exact = true
	var spread []string // the H200's own run-to-run spread, for the buffers that have repeats
	for i, a := range k.Args {
		if !a.Buffer {
			continue
		}
		bt, ok := kt.Buffers[a.Name]
		if !ok {
			r.Exact = false
			r.Diffs = append(r.Diffs, a.Name+": no H200 value")
			continue
		}
		got, err := os.ReadFile(filepath.Join(base+".dump", a.Name+".bin"))
		if err != nil {
			// nvcc's PTX has no parameter names: the dump is named after the PTX parameter, NAME_param_I
			if ms, _ := filepath.Glob(filepath.Join(base+".dump", fmt.Sprintf("*_param_%d.bin", i))); len(ms) == 1 {
				got, err = os.ReadFile(ms[0])
			}
		}
		if err != nil {
			r.Exact = false
			r.Diffs = append(r.Diffs, a.Name+": not dumped")
			continue
		}
		var want []byte
		switch {
		case !bt.Changed:
			want, _ = os.ReadFile(filepath.Join(dataDir, k.ID+"."+a.Name+".in.bin"))
		case bt.Stored != "":
			want, _ = os.ReadFile(filepath.Join(h200, bt.Stored))
		default:
			if b, err := os.ReadFile(filepath.Join(raw, "out", k.ID+"."+a.Name+".out.bin")); err == nil && sha(b) == bt.SHA256 {
				want = b
			}
		}
		if want == nil {
			if sha(got) != bt.SHA256 {
				r.Exact = false
				r.Diffs = append(r.Diffs, a.Name+": differs (sha256; the H200's bytes are not stored)")
			}
			continue
		}
		if d := CompareBytes(a.Type, want, got); !d.Equal {
			r.Exact = false
			r.Diffs = append(r.Diffs, a.Name+": "+d.String())
			if s := repeat.Describe(k.ID, a.Name, got); s != "" {
				spread = append(spread, a.Name+": "+s)
			}
		}
	}
	if !r.Exact {
		r.Cause = "wrong bytes: " + strings.Join(r.Diffs, "; ")
		for _, f := range k.Features {
			if strings.Contains(f, "order-dependent") {
				r.Cause = "float atomics (the result depends on the order of the atomics): " + strings.Join(r.Diffs, "; ")
				if len(spread) > 0 {
					r.Cause += "; " + strings.Join(spread, "; ")
					r.H200Varies = true
				}
			}
		}
	}
	if len(kt.NCU) > 0 {
		r.HasNCU = true
		model := map[string]float64{}
		for kk, v := range rep.Memory {
			if f, ok := v.(float64); ok {
				model[kk] = f
			}
		}
		r.CountersN, r.CountersD = CounterMatch(model, kt.NCU)
		if m, err := NCUNumber(kt.NCU["sm__cycles_elapsed.max"]); err == nil && rep.Timing != nil {
			cyc, launch := rep.Timing.Cycles, rep.Timing.LaunchCycles
			// A ground truth taken under ncu's default clock control (clocks locked to
			// base) is compared with the launch overhead at the clocks the kernel ran at;
			// the model's is for unlocked clocks (the golden sets', and this truth's since
			// it was re-measured with --clock-control none).
			if ns, err := NCUNumber(kt.NCU["gpu__time_duration.sum"]); locked && err == nil && ns > 0 && m/ns < timing.BoostClockGHz {
				base := math.Round(launch * 1000 / timing.BoostPermille)
				cyc, launch = cyc-(launch-base), base
			}
			r.CycErr = RelErr(cyc, m)
			if rep.Timing.KernelCycles > 0 && m > launch {
				r.KCycErr = RelErr(cyc-launch, m-launch)
				r.KMeasured = m - launch
			}
		}
	}
	return r
}

func yn(b, tried bool) string {
	if !tried {
		return "–"
	}
	if b {
		return "yes"
	}
	return "**no**"
}

func pct(e float64) string {
	if math.IsNaN(e) {
		return "–"
	}
	return fmt.Sprintf("%+.0f%%", 100*e)
}

type stats struct {
	tried, compiles, runs, faults, compared, exact, ncu, counters, countersAll int
	varies                                                                     int // kernels whose H200 result varies run to run (RepeatFile)
}

func (s *stats) add(r PathResult) {
	if !r.Tried {
		return
	}
	s.tried++
	if r.Compiles {
		s.compiles++
	}
	if r.Runs {
		s.runs++
	}
	if r.Fault {
		s.faults++
	}
	if r.H200Varies {
		s.varies++
	}
	if r.Compared {
		s.compared++
	}
	if r.Exact {
		s.exact++
	}
	if r.HasNCU && r.Runs {
		s.ncu++
		s.counters += r.CountersN
		if r.CountersN == len(Counters) {
			s.countersAll++
		}
	}
}

// within counts the errors of v whose magnitude is at most limit.
func within(v []float64, limit float64) int {
	n := 0
	for _, x := range v {
		if math.Abs(x) <= limit {
			n++
		}
	}
	return n
}

func errStats(v []float64) (median, mean float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	a := make([]float64, len(v))
	for i, x := range v {
		a[i] = math.Abs(x)
	}
	sort.Float64s(a)
	if len(a)%2 == 1 {
		median = a[len(a)/2]
	} else {
		median = (a[len(a)/2-1] + a[len(a)/2]) / 2
	}
	for _, x := range a {
		mean += x
	}
	return median, mean / float64(len(a))
}

// approxRE finds the approximate PTX instructions (ex2.approx.ftz.f32, rsqrt.approx.f32, …).
var approxRE = regexp.MustCompile(`\b(ex2|lg2|rsqrt|rcp|sqrt|sin|cos|tanh|div)\.approx(\.ftz)?\.f32\b`)

// approxOps names the .approx instructions in a PTX text ("" when none).
func approxOps(ptx string) string {
	seen := map[string]bool{}
	for _, m := range approxRE.FindAllString(ptx, -1) {
		seen[m] = true
	}
	return strings.Join(sortedKeys(seen), ", ")
}

// approxEvidence names the .approx instructions of the clang path's PTX (from its report) and
// of nvcc's PTX, the code the H200 ran.
func approxEvidence(clangBase, nvccPTX string) string {
	var p []string
	if b, err := os.ReadFile(clangBase + ".json"); err == nil {
		var rep struct {
			PTX string `json:"ptx"`
		}
		if json.Unmarshal(b, &rep) == nil {
			if a := approxOps(rep.PTX); a != "" {
				p = append(p, "clang's PTX has "+a)
			}
		}
	}
	if b, err := os.ReadFile(nvccPTX); err == nil {
		if a := approxOps(string(b)); a != "" {
			p = append(p, "nvcc's PTX (what the H200 ran) has "+a)
		}
	}
	return strings.Join(p, "; ")
}

// explain is the one-line reason a clang-path kernel is not byte-exact, by the evidence at hand.
// n is the nvcc-PTX path's result of the same kernel: when that one is byte-exact,
// the simulator reproduces every instruction nvcc's code runs (.approx ones
// included), so the clang path's difference is in the code clang made.
func explain(k *Kernel, c, n PathResult, h200Ran bool, approx string) (key, text string) {
	switch {
	case c.Fault:
		return "faults as the H200 does (true bug in the public code)", c.Cause
	case !c.Runs && h200Ran && strings.Contains(c.Cause, "out-of-bounds"):
		return "out-of-bounds access KernelScope stops on; the H200 ran without a fault", c.Cause
	case !c.Runs:
		return causeKey(c.Cause), c.Cause
	}
	for _, f := range k.Features {
		if strings.Contains(f, "order-dependent") {
			if c.H200Varies {
				return "float atomics (order-dependent result; the H200 itself varies run to run)", c.Cause
			}
			return "float atomics (order-dependent result)", c.Cause
		}
	}
	if n.Tried && n.Exact {
		text = c.Cause + " — nvcc's PTX of the same source is byte-exact"
		if approx != "" {
			text += " (" + approx + ")"
		}
		return "clang's code differs from nvcc's (the nvcc-PTX path is byte-exact)", text
	}
	if approx != "" {
		return "approximate math (.approx instructions; special-functions issue 18)", c.Cause + " — " + approx
	}
	return "wrong bytes", c.Cause
}

// ofRepeatable is "exact / kernels" leaving out the kernels whose H200 result varies run to run.
func ofRepeatable(s stats) string {
	n := s.tried - s.varies
	if n <= 0 {
		return "–"
	}
	return fmt.Sprintf("%d / %d (%.1f%%)", s.exact, n, 100*float64(s.exact)/float64(n))
}

// Report writes docs/real-code.md from the local results and the stored H200 truth.
func Report(m *Manifest, out, h200, raw, doc string) error {
	truth, err := LoadTruth(h200)
	if err != nil {
		return fmt.Errorf("%w (run the device step first)", err)
	}
	san, err := LoadSanitizer(h200)
	if err != nil {
		return err
	}
	repeat, err := LoadRepeat(RepeatFile)
	if err != nil {
		return err
	}
	rev, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	checks, _ := os.ReadFile(filepath.Join(out, "local", "checks.txt"))
	source, err := os.ReadFile(filepath.Join(out, "local", "source.txt"))
	if err != nil {
		source = []byte("commit " + strings.TrimSpace(string(rev)))
	}
	dataDir := filepath.Join(out, "device", "data")
	var rows, findings, unexplained strings.Builder
	var cl, nv stats
	var clErr, nvErr, clKErr, nvKErr []float64
	var clKBig, nvKBig []float64 // kernel-only, of kernels whose measured kernel part is at least bigKernel cycles
	causes := map[string][]string{}
	repos := map[string]int{}
	templates, strictRuns := 0, 0
	var strictFail []string
	for i := range m.Kernels {
		k := &m.Kernels[i]
		repos[k.Repo]++
		kt := truth.Kernels[k.ID]
		cb := filepath.Join(out, "local", "clang", k.ID)
		nb := filepath.Join(out, "local", "nvcc", k.ID)
		c := evalPath(k, cb, true, kt, truth.Clock == "", dataDir, h200, raw, repeat)
		n := evalPath(k, nb, false, kt, truth.Clock == "", dataDir, h200, raw, repeat)
		if InstanceLine(k) != "" {
			templates++
			if rc, ok := readRC(filepath.Join(out, "local", "clang_strict", k.ID)); ok {
				if rc == 0 {
					strictRuns++
				} else {
					strictFail = append(strictFail, k.ID)
				}
			}
		}
		cl.add(c)
		nv.add(n)
		for _, p := range []struct {
			r      PathResult
			whole  *[]float64
			kernel *[]float64
			big    *[]float64
		}{{c, &clErr, &clKErr, &clKBig}, {n, &nvErr, &nvKErr, &nvKBig}} {
			if !math.IsNaN(p.r.CycErr) {
				*p.whole = append(*p.whole, p.r.CycErr)
			}
			if !math.IsNaN(p.r.KCycErr) {
				*p.kernel = append(*p.kernel, p.r.KCycErr)
				if p.r.KMeasured >= bigKernel {
					*p.big = append(*p.big, p.r.KCycErr)
				}
			}
		}
		h := "yes"
		if kt == nil || !kt.Ran {
			h = "**no**"
		}
		commit := m.Commit(k)
		prov := fmt.Sprintf("[%s](https://github.com/%s/blob/%s/%s) `%s` lines %s", k.Repo, k.Repo, commit, k.Path, filepath.Base(k.Path), rangesText(k.Lines))
		counters := func(r PathResult) string {
			if !r.HasNCU || !r.Runs {
				return "–"
			}
			s := fmt.Sprintf("%d/8", r.CountersN)
			if len(r.CountersD) > 0 {
				s += " (" + strings.ReplaceAll(strings.Join(r.CountersD, "; "), "|", "\\|") + ")"
			}
			return s
		}
		var cause []string
		if kt != nil && !kt.Ran {
			cause = append(cause, "H200: "+strings.ReplaceAll(strings.ReplaceAll(kt.BuildError+kt.RunError, "|", "\\|"), "\n", " "))
		}
		if c.Cause != "" && c.Cause != "no H200 ground truth" {
			cause = append(cause, "clang: "+c.Cause)
		}
		if n.Cause != "" && n.Cause != "no H200 ground truth" {
			cause = append(cause, "nvcc PTX: "+n.Cause)
		}
		if !c.Exact {
			key, text := explain(k, c, n, kt != nil && kt.Ran, approxEvidence(cb, filepath.Join(out, "h200", "ptx", k.ID+".ptx")))
			causes[key] = append(causes[key], k.ID)
			fmt.Fprintf(&unexplained, "- **%s** (%s): %s\n", k.ID, key, strings.ReplaceAll(text, "|", "\\|"))
		}
		sanCell := func(r PathResult) string {
			if !r.Checked {
				return "–"
			}
			return strconv.Itoa(len(r.Findings))
		}
		cs := san.Flagged(k.ID)
		csCell := "clean"
		switch {
		case san == nil || san.Kernels[k.ID] == nil:
			csCell = "–"
		case cs != "":
			csCell = "**flagged**"
		}
		for _, p := range []struct {
			name string
			r    PathResult
		}{{"clang", c}, {"nvcc PTX", n}} {
			for _, f := range p.r.Findings {
				fmt.Fprintf(&findings, "| %s | %s | %s |\n", k.ID, p.name, strings.ReplaceAll(f, "|", "\\|"))
			}
		}
		if cs != "" {
			fmt.Fprintf(&findings, "| %s | compute-sanitizer on the H200 | %s |\n", k.ID, strings.ReplaceAll(cs, "|", "\\|"))
		}
		fmt.Fprintf(&rows, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s |\n", k.ID, prov, k.Exercises, h,
			yn(c.Compiles, c.Tried), yn(c.Runs, c.Tried && c.Compiles), yn(c.Exact, c.Compared),
			yn(n.Runs, n.Tried), yn(n.Exact, n.Compared), counters(c), counters(n), pct(c.CycErr)+" / "+pct(n.CycErr),
			pct(c.KCycErr)+" / "+pct(n.KCycErr), sanCell(c), sanCell(n), csCell,
			strings.Join(cause, "<br>"))
	}
	clMed, clMean := pctAbs(errStats(clErr))
	nvMed, nvMean := pctAbs(errStats(nvErr))
	clKMed, clKMean := pctAbs(errStats(clKErr))
	nvKMed, nvKMean := pctAbs(errStats(nvKErr))
	clBMed, clBMean := pctAbs(errStats(clKBig))
	nvBMed, nvBMean := pctAbs(errStats(nvKBig))
	var b strings.Builder
	total := len(m.Kernels)
	ran := 0
	for _, kt := range truth.Kernels {
		if kt.Ran {
			ran++
		}
	}
	percent := func(n int) string { return fmt.Sprintf("%d / %d (%.1f%%)", n, total, 100*float64(n)/float64(total)) }
	fmt.Fprintf(&b, `# KernelScope on real CUDA written by others

%d device kernels from %d public repositories, extracted unmodified (the lines are named per kernel in
[testdata/realcode/manifest.json](../testdata/realcode/manifest.json)), each launched once with
deterministic inputs, run by KernelScope on the toolkit-free **clang path** (the CUDA source through
clang-19) and on the **nvcc-PTX path** (nvcc 13's PTX of the same source, made on the H200 machine),
compared byte for byte with the buffers the H200 produced and with Nsight Compute's counters.
Regenerate with `+"`bash scripts/real_code.sh`"+` (needs the repositories fetched under /work/.mirror; with
`+"`--device`"+` it also says how to remake the H200 ground truth). No third-party source or PTX is stored in this
repository: only provenance, our harness, and the measured figures (testdata/realcode/h200/results.json,
testdata/realcode/h200/sanitizer.json).

KernelScope built from %s. H200 ground truth: %s, %s, counters by %s; %d of %d kernels built and ran there. KernelScope's checks: `+"`--check %s`"+`.

## Totals

| | clang path | nvcc-PTX path |
|---|---|---|
| compiled | %s | (nvcc) %d / %d |
| ran to completion | %s | %s |
| stopped on a fault the H200 also hits (same line as compute-sanitizer's memcheck) | %d | %d |
| byte-exact vs H200 | %s | %s |
| byte-exact, of the kernels whose H200 result repeats (leaving out those that gave different values in 20 H200 runs) | %s | %s |
| memory counters equal to ncu (8 per kernel) | %d / %d (all 8 on %d kernels) | %d / %d (all 8 on %d kernels) |
| whole-launch cycles error vs sm__cycles_elapsed.max, median / mean of abs | %s / %s (%d kernels) | %s / %s (%d kernels) |
| kernel-only cycles error: (cycles − launch_cycles) vs (sm__cycles_elapsed.max − the same launch_cycles), median / mean of abs | %s / %s (%d kernels, %d within 25%%) | %s / %s (%d kernels, %d within 25%%) |
| the same, of the kernels whose measured kernel part is %d cycles or more (twice the 503-cycle run-to-run spread of one launch, testdata/timing_startup; below it the ratio is mostly noise) | %s / %s (%d kernels, %d within 25%%) | %s / %s (%d kernels, %d within 25%%) |

Template kernels (%d): the clang path runs them with one line of ours appended to the extraction,
`+"`static void *rc_instance = (void *)&NAME<ARGS>;`"+`, the instantiation the original host code's launch makes.
Without it (the extraction alone, launched as `+"`--launch 'NAME<ARGS><<<…>>>(…)'`"+`) %d of %d run; %s.

`, total, len(repos), strings.TrimSpace(string(source)), truth.GPU, truth.NVCC, clockText(truth.Clock), ran, total, strings.TrimSpace(string(checks)),
		percent(cl.compiles), ran, total,
		percent(cl.runs), percent(nv.runs), cl.faults, nv.faults,
		percent(cl.exact), percent(nv.exact), ofRepeatable(cl), ofRepeatable(nv),
		cl.counters, 8*cl.ncu, cl.countersAll, nv.counters, 8*nv.ncu, nv.countersAll,
		clMed, clMean, len(clErr), nvMed, nvMean, len(nvErr),
		clKMed, clKMean, len(clKErr), within(clKErr, 0.25), nvKMed, nvKMean, len(nvKErr), within(nvKErr, 0.25),
		bigKernel, clBMed, clBMean, len(clKBig), within(clKBig, 0.25), nvBMed, nvBMean, len(nvKBig), within(nvKBig, 0.25),
		templates, strictRuns, templates, strictText(strictFail, out))
	b.WriteString("## Notes\n\n- \"compiled\" on the clang path is a clean clang-19 compile (`kernelscope parse`) of the file the run uses.\n- Launches use KernelScope's syntax as it landed: `--launch 'NAME<ARGS><<<dim3(gx, gy, gz), dim3(bx, by, bz), SHMEM>>>(arg=file(\"…\"):type, n=…)'` (dynamic shared bytes as the third launch parameter), `--symbol 'SYM=file(\"…\"):f32'` once per `__constant__` symbol; the nvcc-PTX path passes arguments by position (nvcc's PTX keeps no parameter names), and its `--dump` files are still named after the PTX parameters (`_Z…_param_N.bin`), read by position.\n- The kernel-only cycles error takes KernelScope's own launch overhead (`timing.launch_cycles`) off both sides, since ncu's `sm__cycles_elapsed.max` includes the launch.\n")
	for _, n := range m.Notes {
		b.WriteString("- " + n + "\n")
	}
	b.WriteString("\n## Kernels not byte-exact on the clang path, one by one\n\n| cause | kernels |\n|---|---|\n")
	for _, key := range sortedByCount(causes) {
		fmt.Fprintf(&b, "| %s | %d: %s |\n", key, len(causes[key]), strings.Join(causes[key], ", "))
	}
	b.WriteString("\n" + unexplained.String())
	b.WriteString("\n## Correctness checks\n\nEvery finding of KernelScope's sanitizer (race, init, sync, order) on either path, and every kernel NVIDIA's compute-sanitizer flagged on the H200 (racecheck and synccheck on every kernel; memcheck and initcheck on the kernels named in sanitizer.json). \"×N\" is the count of merged occurrences.\n\n| kernel | by | finding |\n|---|---|---|\n")
	b.WriteString(findings.String())
	b.WriteString(`
## Per kernel

Columns: H200 = the H200 built and ran it (ground truth exists); clang compiles / runs / exact;
nvcc-PTX runs / exact; memory counters equal to ncu's (global load/store requests and sectors,
shared load/store wavefronts and bank conflicts) on each path; cycles error, whole launch and
kernel-only (clang / nvcc-PTX); sanitizer findings (clang / nvcc-PTX / compute-sanitizer on the H200).

| id | provenance | exercises | H200 | clang compiles | clang runs | clang exact | PTX runs | PTX exact | counters clang | counters PTX | cycles err | kernel-only err | findings | cause |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
`)
	b.WriteString(rows.String())
	b.WriteString("\nRepositories: ")
	var rl []string
	for _, r := range sortedKeys(m.Repos) {
		rl = append(rl, fmt.Sprintf("[%s](https://github.com/%s) @ %s (%d kernels)", r, r, m.Repos[r][:12], repos[r]))
	}
	b.WriteString(strings.Join(rl, ", ") + ".\n")
	return os.WriteFile(doc, []byte(b.String()), 0o644)
}

// strictText says how the template kernels fail without the instantiation line.
func strictText(ids []string, out string) string {
	if len(ids) == 0 {
		return "none fails"
	}
	msg := firstLine(filepath.Join(out, "local", "clang_strict", ids[0]+".err"))
	return fmt.Sprintf("%s stop with %q", strings.Join(ids, ", "), srcPathRE.ReplaceAllString(msg, ""))
}

func pctAbs(med, mean float64) (string, string) {
	if math.IsNaN(med) {
		return "–", "–"
	}
	return fmt.Sprintf("%.1f%%", 100*med), fmt.Sprintf("%.1f%%", 100*mean)
}

var (
	srcPathRE = regexp.MustCompile(`\S*device/src/\w+\.cu: `)
	withRE    = regexp.MustCompile(`unexpected "with \w+=file.*`)
)

// causeKey shortens a message to its general cause: file names, line numbers and quoted names go.
func causeKey(s string) string {
	s = srcPathRE.ReplaceAllString(s, "")
	s = withRE.ReplaceAllString(s, `unexpected "with SYMBOL=file(...)"`)
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

func sortedByCount(m map[string][]string) []string {
	keys := sortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool { return len(m[keys[i]]) > len(m[keys[j]]) })
	return keys
}

// bigKernel is the least measured kernel part (cycles) of the second kernel-only figure.
const bigKernel = 1000

// clockText says at which clocks the ground truth's counters were taken.
func clockText(c string) string {
	if c == "" {
		return "`ncu --clock-control base` (ncu's default, clocks locked at ~1.5 GHz)"
	}
	return "`" + c + "`"
}
