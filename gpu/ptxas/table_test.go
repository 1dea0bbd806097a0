package ptxas

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// The validation of issue 20 / issue 14 point 2: per kernel, modelled SASS warp-instructions
// against the H200's smsp__inst_executed.sum, the pipe mix against smsp__inst_executed_pipe_*,
// and the memory counters through the merge filter against ncu. Calibration kernels (iso.*,
// calibrationGolden) are kept apart from validation kernels in the table and the goals.
//
// CI runs the golden, iso and small scale launches (ciScaleBytes); PTXAS_SCALE=1 adds every
// scale launch; PTXAS_DOC=FILE writes docs/ptxas.md (scripts/ptxas_table.sh), with the
// real-code rows from build/ptxas/realcode/*.json when scripts/ptxas_realcode.sh made them.

// ciScaleBytes and ciScaleInsts bound the buffers and the H200's warp-instructions of the
// scale launches CI simulates (the others need PTXAS_SCALE=1).
const (
	ciScaleBytes = 1 << 26
	ciScaleInsts = 1e7
)

// ncuPipes are the pipe counters the table compares (fma = fmaheavy + fmalite).
var ncuPipes = []Pipe{PipeALU, PipeFMA, PipeFP64, PipeLSU, PipeADU, PipeCBU, PipeUniform, PipeXU, PipeTensor}

// pipeShareError is the largest difference, in points of the total, between the modelled and
// measured share of a pipe (the rest, "other", included).
func pipeShareError(model [NumPipes]float64, total float64, m map[string]float64) float64 {
	want := m["smsp__inst_executed.sum"]
	if want == 0 || total == 0 {
		return 0
	}
	worst, restM, restW := 0.0, total, want
	for _, p := range ncuPipes {
		w := m["smsp__inst_executed_pipe_"+p.String()+".sum"]
		g := model[p]
		restM -= g
		restW -= w
		worst = math.Max(worst, math.Abs(100*g/total-100*w/want))
	}
	return math.Max(worst, math.Abs(100*restM/total-100*restW/want))
}

// memCheck compares the merged memory counters with ncu: global requests and sectors with
// l1tex__t_*, shared wavefronts with the SASS-instrumented (address-derived) wavefronts.
type memCheck struct {
	name  string
	model int
	ncu   float64
}

func memChecks(r modelRow, m map[string]float64) []memCheck {
	t := r.mem
	return []memCheck{
		{"global ld requests", t.GlobalLoadRequests, m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]},
		{"global ld sectors", t.GlobalLoadSectors, m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]},
		{"global st requests", t.GlobalStoreRequests, m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]},
		{"global st sectors", t.GlobalStoreSectors, m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]},
		{"shared ld wavefronts", t.SharedLoadWavefronts, m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]},
		{"shared st wavefronts", t.SharedStoreWavefronts, m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]},
		{"shared ld instructions", t.SharedLoadInstructions, m["smsp__sass_inst_executed_op_shared_ld.sum"]},
		{"shared st instructions", t.SharedStoreInstructions, m["smsp__sass_inst_executed_op_shared_st.sum"]},
	}
}

// memExceptions are the memory counters known to differ, with the reason (checked against
// the SASS listings and ncu); any other difference fails the test.
var memExceptions = map[string]string{}

func tableLaunches(t *testing.T, ncu map[string]ncuLaunch) []launch {
	ls := append(goldenLaunches(t), manifestLaunches(t, "iso.", 1<<20)...)
	if _, ok := ncu["iso3.iso3_guard_ld"]; ok { // the third device call's kernels, once ingested
		ls = append(ls, manifestLaunches(t, "iso3.", 1<<20)...)
	}
	if _, ok := ncu["iso4.iso4_loop_guard3"]; ok { // wave 5's held-out kernels, once ingested
		ls = append(ls, manifestLaunches(t, "iso4.", 1<<20)...)
	}
	if _, ok := ncu["iso5.iso5_h2_add"]; ok { // wave 6's kernels (f16 pairs, nounroll loops, a bounds chain)
		ls = append(ls, manifestLaunches(t, "iso5.", 1<<20)...)
	}
	limit, insts := ciScaleBytes, ciScaleInsts
	if os.Getenv("PTXAS_SCALE") != "" {
		limit, insts = 1<<28, math.Inf(1)
	}
	for _, l := range manifestLaunches(t, "scale.", limit) {
		total := 0
		for _, a := range l.args {
			total += len(a.Buffer)
		}
		if total <= limit && ncu[l.id].Metrics["smsp__inst_executed.sum"] <= insts {
			l.calibration = false
			ls = append(ls, l)
		}
	}
	return ls
}

