// Package magics implements KernelScope's cell language: the % magics of a
// notebook cell (docs/design.md, "The cell language"), the help text, and the words
// offered by completion and inspection.
//
// A cell is CUDA unless its first line is %%ptx. A line whose first non-blank
// characters are % and a letter is a magic. A cell of magics only changes the
// kernel's defaults for later cells; magics in a code cell apply to that cell.
package magics

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
	"github.com/kernelscope/kernelscope/samples"
)

// Kind is what a cell holds.
type Kind int

// The kinds of cell.
const (
	CUDA   Kind = iota // CUDA C++ source
	PTX                // PTX source (a %%ptx cell)
	Config             // magics only: changes the defaults
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case CUDA:
		return "cuda"
	case PTX:
		return "ptx"
	case Config:
		return "config"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Launch chooses the kernel and its arguments (%launch); it is the analysis pipeline's type.
type Launch = launch.Launch

// Arg is one %launch argument: a buffer initialiser or a scalar literal.
type Arg = launch.Arg

// Init is a buffer initialiser such as rand(1000, 0, 1, 7):f32.
type Init = launch.Init

// Symbol sets a __constant__ or __device__ variable before the launch (%symbol).
type Symbol = launch.Symbol

// Trace selects what the stepping widget records (%trace).
type Trace = launch.Trace

// Sections lists the output sections %show and %hide name, in display order.
func Sections() []string {
	return []string{"source", "ptx", "sass", "memory", "occupancy", "timeline", "trace", "hints", "outputs"}
}

// Spec is what one cell asks for: its code and every setting in force for it.
type Spec struct {
	Kind     Kind
	Source   string // the code with every magic line replaced by an empty line
	Arch     string
	Grid     [3]int // zero = automatic
	Block    [3]int // zero = automatic
	Launch   *Launch
	Compiler string
	Flags    []string
	Trace    Trace
	Show     map[string]bool // section -> shown
	Budget   int64
	Timing   bool
	// TimingAll: %timing all, the timing model models every block (no sampling).
	TimingAll bool
	// TimingCaches: the time-aware caches and atomic units (on with the timing model
	// unless %timing ... nocaches).
	TimingCaches bool
	// TimingPTX: %timing ... ptx, the timing model issues one slot per PTX instruction
	// (the old stream) instead of the SASS stream (the default).
	TimingPTX bool
	// TimingPath: %timing ... interleaved / replay ("" automatic), how the model is fed.
	TimingPath string

	Sample      string // %sample NAME
	ListSamples bool   // %samples
	Help        bool   // %help
	LsMagic     bool   // %lsmagic
	Compare     []string
	Compared    bool // %compare was given (with no names or two or more)
	Name        string
	Checks      []string // correctness checks on (check.go): race, init, sync, order
	Expect      []string // %expect expressions of this cell
	Program     bool     // %program: the cell is a whole program (host code and main), even if main is not detected

	WriteFile   *WriteFile // %%writefile [-a] NAME (multifile.go)
	Define      string     // %%cuda_define NAME: the cell is a kept definition (multifile.go)
	ListDefines bool       // %defines
	Undefine    []string   // %undefine NAME...

	// Requested holds the sections a %show in force named: their charts are drawn
	// even where they say little (render.Options.Requested).
	Requested map[string]bool
	// CompareMarkdown is %compare --markdown: the comparison as a Markdown table.
	CompareMarkdown bool
}

// Error is a bad magic: its cell line (1-based; 0 when not from a cell), the
// column in that line where the parser stopped (0 when it has none), the magic and the cause.
type Error struct {
	Line  int
	Col   int
	Magic string
	Msg   string
}

// Error formats as `cell line 3: %grid: expected ...` or `cell line 3:17: %launch: ...`.
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Line > 0 && e.Col > 0:
		fmt.Fprintf(&b, "cell line %d:%d: ", e.Line, e.Col)
	case e.Line > 0:
		fmt.Fprintf(&b, "cell line %d: ", e.Line)
	case e.Col > 0:
		fmt.Fprintf(&b, "column %d: ", e.Col)
	}
	if e.Magic != "" {
		b.WriteString(e.Magic)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// DefaultBudget is the default number of thread-instructions a launch may simulate.
const DefaultBudget = 2_000_000_000

// MaxBudget is the largest %budget accepted.
const MaxBudget = 1_000_000_000_000_000

// defaults are the settings magic-only cells change.
type defaults struct {
	arch     string
	grid     [3]int
	block    [3]int
	launch   *Launch
	compiler string
	flags    []string
	trace    Trace
	show     map[string]bool
	asked    map[string]bool // sections a %show named (and no later %hide)
	budget   int64
	timing   bool
	checks   []string
	// timingAll: %timing all (no sampling of huge grids)
	timingAll bool
	// timingCaches, timingPTX: time-aware caches (default; %timing ... nocaches) / %timing ... ptx
	timingCaches, timingPTX bool
	timingPath              string // %timing ... interleaved / replay

	shared    int // %shared / <<<g, b, N>>>: dynamic shared memory, when sharedSet
	sharedSet bool
	symbols   []Symbol    // %symbol
	tmaps     []TensorMap // %tensormap (tensormap.go)
}

// State holds the kernel's defaults between cells. It is not safe for concurrent use.
type State struct {
	d       defaults
	sandbox bool // sandbox.go: %flags and %compiler refused, hard caps
}

// NewState returns the initial defaults: sm_80, automatic grid and block and
// arguments, compiler auto, every section shown, budget 2e9, timing on,
// time-aware caches, trace block 0, warps 0-1, 5000 steps.
func NewState() *State {
	show := map[string]bool{}
	for _, s := range Sections() {
		show[s] = true
	}
	return &State{d: defaults{
		arch: "sm_80", compiler: "auto", trace: Trace{Block: 0, WarpLo: 0, WarpHi: 1, Steps: 5000},
		show: show, budget: DefaultBudget, timing: true, timingCaches: true, checks: DefaultChecks(),
	}}
}

func (d defaults) clone() defaults {
	c := d
	c.flags = append([]string(nil), d.flags...)
	c.checks = append([]string{}, d.checks...)
	c.show = make(map[string]bool, len(d.show))
	for k, v := range d.show {
		c.show[k] = v
	}
	c.asked = make(map[string]bool, len(d.asked))
	for k, v := range d.asked {
		c.asked[k] = v
	}
	c.launch = d.launch.Clone()
	c.symbols = append([]Symbol(nil), d.symbols...)
	c.tmaps = append([]TensorMap(nil), d.tmaps...)
	return c
}

// withLaunchSettings is the %launch in force with the dynamic shared memory
// and the symbols of %shared and %symbol (a launch of the first kernel with
// automatic arguments when there was no %launch).
func (d defaults) withLaunchSettings() *Launch {
	if !d.sharedSet && len(d.symbols) == 0 && len(d.tmaps) == 0 {
		return d.launch
	}
	l := d.launch.Clone()
	if l == nil {
		l = &Launch{}
	}
	l.Shared, l.SharedSet = d.shared, d.sharedSet
	l.Symbols = append([]Symbol(nil), d.symbols...)
	l.TensorMaps = append([]TensorMap(nil), d.tmaps...)
	return l
}

// magicLine reports whether a line is a magic: % then a letter, after blanks.
func magicLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return len(t) >= 2 && t[0] == '%' && (isLetter(t[1]) || t[1] == '%')
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// splitLines splits a cell into lines without their line endings.
func splitLines(cell string) []string {
	cell = strings.ReplaceAll(cell, "\r\n", "\n")
	return strings.Split(cell, "\n")
}

// Parse reads one cell. Magic-only cells update the defaults (except the
// one-shot magics %sample, %samples, %help, %lsmagic, %compare and %name);
// magics in a code cell apply to that cell only. On error the defaults are unchanged.
func (s *State) Parse(cell string) (*Spec, error) {
	lines := splitLines(cell)
	d := s.d.clone()
	spec := &Spec{Kind: CUDA}
	out := make([]string, len(lines))
	hasCode := false
	first := true
	for i, line := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			out[i] = line
			continue
		}
		if strings.HasPrefix(trimmed, "%%") {
			name := strings.Fields(trimmed)[0]
			if name == "%%writefile" || name == "%%cuda_define" {
				if !first {
					return nil, &Error{Line: n, Magic: name, Msg: "must be the first line of the cell"}
				}
				if name == "%%writefile" {
					return s.parseWriteFile(n, trimmed, lines[i+1:])
				}
				if err := parseDefine(n, trimmed, spec); err != nil {
					return nil, err
				}
				first = false
				continue
			}
			if name != "%%ptx" {
				return nil, &Error{Line: n, Magic: name, Msg: "unknown cell magic; the cell magics are %%ptx, %%writefile, %%cuda_define"}
			}
			if !first {
				return nil, &Error{Line: n, Magic: "%%ptx", Msg: "must be the first line of the cell"}
			}
			if rest := strings.TrimSpace(strings.TrimPrefix(trimmed, "%%ptx")); rest != "" {
				return nil, &Error{Line: n, Magic: "%%ptx", Msg: fmt.Sprintf("takes no arguments, found %q", rest)}
			}
			spec.Kind = PTX
			first = false
			continue
		}
		first = false
		if !magicLine(line) {
			out[i] = line
			hasCode = true
			continue
		}
		if spec.Define != "" {
			return nil, &Error{Line: n, Magic: strings.Fields(trimmed)[0], Msg: "a %%cuda_define cell holds code only: put magics in a cell of their own"}
		}
		if err := s.sandboxRefuses(n, trimmed); err != nil {
			return nil, err
		}
		if err := applyMagic(n, trimmed, &d, spec); err != nil {
			return nil, err
		}
	}
	if err := s.checkLimits(lines, d); err != nil {
		return nil, err
	}
	spec.Source = strings.Join(out, "\n")
	if err := checkDefinitionCell(spec, lines, hasCode); err != nil {
		return nil, err
	}
	if !hasCode && spec.Kind != PTX {
		spec.Kind = Config
	}
	if spec.Program {
		if err := checkProgramCell(lines, spec, hasCode); err != nil {
			return nil, err
		}
	}
	if spec.Kind == Config {
		s.d = d.clone()
	}
	spec.Arch, spec.Grid, spec.Block, spec.Launch = d.arch, d.grid, d.block, d.withLaunchSettings()
	spec.Compiler, spec.Flags, spec.Trace, spec.Show = d.compiler, d.flags, d.trace, d.show
	spec.Requested = d.asked
	spec.Budget, spec.Timing = d.budget, d.timing
	spec.TimingAll, spec.TimingCaches, spec.TimingPTX = d.timingAll, d.timingCaches, d.timingPTX
	spec.TimingPath = d.timingPath
	spec.Checks = d.checks
	return spec, nil
}

