package analysis_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/internal/golden"
	"github.com/kernelscope/kernelscope/magics"
	"github.com/kernelscope/kernelscope/samples"
)

// TestChecksCleanOnNotebooks runs every CUDA and PTX cell of the course
// notebooks, in order and with the cell language's state carried from cell
// to cell, with race, init and sync checks on: none may report a finding,
// except cells tagged "planted-bug" (a lesson's deliberate bug), which must.
func TestChecksCleanOnNotebooks(t *testing.T) {
	t.Parallel() // long and independent: runs beside the package's other long tests
	haveClang(t)
	files, err := filepath.Glob("../../notebooks/*.ipynb")
	if err != nil || len(files) == 0 {
		t.Fatalf("no notebooks: %v", err)
	}
	checks, _ := analysis.ParseChecks("race,init,sync")
	launches := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type     string          `json:"cell_type"`
				Source   json.RawMessage `json:"source"`
				Metadata struct {
					Tags []string `json:"tags"`
				} `json:"metadata"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(raw, &nb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		st := magics.NewState()
		for i, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			var lines []string
			if json.Unmarshal(c.Source, &lines) != nil {
				var s string
				_ = json.Unmarshal(c.Source, &s)
				lines = []string{s}
			}
			spec, err := st.Parse(strings.Join(lines, ""))
			if err != nil || spec.Kind == magics.Config || spec.Compared || spec.Help || spec.LsMagic || spec.ListSamples {
				continue
			}
			req := analysis.Request{Source: []byte(spec.Source), SourceFile: "cell.cu", IsPTX: spec.Kind == magics.PTX, Cell: true,
				Arch: spec.Arch, Grid: spec.Grid, Block: spec.Block, Launch: spec.Launch, Budget: spec.Budget,
				Compiler: "clang", Checks: checks, BaseDir: filepath.Dir(f)}
			if req.IsPTX {
				req.SourceFile = "cell.ptx"
			}
			if spec.Sample != "" {
				s, ok := samples.Get(spec.Sample)
				if !ok {
					continue
				}
				req.Source, req.SourceFile, req.IsPTX = []byte(s.CUDA), s.Name+".cu", false
				if req.Launch == nil && s.Launch != "" {
					if req.Launch, err = magics.ParseLaunch(s.Launch); err != nil {
						t.Fatalf("sample %s: %v", s.Name, err)
					}
				}
				if req.Grid == [3]int{} {
					req.Grid = s.Grid
				}
				if req.Block == [3]int{} {
					req.Block = s.Block
				}
			}
			req.Trace.Steps = -1
			rep, err := analysis.Run(context.Background(), req)
			if err != nil || rep == nil || !rep.Simulated {
				continue // cells that demonstrate errors
			}
			launches++
			if slices.Contains(c.Metadata.Tags, "planted-bug") {
				if len(rep.Sanitizer) == 0 {
					t.Errorf("%s cell %d is tagged planted-bug but the checks found nothing", filepath.Base(f), i)
				}
				continue
			}
			for _, fd := range rep.Sanitizer {
				t.Errorf("%s cell %d: %s: %s", filepath.Base(f), i, fd.Kind, fd.Message)
			}
		}
	}
	t.Logf("%d notebook launches checked", launches)
	if launches < 20 {
		t.Errorf("only %d notebook launches ran", launches)
	}
}

// TestChecksCleanOnGoldenClang runs the golden kernels compiled by clang-19
// (the sim package checks nvcc's PTX of the same sources) with every check on,
// including the order check: none may report a finding.
func TestChecksCleanOnGoldenClang(t *testing.T) {
	t.Parallel() // long and independent: runs beside the package's other long tests
	haveClang(t)
	cases, err := golden.Cases()
	if err != nil {
		t.Fatal(err)
	}
	checks, _ := analysis.ParseChecks("all")
	dir := filepath.Join("..", "..", "testdata", "golden")
	for _, c := range cases {
		var args []string
		for _, a := range c.Args {
			if strings.HasSuffix(a.Type, "*") {
				args = append(args, fmt.Sprintf("%s=file(%q):%s", a.Name, a.Input, strings.TrimSuffix(a.Type, "*")))
			} else {
				args = append(args, fmt.Sprintf("%s=%s", a.Name, a.Value))
			}
		}
		l, err := magics.ParseLaunch(fmt.Sprintf("%s(%s)", c.Kernel, strings.Join(args, ", ")))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if c.SharedBytes > 0 {
			l.Shared, l.SharedSet = c.SharedBytes, true
		}
		src, err := os.ReadFile(filepath.Join(dir, c.Source))
		if err != nil {
			t.Fatal(err)
		}
		req := analysis.Request{Source: src, SourceFile: filepath.Base(c.Source), Arch: "sm_90", Grid: c.Grid, Block: c.Block,
			Launch: l, Compiler: "clang", Checks: checks, BaseDir: dir}
		req.Trace.Steps = -1
		rep, err := analysis.Run(context.Background(), req)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		for _, fd := range rep.Sanitizer {
			t.Errorf("%s: %s: %s", c.Name, fd.Kind, fd.Message)
		}
	}
}
