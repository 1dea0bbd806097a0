// Package testcache remembers expensive results, such as clang's PTX for the golden
// sources, for the tests of one `go test` run: in memory within a test binary and,
// on Linux, on disk for the other test binaries that the same go command runs
// (gpu/toolchain and gpu/analysis compile the same sources). Entries are keyed by
// everything that determines them; nothing outlives the go command that made it.
package testcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// memory holds this test binary's entries: encoded results by key.
var memory sync.Map

// Key hashes the parts that determine a result into a cache key.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Do returns the result stored under key, computing it with compute the first time
// in this go test run. Results must survive a JSON round trip; errors are not stored.
func Do[T any](key string, compute func() (T, error)) (T, error) {
	var v T
	if b, ok := memory.Load(key); ok {
		err := json.Unmarshal(b.([]byte), &v)
		return v, err
	}
	file := ""
	if dir := runDir(); dir != "" {
		file = filepath.Join(dir, key+".json")
		// One computation per key in the run: a binary computing it holds the key's
		// lock, another waits for it and then reads the entry.
		unlock := lockFile(file + ".lock")
		defer unlock()
		if b, err := os.ReadFile(file); err == nil && json.Unmarshal(b, &v) == nil {
			memory.Store(key, b)
			return v, nil
		}
	}
	v, err := compute()
	if err != nil {
		return v, err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v, fmt.Errorf("testcache: encoding the result: %w", err)
	}
	memory.Store(key, b)
	if file != "" {
		writeAtomic(file, b)
	}
	return v, nil
}

// writeAtomic writes b to file through a temporary file and a rename, so that a
// concurrent reader sees the whole entry or none; failures only lose the entry.
func writeAtomic(file string, b []byte) {
	f, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), file) != nil {
		os.Remove(f.Name())
	}
}

// runDir is the directory shared by the test binaries of this go command: named by
// the parent process (the go command) and its start time, so that a later run never
// reads it. Directories of go commands that have ended are removed. "" disables the disk.
var runDir = sync.OnceValue(func() string {
	id, ok := processID(os.Getppid())
	if !ok {
		return ""
	}
	base := filepath.Join(os.TempDir(), "kernelscope-testcache")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return ""
	}
	if old, err := os.ReadDir(base); err == nil {
		for _, e := range old {
			pid, _, found := strings.Cut(e.Name(), "-")
			n, err := strconv.Atoi(pid)
			if !found || err != nil {
				continue
			}
			if cur, alive := processID(n); !alive || cur != e.Name() {
				os.RemoveAll(filepath.Join(base, e.Name()))
			}
		}
	}
	dir := filepath.Join(base, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ""
	}
	return dir
})

// processID names a live process as "PID-STARTTIME" from /proc (Linux); ok is false
// when the process does not exist or /proc cannot tell.
func processID(pid int) (string, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", false
	}
	// The command name, field 2, is in parentheses and may hold spaces: count from its end.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return "", false
	}
	return fmt.Sprintf("%d-%s", pid, f[19]), true // field 22: start time
}

// sourceDir is the repository's directory dir (slash-separated, from the module root).
func sourceDir(dir string) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Join(filepath.Dir(file), "..", "..", filepath.FromSlash(dir))
}

// TreeHash hashes the names and contents of the files under dir (slash-separated,
// from the module root), leaving out _test.go files.
func TreeHash(dir string) (string, error) {
	root := sourceDir(dir)
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("testcache: hashing %s: %w", dir, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// compilers are the executables gpu/toolchain may run.
var compilers = []string{"nvcc", "clang-21", "clang-20", "clang-19", "clang-18", "clang-17", "clang", "cuobjdump", "ptxas"}

// CompileKey is the key of a gpu/toolchain compilation: request (the toolchain.Request
// as JSON, its timeout zeroed; it must not name files whose contents matter, such as
// an include directory), the toolchain's sources (its Go files and prelude) and the
// compilers on PATH (path, size, modification time).
func CompileKey(request []byte) (string, error) {
	tree, err := TreeHash("gpu/toolchain")
	if err != nil {
		return "", err
	}
	parts := []string{"toolchain.Compile", tree, string(request)}
	for _, c := range compilers {
		p, err := exec.LookPath(c)
		if err != nil {
			parts = append(parts, c+" absent")
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return "", fmt.Errorf("testcache: %w", err)
		}
		parts = append(parts, fmt.Sprintf("%s %s %d %d", c, p, st.Size(), st.ModTime().UnixNano()))
	}
	return Key(parts...), nil
}

// Compile is Do for a gpu/toolchain compilation: request is the toolchain.Request
// with its timeout zeroed (the key, see CompileKey), compile runs it.
func Compile[T any](request any, compile func() (T, error)) (T, error) {
	var zero T
	b, err := json.Marshal(request)
	if err != nil {
		return zero, fmt.Errorf("testcache: encoding the request: %w", err)
	}
	key, err := CompileKey(b)
	if err != nil {
		return zero, err
	}
	return Do(key, compile)
}