// applyMagic applies one magic line to the settings d and the one-shot fields of spec.
func applyMagic(n int, line string, d *defaults, spec *Spec) error {
	name, arg := line, ""
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		name, arg = line[:i], strings.TrimSpace(line[i+1:])
	}
	fail := func(format string, a ...any) error {
		return &Error{Line: n, Magic: name, Msg: fmt.Sprintf(format, a...)}
	}
	noArg := func() error {
		if arg != "" {
			return fail("takes no arguments, found %q", arg)
		}
		return nil
	}
	switch name {
	case "%arch":
		names := arch.Names()
		for _, a := range names {
			if a == arg {
				d.arch = arg
				return nil
			}
		}
		return fail("unknown architecture %q; valid choices: %s", arg, strings.Join(names, ", "))
	case "%grid", "%block":
		dims, err := ParseDims(arg)
		if err != nil {
			return fail("%v", err)
		}
		if name == "%grid" {
			if err := checkGrid(dims); err != nil {
				return fail("%v", err)
			}
			d.grid = dims
		} else {
			if err := checkBlock(dims); err != nil {
				return fail("%v", err)
			}
			d.block = dims
		}
	case "%launch":
		l, err := ParseLaunch(arg)
		if err != nil {
			var me *Error
			if ok := asError(err, &me); ok {
				me.Line = n
				if me.Col > 0 {
					me.Col += strings.Index(line, arg) // from the argument's column to the line's
				}
				return me
			}
			return fail("%v", err)
		}
		if l.Grid != [3]int{} {
			d.grid = l.Grid
		}
		if l.Block != [3]int{} {
			d.block = l.Block
		}
		if l.SharedSet {
			d.shared, d.sharedSet = l.Shared, true
		}
		d.launch = l
	case "%shared":
		if arg == "auto" || arg == "none" {
			d.shared, d.sharedSet = 0, false
			return nil
		}
		n, err := ParseBytes(arg)
		if err != nil {
			return fail("%v", err)
		}
		d.shared, d.sharedSet = n, true
	case "%symbol":
		if arg == "clear" {
			d.symbols = nil
			return nil
		}
		sym, err := ParseSymbol(arg)
		if err != nil {
			var me *Error
			if asError(err, &me) {
				me.Line = n
				return me
			}
			return fail("%v", err)
		}
		kept := d.symbols[:0:0]
		for _, s := range d.symbols {
			if s.Name != sym.Name {
				kept = append(kept, s)
			}
		}
		d.symbols = append(kept, sym)
	case "%tensormap":
		if arg == "clear" {
			d.tmaps = nil
			return nil
		}
		m, err := ParseTensorMap(arg)
		if err != nil {
			var me *Error
			if asError(err, &me) {
				me.Line, me.Magic = n, "%tensormap"
				return me
			}
			return fail("%v", err)
		}
		d.tmaps = setTensorMap(d.tmaps, m)
	case "%compiler":
		switch arg {
		case "auto", "clang", "nvcc":
			d.compiler = arg
		default:
			return fail("unknown compiler %q; valid choices: auto, clang, nvcc", arg)
		}
	case "%flags":
		flags := strings.Fields(arg)
		if err := toolchain.CheckFlags(flags); err != nil {
			return fail("%v", err)
		}
		d.flags = flags
	case "%trace":
		t, err := parseTrace(arg, d.trace)
		if err != nil {
			return fail("%v", err)
		}
		d.trace = t
	case "%show", "%hide":
		secs, err := parseSections(arg)
		if err != nil {
			return fail("%v", err)
		}
		for _, s := range secs {
			d.show[s] = name == "%show"
			if d.asked == nil {
				d.asked = map[string]bool{}
			}
			if name == "%show" && !strings.EqualFold(strings.TrimSpace(arg), "all") {
				d.asked[s] = true
			} else {
				delete(d.asked, s)
			}
		}
	case "%budget":
		b, err := parseBudget(arg)
		if err != nil {
			return fail("%v", err)
		}
		d.budget = b
	case "%timing":
		m, err := ParseTiming(arg)
		if err != nil {
			return fail("%v", err)
		}
		d.timing, d.timingAll, d.timingCaches, d.timingPTX = m.On, m.All, m.Caches, m.PTX
		d.timingPath = m.Path
	case "%check":
		c, err := ParseCheck(arg)
		if err != nil {
			return fail("%v", err)
		}
		d.checks = c
	case "%expect":
		e, err := parseExpect(arg)
		if err != nil {
			return fail("%v", err)
		}
		spec.Expect = append(spec.Expect, e)
	case "%sample":
		if arg == "" {
			return fail("expected a sample name; valid choices: %s", strings.Join(sampleNames(), ", "))
		}
		if _, ok := samples.Get(arg); !ok {
			return fail("unknown sample %q; valid choices: %s", arg, strings.Join(sampleNames(), ", "))
		}
		spec.Sample = arg
	case "%samples":
		if err := noArg(); err != nil {
			return err
		}
		spec.ListSamples = true
	case "%help":
		if err := noArg(); err != nil {
			return err
		}
		spec.Help = true
	case "%lsmagic":
		if err := noArg(); err != nil {
			return err
		}
		spec.LsMagic = true
	case "%defines":
		if err := noArg(); err != nil {
			return err
		}
		spec.ListDefines = true
	case "%undefine":
		f := strings.Fields(arg)
		if len(f) == 0 {
			return fail("expected the names of kept definitions to drop (%%defines lists them)")
		}
		for _, x := range f {
			if !validName(x) {
				return fail("%q is not a definition name (letters, digits, _ . -)", x)
			}
		}
		spec.Undefine = append(spec.Undefine, f...)
	case "%compare":
		var f []string
		for _, x := range strings.Fields(arg) {
			if x == "--markdown" {
				spec.CompareMarkdown = true
				continue
			}
			if strings.HasPrefix(x, "-") {
				return fail("unknown option %q (the option is --markdown)", x)
			}
			if !validName(x) {
				return fail("%q is not a report name (letters, digits, _ . -)", x)
			}
			f = append(f, x)
		}
		if len(f) == 1 {
			return fail("expected no names (the last two reports) or two or more report names, found only %q", f[0])
		}
		spec.Compare, spec.Compared = f, true
	case "%program":
		if err := noArg(); err != nil {
			return err
		}
		spec.Program = true
	case "%name":
		if !validName(arg) {
			return fail("expected a report name of letters, digits, _ . or -, found %q", arg)
		}
		spec.Name = arg
	default:
		if near := nearestMagic(name); near != "" {
			return fail("unknown magic; did you mean %s? valid magics: %s", near, strings.Join(Names(), " "))
		}
		return fail("unknown magic; valid magics: %s", strings.Join(Names(), " "))
	}
	return nil
}

