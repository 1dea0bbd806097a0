package toolchain

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// nvcc's floating-point contraction, measured on the H200 with the patterns of
// testdata/contract/patterns.cu (nvcc 13.0 PTX and ptxas's SASS, docs/clang-parity.md):
// a product (fmul of float or double; half and half2 below) becomes part of an fma exactly when
// every use of it is an add or a subtract (an fneg whose uses are all adds or subtracts
// counts as one) in the product's own basic block, however many such uses there are;
// a single use in another block is fused too (the product moves to it). A product that
// is also stored, shuffled, compared, converted, selected, multiplied, passed to a
// function, or added in another block stays a rounded multiply, and so do its adds.
// LLVM's NVPTX back end instead fuses a contractable product into every add and
// subtract of its block whatever else uses it (aggressive FMA fusion in the DAG
// combiner), so the clang path compiles the cell to LLVM IR with contraction allowed per
// instruction (-ffp-contract=fast-honor-pragmas), removes the contract flag from the
// products nvcc would not fuse (nvccContraction), and compiles that IR to PTX.
// Half and bfloat16 products keep clang's own contraction: nvcc's cuda_fp16.h makes each
// operator one inline asm (mul.f16 ...), which nvcc never merges, so ptxas fuses each
// written product on its own, while in clang's IR two equal products (a*b and b*a) are one
// value by then and its uses cannot be told apart (fp16_ops r[11] = a + b*a beside r[4] =
// __hmul(a, b) is fused on the H200; a product variable also stored, patterns p17 and p44,
// is not, and the clang path fuses both).
// nvcc's one further exception, a product with another use whose add lies 500 or more
// IR instructions later and one of whose operands is still live after the add, is not
// modelled (pattern p42_far_live).

// irValueRE matches an SSA value reference in LLVM IR text.
var irValueRE = regexp.MustCompile(`%[-A-Za-z$._0-9]+`)

// irLabelRE matches a basic block label line.
var irLabelRE = regexp.MustCompile(`^[-A-Za-z$._0-9]+:`)

// irInst is one instruction of a function: the value it defines, its opcode and block.
type irInst struct {
	line  int
	def   string
	op    string
	block int
}

// contractWord is the contract fast-math flag as it appears after an fmul.
const contractWord = " contract "

// nvccContraction returns ir with the contract flag removed from every fmul that
// nvcc would not fuse into an fma (the rule above); everything else is unchanged.
func nvccContraction(ir []byte) []byte {
	lines := strings.Split(string(ir), "\n")
	changed := false
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "define ") {
			continue
		}
		end := i + 1
		for end < len(lines) && lines[end] != "}" {
			end++
		}
		if contractFunction(lines[i+1 : end]) {
			changed = true
		}
		i = end
	}
	if !changed {
		return ir
	}
	return []byte(strings.Join(lines, "\n"))
}

