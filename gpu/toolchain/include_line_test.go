package toolchain

import (
	"context"
	"errors"
	"testing"
)

// A refused include is placed by the #line directives that number the source
// (kept notebook definitions above a cell): in the cell at its own line, or in
// the named part with its line there.
func TestSandboxRefusalFollowsLineDirectives(t *testing.T) {
	needClang(t)
	nb := t.TempDir()
	cases := []struct {
		name, src string
		line      int
		file      string
		fileLine  int
	}{
		{"in the cell", "#line 1 \"define:h\"\n__device__ int f() { return 1; }\n#line 1 \"cell.cu\"\n\n#include \"/etc/hostname\"\n", 2, "", 0},
		{"in a definition", "#line 1 \"define:h\"\n\n\n#include \"/etc/hostname\"\n#line 1 \"cell.cu\"\n__global__ void k() {}\n", 0, "define:h", 3},
	}
	for _, c := range cases {
		_, err := Compile(context.Background(), Request{Source: c.src, File: "cell.cu", Arch: "sm_80", Compiler: "clang", IncludeDir: nb, Sandbox: true})
		var ce *CompileError
		if !errors.As(err, &ce) || len(ce.Diags) == 0 {
			t.Errorf("%s: want a refusal, got %v", c.name, err)
			continue
		}
		d := ce.Diags[0]
		if d.Line != c.line || d.File != c.file || d.FileLine != c.fileLine {
			t.Errorf("%s: diagnostic at line %d file %q:%d, want %d %q:%d (%s)", c.name, d.Line, d.File, d.FileLine, c.line, c.file, c.fileLine, d.Message)
		}
	}
}
