package kernel_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestJupyterClient runs tests/jupyter_client_test.py, Debian's jupyter_client against a
// real kernel process: the fake-engine test kernel built here, or the binary named by
// KERNELSCOPE_BIN (with cells from KERNELSCOPE_CELLS, see the Python file). It skips
// when /usr/bin/python3 lacks jupyter_client, except with CI=true, where it fails.
func TestJupyterClient(t *testing.T) {
	const python = "/usr/bin/python3"
	if out, err := exec.Command(python, "-c", "import jupyter_client").CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s cannot import jupyter_client (CI=true): %v\n%s", python, err, out)
		}
		t.Skipf("%s cannot import jupyter_client: %v", python, err)
	}
	bin := os.Getenv("KERNELSCOPE_BIN")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "testkernel")
		gobin, err := exec.LookPath("go")
		if err != nil {
			gobin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
		}
		if out, err := exec.Command(gobin, "build", "-o", bin, "./internal/testkernel").CombinedOutput(); err != nil {
			t.Fatalf("build test kernel: %v\n%s", err, out)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, filepath.Join("..", "tests", "jupyter_client_test.py"))
	cmd.Env = append(os.Environ(), "KERNELSCOPE_BIN="+bin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	summary := lines[len(lines)-1]
	if err != nil || !strings.HasPrefix(summary, "jupyter_client_test: ") || !strings.Contains(summary, " 0 failed") {
		t.Fatalf("python client test failed: %v\n--- stdout\n%s\n--- stderr (kernel log)\n%s", err, stdout.String(), tail(stderr.String(), 60))
	}
	t.Log(stdout.String())
	t.Log(summary)
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}
