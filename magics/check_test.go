package magics

import (
	"reflect"
	"strings"
	"testing"
)

// TestCheckMagic: %check sets the checks for later cells (magic-only cell) or
// for one cell; %expect collects the cell's expectations; bad ones name the line.
func TestCheckMagic(t *testing.T) {
	s := NewState()
	spec, err := s.Parse("__global__ void k() {}")
	if err != nil || !reflect.DeepEqual(spec.Checks, []string{"race", "init", "sync"}) {
		t.Fatalf("default checks %v, %v", spec.Checks, err)
	}
	if spec, err = s.Parse("%check race,order\n__global__ void k() {}\n%expect out == 1\n%expect sum(out) == 4"); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(spec.Checks, []string{"race", "order"}) || !reflect.DeepEqual(spec.Expect, []string{"out == 1", "sum(out) == 4"}) {
		t.Errorf("cell checks %v expect %v", spec.Checks, spec.Expect)
	}
	if spec, _ = s.Parse("__global__ void k() {}"); len(spec.Checks) != 3 || len(spec.Expect) != 0 {
		t.Errorf("a code cell's %%check leaked into the next cell: %v %v", spec.Checks, spec.Expect)
	}
	if _, err = s.Parse("%check off"); err != nil {
		t.Fatal(err)
	}
	if spec, _ = s.Parse("__global__ void k() {}"); len(spec.Checks) != 0 {
		t.Errorf("%%check off in a magic-only cell: %v", spec.Checks)
	}
	if spec, _ = s.Parse("%check all\n__global__ void k() {}"); len(spec.Checks) != 4 {
		t.Errorf("%%check all: %v", spec.Checks)
	}
	for cell, want := range map[string]string{
		"%check races\n__global__ void k() {}": "cell line 1: %check: unknown check \"races\"",
		"%check\n__global__ void k() {}":       "cell line 1: %check: expected race,init,sync,order",
		"\n%expect\n__global__ void k() {}":    "cell line 2: %expect: expected an expression",
	} {
		if _, err := NewState().Parse(cell); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", cell, err, want)
		}
	}
}
