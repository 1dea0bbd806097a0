package isa

import (
	"strings"
	"testing"
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