// contractFunction applies the rule to one function body (the lines between
// "define ... {" and "}"), editing lines in place; it reports whether any changed.
func contractFunction(body []string) bool {
	var insts []irInst
	byDef := map[string]int{} // fmul and fneg results -> index in insts
	block := 0
	for n, l := range body {
		if irLabelRE.MatchString(l) {
			block++
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" || t[0] == ';' || strings.HasPrefix(t, "uselistorder") { // use-list order directives are no uses
			continue
		}
		in := irInst{line: n, block: block}
		if t[0] == '%' {
			if eq := strings.Index(t, " = "); eq > 0 {
				in.def = t[:eq]
				t = t[eq+3:]
			}
		}
		in.op, _, _ = strings.Cut(t, " ")
		if in.op == "tail" || in.op == "musttail" || in.op == "notail" {
			in.op = "call"
		}
		if in.def != "" && (in.op == "fmul" || in.op == "fneg") {
			byDef[in.def] = len(insts)
		}
		insts = append(insts, in)
	}
	if len(byDef) == 0 {
		return false
	}
	uses := make(map[string][]int, len(byDef)) // value -> indices of the instructions using it
	for k, in := range insts {
		l := body[in.line]
		if in.def != "" {
			l = l[strings.Index(l, " = ")+3:]
		}
		for _, v := range irValueRE.FindAllString(l, -1) {
			if _, ok := byDef[v]; ok {
				if u := uses[v]; len(u) == 0 || u[len(u)-1] != k {
					uses[v] = append(u, k)
				}
			}
		}
	}
	isAdd := func(op string) bool { return op == "fadd" || op == "fsub" }
	// addsOnly: every use of v is an add or subtract in block b (an fneg of v
	// counts as one when its own uses are).
	var addsOnly func(v string, b int) bool
	addsOnly = func(v string, b int) bool {
		for _, k := range uses[v] {
			u := insts[k]
			switch {
			case u.block != b:
				return false
			case isAdd(u.op):
			case u.op == "fneg" && u.def != "" && len(uses[u.def]) > 0 && addsOnly(u.def, b):
			default:
				return false
			}
		}
		return true
	}
	changed := false
	for _, in := range insts {
		if in.op != "fmul" {
			continue
		}
		l := body[in.line]
		f := strings.Index(l, "= fmul ")
		if f < 0 {
			continue
		}
		f += len("= fmul")
		c := strings.Index(l[f:], contractWord)
		if c < 0 || strings.ContainsAny(l[f:f+c], "%<[") { // contract must be among the flags
			continue
		}
		ty := l[f+c+len(contractWord):]
		if i := strings.IndexByte(ty, '%'); i >= 0 {
			ty = ty[:i]
		}
		if strings.Contains(ty, "half") || strings.Contains(ty, "bfloat") {
			continue // nvcc's half arithmetic is one inline asm per operator: see the comment above
		}
		u := uses[in.def]
		if len(u) == 0 {
			continue
		}
		if len(u) == 1 && (isAdd(insts[u[0]].op) || insts[u[0]].op == "fneg") {
			continue // a single add, here or in the block it will move to
		}
		if addsOnly(in.def, in.block) {
			continue
		}
		body[in.line] = l[:f+c] + " " + l[f+c+len(contractWord):]
		changed = true
	}
	// a*b - c*d with both products fusible and used only there: nvcc fuses the
	// subtracted one, fma(-c, d, a*b) (fastgold's Black-Scholes, nvcc 13), where
	// LLVM would fuse a*b; a*b + c*d is fused as LLVM does (pattern p10_two_muls).
	for k, in := range insts {
		if in.op != "fsub" {
			continue
		}
		l := body[in.line]
		vs := irValueRE.FindAllString(l[strings.Index(l, " = ")+3:], -1)
		if len(vs) != 2 || vs[0] == vs[1] {
			continue
		}
		a, okA := byDef[vs[0]]
		b, okB := byDef[vs[1]]
		if !okA || !okB || !soleFusibleUse(body, insts[a], uses[vs[0]], k) || !soleFusibleUse(body, insts[b], uses[vs[1]], k) {
			continue
		}
		la := body[insts[a].line]
		c := strings.Index(la, "= fmul"+contractWord)
		body[insts[a].line] = la[:c] + "= fmul " + la[c+len("= fmul"+contractWord):]
		changed = true
	}
	return changed
}

// soleFusibleUse reports whether in is an fmul of float or double that still carries
// the contract flag right after the opcode and whose one use is instruction k.
func soleFusibleUse(body []string, in irInst, uses []int, k int) bool {
	if in.op != "fmul" || len(uses) != 1 || uses[0] != k {
		return false
	}
	l := body[in.line]
	c := strings.Index(l, "= fmul"+contractWord)
	if c < 0 {
		return false
	}
	ty := l[c+len("= fmul"+contractWord):]
	return strings.HasPrefix(ty, "float ") || strings.HasPrefix(ty, "double ")
}

// ptxLabelNameRE matches the block-name comment LLVM writes after a label when the
// IR it compiled carried block names (the IR-to-PTX step of the clang path).
var ptxLabelNameRE = regexp.MustCompile(`(?m)^((?:\$L__BB[0-9_]+|// %bb\.[0-9]+):)[ \t]+// %[^\n]*$`)

// stripLabelNames removes the block-name comments of ptxLabelNameRE, so the PTX is
// byte for byte what one clang run from the source writes.
func stripLabelNames(ptx []byte) []byte {
	if !bytes.Contains(ptx, []byte(": ")) && !bytes.Contains(ptx, []byte(":\t")) {
		return ptx
	}
	return ptxLabelNameRE.ReplaceAll(ptx, []byte("$1"))
}

