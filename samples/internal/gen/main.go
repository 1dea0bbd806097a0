// Command gen rebuilds the bundled samples' PTX: each samples/src/NAME.cu is
// compiled with gpu/toolchain (clang, sm_80) into samples/ptx/NAME.sm_80.ptx.
// Run it with `go generate ./samples`.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	srcs, err := filepath.Glob("src/*.cu")
	if err != nil || len(srcs) == 0 {
		return fmt.Errorf("no sources in src/ (run from the samples directory): %v", err)
	}
	for _, src := range srcs {
		b, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("read %s: %w", src, err)
		}
		name := strings.TrimSuffix(filepath.Base(src), ".cu")
		res, err := toolchain.Compile(context.Background(), toolchain.Request{
			Source: string(b), File: name + ".cu", Arch: "sm_80", Compiler: "clang", Timeout: time.Minute,
		})
		if err != nil {
			return fmt.Errorf("compile %s: %w", src, err)
		}
		out := filepath.Join("ptx", name+".sm_80.ptx")
		if err := os.WriteFile(out, res.PTX, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", out, err)
		}
		fmt.Printf("%s: %s (%d bytes)\n", out, res.Compiler, len(res.PTX))
	}
	return nil
}
