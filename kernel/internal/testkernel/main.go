// Command testkernel serves the fake engine as a Jupyter kernel, for testing the
// kernel package with real clients:
//
//	testkernel kernel -f CONNECTION_FILE
//	testkernel install [--user | --sys-prefix | --prefix DIR]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/kernelscope/kernelscope/kernel"
	"github.com/kernelscope/kernelscope/kernel/internal/fakeengine"
	"github.com/kernelscope/kernelscope/kernelspec"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the subcommand in args and returns the exit status.
func run(args []string) int {
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: testkernel kernel -f FILE | install [--user|--sys-prefix|--prefix DIR]")
		return 2
	}
	switch args[0] {
	case "kernel":
		fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
		file := fs.String("f", "", "connection file")
		if err := fs.Parse(args[1:]); err != nil || *file == "" {
			fmt.Fprintln(os.Stderr, "usage: testkernel kernel -f CONNECTION_FILE")
			return 2
		}
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		defer stop()
		info := kernel.Info{Banner: "KernelScope test kernel (fake engine)", Version: "0.0.0-test",
			HelpLinks: []kernel.HelpLink{{Text: "KernelScope", URL: "https://example.invalid/kernelscope"}}}
		if err := kernel.Run(ctx, *file, fakeengine.Engine{}, info, log); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("kernel failed", "err", err)
			return 1
		}
		return 0
	case "install":
		fs := flag.NewFlagSet("install", flag.ContinueOnError)
		var opts kernelspec.InstallOptions
		fs.BoolVar(&opts.User, "user", false, "install for this user")
		fs.BoolVar(&opts.SysPrefix, "sys-prefix", false, "install under python's sys.prefix")
		fs.StringVar(&opts.Prefix, "prefix", "", "install under DIR/share/jupyter/kernels")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		dir, err := kernelspec.Install(opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("installed kernelspec kernelscope in", dir)
		return 0
	}
	fmt.Fprintf(os.Stderr, "unknown command %q\n", args[0])
	return 2
}
