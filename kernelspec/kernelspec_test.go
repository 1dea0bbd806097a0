package kernelspec

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeExe writes an executable file to stand for the kernel binary.
func fakeExe(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kernelscope")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestKernelJSON(t *testing.T) {
	b, err := KernelJSON("/opt/ks/kernelscope")
	if err != nil {
		t.Fatal(err)
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	want := []string{"/opt/ks/kernelscope", "kernel", "-f", "{connection_file}"}
	if strings.Join(s.Argv, " ") != strings.Join(want, " ") {
		t.Errorf("argv = %q, want %q", s.Argv, want)
	}
	if s.DisplayName != "KernelScope (CUDA)" || s.Language != "cuda" || s.InterruptMode != "message" {
		t.Errorf("spec = %+v", s)
	}
}

func TestInstallPrefix(t *testing.T) {
	exe := fakeExe(t)
	prefix := t.TempDir()
	dir, err := Install(InstallOptions{Prefix: prefix, Executable: exe})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(prefix, "share", "jupyter", "kernels", "kernelscope"); dir != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
	for _, name := range Files() {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "kernel.json" {
			var s Spec
			if err := json.Unmarshal(got, &s); err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, BinaryName); s.Argv[0] != want {
				t.Errorf("argv[0] = %s, want the copy %s", s.Argv[0], want)
			}
			continue
		}
		emb, _ := ReadFile(name)
		if !bytes.Equal(got, emb) || len(got) == 0 {
			t.Errorf("%s: installed %d bytes, embedded %d", name, len(got), len(emb))
		}
	}
	// Installing again overwrites in place.
	if _, err := Install(InstallOptions{Prefix: prefix, Executable: exe}); err != nil {
		t.Fatalf("reinstall: %v", err)
	}
}

// TestInstallCopiesBinary checks that the kernelspec keeps working when the built binary
// goes away (a moved or deleted checkout) and that installing from the copy itself works.
func TestInstallCopiesBinary(t *testing.T) {
	exe := fakeExe(t)
	want, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	prefix := t.TempDir()
	dir, err := Install(InstallOptions{Prefix: prefix, Executable: exe})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(exe); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, BinaryName)
	check := func(when string) {
		t.Helper()
		got, err := os.ReadFile(bin)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: copy has %d bytes, want %d", when, len(got), len(want))
		}
		if st, err := os.Stat(bin); err != nil || st.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: copy not executable: %v %v", when, st.Mode(), err)
		}
	}
	check("after removing the original")
	// Reinstalling from the installed copy (kernelscope install run from the kernelspec dir).
	if _, err := Install(InstallOptions{Prefix: prefix, Executable: bin}); err != nil {
		t.Fatalf("reinstall from the copy: %v", err)
	}
	check("after reinstalling from the copy")
}

func TestInstallUserHonoursJupyterDataDir(t *testing.T) {
	data := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", data)
	dir, err := Install(InstallOptions{User: true, Executable: fakeExe(t)})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(data, "kernels", "kernelscope"); dir != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
	// No option at all means --user.
	if d, _ := Dir(InstallOptions{}); d != dir {
		t.Errorf("default dir = %s, want %s", d, dir)
	}
}

func TestInstallUserDefault(t *testing.T) {
	home := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", home)
	d, err := Dir(InstallOptions{User: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".local", "share", "jupyter", "kernels", "kernelscope"); d != want {
		t.Errorf("dir = %s, want %s", d, want)
	}
}

func TestSysPrefixAsksPython(t *testing.T) {
	d, err := Dir(InstallOptions{SysPrefix: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "/usr/local"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "/usr/bin/python3", "-c", "import sys; print(sys.prefix)").Output(); err == nil {
		want = strings.TrimSpace(string(out))
	}
	if d != filepath.Join(want, "share", "jupyter", "kernels", "kernelscope") {
		t.Errorf("dir = %s, want under %s", d, want)
	}
}

func TestInstallErrors(t *testing.T) {
	if _, err := Install(InstallOptions{User: true, Prefix: "/x", Executable: fakeExe(t)}); err == nil {
		t.Error("two locations accepted")
	}
	if _, err := Install(InstallOptions{Prefix: t.TempDir(), Executable: "/nonexistent/kernelscope"}); err == nil {
		t.Error("missing executable accepted")
	}
	if _, err := Install(InstallOptions{Prefix: t.TempDir(), Executable: t.TempDir()}); err == nil {
		t.Error("directory as executable accepted")
	}
}

// TestJupyterListsIt checks that Jupyter's own kernelspec lookup finds the installed spec.
func TestJupyterListsIt(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import jupyter_client").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("/usr/bin/python3 lacks jupyter_client: %v", err)
		}
		t.Skip("/usr/bin/python3 lacks jupyter_client")
	}
	data := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", data)
	exe := fakeExe(t)
	dir, err := Install(InstallOptions{User: true, Executable: exe})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "/usr/bin/python3", "-m", "jupyter_client.kernelspecapp", "list", "--json").Output()
	if err != nil {
		t.Fatalf("kernelspec list: %v", err)
	}
	var list struct {
		Kernelspecs map[string]struct {
			ResourceDir string `json:"resource_dir"`
			Spec        Spec   `json:"spec"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("kernelspec list output %q: %v", out, err)
	}
	ks, ok := list.Kernelspecs["kernelscope"]
	if !ok {
		t.Fatalf("kernelscope not listed: %s", out)
	}
	if ks.ResourceDir != dir || ks.Spec.Argv[0] != filepath.Join(dir, BinaryName) || ks.Spec.DisplayName != "KernelScope (CUDA)" {
		t.Errorf("listed %+v, want dir %s argv[0] %s", ks, dir, exe)
	}
}
