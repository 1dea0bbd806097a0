package ptx

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cfgKernel wraps a body in a kernel with the registers the tests use.
func cfgKernel(t *testing.T, body string) *CFG {
	t.Helper()
	src := `.version 8.0
.target sm_80
.address_size 64
.func f (.param .b32 a)
{
	ret;
}
.entry k (.param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
` + body + "\n}\n"
	m, err := Parse("cfg.ptx", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	g, err := BuildCFG(m.Func("k"))
	if err != nil {
		t.Fatalf("cfg: %v", err)
	}
	return g
}

// idx finds the instruction whose text position is marked by a trailing
// comment is impossible after parsing, so tests index instructions by order.
func TestReconvergence(t *testing.T) {
	type want struct{ branch, reconv int }
	cases := []struct {
		name string
		body string
		want []want
	}{
		{"if-then", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra L1;               // 1
	add.s32 %r2, %r2, 1;       // 2
L1:
	ret;                       // 3
`, []want{{1, 3}}},
		{"if-then-else", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra ELSE;             // 1
	add.s32 %r2, %r2, 1;       // 2
	bra.uni END;               // 3
ELSE:
	sub.s32 %r2, %r2, 1;       // 4
END:
	ret;                       // 5
`, []want{{1, 5}}},
		{"nested if", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra OUT;              // 1
	setp.lt.s32 %p2, %r1, 2;   // 2
	@!%p2 bra IN;              // 3
	add.s32 %r2, %r2, 1;       // 4
IN:
	add.s32 %r3, %r3, 1;       // 5
OUT:
	ret;                       // 6
`, []want{{1, 6}, {3, 5}}},
		{"early return", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra L;                // 1
	ret;                       // 2
L:
	add.s32 %r2, %r2, 1;       // 3
	ret;                       // 4
`, []want{{1, -1}}},
		{"guarded ret then join", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 ret;                  // 1
	setp.lt.s32 %p2, %r1, 2;   // 2
	@%p2 bra J;                // 3
	add.s32 %r2, %r2, 1;       // 4
J:
	exit;                      // 5
`, []want{{1, -1}, {3, 5}}},
		{"exit in a branch", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra L;                // 1
	exit;                      // 2
L:
	setp.lt.s32 %p2, %r1, 2;   // 3
	@%p2 bra M;                // 4
	add.s32 %r2, %r2, 1;       // 5
M:
	ret;                       // 6
`, []want{{1, -1}, {4, 6}}},
		{"trap in a branch", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra L;                // 1
	trap;                      // 2
L:
	ret;                       // 3
`, []want{{1, -1}}},
		{"loop with break and continue", `
	mov.u32 %r1, 0;            // 0
LOOP:
	setp.ge.s32 %p1, %r1, 10;  // 1
	@%p1 bra DONE;             // 2 loop exit
	setp.eq.s32 %p2, %r3, 7;   // 3
	@%p2 bra DONE;             // 4 break
	setp.eq.s32 %p3, %r3, 5;   // 5
	@%p3 bra NEXT;             // 6 continue
	add.s32 %r2, %r2, 1;       // 7
NEXT:
	add.s32 %r1, %r1, 1;       // 8
	bra.uni LOOP;              // 9
DONE:
	st.param.b32 [n], %r2;     // 10
	ret;                       // 11
`, []want{{2, 10}, {4, 10}, {6, 8}, {9, 1}}},
		{"do-while with a break returning early", `
LOOP:
	add.s32 %r1, %r1, 1;       // 0
	setp.eq.s32 %p2, %r1, 7;   // 1
	@%p2 ret;                  // 2 early return inside the loop
	setp.lt.s32 %p1, %r1, 10;  // 3
	@%p1 bra LOOP;             // 4 back edge
	add.s32 %r2, %r2, 1;       // 5
	ret;                       // 6
`, []want{{2, -1}, {4, -1}}}, // lanes that loop again may still leave by the ret: they meet only at exit
		{"do-while", `
LOOP:
	add.s32 %r1, %r1, 1;       // 0
	setp.lt.s32 %p1, %r1, 10;  // 1
	@%p1 bra LOOP;             // 2 back edge
	add.s32 %r2, %r2, 1;       // 3
	ret;                       // 4
`, []want{{2, 3}}},
		{"switch through brx.idx", `
	ts: .branchtargets C0, C1, C2;
	brx.idx %r1, ts;           // 0
C0:
	add.s32 %r2, %r2, 1;       // 1
	bra.uni END;               // 2
C1:
	sub.s32 %r2, %r2, 1;       // 3
	bra.uni END;               // 4
C2:
	mul.lo.s32 %r2, %r2, 3;    // 5
END:
	ret;                       // 6
`, []want{{0, 6}}},
		{"call inside a branch arm", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra L;                // 1
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1; // 2
	call.uni f, (param0);      // 3
	}
	add.s32 %r2, %r2, 1;       // 4
L:
	ret;                       // 5
`, []want{{1, 5}}},
		{"infinite loop", `
	setp.lt.s32 %p1, %r1, 4;   // 0
L:
	@%p1 bra A;                // 1
	add.s32 %r2, %r2, 1;       // 2
A:
	bra.uni L;                 // 3
`, []want{{1, 3}}},
		{"label at the end", `
	setp.lt.s32 %p1, %r1, 4;   // 0
	@%p1 bra END;              // 1
	add.s32 %r2, %r2, 1;       // 2
END:
`, []want{{1, -1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := cfgKernel(t, c.body)
			for _, w := range c.want {
				if got := g.Reconv(w.branch); got != w.reconv {
					t.Errorf("Reconv(%d) = %d, want %d", w.branch, got, w.reconv)
				}
			}
		})
	}
}

func TestCFGCallDoesNotSplit(t *testing.T) {
	g := cfgKernel(t, `
	setp.lt.s32 %p1, %r1, 4;
	@%p1 bra L;
	{
	.param .b32 param0;
	st.param.b32 [param0], %r1;
	call.uni f, (param0);
	}
	add.s32 %r2, %r2, 1;
L:
	ret;
`)
	if g.BlockOf[2] != g.BlockOf[4] {
		t.Errorf("call split its block: %v", g.BlockOf)
	}
	if len(g.Blocks) != 3 {
		t.Errorf("%d blocks, want 3", len(g.Blocks))
	}
	b := g.Blocks[g.BlockOf[1]]
	if len(b.Succs) != 2 {
		t.Errorf("conditional branch block has succs %v", b.Succs)
	}
}

// postDominates reports by brute force whether block d post-dominates block
// a: with d removed, no exit is reachable from a.
func postDominates(g *CFG, d, a int) bool {
	if d == a {
		return true
	}
	seen := make([]bool, len(g.Blocks))
	stack := []int{a}
	seen[a] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g.Blocks[b].Exit {
			return false
		}
		for _, s := range g.Blocks[b].Succs {
			if s != d && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return true
}

// TestIPDomGolden checks every block of every golden and clang function against a
// brute-force definition of the immediate post-dominator.
func TestIPDomGolden(t *testing.T) {
	branches := 0
	clang, _ := filepath.Glob("testdata/clang/*.ptx")
	for _, path := range append(goldenPTX(t), clang...) {
		if strings.Contains(path, "/isa/") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(path, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.Funcs {
			g, err := BuildCFG(f)
			if err != nil {
				t.Fatalf("%s %s: %v", path, f.Name, err)
			}
			for a := range g.Blocks {
				var strict []int
				for d := range g.Blocks {
					if d != a && postDominates(g, d, a) {
						strict = append(strict, d)
					}
				}
				// the immediate one is post-dominated by every other strict one
				want := -1
				for _, d := range strict {
					ok := true
					for _, e := range strict {
						if !postDominates(g, e, d) {
							ok = false
						}
					}
					if ok {
						want = d
					}
				}
				if g.IPDom[a] != want {
					t.Errorf("%s %s: block %d: ipdom %d, brute force %d", path, f.Name, a, g.IPDom[a], want)
				}
				last := f.Insts[g.Blocks[a].End-1]
				if last.Op == "bra" && last.Guard != "" {
					branches++
				}
			}
		}
	}
	t.Logf("%d conditional branches checked", branches)
}