// nearestMagic is the known magic closest to name (at most two edits, or one
// the name starts with), or "" when none is that close.
func nearestMagic(name string) string {
	best, bestD := "", 3
	for _, n := range Names() {
		d := editDistance(strings.ToLower(name), n)
		if d < bestD || d == bestD && best == "" {
			best, bestD = n, d
		}
	}
	if bestD <= 2 && len(name) > 2 {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

func sampleNames() []string {
	var n []string
	for _, s := range samples.List() {
		n = append(n, s.Name)
	}
	return n
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// ParseDims reads 1 to 3 positive integers like "4", "4,2", "4x2" or "4, 2, 1";
// "auto" gives zeros (automatic).
func ParseDims(s string) ([3]int, error) {
	var dims [3]int
	if s == "auto" {
		return dims, nil
	}
	bad := fmt.Errorf("expected 1-3 positive integers like 4, 4,2 or 4x2 (or auto), found %q", s)
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == 'x' || r == 'X' })
	if len(parts) < 1 || len(parts) > 3 || strings.HasSuffix(s, ",") || strings.HasPrefix(s, ",") || strings.Contains(s, ",,") {
		return dims, bad
	}
	for i := range dims {
		dims[i] = 1
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v <= 0 {
			return dims, bad
		}
		dims[i] = v
	}
	return dims, nil
}

// checkGrid enforces CUDA's grid limits: x < 2^31, y and z <= 65535.
func checkGrid(g [3]int) error {
	if g == [3]int{} {
		return nil
	}
	if g[0] > 1<<31-1 || g[1] > 65535 || g[2] > 65535 {
		return fmt.Errorf("grid %dx%dx%d exceeds CUDA's limits (x < 2^31, y and z <= 65535)", g[0], g[1], g[2])
	}
	return nil
}

// checkBlock enforces CUDA's block limits: x, y <= 1024, z <= 64, at most 1024 threads.
func checkBlock(b [3]int) error {
	if b == [3]int{} {
		return nil
	}
	if b[0] > 1024 || b[1] > 1024 || b[2] > 64 || b[0]*b[1]*b[2] > 1024 {
		return fmt.Errorf("block %dx%dx%d exceeds CUDA's limits (x, y <= 1024, z <= 64, at most 1024 threads)", b[0], b[1], b[2])
	}
	return nil
}

// MaxTraceSteps is the largest steps= %trace accepts.
const MaxTraceSteps = 1_000_000

func parseTrace(arg string, t Trace) (Trace, error) {
	if strings.TrimSpace(arg) == "" {
		return t, fmt.Errorf("expected block=N warps=A-B steps=N (any of them), found nothing")
	}
	for _, f := range strings.Fields(arg) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return t, fmt.Errorf("expected key=value with keys block, warps, steps, found %q", f)
		}
		switch k {
		case "block":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return t, fmt.Errorf("block= expects a non-negative linear block index, found %q", v)
			}
			t.Block = n
		case "warps":
			lo, hi, isRange := strings.Cut(v, "-")
			a, err1 := strconv.Atoi(lo)
			b := a
			var err2 error
			if isRange {
				b, err2 = strconv.Atoi(hi)
			}
			if err1 != nil || err2 != nil || a < 0 || b < a || b > 31 {
				return t, fmt.Errorf("warps= expects a warp index or range like 0-3 within a block (0-31), found %q", v)
			}
			t.WarpLo, t.WarpHi = a, b
		case "steps":
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 || n > MaxTraceSteps {
				return t, fmt.Errorf("steps= expects a positive integer up to %d, found %q", MaxTraceSteps, v)
			}
			t.Steps = n
		default:
			return t, fmt.Errorf("unknown key %q; valid keys: block, warps, steps", k)
		}
	}
	return t, nil
}

