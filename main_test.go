package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"run"}, {"run", "--grid", "0", "x.cu"}, {"occupancy", "--block", "128"}, {"run", "--timing", "maybe", "x.cu"}} {
		if code, _, _ := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestUserErrorsExit1(t *testing.T) {
	code, _, stderr := runCLI("run", "does-not-exist.cu")
	if code != 1 || !strings.Contains(stderr, "does-not-exist.cu") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	bad := filepath.Join(t.TempDir(), "bad.ptx")
	if err := os.WriteFile(bad, []byte(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI("run", bad)
	if code != 1 || !strings.Contains(stderr, ":6:") {
		t.Errorf("bad PTX: exit %d, stderr %q (want the line 6 named)", code, stderr)
	}
}

func TestOccupancyJSON(t *testing.T) {
	code, out, stderr := runCLI("occupancy", "--arch", "sm_90", "--block", "256", "--regs", "32", "--smem", "0", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"active_blocks_per_sm", "occupancy_pct", "limiting_factors", "limits"} {
		if _, ok := v[k]; !ok {
			t.Errorf("occupancy --json lacks %q: %s", k, out)
		}
	}
	// 256 threads x 32 registers on sm_90: 8 blocks of 8 warps fill the 64 warps of an SM.
	if v["active_blocks_per_sm"].(float64) != 8 || v["occupancy_pct"].(float64) != 100 {
		t.Errorf("unexpected occupancy: %s", out)
	}
}

func TestParseJSONOnGoldenPTX(t *testing.T) {
	code, out, stderr := runCLI("parse", "--json", "testdata/golden/ptx/reduce.sm_90.ptx")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		PTX     struct{ Version, Target string }
		Kernels []struct {
			Name               string
			Params             []struct{ Name, Type string }
			Instructions       int
			RegistersEstimated int  `json:"registers_estimated"`
			RegistersPTXAS     *int `json:"registers_ptxas"`
		}
		Errors []any
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.PTX.Version != "9.0" || v.PTX.Target != "sm_90" || len(v.Kernels) != 3 || len(v.Errors) != 0 {
		t.Fatalf("unexpected parse result: %s", out)
	}
	for _, k := range v.Kernels {
		if len(k.Params) != 3 || k.Instructions == 0 || k.RegistersEstimated == 0 {
			t.Errorf("kernel %+v", k)
		}
	}
}

func TestRunDumpsBuffers(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("testdata", "golden", "data", "vector_add.a.in.bin")
	abs, _ := filepath.Abs(in)
	inB, _ := filepath.Abs(filepath.Join("testdata", "golden", "data", "vector_add.b.in.bin"))
	code, out, stderr := runCLI("run", "--arch", "sm_90", "--grid", "4", "--block", "256", "--json", "--dump", dir,
		"--launch", `vector_add(file("`+abs+`"):f32, file("`+inB+`"):f32, zeros(1000):f32, 1000)`,
		"testdata/golden/ptx/vector_add.sm_90.ptx")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"kernel", "arch", "grid", "block", "toolchain", "stats", "memory", "occupancy", "hints", "errors"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("run --json lacks %q", k)
		}
	}
	got, err := os.ReadFile(filepath.Join(dir, "vector_add_param_2.bin"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "data", "vector_add.c.out.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("dumped c differs from the H200's output")
	}
}

// TestKernelLogLevels: the kernel logs only warnings to stderr, and everything
// from info level into the file KERNELSCOPE_LOG names.
func TestKernelLogLevels(t *testing.T) {
	var stderr strings.Builder
	t.Setenv("KERNELSCOPE_LOG", "")
	log, done := kernelLog(&stderr)
	log.Info("kernel listening")
	log.Warn("empty key")
	done()
	if strings.Contains(stderr.String(), "kernel listening") || !strings.Contains(stderr.String(), "empty key") {
		t.Errorf("stderr got %q: want warnings only", stderr.String())
	}
	path := filepath.Join(t.TempDir(), "kernel.log")
	t.Setenv("KERNELSCOPE_LOG", path)
	stderr.Reset()
	log, done = kernelLog(&stderr)
	log.Info("kernel listening")
	done()
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "kernel listening") || stderr.Len() != 0 {
		t.Errorf("log file %q (%v), stderr %q", b, err, stderr.String())
	}
}

// TestRunHTMLDrawsOnlyShownCharts: `kernelscope run --html` draws the charts
// the page shows and no others: none at 100% occupancy, the occupancy charts below it.
func TestRunHTMLDrawsOnlyShownCharts(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		block  string
		charts bool
	}{{"256", false}, {"32", true}} {
		page := filepath.Join(dir, "block"+c.block+".html")
		code, _, stderr := runCLI("run", "--arch", "sm_90", "--grid", "4", "--block", c.block, "--html", page,
			"--launch", `vector_add(rand(1000):f32, rand(1000):f32, zeros(1000):f32, 1000)`,
			"testdata/golden/ptx/vector_add.sm_90.ptx")
		if code != 0 {
			t.Fatalf("block %s: exit %d: %s", c.block, code, stderr)
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		h := string(b)
		if !strings.Contains(h, `data-section="occupancy"`) {
			t.Fatalf("block %s: no occupancy section", c.block)
		}
		if got := strings.Contains(h, "<svg"); got != c.charts {
			t.Errorf("block %s: charts drawn = %v, want %v", c.block, got, c.charts)
		}
	}
}

// TestRunTimingCaches: --timing on runs the time-aware caches by default (the report
// carries memory.hit_rates), --timing on,nocaches turns them off (no hit_rates), the
// 11-atomics contention kernel serialises at the atomic units on every path (within 25%
// of the H200's 138,884 cycles, testdata/measured/caches/micro_ncu.csv; validation), and
// a bad option is a usage error.
func TestRunTimingCaches(t *testing.T) {
	ptxFile := filepath.Join("testdata", "measured", "caches", "ptx", "contention.ptx")
	run := func(timing string) (float64, bool) {
		code, out, stderr := runCLI("run", "--arch", "sm_90", "--grid", "132", "--block", "256", "--json", "--timing", timing,
			"--check", "off", "--launch", "v_atom11(zeros(4):u32, zeros(33792):u32)", ptxFile)
		if code != 0 {
			t.Fatalf("--timing %s: exit %d: %s", timing, code, stderr)
		}
		var rep struct {
			Timing struct {
				KernelCycles float64 `json:"kernel_cycles"`
			} `json:"timing"`
			Memory struct {
				HitRates *struct {
					L1 float64 `json:"l1"`
					L2 float64 `json:"l2"`
				} `json:"hit_rates"`
			} `json:"memory"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Timing.KernelCycles, rep.Memory.HitRates != nil
	}
	const h200 = 138884
	for _, c := range []struct {
		timing   string
		hitRates bool
	}{{"on,nocaches,replay", false}, {"on,caches,replay", true}, {"on,replay", true}, {"on", true}, {"on,nocaches", false}} {
		cycles, hr := run(c.timing)
		if hr != c.hitRates {
			t.Errorf("--timing %s: memory.hit_rates present = %v, want %v", c.timing, hr, c.hitRates)
		}
		if e := (cycles - h200) / h200; math.Abs(e) > 0.25 {
			t.Errorf("--timing %s: %v kernel cycles, H200 %d (%+.0f%%): the atomic units did not serialise", c.timing, cycles, h200, 100*e)
		}
	}
	if code, _, stderr := runCLI("run", "--timing", "on,cache", ptxFile); code != 2 || !strings.Contains(stderr, `unknown option "cache"`) {
		t.Errorf("--timing on,cache: exit %d, %s", code, stderr)
	}
}

// TestRunTimingStream: --timing on times the SASS stream (the modelled ptxas lowering for a
// PTX file), --timing on,ptx the old one slot per PTX instruction, and the report says which;
// the SASS stream issues fewer slots for vector_add, whose ptxas folds parameter moves, cvta
// and the address arithmetic.
func TestRunTimingStream(t *testing.T) {
	ptxFile := filepath.Join("testdata", "golden", "ptx", "vector_add.sm_90.ptx")
	run := func(timing string) (stream, source string, issued, sass int64) {
		code, out, stderr := runCLI("run", "--arch", "sm_90", "--grid", "4", "--block", "256", "--json", "--timing", timing,
			"--check", "off", "--launch", "vector_add(ones(1000):f32, ones(1000):f32, zeros(1000):f32, 1000)", ptxFile)
		if code != 0 {
			t.Fatalf("--timing %s: exit %d: %s", timing, code, stderr)
		}
		var rep struct {
			Stats struct {
				SASS int64 `json:"sass_instructions"`
			} `json:"stats"`
			Timing struct {
				Issued       int64  `json:"issued"`
				Stream       string `json:"stream"`
				StreamSource string `json:"stream_source"`
			} `json:"timing"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Timing.Stream, rep.Timing.StreamSource, rep.Timing.Issued, rep.Stats.SASS
	}
	s, src, si, sass := run("on")
	p, psrc, pi, _ := run("on,ptx")
	if s != "sass" || src != "modelled ptxas lowering" || p != "ptx" || psrc != "" {
		t.Errorf("streams: on gives %q (%q), on,ptx gives %q (%q)", s, src, p, psrc)
	}
	if si >= pi || si != sass {
		t.Errorf("issued: SASS stream %d, PTX stream %d, modelled SASS instructions %d", si, pi, sass)
	}
	if code, _, stderr := runCLI("run", "--timing", "on,sass,ptx", ptxFile); code != 2 || !strings.Contains(stderr, "exclude each other") {
		t.Errorf("--timing on,sass,ptx: exit %d, %s", code, stderr)
	}
}
