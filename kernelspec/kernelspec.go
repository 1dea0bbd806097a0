// Package kernelspec holds the Jupyter kernelspec of KernelScope (kernel.json and
// logos, embedded in the binary) and installs it where Jupyter looks for kernels.
package kernelspec

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Name is the kernelspec's directory name, what `jupyter kernelspec list` shows.
const Name = "kernelscope"

// files are kernel.json (argv[0] replaced at install) and the logos.
//
//go:embed kernel.json logo-32x32.png logo-64x64.png logo-svg.svg
var files embed.FS

// Spec is the content of kernel.json.
type Spec struct {
	// Argv is the command line Jupyter runs, with {connection_file}.
	Argv []string `json:"argv"`
	// DisplayName is shown in the kernel picker.
	DisplayName string `json:"display_name"`
	// Language is the cell language.
	Language string `json:"language"`
	// InterruptMode is "message": interrupts arrive as interrupt_request.
	InterruptMode string `json:"interrupt_mode"`
	// Metadata is free-form.
	Metadata map[string]any `json:"metadata"`
}

// InstallOptions says where to install; at most one of User, SysPrefix and Prefix may be set,
// and none means User.
type InstallOptions struct {
	// User installs into the user's Jupyter data dir (JUPYTER_DATA_DIR honoured).
	User bool
	// SysPrefix installs under sys.prefix of /usr/bin/python3 (/usr/local when unknown).
	SysPrefix bool
	// Prefix installs under PREFIX/share/jupyter/kernels.
	Prefix string
	// Executable is the kernel binary for argv[0]; empty means this process's executable.
	Executable string
	// Sandbox makes the kernel run with --sandbox (for graders and hubs: no compiler
	// flags, files and includes only under the notebook's directory, hard caps).
	Sandbox bool
}

// Files returns the names of the embedded kernelspec files.
func Files() []string {
	return []string{"kernel.json", "logo-32x32.png", "logo-64x64.png", "logo-svg.svg"}
}

// ReadFile returns an embedded kernelspec file as shipped (kernel.json with a placeholder argv[0]).
func ReadFile(name string) ([]byte, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("kernelspec: %w", err)
	}
	return b, nil
}

// KernelJSON returns kernel.json with argv[0] set to executable.
func KernelJSON(executable string) ([]byte, error) {
	return KernelJSONFor(executable, false)
}

// KernelJSONFor returns kernel.json with argv[0] set to executable and, when
// sandbox is set, --sandbox after the kernel command and "sandbox" in the display name.
func KernelJSONFor(executable string, sandbox bool) ([]byte, error) {
	b, err := ReadFile("kernel.json")
	if err != nil {
		return nil, err
	}
	var spec Spec
	if err := json.Unmarshal(b, &spec); err != nil {
		return nil, fmt.Errorf("kernelspec: embedded kernel.json: %w", err)
	}
	if len(spec.Argv) == 0 {
		return nil, errors.New("kernelspec: embedded kernel.json has no argv")
	}
	spec.Argv[0] = executable
	if sandbox {
		if len(spec.Argv) < 2 || spec.Argv[1] != "kernel" {
			return nil, errors.New("kernelspec: embedded kernel.json argv does not start with the kernel command")
		}
		spec.Argv = append([]string{spec.Argv[0], spec.Argv[1], "--sandbox"}, spec.Argv[2:]...)
		spec.DisplayName = strings.TrimSuffix(spec.DisplayName, ")") + ", sandbox)"
	}
	out, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("kernelspec: encode kernel.json: %w", err)
	}
	return append(out, '\n'), nil
}

// Dir returns the directory Install would write for opts, without writing anything.
func Dir(opts InstallOptions) (string, error) {
	n := 0
	for _, set := range []bool{opts.User, opts.SysPrefix, opts.Prefix != ""} {
		if set {
			n++
		}
	}
	if n > 1 {
		return "", errors.New("kernelspec: choose at most one of --user, --sys-prefix and --prefix")
	}
	switch {
	case opts.Prefix != "":
		p, err := filepath.Abs(opts.Prefix)
		if err != nil {
			return "", fmt.Errorf("kernelspec: prefix %s: %w", opts.Prefix, err)
		}
		return filepath.Join(p, "share", "jupyter", "kernels", Name), nil
	case opts.SysPrefix:
		return filepath.Join(pythonSysPrefix(), "share", "jupyter", "kernels", Name), nil
	default:
		d, err := userDataDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "kernels", Name), nil
	}
}

