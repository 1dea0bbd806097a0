package arith

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// The ISA oracle: every variant of testdata/golden/isa is a small kernel that
// loads a[i], b[i], c[i], applies one instruction and stores d[i]. This test
// interprets each kernel for every row with a tiny straight-line evaluator
// whose lane-local steps are all Decode/Eval, and compares with the H200.

const goldenISA = "../../testdata/golden/isa"

type isaVariant struct {
	Name   string   `json:"name"`
	Slug   string   `json:"slug"`
	Dst    string   `json:"dst"`
	Srcs   []string `json:"srcs"`
	PTX    string   `json:"ptx"`
	N      int      `json:"n"`
	Inputs []string `json:"inputs"`
	Output string   `json:"output"`
	Status string   `json:"status"`
}

func loadISA(t *testing.T) []isaVariant {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(goldenISA, "index.json"))
	if err != nil {
		t.Skipf("ISA oracle not available: %v", err)
	}
	var vs []isaVariant
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatalf("index.json: %v", err)
	}
	return vs
}

// Fake global addresses of the four buffers: the buffer is the top nibble.
var bufBase = map[string]uint64{"pa": 0x1_0000_0000, "pb": 0x2_0000_0000, "pc": 0x3_0000_0000, "pd": 0x4_0000_0000}

// warpLevel reports whether the kernel uses an instruction whose result depends on other lanes.
func warpLevel(f *ptx.Func) string {
	for _, in := range f.Insts {
		switch in.Op {
		case "shfl", "vote", "match", "redux", "activemask":
			return in.Op
		}
	}
	return ""
}

// regWidth maps a register name to its declared width in bits.
func regWidth(f *ptx.Func, name string) uint {
	base := strings.TrimRight(name, "0123456789")
	for _, r := range f.Regs {
		if r.Name == base || r.Name == name {
			return width(r.Type)
		}
	}
	return 64
}

type lane struct {
	f      *ptx.Func
	regs   map[string]uint64
	cc     uint8
	inputs [3][]byte
	store  uint64
	stored bool
	ops    map[*ptx.Inst]*Op
}

func (l *lane) get(a *ptx.Operand) uint64 {
	v := l.regs[a.Name]
	if a.Not {
		v ^= 1
	}
	return v
}

func (l *lane) set(a *ptx.Operand, v uint64) {
	if a.Kind != ptx.OpReg {
		return
	}
	l.regs[a.Name] = v & mask(regWidth(l.f, a.Name))
}

// run interprets the kernel for global thread index i.
func (l *lane) run(i int) error {
	f := l.f
	for _, in := range f.Insts {
		if in.Guard != "" {
			g := l.regs[in.Guard]&1 == 1
			if g == in.GuardNeg {
				continue
			}
		}
		switch in.Op {
		case "ret", "exit":
			return nil
		case "bra":
			return fmt.Errorf("unexpected taken branch")
		case "cvta":
			l.set(&in.Args[0], l.get(&in.Args[1]))
			continue
		case "ld":
			if in.Mods[0] == "param" {
				name := in.Args[1].Name
				if name == "n" {
					l.set(&in.Args[0], 256)
				} else {
					l.set(&in.Args[0], bufBase[name])
				}
				continue
			}
			addr := l.regs[in.Args[1].Name] + uint64(in.Args[1].Imm)
			buf := int(addr>>32) - 1
			off := addr & 0xffffffff
			tn := in.Mods[len(in.Mods)-1]
			ty, _ := ptx.TypeByName(tn)
			sz := uint64(ty.Size())
			if buf < 0 || buf > 2 || off+sz > uint64(len(l.inputs[buf])) {
				return fmt.Errorf("load out of range: buffer %d offset %d", buf, off)
			}
			var v uint64
			for k := uint64(0); k < sz; k++ {
				v |= uint64(l.inputs[buf][off+k]) << (8 * k)
			}
			l.set(&in.Args[0], val(ty, v))
			continue
		case "st":
			ty, _ := ptx.TypeByName(in.Mods[len(in.Mods)-1])
			l.store = l.get(&in.Args[1]) & mask(width(ty))
			l.stored = true
			continue
		case "mov":
			if in.Args[1].Kind == ptx.OpSpecial {
				var v uint64
				switch in.Args[1].Name + "." + in.Args[1].Comp {
				case "%tid.x":
					v = uint64(i % 64)
				case "%ctaid.x":
					v = uint64(i / 64)
				case "%ntid.x":
					v = 64
				default:
					return fmt.Errorf("special register %s", in.Args[1].Name)
				}
				l.set(&in.Args[0], v)
				continue
			}
		}
		op := l.ops[in]
		if op == nil {
			var err error
			op, err = Decode(in)
			if err != nil {
				return fmt.Errorf("line %d: %w", in.Pos.Line, err)
			}
			l.ops[in] = op
		}
		var src [4]uint64
		for k := 0; k < op.NumSrc(); k++ {
			if c, ok := op.Const(k); ok {
				src[k] = c
			} else {
				src[k] = l.get(&in.Args[op.SrcArg(k)])
			}
		}
		d0, d1 := op.Eval(&src, &l.cc)
		dst := &in.Args[0]
		if dst.Kind == ptx.OpPair {
			l.set(&dst.Elems[0], d0)
			if op.NumDst() == 2 {
				l.set(&dst.Elems[1], d1)
			}
		} else {
			l.set(dst, d0)
		}
	}
	return nil
}

// isApprox reports whether a variant tests an approximate instruction.
func isApprox(name string) bool {
	return strings.Contains(name, ".approx") || strings.Contains(name, "div.full")
}

