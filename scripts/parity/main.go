// Command parity compiles CUDA sources with KernelScope's clang path (sm_90) and compares
// each kernel's PTX with nvcc's: global/shared/local loads and stores by width, .nc loads,
// local memory, instruction classes. It writes a Markdown table and totals.
//
//	go run ./scripts/parity [-o docs/clang-parity.md] [-sets golden,realcode,own]
//
// Sets: golden (testdata/golden/src, nvcc PTX in testdata/golden/ptx/NAME.sm_90.ptx),
// realcode (build/realcode/device/src, nvcc PTX from the H200 in build/realcode/h200/ptx;
// third-party code, never committed: rows carry the manifest id and numbers only; the set
// is skipped when absent), own (testdata/realcuda/launch, nvcc PTX in h200/ptx), parity
// (scripts/parity/kernels: kernels written for this comparison, nvcc PTX in h200/).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

func main() {
	out := flag.String("o", "", "write the Markdown here (default stdout)")
	sets := flag.String("sets", "golden,realcode,own,parity", "comma-separated sets to measure")
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	if err := run(context.Background(), *root, strings.Split(*sets, ","), *out); err != nil {
		fmt.Fprintln(os.Stderr, "parity:", err)
		os.Exit(1)
	}
}

// source is one CUDA file and the nvcc PTX it is compared with.
type source struct {
	set, id, cu, nvccPTX string
	kernel               string // the one kernel to compare ("" for every kernel)
	thirdParty           bool
}

func run(ctx context.Context, root string, sets []string, outPath string) error {
	var srcs []source
	for _, s := range sets {
		got, err := collect(root, strings.TrimSpace(s))
		if err != nil {
			return err
		}
		srcs = append(srcs, got...)
	}
	var rows []row
	for _, s := range srcs {
		rs, err := measure(ctx, s)
		if err != nil {
			rows = append(rows, row{set: s.set, id: s.id, err: err.Error()})
			continue
		}
		rows = append(rows, rs...)
	}
	var w io.Writer = os.Stdout
	if outPath != "" {
		f, err := os.Create(outPath)
		if err != nil {
			return fmt.Errorf("create %s: %w", outPath, err)
		}
		defer f.Close()
		w = f
	}
	return writeMarkdown(w, rows)
}

// collect lists the sources of one set.
func collect(root, set string) ([]source, error) {
	var out []source
	switch set {
	case "golden":
		files, _ := filepath.Glob(filepath.Join(root, "testdata/golden/src/*.cu"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".cu")
			out = append(out, source{set: set, id: name, cu: f, nvccPTX: filepath.Join(root, "testdata/golden/ptx", name+".sm_90.ptx")})
		}
	case "own":
		files, _ := filepath.Glob(filepath.Join(root, "testdata/realcuda/launch/*.cu"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".cu")
			p := filepath.Join(root, "testdata/realcuda/launch/h200/ptx", name+".sm_90.ptx")
			if _, err := os.Stat(p); err != nil {
				continue // a harness, not a kernel file
			}
			out = append(out, source{set: set, id: name, cu: f, nvccPTX: p})
		}
	case "realcode":
		b, err := os.ReadFile(filepath.Join(root, "testdata/realcode/manifest.json"))
		if err != nil {
			return nil, fmt.Errorf("realcode manifest: %w", err)
		}
		var m struct {
			Kernels []struct{ ID, Kernel string }
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("realcode manifest: %w", err)
		}
		for _, k := range m.Kernels {
			cu := filepath.Join(root, "build/realcode/device/src", k.ID+".cu")
			p := filepath.Join(root, "build/realcode/h200/ptx", k.ID+".ptx")
			if _, err := os.Stat(cu); err != nil {
				continue
			}
			if _, err := os.Stat(p); err != nil {
				continue
			}
			out = append(out, source{set: set, id: k.ID, cu: cu, nvccPTX: p, kernel: k.Kernel, thirdParty: true})
		}
	case "parity":
		files, _ := filepath.Glob(filepath.Join(root, "scripts/parity/kernels/*.cu"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".cu")
			out = append(out, source{set: set, id: name, cu: f, nvccPTX: filepath.Join(root, "scripts/parity/kernels/h200", name+".sm_90.ptx")})
		}
	default:
		return nil, fmt.Errorf("unknown set %q (golden, realcode, own, parity)", set)
	}
	return out, nil
}

// stats are one kernel's static PTX figures.
type stats struct {
	total, arith, move, control int
	mem                         map[string]int // "ld.global.128" -> count
	nc                          int
	localBytes                  int
	localOps                    int // ld.local + st.local
}

