package timing

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// The text-reading rules decodedInst replaced, kept here as the reference
// it must agree with (TestDecodedInstMatchesText).

func textAtomicClass(text string) mem.AtomicOp {
	if !strings.HasPrefix(text, "atom") && !strings.HasPrefix(text, "red") {
		return mem.AtomicInt
	}
	switch {
	case strings.Contains(text, ".cas"):
		return mem.AtomicCAS
	case strings.Contains(text, ".add") && (strings.Contains(text, ".f32") || strings.Contains(text, ".f64") || strings.Contains(text, ".f16") || strings.Contains(text, ".bf16")):
		return mem.AtomicF32
	}
	return mem.AtomicInt
}

func textAggregatable(text string) bool {
	if !strings.HasPrefix(text, "atom.") && !strings.HasPrefix(text, "red.") {
		return false
	}
	return strings.Contains(text, ".add.") && (strings.Contains(text, ".u32") || strings.Contains(text, ".s32") || strings.Contains(text, ".u64"))
}

func textAsync(t string) (uint8, int64) {
	var bar int64
	if strings.HasPrefix(t, "barrier.cluster.wait") {
		bar = clusterBarRelease
	}
	switch {
	case strings.HasPrefix(t, "cp.async.bulk.wait_group"):
		if strings.Contains(t, ".read") {
			return apWaitRead, bar
		}
		return apWaitGroup, bar
	case strings.HasPrefix(t, "mbarrier."), strings.HasPrefix(t, "cp.async.bulk"), strings.HasPrefix(t, "cp.reduce.async.bulk"):
		return apAsync, bar
	case t == "cp.async.commit_group":
		return apCpCommit, bar
	case t == "cp.async.wait_group", t == "cp.async.wait_all":
		return apCpWait, bar
	case strings.HasPrefix(t, "cp.async."):
		return apCpAsync, bar
	}
	return apNone, bar
}

func textTiming(t latency.Timing, in *ptx.Inst, l2Hit int) latency.Timing {
	if in.Op == "cp" && len(in.Mods) > 1 && in.Mods[0] == "async" && in.Mods[1] != "bulk" &&
		in.Mods[1] != "commit_group" && in.Mods[1] != "wait_group" && in.Mods[1] != "wait_all" {
		t.Latency = max(t.Latency, l2Hit)
	}
	if in.Op == "ld" {
		for _, m := range in.Mods {
			if m == "shared::cluster" {
				t.Latency = max(t.Latency, dsmemOwnLatency)
			}
		}
	}
	if in.Op == "wmma" && len(in.Mods) > 0 && in.Mods[0] == "mma" && t.Pipe == latency.PipeTensor {
		for _, m := range in.Mods {
			if m == "m16n16k16" {
				t.Latency += t.IssueCycles
				t.IssueCycles *= 2
			}
		}
		return t
	}
	if in.Op != "wgmma" || len(in.Mods) == 0 || in.Mods[0] != "mma_async" {
		return t
	}
	for _, m := range in.Mods {
		var n, k int
		if strings.HasPrefix(m, "m64n") {
			if _, err := fmt.Sscanf(m, "m64n%dk%d", &n, &k); err == nil && n >= 8 {
				t.IssueCycles = n / 2
				t.Latency = wgmmaLatency
			}
		}
	}
	return t
}

func textClusterArrive(in *ptx.Inst) bool {
	return in.Op == "barrier" && len(in.Mods) > 1 && in.Mods[0] == "cluster" && in.Mods[1] == "arrive"
}

// TestDecodedInstMatchesText: on every instruction of every PTX file in the
// repository's testdata, the static timing built from the decoded opcode and
// modifiers equals what the text-reading rules it replaced gave.
func TestDecodedInstMatchesText(t *testing.T) {
	tab, err := latency.For("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	err = filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "build" || d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".ptx") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 300 {
		t.Fatalf("found only %d PTX files", len(files))
	}
	n, special := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(f, src)
		if err != nil {
			continue
		}
		for _, fn := range m.Funcs {
			if len(fn.Insts) == 0 {
				continue
			}
			dp, err := isa.Decode(fn)
			if err != nil {
				t.Fatalf("%s %s: %v", f, fn.Name, err)
			}
			for i := range dp.Insts {
				di := &dp.Insts[i]
				if di.PTX == nil {
					continue
				}
				n++
				got := decodedInst(tab, di)
				wantAsync, wantBar := textAsync(di.Text)
				want := Inst{Timing: textTiming(tab.ClassTiming(di.Class), di.PTX, tab.Mem.L2Hit), NoWait: di.NoWait || textClusterArrive(di.PTX),
					Atomic: textAtomicClass(di.Text), AggregatedAdd: textAggregatable(di.Text), async: wantAsync, barRelease: wantBar}
				if want.Timing != tab.ClassTiming(di.Class) || want.Atomic != mem.AtomicInt || want.AggregatedAdd || want.async != apNone || want.barRelease != 0 || want.NoWait {
					special++
				}
				if got.Timing != want.Timing || got.NoWait != want.NoWait || got.Atomic != want.Atomic || got.AggregatedAdd != want.AggregatedAdd ||
					got.async != want.async || got.barRelease != want.barRelease {
					t.Errorf("%s line %d %s: decoded %+v, text rules %+v", f, di.Line, di.Text, got, want)
				}
			}
		}
	}
	if special < 50 {
		t.Errorf("only %d of %d instructions have a timing rule of their own: the corpus does not test the rules", special, n)
	}
	t.Logf("%d instructions of %d files, %d with a rule of their own", n, len(files), special)
}