func TestISAOracle(t *testing.T) {
	vs := loadISA(t)
	exact, exactDefined, total, approxVariants, skipped := 0, 0, 0, 0, 0
	var failed []string
	approxExact := 0
	for _, v := range vs {
		if v.Status != "ok" {
			t.Logf("skip %s: status %q", v.Name, v.Status)
			skipped++
			continue
		}
		src, err := os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(v.PTX, "isa/")))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		mod, err := ptx.Parse(v.PTX, src)
		if err != nil {
			t.Errorf("%s: parse: %v", v.Name, err)
			continue
		}
		f := mod.Func("isa")
		if f == nil {
			t.Errorf("%s: no kernel isa", v.Name)
			continue
		}
		if w := warpLevel(f); w != "" {
			t.Logf("skip %s: warp-level instruction %s belongs to the simulator", v.Name, w)
			skipped++
			continue
		}
		l := &lane{f: f, ops: map[*ptx.Inst]*Op{}}
		for k, p := range v.Inputs {
			l.inputs[k], err = os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(p, "isa/")))
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
		}
		want, err := os.ReadFile(filepath.Join(goldenISA, strings.TrimPrefix(v.Output, "isa/")))
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		esz := len(want) / v.N
		total++
		approx := isApprox(v.Name)
		if approx {
			approxVariants++
		}
		rowsExact, bad, undefined := 0, 0, 0
		var firstBad string
		for i := 0; i < v.N; i++ {
			l.regs = map[string]uint64{}
			l.cc = 0
			l.stored = false
			if err := l.run(i); err != nil {
				if bad == 0 {
					firstBad = err.Error()
				}
				bad++
				continue
			}
			var w uint64
			for k := 0; k < esz; k++ {
				w |= uint64(want[i*esz+k]) << (8 * k)
			}
			if l.stored && l.store == w {
				rowsExact++
				continue
			}
			if approx && withinBound(v, l, i, l.store, w) {
				continue
			}
			if why := undefinedRow(v, l, i); why != "" {
				undefined++
				t.Logf("%s row %d: H200 gives %#x, we give %#x; allowed: %s", v.Name, i, w, l.store, why)
				continue
			}
			if bad == 0 {
				firstBad = fmt.Sprintf("row %d: inputs %s: got %#x want %#x", i, rowInputs(l, v, i), l.store, w)
			}
			bad++
		}
		switch {
		case bad > 0:
			failed = append(failed, v.Name)
			if approx {
				t.Errorf("%s: %d rows outside the manual's bound (%d/%d bit-exact); first: %s", v.Name, bad, rowsExact, v.N, firstBad)
			} else {
				t.Errorf("%s: %d rows differ; first: %s", v.Name, bad, firstBad)
			}
		case rowsExact == v.N:
			exact++
			if approx {
				approxExact++
			}
		case rowsExact+undefined == v.N:
			exactDefined++
			t.Logf("%s: bit-exact on every row the manual defines (%d undefined rows differ)", v.Name, undefined)
		default:
			t.Logf("%s: within the manual's bound, %d/%d rows bit-exact", v.Name, rowsExact, v.N)
		}
	}
	sort.Strings(failed)
	t.Logf("ISA oracle: %d of %d variants bit-exact on all rows, %d more on every row the manual defines; %d approximate variants (%d of them bit-exact); %d skipped; failing: %v",
		exact, total, exactDefined, approxVariants, approxExact, skipped, failed)
}

// rowInputs formats the raw inputs of row i for messages.
func rowInputs(l *lane, v isaVariant, i int) string {
	var parts []string
	for k, s := range v.Srcs {
		if k >= len(v.Inputs) {
			break
		}
		ty, _ := ptx.TypeByName(s)
		sz := ty.Size()
		if ty == ptx.Pred {
			sz = 4
		}
		var x uint64
		for j := 0; j < sz && i*sz+j < len(l.inputs[k]); j++ {
			x |= uint64(l.inputs[k][i*sz+j]) << (8 * j)
		}
		parts = append(parts, fmt.Sprintf("%#x", x))
	}
	return strings.Join(parts, ",")
}

// undefinedRow returns why row i of a variant has an input the PTX manual
// leaves undefined (so the H200's value is not a specification), or "".
// This is the explicit list of allowed mismatches.
func undefinedRow(v isaVariant, l *lane, i int) string {
	switch v.Name {
	case "fns.b32":
		if base := rowInput(l, v, 1, i) & 0xffffffff; base > 31 {
			return fmt.Sprintf("fns base %d > 31 is undefined behaviour in the manual", base)
		}
	}
	return ""
}

// TestGoldenKernelsDecode decodes every instruction of every golden kernel
// (nvcc PTX for all architectures and clang PTX): each must be a lane-local
// computation Decode accepts, or ErrNotArith.
func TestGoldenKernelsDecode(t *testing.T) {
	var files []string
	for _, pat := range []string{"../../testdata/golden/ptx/*.ptx", "../ptx/testdata/clang/*.ptx"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no golden PTX")
	}
	decoded, notArith := 0, 0
	seen := map[string]bool{}
	for _, fn := range files {
		src, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		mod, err := ptx.Parse(fn, src)
		if err != nil {
			t.Errorf("%s: parse: %v", fn, err)
			continue
		}
		for _, f := range mod.Funcs {
			for _, in := range f.Insts {
				_, err := Decode(in)
				switch {
				case err == nil:
					decoded++
				case errors.Is(err, ErrNotArith):
					notArith++
				default:
					key := in.Op + "." + strings.Join(in.Mods, ".")
					if !seen[key] {
						seen[key] = true
						t.Errorf("%s:%d: %s: %v", filepath.Base(fn), in.Pos.Line, key, err)
					}
				}
			}
		}
	}
	t.Logf("golden kernels: %d files, %d lane-local instructions decoded, %d not lane-local", len(files), decoded, notArith)
}
