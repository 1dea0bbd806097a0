// Command realcode measures KernelScope on public CUDA written by others
// (testdata/realcode/manifest.json): it extracts each kernel from a fetched copy of its
// repository, generates its inputs, writes the host harness the H200 runs, runs
// `kernelscope run` on the clang path and on nvcc's PTX, compares the bytes and the
// Nsight Compute counters, and writes docs/real-code.md. scripts/real_code.sh drives it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
)

func main() {
	if err := run(context.Background(), os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "realcode:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: realcode prepare|inputs|local|ingest|ingest-sanitizer|report [flags]")
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	manifest := fs.String("manifest", "testdata/realcode/manifest.json", "the manifest")
	mirror := fs.String("mirror", "/work/.mirror", "where the fetched repositories are (OWNER+NAME/repo)")
	out := fs.String("out", "build/realcode", "working folder (never committed)")
	ks := fs.String("kernelscope", "build/kernelscope", "the kernelscope binary")
	h200 := fs.String("h200", "testdata/realcode/h200", "the stored H200 ground truth")
	raw := fs.String("raw", "build/realcode/h200", "the unpacked device results (ingest)")
	doc := fs.String("doc", "docs/real-code.md", "the report to write")
	only := fs.String("only", "", "only the kernel with this id (local; ingest: merge a one-kernel device run)")
	jobs := fs.Int("j", 2, "kernels run at the same time (local)")
	checks := fs.String("check", "all", "kernelscope run --check value: the sanitizer's checks (local)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	m, err := LoadManifest(*manifest)
	if err != nil {
		return err
	}
	switch args[0] {
	case "prepare":
		return Prepare(m, *mirror, *out+"/device")
	case "inputs":
		return Inputs(m, *out+"/device")
	case "local":
		return Local(ctx, m, *ks, *out, *only, *checks, *jobs)
	case "ingest":
		return Ingest(m, *raw, *out+"/device/data", *h200, *only)
	case "ingest-sanitizer":
		return IngestSanitizer(*raw, *h200)
	case "report":
		return Report(m, *out, *h200, *raw, *doc)
	}
	return fmt.Errorf("unknown command %q: want prepare, inputs, local, ingest, ingest-sanitizer or report", args[0])
}