// BinaryName is the name of the kernel binary's copy inside the kernelspec directory.
const BinaryName = "kernelscope"

// Install copies the executable into the kernelspec directory (so the kernel keeps working when
// the checkout it was built in moves or is rebuilt) and writes kernel.json (argv[0] that copy)
// and the logos, returning the directory.
func Install(opts InstallOptions) (dir string, err error) {
	dir, err = Dir(opts)
	if err != nil {
		return "", err
	}
	exe := opts.Executable
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return "", fmt.Errorf("kernelspec: find this executable: %w", err)
		}
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return "", fmt.Errorf("kernelspec: executable path: %w", err)
	}
	if resolved, rerr := filepath.EvalSymlinks(exe); rerr == nil {
		exe = resolved
	}
	if st, serr := os.Stat(exe); serr != nil || st.IsDir() {
		return "", fmt.Errorf("kernelspec: executable %s is not a file", exe)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("kernelspec: create %s: %w", dir, err)
	}
	bin := filepath.Join(dir, BinaryName)
	if err := copyExecutable(exe, bin); err != nil {
		return "", err
	}
	for _, name := range Files() {
		var b []byte
		if name == "kernel.json" {
			b, err = KernelJSONFor(bin, opts.Sandbox)
		} else {
			b, err = ReadFile(name)
		}
		if err != nil {
			return "", err
		}
		if err := writeFileAtomic(filepath.Join(dir, name), b); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// copyExecutable copies src to dst (mode 0755) through a temp file and a rename, so a kernel
// running from dst keeps its old binary; nothing is done when src already is dst.
func copyExecutable(src, dst string) error {
	if same, err := sameFile(src, dst); err != nil {
		return err
	} else if same {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("kernelspec: read executable %s: %w", src, err)
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".tmp-"+filepath.Base(dst)+"-*")
	if err != nil {
		return fmt.Errorf("kernelspec: copy executable to %s: %w", dst, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return fmt.Errorf("kernelspec: copy executable to %s: %w", dst, err)
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return fmt.Errorf("kernelspec: chmod %s: %w", dst, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("kernelspec: copy executable to %s: %w", dst, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("kernelspec: install %s: %w", dst, err)
	}
	return nil
}

// sameFile reports whether a and b name the same existing file (false when b does not exist).
func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, fmt.Errorf("kernelspec: executable %s: %w", a, err)
	}
	sb, err := os.Stat(b)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("kernelspec: %s: %w", b, err)
	}
	return os.SameFile(sa, sb), nil
}

// writeFileAtomic writes b to path through a temp file and a rename.
func writeFileAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("kernelspec: write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("kernelspec: write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("kernelspec: chmod %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("kernelspec: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("kernelspec: install %s: %w", path, err)
	}
	return nil
}

// userDataDir is jupyter_core's jupyter_data_dir(): JUPYTER_DATA_DIR, else the platform default.
func userDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Abs(d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("kernelspec: no home directory for --user: %w", err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter"), nil
	case "windows":
		if a := os.Getenv("APPDATA"); a != "" {
			return filepath.Join(a, "jupyter"), nil
		}
		return filepath.Join(home, ".jupyter", "data"), nil
	default:
		if x := os.Getenv("XDG_DATA_HOME"); x != "" {
			return filepath.Join(x, "jupyter"), nil
		}
		return filepath.Join(home, ".local", "share", "jupyter"), nil
	}
}

// pythonSysPrefix asks /usr/bin/python3 for sys.prefix, falling back to /usr/local.
func pythonSysPrefix() string {
	const fallback = "/usr/local"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "/usr/bin/python3", "-c", "import sys; print(sys.prefix)")
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return fallback
	}
	p := strings.TrimSpace(out.String())
	if p == "" || !filepath.IsAbs(p) {
		return fallback
	}
	return p
}
