package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MirrorDir is where the fetch tool put a repository: DIR/owner+name/repo.
func MirrorDir(root, repo string) string {
	return filepath.Join(root, strings.ReplaceAll(repo, "/", "+"), "repo")
}

// readAt returns a file of a bare repository at a commit.
func readAt(gitDir, commit, path string) ([]byte, error) {
	cmd := exec.Command("git", "--git-dir="+gitDir, "show", commit+":"+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git show %s:%s in %s: %v: %s", commit, path, gitDir, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// ExtractSource concatenates our preamble and the named line ranges of the original file.
func ExtractSource(k *Kernel, commit string, file []byte) (string, error) {
	lines := strings.Split(string(file), "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "// KernelScope real-code measurement: %s\n// %s@%s %s, lines %s (extracted, unmodified)\n", k.ID, k.Repo, commit, k.Path, rangesText(k.Lines))
	if k.Preamble != "" {
		b.WriteString("// preamble (ours):\n")
		b.WriteString(k.Preamble)
		b.WriteString("\n")
	}
	for _, r := range k.Lines {
		if r[1] > len(lines) {
			return "", fmt.Errorf("%s: %s has %d lines, range %d-%d is past its end", k.ID, k.Path, len(lines), r[0], r[1])
		}
		fmt.Fprintf(&b, "// lines %d-%d\n", r[0], r[1])
		for _, l := range lines[r[0]-1 : r[1]] {
			b.WriteString(strings.TrimRight(l, "\r"))
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

func rangesText(rs [][2]int) string {
	var p []string
	for _, r := range rs {
		p = append(p, fmt.Sprintf("%d-%d", r[0], r[1]))
	}
	return strings.Join(p, ", ")
}

// Prepare extracts every kernel's source, writes its inputs and its host harness under out.
func Prepare(m *Manifest, mirror, out string) error {
	for _, d := range []string{"src", "data", "harness"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return err
		}
	}
	for i := range m.Kernels {
		k := &m.Kernels[i]
		commit := m.Commit(k)
		file, err := readAt(MirrorDir(mirror, k.Repo), commit, k.Path)
		if err != nil {
			return fmt.Errorf("%s: %w (fetch the repository first)", k.ID, err)
		}
		src, err := ExtractSource(k, commit, file)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, "src", k.ID+".cu"), []byte(src), 0o644); err != nil {
			return err
		}
		if err := writeInputs(k, out); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, "harness", k.ID+".cu"), []byte(Harness(k)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeInputs writes kernel k's input buffers under out/data.
func writeInputs(k *Kernel, out string) error {
	for _, a := range append(append([]Arg{}, k.Args...), k.Symbols...) {
		if !a.Buffer {
			continue
		}
		if err := os.WriteFile(filepath.Join(out, "data", k.ID+"."+a.Name+".in.bin"), Generate(k.ID, a), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Inputs writes only the input buffers under out/data (on the device machine, where
// carrying 26 MB of generated inputs would not fit beside the repository).
func Inputs(m *Manifest, out string) error {
	if err := os.MkdirAll(filepath.Join(out, "data"), 0o755); err != nil {
		return err
	}
	for i := range m.Kernels {
		if err := writeInputs(&m.Kernels[i], out); err != nil {
			return fmt.Errorf("%s: %w", m.Kernels[i].ID, err)
		}
	}
	return nil
}