func parseSections(arg string) ([]string, error) {
	valid := Sections()
	if strings.TrimSpace(arg) == "all" {
		return valid, nil
	}
	parts := strings.FieldsFunc(arg, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(parts) == 0 {
		return nil, fmt.Errorf("expected section names; valid choices: %s, all", strings.Join(valid, ", "))
	}
	for _, p := range parts {
		ok := false
		for _, v := range valid {
			if p == v {
				ok = true
			}
		}
		if !ok {
			return nil, fmt.Errorf("unknown section %q; valid choices: %s, all", p, strings.Join(valid, ", "))
		}
	}
	return parts, nil
}

func parseBudget(arg string) (int64, error) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(arg, "_", ""), 64)
	if err != nil || math.IsNaN(v) || v < 1 || v > MaxBudget || v != math.Trunc(v) {
		return 0, fmt.Errorf("expected a positive whole number of thread-instructions up to 1e15, like 2e9 or 500000, found %q", arg)
	}
	return int64(v), nil
}

// checkProgramCell refuses %program where it cannot apply: a cell of magics only,
// a %%ptx cell, a kept definition, or a cell that also asks for %launch or %sample.
func checkProgramCell(lines []string, spec *Spec, hasCode bool) error {
	n, other := 0, ""
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == "%program" && n == 0 {
			n = i + 1
		}
		if len(f) > 0 && (f[0] == "%launch" || f[0] == "%sample") && other == "" {
			other = f[0]
		}
	}
	fail := func(msg string) error { return &Error{Line: n, Magic: "%program", Msg: msg} }
	switch {
	case spec.Kind == PTX || spec.Define != "":
		return fail("a %%ptx or %%cuda_define cell cannot be a program")
	case !hasCode:
		return fail("applies to the cell it is in: put it in the program's cell, above its code")
	case other != "":
		return fail("a program's launches come from its main(): drop " + other + " from this cell")
	}
	return nil
}

