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

// ksArgs is the `kernelscope run` command line of one kernel on one source (CUDA or PTX).
func ksArgs(k *Kernel, dataDir, dumpDir, source string) []string {
	a := []string{"run", "--arch", "sm_90", "--compiler", "clang", "--json", "--timing", "on", "--dump", dumpDir,
		"--grid", fmt.Sprintf("%d,%d,%d", k.Grid[0], k.Grid[1], k.Grid[2]),
		"--block", fmt.Sprintf("%d,%d,%d", k.Block[0], k.Block[1], k.Block[2])}
	if k.Shmem > 0 {
		a = append(a, "--dynamic-smem", fmt.Sprint(k.Shmem))
	}
	// nvcc's PTX keeps no parameter names, so the PTX path passes the arguments by position
	return append(a, "--launch", LaunchSpec(k, dataDir, !strings.HasSuffix(source, ".ptx")), source)
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
// run), and the nvcc-PTX path on the H200 machine's PTX when it is present.
func Local(ctx context.Context, m *Manifest, ks, out, only string, jobs int) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	dataDir := filepath.Join(abs, "device", "data")
	for _, d := range []string{"local/clang", "local/nvcc"} {
		if err := os.MkdirAll(filepath.Join(abs, d), 0o755); err != nil {
			return err
		}
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
			err := localOne(ctx, k, ks, abs, dataDir)
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

func localOne(ctx context.Context, k *Kernel, ks, abs, dataDir string) error {
	src := filepath.Join(abs, "device", "src", k.ID+".cu")
	cl := filepath.Join(abs, "local", "clang", k.ID)
	if err := runKS(ctx, ks, []string{"parse", "--json", "--compiler", "clang", "--arch", "sm_90", src}, cl+".parse"); err != nil {
		return err
	}
	os.RemoveAll(cl + ".dump")
	if err := runKS(ctx, ks, ksArgs(k, dataDir, cl+".dump", src), cl); err != nil {
		return err
	}
	ptx := filepath.Join(abs, "h200", "ptx", k.ID+".ptx")
	nv := filepath.Join(abs, "local", "nvcc", k.ID)
	os.RemoveAll(nv + ".dump")
	for _, suffix := range []string{".json", ".err", ".rc", ".cmd"} {
		os.Remove(nv + suffix)
	}
	if st, err := os.Stat(ptx); err == nil && st.Size() > 0 {
		return runKS(ctx, ks, ksArgs(k, dataDir, nv+".dump", ptx), nv)
	}
	return nil
}
