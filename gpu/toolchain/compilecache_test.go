package toolchain

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeClang puts a stand-in clang first on PATH that logs each run to a file
// and writes a PTX file naming the source's first line; it returns a function
// that counts the runs so far.
func fakeClang(t *testing.T) (runs func() int, exe string) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "runs.log")
	script := `#!/bin/sh
echo run >> '` + log + `'
if [ "$1" = "--version" ]; then echo "clang version 19.1.7"; exit 0; fi
out=""; src=""; ll=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift ;;
    *.cu) src="$1" ;;
    *.ll) ll="$1" ;;
  esac
  shift
done
if [ -n "$ll" ]; then  # the IR-to-PTX step: pass the "IR" on (builtins only: PATH is this dir)
  while IFS= read -r line; do printf '%s\n' "$line"; done < "$ll" > "$out"; exit 0
fi
read -r first < "$src"
printf '.version 7.8\n.target sm_90\n.address_size 64\n// %s\n' "$first" > "$out"
`
	exe = filepath.Join(dir, "clang")
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "run\n")
	}, exe
}

func TestCacheCompile(t *testing.T) {
	runs, exe := fakeClang(t)
	c := NewCache(2)
	ctx := context.Background()
	req := Request{Source: "// kernel A\n#include <cuda_runtime.h>\n__global__ void k() {}\n", File: "cell.cu", Arch: "sm_90", Compiler: "clang"}
	r1, err := c.Compile(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	n1 := runs()
	if n1 == 0 || !strings.Contains(string(r1.PTX), "// kernel A") {
		t.Fatalf("first compile: %d runs, PTX %q", n1, r1.PTX)
	}
	r1.PTX[0] = 'X' // the caller's copy: the cache's must not change
	r2, err := c.Compile(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if runs() != n1 {
		t.Fatalf("an equal request ran the compiler again (%d runs, was %d)", runs(), n1)
	}
	if !strings.HasPrefix(string(r2.PTX), ".version") || r2.Compiler != "clang 19.1.7" {
		t.Fatalf("cached result %q (%s)", r2.PTX, r2.Compiler)
	}
	// Every field of the request that changes the result is part of the key.
	for name, change := range map[string]func(*Request){
		"source": func(r *Request) { r.Source = "// kernel B\n" },
		"file":   func(r *Request) { r.File = "other.cu" },
		"arch":   func(r *Request) { r.Arch = "sm_80" },
		"flags":  func(r *Request) { r.Flags = []string{"-O2"} },
	} {
		r := req
		change(&r)
		before := runs()
		if _, err := c.Compile(ctx, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if runs() == before {
			t.Errorf("changing the %s was answered from the cache", name)
		}
	}
	// Sources that read files the key does not cover are always compiled.
	for _, src := range []string{"#include \"mine.cuh\"\n", "  #  include \"x.h\"\n", "#include HEADER\n", "#embed <data.bin>\n",
		"#if __has_include(<x.h>)\n#endif\n", "#include_next <x.h>\n"} {
		r := req
		r.Source = src
		for i := 0; i < 2; i++ {
			before := runs()
			if _, err := c.Compile(ctx, r); err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			if runs() == before {
				t.Errorf("%q was answered from the cache", src)
			}
		}
	}
	r := req
	r.Flags = []string{"-I/usr/include/foo"}
	for i := 0; i < 2; i++ {
		before := runs()
		if _, err := c.Compile(ctx, r); err == nil && runs() == before {
			t.Errorf("a request with an include flag was answered from the cache")
		}
	}
	// A new compiler binary (another modification time) is compiled again.
	before := runs()
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile(ctx, req); err != nil {
		t.Fatal(err)
	}
	if runs() == before {
		t.Errorf("a changed compiler binary was answered from the cache")
	}
	if c.Len() > 2 {
		t.Errorf("cache of 2 holds %d results", c.Len())
	}
	// A failed compilation is not kept.
	bad := req
	bad.Arch = "sm_00"
	if _, err := c.Compile(ctx, bad); err == nil {
		t.Errorf("unknown architecture compiled")
	}
	var nilCache *Cache
	if _, err := nilCache.Compile(ctx, req); err != nil {
		t.Errorf("nil cache: %v", err)
	}
}
