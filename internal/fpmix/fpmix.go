// Package fpmix counts the floating-point fma, multiply and add instructions of each kernel
// in PTX and in cuobjdump SASS listings, so the clang path's contraction can be compared
// with nvcc's machine code (testdata/contract, docs/clang-parity.md).
package fpmix

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Counts maps "fma.f32", "mul.f64", "add.f16" ... to a number of instructions; a PTX sub
// counts as an add (SASS has no FSUB) and f16x2 as f16 (HFMA2 is both).
type Counts map[string]int

// String is the counts in key order, "fma.f32×2 mul.f32×1", or "-" for none.
func (c Counts) String() string {
	keys := make([]string, 0, len(c))
	for k, v := range c {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "-"
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s×%d", k, c[k])
	}
	return b.String()
}

// Equal reports whether a and b hold the same non-zero counts.
func Equal(a, b Counts) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

var (
	sassFuncRE = regexp.MustCompile(`Function : (\S+)`)
	sassFPRE   = regexp.MustCompile(`/\*[0-9a-f]{4}\*/\s+(?:@!?U?P[T0-9]\s+)?(FFMA|FMUL|FADD|DFMA|DMUL|DADD|HFMA2|HMUL2|HADD2)(\.[A-Z0-9.]+)?\s+([^;]*);`)
	sassKey    = map[string]string{"FFMA": "fma.f32", "FMUL": "mul.f32", "FADD": "add.f32", "DFMA": "fma.f64",
		"DMUL": "mul.f64", "DADD": "add.f64", "HFMA2": "fma.f16", "HMUL2": "mul.f16", "HADD2": "add.f16"}
)

// SASS counts per function (its mangled name) of a cuobjdump -sass listing, leaving out the
// forms ptxas uses as moves and conversions: HFMA2 with -RZ, RZ (a constant), FADD x, -RZ
// (an abs, negate or copy) and HADD2.F32 (a half-to-float conversion).
func SASS(listing string) map[string]Counts {
	out := map[string]Counts{}
	var cur Counts
	for _, l := range strings.Split(listing, "\n") {
		if m := sassFuncRE.FindStringSubmatch(l); m != nil {
			cur = Counts{}
			out[m[1]] = cur
			continue
		}
		m := sassFPRE.FindStringSubmatch(l)
		if m == nil || cur == nil {
			continue
		}
		op, mod, ops := m[1], m[2], strings.TrimSpace(m[3])
		if (op == "HFMA2" && strings.Contains(ops, "-RZ, RZ")) || (op == "FADD" && strings.HasSuffix(ops, ", -RZ")) ||
			(op == "HADD2" && strings.HasPrefix(mod, ".F32")) {
			continue
		}
		cur[sassKey[op]]++
	}
	return out
}

var (
	ptxEntryRE = regexp.MustCompile(`(?m)^\s*\.(?:visible\s+|weak\s+)?\.entry\s+([A-Za-z0-9_$]+)`)
	ptxFPRE    = regexp.MustCompile(`^\s*\{?\s*(?:@!?%p\d+\s+)?(fma|mul|add|sub)(\.rn|\.rz|\.rm|\.rp)?(\.ftz)?(\.sat)?\.(f32|f64|f16x2|f16)\s+([^;]*);`)
	ptxLabelRE = regexp.MustCompile(`^\s*\$?[A-Za-z0-9_$]+:`)
	ptxRegRE   = regexp.MustCompile(`%[A-Za-z]+[0-9]+`)
	ptxNegRE   = regexp.MustCompile(`^\s*neg(?:\.ftz)?\.f(?:32|64)\s+(%[A-Za-z]+[0-9]+),\s*(%[A-Za-z]+[0-9]+);`)
	ptxBraRE   = regexp.MustCompile(`^\s*(?:@!?%p\d+\s+)?bra(?:\.uni)?\s`)
)

// ptxInst is one floating-point arithmetic instruction of a PTX kernel.
type ptxInst struct {
	op, ty   string // fma/mul/add (sub as add); f32/f64/f16
	rounded  bool   // an explicit rounding modifier: ptxas does not fuse it
	dst      string
	block    int
	line     int
	operands []string
}

// PTX counts per .entry (its mangled name) of a PTX module: the instructions as written.
func PTX(text string) map[string]Counts {
	out := map[string]Counts{}
	for name, body := range entries(text) {
		c := Counts{}
		for _, in := range parseFP(body) {
			c[in.op+"."+in.ty]++
		}
		out[name] = c
	}
	return out
}

