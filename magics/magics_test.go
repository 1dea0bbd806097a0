package magics

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

const kernel = "__global__ void k(float *a) { a[threadIdx.x] = 1; }"

// TestMagicsApplyToTheirCell runs each magic in a code cell and checks the field it sets.
func TestMagicsApplyToTheirCell(t *testing.T) {
	cases := []struct {
		magic string
		check func(*Spec) bool
	}{
		{"%arch sm_90", func(s *Spec) bool { return s.Arch == "sm_90" }},
		{"%arch sm_75", func(s *Spec) bool { return s.Arch == "sm_75" }},
		{"%grid 4", func(s *Spec) bool { return s.Grid == [3]int{4, 1, 1} }},
		{"%grid 4,2", func(s *Spec) bool { return s.Grid == [3]int{4, 2, 1} }},
		{"%grid 4x2", func(s *Spec) bool { return s.Grid == [3]int{4, 2, 1} }},
		{"%grid 4, 2, 3", func(s *Spec) bool { return s.Grid == [3]int{4, 2, 3} }},
		{"%grid auto", func(s *Spec) bool { return s.Grid == [3]int{} }},
		{"%block 256", func(s *Spec) bool { return s.Block == [3]int{256, 1, 1} }},
		{"%block 32,8", func(s *Spec) bool { return s.Block == [3]int{32, 8, 1} }},
		{"%block 8x8x16", func(s *Spec) bool { return s.Block == [3]int{8, 8, 16} }},
		{"%compiler clang", func(s *Spec) bool { return s.Compiler == "clang" }},
		{"%compiler nvcc", func(s *Spec) bool { return s.Compiler == "nvcc" }},
		{"%compiler auto", func(s *Spec) bool { return s.Compiler == "auto" }},
		{"%flags -O3 -use_fast_math", func(s *Spec) bool { return reflect.DeepEqual(s.Flags, []string{"-O3", "-use_fast_math"}) }},
		{"%flags", func(s *Spec) bool { return len(s.Flags) == 0 }},
		{"%trace block=2 warps=0-3 steps=100", func(s *Spec) bool { return s.Trace == Trace{Block: 2, WarpLo: 0, WarpHi: 3, Steps: 100} }},
		{"%trace warps=5", func(s *Spec) bool { return s.Trace == Trace{Block: 0, WarpLo: 5, WarpHi: 5, Steps: 5000} }},
		{"%show ptx,memory", func(s *Spec) bool { return s.Show["ptx"] && s.Show["memory"] }},
		{"%hide sass,timeline", func(s *Spec) bool { return !s.Show["sass"] && !s.Show["timeline"] && s.Show["ptx"] }},
		{"%hide all", func(s *Spec) bool {
			for _, v := range s.Show {
				if v {
					return false
				}
			}
			return len(s.Show) == len(Sections())
		}},
		{"%budget 2e9", func(s *Spec) bool { return s.Budget == 2_000_000_000 }},
		{"%budget 500000", func(s *Spec) bool { return s.Budget == 500000 }},
		{"%timing off", func(s *Spec) bool { return !s.Timing }},
		{"%timing on", func(s *Spec) bool { return s.Timing }},
		{"%sample vector_add", func(s *Spec) bool { return s.Sample == "vector_add" }},
		{"%samples", func(s *Spec) bool { return s.ListSamples }},
		{"%help", func(s *Spec) bool { return s.Help }},
		{"%lsmagic", func(s *Spec) bool { return s.LsMagic }},
		{"%compare", func(s *Spec) bool { return s.Compared && len(s.Compare) == 0 }},
		{"%compare before after", func(s *Spec) bool { return s.Compared && reflect.DeepEqual(s.Compare, []string{"before", "after"}) }},
		{"%compare a b c", func(s *Spec) bool {
			return s.Compared && reflect.DeepEqual(s.Compare, []string{"a", "b", "c"}) && !s.CompareMarkdown
		}},
		{"%compare --markdown a b", func(s *Spec) bool { return s.CompareMarkdown && reflect.DeepEqual(s.Compare, []string{"a", "b"}) }},
		{"%name v2.padded", func(s *Spec) bool { return s.Name == "v2.padded" }},
		{"%launch k(a=zeros(10))", func(s *Spec) bool { return s.Launch != nil && s.Launch.Kernel == "k" && s.Launch.Args[0].Init.N == 10 }},
		{"  %arch sm_86", func(s *Spec) bool { return s.Arch == "sm_86" }},
	}
	for _, c := range cases {
		st := NewState()
		spec, err := st.Parse(c.magic + "\n" + kernel)
		if err != nil {
			t.Errorf("%q: %v", c.magic, err)
			continue
		}
		if spec.Kind != CUDA {
			t.Errorf("%q: kind %v", c.magic, spec.Kind)
		}
		if !c.check(spec) {
			t.Errorf("%q: spec %+v", c.magic, spec)
		}
		if spec.Source != "\n"+kernel {
			t.Errorf("%q: source %q", c.magic, spec.Source)
		}
		// A code cell's magics do not change the defaults.
		again, err := st.Parse(kernel)
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := NewState().Parse(kernel)
		if !reflect.DeepEqual(again, fresh) {
			t.Errorf("%q in a code cell changed the defaults: %+v", c.magic, again)
		}
	}
}

