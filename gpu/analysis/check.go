package analysis

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/expect"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// Checks selects the correctness checks of a launch (%check, --check).
type Checks struct {
	Race  bool // racecheck: shared hazards in a block and a warp, global hazards between blocks
	Init  bool // initcheck: reads of bytes nobody wrote
	Sync  bool // synccheck: barriers and warp-synchronous instructions
	Order bool // run the launch again in reverse block and warp order and compare the outputs
}

// DefaultChecks are the checks on when a cell or command line says nothing.
var DefaultChecks = Checks{Race: true, Init: true, Sync: true}

// Names lists the checks that are on ("race", "init", "sync", "order").
func (c Checks) Names() []string {
	var out []string
	for _, x := range []struct {
		on   bool
		name string
	}{{c.Race, "race"}, {c.Init, "init"}, {c.Sync, "sync"}, {c.Order, "order"}} {
		if x.on {
			out = append(out, x.name)
		}
	}
	return out
}

// ParseChecks reads "race,init,sync,order", "all", "off" or "none".
func ParseChecks(s string) (Checks, error) {
	var c Checks
	s = strings.TrimSpace(s)
	if s == "" {
		return c, fmt.Errorf("expected a list of checks (race, init, sync, order), all or off")
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch strings.ToLower(f) {
		case "race":
			c.Race = true
		case "init":
			c.Init = true
		case "sync":
			c.Sync = true
		case "order":
			c.Order = true
		case "all":
			c = Checks{true, true, true, true}
		case "off", "none":
			c = Checks{}
		default:
			return Checks{}, fmt.Errorf("unknown check %q (valid: race, init, sync, order, all, off)", f)
		}
	}
	return c, nil
}

// simChecks is the simulator's part of the checks.
func (c Checks) simChecks() sim.Checks { return sim.Checks{Race: c.Race, Init: c.Init, Sync: c.Sync} }

// undefinedArgs marks the buffers created with empty(n).
func undefinedArgs(simArgs []sim.Arg, args []launchArg) {
	for i := range simArgs {
		if i < len(args) && args[i].buffer != nil && strings.HasPrefix(args[i].info.Init, "empty(") {
			simArgs[i].Undefined = true
		}
	}
}

// addFindings turns the simulator's findings into the report's, with CUDA lines and names.
func addFindings(rep *report.Report, req Request, mod *ptx.Module, res *sim.Result, args []launchArg) {
	rep.Checks = req.Checks.Names()
	rep.Sanitizer = []report.Finding{}
	file := userFile(req)
	var src []string
	if !req.IsPTX {
		src = strings.Split(string(req.Source), "\n")
	}
	for _, f := range res.Findings {
		rf := report.Finding{Kind: f.Kind, Space: f.Space, PTXLine: f.PTXLine, CUDALine: findingLine(mod, res, f.PC, file, src),
			Block: f.Block, Thread: f.Thread, Access: f.Access, OtherAccess: f.OtherAccess, Address: f.Addr,
			Variable: f.Variable, Count: f.Count, Severity: "error"}
		if f.Warning {
			rf.Severity = "warning"
		}
		if f.OtherPC >= 0 {
			rf.OtherPTXLine, rf.OtherCUDALine = f.OtherPTXLine, findingLine(mod, res, f.OtherPC, file, src)
		}
		if f.HasOther {
			t := f.OtherThread
			rf.OtherThread, rf.OtherBlock = &t, f.OtherBlock
		}
		if f.Arg >= 0 && f.Arg < len(args) {
			a := args[f.Arg].info
			if size := launch.ElemSizes[a.Type]; size > 0 {
				rf.Variable = fmt.Sprintf("%s[%d]", a.Name, f.Offset/size)
			}
		}
		rf.Message = findingMessage(rf, f.Detail, req.Cell)
		rep.Sanitizer = append(rep.Sanitizer, rf)
	}
	if res.FindingsDropped > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("checks: %d more distinct findings were not kept (at most %d per launch)", res.FindingsDropped, sim.DefaultMaxFindings))
	}
	for _, n := range res.CheckNotes {
		rep.Notes = append(rep.Notes, "checks: "+n)
	}
}