// row is one kernel compared.
type row struct {
	set, id     string
	clang, nvcc stats
	err         string
}

func measure(ctx context.Context, s source) ([]row, error) {
	src, err := os.ReadFile(s.cu)
	if err != nil {
		return nil, err
	}
	nv, err := os.ReadFile(s.nvccPTX)
	if err != nil {
		return nil, err
	}
	nvMod, err := ptx.Parse(filepath.Base(s.nvccPTX), nv)
	if err != nil {
		return nil, fmt.Errorf("nvcc PTX: %w", err)
	}
	if i := strings.IndexByte(s.kernel, '<'); i > 0 {
		// A template kernel: instantiate it as the launch does (gpu/analysis), after the code.
		src = append(src, fmt.Sprintf("\nstatic void *__kernelscope_instance_ = (void *)&%s;\n", s.kernel)...)
	}
	res, err := toolchain.Compile(ctx, toolchain.Request{Source: string(src), File: filepath.Base(s.cu), Arch: "sm_90",
		Compiler: "clang", IncludeDir: filepath.Dir(s.cu), Timeout: 2 * time.Minute})
	if err != nil {
		var ce *toolchain.CompileError
		if errors.As(err, &ce) {
			return nil, errors.New("clang: compile error")
		}
		return nil, err
	}
	clMod, err := ptx.Parse("clang.ptx", res.PTX)
	if err != nil {
		return nil, fmt.Errorf("clang PTX: %w", err)
	}
	var rows []row
	for _, k := range nvMod.Kernels() {
		if s.kernel != "" && !nameMatches(k.Name, s.kernel) {
			continue
		}
		ck := clMod.Func(k.Name)
		id := s.id
		if !s.thirdParty {
			id = s.id + ": " + displayName(k.Name)
		} else if len(rows) > 0 {
			id = fmt.Sprintf("%s #%d", s.id, len(rows)+1)
		}
		if ck == nil || !ck.Entry {
			rows = append(rows, row{set: s.set, id: id, err: "kernel missing from clang's PTX"})
			continue
		}
		rows = append(rows, row{set: s.set, id: id, clang: kernelStats(clMod, ck), nvcc: kernelStats(nvMod, k)})
	}
	if len(rows) == 0 {
		return nil, errors.New("no kernel matched in nvcc's PTX")
	}
	return rows, nil
}

// displayName is a kernel's plain name with its template arguments: "MatrixMul<16>".
func displayName(mangled string) string {
	n := ptx.FuncName(mangled)
	if a, ok := ptx.TemplateArgs(mangled); ok {
		n += "<" + a + ">"
	}
	return n
}

// nameMatches says whether a manifest kernel name ("offset<float>", "reduce<512>") names the mangled kernel.
func nameMatches(mangled, want string) bool {
	if mangled == want || ptx.FuncName(mangled) == want {
		return true
	}
	strip := func(s string) string { return strings.NewReplacer(" ", "", "u", "").Replace(s) }
	return strip(displayName(mangled)) == strip(want)
}

// kernelStats counts one function's instructions, following the .func it calls once each.
func kernelStats(m *ptx.Module, k *ptx.Func) stats {
	st := stats{mem: map[string]int{}}
	seen := map[string]bool{}
	var walk func(f *ptx.Func)
	walk = func(f *ptx.Func) {
		if f == nil || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		for _, v := range f.Vars {
			if v.Space == ptx.SpaceLocal {
				st.localBytes += v.Size()
			}
		}
		for _, in := range f.Insts {
			st.total++
			switch in.Op {
			case "ld", "st", "ldu", "atom", "red":
				space, bits := memShape(in)
				if space == "param" {
					st.move++
					continue
				}
				st.mem[in.Op+"."+space+"."+fmt.Sprint(bits)]++
				if space == "local" {
					st.localOps++
				}
				if in.Op == "ld" && hasMod(in, "nc") {
					st.nc++
				}
			case "bra", "call", "ret", "exit", "bar", "barrier", "membar", "fence", "brx":
				st.control++
				if in.Op == "call" && len(in.Args) > 0 {
					for _, a := range in.Args {
						if a.Kind == ptx.OpSym {
							if g := m.Func(a.Name); g != nil && g.HasBody {
								walk(g)
							}
						}
					}
				}
			case "mov", "cvt", "cvta":
				st.move++
			default:
				st.arith++
			}
		}
	}
	walk(k)
	return st
}