func TestDefaults(t *testing.T) {
	s, err := NewState().Parse(kernel)
	if err != nil {
		t.Fatal(err)
	}
	if s.Arch != "sm_80" || s.Compiler != "auto" || s.Budget != DefaultBudget || !s.Timing || s.Grid != [3]int{} ||
		s.Block != [3]int{} || s.Launch != nil || s.Trace != (Trace{Block: 0, WarpLo: 0, WarpHi: 1, Steps: 5000}) || len(s.Show) != 9 {
		t.Errorf("defaults %+v", s)
	}
	for _, sec := range Sections() {
		if !s.Show[sec] {
			t.Errorf("section %s hidden by default", sec)
		}
	}
}

func TestConfigCellSetsDefaults(t *testing.T) {
	st := NewState()
	spec, err := st.Parse("%arch sm_90\n%block 128\n\n%hide sass\n%timing off\n%launch k(a=ones(4))\n%sample vector_add\n%name x\n")
	if err != nil {
		t.Fatal(err)
	}
	if spec.Kind != Config || spec.Sample != "vector_add" || spec.Name != "x" {
		t.Fatalf("spec %+v", spec)
	}
	next, err := st.Parse(kernel)
	if err != nil {
		t.Fatal(err)
	}
	if next.Arch != "sm_90" || next.Block != [3]int{128, 1, 1} || next.Show["sass"] || next.Timing || next.Launch == nil {
		t.Errorf("defaults not kept: %+v", next)
	}
	if next.Sample != "" || next.Name != "" {
		t.Errorf("one-shot magics persisted: %+v", next)
	}
	// a code cell overrides for itself only
	over, _ := st.Parse("%arch sm_75\n" + kernel)
	after, _ := st.Parse(kernel)
	if over.Arch != "sm_75" || after.Arch != "sm_90" {
		t.Errorf("override %s then %s", over.Arch, after.Arch)
	}
	// the spec's maps and slices are not shared with the state
	after.Show["ptx"] = false
	after.Launch.Args[0].Name = "changed"
	after.Launch.Args[0].Init.N = 99
	again, _ := st.Parse(kernel)
	if !again.Show["ptx"] || again.Launch.Args[0].Name != "a" || again.Launch.Args[0].Init.N != 4 {
		t.Errorf("state aliased by a returned spec")
	}
}

