package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Manifest is testdata/realcode/manifest.json: the kernels and where they come from.
type Manifest struct {
	Repos   map[string]string `json:"repos"`
	Notes   []string          `json:"notes,omitempty"` // printed in docs/real-code.md
	Kernels []Kernel          `json:"kernels"`
}

// Kernel is one device kernel of a public repository and one launch of it.
type Kernel struct {
	ID        string   `json:"id"`
	Repo      string   `json:"repo"`
	Path      string   `json:"path"`
	Lines     [][2]int `json:"lines"`
	Preamble  string   `json:"preamble,omitempty"`
	Name      string   `json:"kernel"`
	Grid      [3]int   `json:"grid"`
	Block     [3]int   `json:"block"`
	Shmem     int      `json:"shmem,omitempty"`
	ArgSpecs  []string `json:"args"`
	SymSpecs  []string `json:"symbols,omitempty"`
	Exercises string   `json:"exercises"`
	Features  []string `json:"features"`

	Args    []Arg `json:"-"`
	Symbols []Arg `json:"-"`
}

// Arg is a buffer (Count > 0, Init set) or a scalar (Value set).
type Arg struct {
	Name   string
	Type   string // element type: f32 f64 f16 i32 u32 i64 u64 u8 f32x4
	Buffer bool
	Count  int     // elements of Type
	Init   string  // rand randint arange zeros ones fill
	Lo, Hi float64 // rand/randint bounds; fill value in Lo
	Value  string  // scalar literal
}

var (
	bufRE    = regexp.MustCompile(`^([A-Za-z_]\w*):(f16|f32|f64|i8|u8|i32|u32|i64|u64|f32x4)\[(\d+)\]=(rand|randint|arange|zeros|ones|fill)(?:\(([^)]*)\))?$`)
	scalarRE = regexp.MustCompile(`^([A-Za-z_]\w*):(f32|f64|i32|u32|i64|u64)=(\S+)$`)
)

// ParseArg reads 'name:type[count]=init(...)' or 'name:type=value'.
func ParseArg(s string) (Arg, error) {
	s = strings.TrimSpace(s)
	if m := bufRE.FindStringSubmatch(s); m != nil {
		n, err := strconv.Atoi(m[3])
		if err != nil || n <= 0 {
			return Arg{}, fmt.Errorf("argument %q: bad count", s)
		}
		a := Arg{Name: m[1], Type: m[2], Buffer: true, Count: n, Init: m[4]}
		var params []float64
		if m[5] != "" {
			for _, p := range strings.Split(m[5], ",") {
				v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
				if err != nil {
					return Arg{}, fmt.Errorf("argument %q: bad number %q", s, p)
				}
				params = append(params, v)
			}
		}
		want := map[string]int{"rand": 2, "randint": 2, "fill": 1}[a.Init]
		if len(params) != want {
			return Arg{}, fmt.Errorf("argument %q: %s takes %d numbers, found %d", s, a.Init, want, len(params))
		}
		if want >= 1 {
			a.Lo = params[0]
		}
		if want == 2 {
			a.Hi = params[1]
			if a.Hi < a.Lo {
				return Arg{}, fmt.Errorf("argument %q: upper bound below lower bound", s)
			}
		}
		return a, nil
	}
	if m := scalarRE.FindStringSubmatch(s); m != nil {
		if _, err := strconv.ParseFloat(m[3], 64); err != nil {
			return Arg{}, fmt.Errorf("argument %q: scalar %q is not a number", s, m[3])
		}
		return Arg{Name: m[1], Type: m[2], Value: m[3]}, nil
	}
	return Arg{}, fmt.Errorf("argument %q: expected name:type[count]=init or name:type=value", s)
}

// ElemSize is the byte size of one element of t.
func ElemSize(t string) int {
	switch t {
	case "i8", "u8":
		return 1
	case "f16":
		return 2
	case "f32", "i32", "u32":
		return 4
	case "f64", "i64", "u64":
		return 8
	case "f32x4":
		return 16
	}
	return 0
}

// Bytes is the size of a buffer argument.
func (a Arg) Bytes() int { return a.Count * ElemSize(a.Type) }

// LoadManifest reads and checks the manifest.
func LoadManifest(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for i := range m.Kernels {
		k := &m.Kernels[i]
		if k.ID == "" || seen[k.ID] {
			return nil, fmt.Errorf("%s: kernel %d: missing or repeated id %q", path, i, k.ID)
		}
		seen[k.ID] = true
		if _, ok := m.Repos[k.Repo]; !ok {
			return nil, fmt.Errorf("%s: %s: repository %s has no commit in repos", path, k.ID, k.Repo)
		}
		if len(k.Lines) == 0 {
			return nil, fmt.Errorf("%s: %s: no lines to extract", path, k.ID)
		}
		for _, r := range k.Lines {
			if r[0] < 1 || r[1] < r[0] {
				return nil, fmt.Errorf("%s: %s: bad line range %v", path, k.ID, r)
			}
		}
		for _, s := range k.ArgSpecs {
			a, err := ParseArg(s)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", path, k.ID, err)
			}
			k.Args = append(k.Args, a)
		}
		for _, s := range k.SymSpecs {
			a, err := ParseArg(s)
			if err != nil || !a.Buffer {
				return nil, fmt.Errorf("%s: %s: symbol %q: want name:type[count]=init (%v)", path, k.ID, s, err)
			}
			k.Symbols = append(k.Symbols, a)
		}
		for d := 0; d < 3; d++ {
			if k.Grid[d] <= 0 || k.Block[d] <= 0 {
				return nil, fmt.Errorf("%s: %s: grid and block need three positive numbers", path, k.ID)
			}
		}
	}
	return &m, nil
}

// Commit is the commit the kernel is extracted from.
func (m *Manifest) Commit(k *Kernel) string { return m.Repos[k.Repo] }
