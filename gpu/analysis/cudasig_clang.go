package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// astNode is the part of a clang -ast-dump=json node the signature reader uses.
type astNode struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	Type struct {
		QualType string `json:"qualType"`
	} `json:"type"`
	Init  string    `json:"init"`
	Range astRange  `json:"range"`
	Inner []astNode `json:"inner"`
}

type astRange struct {
	Begin astLoc `json:"begin"`
	End   astLoc `json:"end"`
}

type astLoc struct {
	Offset  int    `json:"offset"`
	TokLen  int    `json:"tokLen"`
	File    string `json:"file"`
	Spelled *struct {
		Offset int `json:"offset"`
	} `json:"spellingLoc"`
}

// clangKernelSignatures reads the parameters of the __global__ functions named in names
// from clang's AST of the source (clang -fsyntax-only -Xclang -ast-dump=json with the
// prelude, one -ast-dump-filter per name): the names and types exactly as clang sees
// them, through macros, templates, attributes and default arguments. Template kernels
// give their instantiations' parameters (the first one found). It needs a clang on
// PATH; the light scan (cudaKernels) stays the primary reader, this one fills in what
// it missed (fillFromClang). includeDir ("" for none) is searched for #include "...".
func clangKernelSignatures(ctx context.Context, src []byte, includeDir string, names []string) (map[string][]cudaParam, error) {
	exe, err := toolchain.FindClang()
	if err != nil {
		return nil, fmt.Errorf("signatures: %w", err)
	}
	dir, err := os.MkdirTemp("", "ks-ast-")
	if err != nil {
		return nil, fmt.Errorf("signatures: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := toolchain.WritePrelude(dir); err != nil {
		return nil, fmt.Errorf("signatures: %w", err)
	}
	file := filepath.Join(dir, "cell.cu")
	if err := os.WriteFile(file, src, 0o600); err != nil {
		return nil, fmt.Errorf("signatures: %w", err)
	}
	out := map[string][]cudaParam{}
	for _, name := range names {
		cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		args := []string{"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
			"-fsyntax-only", "-I", dir, "-include", toolchain.PreludeName, "-Xclang", "-ast-dump=json", "-Xclang", "-ast-dump-filter=" + name}
		if includeDir != "" {
			if abs, err := filepath.Abs(includeDir); err == nil {
				includeDir = abs
			}
			args = append(args, "-iquote", includeDir)
		}
		cmd := exec.CommandContext(cctx, exe, append(args, file)...)
		cmd.Dir = dir
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		runErr := cmd.Run()
		cancel()
		if runErr != nil && stdout.Len() == 0 {
			return nil, fmt.Errorf("signatures: clang AST of %s: %w", name, runErr)
		}
		dec := json.NewDecoder(&stdout)
		for {
			var n astNode
			if err := dec.Decode(&n); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				// The dump interleaves "Dumping NAME:" lines with the JSON objects.
				rest, _ := io.ReadAll(io.MultiReader(dec.Buffered(), &stdout))
				if i := bytes.IndexByte(rest, '{'); i >= 0 {
					stdout = *bytes.NewBuffer(rest[i:])
					dec = json.NewDecoder(&stdout)
					continue
				}
				break
			}
			collectKernels(&n, src, name, out)
		}
	}
	return out, nil
}

// collectKernels adds the kernel name's parameters from an AST node (a FunctionDecl
// with a CUDAGlobalAttr, or a FunctionTemplateDecl's instantiations).
func collectKernels(n *astNode, src []byte, name string, out map[string][]cudaParam) {
	if _, done := out[name]; done {
		return
	}
	switch n.Kind {
	case "FunctionTemplateDecl":
		// The first FunctionDecl is the pattern; later ones are instantiations.
		for i := range n.Inner {
			if n.Inner[i].Kind == "FunctionDecl" {
				collectKernels(&n.Inner[i], src, name, out)
			}
		}
	case "FunctionDecl":
		if n.Name != name {
			return
		}
		global := false
		var params []cudaParam
		for _, c := range n.Inner {
			switch c.Kind {
			case "CUDAGlobalAttr":
				global = true
			case "ParmVarDecl":
				params = append(params, astParam(&c, src))
			}
		}
		if global {
			out[name] = params
		}
	}
}

// astParam is a parameter as clang typed it; the default argument is its source text
// when the range lies in the cell.
func astParam(c *astNode, src []byte) cudaParam {
	ct := strings.Join(strings.Fields(c.Type.QualType), " ")
	p := cudaParam{name: c.Name, ctype: ct}
	if strings.Contains(ct, "*") {
		p.pointer = true
		base := ct[:strings.LastIndex(ct, "*")]
		base = strings.NewReplacer("__restrict", "", "const", "", "volatile", "").Replace(base)
		base = strings.TrimSpace(strings.ReplaceAll(base, "*", " "))
		p.elem = cElem(base)
		if p.elem == "" {
			if l, ok := typeLayout(base, cudaStructs(string(src))); ok {
				p.elem, p.pointeeSize, p.pointeeElems, p.pointee = l.elem, l.size, l.size/max(elemSize(l.elem), 1), baseTypeName(base)
			}
		}
	}
	for _, d := range c.Inner {
		b, e := d.Range.Begin.Offset, d.Range.End.Offset+d.Range.End.TokLen
		if d.Range.Begin.Spelled != nil || b <= 0 || e > len(src) || b >= e {
			p.def = "?"
			continue
		}
		p.def = strings.TrimSpace(string(src[b:e]))
	}
	return p
}

// fillFromClang adds, for each kernel of the module the light scan found no usable
// parameters for (a kernel made by a function-like macro, a name the scan cannot see),
// the parameters clang's AST gives. Without a clang, or when clang fails, the scan's
// result stands as it was. A sandboxed request never runs it (its clang run has
// none of the toolchain's sandbox rules for #include).
func fillFromClang(ctx context.Context, src []byte, includeDir string, sandbox bool, mod *ptx.Module, cuda map[string][]cudaParam) map[string][]cudaParam {
	if sandbox {
		return cuda
	}
	var missing []string
	for _, k := range mod.Kernels() {
		n := demangle(k.Name)
		if cps, ok := cuda[n]; (!ok || len(cps) != len(k.Params)) && len(k.Params) > 0 && n != "" && !strings.ContainsAny(n, "<> ") {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return cuda
	}
	got, err := clangKernelSignatures(ctx, src, includeDir, missing)
	if err != nil {
		return cuda
	}
	for n, ps := range got {
		if _, ok := cuda[n]; !ok || len(cuda[n]) != len(ps) {
			cuda[n] = ps
		}
	}
	return cuda
}