func TestLoweringTable(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates every golden, iso and small scale launch")
	}
	ncu := loadNCU(t)
	cache := map[string]*ptx.Module{}
	var rows []modelRow
	for _, l := range tableLaunches(t, ncu) {
		rows = append(rows, runModel(t, l, cache))
	}
	rows = append(rows, realcodeRows(t, ncu)...)
	var lines []string
	type tally struct{ n, model5, ptx5, sass5, nsass, pipe10 int }
	tallies := map[string]*tally{}
	memBad := 0
	for _, r := range rows {
		m := ncu[r.id].Metrics
		want := m["smsp__inst_executed.sum"]
		if want == 0 {
			t.Errorf("%s: no smsp__inst_executed.sum in ncu_h200.json", r.id)
			continue
		}
		kind := r.set + " validation"
		if r.calibration {
			kind = r.set + " calibration"
		}
		ty := tallies[kind]
		if ty == nil {
			ty = &tally{}
			tallies[kind] = ty
		}
		ty.n++
		errModel := 100 * (r.model.Total - want) / want
		errPTX := 100 * (float64(r.ptxWarp) - want) / want
		if math.Abs(errModel) <= 5 {
			ty.model5++
		}
		if math.Abs(errPTX) <= 5 {
			ty.ptx5++
		}
		sassCol := "—"
		if r.fromSASS != nil {
			e := 100 * (r.fromSASS.Total - want) / want
			sassCol = fmt.Sprintf("%+.1f%%", e)
			ty.nsass++
			if math.Abs(e) <= 5 {
				ty.sass5++
			}
		}
		pe := pipeShareError(r.model.Pipes, r.model.Total, m)
		if pe <= 10 {
			ty.pipe10++
		}
		memCol := "—"
		if r.set != "realcode" || r.hasMem {
			var diffs []string
			for _, c := range memChecks(r, m) {
				if float64(c.model) != c.ncu {
					key := r.id + ": " + c.name
					if why, ok := memExceptions[key]; ok {
						diffs = append(diffs, c.name+" (known: "+why+")")
						continue
					}
					diffs = append(diffs, fmt.Sprintf("%s %d vs %.0f", c.name, c.model, c.ncu))
					if r.set != "realcode" { // real code is reported, not asserted (not in CI)
						t.Errorf("%s: %s: modelled %d, ncu %.0f", r.id, c.name, c.model, c.ncu)
					}
					memBad++
				}
			}
			memCol = "equal"
			if len(diffs) > 0 {
				memCol = strings.Join(diffs, "; ")
			}
		}
		lines = append(lines, fmt.Sprintf("| %s | %s | %.0f | %d (%+.1f%%) | %.0f (%+.1f%%) | %s | %.1f | %s |",
			r.id, kind, want, r.ptxWarp, errPTX, r.model.Total, errModel, sassCol, pe, memCol))
	}
	sort.Strings(lines)
	var sum []string
	var kinds []string
	for k := range tallies {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		ty := tallies[k]
		s := fmt.Sprintf("| %s | %d | %d (%.0f%%) | %d (%.0f%%) | %d of %d | %d (%.0f%%) |", k, ty.n, ty.model5, 100*float64(ty.model5)/float64(ty.n),
			ty.ptx5, 100*float64(ty.ptx5)/float64(ty.n), ty.sass5, ty.nsass, ty.pipe10, 100*float64(ty.pipe10)/float64(ty.n))
		sum = append(sum, s)
	}
	table := "| set | kernels | modelled within 5% | PTX count within 5% | from-SASS within 5% | pipe mix within 10 points |\n| --- | --- | --- | --- | --- | --- |\n" +
		strings.Join(sum, "\n") + "\n\n| launch | set | ncu smsp__inst_executed.sum | PTX warp-instructions | modelled SASS (gpu/ptxas) | from SASS (nvdisasm -g) | worst pipe share error (points) | memory counters vs ncu |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n" +
		strings.Join(lines, "\n") + "\n"
	t.Log("\n" + table)
	if path := os.Getenv("PTXAS_DOC"); path != "" {
		writeDoc(t, path, table)
	}
	if path := os.Getenv("PTXAS_ROWS"); path != "" {
		writeRows(t, path, rows)
	}
	// Goals as measured at the last regeneration (regression guards; issue 20's goal is 90%).
	if g := tallies["golden validation"]; g != nil && g.model5 < 11 {
		t.Errorf("golden validation: %d of %d kernels within 5%%, want at least 11", g.model5, g.n)
	}
	if g := tallies["iso calibration"]; g != nil && g.model5 < 25 {
		t.Errorf("iso calibration: %d of %d kernels within 5%%, want at least 25", g.model5, g.n)
	}
	if g := tallies["iso3 calibration"]; g != nil && g.model5 < 16 {
		t.Errorf("iso3 calibration: %d of %d kernels within 5%%, want at least 16", g.model5, g.n)
	}
	// wave 6: the nounroll rule took iso4_uniform_loop within 5%; iso5 as first measured (held
	// out) and after the pairing rule's revision (calibration)
	for k, want := range map[string]int{"iso4 calibration": 3, "iso5 validation": 3, "iso5 calibration": 2} {
		if g := tallies[k]; g != nil && g.model5 < want {
			t.Errorf("%s: %d of %d kernels within 5%%, want at least %d", k, g.model5, g.n, want)
		}
	}
	// pipe mix within 10 points (issue 20's second goal), as measured at the last regeneration
	for k, want := range map[string]int{"golden calibration": 6, "golden validation": 10, "iso calibration": 25, "iso3 calibration": 17, "iso4 calibration": 3, "iso5 validation": 4, "iso5 calibration": 2} {
		if g := tallies[k]; g != nil && g.pipe10 < want {
			t.Errorf("%s: pipe mix within 10 points on %d of %d kernels, want at least %d", k, g.pipe10, g.n, want)
		}
	}
	if g := tallies["scale validation"]; g != nil && (g.model5 < g.n || g.pipe10 < g.n) {
		t.Errorf("scale validation: %d of %d within 5%%, pipe mix %d within 10 points, want all", g.model5, g.n, g.pipe10)
	}
}

