package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/program"
	"github.com/kernelscope/kernelscope/gpu/report"
)

// exitCodeError carries a program's exit status out of kernelscope run.
type exitCodeError struct{ code int }

func (e *exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// programFlags are the run flags a whole program uses.
type programFlags struct {
	arch    string
	flags   []string
	budget  int64
	timing  bool
	noCache bool // --timing on,nocaches
	json    bool
	sandbox bool
	checks  string // --check: race,init,sync apply to every launch; order is not run on programs
}

// programMode says whether kernelscope run runs its file as a whole program: the
// file defines main() and no flag of a single synthetic launch was given (with
// --launch, --grid, ... one kernel of the file is analysed, as before).
func programMode(fs *flag.FlagSet) bool {
	single := false
	fs.Visit(func(f *flag.Flag) { single = single || kernelOnlyFlags[f.Name] })
	return !single && isProgramFile(fs.Arg(0))
}

// kernelOnlyFlags describe one synthetic launch; a program makes its own launches.
var kernelOnlyFlags = map[string]bool{"grid": true, "block": true, "launch": true, "dynamic-smem": true, "symbol": true, "tensormap": true,
	"expect": true, "html": true, "dump": true, "compiler": true}

// isProgramFile reports whether path is CUDA source with host code (a main function).
func isProgramFile(path string) bool {
	if !strings.HasSuffix(path, ".cu") {
		return false
	}
	src, err := os.ReadFile(path)
	return err == nil && program.IsProgram(string(src))
}

// runProgram builds and runs a whole CUDA program (kernelscope run prog.cu [-- ARGS...]).
func runProgram(path string, args []string, o programFlags, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if o.sandbox {
		return fmt.Errorf("%s: --sandbox does not run host programs yet (a program runs native code)", path)
	}
	checks, err := analysis.ParseChecks(o.checks)
	if err != nil {
		return &usageError{"run: --check: " + err.Error()}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, err := program.Build(ctx, string(src), program.Options{File: filepath.Base(path), Arch: o.arch, Flags: o.flags, BaseDir: filepath.Dir(path)})
	var be *program.BuildError
	if errors.As(err, &be) {
		return err // names FILE:LINE itself
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer p.Close()
	var outBuf, errBuf bytes.Buffer
	ro := program.RunOptions{Args: args, Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Timing: o.timing, NoCaches: o.noCache, Budget: o.budget, Checks: checks}
	if o.json {
		ro.Stdout, ro.Stderr = &outBuf, &errBuf
	}
	res, err := program.Run(ctx, p, ro)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if o.json {
		out := struct {
			Program  programJSON      `json:"program"`
			Launches []*report.Report `json:"launches"`
			Timeline []program.Event  `json:"timeline"`
		}{Program: programJSON{ExitCode: res.ExitCode, Stdout: outBuf.String(), Stderr: errBuf.String(), Signal: res.Signal, Message: res.Message},
			Launches: []*report.Report{}, Timeline: res.Events}
		for _, l := range res.Launches {
			r := l.Report
			if r == nil { // refused before it ran (bad configuration)
				r = &report.Report{Kernel: l.Kernel, Grid: l.Grid, Block: l.Block, Errors: []report.Error{{Kind: "launch", Message: l.Error}}}
			}
			out.Launches = append(out.Launches, r)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		for _, l := range res.Launches {
			if l.Report != nil {
				for _, f := range l.Report.Sanitizer {
					fmt.Fprintf(stderr, "kernelscope: %s: launch %d (%s): %s: %s\n", path, l.Index+1, l.Kernel, f.Kind, f.Message)
				}
			}
			if l.Error != "" {
				fmt.Fprintf(stderr, "kernelscope: %s: launch %d (%s, grid %v, block %v): %s\n", path, l.Index+1, l.Kernel, l.Grid, l.Block, l.Error)
			}
		}
		if res.Message != "" {
			fmt.Fprintf(stderr, "kernelscope: %s: %s\n", path, res.Message)
		}
	}
	if res.ExitCode != 0 {
		return &exitCodeError{res.ExitCode}
	}
	return nil
}

// programJSON is the "program" object of kernelscope run --json for a program.
type programJSON struct {
	ExitCode int    `json:"exit_code"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	Signal   string `json:"signal,omitempty"`
	Message  string `json:"message,omitempty"`
}
