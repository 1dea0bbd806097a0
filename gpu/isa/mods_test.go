package isa

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// TestParseModsTyped checks the typed fields on real modifier lists: the
// flags present, the last word of each enum group, and the shape.
func TestParseModsTyped(t *testing.T) {
	cases := []struct {
		mods string
		want Mods
	}{
		{"lt.and.s32", Mods{Cmp: CmpLt, Atom: AtomAnd, Atoms: 1 << AtomAnd}},
		{"hi.u32", Mods{Cmp: CmpHi, Flags: FlagHi}},
		{"rn.ftz.sat.f32", Mods{Rnd: RndRN, Flags: FlagFtz | FlagSat}},
		{"approx.ftz.f32", Mods{Flags: FlagApprox | FlagFtz}},
		{"global.add.noftz.f16", Mods{Atom: AtomAdd, Atoms: 1 << AtomAdd, Flags: FlagNoftz}},
		{"sync.down.b32", Mods{Shfl: ShflDown, Flags: FlagSync}},
		{"sync.ballot.b32", Mods{Vote: VoteBallot, Flags: FlagSync}},
		{"red.popc.u32", Mods{Atom: AtomPopc, Atoms: 1 << AtomPopc, Flags: FlagRed}},
		{"acquire.gpu.global.b32", Mods{Sem: SemAcquire, Scope: ScopeGPU}},
		{"gl", Mods{Scope: ScopeGPU}},
		{"cluster.arrive.release.aligned", Mods{Flags: FlagCluster | FlagArrive | FlagAligned, Scope: ScopeCluster, Sem: SemRelease}},
		{"async.bulk.wait_group.read", Mods{Flags: FlagAsync | FlagBulk | FlagWaitGroup | FlagRead}},
		{"async.ca.shared.global.L2::cache_hint", Mods{Flags: FlagAsync | FlagCacheHint}},
		{"mma_async.sync.aligned.m64n128k16.f32.f16.f16", Mods{Flags: FlagMMAAsync | FlagSync | FlagAligned, Shape: Shape{64, 128, 16}}},
		{"mma.sync.aligned.m16n16k16.row.col.f32.f32", Mods{Flags: FlagMMA | FlagSync | FlagAligned, Shape: Shape{16, 16, 16}}},
		{"to.param::func", Mods{Flags: FlagTo | FlagParamFunc}},
		{"m64n8", Mods{}},     // not a shape
		{"m16n8k16x", Mods{}}, // not a shape
	}
	for _, c := range cases {
		m := ParseMods(strings.Split(c.mods, "."))
		if m.Flags != c.want.Flags || m.Cmp != c.want.Cmp || m.Rnd != c.want.Rnd || m.Atom != c.want.Atom || m.Atoms != c.want.Atoms ||
			m.Shfl != c.want.Shfl || m.Vote != c.want.Vote || m.Sem != c.want.Sem || m.Scope != c.want.Scope || m.Shape != c.want.Shape {
			t.Errorf("ParseMods(%s) = %+v; want the typed fields of %+v", c.mods, m, c.want)
		}
	}
	if m := ParseMods([]string{"and", "or"}); m.Atom != AtomOr || !m.HasAtom(AtomAnd) || !m.HasAtom(AtomOr) || m.HasAtom(AtomXor) {
		t.Errorf("and.or: %+v", m)
	}
	if m := ParseMods([]string{"ftz", "sat"}); !m.Has(FlagFtz) || !m.Has(FlagFtz|FlagSat) || m.Has(FlagFtz|FlagApprox) {
		t.Errorf("Has on ftz.sat: %+v", m)
	}
}

// TestWordsTableDistinct: every flag word sets its own bit, and the flags fit
// in Flag.
func TestWordsTableDistinct(t *testing.T) {
	if numFlags > 64 {
		t.Fatalf("%d flags do not fit in a Flag", numFlags)
	}
	seen := map[Flag]string{}
	for w, x := range words {
		if x.flag == 0 {
			continue
		}
		if x.flag&(x.flag-1) != 0 {
			t.Errorf("%s sets several flags", w)
		}
		if o, ok := seen[x.flag]; ok {
			t.Errorf("%s and %s share a flag", w, o)
		}
		seen[x.flag] = w
	}
	if len(seen) != numFlags {
		t.Errorf("%d flag words for %d flags", len(seen), numFlags)
	}
}

// TestClassMatchesClassify: on every instruction of every PTX file in the
// repository, the class Decode computes from the parsed modifiers equals
// latency.Classify's from the text.
func TestClassMatchesClassify(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "build" || d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".ptx") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 300 {
		t.Fatalf("found only %d PTX files", len(files))
	}
	n := 0
	classes := map[latency.Class]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(f, src)
		if err != nil {
			continue
		}
		for _, fn := range m.Funcs {
			if len(fn.Insts) == 0 {
				continue
			}
			p, err := Decode(fn)
			if err != nil {
				t.Fatal(err)
			}
			for i := range p.Insts {
				in := &p.Insts[i]
				if in.PTX == nil {
					continue
				}
				n++
				classes[in.Class] = true
				if want := latency.Classify(in.PTX); in.Class != want {
					t.Errorf("%s line %d %s: class %s, latency.Classify %s", f, in.Line, in.Text, in.Class, want)
				}
			}
		}
	}
	if len(classes) < int(latency.NumClasses)/2 {
		t.Errorf("the corpus has only %d classes", len(classes))
	}
	t.Logf("%d instructions, %d classes", n, len(classes))
}