func TestFailedConfigCellChangesNothing(t *testing.T) {
	st := NewState()
	if _, err := st.Parse("%arch sm_90\n%grid abc\n"); err == nil {
		t.Fatal("no error")
	}
	s, _ := st.Parse(kernel)
	if s.Arch != "sm_80" {
		t.Errorf("arch %s after a failed cell", s.Arch)
	}
}

func TestPTXCell(t *testing.T) {
	cell := "\n%%ptx\n%arch sm_90\n.version 8.0\n.target sm_90\n"
	s, err := NewState().Parse(cell)
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != PTX || s.Arch != "sm_90" || s.Source != "\n\n\n.version 8.0\n.target sm_90\n" {
		t.Errorf("spec %+v source %q", s, s.Source)
	}
	s, err = NewState().Parse("%%ptx\n")
	if err != nil || s.Kind != PTX {
		t.Errorf("empty ptx cell: %v %v", s, err)
	}
	// PTX registers in instructions are not magics (lines start with an opcode).
	s, err = NewState().Parse("%%ptx\n\tadd.s32 %r1, %r2, %r3;\n")
	if err != nil || !strings.Contains(s.Source, "%r1") {
		t.Errorf("ptx body: %v %q", err, s.Source)
	}
}

func TestSourceKeepsLineNumbers(t *testing.T) {
	cell := "// one\r\n%arch sm_90\r\n__global__ void k() {}\r\n%block 64\r\nint x;"
	s, err := NewState().Parse(cell)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(s.Source, "\n")
	want := []string{"// one", "", "__global__ void k() {}", "", "int x;"}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("lines %q", lines)
	}
}

