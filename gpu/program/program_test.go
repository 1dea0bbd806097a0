package program

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runFile builds and runs testdata/programs/NAME with args and stdin.
func runFile(t *testing.T, name string, stdin string, args ...string) (*Result, string, string) {
	t.Helper()
	if _, err := exec.LookPath("clang-19"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("clang-19 missing")
		}
		t.Skip("clang-19 not installed")
	}
	path := filepath.Join("..", "..", "testdata", "programs", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := Build(ctx, string(src), Options{File: name, BaseDir: filepath.Dir(path)})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	defer p.Close()
	var out, errb bytes.Buffer
	res, err := Run(ctx, p, RunOptions{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Timing: true})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res, out.String(), errb.String()
}

func TestVectorAdd(t *testing.T) {
	res, out, errs := runFile(t, "vector_add.cu", "")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d %s; stderr %s", res.ExitCode, res.Message, errs)
	}
	sum := 0.0
	c := make([]float32, 1000)
	for i := range c {
		c[i] = float32(i)*0.5 + (2*float32(i) + 1)
		sum += float64(c[i])
	}
	want := fmt.Sprintf("c[0]=%g c[999]=%g sum=%.1f\n", c[0], c[999], sum)
	if out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if len(res.Launches) != 1 || res.Launches[0].Report == nil || !res.Launches[0].Report.Simulated {
		t.Fatalf("launches %+v", res.Launches)
	}
	l := res.Launches[0]
	if l.Kernel != "vecAdd" || l.Grid != [3]int{4, 1, 1} || l.Block != [3]int{256, 1, 1} || l.Micros <= 0 {
		t.Errorf("launch %+v", l)
	}
}