// realcodeRows reads the KernelScope reports scripts/ptxas_realcode.sh made (build/, absent in CI).
func realcodeRows(t *testing.T, ncu map[string]ncuLaunch) []modelRow {
	files, _ := filepath.Glob(filepath.Join("..", "..", "build", "ptxas", "realcode", "*.json"))
	var rows []modelRow
	for _, f := range files {
		id := "realcode." + strings.TrimSuffix(filepath.Base(f), ".json")
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var rep struct {
			Stats struct {
				WarpInstructions int64            `json:"warp_instructions"`
				SASSInstructions int64            `json:"sass_instructions"`
				SASSPipes        map[string]int64 `json:"sass_pipes"`
			} `json:"stats"`
			Memory *struct {
				GLR  int `json:"global_load_requests"`
				GLS  int `json:"global_load_sectors"`
				GSR  int `json:"global_store_requests"`
				GSS  int `json:"global_store_sectors"`
				SLW  int `json:"shared_load_wavefronts"`
				SSW  int `json:"shared_store_wavefronts"`
				Rows []struct {
					Space      string `json:"space"`
					Op         string `json:"op"`
					Executions int    `json:"executions"`
				} `json:"instructions"`
			} `json:"memory"`
		}
		if json.Unmarshal(b, &rep) != nil || rep.Stats.SASSInstructions == 0 {
			continue
		}
		if ncu[id].Metrics["smsp__inst_executed.sum"] == 0 { // the launch faulted on the H200
			continue
		}
		// a real-code kernel whose counts a rule was read off (revisedBy) is calibration since
		r := modelRow{id: id, set: "realcode", ptxWarp: rep.Stats.WarpInstructions, calibration: revisedBy[id] != ""}
		r.model.Total = float64(rep.Stats.SASSInstructions)
		for i := Pipe(0); i < NumPipes; i++ {
			r.model.Pipes[i] = float64(rep.Stats.SASSPipes[i.String()])
		}
		if m := rep.Memory; m != nil {
			r.hasMem = true
			r.mem.GlobalLoadRequests, r.mem.GlobalLoadSectors, r.mem.GlobalStoreRequests, r.mem.GlobalStoreSectors = m.GLR, m.GLS, m.GSR, m.GSS
			r.mem.SharedLoadWavefronts, r.mem.SharedStoreWavefronts = m.SLW, m.SSW
			for _, row := range m.Rows {
				if row.Space == "shared" && row.Op == "ld" {
					r.mem.SharedLoadInstructions += row.Executions
				}
				if row.Space == "shared" && row.Op == "st" {
					r.mem.SharedStoreInstructions += row.Executions
				}
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// writeRows writes each row's modelled total and pipes as JSON (PTXAS_ROWS=FILE), for
// comparing the pipe mix with ncu launch by launch (scripts/ptxas_pipes.py).
func writeRows(t *testing.T, path string, rows []modelRow) {
	out := map[string]map[string]float64{}
	for _, r := range rows {
		m := map[string]float64{"total": r.model.Total, "ptx": float64(r.ptxWarp)}
		for p := Pipe(0); p < NumPipes; p++ {
			m[p.String()] = r.model.Pipes[p]
		}
		out[r.id] = m
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeDoc replaces the generated part of docs/ptxas.md (between the markers).
func writeDoc(t *testing.T, path, table string) {
	const begin, end = "<!-- ptxas table: begin (scripts/ptxas_table.sh) -->", "<!-- ptxas table: end -->"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no table markers", path)
	}
	s = s[:i+len(begin)] + "\n" + table + s[j:]
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
