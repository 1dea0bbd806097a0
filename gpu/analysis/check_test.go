package analysis_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
	"github.com/kernelscope/kernelscope/magics"
)

// bugRE marks the CUDA line where a corpus kernel's bug must be found: `// BUG race`.
var bugRE = regexp.MustCompile(`//\s*BUG\s+([a-z_,]+)`)

// runCell runs a corpus file as a notebook cell would, with every check on.
func runCell(t *testing.T, path string) (*report.Report, string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := magics.NewState().Parse(string(src))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	checks, err := analysis.ParseChecks("all")
	if err != nil {
		t.Fatal(err)
	}
	req := analysis.Request{Source: []byte(spec.Source), SourceFile: "cell.cu", Cell: true, Arch: spec.Arch,
		Grid: spec.Grid, Block: spec.Block, Launch: spec.Launch, Budget: spec.Budget, Compiler: "clang",
		Checks: checks, Expect: spec.Expect, BaseDir: filepath.Dir(path)}
	req.Trace.Steps = -1
	rep, err := analysis.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rep, string(src)
}

// haveClang skips the test when no clang can compile CUDA here.
func haveClang(t *testing.T) {
	t.Helper()
	if _, err := toolchain.Compile(context.Background(), toolchain.Request{Source: "extern \"C\" __global__ void k() {}", File: "k.cu", Arch: "sm_80", Compiler: "clang"}); err != nil {
		t.Skipf("no clang: %v", err)
	}
}

// TestCheckCorpus: every planted bug of testdata/check is found on its line
// with its kind, nothing else is reported, and every fixed twin is clean.
func TestCheckCorpus(t *testing.T) {
	t.Parallel() // long and independent: runs beside the package's other long tests
	haveClang(t)
	files, err := filepath.Glob("testdata/check/*.cu")
	if err != nil {
		t.Fatal(err)
	}
	bugs, twins := 0, 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".cu")
		t.Run(name, func(t *testing.T) {
			rep, src := runCell(t, f)
			want := map[int][]string{}
			for i, line := range strings.Split(src, "\n") {
				if m := bugRE.FindStringSubmatch(line); m != nil {
					want[i+1] = strings.Split(m[1], ",")
				}
			}
			fixed := strings.HasSuffix(name, "_fixed")
			if fixed {
				twins++
				if len(want) != 0 {
					t.Fatalf("a fixed twin has BUG marks")
				}
				if _, err := os.Stat(strings.TrimSuffix(f, "_fixed.cu") + ".cu"); err != nil {
					t.Errorf("fixed twin without its buggy kernel: %v", err)
				}
			} else {
				bugs++
				if len(want) == 0 {
					t.Fatalf("no BUG mark")
				}
				if _, err := os.Stat(strings.TrimSuffix(f, ".cu") + "_fixed.cu"); err != nil {
					t.Errorf("buggy kernel without a fixed twin: %v", err)
				}
			}
			found := map[string]bool{}
			for _, fd := range rep.Sanitizer {
				ok := false
				if fd.Kind == "order_dependence" {
					// Output differences have no line: any order_dependence mark matches.
					for line, kinds := range want {
						for _, k := range kinds {
							if k == fd.Kind {
								found[fmt.Sprint(line, k)] = true
								ok = true
							}
						}
					}
				}
				for _, line := range []int{fd.CUDALine, fd.OtherCUDALine} {
					for _, k := range want[line] {
						if k == fd.Kind {
							found[fmt.Sprint(line, k)] = true
							ok = true
						}
					}
				}
				if !ok {
					t.Errorf("unexpected finding: %s %s", fd.Kind, fd.Message)
				}
			}
			var lines []int
			for l := range want {
				lines = append(lines, l)
			}
			sort.Ints(lines)
			for _, l := range lines {
				for _, k := range want[l] {
					if !found[fmt.Sprint(l, k)] {
						t.Errorf("line %d: %s not found (findings: %v)", l, k, messages(rep))
					}
				}
			}
		})
	}
	if bugs < 20 || twins != bugs {
		t.Errorf("corpus has %d buggy kernels and %d fixed twins; want at least 20 of each, paired", bugs, twins)
	}
}

func messages(rep *report.Report) []string {
	var out []string
	for _, f := range rep.Sanitizer {
		out = append(out, f.Kind+": "+f.Message)
	}
	return out
}
