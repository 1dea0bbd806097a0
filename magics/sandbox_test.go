package magics

import (
	"errors"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
)

func TestGridTooLargeForTheBudget(t *testing.T) {
	cases := []struct {
		cell  string
		line  int
		magic string
		want  string
	}{
		{"%grid 2147483647,65535,65535", 1, "%grid", "grid 2147483647x65535x65535 is too large: 9.223e+18 blocks"},
		{"%block 256\n%grid 2147483647,65535,65535", 2, "%grid", "2.361e+21 threads"},
		{"%grid 100000\n%block 1024\n%budget 1e6", 3, "%budget", "102400000 threads"},
		{"%grid 1,70000", 1, "%grid", "exceeds CUDA's limits"},
	}
	for _, c := range cases {
		_, err := NewState().Parse(c.cell)
		var me *Error
		if !errors.As(err, &me) || me.Line != c.line || me.Magic != c.magic || !strings.Contains(me.Msg, c.want) {
			t.Errorf("%q: %v, want line %d %s %q", c.cell, err, c.line, c.magic, c.want)
			continue
		}
		if strings.Contains(me.Msg, " -") {
			t.Errorf("%q: a negative number in %q", c.cell, me.Msg)
		}
	}
	// Within CUDA's limits and the budget: accepted, and the defaults stay consistent.
	s := NewState()
	if _, err := s.Parse("%grid 65535,65535\n%block 1"); err == nil {
		t.Errorf("4.3e9 threads accepted with the default budget 2e9")
	}
	if _, err := s.Parse("%grid 65535,65535\n%block 1\n%budget 1e10"); err != nil {
		t.Errorf("4.3e9 threads with budget 1e10: %v", err)
	}
	if _, err := s.Parse("%budget 1e6"); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("lowering the budget below the grid in force: %v", err)
	}
}

func TestSandboxMagics(t *testing.T) {
	for _, cell := range []string{"%flags -O3", "%compiler clang", "x\n%flags", "%budget 2e10", "%trace steps=200000"} {
		s := NewState()
		if _, err := s.Parse(cell); err != nil {
			t.Errorf("%q outside sandbox mode: %v", cell, err)
		}
		s = NewState()
		s.SetSandbox(true)
		_, err := s.Parse(cell)
		var me *Error
		if !errors.As(err, &me) || me.Line == 0 || !strings.Contains(me.Msg, "sandbox mode") {
			t.Errorf("%q in sandbox mode: %v", cell, err)
		}
	}
	s := NewState()
	s.SetSandbox(true)
	if _, err := s.Parse("%budget 1e10\n%trace steps=100000\n%grid 8\n%block 128"); err != nil {
		t.Errorf("within the sandbox caps: %v", err)
	}
}

func TestSandboxCapsAgree(t *testing.T) {
	if SandboxMaxBudget != analysis.SandboxMaxBudget || SandboxMaxTraceSteps != analysis.SandboxMaxTraceSteps {
		t.Errorf("magics caps %d %d, analysis caps %d %d", SandboxMaxBudget, SandboxMaxTraceSteps, analysis.SandboxMaxBudget, analysis.SandboxMaxTraceSteps)
	}
}

func TestLaunchErrorColumn(t *testing.T) {
	line := "%launch k(a=rand(10), b=bogus)"
	_, err := NewState().Parse("// x\n" + line)
	var me *Error
	if !errors.As(err, &me) || me.Line != 2 || me.Col != strings.Index(line, "bogus")+len("bogus")+1 {
		t.Fatalf("%v (col %d), want line 2 at the end of bogus (col %d)", err, me.Col, strings.Index(line, "bogus")+len("bogus")+1)
	}
	if !strings.HasPrefix(err.Error(), "cell line 2:") {
		t.Errorf("Error() = %q", err.Error())
	}
	_, err = ParseLaunch("  k(a=zeros(4) b)")
	if !errors.As(err, &me) || me.Col != 16 || !strings.HasPrefix(err.Error(), "column 16: %launch:") {
		t.Errorf("ParseLaunch: %v", err)
	}
}

// FuzzParseLaunch: the %launch parser never panics and either parses or returns
// an *Error whose column lies within the text (or just after it).
func FuzzParseLaunch(f *testing.F) {
	for _, s := range []string{"vector_add(a=rand(1000), b=arange(1000), c=zeros(1000), n=1000, alpha=2.5f)",
		`k(a=fill(16, -0.5), b=file("data/in.bin"):f32)`, "k<16>(a=zeros(4))", "k<<<4, 256, 1024>>>(a=zeros(4))",
		"k(rand(4, 0, 1, 7):f64, 4)", `k(file("x \"q\".bin"))`, "  k ( a = zeros( 1e3 ) , n = 7u )  ", "k(", "k(a=", `k(file("`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1024 {
			return
		}
		l, err := ParseLaunch(s)
		if err == nil {
			if l == nil || l.Kernel == "" {
				t.Fatalf("%q: no error and no kernel", s)
			}
			return
		}
		var me *Error
		if !errors.As(err, &me) {
			t.Fatalf("%q: error %T %v is not a *magics.Error", s, err, err)
		}
		if me.Col < 1 || me.Col > len(s)+1 {
			t.Fatalf("%q: column %d outside 1..%d (%v)", s, me.Col, len(s)+1, err)
		}
	})
}
