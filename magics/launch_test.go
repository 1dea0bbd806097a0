package magics

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestParseLaunch(t *testing.T) {
	cases := []struct {
		in   string
		want *Launch
	}{
		{"vector_add(a=rand(1000), b=arange(1000), c=zeros(1000), n=1000, alpha=2.5f)", &Launch{Kernel: "vector_add", Args: []Arg{
			{Name: "a", Init: &Init{Func: "rand", N: 1000}},
			{Name: "b", Init: &Init{Func: "arange", N: 1000}},
			{Name: "c", Init: &Init{Func: "zeros", N: 1000}},
			{Name: "n", Scalar: "1000"},
			{Name: "alpha", Scalar: "2.5f"},
		}}},
		{"k(x=rand(8, -1, 1), y=rand(8, 0, 10, 42):f64, z=ones(3):u8)", &Launch{Kernel: "k", Args: []Arg{
			{Name: "x", Init: &Init{Func: "rand", N: 8, Lo: -1, Hi: 1, HasRange: true}},
			{Name: "y", Init: &Init{Func: "rand", N: 8, Lo: 0, Hi: 10, HasRange: true, Seed: 42, HasSeed: true, Type: "f64"}},
			{Name: "z", Init: &Init{Func: "ones", N: 3, Type: "u8"}},
		}}},
		{`k(a=fill(16, -0.5), b=file("data/in.bin"):f32, c=file("x \"q\".bin"))`, &Launch{Kernel: "k", Args: []Arg{
			{Name: "a", Init: &Init{Func: "fill", N: 16, Fill: "-0.5"}},
			{Name: "b", Init: &Init{Func: "file", Path: "data/in.bin", Type: "f32"}},
			{Name: "c", Init: &Init{Func: "file", Path: `x "q".bin`}},
		}}},
		{"k(rand(4), 4, -3, 0x10, 1e3, .5)", &Launch{Kernel: "k", Args: []Arg{
			{Init: &Init{Func: "rand", N: 4}}, {Scalar: "4"}, {Scalar: "-3"}, {Scalar: "0x10"}, {Scalar: "1e3"}, {Scalar: ".5"},
		}}},
		{"  k ( a = zeros( 1e3 ) , n = 7u )  ", &Launch{Kernel: "k", Args: []Arg{
			{Name: "a", Init: &Init{Func: "zeros", N: 1000}}, {Name: "n", Scalar: "7u"},
		}}},
		{"k()", &Launch{Kernel: "k"}},
		{"k", &Launch{Kernel: "k"}},
		{"k(a=zeros(4):bf16, b=zeros(4):f16, c=zeros(4):i64)", &Launch{Kernel: "k", Args: []Arg{
			{Name: "a", Init: &Init{Func: "zeros", N: 4, Type: "bf16"}},
			{Name: "b", Init: &Init{Func: "zeros", N: 4, Type: "f16"}},
			{Name: "c", Init: &Init{Func: "zeros", N: 4, Type: "i64"}},
		}}},
	}
	for _, c := range cases {
		got, err := ParseLaunch(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.in, fmtLaunch(got), fmtLaunch(c.want))
		}
	}
}

func fmtLaunch(l *Launch) string {
	var b strings.Builder
	b.WriteString(l.Kernel + "(")
	for _, a := range l.Args {
		if a.Init != nil {
			fmt.Fprintf(&b, "%s=%+v ", a.Name, *a.Init)
		} else {
			fmt.Fprintf(&b, "%s=%s ", a.Name, a.Scalar)
		}
	}
	return b.String() + ")"
}

func TestParseLaunchErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "expected a kernel name"},
		{"(a=1)", "expected a kernel name"},
		{"k a", "expected ( after the kernel name k"},
		{"k(a=zeros(10)", "expected , or )"},
		{"k(a=zeros(10)) extra", `unexpected "extra" after the closing )`},
		{"k(a=1, a=2)", "argument a is given twice"},
		{"k(a=1, 2)", "name every argument"},
		{"k(a=oops)", `a: expected a buffer initialiser (zeros, ones, arange, rand, fill, file, empty) or a number`},
		{"k(a=zeros())", "zeros: expected zeros(n), found 0 parameters"},
		{"k(a=zeros(0))", "n must be a whole number from 1 to"},
		{"k(a=zeros(2.5))", "n must be a whole number"},
		{"k(a=zeros(1e12))", "n must be a whole number"},
		{"k(a=zeros(x))", "n must be a whole number"},
		{"k(a=rand(4, 1))", "expected rand(n[, lo, hi[, seed]]), found 2 parameters"},
		{"k(a=rand(4, 2, 1))", "lo <= hi"},
		{"k(a=rand(4, 0, 1, s))", "seed must be an integer"},
		{"k(a=fill(4))", "expected fill(n, v)"},
		{"k(a=fill(4, x))", "v must be a number"},
		{"k(a=file(data.bin))", "quoted path"},
		{`k(a=file("data.bin)`, "unterminated string"},
		{`k(a=file("a", "b"))`, "file() takes one path"},
		{`k(a=file(""))`, "bad path"},
		{"k(a=zeros(4):f128)", `unknown element type "f128"; valid choices: i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64`},
		{"k(a=ones(4):)", "unknown element type"},
		{"k(a=randn(4))", "unknown initialiser randn(); valid choices: zeros, ones, arange, rand, fill, file"},
		{"k(a=zeros(4)(", "expected , or )"},
		{"k(,)", "expected a buffer initialiser"},
	}
	for _, c := range cases {
		_, err := ParseLaunch(c.in)
		var me *Error
		if !errors.As(err, &me) || me.Magic != "%launch" {
			t.Errorf("%q: want a %%launch *Error, got %v", c.in, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %q lacks %q", c.in, err.Error(), c.want)
		}
	}
}
