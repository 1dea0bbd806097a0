package engine

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/render"
)

// reportSources is a cell report's "sources" (file -> text) and its rows naming
// each file, by the line they name, summed over thread executions.
func reportSources(t *testing.T, r *recorder) (map[string]string, map[string]map[int]float64, string) {
	t.Helper()
	if len(r.displays) == 0 {
		t.Fatal("the cell published nothing")
	}
	d := r.displays[len(r.displays)-1]
	rep, ok := d[render.MIMEReport].(map[string]any)
	if !ok {
		t.Fatalf("no report: %v", d[render.MIMEText])
	}
	srcs := map[string]string{}
	list, _ := rep["sources"].([]any)
	for _, s := range list {
		m := s.(map[string]any)
		srcs[m["file"].(string)] = m["text"].(string)
	}
	execs := map[string]map[int]float64{}
	lines, _ := rep["lines"].([]any)
	for _, l := range lines {
		m := l.(map[string]any)
		f, _ := m["cuda_file"].(string)
		if execs[f] == nil {
			execs[f] = map[int]float64{}
		}
		execs[f][int(m["cuda_line"].(float64))] += m["thread_execs"].(float64)
	}
	html, _ := d[render.MIMEHTML].(string)
	return srcs, execs, html
}

// A notebook writes a header, includes it and keeps a definition: the reports of
// the cells that run their code show them, with counters on their lines.
func TestNotebookShowsHeaderAndDefinitionThatRan(t *testing.T) {
	needClang(t)
	for _, sandbox := range []bool{false, true} {
		var e *Engine
		if sandbox {
			e = New(t.TempDir(), nil, WithSandbox(), WithProgress(-1, 0))
		} else {
			e = newEngine(t)
		}
		header := "#pragma once\n__device__ inline float load_twice(const float *p, int i) {\n  float v = p[i];\n  return 2.0f * v;\n}\n"
		if _, err := run(t, e, "%%writefile vec.cuh\n"+header); err != nil {
			t.Fatal(err)
		}
		r, err := run(t, e, "%launch k(a=arange(64), out=zeros(64), n=64)\n#include \"vec.cuh\"\n__global__ void k(const float *a, float *out, int n) {\n  int i = threadIdx.x;\n  if (i < n) out[i] = load_twice(a, i);\n}\n")
		if err != nil {
			t.Fatal(err)
		}
		srcs, execs, html := reportSources(t, r)
		if len(srcs) != 1 || srcs["vec.cuh"] != header {
			t.Fatalf("sandbox=%v: sources %v, want vec.cuh alone", sandbox, srcs)
		}
		if execs["vec.cuh"][3] == 0 {
			t.Errorf("sandbox=%v: no executions on vec.cuh line 3 (the load): %v", sandbox, execs["vec.cuh"])
		}
		if !strings.Contains(html, `<details class="ks-incl" data-file="vec.cuh" open>`) || !strings.Contains(html, `data-cl="s1:3"`) {
			t.Errorf("sandbox=%v: the Source view does not show vec.cuh", sandbox)
		}

		def := "%%cuda_define helpers\n__device__ float scaled(const float *p, int i) {\n  return p[i] * 3.0f;\n}\n"
		if _, err := run(t, e, def); err != nil {
			t.Fatal(err)
		}
		r, err = run(t, e, "%launch k2(a=arange(64), out=zeros(64), n=64)\n__global__ void k2(const float *a, float *out, int n) {\n  int i = threadIdx.x;\n  if (i < n) out[i] = scaled(a, i);\n}\n")
		if err != nil {
			t.Fatal(err)
		}
		srcs, execs, html = reportSources(t, r)
		if len(srcs) != 1 || !strings.Contains(srcs["define:helpers"], "return p[i] * 3.0f;") {
			t.Fatalf("sandbox=%v: sources %v, want define:helpers alone", sandbox, srcs)
		}
		if execs["define:helpers"][3] == 0 {
			t.Errorf("sandbox=%v: no executions on line 3 of definition helpers: %v", sandbox, execs["define:helpers"])
		}
		for l := range execs[""] {
			if l > 5 {
				t.Errorf("sandbox=%v: a row at the cell's line %d, past its 5 lines", sandbox, l)
			}
		}
		if !strings.Contains(html, `<details class="ks-incl" data-file="define:helpers" open>`) {
			t.Errorf("sandbox=%v: the Source view does not show the definition", sandbox)
		}
	}
}
