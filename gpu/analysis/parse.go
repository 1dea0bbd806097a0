package analysis

import (
	"context"
	"errors"
	"github.com/kernelscope/kernelscope/gpu/report"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// ParseResult is the answer of `kernelscope parse --json` (names fixed by docs/design.md).
type ParseResult struct {
	PTX     PTXInfo             `json:"ptx"`
	Kernels []report.KernelInfo `json:"kernels"`
	Errors  []ParseError        `json:"errors"`
}

// PTXInfo is the module header.
type PTXInfo struct {
	Version string `json:"version"`
	Target  string `json:"target"`
}

// ParseError is one compiler or parser message with its position.
type ParseError struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// ParseOnly compiles (for CUDA) and parses, and describes the kernels. With
// errors it returns what was parsed plus every error, and a non-nil error.
func ParseOnly(ctx context.Context, req Request) (*ParseResult, error) {
	if req.Arch == "" {
		req.Arch = defaultArch
	}
	rep := &report.Report{}
	out := &ParseResult{Kernels: []report.KernelInfo{}, Errors: []ParseError{}}
	text, err := compile(ctx, req, rep)
	if err != nil {
		var f *Failure
		if errors.As(err, &f) {
			diags := f.Diags
			if len(diags) == 0 {
				diags = []report.Error{f.Err}
			}
			for _, d := range diags {
				out.Errors = append(out.Errors, ParseError{Line: d.CUDALine, Col: d.Col, Message: d.Message})
			}
		}
		return out, err
	}
	mod, perr := ptx.Parse(ptxFileName(req), text)
	if mod != nil {
		out.PTX = PTXInfo{Version: mod.Version, Target: strings.Join(mod.Target, ", ")}
		cuda := map[string][]cudaParam{}
		if !req.IsPTX {
			cuda = fillFromClang(ctx, req.Source, req.BaseDir, req.Sandbox, mod, cudaKernels(string(req.Source)))
		}
		out.Kernels = kernelInfos(mod, cuda)
		setPTXASRegisters(out.Kernels, rep.ResUsage)
		if out.Kernels == nil {
			out.Kernels = []report.KernelInfo{}
		}
	}
	if perr != nil {
		var el ptx.ErrorList
		if errors.As(perr, &el) {
			for _, e := range el {
				out.Errors = append(out.Errors, ParseError{Line: int(e.Pos.Line), Col: int(e.Pos.Col), Message: e.Msg})
			}
		} else {
			out.Errors = append(out.Errors, ParseError{Message: perr.Error()})
		}
		return out, perr
	}
	return out, nil
}
