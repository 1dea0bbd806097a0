package program

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// h200Cases are testdata/programs/h200/run_h200.sh's cases: the program, its argv and stdin.
var h200Cases = []struct {
	name, src string
	args      []string
	stdin     string
}{
	{"vector_add", "vector_add.cu", nil, ""},
	{"constant", "constant.cu", nil, ""},
	{"scan", "scan.cu", nil, ""},
	{"oob", "oob.cu", nil, ""},
	{"events", "events.cu", nil, ""},
	{"argv_stdin", "argv_stdin.cu", []string{"3"}, "1 2 3 -4\n"},
	{"argv_stdin_empty", "argv_stdin.cu", nil, ""},
	{"segfault", "segfault.cu", nil, ""},
	{"launch_api", "launch_api.cu", nil, ""},
	{"symbol_init", "symbol_init.cu", nil, ""},
	{"with_header", "with_header.cu", nil, ""},
	{"pinned", "pinned.cu", nil, ""},
	{"func_attrs", "func_attrs.cu", nil, ""},
	{"pitch", "pitch.cu", nil, ""},
	{"assert", "assert.cu", nil, ""},
	{"race", "race.cu", nil, ""},
	{"many_launches", "many_launches.cu", nil, ""},
}

// h200Differences are the stdout lines allowed to differ from the H200's, each with
// the reason. Everything else (every other line, the exit status, the device assert's
// message on stderr) must be the same.
var h200Differences = map[string]struct{ prefix, why string }{
	"events":     {"ELAPSED_MS ", "a time: the model's kernel time against the H200's measured one"},
	"func_attrs": {"shared=", "numRegs: without ptxas KernelScope estimates registers from the PTX (README: registers per thread)"},
	"pitch":      {"cudaError", "cudaCreateTextureObject: KernelScope answers cudaErrorNotSupported (textures are not simulated); the H200 rejects the empty descriptor"},
}

// TestProgramsMatchH200 runs every program the H200 ran (nvcc -arch=sm_90, recorded in
// testdata/programs/h200) through KernelScope for sm_90 and compares stdout line by line,
// the exit status, and the failed assert on stderr.
func TestProgramsMatchH200(t *testing.T) {
	needClang(t)
	dir := filepath.Join("..", "..", "testdata", "programs")
	for _, c := range h200Cases {
		t.Run(c.name, func(t *testing.T) {
			read := func(ext string) string {
				b, err := os.ReadFile(filepath.Join(dir, "h200", c.name+ext))
				if err != nil && ext != ".err" {
					t.Fatal(err)
				}
				return string(b)
			}
			wantOut, wantErr := read(".out"), read(".err")
			wantRC, err := strconv.Atoi(strings.TrimSpace(read(".rc")))
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(filepath.Join(dir, c.src))
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			p, err := Build(ctx, string(src), Options{File: c.src, Arch: "sm_90", BaseDir: dir})
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			defer p.Close()
			var out, errb bytes.Buffer
			res, err := Run(ctx, p, RunOptions{Args: c.args, Stdin: strings.NewReader(c.stdin), Stdout: &out, Stderr: &errb, Timing: true})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			// bash's status of the H200 run: 128+N when signal N killed the program.
			if res.ExitCode != wantRC {
				t.Errorf("exit status %d, the H200's %d (%s)", res.ExitCode, wantRC, res.Message)
			}
			got, want := strings.Split(out.String(), "\n"), strings.Split(wantOut, "\n")
			if len(got) != len(want) {
				t.Fatalf("%d lines of stdout, the H200 printed %d:\n%s\n--- H200:\n%s", len(got), len(want), out.String(), wantOut)
			}
			d, allowed := h200Differences[c.name]
			for i := range want {
				if got[i] == want[i] {
					continue
				}
				if allowed && strings.HasPrefix(want[i], d.prefix) && strings.HasPrefix(got[i], d.prefix) {
					t.Logf("line %d differs as allowed (%s): %q, H200 %q", i+1, d.why, got[i], want[i])
					continue
				}
				t.Errorf("stdout line %d: %q, the H200 printed %q", i+1, got[i], want[i])
			}
			if strings.Contains(wantErr, "Assertion") && !strings.Contains(errb.String(), strings.TrimSpace(wantErr)) {
				t.Errorf("stderr %q lacks the H200's %q", errb.String(), wantErr)
			}
		})
	}
}