func hasMod(in *ptx.Inst, m string) bool {
	for _, x := range in.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// memShape is a memory instruction's state space ("generic" when none) and width in bits.
func memShape(in *ptx.Inst) (string, int) {
	space, vec, size := "generic", 1, 0
	for _, m := range in.Mods {
		switch {
		case m == "global" || m == "shared" || m == "local" || m == "param" || m == "const" ||
			strings.HasPrefix(m, "shared::"):
			space = strings.TrimSuffix(m, "::cta")
		case m == "v2":
			vec = 2
		case m == "v4":
			vec = 4
		case m == "v8":
			vec = 8
		default:
			if t, ok := ptx.TypeByName(m); ok && t.Size() > 0 {
				size = t.Size()
			}
		}
	}
	return space, vec * size * 8
}

// memSig is the global load/store shape of a kernel: "ld32×2 st128×1".
func memSig(s stats, space string) string {
	var keys []string
	for k := range s.mem {
		if strings.Contains(k, "."+space+".") && (strings.HasPrefix(k, "ld.") || strings.HasPrefix(k, "st.")) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		f := strings.Split(k, ".")
		parts = append(parts, fmt.Sprintf("%s%s×%d", f[0], f[2], s.mem[k]))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, " ")
}

// sameGlobal says whether both compilers emit the same global loads and stores by width
// (generic loads and stores count as global: both compilers use them for pointers they cannot place).
func sameGlobal(a, b stats) bool {
	return memSig(a, "global") == memSig(b, "global") && memSig(a, "generic") == memSig(b, "generic")
}

// ratioStats is the median, lowest and highest of a set of ratios ("–" when empty).
func ratioStats(rs []float64) string {
	if len(rs) == 0 {
		return "–"
	}
	rs = append([]float64(nil), rs...)
	sort.Float64s(rs)
	med := rs[len(rs)/2]
	if len(rs)%2 == 0 {
		med = (rs[len(rs)/2-1] + rs[len(rs)/2]) / 2
	}
	return fmt.Sprintf("%.2f (%.2f–%.2f)", med, rs[0], rs[len(rs)-1])
}

func writeMarkdown(w io.Writer, rows []row) error {
	var b strings.Builder
	b.WriteString("| set | kernel | instr clang/nvcc | ratio | global ld/st by width: clang | nvcc | same | .nc clang/nvcc | local B clang/nvcc | ld/st.local clang/nvcc |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	type tot struct {
		n, same, localOnlyClang, sameNC, errs int
		ratios                                []float64
	}
	tots := map[string]*tot{}
	order := []string{}
	all := &tot{}
	for _, r := range rows {
		t := tots[r.set]
		if t == nil {
			t = &tot{}
			tots[r.set] = t
			order = append(order, r.set)
		}
		if r.err != "" {
			t.errs++
			all.errs++
			fmt.Fprintf(&b, "| %s | %s | %s | | | | | | | |\n", r.set, r.id, r.err)
			continue
		}
		same := sameGlobal(r.clang, r.nvcc)
		ratio := float64(r.clang.total) / float64(max(r.nvcc.total, 1))
		for _, x := range []*tot{t, all} {
			x.n++
			if same {
				x.same++
			}
			if r.clang.localBytes > 0 && r.nvcc.localBytes == 0 {
				x.localOnlyClang++
			}
			if r.clang.nc == r.nvcc.nc {
				x.sameNC++
			}
			x.ratios = append(x.ratios, ratio)
		}
		sig := func(s stats) string {
			g := memSig(s, "global")
			if x := memSig(s, "generic"); x != "–" {
				g += " generic:" + x
			}
			return g
		}
		mark := "yes"
		if !same {
			mark = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s | %d/%d | %.2f | %s | %s | %s | %d/%d | %d/%d | %d/%d |\n", r.set, r.id,
			r.clang.total, r.nvcc.total, ratio, sig(r.clang), sig(r.nvcc), mark, r.clang.nc, r.nvcc.nc,
			r.clang.localBytes, r.nvcc.localBytes, r.clang.localOps, r.nvcc.localOps)
	}
	b.WriteString("\n| set | kernels | same global ld/st by width | same .nc count | local memory where nvcc has none | instructions clang/nvcc: median (lowest–highest) | not compared |\n|---|---|---|---|---|---|---|\n")
	line := func(name string, t *tot) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %d |\n", name, t.n, t.same, t.sameNC, t.localOnlyClang, ratioStats(t.ratios), t.errs)
	}
	for _, s := range order {
		line(s, tots[s])
	}
	line("all", all)
	_, err := io.WriteString(w, b.String())
	return err
}