// TimingMode is what %timing and --timing choose.
type TimingMode struct {
	On  bool // the timing model runs
	All bool // every block is modelled (no sampling of huge grids)
	// Caches: time-aware L1/L2 and same-address atomic serialisation (docs/caches.md);
	// on by default with the timing model, off with "nocaches".
	Caches bool
	// PTX: the model issues one slot per PTX instruction (the old stream); by default it
	// issues the SASS stream (gpu/ptxas: from the nvdisasm listing when nvcc built the
	// cell, the modelled lowering otherwise). "sass" names the default.
	PTX bool
	// Path is "interleaved" (execution-driven), "replay" (trace-driven) or ""
	// (automatic: interleaved for kernels with global atomics or ordered loads).
	Path string
}

// ParseTiming reads "on", "off" or "all", optionally followed (after spaces or
// commas) by "nocaches" (time-aware caches off; "caches", the default, names them),
// "sass" (the default issue stream) or "ptx", and "interleaved" or "replay".
func ParseTiming(arg string) (TimingMode, error) {
	words := strings.FieldsFunc(arg, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	var m TimingMode
	stream, caches := "", ""
	if len(words) == 0 {
		return m, fmt.Errorf("expected on or off (or all), found nothing")
	}
	switch words[0] {
	case "on":
		m.On = true
	case "all":
		m.On, m.All = true, true
	case "off":
	default:
		return m, fmt.Errorf("expected on or off (or all: time every block of a huge grid, no sampling; then optionally nocaches, ptx or sass, interleaved or replay), found %q", words[0])
	}
	for _, w := range words[1:] {
		switch w {
		case "caches", "nocaches":
			if caches != "" && caches != w {
				return m, fmt.Errorf("%s: caches and nocaches exclude each other (caches, the default, times L1/L2 accesses; nocaches turns that off)", words[0])
			}
			caches = w
		case "sass", "ptx":
			if stream != "" && stream != w {
				return m, fmt.Errorf("%s: sass and ptx exclude each other (sass, the default, issues each PTX instruction as its SASS; ptx one slot per PTX instruction)", words[0])
			}
			stream, m.PTX = w, w == "ptx"
		case "interleaved", "replay":
			if m.Path != "" && m.Path != w {
				return m, fmt.Errorf("%s: interleaved and replay exclude each other", words[0])
			}
			m.Path = w
		default:
			return m, fmt.Errorf("%s: unknown option %q (known: nocaches: no time-aware caches and atomic units (caches, the default: with them); sass: issue the SASS stream, the default; ptx: issue one slot per PTX instruction; interleaved: execution-driven, the simulator runs each instruction when the model issues it; replay: trace-driven)", words[0], w)
		}
	}
	if !m.On && (caches != "" || stream != "" || m.Path != "") {
		return m, fmt.Errorf("off takes no options")
	}
	m.Caches = m.On && caches != "nocaches"
	return m, nil
}
