package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// ksArgs is the `kernelscope run` command line of one kernel on one source (CUDA or PTX). The
// grid, block and dynamic shared bytes travel in the launch (NAME<<<g, b, shmem>>>(...)), the
// __constant__ symbols as --symbol, and checks ("" when the binary has no --check) as --check.
func ksArgs(k *Kernel, dataDir, dumpDir, source, checks string) []string {
	a := []string{"run", "--arch", "sm_90", "--compiler", "clang", "--json", "--timing", "on", "--dump", dumpDir}
	if checks != "" {
		a = append(a, "--check", checks)
	}
	for _, s := range SymbolSpecs(k, dataDir) {
		a = append(a, "--symbol", s)
	}
	// nvcc's PTX keeps no parameter names, so the PTX path passes the arguments by position
	return append(a, "--launch", LaunchSpec(k, dataDir, !strings.HasSuffix(source, ".ptx")), source)
}

// hasFlag says whether `ks run --help` names flag (the sanitizer's --check may not be built in).
func hasFlag(ctx context.Context, ks, flag string) bool {
	out, _ := exec.CommandContext(ctx, ks, "run", "--help").CombinedOutput()
	return bytes.Contains(out, []byte(flag+" "))
}

// runKS runs kernelscope and keeps stdout, stderr and the exit status under base.{json,err,rc}.
func runKS(ctx context.Context, ks string, args []string, base string) error {
	cmd := exec.CommandContext(ctx, ks, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	rc := 0
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			rc = ee.ExitCode()
		} else {
			return fmt.Errorf("running %s: %w", ks, err)
		}
	}
	cmdline := ks + " " + shellJoin(args)
	if err := os.WriteFile(base+".cmd", []byte(cmdline+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(base+".json", stdout.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(base+".err", stderr.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".rc", []byte(fmt.Sprintln(rc)), 0o644)
}

func shellJoin(args []string) string {
	var p []string
	for _, a := range args {
		if strings.ContainsAny(a, " \"'()<>,*") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		p = append(p, a)
	}
	return strings.Join(p, " ")
}

// Local runs kernelscope for every kernel: the clang path on the extracted CUDA (parse, then
// run; a template kernel also as extracted without our instantiation line, under clang_strict),
// and the nvcc-PTX path on the H200 machine's PTX when it is present. checks is --check's value.
func Local(ctx context.Context, m *Manifest, ks, out, only, checks string, jobs int) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	dataDir := filepath.Join(abs, "device", "data")
	for _, d := range []string{"local/clang", "local/clang_strict", "local/nvcc", "local/src"} {
		if err := os.MkdirAll(filepath.Join(abs, d), 0o755); err != nil {
			return err
		}
	}
	if checks != "" && !hasFlag(ctx, ks, "--check") {
		fmt.Fprintf(os.Stderr, "realcode: %s run has no --check: the sanitizer's findings are not recorded\n", ks)
		checks = ""
	}
	if err := os.WriteFile(filepath.Join(abs, "local", "checks.txt"), []byte(checks+"\n"), 0o644); err != nil {
		return err
	}
	if jobs < 1 {
		jobs = 1
	}
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i := range m.Kernels {
		k := &m.Kernels[i]
		if only != "" && k.ID != only {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			err := localOne(ctx, k, ks, abs, dataDir, checks)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			fmt.Fprintf(os.Stderr, "realcode: %s done\n", k.ID)
		}()
	}
	wg.Wait()
	return firstErr
}

// clearRun removes what an earlier run left under base.
func clearRun(base string) {
	os.RemoveAll(base + ".dump")
	for _, suffix := range []string{".json", ".err", ".rc", ".cmd", ".parse.json", ".parse.err", ".parse.rc", ".parse.cmd"} {
		os.Remove(base + suffix)
	}
}

func localOne(ctx context.Context, k *Kernel, ks, abs, dataDir, checks string) error {
	orig := filepath.Join(abs, "device", "src", k.ID+".cu")
	src := orig
	if line := InstanceLine(k); line != "" {
		b, err := os.ReadFile(orig)
		if err != nil {
			return err
		}
		src = filepath.Join(abs, "local", "src", k.ID+".cu")
		if err := os.WriteFile(src, append(b, line...), 0o644); err != nil {
			return err
		}
		strict := filepath.Join(abs, "local", "clang_strict", k.ID)
		clearRun(strict)
		if err := runKS(ctx, ks, ksArgs(k, dataDir, strict+".dump", orig, checks), strict); err != nil {
			return err
		}
	}
	cl := filepath.Join(abs, "local", "clang", k.ID)
	clearRun(cl)
	if err := runKS(ctx, ks, []string{"parse", "--json", "--compiler", "clang", "--arch", "sm_90", src}, cl+".parse"); err != nil {
		return err
	}
	if err := runKS(ctx, ks, ksArgs(k, dataDir, cl+".dump", src, checks), cl); err != nil {
		return err
	}
	ptx := filepath.Join(abs, "h200", "ptx", k.ID+".ptx")
	nv := filepath.Join(abs, "local", "nvcc", k.ID)
	clearRun(nv)
	if st, err := os.Stat(ptx); err == nil && st.Size() > 0 {
		return runKS(ctx, ks, ksArgs(k, dataDir, nv+".dump", ptx, checks), nv)
	}
	return nil
}