// TestMagicErrors checks every error: its line, the magic it names and that it lists the valid choices.
func TestMagicErrors(t *testing.T) {
	cases := []struct {
		cell  string
		line  int
		magic string
		want  []string // substrings of the message
	}{
		{"%arch sm_61", 1, "%arch", append([]string{`"sm_61"`}, arch.Names()...)},
		{"%arch", 1, "%arch", []string{"sm_80", "sm_90"}},
		{"x\n%grid abc", 2, "%grid", []string{`expected 1-3 positive integers like 4, 4,2 or 4x2`, `found "abc"`}},
		{"%grid 0", 1, "%grid", []string{`found "0"`}},
		{"%grid 1,2,3,4", 1, "%grid", []string{"1-3 positive integers"}},
		{"%grid 4,", 1, "%grid", []string{"1-3 positive integers"}},
		{"%grid -4", 1, "%grid", []string{"1-3 positive integers"}},
		{"%grid 1,70000", 1, "%grid", []string{"exceeds CUDA's limits"}},
		{"%block 2048", 1, "%block", []string{"at most 1024 threads"}},
		{"%block 32,32,2", 1, "%block", []string{"at most 1024 threads"}},
		{"%block", 1, "%block", []string{"1-3 positive integers"}},
		{"%compiler gcc", 1, "%compiler", []string{"auto, clang, nvcc"}},
		{"%flags -o /tmp/x", 1, "%flags", []string{`"-o"`, "not allowed"}},
		{"%flags -fplugin=x.so", 1, "%flags", []string{"not allowed"}},
		{"%trace", 1, "%trace", []string{"block=N warps=A-B steps=N"}},
		{"%trace block=-1", 1, "%trace", []string{"block="}},
		{"%trace warps=3-1", 1, "%trace", []string{"warps="}},
		{"%trace warps=0-40", 1, "%trace", []string{"warps="}},
		{"%trace steps=0", 1, "%trace", []string{"steps="}},
		{"%trace blocks=1", 1, "%trace", []string{"valid keys: block, warps, steps"}},
		{"%trace block", 1, "%trace", []string{"key=value"}},
		{"%show ptx,bogus", 1, "%show", []string{`"bogus"`, "source, ptx, sass, memory, occupancy, timeline, trace, hints, outputs"}},
		{"%hide", 1, "%hide", []string{"valid choices"}},
		{"%budget lots", 1, "%budget", []string{`found "lots"`}},
		{"%budget 0", 1, "%budget", []string{"positive"}},
		{"%budget 2.5", 1, "%budget", []string{"whole number"}},
		{"%budget 1e30", 1, "%budget", []string{"1e15"}},
		{"%timing maybe", 1, "%timing", []string{"on or off"}},
		{"%sample nope", 1, "%sample", []string{`"nope"`, "vector_add", "matmul_tiled"}},
		{"%sample", 1, "%sample", []string{"vector_add"}},
		{"%samples all", 1, "%samples", []string{"no arguments"}},
		{"%help me", 1, "%help", []string{"no arguments"}},
		{"%lsmagic x", 1, "%lsmagic", []string{"no arguments"}},
		{"%compare a", 1, "%compare", []string{"two or more report names"}},
		{"%compare a b --csv", 1, "%compare", []string{"--markdown"}},
		{"%compare a b/c", 1, "%compare", []string{"not a report name"}},
		{"%name", 1, "%name", []string{"report name"}},
		{"%name two words", 1, "%name", []string{"report name"}},
		{"%frobnicate 3", 1, "%frobnicate", append([]string{"unknown magic"}, Names()...)},
		{"%blocks 64", 1, "%blocks", []string{"unknown magic; did you mean %block?"}},
		{"%hid memory", 1, "%hid", []string{"did you mean %hide?"}},
		{"%%cuda", 1, "%%cuda", []string{"%%ptx"}},
		{"x\n%%ptx", 2, "%%ptx", []string{"first line"}},
		{"%%ptx now", 1, "%%ptx", []string{"no arguments"}},
		{"%launch", 1, "%launch", []string{"kernel name"}},
		{"\n\n%launch k(a=bogus(3))", 3, "%launch", []string{"bogus", "zeros, ones, arange, rand, fill, file"}},
	}
	for _, c := range cases {
		_, err := NewState().Parse(c.cell)
		var me *Error
		if !errors.As(err, &me) {
			t.Errorf("%q: want *Error, got %v", c.cell, err)
			continue
		}
		if me.Line != c.line || me.Magic != c.magic {
			t.Errorf("%q: line %d magic %q, want %d %q (%v)", c.cell, me.Line, me.Magic, c.line, c.magic, err)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "cell line ") {
			t.Errorf("%q: message %q", c.cell, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q: message %q lacks %q", c.cell, msg, w)
			}
		}
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{Line: 3, Magic: "%grid", Msg: `expected 1-3 positive integers like 4, 4,2 or 4x2, found "abc"`}
	if e.Error() != `cell line 3: %grid: expected 1-3 positive integers like 4, 4,2 or 4x2, found "abc"` {
		t.Errorf("%s", e)
	}
	if (&Error{Magic: "%launch", Msg: "m"}).Error() != "%launch: m" {
		t.Error("no-line format")
	}
}

func TestHelp(t *testing.T) {
	text, h := HelpText(), HelpHTML()
	for _, n := range Names() {
		if !strings.Contains(text, n) || !strings.Contains(h, n) {
			t.Errorf("help lacks %s", n)
		}
	}
	for _, a := range arch.Names() {
		if !strings.Contains(text, a) {
			t.Errorf("help lacks architecture %s", a)
		}
	}
	if strings.Contains(h, "<script") || !strings.HasPrefix(h, "<div") {
		t.Errorf("html %q", h[:40])
	}
	// Every magic the parser accepts is in Names(), and every name parses (or is a known one-shot).
	for _, n := range Names() {
		if n == "%%ptx" {
			continue
		}
		_, err := NewState().Parse(n + " zzz")
		var me *Error
		if errors.As(err, &me) && strings.Contains(me.Msg, "unknown magic") {
			t.Errorf("%s listed but unknown to the parser", n)
		}
	}
}

func TestProgramMagic(t *testing.T) {
	s := NewState()
	spec, err := s.Parse("%program\n__global__ void k() {}\nextern \"C\" int main() { return 0; }\n")
	if err != nil || !spec.Program || spec.Kind != CUDA || strings.Contains(spec.Source, "%program") {
		t.Fatalf("spec %+v, err %v", spec, err)
	}
	if spec, err := s.Parse("__global__ void k() {}\n"); err != nil || spec.Program {
		t.Errorf("%%program persisted: %+v %v", spec, err)
	}
	for cell, want := range map[string]string{
		"%program\n":                             "cell line 1: %program: applies to the cell it is in",
		"%program now\nint main() {}\n":          "cell line 1: %program: takes no arguments",
		"%launch k()\n%program\nint main() {}\n": "cell line 2: %program: a program's launches come from its main(): drop %launch",
		"%%ptx\n%program\n.version 8.0\n":        "cell line 2: %program: a %%ptx or %%cuda_define cell cannot be a program",
	} {
		if _, err := NewState().Parse(cell); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", cell, err, want)
		}
	}
}

