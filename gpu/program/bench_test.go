package program

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkHundredLaunches runs a program of 100 small launches (built once) and
// reports the time beyond the simulation itself (overhead-ms: process start,
// pipe round trips, report building) per run.
func BenchmarkHundredLaunches(b *testing.B) {
	needClang(b)
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "programs", "many_launches.cu"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	p, err := Build(ctx, string(src), Options{File: "many_launches.cu"})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	var overhead time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		res, err := Run(ctx, p, RunOptions{Stdout: io.Discard, Stderr: io.Discard, Timing: true})
		if err != nil || res.ExitCode != 0 || len(res.Launches) != 100 {
			b.Fatalf("run: %v %+v", err, res)
		}
		var sim time.Duration
		for _, l := range res.Launches {
			sim += time.Duration(l.Report.Stats.SimMillis) * time.Millisecond
		}
		overhead += time.Since(start) - sim
	}
	b.ReportMetric(float64(overhead.Milliseconds())/float64(b.N), "overhead-ms/op")
}