// PTXAfterPtxas counts per .entry what ptxas makes of the PTX, by the rule measured on the
// H200 (testdata/contract): an un-rounded mul whose result is used only by un-rounded adds
// and subtracts of its basic block becomes one fma per use. It is a model (calibrated on
// testdata/contract/patterns.cu), for PTX that has no recorded SASS.
func PTXAfterPtxas(text string) map[string]Counts {
	out := map[string]Counts{}
	for name, body := range entries(text) {
		insts := parseFP(body)
		lines := strings.Split(body, "\n")
		c := Counts{}
		for _, in := range insts {
			c[in.op+"."+in.ty]++
		}
		byLine := map[int]ptxInst{}
		for _, in := range insts {
			byLine[in.line] = in
		}
		fused := map[int]bool{} // adds that already took a product (an add fuses one)
		for _, m := range insts {
			if m.op != "mul" || m.rounded || m.dst == "" {
				continue
			}
			adds, ok := addUses(m.dst, m, byLine, lines)
			if !ok || len(adds) == 0 {
				continue
			}
			free := true
			for _, a := range adds {
				free = free && !fused[a]
			}
			if !free {
				continue
			}
			for _, a := range adds {
				fused[a] = true
			}
			c["mul."+m.ty]--
			c["add."+m.ty] -= len(adds)
			c["fma."+m.ty] += len(adds)
		}
		out[name] = c
	}
	return out
}

// addUses lists the lines of the adds that read reg (mul's result, or a neg of it),
// and false when reg is read by anything but un-rounded adds of mul's block (or a neg
// whose own readers are).
func addUses(reg string, mul ptxInst, byLine map[int]ptxInst, lines []string) ([]int, bool) {
	var adds []int
	for i := mul.line + 1; i < len(lines); i++ {
		l := lines[i]
		if !strings.Contains(l, reg) {
			continue
		}
		regs := ptxRegRE.FindAllString(l, -1)
		if len(regs) > 0 && regs[0] == reg && !strings.Contains(l, "[") {
			if _, ok := byLine[i]; ok || ptxNegRE.MatchString(l) {
				return adds, true // redefined: later reads are another value
			}
		}
		reads := 0
		for _, r := range regs {
			if r == reg {
				reads++
			}
		}
		if reads == 0 {
			continue
		}
		if m := ptxNegRE.FindStringSubmatch(l); m != nil && m[2] == reg && blockOf(lines, i) == blockOf(lines, mul.line) {
			more, ok := addUses(m[1], ptxInst{line: i, block: mul.block, ty: mul.ty}, byLine, lines)
			if !ok {
				return nil, false
			}
			adds = append(adds, more...)
			continue
		}
		in, ok := byLine[i]
		if !ok || in.op != "add" || in.rounded || in.block != mul.block || in.ty != mul.ty {
			return nil, false
		}
		adds = append(adds, i)
	}
	return adds, true
}

// blockOf is the basic-block number of a line, as parseFP counts them.
func blockOf(lines []string, n int) int {
	b := 0
	for i := 0; i < n && i < len(lines); i++ {
		if ptxLabelRE.MatchString(lines[i]) || ptxBraRE.MatchString(lines[i]) {
			b++
		}
	}
	return b
}

// entries splits a PTX module into its .entry bodies by mangled name.
func entries(text string) map[string]string {
	out := map[string]string{}
	idx := ptxEntryRE.FindAllStringSubmatchIndex(text, -1)
	for i, m := range idx {
		end := len(text)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		body := text[m[1]:end]
		if f := strings.Index(body, "\n.func"); f >= 0 {
			body = body[:f]
		}
		if f := strings.Index(body, "\n.visible .func"); f >= 0 {
			body = body[:f]
		}
		out[text[m[2]:m[3]]] = body
	}
	return out
}

// parseFP lists the floating-point fma/mul/add/sub of a kernel body with their blocks.
func parseFP(body string) []ptxInst {
	var out []ptxInst
	block := 0
	for n, l := range strings.Split(body, "\n") {
		if ptxLabelRE.MatchString(l) {
			block++
			continue
		}
		if ptxBraRE.MatchString(l) { // a branch ends its block (a label or fall-through follows)
			block++
			continue
		}
		m := ptxFPRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		op, ty := m[1], m[5]
		if op == "sub" {
			op = "add"
		}
		if ty == "f16x2" {
			ty = "f16"
		}
		regs := ptxRegRE.FindAllString(m[6], -1)
		in := ptxInst{op: op, ty: ty, rounded: m[2] != "", block: block, line: n}
		if len(regs) > 0 {
			in.dst, in.operands = regs[0], regs[1:]
		}
		out = append(out, in)
	}
	return out
}