// findingMessage prefixes a finding's detail with where it is.
func findingMessage(f report.Finding, detail string, cell bool) string {
	var b strings.Builder
	b.WriteString(lineRef(f.CUDALine, f.PTXLine, cell))
	if f.OtherPTXLine > 0 {
		b.WriteString(" and " + lineRef(f.OtherCUDALine, f.OtherPTXLine, cell))
	}
	b.WriteString(": ")
	b.WriteString(detail)
	if f.Variable != "" && f.Space == "global" && !strings.Contains(detail, f.Variable) {
		b.WriteString(" (" + f.Variable + ")")
	}
	if f.Count > 1 {
		fmt.Fprintf(&b, " [%d times]", f.Count)
	}
	return b.String()
}

// lineRef names a line pair for messages.
func lineRef(cuda, ptxLine int, cell bool) string {
	if cuda > 0 {
		w := "line"
		if cell {
			w = "cell line"
		}
		return fmt.Sprintf("%s %d (PTX line %d)", w, cuda, ptxLine)
	}
	return fmt.Sprintf("PTX line %d", ptxLine)
}

// orderCheck runs the launch again with blocks and warps in reverse order and
// reports each buffer whose bytes differ.
func orderCheck(ctx context.Context, rep *report.Report, mod *ptx.Module, kernel string, simArgs []sim.Arg, cfg sim.Config, res *sim.Result, args []launchArg) error {
	// The same launch (geometry, memory layout, symbols set before it), without
	// the first run's observers: no trace, no memory or issue callbacks, no checks.
	cfg2 := sim.Config{Grid: cfg.Grid, Block: cfg.Block, DynamicShared: cfg.DynamicShared, NumSMs: cfg.NumSMs, Budget: cfg.Budget,
		SharedAllocUnit: cfg.SharedAllocUnit, MaxWarpsPerSM: cfg.MaxWarpsPerSM, Symbols: cfg.Symbols,
		Trace: sim.TraceConfig{MaxSteps: -1}, Reverse: true, Workers: cfg.Workers,
		Cluster: cfg.Cluster, Cooperative: cfg.Cooperative, MaxResident: cfg.MaxResident, MaxResidentWhy: cfg.MaxResidentWhy}
	res2, err := sim.Launch(ctx, mod, kernel, simArgs, cfg2)
	if err != nil {
		return fmt.Errorf("the launch in reverse order failed: %w", err)
	}
	for i, a := range args {
		if a.buffer == nil || i >= len(res.Buffers) || i >= len(res2.Buffers) {
			continue
		}
		b1, b2 := res.Buffers[i], res2.Buffers[i]
		size := launch.ElemSizes[a.info.Type]
		if size <= 0 {
			size = 1
		}
		first, diff := -1, 0
		for e := 0; e*size < len(b1) && e*size < len(b2); e++ {
			if string(b1[e*size:min((e+1)*size, len(b1))]) != string(b2[e*size:min((e+1)*size, len(b2))]) {
				if first < 0 {
					first = e
				}
				diff++
			}
		}
		if first < 0 {
			continue
		}
		v1 := launch.FormatElem(b1[first*size:], a.info.Type)
		v2 := launch.FormatElem(b2[first*size:], a.info.Type)
		if v1 == v2 { // the printed values agree, the bits do not: show the bits
			v1 += " (bits " + elemBits(b1[first*size:(first+1)*size]) + ")"
			v2 += " (bits " + elemBits(b2[first*size:(first+1)*size]) + ")"
		}
		f := report.Finding{Kind: "order_dependence", Space: "global", Variable: fmt.Sprintf("%s[%d]", a.info.Name, first),
			Address: res.Addresses[i] + uint64(first*size), Count: diff}
		f.Message = fmt.Sprintf("%s[%d] is %s in one schedule and %s when blocks and warps run in reverse order (%d of %d elements of %s differ): the result depends on the order threads run in",
			a.info.Name, first, v1, v2, diff, len(b1)/size, a.info.Name)
		rep.Sanitizer = append(rep.Sanitizer, f)
	}
	return nil
}

