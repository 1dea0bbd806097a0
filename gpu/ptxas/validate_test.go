package ptxas

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/mem"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/sass"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// measuredDir is testdata/measured/ptxas.
var measuredDir = filepath.Join("..", "..", "testdata", "measured", "ptxas")

// calibrationGolden are the golden kernels whose sm_90 listings the rules were read from
// (and histogram256, whose measured count chose between two candidate rules for a repeated
// shared-symbol mov and a sign extension feeding a 64-bit add); the other golden kernels,
// the scale launches and the real-code set are validation.
var calibrationGolden = map[string]bool{"vector_add": true, "saxpy": true, "transpose_naive": true, "branchy": true, "matmul_tiled": true, "histogram256": true}

// ncuLaunch is one launch of ncu_h200.json.
type ncuLaunch struct {
	Kernel  string             `json:"kernel"`
	Metrics map[string]float64 `json:"metrics"`
	Opcodes map[string]float64 `json:"opcodes"`
}

func loadNCU(t testing.TB) map[string]ncuLaunch {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(measuredDir, "ncu_h200.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Launches map[string]ncuLaunch `json:"launches"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Launches
}

// launch is one kernel launch to model: its PTX and arguments.
type launch struct {
	id, set, ptxPath, kernel string
	grid, block              [3]int
	shared                   int
	args                     []sim.Arg
	calibration              bool
}

func parsePTX(t testing.TB, path string) *ptx.Module {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptx.Parse(filepath.Base(path), b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func scalarBits(typ string, v float64) uint64 {
	switch typ {
	case "f32":
		return uint64(math.Float32bits(float32(v)))
	case "f64":
		return math.Float64bits(v)
	case "u8":
		return uint64(uint8(v))
	case "i64", "u64":
		return uint64(int64(v))
	}
	return uint64(uint32(int32(v)))
}

func goldenLaunches(t testing.TB) []launch {
	cs, err := golden.Cases()
	if err != nil {
		t.Fatal(err)
	}
	var out []launch
	for _, c := range cs {
		l := launch{id: "golden." + c.Name, set: "golden", kernel: c.Kernel, grid: c.Grid, block: c.Block, shared: c.SharedBytes,
			ptxPath: filepath.Join(golden.Dir(), "ptx", c.Base()+".sm_90.ptx"), calibration: calibrationGolden[c.Name]}
		for _, a := range c.Args {
			if a.IsBuffer() {
				b, err := golden.Read(a.Input)
				if err != nil {
					t.Fatal(err)
				}
				l.args = append(l.args, sim.Arg{Buffer: b})
				continue
			}
			v, err := a.Float()
			if err != nil {
				t.Fatal(err)
			}
			l.args = append(l.args, sim.Arg{Scalar: scalarBits(a.Type, v)})
		}
		out = append(out, l)
	}
	return out
}

// xorshift is host.cpp's generator (the device inputs of the manifest's R: buffers).
type xorshift uint64

func (x *xorshift) next() uint32 {
	v := uint64(*x)
	v ^= v << 13
	v ^= v >> 7
	v ^= v << 17
	*x = xorshift(v)
	return uint32(v >> 11)
}

// manifestLaunches reads manifest.txt lines whose id starts with prefix, generating the
// R: buffers as host.cpp did (its generator restarts for every ncu run of one prefix).
// revisedBy names the held-out iso4 kernels whose listing revised a rule (docs/ptxas.md:
// their first, held-out figures are recorded there), and the rule.
var revisedBy = map[string]string{
	"iso4.iso4_guard_fma_shfl": "a computing guarded load region is predicated only single-armed",
	"iso4.iso4_sdiv_warp":      "the reciprocal of WARP_SZ is made once per function",
	"iso4.iso4_uniform_loop":   "a uniform counter compared with a uniform register stays in a vector register",
	// wave 6: the f16 pairing rule was read off this validation kernel's per-opcode counts
	// (one HFMA2 per warp for two add.f16); iso5's f16 kernels check it held out
	"realcode.lc_elementwise_add_f16x2": "two f16 operations on the halves of the same registers pair into one HFMA2",
	// wave 6: held-out iso5 kernels whose listing then revised the f16 pairing rule
	"iso5.iso5_h2_mul":       "a paired f16 mul is an HFMA2 too (not HMUL2)",
	"iso5.iso5_h2_add_split": "halves whose results are used apart still pair, with a PRMT for the high half",
}

func manifestLaunches(t testing.TB, prefix string, maxBytes int) []launch {
	f, err := os.Open(filepath.Join(measuredDir, "manifest.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rng := xorshift(88172645463325252)
	var out []launch
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		tok := strings.Fields(sc.Text())
		if len(tok) < 11 || strings.HasPrefix(tok[0], "#") || !strings.HasPrefix(tok[0], prefix) {
			continue
		}
		l := launch{id: tok[0], set: strings.SplitN(tok[0], ".", 2)[0], kernel: tok[2]}
		stem := strings.TrimSuffix(filepath.Base(tok[1]), ".sm_90.cubin")
		if l.set == "scale" {
			l.ptxPath = filepath.Join(golden.Dir(), "ptx", stem+".sm_90.ptx")
		} else {
			l.ptxPath = filepath.Join(measuredDir, "sass", stem+".sm_90.ptx")
		}
		// iso4: held-out validation kernels, but those whose listing revised a rule after the
		// first measurement (revisedBy) count as calibration from then on
		l.calibration = l.set == "iso" || l.set == "iso3" || revisedBy[l.id] != ""
		for k := 0; k < 3; k++ {
			l.grid[k], _ = strconv.Atoi(tok[3+k])
			l.block[k], _ = strconv.Atoi(tok[6+k])
		}
		l.shared, _ = strconv.Atoi(tok[9])
		skip := false
		for _, a := range tok[11:] {
			switch {
			case strings.HasPrefix(a, "R:"):
				p := strings.Split(a, ":")
				n, _ := strconv.Atoi(p[1])
				if n > maxBytes {
					skip = true
				}
				b := make([]byte, n+16)
				if !skip {
					switch p[2] {
					case "f":
						for i := 0; i+4 <= n; i += 4 {
							binary.LittleEndian.PutUint32(b[i:], math.Float32bits(float32(rng.next()&0xffffff)/16777216.0))
						}
					case "b":
						for i := 0; i < n; i++ {
							b[i] = byte(rng.next())
						}
					case "i":
						for i := 0; i+4 <= n; i += 4 {
							binary.LittleEndian.PutUint32(b[i:], rng.next()%1000)
						}
					}
				}
				l.args = append(l.args, sim.Arg{Buffer: b})
			case strings.HasPrefix(a, "I4:"), strings.HasPrefix(a, "I8:"):
				v, _ := strconv.ParseInt(a[3:], 10, 64)
				l.args = append(l.args, sim.Arg{Scalar: uint64(v)})
			case strings.HasPrefix(a, "F4:"):
				v, _ := strconv.ParseFloat(a[3:], 32)
				l.args = append(l.args, sim.Arg{Scalar: uint64(math.Float32bits(float32(v)))})
			case strings.HasPrefix(a, "F8:"):
				v, _ := strconv.ParseFloat(a[3:], 64)
				l.args = append(l.args, sim.Arg{Scalar: math.Float64bits(v)})
			default:
				t.Fatalf("%s: argument %q not understood", l.id, a)
			}
		}
		if !skip {
			out = append(out, l)
		}
	}
	return out
}

// modelRow is one kernel's modelled and measured counts.
type modelRow struct {
	id, set     string
	calibration bool
	ptxWarp     int64
	model       Counts
	fromSASS    *Counts // nil without a listing
	measured    float64
	pipesNCU    [NumPipes]float64
	mem         mem.Totals // with merging
	hasMem      bool       // real code: the report had a memory section
	memPTX      mem.Totals // without
}

// runModel simulates one launch and models its SASS counts and merged memory counters.
func runModel(t testing.TB, l launch, cache map[string]*ptx.Module) modelRow {
	m := cache[l.ptxPath]
	if m == nil {
		m = parsePTX(t, l.ptxPath)
		cache[l.ptxPath] = m
	}
	prog, err := LowerModule(m, "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	merged, plain := mem.NewCounter(nil), mem.NewCounter(nil)
	filt := NewMergeFilter(prog, m, merged.Observe)
	cfg := sim.Config{Grid: l.grid, Block: l.block, DynamicShared: l.shared, NumSMs: 132, Budget: 1 << 40,
		Trace:    sim.TraceConfig{MaxSteps: -1},
		OnMemory: func(a *mem.Access) { filt.Observe(a); plain.Observe(a) }}
	args := make([]sim.Arg, len(l.args))
	for i, a := range l.args {
		args[i] = a
		if a.Buffer != nil {
			args[i].Buffer = append([]byte(nil), a.Buffer...)
		}
	}
	res, err := sim.Launch(context.Background(), m, l.kernel, args, cfg)
	if err != nil {
		t.Fatalf("%s: %v", l.id, err)
	}
	threads := l.block[0] * max(1, l.block[1]) * max(1, l.block[2])
	warps := int64(l.grid[0]*max(1, l.grid[1])*max(1, l.grid[2])) * int64((threads+31)/32)
	c, err := prog.Count(l.kernel, res.Insts, warps)
	if err != nil {
		t.Fatalf("%s: %v", l.id, err)
	}
	row := modelRow{id: l.id, set: l.set, calibration: l.calibration, ptxWarp: res.Stats.WarpInstructions, model: c,
		mem: merged.Totals(), memPTX: plain.Totals(), hasMem: true}
	if lst := listingFor(t, l.ptxPath); lst != nil {
		sp, err := LowerModuleFromSASS(m, "sm_90", lst)
		if err != nil {
			t.Fatalf("%s: %v", l.id, err)
		}
		sc, err := sp.Count(l.kernel, res.Insts, warps)
		if err != nil {
			t.Fatalf("%s: %v", l.id, err)
		}
		row.fromSASS = &sc
	}
	return row
}

// listingFor returns the nvdisasm -g listing beside a PTX file (NAME.sm_90.ptx ->
// NAME.sm_90.nvdisasm in the golden or measured sass folder), nil if there is none.
func listingFor(t testing.TB, ptxPath string) *sass.Listing {
	base := strings.TrimSuffix(filepath.Base(ptxPath), ".ptx")
	for _, dir := range []string{filepath.Join(golden.Dir(), "sass"), filepath.Join(measuredDir, "sass")} {
		b, err := os.ReadFile(filepath.Join(dir, base+".nvdisasm"))
		if err != nil {
			continue
		}
		l, err := sass.Parse(string(b))
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		return l
	}
	return nil
}

func TestDynamicExplore(t *testing.T) {
	if os.Getenv("KS_PTXAS_EXPLORE") == "" {
		t.Skip("KS_PTXAS_EXPLORE=1 to print the dynamic comparison")
	}
	ncu := loadNCU(t)
	cache := map[string]*ptx.Module{}
	ls := append(goldenLaunches(t), manifestLaunches(t, "iso.", 1<<20)...)
	if os.Getenv("PTXAS_SCALE") != "" {
		ls = append(ls, manifestLaunches(t, "scale.", 1<<27)...)
	}
	for _, l := range ls {
		r := runModel(t, l, cache)
		want := ncu[l.id].Metrics["smsp__inst_executed.sum"]
		fs := 0.0
		if r.fromSASS != nil {
			fs = 100 * (r.fromSASS.Total - want) / want
		}
		t.Logf("%-34s ptx %9d (%+6.1f%%)  model %11.0f (%+6.1f%%)  ncu %9.0f sass %+6.1f%%", l.id, r.ptxWarp, 100*(float64(r.ptxWarp)-want)/want, r.model.Total, 100*(r.model.Total-want)/want, want, fs)
	}
}

var _ = fmt.Sprintf

func TestPipeExplore(t *testing.T) {
	if os.Getenv("KS_PTXAS_EXPLORE") == "" {
		t.Skip("KS_PTXAS_EXPLORE=1 to print the pipe comparison")
	}
	ncu := loadNCU(t)
	cache := map[string]*ptx.Module{}
	for _, l := range append(goldenLaunches(t), manifestLaunches(t, "iso.", 1<<20)...) {
		r := runModel(t, l, cache)
		m := ncu[l.id].Metrics
		s := ""
		for _, p := range ncuPipes {
			s += fmt.Sprintf(" %s %.0f/%.0f", p, r.model.Pipes[p], m["smsp__inst_executed_pipe_"+p.String()+".sum"])
		}
		t.Logf("%-28s%s", l.id, s)
	}
}