func TestParseTiming(t *testing.T) {
	for _, c := range []struct {
		in   string
		want TimingMode
		err  string
	}{
		{"on", TimingMode{On: true, Caches: true}, ""},
		{"off", TimingMode{}, ""},
		{"all", TimingMode{On: true, All: true, Caches: true}, ""},
		{"on caches", TimingMode{On: true, Caches: true}, ""},
		{"on nocaches", TimingMode{On: true}, ""},
		{"all,nocaches,sass", TimingMode{On: true, All: true}, ""},
		{"on caches nocaches", TimingMode{}, "exclude each other"},
		{"off nocaches", TimingMode{}, "off takes no options"},
		{"all,caches,sass", TimingMode{On: true, All: true, Caches: true}, ""},
		{"on sass", TimingMode{On: true, Caches: true}, ""},
		{"on ptx", TimingMode{On: true, Caches: true, PTX: true}, ""},
		{"on,nocaches,ptx", TimingMode{On: true, PTX: true}, ""},
		{"on sass ptx", TimingMode{}, "exclude each other"},
		{"off ptx", TimingMode{}, "off takes no options"},
		{"on interleaved", TimingMode{On: true, Caches: true, Path: "interleaved"}, ""},
		{"all,caches,replay", TimingMode{On: true, All: true, Caches: true, Path: "replay"}, ""},
		{"on interleaved replay", TimingMode{}, "exclude each other"},
		{"off replay", TimingMode{}, "off takes no options"},
		{"off caches", TimingMode{}, "off takes no options"},
		{"on cache", TimingMode{}, `unknown option "cache"`},
		{"maybe", TimingMode{}, "on or off"},
		{"", TimingMode{}, "found nothing"},
	} {
		got, err := ParseTiming(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseTiming(%q): error %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseTiming(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	st := NewState()
	spec, err := st.Parse("%timing on caches\n%launch k(a=ones(4))\n")
	if err != nil || !spec.Timing || !spec.TimingCaches || spec.TimingPTX {
		t.Errorf("%%timing on caches: spec %+v, %v", spec, err)
	}
	// the time-aware caches are the default, with or without a %timing line
	if spec, err = NewState().Parse("%launch k(a=ones(4))\n"); err != nil || !spec.Timing || !spec.TimingCaches {
		t.Errorf("no %%timing: spec %+v, %v; want timing with time-aware caches", spec, err)
	}
	if spec, err = NewState().Parse("%timing on nocaches\n%launch k(a=ones(4))\n"); err != nil || !spec.Timing || spec.TimingCaches {
		t.Errorf("%%timing on nocaches: spec %+v, %v; want timing without time-aware caches", spec, err)
	}
	spec, err = NewState().Parse("%timing on interleaved\n%launch k(a=ones(4))\n")
	if err != nil || !spec.Timing || spec.TimingPath != "interleaved" {
		t.Errorf("%%timing on interleaved: spec %+v, %v", spec, err)
	}
}