// checkExpectations evaluates the request's %expect lines over the launch's
// buffers (after the launch) and scalars; file() goes through the launch's own reader.
func checkExpectations(ctx context.Context, rep *report.Report, req Request, args []launchArg, res *sim.Result) {
	env := &expect.Env{Vars: map[string]expect.Value{}}
	for i, a := range args {
		size := launch.ElemSizes[a.info.Type]
		if size <= 0 {
			continue
		}
		if a.buffer != nil {
			if i < len(res.Buffers) && res.Buffers[i] != nil {
				env.Vars[a.info.Name] = expect.Value{Elem: a.info.Type, Data: decodeElems(res.Buffers[i], a.info.Type)}
			}
			continue
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], a.scalar)
		env.Vars[a.info.Name] = expect.Value{Elem: a.info.Type, Data: []float64{exactElem(b[:size], a.info.Type)}, Scalar: true}
	}
	limit := int64(MaxFileBytes)
	if req.Sandbox {
		limit = SandboxMaxFileBytes
	}
	env.ReadFile = func(name string) ([]byte, error) { return readInitFile(ctx, name, req.BaseDir, req.Sandbox, limit) }
	env.Decode = decodeElems
	for _, text := range req.Expect {
		r, err := expect.Check(text, env)
		e := report.Expectation{Text: text, Passed: r.Passed, Message: r.Message}
		if err != nil {
			e.Passed, e.Message = false, "error in the expression: "+err.Error()
		}
		rep.Expectations = append(rep.Expectations, e)
	}
}

// decodeElems reads the elements of a buffer of type elem.
func decodeElems(b []byte, elem string) []float64 {
	size := launch.ElemSizes[elem]
	if size <= 0 {
		return nil
	}
	out := make([]float64, len(b)/size)
	for i := range out {
		out[i] = exactElem(b[i*size:(i+1)*size], elem)
	}
	return out
}

// exactElem is one element's exact value (launch.ElemValue rounds floats to a few digits).
func exactElem(e []byte, elem string) float64 {
	switch elem {
	case "i8":
		return float64(int8(e[0]))
	case "u8":
		return float64(e[0])
	case "i16":
		return float64(int16(binary.LittleEndian.Uint16(e)))
	case "u16":
		return float64(binary.LittleEndian.Uint16(e))
	case "i32":
		return float64(int32(binary.LittleEndian.Uint32(e)))
	case "u32":
		return float64(binary.LittleEndian.Uint32(e))
	case "i64":
		return float64(int64(binary.LittleEndian.Uint64(e)))
	case "u64":
		return float64(binary.LittleEndian.Uint64(e))
	case "f16":
		return float64(launch.F16ToF32(binary.LittleEndian.Uint16(e)))
	case "bf16":
		return float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(e)) << 16))
	case "f32":
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(e)))
	case "f64":
		return math.Float64frombits(binary.LittleEndian.Uint64(e))
	}
	return math.NaN()
}

// intrinsicWords are the CUDA names behind PTX instructions that clang emits
// with the .loc of its own headers (no inlined_at): the line that calls one
// is found by name between the user's lines around the instruction.
var intrinsicWords = []struct{ prefix, word string }{
	{"bar.warp", "__syncwarp"}, {"shfl", "__shfl"}, {"vote", "_sync("}, {"match", "__match"}, {"redux", "__reduce"},
	{"atom", "atomic"}, {"red.", "atomic"}, {"bar", "__syncthreads"}, {"barrier", "__syncthreads"},
}

// findingLine is the user's CUDA line of instruction pc: its .loc when that is
// in the user's file, else the line calling the intrinsic it came from.
func findingLine(mod *ptx.Module, res *sim.Result, pc int, file string, src []string) int {
	if pc < 0 || pc >= len(res.Insts) {
		return 0
	}
	is := res.Insts[pc]
	if l := cudaLine(mod, is.Loc, file); l > 0 || src == nil {
		return l
	}
	var fn *ptx.Func
	for _, f := range mod.Funcs {
		if f.Name == is.Func {
			fn = f
		}
	}
	if fn == nil || is.Index >= len(fn.Insts) {
		return 0
	}
	prev, next := 0, 0
	for i := is.Index - 1; i >= 0 && prev == 0; i-- {
		prev = cudaLine(mod, fn.Insts[i].Loc, file)
	}
	for i := is.Index + 1; i < len(fn.Insts) && next == 0; i++ {
		next = cudaLine(mod, fn.Insts[i].Loc, file)
	}
	word := ""
	for _, w := range intrinsicWords {
		if strings.HasPrefix(is.Op, w.prefix) {
			word = w.word
			break
		}
	}
	lo, hi := min(prev, next), max(prev, next)
	if lo == 0 {
		lo = hi
	}
	if word != "" && lo > 0 {
		for l := lo; l <= hi && l <= len(src); l++ {
			if strings.Contains(src[l-1], word) {
				return l
			}
		}
	}
	return prev
}

// elemBits writes a little-endian element's bits as one hexadecimal number.
func elemBits(b []byte) string {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return fmt.Sprintf("0x%0*x", 2*len(b), v)
}