// NvccContraction reports whether a clang-path compile with these flags contracts as
// nvcc does (the default, and nvcc's -fmad=true): false when the flags choose clang's
// own contraction (-ffp-contract=...), turn it off (-fmad=false), or change the
// floating-point model (-ffast-math and the other clang math flags except the GPU ones),
// and for flags outside the allow-list.
func NvccContraction(flags []string) bool {
	norm, err := normaliseFlags(flags)
	if err != nil {
		return false
	}
	for _, f := range norm {
		switch {
		case contractRE.MatchString(f), f == "-fmad=false", f == "--fmad=false":
			return false
		case mathFlags[f] && !strings.Contains(f, "gpu-") && !strings.Contains(f, "cuda-") &&
			f != "-fno-fast-math" && f != "-funroll-loops" && f != "-fno-unroll-loops":
			return false
		}
	}
	return true
}

// clangIRToPTX compiles dir/out.ll to dir/out.ptx after applying rewrite (nvccContraction):
// code generation only (the IR is already optimised), at the cell's optimisation level.
// It returns the command, for the Result.
func clangIRToPTX(ctx context.Context, req Request, exe, dir string, rewrite func([]byte) []byte) (string, error) {
	ir, err := os.ReadFile(filepath.Join(dir, "out.ll"))
	if err != nil {
		return "", fmt.Errorf("toolchain: read LLVM IR: %w", err)
	}
	ir = rewrite(dropUseListOrder(ir, asmUseListRE))
	if err := os.WriteFile(filepath.Join(dir, "out.ll"), ir, 0o600); err != nil {
		return "", fmt.Errorf("toolchain: write LLVM IR: %w", err)
	}
	opt := "-O3"
	if norm, err := normaliseFlags(req.Flags); err == nil {
		for _, f := range norm {
			if optFlagRE.MatchString(f) {
				opt = f
			}
		}
	}
	args := []string{"--target=nvptx64-nvidia-cuda", "-march=" + req.Arch, "-Xclang", "-target-feature", "-Xclang", ptxFeature(req.Arch),
		opt, "-S", "-ffp-contract=fast-honor-pragmas", "-x", "ir", "out.ll", "-Xclang", "-disable-llvm-optzns"}
	args = append(append(args, codegenFlags(req.Flags)...), "-o", "out.ptx")
	cmd := "(fp contraction as nvcc: docs/clang-parity.md) " + exe + " " + strings.Join(args, " ")
	out, err := run(ctx, dir, exe, args...)
	if err != nil && ctx.Err() == nil && bytes.Contains(ir, []byte("uselistorder")) {
		// another directive LLVM writes but cannot read back: the order is only a tie-break
		if werr := os.WriteFile(filepath.Join(dir, "out.ll"), dropUseListOrder(ir, anyUseListRE), 0o600); werr != nil {
			return cmd, fmt.Errorf("toolchain: write LLVM IR: %w", werr)
		}
		out, err = run(ctx, dir, exe, args...)
	}
	if err != nil {
		if ctx.Err() != nil {
			return cmd, fmt.Errorf("toolchain: %s killed after %v: %w", exe, req.Timeout, ctx.Err())
		}
		// code generation errors carry the source line (the IR has line tables)
		text := cleanIncludeDir(cleanPaths(out, dir, sanitizeName(req.File), req.File), req.IncludeDir)
		if diags := ParseClangDiagnostics(text, req.File); len(diags) > 0 && !strings.Contains(text, "out.ll:") {
			return cmd, &CompileError{Diags: diags, Output: text}
		}
		return cmd, fmt.Errorf("toolchain: %s could not compile the LLVM IR of the cell's nvcc-contraction step to PTX "+
			"(a KernelScope bug: please report it; %%flags -ffp-contract=fast-honor-pragmas compiles in one clang run): %w: %s",
			exe, err, strings.TrimSpace(text))
	}
	return cmd, nil
}

// asmUseListRE matches the use-list order directive of an inline asm value, which LLVM 19
// writes (-emit-llvm-uselists) but its parser rejects ("invalid type for inline asm
// constraint string"); anyUseListRE matches every such directive.
var (
	asmUseListRE = regexp.MustCompile(`(?m)^[ \t]*uselistorder(?:_bb)? [^\n]*\basm "[^\n]*\n`)
	anyUseListRE = regexp.MustCompile(`(?m)^[ \t]*uselistorder(?:_bb)? [^\n]*\n`)
)

// dropUseListOrder removes the use-list order directives re matches from LLVM IR text.
func dropUseListOrder(ir []byte, re *regexp.Regexp) []byte {
	if !bytes.Contains(ir, []byte("uselistorder")) {
		return ir
	}
	return re.ReplaceAll(ir, nil)
}
