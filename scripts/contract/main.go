// Command contract measures the clang path's floating-point contraction against nvcc's
// machine code, per kernel: fma/mul/add counts of clang's PTX with clang's own contraction
// (-ffp-contract=fast-honor-pragmas, the default before 2026-12-02) and with the nvcc rule
// (today's default), against the H200's SASS where it is recorded (testdata/contract,
// testdata/golden/sass) or else against nvcc's PTX passed through the measured ptxas fusion
// model (internal/fpmix.PTXAfterPtxas; the real-code set, whose nvcc PTX comes from the H200).
// It writes a Markdown table of the kernels where any of the three differ, and totals.
//
//	go run ./scripts/contract [-o FILE]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
	"github.com/kernelscope/kernelscope/internal/fpmix"
)

func main() {
	out := flag.String("o", "", "write the Markdown here (default stdout)")
	root := flag.String("root", ".", "repository root")
	flag.Parse()
	if err := run(context.Background(), *root, *out); err != nil {
		fmt.Fprintln(os.Stderr, "contract:", err)
		os.Exit(1)
	}
}

// source is one CUDA file and its truth: a SASS listing or nvcc's PTX.
type source struct {
	set, id, cu string
	sass, ptx   string // one of the two
	kernel      string // the one kernel to compare ("" for all)
}

// row is one kernel's counts.
type row struct {
	set, id, kernel string
	own, rule, nv   fpmix.Counts
	truth           string // "SASS" or "PTX+model"
	err             string
}

func run(ctx context.Context, root, outPath string) error {
	srcs, err := collect(root)
	if err != nil {
		return err
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
	return write(w, rows)
}

func collect(root string) ([]source, error) {
	out := []source{{set: "patterns", id: "patterns", cu: filepath.Join(root, "testdata/contract/patterns.cu"),
		sass: filepath.Join(root, "testdata/contract/nvcc_sm90.sass")}}
	files, _ := filepath.Glob(filepath.Join(root, "testdata/golden/src/*.cu"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".cu")
		out = append(out, source{set: "golden", id: name, cu: f, sass: filepath.Join(root, "testdata/golden/sass", name+".sm_90.sass")})
	}
	b, err := os.ReadFile(filepath.Join(root, "testdata/realcode/manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("realcode manifest: %w", err)
	}
	var m struct{ Kernels []struct{ ID, Kernel string } }
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
		out = append(out, source{set: "realcode", id: k.ID, cu: cu, ptx: p, kernel: k.Kernel})
	}
	return out, nil
}

func measure(ctx context.Context, s source) ([]row, error) {
	src, err := os.ReadFile(s.cu)
	if err != nil {
		return nil, err
	}
	if i := strings.IndexByte(s.kernel, '<'); i > 0 {
		// A template kernel: instantiate it as the launch does (gpu/analysis), after the code.
		src = append(src, fmt.Sprintf("\nstatic void *__kernelscope_instance_ = (void *)&%s;\n", s.kernel)...)
	}
	compile := func(flags []string) (map[string]fpmix.Counts, error) {
		res, err := toolchain.Compile(ctx, toolchain.Request{Source: string(src), File: filepath.Base(s.cu), Arch: "sm_90",
			Compiler: "clang", Flags: flags, IncludeDir: filepath.Dir(s.cu)})
		if err != nil {
			return nil, err
		}
		return fpmix.PTX(string(res.PTX)), nil
	}
	rule, err := compile(nil)
	if err != nil {
		return nil, err
	}
	own, err := compile([]string{"-ffp-contract=fast-honor-pragmas"})
	if err != nil {
		return nil, err
	}
	var truth map[string]fpmix.Counts
	kind := "SASS"
	if s.sass != "" {
		b, err := os.ReadFile(s.sass)
		if err != nil {
			return nil, err
		}
		truth = fpmix.SASS(string(b))
	} else {
		b, err := os.ReadFile(s.ptx)
		if err != nil {
			return nil, err
		}
		truth, kind = fpmix.PTXAfterPtxas(string(b)), "PTX+model"
	}
	names := make([]string, 0, len(truth))
	for name := range truth {
		names = append(names, name)
	}
	sort.Strings(names)
	var rows []row
	for _, name := range names {
		nv := truth[name]
		if s.kernel != "" && !matches(name, s.kernel) {
			continue
		}
		r, ok := rule[name]
		if !ok {
			rows = append(rows, row{set: s.set, id: s.id, err: "kernel " + name + " missing from clang's PTX"})
			continue
		}
		rows = append(rows, row{set: s.set, id: s.id, kernel: name, own: own[name], rule: r, nv: nv, truth: kind})
	}
	return rows, nil
}

// matches says whether a manifest kernel name ("offset<float>", "reduce<512>") names the mangled kernel.
func matches(mangled, want string) bool {
	if mangled == want || ptx.FuncName(mangled) == want {
		return true
	}
	n := ptx.FuncName(mangled)
	if a, ok := ptx.TemplateArgs(mangled); ok {
		n += "<" + a + ">"
	}
	strip := func(s string) string { return strings.NewReplacer(" ", "", "u", "").Replace(s) }
	return strip(n) == strip(want)
}

func write(w io.Writer, rows []row) error {
	type total struct{ n, own, rule int }
	totals := map[string]*total{}
	order := []string{"patterns", "golden", "realcode"}
	var b strings.Builder
	b.WriteString("| set | kernel | truth | nvcc (H200) | clang's own | nvcc rule |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		if r.err != "" {
			fmt.Fprintf(&b, "| %s | %s | | compile error: %s | | |\n", r.set, r.id, strings.ReplaceAll(r.err, "\n", " "))
			continue
		}
		t := totals[r.set]
		if t == nil {
			t = &total{}
			totals[r.set] = t
		}
		t.n++
		o, u := fpmix.Equal(r.own, r.nv), fpmix.Equal(r.rule, r.nv)
		if o {
			t.own++
		}
		if u {
			t.rule++
		}
		if o && u {
			continue
		}
		mark := func(c fpmix.Counts, same bool) string {
			if same {
				return c.String() + " (same)"
			}
			return c.String()
		}
		name := r.id
		if r.set != "realcode" {
			name += ": " + r.kernel
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.set, name, r.truth, r.nv, mark(r.own, o), mark(r.rule, u))
	}
	b.WriteString("\n| set | kernels | same fma/mul/add as nvcc: clang's own contraction | with the nvcc rule |\n|---|---|---|---|\n")
	all := total{}
	for _, s := range order {
		if t := totals[s]; t != nil {
			fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", s, t.n, t.own, t.rule)
			all.n, all.own, all.rule = all.n+t.n, all.own+t.own, all.rule+t.rule
		}
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d |\n", all.n, all.own, all.rule)
	_, err := io.WriteString(w, b.String())
	return err
}
