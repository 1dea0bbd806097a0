package ptx

import "testing"

// TestScopedRegisterShadows: a register declared again inside a { } block (nvcc's
// inline-asm blocks in its math library, "{ .reg .u32 %r0, %r1, %r2, %r3, ...; }") is a
// different register there; after the block the name is the outer register again.
func TestScopedRegisterShadows(t *testing.T) {
	src := `.version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<5>;
	.reg .pred %p<2>;
	mov.u32 %r3, 5;
	{
	.reg .u32 %r3, %x;
	mov.u32 %r3, 7;
	mov.u32 %x, %r3;
	{
	.reg .u32 %r3;
	mov.u32 %r3, 9;
	}
	add.u32 %r1, %r3, %x;
	{
	.reg .pred %p1;
	setp.eq.u32 %p1, %r3, 7;
	@%p1 mov.u32 %x, 1;
	}
	}
	@%p1 mov.u32 %r4, 1;
	mov.u32 %r2, %r3;
	ret;
}
`
	m, err := Parse("scope.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k := m.Func("k")
	name := func(i, a int) string { return k.Insts[i].Args[a].Name }
	inner, innermost := name(1, 0), name(3, 0)
	if name(0, 0) != "%r3" || inner == "%r3" || innermost == "%r3" || innermost == inner {
		t.Fatalf("registers: outer %s, inner %s, innermost %s", name(0, 0), inner, innermost)
	}
	if name(2, 1) != inner || name(4, 1) != inner || name(2, 0) != "%x" {
		t.Errorf("inside the block: %s %s %s, want %s", name(2, 1), name(4, 1), name(2, 0), inner)
	}
	if g := k.Insts[6].Guard; g == "%p1" || g != name(5, 0) {
		t.Errorf("the inner guard is %s, want the inner %s", g, name(5, 0))
	}
	if g := k.Insts[7].Guard; g != "%p1" {
		t.Errorf("after the blocks the guard is %s, want %%p1", g)
	}
	if name(8, 1) != "%r3" {
		t.Errorf("after the block %%r3 is %s", name(8, 1))
	}
	roundTrip(t, "scope.ptx", []byte(src))
}
