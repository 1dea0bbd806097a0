package kernelspec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstallSandbox(t *testing.T) {
	dir, err := Install(InstallOptions{Prefix: t.TempDir(), Executable: fakeExe(t), Sandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, BinaryName), "kernel", "--sandbox", "-f", "{connection_file}"}
	if strings.Join(s.Argv, " ") != strings.Join(want, " ") || s.DisplayName != "KernelScope (CUDA, sandbox)" {
		t.Errorf("argv %q display %q, want %q and the sandbox display name", s.Argv, s.DisplayName, want)
	}
}
